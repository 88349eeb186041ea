/**
 * Codex CLI installer:
 * - our command hooks in `~/.codex/hooks.json` (`$CODEX_HOME/hooks.json` when CODEX_HOME
 *   is set), same document shape as Claude Code's
 *   (developers.openai.com/codex/hooks), events SessionStart, UserPromptSubmit, Stop, PreCompact;
 * - `[features] hooks = true` in `config.toml` next to it (needed by 0.171.0 before it
 *   runs user hooks; shared/data/README.md), as one line marked `# added by hive-mind`.
 * Codex also runs a user hook only once it is trusted; install cannot do that for the
 * user, and says so in its notes.
 */
import { join } from 'node:path';
import { listOurs } from '../install/core.js';
import { lineColumn } from '../install/errors.js';
import { readText } from '../install/files.js';
import { JSON_FORMAT, strictJsonProblem } from '../install/format-json.js';
import { TOML_FORMAT } from '../install/format-toml.js';
import { installedHooks, runInstaller, verifyInstalled, type InstallerSpec } from '../install/installer.js';
import { matcherGroupList } from '../install/matcher-groups.js';
import { hostDirOf } from '../install/state.js';
import { removePlugin } from '../install/plugin-remove.js';
import { codexPlugin } from '../install/plugins.js';
import type { HostInstaller, InstallOptions } from '../types.js';
import { CODEX_EVENTS } from './codex.js';

/** The Codex config directory: `$CODEX_HOME`, else `~/.codex` (state.ts `hostDirOf`). */
export function codexDir(opts: InstallOptions = {}): string {
  return hostDirOf('codex', opts).dir;
}

const SAMPLE_SESSION = '00000000-0000-4000-8000-00000000c0de';
const SAMPLE_TURN = '00000000-0000-4000-8000-0000000000b1';

/** Payloads shaped like the real Codex 0.171.0 ones (shared/data/host-payloads/codex). */
function sample(event: string, cwd: string): unknown {
  const base = { session_id: SAMPLE_SESSION, transcript_path: join(cwd, 'no-rollout.jsonl'), cwd, hook_event_name: event, model: 'gpt-5-codex', permission_mode: 'default' };
  if (event === 'SessionStart') return { ...base, source: 'startup' };
  if (event === 'UserPromptSubmit') return { ...base, turn_id: SAMPLE_TURN, prompt: 'remember that hive-mind verify ran here' };
  if (event === 'PreCompact') return { ...base, turn_id: SAMPLE_TURN, trigger: 'auto' };
  return { ...base, turn_id: SAMPLE_TURN, stop_hook_active: false, last_assistant_message: 'Noted: hive-mind verify ran here.' };
}

/** Trust step Codex still needs after install (printed by `hive-mind install codex`). */
export const CODEX_TRUST_NOTE =
  'Codex runs a new or changed user hook only after you trust it: start `codex` in a terminal, open `/hooks`, review the four hive-mind hooks (SessionStart, UserPromptSubmit, Stop, PreCompact) and trust them. Until then Codex skips them. Unattended runs can skip the review with `codex exec --dangerously-bypass-hook-trust`.';

/** What Codex 0.171.0 does with a hooks.json that is not strict JSON (seen with the real binary). */
const STRICT_JSON = 'Codex 0.171.0 refuses such a hooks.json ("failed to parse hooks config") and runs none of its hooks. hive-mind kept your file as it is; remove comments, trailing commas and a leading byte order mark so Codex loads its hooks.';

/**
 * The hive-mind plugin (plugins/codex) enabled in config.toml (`[plugins."hive-mind@hive-mind"]
 * enabled = true`, what `codex plugin add` writes): with our hooks too, every session start
 * would recall twice.
 */
function pluginToo(file: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let enabled: unknown;
  try {
    enabled = (TOML_FORMAT.parse(file, text) as { plugins?: Record<string, { enabled?: unknown }> }).plugins?.['hive-mind@hive-mind']?.enabled;
  } catch {
    return undefined;
  }
  if (enabled !== true) return undefined;
  return `${file}: the hive-mind plugin (hive-mind@hive-mind) is enabled too, so each session would recall twice; keep one: \`codex plugin remove hive-mind@hive-mind\` or \`hive-mind uninstall codex\``;
}

