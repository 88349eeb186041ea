import { isObj, type Rec } from './formats/common.js';
import { FORMATS, type TranscriptFormat } from './types.js';

const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted', 'world_state', 'token_usage_record']);
const PI_TYPES = new Set(['session', 'message', 'compaction', 'model_change', 'thinking_level_change', 'branch_summary', 'custom', 'custom_message', 'label', 'session_info']);
const CLAUDE_TYPES = new Set(['user', 'assistant', 'system', 'attachment', 'summary', 'queue-operation', 'file-history-snapshot', 'progress', 'last-prompt']);

/** A Codex rollout item: `{type, payload}` with a rollout item type. */
const rolloutItem = (rec: Rec, type: string | undefined) => !!type && CODEX_TYPES.has(type) && isObj(rec.payload);

/** A record that decides alone: a messages array, or an object holding one (no later record is looked at). */
const messagesContainer = (rec: unknown) => Array.isArray(rec) || (isObj(rec) && Array.isArray(rec.messages));

/** The messages of a chat record (a bare array, or a body's `messages` that is not a Hermes log), openai or anthropic; null for none. */
function chat(rec: Rec | unknown[]): TranscriptFormat | null {
  if (Array.isArray(rec)) return chatFlavour(rec, false);
  if (!Array.isArray(rec.messages) || hermesLog(rec)) return null;
  return chatFlavour(rec.messages, 'system' in rec);
}

const hermesLog = (rec: Rec) => Array.isArray(rec.messages) && ('system_prompt' in rec || 'session_id' in rec);

/**
 * Each format's rule for one record (a parsed JSONL line, or a whole-JSON file's value): one entry
 * per row of the format table (types.ts), tried in its order; the first rule that claims a record
 * wins (claude-code's leaves Codex's rollout items to codex, the row after it).
 */
const DETECT: { readonly [F in TranscriptFormat]: (rec: Rec | unknown[], type: string | undefined) => boolean } = {
  // a record with `parentUuid`, `leafUuid`, or a `sessionId` next to a known type (never a rollout item)
  'claude-code': (rec, type) =>
    !Array.isArray(rec) &&
    !rolloutItem(rec, type) &&
    ('parentUuid' in rec || (type === 'summary' && 'leafUuid' in rec) || (!!type && CLAUDE_TYPES.has(type) && typeof rec.sessionId === 'string') || type === 'file-history-snapshot'),
  // `{type, payload}` with a rollout item type (`session_meta`, `response_item`...)
  codex: (rec, type) => !Array.isArray(rec) && rolloutItem(rec, type),
  // `{type: 'session', id}` header without `payload`, or `{type: 'message', message: {role}}`
  pi: (rec, type) => {
    if (Array.isArray(rec) || !type || !PI_TYPES.has(type) || 'payload' in rec || 'parentUuid' in rec || 'sessionId' in rec) return false;
    if (type === 'session') return typeof rec.id === 'string';
    if (type === 'message') return isObj(rec.message) && typeof rec.message.role === 'string';
    if (type === 'compaction') return typeof rec.summary === 'string';
    return type === 'model_change' || type === 'thinking_level_change';
  },
  // an object with a `messages` array and `system_prompt` or `session_id`
  hermes: (rec) => !Array.isArray(rec) && hermesLog(rec),
  // any other well-formed messages array (roles system/developer/user/assistant/tool)
  openai: (rec) => chat(rec) === 'openai',
  // a messages array (bare or in a body) whose blocks are Anthropic-only (tool_use, tool_result,
  // thinking, image with `source`) or a body with `system`
  anthropic: (rec) => chat(rec) === 'anthropic',
};

/**
 * Detect a transcript format from its first records (parsed JSONL lines, or the one
 * parsed value of a whole-JSON file), by each format's rule ({@link DETECT}). Looks only at
 * content, never at file names. Returns null when no format matches, or when the first record
 * that is a messages array (or holds one) matches none.
 */
export function detectFormat(firstRecords: unknown[]): TranscriptFormat | null {
  for (const rec of firstRecords) {
    if (!Array.isArray(rec) && !isObj(rec)) continue;
    const type = !Array.isArray(rec) && typeof rec.type === 'string' ? rec.type : undefined;
    const found = FORMATS.find((f) => DETECT[f](rec, type));
    if (found) return found;
    if (messagesContainer(rec)) return null;
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
