import { randomBytes } from 'node:crypto';
import { findNodeAtLocation, parseTree, type Node as JsonNode } from 'jsonc-parser';
import { isMessageEvent, type MessageEvent, type SurfaceNode } from '@hive-mind/session';
import type { Transcript } from '../types.js';
import { anthropicBlocks, toAnthropicMessages, toOpenAIMessages, type AnthropicBlock } from './chat.js';
import { checkpointText } from './original.js';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The messages array of the original file: each message's exact text, by index (jsonc-parser offsets). */
class OriginalMessages {
  private readonly nodes: JsonNode[];
  constructor(
    private readonly text: string,
    container: 'array' | 'object' | undefined,
  ) {
    const root = parseTree(text);
    const arr = root && (container === 'object' ? findNodeAtLocation(root, ['messages']) : root);
    this.nodes = arr?.type === 'array' ? (arr.children ?? []) : [];
  }
  raw(i: number): string | undefined {
    const n = this.nodes[i];
    return n ? this.text.slice(n.offset, n.offset + n.length) : undefined;
  }
  value(i: number): Rec | undefined {
    const r = this.raw(i);
    if (r === undefined) return undefined;
    const v: unknown = JSON.parse(r);
    return isRec(v) ? v : undefined;
  }
}

/** One message of the output: the original text of an untouched message, or a value to serialize. */
interface Entry {
  role: string;
  value: Rec;
  /** Exact original text (untouched message). */
  raw?: string;
}

/** Index of the original message a node was read from (whole-JSON readers set `meta.index`), for host messages only. */
function indexOf(n: SurfaceNode): number | undefined {
  return n.kind === undefined && typeof n.meta?.index === 'number' ? n.meta.index : undefined;
}

/**
 * OpenAI/Hermes message of a replaced node (a masked or pruned tool result): the original
 * message with only `content` new, so every other field (Hermes `reasoning`,
 * `codex_reasoning_items`, `finish_reason`, the original `tool_call_id` even when the reader
 * renamed a repeated id...) is kept; `""` content stays `""`.
 */
function openAIChanged(orig: Rec, n: MessageEvent): Rec {
  const fresh = toOpenAIMessages([n]);
  const same = fresh.find((m) => m.role === orig.role || (orig.role === 'function' && m.role === 'tool')) ?? fresh[0];
  let content = same ? (same.content as unknown) : orig.content;
  if ((content === null || content === '') && orig.content === '') content = '';
  return { ...orig, content };
}

/**
 * Anthropic message of a replaced node (also Claude Code's `message`): the original blocks,
 * each `tool_result` getting the new content (in order; `tool_use_id` as the file had it, even
 * where the reader renamed a repeated id, and the block's other fields kept); when the block
 * shapes do not line up, the node's blocks rendered anew. Fields beside `content` are kept.
 */
export function anthropicChanged(orig: Rec, n: MessageEvent): Rec {
  const role = n.type === 'assistant/message' ? 'assistant' : 'user';
  const fresh = anthropicBlocks(n.content, role);
  const old = Array.isArray(orig.content) ? (orig.content as AnthropicBlock[]) : undefined;
  const freshResults = fresh.filter((b) => b.type === 'tool_result');
  if (old && old.filter((b) => b?.type === 'tool_result').length === freshResults.length && freshResults.length > 0) {
    let k = 0;
    return { ...orig, content: old.map((b) => (b?.type === 'tool_result' ? { ...b, content: freshResults[k++]!.content } : b)) };
  }
  return { ...orig, content: fresh };
}

/** Anthropic blocks of a message value (string content becomes one text block). */
function blocksOf(v: Rec): AnthropicBlock[] {
  if (Array.isArray(v.content)) return v.content as AnthropicBlock[];
  return typeof v.content === 'string' && v.content ? [{ type: 'text', text: v.content }] : [];
}

/**
 * The messages of the new surface, one per node: untouched host messages as their original
 * text, replaced ones as the original with new content, everything else (the checkpoint,
 * repairs, new messages) rendered in the format.
 */
function entries(t: Transcript, nodes: readonly SurfaceNode[], orig: OriginalMessages): Entry[] {
  const out: Entry[] = [];
  for (const n of nodes) {
    const i = indexOf(n);
    const o = i === undefined ? undefined : orig.value(i);
    if (o && n.seq <= t.importedLastSeq) {
      out.push({ role: String(o.role), value: o, raw: orig.raw(i!) });
      continue;
    }
    if (o) {
      const v = t.format === 'anthropic' ? anthropicChanged(o, n) : openAIChanged(o, n);
      out.push({ role: String(v.role), value: v });
      continue;
    }
    if (t.format === 'anthropic') {
      // a system message after the first turn has no place in `system`: user text, as toAnthropicMessages renders it
      const rendered = n.type === 'system/message' ? [{ role: 'user', content: [{ type: 'text', text: `<system>\n${checkpointText(n)}\n</system>` }] }] : toAnthropicMessages([n]).messages;
      for (const m of rendered) out.push({ role: m.role, value: m as unknown as Rec });
      continue;
    }
    for (const m of toOpenAIMessages([n])) out.push({ role: m.role, value: m as unknown as Rec });
  }
  return t.format === 'anthropic' ? alternate(out) : out;
}

