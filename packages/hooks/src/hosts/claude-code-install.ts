/**
 * Claude Code installer: our command hooks in `~/.claude/settings.json`, or
 * `$CLAUDE_CONFIG_DIR/settings.json` when that is set (the user settings file of Claude Code; hooks reference: docs.claude.com, "Hooks"), one matcher
 * group per event (SessionStart, UserPromptSubmit, Stop, PreCompact, SessionEnd) with
 * `{"type":"command","command":"<node> <bin> hook claude-code <Event>","timeout":30}`.
 */
import { join } from 'node:path';
import { JSON_FORMAT, strictJsonProblem } from '../install/format-json.js';
import { installedHooks, runInstaller, verifyInstalled, type InstallerSpec } from '../install/installer.js';
import { matcherGroupList } from '../install/matcher-groups.js';
import { readText } from '../install/files.js';
import { lineColumn } from '../install/errors.js';
import { hostDirOf } from '../install/state.js';
import { removePlugin } from '../install/plugin-remove.js';
import { claudeCodePlugin } from '../install/plugins.js';
import type { HostInstaller, InstallOptions } from '../types.js';
import { CLAUDE_CODE_EVENTS } from './claude-code.js';

const SAMPLE_SESSION = '00000000-0000-4000-8000-00000000c1a0';

/** What Claude Code 2.1.332 does with a settings.json that is not strict JSON (seen with the real binary). */
const STRICT_JSON = 'Claude Code 2.1.332 refuses such a settings.json ("Invalid or malformed JSON") and loads none of it, hooks included. hive-mind kept your comments as they are; remove them (and trailing commas) so Claude Code loads its settings.';

/** Claude Code's config folder for this install: `$CLAUDE_CONFIG_DIR`, else `~/.claude` (state.ts `hostDirOf`). */
export function claudeDir(opts: InstallOptions = {}): string {
  return hostDirOf('claude-code', opts).dir;
}

/** `settings.json` in {@link claudeDir}: the user settings file Claude Code reads its hooks from. */
export function claudeSettingsPath(opts: InstallOptions = {}): string {
  return join(claudeDir(opts), 'settings.json');
}

/** Payloads shaped like the real Claude Code 2.1.332 ones (shared/data/host-payloads/claude-code). */
function sample(event: string, cwd: string): unknown {
  const base = { session_id: SAMPLE_SESSION, transcript_path: join(cwd, 'no-transcript.jsonl'), cwd, hook_event_name: event };
  const prompt_id = '00000000-0000-4000-8000-0000000000a1';
  switch (event) {
    case 'SessionStart':
      return { ...base, source: 'startup' };
    case 'UserPromptSubmit':
      return { ...base, prompt_id, permission_mode: 'default', prompt: 'remember that hive-mind verify ran here' };
    case 'Stop':
      return { ...base, prompt_id, permission_mode: 'default', stop_hook_active: false, last_assistant_message: 'Noted: hive-mind verify ran here.' };
    case 'PreCompact':
      return { ...base, prompt_id, trigger: 'manual', custom_instructions: '' };
    default:
      return { ...base, prompt_id, reason: 'other' };
  }
}

