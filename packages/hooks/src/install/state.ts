import { unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { readText, removeEmptyDirs, writeAtomic } from './files.js';
import type { HostId, InstallOptions } from '../types.js';

/** What an install recorded so uninstall can undo exactly its own additions. */
export interface InstallState {
  host: HostId;
  installedAt: string;
  /** Per config file: JSON paths of containers our install created. */
  created: Record<string, string[][]>;
  /** Host-specific extras (e.g. the Codex feature flag we set and its previous text). */
  extra?: Record<string, unknown>;
  /** Directories the install created (absolute paths); uninstall removes those left empty. */
  dirs?: string[];
}

/** The user's home for an install: `opts.home`, else `HOME`, else `os.homedir()`. */
export function homeOf(opts: InstallOptions = {}): string {
  const env = opts.env ?? process.env;
  return resolve(opts.home ?? (env.HOME && env.HOME.trim() ? env.HOME : homedir()));
}

/** `<hive-mind home>/installs/<host>.json`; the hive-mind home is `HIVE_MIND_HOME`, else `<home>/.hive-mind`. */
export function statePath(host: HostId, opts: InstallOptions = {}): string {
  const env = opts.env ?? process.env;
  const hm = env.HIVE_MIND_HOME && env.HIVE_MIND_HOME.trim() ? resolve(env.HIVE_MIND_HOME) : join(homeOf(opts), '.hive-mind');
  return join(hm, 'installs', `${host}.json`);
}

/** The recorded state, or undefined (missing or unreadable state is not an error: uninstall then removes only our entries). */
export function readState(host: HostId, opts: InstallOptions = {}): InstallState | undefined {
  try {
    const t = readText(statePath(host, opts));
    return t ? (JSON.parse(t) as InstallState) : undefined;
  } catch {
    return undefined;
  }
}

export function writeState(state: InstallState, opts: InstallOptions = {}): void {
  writeAtomic(statePath(state.host, opts), JSON.stringify(state, null, 2) + '\n');
}

/** `dirs` plus the directories an earlier install of `host` recorded (a re-install keeps the first record). */
export function withPriorDirs(host: HostId, opts: InstallOptions, dirs: string[]): string[] {
  return [...new Set([...(readState(host, opts)?.dirs ?? []), ...dirs])];
}

/**
 * After an uninstall left nothing of ours for `host`: remove the directories its install
 * created (only those now empty), the install record, and the `installs` directory and
 * hive-mind home when they are left empty. No-op under dry-run.
 */
export function dropState(host: HostId, opts: InstallOptions, state: InstallState | undefined): void {
  if (opts.dryRun) return;
  removeEmptyDirs(state?.dirs ?? []);
  const p = statePath(host, opts);
  try {
    unlinkSync(p);
  } catch {
    // no record
  }
  removeEmptyDirs([dirname(p), dirname(dirname(p))]);
}
