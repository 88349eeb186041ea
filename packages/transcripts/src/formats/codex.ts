import type { ContentBlock, MessageEventType } from '@hive-mind/session';
import type { LogBuilder } from '../builder.js';
import { hostRecordData } from '../builder.js';
import { RecordError } from '../errors.js';
import { fromOpenAIContent, isObj, parseArgs, resultParts, str, type Rec } from './common.js';
import type { JsonlReader } from './reader.js';

/**
 * Codex CLI rollout JSONL (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`). Every line is
 * `{timestamp, type, payload}` (0.171 adds `ordinal`). Facts from the real file
 * shared/data/transcripts/codex/hello-0.171.jsonl and the rollout item types of the
 * codex-rs protocol (`RolloutItem`: session_meta, response_item, compacted, turn_context,
 * event_msg):
 *
 * - `session_meta`: log-only `session/meta`; its `base_instructions.text` (the system
 *   prompt Codex sends as `instructions`) becomes a leading `system/message`.
 * - `response_item` `message` (roles developer/system -> system, user, assistant),
 *   `reasoning` (summary/content text; `encrypted_content` only -> redacted), `function_call`,
 *   `function_call_output`, `custom_tool_call`, `custom_tool_call_output`, `local_shell_call`
 *   map to message events; other response items are log-only.
 * - `compacted` `{message, replacement_history?}`: a replace of the whole surface (after the
 *   system prompt) by a checkpoint holding `message`, then the replacement history items.
 * - `turn_context`, `event_msg` and anything else: log-only `host/record`.
 */
export class CodexReader implements JsonlReader {
  private sessionId: string | undefined;
  private lastOrdinal: number | undefined;
  private usesOrdinal = false;

  constructor(private readonly b: LogBuilder) {}

  record(rec: Rec, line: number, chars: number): void {
    const type = str(rec.type);
    if (!type) throw new RecordError('rollout line without a type', 'type');
    const ts = str(rec.timestamp);
    if (typeof rec.ordinal === 'number') {
      this.usesOrdinal = true;
      this.lastOrdinal = rec.ordinal;
    }
    const p = rec.payload;
    if (type === 'response_item') {
      if (!isObj(p)) throw new RecordError('response_item without a payload object', 'payload');
      const m = this.item(p, 'payload');
      if (m) this.b.message(m.type, m.content, { ts, meta: { line } });
      else this.b.logOnly('host/record', hostRecordData(line, rec, chars, `response_item:${String(p.type)}`), ts, { line });
      return;
    }
    if (type === 'compacted') {
      if (!isObj(p)) throw new RecordError('compacted without a payload object', 'payload');
      const hist = p.replacement_history;
      if (hist !== undefined && hist !== null && !Array.isArray(hist)) throw new RecordError('replacement_history is not an array', 'payload.replacement_history');
      const items = (hist ?? []) as unknown[];
      const converted = items.map((it, i) => {
        if (!isObj(it)) throw new RecordError('replacement history item is not an object', `payload.replacement_history[${i}]`);
        return this.item(it, `payload.replacement_history[${i}]`);
      });
      const message = str(p.message) ?? '';
      // codex-rs builds the new history as initial context + kept user messages + the summary
      // (a user message holding `message`, after a prefix); the summary item is the checkpoint.
      const textOf = (m: { content: ContentBlock[] }) => m.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      let at = -1;
      if (message) {
        for (let i = converted.length - 1; i >= 0; i--) {
          const m = converted[i];
          if (m && m.type === 'user/message' && textOf(m).includes(message)) {
            at = i;
            break;
          }
        }
      }
      // no summary at all (a history rewritten without one): the history alone
      const summary = at >= 0 ? textOf(converted[at]!) : message ? message : converted.some(Boolean) ? null : `[Codex compacted the conversation; ${items.length} items were kept]`;
      const end = at >= 0 ? at : converted.length;
      const lead: Array<{ type: MessageEventType; content: ContentBlock[]; extra: { ts?: string; meta: Record<string, unknown> } }> = [];
      for (let i = 0; i < end; i++) {
        const m = converted[i];
        if (m) lead.push({ type: m.type, content: m.content, extra: { ts, meta: { line, replacementIndex: i } } });
      }
      this.b.hostCompaction(summary, {
        summarizer: 'host:codex',
        ts,
        keepPrefix: (n) => n.meta?.codexField === 'base_instructions',
        lead,
        meta: { line, ...(at >= 0 ? { replacementIndex: at } : {}) },
        data: { replacementItems: items.length },
      });
      for (let i = end + (at >= 0 ? 1 : 0); i < converted.length; i++) {
        const m = converted[i];
        if (m) this.b.message(m.type, m.content, { ts, meta: { line, replacementIndex: i } });
      }
      return;
    }
    if (type === 'session_meta') {
      if (!isObj(p)) throw new RecordError('session_meta without a payload object', 'payload');
      this.sessionId = str(p.id) ?? str(p.session_id) ?? this.sessionId;
      const { base_instructions: bi, ...rest } = p;
      this.b.logOnly('session/meta', { line, host: 'codex', ...(chars < 16_384 ? rest : { id: rest.id, cli_version: rest.cli_version }) }, ts, { line });
      const text = isObj(bi) ? str(bi.text) : str(bi);
      if (text) this.b.message('system/message', [{ type: 'text', text }], { ts, meta: { line, codexField: 'base_instructions' } });
      return;
    }
    this.b.logOnly('host/record', hostRecordData(line, rec, chars, type), ts, { line });
  }