export const codexSpec: InstallerSpec = {
  host: 'codex',
  dir: (opts) => hostDirOf('codex', opts),
  configs: (opts, prefix) => [
    { file: join(codexDir(opts), 'hooks.json'), format: JSON_FORMAT, lists: [matcherGroupList('codex', CODEX_EVENTS, prefix)], snippet: '"hooks": {"<Event>": [{"hooks": [{"type": "command", "command": "hive-mind hook codex <Event>"}]}]}' },
    // Uninstall takes our line out again (your exact TOML comes back, `hooks = false` included):
    // keeping it would switch on hooks of yours that were dormant before.
    { file: join(codexDir(opts), 'config.toml'), format: TOML_FORMAT, settings: [{ path: ['features', 'hooks'], value: true }], snippet: '`hooks = true` under `[features]`' },
  ],
  notes({ action, configs }) {
    const [json, toml] = configs;
    if (action === 'install') {
      const problem = json!.after === undefined ? undefined : strictJsonProblem(json!.spec.file, json!.after);
      const plugin = pluginToo(toml!.spec.file, toml!.after);
      return [...(problem ? [`warning: ${problem}: ${STRICT_JSON}`] : []), ...(plugin ? [`warning: ${plugin}`] : []), CODEX_TRUST_NOTE];
    }
    const notes: string[] = [];
    // hooks of the user's left in hooks.json need the flag we just took out
    const left = json!.after?.trim() ? (JSON_FORMAT.parse(json!.spec.file, json!.after) as { hooks?: Record<string, unknown> }) : {};
    let userHooks = 0;
    for (const groups of Object.values(left.hooks ?? {})) if (Array.isArray(groups)) for (const g of groups) userHooks += Array.isArray((g as { hooks?: unknown[] })?.hooks) ? (g as { hooks: unknown[] }).hooks.length : 0;
    userHooks -= json!.after?.trim() ? listOurs(json!.spec, json!.after).length : 0;
    if (userHooks > 0 && toml!.after !== toml!.before) {
      notes.push(
        `removed the [features] hooks = true line hive-mind added to ${toml!.spec.file}; ${json!.spec.file} still has ${userHooks} hook(s) of yours, which Codex runs only with that flag on: set \`hooks = true\` under [features] yourself if you want them.`,
      );
    }
    notes.push(json!.after !== json!.before ? 'hive-mind hooks removed from Codex; your other hooks and settings are unchanged.' : 'no hive-mind hooks were installed in Codex.');
    if (pluginToo(toml!.spec.file, toml!.after)) notes.push('the hive-mind plugin (hive-mind@hive-mind) is still installed in Codex; remove it with its marketplace entry and cached copy: `hive-mind uninstall codex --plugin`');
    return notes;
  },
};

/**
 * `[features] hooks` set to anything but true in config.toml: Codex 0.171.0 then runs no hook
 * at all (seen with the real binary; without the key it runs them). As `file: line L, column C: …`.
 */
function hooksFlagProblem(file: string): string[] {
  const text = readText(file);
  if (text === undefined) return [];
  let value: unknown;
  try {
    value = (TOML_FORMAT.parse(file, text) as { features?: { hooks?: unknown } }).features?.hooks;
  } catch (e) {
    return [(e as Error).message.replace(/; nothing was changed$/, '')];
  }
  if (value === undefined || value === true) return [];
  const { line, column } = lineColumn(text, TOML_FORMAT.offsetOf(text, ['features', 'hooks']) ?? 0);
  return [`${file}: line ${line}, column ${column}: [features] hooks = ${JSON.stringify(value)}: Codex 0.171.0 runs no hooks at all; set it to true (or re-run hive-mind install codex)`];
}

export const installer: HostInstaller = {
  host: 'codex',
  install: (opts = {}) => runInstaller(codexSpec, 'install', opts),
  uninstall: (opts = {}) => runInstaller(codexSpec, 'uninstall', opts),
  installed: (opts = {}) => installedHooks(codexSpec, opts),
  plugin: (opts = {}) => codexPlugin(codexDir(opts), CODEX_EVENTS),
  removePlugin: (opts = {}) => removePlugin('codex', hostDirOf('codex', opts), opts),
  verify: (opts = {}) =>
    verifyInstalled(codexSpec, opts, {
      events: ['UserPromptSubmit', 'Stop', 'PreCompact', 'SessionStart'],
      sample,
      plugin: () => installer.plugin!(opts),
      configProblems: () => {
        const file = join(codexDir(opts), 'hooks.json');
        const text = readText(file);
        const p = text === undefined ? undefined : strictJsonProblem(file, text);
        const tomlFile = join(codexDir(opts), 'config.toml');
        // only with hooks of ours in hooks.json too (else verify checks the plugin's own hooks)
        const both = installedHooks(codexSpec, opts).length === 0 ? undefined : pluginToo(tomlFile, readText(tomlFile));
        return [...(p ? [`${p}: ${STRICT_JSON}`] : []), ...hooksFlagProblem(tomlFile), ...(both ? [both] : [])];
      },
    }),
};
