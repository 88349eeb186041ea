import type { ContentBlock, TextBlock } from '@hive-mind/session';
import type { TokenMeter } from '@hive-mind/compaction';
import { AdapterInputError } from './errors.js';

/** A plain JSON-like record, as framework messages are read. */
export type Rec = Record<string, unknown>;

export const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `fail(field, detail)` of one adapter: throws an {@link AdapterInputError} naming the adapter and the field. */
export function failFor(adapter: string): (field: string, detail: string) => never {
  return (field, detail) => {
    throw new AdapterInputError(adapter, field, detail);
  };
}

/** The texts of rewritten blocks in order (a tool result's text parts, then plain text blocks), for a codec's `rewrite`. */
export function rewrittenTexts(content: readonly ContentBlock[]): string[] {
  return content
    .flatMap((b) => (b.type === 'tool-result' ? b.content : b.type === 'text' ? [b] : []))
    .filter((c): c is TextBlock => c.type === 'text')
    .map((c) => c.text);
}

/** Texts counted per meter, so the tool definitions an adapter counts on every call are tokenized once. */
const counted = new WeakMap<TokenMeter, Map<string, number>>();
const MAX_COUNTED = 64;

/** `meter.countText(text)`, remembered for the last 64 texts of each meter (tool definitions, system prompts: the same on every call). */
export function countTextCached(meter: TokenMeter, text: string): number {
  let m = counted.get(meter);
  if (!m) counted.set(meter, (m = new Map()));
  let n = m.get(text);
  if (n === undefined) {
    n = meter.countText(text);
    m.set(text, n);
    if (m.size > MAX_COUNTED) m.delete(m.keys().next().value!);
  }
  return n;
}