/** `"disableAllHooks": true` in settings.json: Claude Code 2.1.332 then runs no hook at all (seen with the real binary). As `file: line L, column C: …`. */
function disabledProblem(file: string, text: string): string | undefined {
  let data: Record<string, unknown>;
  try {
    data = JSON_FORMAT.parse(file, text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  if (data.disableAllHooks !== true) return undefined;
  const { line, column } = lineColumn(text, JSON_FORMAT.offsetOf(text.replace(/^\uFEFF/, ''), ['disableAllHooks']) ?? 0);
  return `${file}: line ${line}, column ${column}: "disableAllHooks": true: Claude Code 2.1.332 runs no hooks at all, hive-mind's included; remove it (or set it to false) to use them`;
}

/**
 * The hive-mind plugin (plugins/claude-code) enabled in the same settings.json
 * (`"enabledPlugins": {"hive-mind@hive-mind": true}`, what `claude plugin install` writes):
 * with our hooks too, every session start would recall twice.
 */
function pluginToo(file: string, text: string): string | undefined {
  let data: { enabledPlugins?: Record<string, unknown> };
  try {
    data = JSON_FORMAT.parse(file, text.replace(/^\uFEFF/, '')) as typeof data;
  } catch {
    return undefined;
  }
  if (data.enabledPlugins?.['hive-mind@hive-mind'] !== true) return undefined;
  return `${file}: the hive-mind plugin (hive-mind@hive-mind) is enabled too, so each session would recall twice; keep one: \`claude plugin uninstall hive-mind@hive-mind\` or \`hive-mind uninstall claude-code\``;
}

export const claudeCodeSpec: InstallerSpec = {
  host: 'claude-code',
  dir: (opts) => hostDirOf('claude-code', opts),
  configs: (opts, prefix) => [
    { file: claudeSettingsPath(opts), format: JSON_FORMAT, lists: [matcherGroupList('claude-code', CLAUDE_CODE_EVENTS, prefix)], snippet: '"hooks": {"<Event>": [{"hooks": [{"type": "command", "command": "hive-mind hook claude-code <Event>"}]}]}' },
  ],
  notes({ action, configs, opts }) {
    const [c] = configs;
    if (action === 'uninstall') {
      const plugin = claudeCodePlugin(claudeDir(opts), CLAUDE_CODE_EVENTS);
      return [
        c!.after !== c!.before ? 'hive-mind hooks removed from Claude Code; your other settings and hooks are unchanged.' : 'no hive-mind hooks were installed in Claude Code.',
        ...(plugin ? [`the hive-mind plugin (${plugin.id}) is still installed in Claude Code; remove it with its marketplace entry and cached copy: \`hive-mind uninstall claude-code --plugin\``] : []),
      ];
    }
    const problem = c!.after === undefined ? undefined : strictJsonProblem(c!.spec.file, c!.after, { bomAllowed: true });
    const disabled = c!.after === undefined ? undefined : disabledProblem(c!.spec.file, c!.after);
    const plugin = c!.after === undefined ? undefined : pluginToo(c!.spec.file, c!.after);
    return [
      ...(problem ? [`warning: ${problem}: ${STRICT_JSON}`] : []),
      ...(disabled ? [`warning: ${disabled}`] : []),
      ...(plugin ? [`warning: ${plugin}`] : []),
      'Claude Code loads hooks at session start: new sessions use hive-mind; running sessions need a restart (or review them under /hooks).',
    ];
  },
};

export const installer: HostInstaller = {
  host: 'claude-code',
  install: (opts = {}) => runInstaller(claudeCodeSpec, 'install', opts),
  uninstall: (opts = {}) => runInstaller(claudeCodeSpec, 'uninstall', opts),
  installed: (opts = {}) => installedHooks(claudeCodeSpec, opts),
  plugin: (opts = {}) => claudeCodePlugin(claudeDir(opts), CLAUDE_CODE_EVENTS),
  removePlugin: (opts = {}) => removePlugin('claude-code', hostDirOf('claude-code', opts), opts),
  verify: (opts = {}) =>
    verifyInstalled(claudeCodeSpec, opts, {
      // UserPromptSubmit first, SessionStart last: the recall then shows what the prompt stored
      events: ['UserPromptSubmit', 'Stop', 'PreCompact', 'SessionEnd', 'SessionStart'],
      sample,
      plugin: () => installer.plugin!(opts),
      configProblems: () => {
        const file = claudeSettingsPath(opts);
        const text = readText(file);
        const p = text === undefined ? undefined : strictJsonProblem(file, text, { bomAllowed: true });
        const d = text === undefined ? undefined : disabledProblem(file, text);
        // only with hooks of ours in the file too (else verify checks the plugin's own hooks)
        const both = text === undefined || installedHooks(claudeCodeSpec, opts).length === 0 ? undefined : pluginToo(file, text);
        return [...(p ? [`${p}: ${STRICT_JSON}`] : []), ...(d ? [d] : []), ...(both ? [both] : [])];
      },
    }),
};
