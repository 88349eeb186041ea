import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * Size bounds of everything the server returns. Units are characters of the JSON text
 * the client receives (a model reads about 4 characters per token of English).
 */
export interface Limits {
  /** Upper bound of one tool result or resource body, in characters. Default 16,000 (about 4k tokens). */
  maxResultChars: number;
  /** Characters of a frame's content shown in a search hit before it is cut. Default 1,000. */
  previewChars: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({ maxResultChars: 16_000, previewChars: 1_000 });

/** Smallest accepted `maxResultChars` (room for an error or a page note). */
const MIN_RESULT_CHARS = 2_000;

/** Validate user-supplied limits (from options or env); throws RangeError naming the key. */
export function resolveLimits(partial: Partial<Limits> | undefined): Limits {
  const l: Limits = { ...DEFAULT_LIMITS, ...(partial ?? {}) };
  if (!Number.isInteger(l.maxResultChars) || l.maxResultChars < MIN_RESULT_CHARS) {
    throw new RangeError(`maxResultChars must be an integer >= ${MIN_RESULT_CHARS}, got ${String(partial?.maxResultChars)}`);
  }
  if (!Number.isInteger(l.previewChars) || l.previewChars < 80 || l.previewChars > l.maxResultChars) {
    throw new RangeError(`previewChars must be an integer between 80 and maxResultChars, got ${String(partial?.previewChars)}`);
  }
  return l;
}

/** Cut `text` to at most `max` characters (never splitting a surrogate pair). */
export function clip(text: string, max: number): { text: string; truncated: boolean; totalChars: number } {
  if (text.length <= max) return { text, truncated: false, totalChars: text.length };
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return { text: text.slice(0, end), truncated: true, totalChars: text.length };
}

/** Compact JSON used for every tool result (models read it well; clients can parse it). */
export function toJson(value: unknown): string {
  return JSON.stringify(value, null, 1);
}

/**
 * A successful tool result whose single text part is the JSON of `value`. The JSON is
 * also given as `structuredContent` for clients that read it. A value whose JSON is
 * larger than `maxChars` is a bug in the tool's own paging; it is cut with a note rather
 * than sent whole.
 */
export function jsonResult(value: Record<string, unknown>, maxChars: number): CallToolResult {
  const text = toJson(value);
  if (text.length <= maxChars) return { content: [{ type: 'text', text }], structuredContent: value };
  const cut = clip(text, maxChars - 200);
  return {
    content: [
      {
        type: 'text',
        text: `${cut.text}\n[hive-mind: result cut at ${cut.text.length} of ${cut.totalChars} characters; ask for a smaller page (limit/offset)]`,
      },
    ],
  };
}

/** A tool error the model can act on (`isError: true`, one readable message). */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Ordinary error objects and other thrown values as one line (stack never sent to the client). */
export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message.split('\n')[0] ?? err.name;
  return String(err);
}
