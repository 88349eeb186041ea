/**
 * `hive-mind uninstall HOST --plugin`: remove the hive-mind host plugin with its marketplace
 * entry and its cached copies, which the hosts' own `plugin uninstall` / `plugin remove` leave
 * behind (seen with the real binaries):
 * - Claude Code 2.1.332, after `claude plugin uninstall hive-mind@hive-mind`: `settings.json`
 *   keeps `extraKnownMarketplaces.hive-mind` (and `enabledPlugins` without our key),
 *   `plugins/known_marketplaces.json` keeps `hive-mind`, and
 *   `plugins/cache/hive-mind/hive-mind/<version>/` stays, marked `.orphaned_at`. A marketplace
 *   added from GitHub is also cloned into `plugins/marketplaces/hive-mind/`.
 * - Codex 0.171.0, after `codex plugin remove hive-mind@hive-mind`: `config.toml` keeps
 *   `[marketplaces.hive-mind]`, and `plugins/cache/hive-mind/` stays (emptied).
 *
 * Each config file is edited in place by the installers' own format editors (JSON with
 * jsonc-parser's tree, TOML by whole lines after smol-toml validates), so comments and every
 * other setting stay byte for byte; a changed file gets a timestamped backup beside it. The
 * plugin's switch and its install record are removed too, so one command is enough whether or
 * not the host's own uninstall ran. Claude Code's `.claude.json` `declinedPlugins` is the user's
 * choice and stays. Run it with the host closed: a running host may write its files back.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { HostConfigDir, HostId, PluginHost, PluginRemovalReport } from '../types.js';
import { HostConfigError } from './errors.js';
import { commitFile, readText, unifiedDiff } from './files.js';
import type { ConfigFormat } from './format.js';
import { JSON_FORMAT } from './format-json.js';
import { TOML_FORMAT } from './format-toml.js';
import { PLUGIN_ID } from './plugins.js';

/** The marketplace name both hosts know the repository by (`.claude-plugin/marketplace.json`, `.agents/plugins/marketplace.json`). */
export const MARKETPLACE = 'hive-mind';

export type { PluginRemovalReport } from '../types.js';

/** One member to delete from a config file: the object `path` and its `key`. */
interface Removal {
  path: string[];
  key: string;
}

interface FileEdit {
  file: string;
  format: ConfigFormat;
  removals: Removal[];
}

/** What each host with a hive-mind plugin keeps of it, relative to its config folder. */
const PLAN: { readonly [H in PluginHost]: { edits: (dir: string) => FileEdit[]; folders: (dir: string) => string[] } } = {
  'claude-code': {
    edits: (dir) => [
      {
        file: join(dir, 'settings.json'),
        format: JSON_FORMAT,
        removals: [
          { path: ['enabledPlugins'], key: PLUGIN_ID },
          { path: ['extraKnownMarketplaces'], key: MARKETPLACE },
        ],
      },
      { file: join(dir, 'plugins', 'installed_plugins.json'), format: JSON_FORMAT, removals: [{ path: ['plugins'], key: PLUGIN_ID }] },
      { file: join(dir, 'plugins', 'known_marketplaces.json'), format: JSON_FORMAT, removals: [{ path: [], key: MARKETPLACE }] },
    ],
    folders: (dir) => [join(dir, 'plugins', 'cache', MARKETPLACE), join(dir, 'plugins', 'marketplaces', MARKETPLACE)],
  },
  codex: {
    edits: (dir) => [
      {
        file: join(dir, 'config.toml'),
        format: TOML_FORMAT,
        removals: [
          { path: [], key: `plugins.${JSON.stringify(PLUGIN_ID)}` },
          { path: [], key: `marketplaces.${MARKETPLACE}` },
        ],
      },
    ],
    folders: (dir) => [join(dir, 'plugins', 'cache', MARKETPLACE)],
  },
};

/** Whether the parsed `data` has `key` in the object at `path` (a TOML table name `a.b` or `a."b"` is looked up as its two keys). */
function present(data: Record<string, unknown>, format: ConfigFormat, r: Removal): boolean {
  const keys = format === TOML_FORMAT ? tomlTableKeys(r.key) : [...r.path, r.key];
  let at: unknown = data;
  for (const k of keys) {
    if (!at || typeof at !== 'object' || !Object.prototype.hasOwnProperty.call(at, k)) return false;
    at = (at as Record<string, unknown>)[k];
  }
  return true;
}

