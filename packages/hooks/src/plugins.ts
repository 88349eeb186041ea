/**
 * Where a host records an installed hive-mind plugin (read only; the host's own
 * `plugin install` / `plugin add` writes these files). Formats as the pinned binaries write them:
 * - Claude Code 2.1.332: `<config dir>/plugins/installed_plugins.json`
 *   `{"version": 2, "plugins": {"<plugin>@<marketplace>": [{"scope", "installPath", "version", ...}]}}`
 *   and `<config dir>/settings.json` `{"enabledPlugins": {"<plugin>@<marketplace>": true}}`;
 *   the config dir is `CLAUDE_CONFIG_DIR`, else `~/.claude`.
 * - Codex 0.171.0: `<CODEX_HOME>/config.toml` `[plugins."<plugin>@<marketplace>"]` (`enabled`),
 *   the copy in `<CODEX_HOME>/plugins/cache/<marketplace>/<plugin>/<version>`; `CODEX_HOME`
 *   defaults to `~/.codex`.
 * Both run the hooks through the copy's `scripts/run-hive-mind`, which finds the CLI at run time.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { onPath } from './install/health.js';
import type { HostId } from './types.js';

/** The plugin's name in every marketplace that lists it. */
export const PLUGIN_NAME = 'hive-mind';

/** One installed copy of the hive-mind plugin. */
export interface InstalledPlugin {
  /** `<plugin>@<marketplace>`, as the host names it. */
  id: string;
  version?: string;
  /** The host's copy of the plugin folder (absolute), when known. */
  path?: string;
  /** False when the host has it installed but switched off. */
  enabled: boolean;
  /** The file the host records it in. */
  recordedIn: string;
  /** What stops the copy from running: a missing launcher. */
  problems: string[];
}

function home(env: NodeJS.ProcessEnv): string {
  return env.HOME && env.HOME.trim() ? env.HOME : homedir();
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

const isOurs = (id: string) => id === PLUGIN_NAME || id.startsWith(`${PLUGIN_NAME}@`);

function launcherProblems(path: string | undefined): string[] {
  if (!path) return [];
  const launcher = join(path, 'scripts', 'run-hive-mind');
  if (!existsSync(launcher)) return [`the plugin copy ${path} has no scripts/run-hive-mind: reinstall the plugin`];
  return [];
}

function claudeCodePlugins(env: NodeJS.ProcessEnv): InstalledPlugin[] {
  const dir = env.CLAUDE_CONFIG_DIR && env.CLAUDE_CONFIG_DIR.trim() ? resolve(env.CLAUDE_CONFIG_DIR) : join(home(env), '.claude');
  const file = join(dir, 'plugins', 'installed_plugins.json');
  const doc = readJson(file) as { plugins?: Record<string, Array<{ installPath?: unknown; version?: unknown }>> } | undefined;
  const settings = readJson(join(dir, 'settings.json')) as { enabledPlugins?: Record<string, unknown> } | undefined;
  const out: InstalledPlugin[] = [];
  for (const [id, installs] of Object.entries(doc?.plugins ?? {})) {
    if (!isOurs(id) || !Array.isArray(installs)) continue;
    for (const i of installs) {
      const path = typeof i.installPath === 'string' ? i.installPath : undefined;
      out.push({
        id,
        ...(typeof i.version === 'string' ? { version: i.version } : {}),
        ...(path ? { path } : {}),
        enabled: settings?.enabledPlugins?.[id] !== false,
        recordedIn: file,
        problems: launcherProblems(path),
      });
    }
  }
  return out;
}

function codexPlugins(env: NodeJS.ProcessEnv): InstalledPlugin[] {
  const dir = env.CODEX_HOME && env.CODEX_HOME.trim() ? resolve(env.CODEX_HOME) : join(home(env), '.codex');
  const file = join(dir, 'config.toml');
  let config: { plugins?: Record<string, { enabled?: unknown }> } | undefined;
  try {
    config = parseToml(readFileSync(file, 'utf8')) as typeof config;
  } catch {
    return [];
  }
  const out: InstalledPlugin[] = [];
  for (const [id, entry] of Object.entries(config?.plugins ?? {})) {
    if (!isOurs(id)) continue;
    const marketplace = id.split('@')[1] ?? '';
    const base = join(dir, 'plugins', 'cache', marketplace, PLUGIN_NAME);
    let version: string | undefined;
    try {
      version = readdirSync(base)
        .filter((v) => statSync(join(base, v)).isDirectory())
        .sort()
        .pop();
    } catch {
      version = undefined;
    }
    const path = version ? join(base, version) : undefined;
    out.push({
      id,
      ...(version ? { version } : {}),
      ...(path ? { path } : {}),
      enabled: entry?.enabled !== false,
      recordedIn: file,
      problems: path ? launcherProblems(path) : [`the host lists ${id} but has no copy under ${base}: reinstall the plugin`],
    });
  }
  return out;
}

/** The hive-mind plugins `host` has installed (none for hosts without a plugin format). Never throws. */
export function installedPlugins(host: HostId, env: NodeJS.ProcessEnv = process.env): InstalledPlugin[] {
  try {
    if (host === 'claude-code') return claudeCodePlugins(env);
    if (host === 'codex') return codexPlugins(env);
  } catch {
    // an unreadable host file: nothing we can report as installed
  }
  return [];
}

/**
 * The CLI a plugin's `scripts/run-hive-mind` would run outside any project: `HIVE_MIND_CLI`
 * when that file exists, else `hive-mind` on `PATH` (the launcher then tries the project's
 * `node_modules/.bin/hive-mind`, which only a session in that project sees).
 */
export function pluginCli(env: NodeJS.ProcessEnv = process.env): { found: true; cli: string } | { found: false; fix: string } {
  const fromEnv = env.HIVE_MIND_CLI?.trim();
  if (fromEnv) {
    if (existsSync(fromEnv)) return { found: true, cli: fromEnv };
    return { found: false, fix: `HIVE_MIND_CLI=${fromEnv} does not exist; point it at the hive-mind bin, or unset it and \`npm install -g hive-mind\`` };
  }
  const onPathCli = onPath('hive-mind', env);
  if (onPathCli) return { found: true, cli: onPathCli };
  return { found: false, fix: 'hive-mind is not on PATH, so its hooks do nothing outside projects that have it in node_modules/.bin; run `npm install -g hive-mind` (or set HIVE_MIND_CLI to its bin/hive-mind.js)' };
}
