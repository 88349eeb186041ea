/**
 * Codex CLI installer:
 * - our command hooks in `~/.codex/hooks.json` (`$CODEX_HOME/hooks.json` when CODEX_HOME
 *   is set and no explicit home is given), same document shape as Claude Code's
 *   (developers.openai.com/codex/hooks), events SessionStart, UserPromptSubmit, Stop, PreCompact;
 * - `[features] hooks = true` in `config.toml` next to it (needed by 0.171.0 before it
 *   runs user hooks; shared/data/README.md), as a targeted line edit (toml-features.ts).
 * Codex also runs a user hook only once it is trusted; install cannot do that for the
 * user, and says so in its notes.
 */
import { join } from 'node:path';
import { commitFile, missingDirs, readText, unifiedDiff } from '../install/files.js';
import { editJsonHost, saveJsonHostState, strictJsonWarning, verifyJsonHost, type JsonHostSpec } from '../install/jsonhost.js';
import { listOurHooks, parseJsonc } from '../install/json-hooks.js';
import { dropState, homeOf, readState } from '../install/state.js';
import { disableHooksFeature, enableHooksFeature, type FeatureEdit } from '../install/toml-features.js';
import type { HostInstaller, InstallOptions, InstallReport } from '../types.js';
import { CODEX_EVENTS } from './codex.js';

/** The Codex config directory: `opts.home/.codex`, else `$CODEX_HOME`, else `~/.codex`. */
export function codexDir(opts: InstallOptions = {}): string {
  const env = opts.env ?? process.env;
  if (!opts.home && env.CODEX_HOME && env.CODEX_HOME.trim()) return env.CODEX_HOME;
  return join(homeOf(opts), '.codex');
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

function spec(opts: InstallOptions): JsonHostSpec {
  const dir = codexDir(opts);
  return {
    host: 'codex',
    file: () => join(dir, 'hooks.json'),
    events: CODEX_EVENTS,
    sample,
    strictJson: 'Codex 0.171.0 refuses such a hooks.json ("failed to parse hooks config") and runs none of its hooks.',
  };
}

async function act(opts: InstallOptions, remove: boolean): Promise<InstallReport> {
  const s = spec(opts);
  const home = homeOf(opts);
  const tomlPath = join(codexDir(opts), 'config.toml');
  const state = readState('codex', opts);
  const dirs = remove ? [] : [...missingDirs(s.file(home)), ...missingDirs(tomlPath)];
  const jsonFile = editJsonHost(s, home, opts, remove);
  const tomlBefore = readText(tomlPath);
  let tomlAfter = tomlBefore ?? '';
  let edit: FeatureEdit | undefined = state?.extra?.featureEdit as FeatureEdit | undefined;
  const notes: string[] = [];
  if (remove) {
    // Our [features] line always goes (the user's exact TOML comes back, `hooks = false`
    // included): keeping it would switch on hooks of theirs that were dormant before.
    const left = jsonFile.after;
    let userHooks = 0;
    if (left.trim()) {
      const doc = parseJsonc(jsonFile.path, left) as { hooks?: Record<string, unknown[]> };
      for (const groups of Object.values(doc.hooks ?? {})) if (Array.isArray(groups)) for (const g of groups) userHooks += Array.isArray((g as { hooks?: unknown[] })?.hooks) ? (g as { hooks: unknown[] }).hooks.length : 0;
      userHooks -= listOurHooks(jsonFile.path, left, 'codex').length;
    }
    if (tomlBefore !== undefined) tomlAfter = disableHooksFeature(tomlPath, tomlBefore, edit);
    const flagRemoved = tomlBefore !== undefined && tomlAfter !== tomlBefore;
    if (userHooks > 0 && flagRemoved) {
      notes.push(
        `removed the [features] hooks = true line hive-mind added to ${tomlPath}; ${jsonFile.path} still has ${userHooks} hook(s) of yours, which Codex runs only with that flag on: set \`hooks = true\` under [features] yourself if you want them.`,
      );
    }
    notes.push(jsonFile.changed ? 'hive-mind hooks removed from Codex; your other hooks and settings are unchanged.' : 'no hive-mind hooks were installed in Codex.');
  } else {
    const r = enableHooksFeature(tomlPath, tomlBefore ?? '');
    tomlAfter = r.text;
    // an earlier install's edit stays the one to undo
    if (!edit || edit.kind === 'none') edit = r.edit;
    notes.push(CODEX_TRUST_NOTE);
    const warning = strictJsonWarning(s, jsonFile.path, jsonFile.after);
    if (warning) notes.unshift(`warning: ${warning}`);
  }
  // config.toml did not exist before our first install: remember, and remove it again when it ends up empty
  const tomlCreated = remove ? state?.extra?.tomlCreated === true : (state?.extra?.tomlCreated as boolean | undefined) ?? tomlBefore === undefined;
  const deleteToml = remove && tomlCreated && tomlBefore !== undefined && tomlAfter.trim() === '';
  const tomlChanged = deleteToml || tomlAfter !== (tomlBefore ?? '');
  let backup: string | undefined;
  if (tomlChanged && !opts.dryRun) {
    // a config.toml our install created is removed without a backup (nothing of the user's in it)
    backup = commitFile(tomlPath, deleteToml ? undefined : tomlAfter);
  }
  if (!remove) saveJsonHostState(s, opts, { [jsonFile.path]: jsonFile.created }, { featureEdit: edit, tomlCreated }, dirs);
  else dropState('codex', opts, state);
  const { created: _c, after: _a, ...jf } = jsonFile;
  return {
    host: 'codex',
    action: remove ? 'uninstall' : 'install',
    dryRun: !!opts.dryRun,
    files: [jf, { path: tomlPath, changed: tomlChanged, diff: unifiedDiff(tomlPath, tomlBefore ?? '', tomlAfter), ...(backup ? { backup } : {}) }],
    notes,
  };
}

export const installer: HostInstaller = {
  host: 'codex',
  install: (opts = {}) => act(opts, false),
  uninstall: (opts = {}) => act(opts, true),
  verify: (opts = {}) => verifyJsonHost(spec(opts), homeOf(opts), opts),
};