/** `plugins."hive-mind@hive-mind"` -> `['plugins', 'hive-mind@hive-mind']`. */
function tomlTableKeys(name: string): string[] {
  return (name.match(/"[^"]*"|[^.]+/g) ?? []).map((k) => (k.startsWith('"') ? (JSON.parse(k) as string) : k));
}

/** A `[table]` header line: its name as written (`plugins."hive-mind@hive-mind"`), or undefined. */
const TOML_HEADER = /^[ \t]*\[[ \t]*([^\]\s]+)[ \t]*\][ \t]*(?:#.*)?\r?\n?$/;
const BLANK_OR_COMMENT = /^[ \t]*(#.*)?\r?\n?$/;
const BLANK = /^[ \t]*\r?\n?$/;

/**
 * Remove the TOML table `name` as the host wrote it: its header and key lines, and the blank
 * line that set it apart, but not the comment and blank lines below its last key (they introduce
 * what follows). Undefined when no `[name]` header is there (the table is written as dotted keys
 * or an inline table).
 */
function removeTomlTable(text: string, name: string): string | undefined {
  const want = tomlTableKeys(name).join('\u0000');
  const ls = text.split(/(?<=\n)/);
  const header = ls.findIndex((l) => {
    const m = TOML_HEADER.exec(l);
    return m !== null && tomlTableKeys(m[1]!).join('\u0000') === want;
  });
  if (header < 0) return undefined;
  let end = header + 1;
  while (end < ls.length && !/^[ \t]*\[/.test(ls[end]!)) end++;
  while (end > header + 1 && BLANK_OR_COMMENT.test(ls[end - 1]!)) end--;
  let start = header;
  if (start > 0 && BLANK.test(ls[start - 1]!) && (end === ls.length || BLANK.test(ls[end]!))) start--;
  return ls.slice(0, start).join('') + ls.slice(end).join('');
}

/** Where `r` is written, for the error: a TOML table's first line naming its first key (dotted keys or an inline table), else the format's offset of the member. */
function offsetOf(e: FileEdit, text: string, r: Removal): number {
  if (e.format !== TOML_FORMAT) return e.format.offsetOf(text, [...r.path, r.key]) ?? 0;
  const first = tomlTableKeys(r.key)[0]!.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  const m = new RegExp(`^([ \\t]*)(?:${first}|"${first}")[ \\t]*[.=]`, 'm').exec(text);
  return m ? m.index + m[1]!.length : 0;
}

/** Apply `removals` to `text` (those present in the file); returns the new text. Throws HostConfigError naming the file. */
function edit(e: FileEdit, text: string): string {
  let out = text;
  for (const r of e.removals) {
    if (!present(e.format.parse(e.file, out.replace(/^\uFEFF/, '')), e.format, r)) continue;
    const what = e.format === TOML_FORMAT ? `[${r.key}]` : [...r.path, r.key].join('.');
    let next: string | undefined;
    try {
      next = e.format === TOML_FORMAT ? removeTomlTable(out, r.key) : e.format.removeMember(out, r.path, r.key);
    } catch (err) {
      if (err instanceof HostConfigError) throw err;
      next = undefined;
    }
    if (next === undefined) throw HostConfigError.at(e.file, out, offsetOf(e, out, r), `cannot remove ${what} (written in a form hive-mind does not edit); remove it by hand`);
    out = next;
  }
  return out;
}


const isPluginHost = (h: HostId): h is PluginHost => Object.hasOwn(PLAN, h);
/**
 * Remove the hive-mind plugin of `host` (Claude Code or Codex) under its config folder `dir`:
 * the plugin switch and install record, the marketplace entry, and the cached copies. Idempotent:
 * a second run changes nothing. With `dryRun` nothing is written or deleted; the report says
 * what would be. Throws HostConfigError (file, line, column) for a config file that does not
 * parse or whose entry is written in a form the editor does not change (a TOML dotted key or
 * inline table); nothing is changed then.
 */
export function removePlugin(host: HostId, configDir: HostConfigDir, opts: { dryRun?: boolean } = {}): PluginRemovalReport {
  if (!isPluginHost(host)) throw new TypeError(`${host} has no hive-mind plugin (only ${Object.keys(PLAN).join(' and ')} do)`);
  const plan = PLAN[host];
  const dryRun = !!opts.dryRun;
  // plan every edit before writing any, so a file that cannot be edited changes nothing
  const planned = plan.edits(configDir.dir).map((e) => {
    const before = readText(e.file);
    const after = before === undefined ? undefined : edit(e, before);
    return { e, before, after };
  });
  const files: PluginRemovalReport['files'] = [];
  for (const { e, before, after } of planned) {
    if (before === undefined || after === undefined) continue;
    const changed = after !== before;
    const backup = changed && !dryRun ? commitFile(e.file, after) : undefined;
    files.push({ path: e.file, changed, ...(backup ? { backup } : {}), diff: unifiedDiff(e.file, before, after) });
  }
  const removed = plan.folders(configDir.dir).filter((d) => existsSync(d));
  if (!dryRun) for (const d of removed) rmSync(d, { recursive: true, force: true });
  return { host, dryRun, files, removed, configDir };
}
