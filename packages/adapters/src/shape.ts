import type { ContentBlock, TextBlock } from '@hive-mind/session';
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
