import { createHash } from 'node:crypto';

/** What {@link cleanText} changed. */
export interface CleanReport {
  text: string;
  /** NUL characters removed. */
  nulRemoved: number;
  /** Lone UTF-16 surrogates (what invalid UTF-8 decodes to, or broken JS strings) replaced by U+FFFD. */
  invalidReplaced: number;
}

/**
 * Make arbitrary input storable: remove NUL (U+0000) characters, replace lone surrogates by
 * U+FFFD, normalize line endings to `\n`. Text decoded from bytes should use
 * {@link decodeUtf8}, which maps invalid UTF-8 sequences to U+FFFD.
 */
export function cleanText(input: string): CleanReport {
  let text = input;
  let nulRemoved = 0;
  if (text.includes('\u0000')) {
    const before = text.length;
    text = text.replace(/\u0000/g, '');
    nulRemoved = before - text.length;
  }
  let invalidReplaced = 0;
  const wf = text as unknown as { isWellFormed(): boolean; toWellFormed(): string };
  if (!wf.isWellFormed()) {
    const m = text.match(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g);
    invalidReplaced = m ? m.length : 0;
    text = wf.toWellFormed();
  }
  text = text.replace(/\r\n?/g, '\n');
  return { text, nulRemoved, invalidReplaced };
}

/** Decode bytes as UTF-8; invalid sequences become U+FFFD (never throws). Returns how many were replaced. */
export function decodeUtf8(bytes: Uint8Array): { text: string; invalidReplaced: number } {
  const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes);
  let invalidReplaced = 0;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // count replacement chars that were not in the original (approximation: all U+FFFD)
    invalidReplaced = (text.match(/\uFFFD/g) ?? []).length;
  }
  return { text, invalidReplaced };
}

/**
 * The normalized form used for deduplication: Unicode NFKC, lower case, whitespace runs
 * collapsed to one space, trimmed.
 */
export function normalizeForHash(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Hex SHA-256 of {@link normalizeForHash}(text). */
export function contentHash(text: string): string {
  return createHash('sha256').update(normalizeForHash(text), 'utf8').digest('hex');
}

/** A one-line preview: whitespace collapsed, cut to `max` characters with an ellipsis. */
export function preview(text: string, max = 80): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : one.slice(0, Math.max(0, max - 1)) + '…';
}

/**
 * Split `text` into pieces of at most `maxChars` characters, preferring paragraph, then line,
 * then sentence/space boundaries. Never splits a surrogate pair.
 */
export function chunkText(text: string, maxChars: number): string[] {
  if (text.length <= maxChars) return [text];
  const out: string[] = [];
  let rest = text;
  while (rest.length > maxChars) {
    const window = rest.slice(0, maxChars);
    let cut = window.lastIndexOf('\n\n');
    if (cut < maxChars * 0.5) cut = window.lastIndexOf('\n');
    if (cut < maxChars * 0.5) cut = Math.max(window.lastIndexOf('. '), window.lastIndexOf(' '));
    if (cut < maxChars * 0.5) cut = maxChars;
    else cut += 1;
    // keep surrogate pairs whole
    const c = rest.charCodeAt(cut - 1);
    if (c >= 0xd800 && c <= 0xdbff) cut -= 1;
    out.push(rest.slice(0, cut).trim() || rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest.trim()) out.push(rest.trim());
  return out.filter((s) => s.length > 0);
}
