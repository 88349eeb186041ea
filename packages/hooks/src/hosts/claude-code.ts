/**
 * Claude Code adapter. Every field read here was seen in the stdin JSON the real Claude
 * Code 2.1.332 sent to command hooks (shared/data/host-payloads/claude-code/*.jsonl) and
 * is described in Claude Code's hooks reference (docs.claude.com, "Hooks reference"):
 *
 * | event | fields read |
 * |---|---|
 * | all | `session_id`, `cwd`, `transcript_path`, `hook_event_name`, `prompt_id` (absent on SessionStart startup) |
 * | SessionStart | `source` (`startup`/`resume`/`clear`/`compact`) |
 * | UserPromptSubmit | `prompt` |
 * | Stop | `last_assistant_message` |
 * | PreCompact | `trigger` (`manual`/`auto`) |
 * | SessionEnd | (`reason` not needed) |
 *
 * Output: SessionStart prints `{"hookSpecificOutput":{"hookEventName":"SessionStart",
 * "additionalContext":...}}` (the shape whose text the real 2.1.332 injected as a
 * `<system-reminder>`; see shared/data/transcripts/claude-code/native-compact-2.1.332.jsonl,
 * attachment `hook_additional_context`); every other event prints nothing (exit 0 with
 * empty stdout lets the host go on; a Stop `decision` would block the turn).
 */
import type { HostAdapter, Lifecycle } from '../types.js';
import { claudeStyleAdapter } from './payload.js';

const EVENTS: Record<string, Lifecycle> = {
  SessionStart: 'session-start',
  UserPromptSubmit: 'user-prompt-submit',
  Stop: 'stop',
  PreCompact: 'pre-compact',
  SessionEnd: 'session-end',
};

/** Native events the Claude Code installer registers, in order. */
export const CLAUDE_CODE_EVENTS = Object.keys(EVENTS);

export const adapter: HostAdapter = claudeStyleAdapter({ host: 'claude-code', events: EVENTS, turnIdField: 'prompt_id', contextEvents: ['SessionStart', 'UserPromptSubmit'] });