/**
 * Anthropic Messages alternate user and assistant turns: a rendered message next to one of
 * the same role is merged into it (tool results first in a user turn). Two adjacent original
 * messages of one role are left as the file had them.
 */
function alternate(list: Entry[]): Entry[] {
  const out: Entry[] = [];
  for (const e of list) {
    const prev = out[out.length - 1];
    if (!prev || prev.role !== e.role || (prev.raw !== undefined && e.raw !== undefined)) {
      out.push(e);
      continue;
    }
    const base = prev.raw !== undefined || e.raw === undefined ? prev.value : e.value;
    let content = [...blocksOf(prev.value), ...blocksOf(e.value)];
    if (e.role === 'user') content = [...content.filter((b) => b.type === 'tool_result'), ...content.filter((b) => b.type !== 'tool_result')];
    out[out.length - 1] = { role: e.role, value: { ...base, content } };
  }
  return out;
}

/**
 * `JSON.stringify(value, null, 2)` where each untouched message is its original text: those
 * messages come out byte for byte (and, for a file written with 2-space indentation like
 * Hermes' `json.dump(indent=2)`, so does everything around them).
 */
function serialize(list: Entry[], put: (messages: unknown[]) => unknown): string {
  const nonce = randomBytes(6).toString('hex');
  const raws: string[] = [];
  const messages = list.map((e) => {
    if (e.raw === undefined) return e.value;
    raws.push(e.raw);
    return `\u0000hm-raw:${nonce}:${raws.length - 1}`;
  });
  const text = JSON.stringify(put(messages), null, 2);
  const placeholder = new RegExp(`"\\\\u0000hm-raw:${nonce}:(\\d+)"`, 'g');
  return text.replace(placeholder, (_m, k: string) => raws[Number(k)]!) + '\n';
}

/**
 * Whole-JSON formats (Hermes session, OpenAI messages, Anthropic messages): the original text
 * when no message was added or replaced since import; otherwise the envelope
 * fields as read (Hermes `message_count` and `last_updated` brought up to date, Anthropic
 * `system` re-rendered only when the system prompt changed), and the messages of the new
 * surface: untouched messages byte for byte from the original text, replaced ones with all
 * their other fields, new ones rendered.
 */
export function writeWhole(t: Transcript, original: string): string {
  // nothing new on the log: the file as it is, byte for byte
  if (!t.log.events(t.importedLastSeq + 1).some(isMessageEvent)) return original;
  const text = original.charCodeAt(0) === 0xfeff ? original.slice(1) : original;
  const orig = new OriginalMessages(text, t.source.container);
  const surface = t.log.surface();
  const env = ((t.source.state as { envelope?: Rec }).envelope ?? {}) as Rec;
  const changed = t.log.lastSeq > t.importedLastSeq;
  if (t.format === 'openai') {
    const list = entries(t, surface, orig);
    return serialize(list, (messages) => (t.source.container === 'object' ? { ...env, messages } : messages));
  }
  if (t.format === 'hermes') {
    const sys = surface.find((n) => n.meta?.hermesField === 'system_prompt');
    const list = entries(t, surface.filter((n) => n !== sys), orig);
    return serialize(list, (messages) => {
      const obj: Rec = { ...env };
      if (sys) obj.system_prompt = checkpointText(sys);
      obj.messages = messages;
      if (typeof env.message_count === 'number') obj.message_count = messages.length;
      if (typeof env.last_updated === 'string' && changed) obj.last_updated = new Date().toISOString().replace('Z', '');
      return obj;
    });
  }
  // anthropic: leading system nodes are the `system` field (kept as read while untouched)
  let k = 0;
  while (k < surface.length && surface[k]!.type === 'system/message') k++;
  const head = surface.slice(0, k);
  const systemUntouched = head.length > 0 && head.every((n) => n.meta?.anthropicField === 'system' && n.seq <= t.importedLastSeq) && env.system !== undefined;
  const system = systemUntouched ? env.system : toAnthropicMessages(head).system;
  const list = entries(t, surface.slice(k), orig);
  if (t.source.container === 'array' && system === undefined) return serialize(list, (m) => m);
  return serialize(list, (messages) => {
    const obj: Rec = { ...env };
    if (system !== undefined) obj.system = system;
    else delete obj.system;
    obj.messages = messages;
    return obj;
  });
}
