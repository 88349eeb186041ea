/**
 * Codex CLI adapter. Every field read here was seen in the stdin JSON the real Codex CLI
 * 0.171.0 sent to command hooks (shared/data/host-payloads/codex/*.jsonl), and matches
 * the Codex hooks documentation (developers.openai.com/codex/hooks):
 *
 * | event | fields read |
 * |---|---|
 * | all | `session_id`, `cwd`, `transcript_path` (the rollout JSONL), `hook_event_name` |
 * | SessionStart | `source` (`startup`/`resume`/`clear`) |
 * | UserPromptSubmit | `turn_id`, `prompt` |
 * | Stop | `turn_id`, `last_assistant_message` |
 * | PreCompact | `turn_id`, `trigger` (`auto` seen); recorded from the real 0.171.0 on auto-compaction by our e2e test (packages/hooks/test/fixtures/codex-0.171-PreCompact.jsonl) |
 *
 * Output: SessionStart prints `{"hookSpecificOutput":{"hookEventName":"SessionStart",
 * "additionalContext":...}}`; with 0.171.0 that text reached the model request as a
 * developer message (shared/data/README.md; shared/data/transcripts/codex/hello-0.171.jsonl
 * ordinal 7). Other events print nothing.
 */
import type { HostAdapter, Lifecycle } from '../types.js';
import { claudeStyleAdapter } from './payload.js';

const EVENTS: Record<string, Lifecycle> = {
  SessionStart: 'session-start',
  UserPromptSubmit: 'user-prompt-submit',
  Stop: 'stop',
  PreCompact: 'pre-compact',
};

/** Native events the Codex installer registers, in order. */
export const CODEX_EVENTS = Object.keys(EVENTS);

export const adapter: HostAdapter = claudeStyleAdapter({ host: 'codex', events: EVENTS, turnIdField: 'turn_id', contextEvents: ['SessionStart', 'UserPromptSubmit'] });
