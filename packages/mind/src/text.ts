import { createHash } from 'node:crypto';
import { STOP_WORDS } from './recall/stop-words.js';

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
 * then sentence/space boundaries (a boundary's whitespace ends the piece before it). Lossless:
 * `chunkText(t, n).join('') === t` for any `t` (no piece is trimmed). Never splits a surrogate pair.
 */
export function chunkText(text: string, maxChars: number): string[] {
  if (text.length <= maxChars) return text ? [text] : [];
  const out: string[] = [];
  let rest = text;
  while (rest.length > maxChars) {
    const window = rest.slice(0, maxChars);
    const half = maxChars * 0.5;
    let cut = window.lastIndexOf('\n\n') + 2;
    if (cut - 2 < half) cut = window.lastIndexOf('\n') + 1;
    if (cut - 1 < half) cut = Math.max(window.lastIndexOf('. ') + 2, window.lastIndexOf(' ') + 1);
    if (cut - 1 < half) cut = maxChars;
    // keep surrogate pairs whole
    const c = rest.charCodeAt(cut - 1);
    if (c >= 0xd800 && c <= 0xdbff) cut -= 1;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest) out.push(rest);
  return out;
}

/** Jaccard threshold of {@link nearDuplicate} (README "Write path"). */
export const NEAR_DUPLICATE_JACCARD = 0.8;

const NEGATIONS = new Set(['not', 'no', 'never', 'nor', "don't", 'dont', "doesn't", "isn't", "aren't", "won't", "can't", 'cannot', 'nicht', 'kein', 'keine', 'ne', 'pas', 'jamais', 'nunca', 'non', 'niet', 'geen', 'nooit']);

/** The normalized word set of a text ({@link normalizeForHash}, then Unicode letters/digits/apostrophes). */
export function wordSet(text: string): Set<string> {
  return new Set(normalizeForHash(text).match(/[\p{L}\p{N}][\p{L}\p{N}'’]*/gu) ?? []);
}

/** |A ∩ B| / |A ∪ B| of two word sets (1 for two empty sets). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const w of a) if (b.has(w)) inter++;
  return inter / (a.size + b.size - inter);
}

/**
 * Whether two texts say the same thing in nearly the same words: word-set Jaccard ≥
 * {@link NEAR_DUPLICATE_JACCARD} and the same words holding digits (ports, versions, ids) and the
 * same negations in the same order, so "port 5432" never merges into "port 5433" nor "do X" into "never do X",
 * and the shared words in the same order, so "use pnpm instead of npm" never merges into "use npm instead of pnpm".
 */
export function nearDuplicate(a: string, b: string): boolean {
  return nearDuplicateOf(b)(a);
}

/** {@link nearDuplicate} against one text, its words computed once: a test of many candidates. */
export function nearDuplicateOf(text: string): (other: string) => boolean {
  const words = wordSet(text);
  let own: string | undefined;
  return (other) => {
    const theirs = wordSet(other);
    if (jaccard(theirs, words) < NEAR_DUPLICATE_JACCARD) return false;
    own ??= marks(text);
    return marks(other) === own && sameOrder(words, theirs);
  };
}

/**
 * Whether the content words two texts share (stop words aside: "the" may move) come in the same
 * order in both (each word at its first occurrence; a word set iterates in insertion order): "use pnpm, not npm" and "use npm, not pnpm",
 * "the frontend calls the backend" and "the backend calls the frontend" are opposite facts.
 */
function sameOrder(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const shared = (x: ReadonlySet<string>, y: ReadonlySet<string>) => [...x].filter((w) => y.has(w) && !STOP_WORDS.has(w));
  const inA = shared(a, b);
  const inB = shared(b, a);
  return inA.every((w, i) => inB[i] === w);
}

/** The words holding digits and the negations of a text, in text order: "fact 14 about module 1" and "fact 1 about module 14" are different facts. */
function marks(text: string): string {
  return (normalizeForHash(text).match(/[\p{L}\p{N}][\p{L}\p{N}'’]*/gu) ?? []).filter((w) => /\p{N}/u.test(w) || NEGATIONS.has(w.replace(/’/g, "'"))).join(' ');
}