  /** Convert one Codex `ResponseItem`; undefined for items that are not messages. */
  private item(p: Rec, field: string): { type: MessageEventType; content: ContentBlock[] } | undefined {
    switch (p.type) {
      case 'message': {
        const role = str(p.role);
        const content = fromOpenAIContent(p.content, `${field}.content`);
        if (role === 'assistant') return { type: 'assistant/message', content };
        if (role === 'user') return { type: 'user/message', content };
        if (role === 'developer' || role === 'system') return { type: 'system/message', content };
        throw new RecordError(`message with unknown role ${JSON.stringify(p.role)}`, `${field}.role`);
      }
      case 'reasoning': {
        const parts = [...arr(p.summary), ...arr(p.content)].map((s) => (isObj(s) ? str(s.text) ?? '' : '')).filter(Boolean);
        const text = parts.join('\n');
        return { type: 'assistant/message', content: [{ type: 'reasoning', text, ...(text ? {} : { redacted: true }) }] };
      }
      case 'function_call':
      case 'custom_tool_call':
      case 'local_shell_call': {
        const id = str(p.call_id) ?? str(p.id);
        if (!id) throw new RecordError(`${String(p.type)} without call_id`, `${field}.call_id`);
        const name = p.type === 'local_shell_call' ? 'local_shell' : str(p.name) ?? '';
        const input = p.type === 'function_call' ? parseArgs(p.arguments) : p.type === 'custom_tool_call' ? p.input : p.action;
        return { type: 'assistant/message', content: [{ type: 'tool-call', id, name, input }] };
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const id = str(p.call_id);
        if (!id) throw new RecordError(`${String(p.type)} without call_id`, `${field}.call_id`);
        const out = p.output;
        let content;
        let isError = false;
        if (isObj(out) && 'content' in out) {
          content = resultParts(out.content, `${field}.output.content`);
          isError = out.success === false;
        } else content = resultParts(out, `${field}.output`);
        return { type: 'tool/result', content: [{ type: 'tool-result', callId: id, content, isError }] };
      }
      default:
        return undefined;
    }
  }

  finish(): void {}

  state(): Record<string, unknown> {
    return { sessionId: this.sessionId, lastOrdinal: this.lastOrdinal, usesOrdinal: this.usesOrdinal };
  }
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
