import { readdirSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readText, removeEmptyDirs, writeAtomic } from './files.js';
import type { HostId, InstallOptions } from '../types.js';
import type { ConfigRecord } from './core.js';
import { hostDir, type HostDir, type HostDirHost, userHome } from '@hive-mind/transcripts/host-dirs';
import { mindHome } from '@hive-mind/mind/paths';

/** What an install recorded so uninstall can undo exactly its own additions. */
export interface InstallState {
  host: HostId;
  installedAt: string;
  /** Per config file (path as the installer names it): what install created and the edits it made (core.ts). */
  configs: Record<string, ConfigRecord>;
  /** Directories the install created (absolute paths); uninstall removes those left empty. */
  dirs?: string[];
}

/** A record written before `configs` existed (`created` paths per file; `[]` or `['<file>']` for the file itself). */
type LegacyState = Partial<InstallState> & { created?: Record<string, string[][]>; extra?: { createdFile?: boolean } };

function upgrade(s: LegacyState): InstallState {
  if (s.configs) return s as InstallState;
  const configs: Record<string, ConfigRecord> = {};
  for (const [file, paths] of Object.entries(s.created ?? {})) {
    const createdFile = paths.some((p) => p.length === 0 || p[0] === '<file>') || s.extra?.createdFile === true;
    configs[file] = { ...(createdFile ? { createdFile } : {}), created: paths.filter((p) => p.length > 0 && p[0] !== '<file>'), edits: [] };
  }
  return { host: s.host!, installedAt: s.installedAt ?? '', configs, ...(s.dirs ? { dirs: s.dirs } : {}) };
}

/** The user's home for an install: `opts.home`, else transcripts' `userHome` (`HOME` when set and not empty, else `os.homedir()`). */
export function homeOf(opts: InstallOptions = {}): string {
  const env = opts.env ?? process.env;
  return opts.home !== undefined ? resolve(opts.home) : userHome(env);
}

/** The environment an install reads the hosts' variables from: `opts.env`, else none when a `home` is given (a test's temp home), else `process.env`. */
export function envOf(opts: InstallOptions = {}): NodeJS.ProcessEnv {
  return opts.env ?? (opts.home ? {} : process.env);
}

/**
 * The folder `host` reads its config from for this install (transcripts' {@link hostDir}, the
 * resolver `hive-mind sessions` uses too): the host's variable in {@link envOf}, else its
 * default under {@link homeOf}. Carries the reason, for install/verify/uninstall to print.
 */
export function hostDirOf(host: HostDirHost, opts: InstallOptions = {}): HostDir {
  return hostDir(host, { ...envOf(opts), HOME: homeOf(opts) });
}

/** The hive-mind home of an install: `HIVE_MIND_HOME`, else `<home>/.hive-mind`. */
function hiveMindHomeOf(opts: InstallOptions = {}): string {
  return mindHome({ ...(opts.env ?? process.env), HOME: homeOf(opts) });
}

/** `<hive-mind home>/installs/<host>.json`. */
export function statePath(host: HostId, opts: InstallOptions = {}): string {
  return join(hiveMindHomeOf(opts), 'installs', `${host}.json`);
}

/** `<hive-mind home>/bin/run-hive-mind`: the launcher installed hooks run (launcher.ts), shared by every host. */
export function launcherPath(opts: InstallOptions = {}): string {
  return join(hiveMindHomeOf(opts), 'bin', 'run-hive-mind');
}

/** Whether a host other than `host` has an install record (and so may run the shared launcher). */
export function otherInstalls(host: HostId, opts: InstallOptions = {}): boolean {
  const dir = dirname(statePath(host, opts));
  try {
    return readdirSync(dir).some((f) => f.endsWith('.json') && f !== `${host}.json`);
  } catch {
    return false;
  }
}

/** The recorded state, or undefined (missing or unreadable state is not an error: uninstall then removes only our entries). */
export function readState(host: HostId, opts: InstallOptions = {}): InstallState | undefined {
  try {
    const t = readText(statePath(host, opts));
    return t ? upgrade(JSON.parse(t) as LegacyState) : undefined;
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
 * created and those holding `files` (files wholly ours; only directories now empty), the install record, and the `installs` directory and
 * hive-mind home when they are left empty. No-op under dry-run.
 */
export function dropState(host: HostId, opts: InstallOptions, state: InstallState | undefined, files: string[] = []): void {
  if (opts.dryRun) return;
  // the directories of files wholly ours go when left empty, even when they existed before (they were created for us)
  removeEmptyDirs([...(state?.dirs ?? []), ...files.map((f) => dirname(f))]);
  const p = statePath(host, opts);
  try {
    unlinkSync(p);
  } catch {
    // no record
  }
  removeEmptyDirs([dirname(p), dirname(dirname(p))]);
}
