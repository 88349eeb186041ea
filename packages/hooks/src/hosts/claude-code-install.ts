/**
 * Claude Code installer: our command hooks in `~/.claude/settings.json` (the user
 * settings file of Claude Code; hooks reference: docs.claude.com, "Hooks"), one matcher
 * group per event (SessionStart, UserPromptSubmit, Stop, PreCompact, SessionEnd) with
 * `{"type":"command","command":"<node> <bin> hook claude-code <Event>","timeout":30}`.
 */
import { join } from 'node:path';
import { editJsonHost, saveJsonHostState, strictJsonWarning, verifyJsonHost, type JsonHostSpec } from '../install/jsonhost.js';
import { missingDirs } from '../install/files.js';
import { dropState, homeOf, readState } from '../install/state.js';
import type { HostInstaller, InstallOptions, InstallReport } from '../types.js';
import { CLAUDE_CODE_EVENTS } from './claude-code.js';

const SAMPLE_SESSION = '00000000-0000-4000-8000-00000000c1a0';

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

export const claudeCodeSpec: JsonHostSpec = {
  host: 'claude-code',
  file: (home) => join(home, '.claude', 'settings.json'),
  events: CLAUDE_CODE_EVENTS,
  sample,
  strictJson: 'Claude Code 2.1.332 refuses such a settings.json ("Invalid or malformed JSON") and loads none of it, hooks included.',
};

async function act(opts: InstallOptions, remove: boolean): Promise<InstallReport> {
  const home = homeOf(opts);
  const state = readState('claude-code', opts);
  const dirs = remove ? [] : missingDirs(claudeCodeSpec.file(home));
  const f = editJsonHost(claudeCodeSpec, home, opts, remove);
  if (!remove) saveJsonHostState(claudeCodeSpec, opts, { [f.path]: f.created }, undefined, dirs);
  else dropState('claude-code', opts, state);
  const { created: _c, after: _a, ...file } = f;
  const notes: string[] = remove
    ? [f.changed || opts.dryRun ? 'hive-mind hooks removed from Claude Code; your other settings and hooks are unchanged.' : 'no hive-mind hooks were installed in Claude Code.']
    : ['Claude Code loads hooks at session start: new sessions use hive-mind; running sessions need a restart (or review them under /hooks).'];
  const warning = strictJsonWarning(claudeCodeSpec, f.path, remove ? undefined : f.after);
  if (warning) notes.unshift(`warning: ${warning}`);
  return { host: 'claude-code', action: remove ? 'uninstall' : 'install', dryRun: !!opts.dryRun, files: [file], notes };
}

export const installer: HostInstaller = {
  host: 'claude-code',
  install: (opts = {}) => act(opts, false),
  uninstall: (opts = {}) => act(opts, true),
  verify: (opts = {}) => verifyJsonHost(claudeCodeSpec, homeOf(opts), opts),
};
