import { isObj, type Rec } from './formats/common.js';
import type { TranscriptFormat } from './types.js';

const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted', 'world_state', 'token_usage_record']);
const PI_TYPES = new Set(['session', 'message', 'compaction', 'model_change', 'thinking_level_change', 'branch_summary', 'custom', 'custom_message', 'label', 'session_info']);
const CLAUDE_TYPES = new Set(['user', 'assistant', 'system', 'attachment', 'summary', 'queue-operation', 'file-history-snapshot', 'progress', 'last-prompt']);

/**
 * Detect a transcript format from its first records (parsed JSONL lines, or the one
 * parsed value of a whole-JSON file). Looks only at content, never at file names.
 * Returns null when no format matches.
 *
 * - codex: `{type, payload}` with a rollout item type (`session_meta`, `response_item`...)
 * - pi: `{type: 'session', id}` header without `payload`, or `{type: 'message', message: {role}}`
 * - claude-code: a record with `parentUuid`, `leafUuid`, or a `sessionId` next to a known type
 * - hermes: an object with a `messages` array and `system_prompt` or `session_id`
 * - anthropic: a messages array (bare or in a body) whose blocks are Anthropic-only
 *   (tool_use, tool_result, thinking, image with `source`) or a body with `system`
 * - openai: any other well-formed messages array (roles system/developer/user/assistant/tool)
 */
export function detectFormat(firstRecords: unknown[]): TranscriptFormat | null {
  for (const rec of firstRecords) {
    if (Array.isArray(rec)) return chatFlavour(rec, false);
    if (!isObj(rec)) continue;
    const type = typeof rec.type === 'string' ? rec.type : undefined;
    if (type && CODEX_TYPES.has(type) && isObj(rec.payload)) return 'codex';
    if (type && PI_TYPES.has(type) && !('payload' in rec) && !('parentUuid' in rec) && !('sessionId' in rec)) {
      if (type === 'session' && typeof rec.id === 'string') return 'pi';
      if (type === 'message' && isObj(rec.message) && typeof rec.message.role === 'string') return 'pi';
      if (type === 'compaction' && typeof rec.summary === 'string') return 'pi';
      if (type === 'model_change' || type === 'thinking_level_change') return 'pi';
    }
    if ('parentUuid' in rec || (type === 'summary' && 'leafUuid' in rec)) return 'claude-code';
    if (type && CLAUDE_TYPES.has(type) && typeof rec.sessionId === 'string') return 'claude-code';
    if (type === 'file-history-snapshot') return 'claude-code';
    if (Array.isArray(rec.messages)) {
      if ('system_prompt' in rec || 'session_id' in rec) return 'hermes';
      return chatFlavour(rec.messages, 'system' in rec);
    }
  }
  return null;
}

/** openai or anthropic for a messages array; null when it is not a messages array. */
function chatFlavour(messages: unknown[], hasSystemField: boolean): TranscriptFormat | null {
  if (!messages.every((m) => isObj(m) && typeof m.role === 'string')) return null;
  let anthropic = hasSystemField;
  for (const m of messages as Rec[]) {
    if (m.role === 'system' || m.role === 'developer' || m.role === 'tool' || m.role === 'function' || 'tool_calls' in m) return 'openai';
    if (Array.isArray(m.content)) {
      for (const b of m.content) {
        if (!isObj(b)) continue;
        if (b.type === 'tool_use' || b.type === 'tool_result' || b.type === 'thinking' || b.type === 'redacted_thinking' || b.type === 'document') anthropic = true;
        if (b.type === 'image' && isObj(b.source)) anthropic = true;
        if (b.type === 'image_url' || b.type === 'input_audio') return 'openai';
      }
    }
  }
  return anthropic ? 'anthropic' : 'openai';
}
