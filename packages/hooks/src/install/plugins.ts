/**
 * The hive-mind host plugins as installed by the hosts themselves (plugins/claude-code,
 * plugins/codex): where the host keeps its copy and which hooks that copy runs, so `verify`
 * (and status) can check a plugin install like a `hive-mind install` one.
 * - Claude Code 2.1.332: `~/.claude/plugins/installed_plugins.json` (`{"version": 2, "plugins":
 *   {"hive-mind@hive-mind": [{"scope", "installPath", "version", …}]}}`) and `"enabledPlugins":
 *   {"hive-mind@hive-mind": true}` in `~/.claude/settings.json` (seen with the real binary).
 * - Codex 0.171.0: `[plugins."hive-mind@hive-mind"] enabled = true` in `config.toml` and the copy
 *   in `<codex dir>/plugins/cache/hive-mind/hive-mind/<version>/` (seen with the real binary).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HostId, InstalledPlugin } from '../types.js';
import { globalCli } from './health.js';
import { CLI_INSTALL, CLI_INSTALL_FIX } from './launcher.js';
import { listOurs } from './core.js';
import { readText } from './files.js';
import { JSON_FORMAT } from './format-json.js';
import { TOML_FORMAT } from './format-toml.js';
import { matcherGroupList } from './matcher-groups.js';

/** The plugin id both marketplaces give it (`<plugin>@<marketplace>`). */
export const PLUGIN_ID = 'hive-mind@hive-mind';

export type { InstalledPlugin } from '../types.js';

function parse<T>(format: typeof JSON_FORMAT | typeof TOML_FORMAT, file: string): T | undefined {
  const text = readText(file);
  if (text === undefined) return undefined;
  try {
    return format.parse(file, text.replace(/^\uFEFF/, '')) as T;
  } catch {
    return undefined;
  }
}

function withHooks(host: HostId, events: readonly string[], id: string, root: string, version: string | undefined, env: Record<string, string>): InstalledPlugin | undefined {
  const hooksFile = join(root, 'hooks', 'hooks.json');
  const text = readText(hooksFile);
  if (text === undefined) return undefined;
  let hooks: InstalledPlugin['hooks'];
  try {
    hooks = listOurs({ file: hooksFile, format: JSON_FORMAT, lists: [matcherGroupList(host, events)], snippet: '' }, text).map((h) => ({ ...h, file: hooksFile }));
  } catch {
    hooks = [];
  }
  return { id, root, ...(version ? { version } : {}), hooksFile, hooks, env };
}

/** Claude Code's enabled hive-mind plugin under `claudeDir` (`~/.claude`), or undefined. */
export function claudeCodePlugin(claudeDir: string, events: readonly string[]): InstalledPlugin | undefined {
  const settings = parse<{ enabledPlugins?: Record<string, unknown> }>(JSON_FORMAT, join(claudeDir, 'settings.json'));
  if (settings?.enabledPlugins?.[PLUGIN_ID] !== true) return undefined;
  const installed = parse<{ plugins?: Record<string, Array<{ scope?: string; installPath?: string; version?: string }>> }>(JSON_FORMAT, join(claudeDir, 'plugins', 'installed_plugins.json'));
  const entry = installed?.plugins?.[PLUGIN_ID]?.find((e) => e.scope === 'user' && typeof e.installPath === 'string' && existsSync(e.installPath));
  if (!entry) return undefined;
  return withHooks('claude-code', events, PLUGIN_ID, entry.installPath!, entry.version, { CLAUDE_PLUGIN_ROOT: entry.installPath! });
}

/** Codex's enabled hive-mind plugin under `codexDir` (`~/.codex`), or undefined. */
export function codexPlugin(codexDir: string, events: readonly string[]): InstalledPlugin | undefined {
  const config = parse<{ plugins?: Record<string, { enabled?: unknown }> }>(TOML_FORMAT, join(codexDir, 'config.toml'));
  if (config?.plugins?.[PLUGIN_ID]?.enabled !== true) return undefined;
  const base = join(codexDir, 'plugins', 'cache', 'hive-mind', 'hive-mind');
  let versions: string[];
  try {
    versions = readdirSync(base).filter((v) => existsSync(join(base, v, '.codex-plugin', 'plugin.json'))).sort();
  } catch {
    return undefined;
  }
  const version = versions.at(-1);
  if (!version) return undefined;
  const root = join(base, version);
  return withHooks('codex', events, PLUGIN_ID, root, version, { PLUGIN_ROOT: root, CLAUDE_PLUGIN_ROOT: root });
}

/**
 * The CLI a plugin's `scripts/run-hive-mind` would run outside any project: `HIVE_MIND_CLI`
 * when that file exists, else `hive-mind` on `PATH` or in `~/.local/bin` (the launcher then tries the project's
 * `node_modules/.bin/hive-mind`, which only a session in that project sees). For `hive-mind status`.
 */
export function pluginCli(env: NodeJS.ProcessEnv = process.env): { found: true; cli: string } | { found: false; fix: string } {
  const fromEnv = env.HIVE_MIND_CLI?.trim();
  if (fromEnv) {
    if (existsSync(fromEnv)) return { found: true, cli: fromEnv };
    return { found: false, fix: `HIVE_MIND_CLI=${fromEnv} does not exist; point it at the hive-mind bin, or unset it and run \`${CLI_INSTALL}\` in a hive-mind checkout` };
  }
  const cli = globalCli(env);
  if (cli) return { found: true, cli };
  return { found: false, fix: `hive-mind is not on PATH nor in ~/.local/bin, so its hooks do nothing outside projects that have it in node_modules/.bin; ${CLI_INSTALL_FIX}` };
}
