import { STOP_WORDS } from './stop-words.js';
import { cleanText } from '../text.js';

export { STOP_WORDS };

/**
 * Text analysis shared by indexing and search: word segmentation for scripts written without
 * spaces, stop words of natural-language queries, quoted phrases and exact lookups.
 *
 * FTS5's `unicode61` tokenizer splits on spaces and punctuation only, so a Japanese or Chinese
 * sentence is one token and "日本語" never matches "日本語のメモ". Text holding such scripts is
 * segmented with `Intl.Segmenter` (ICU's dictionary word break, built into Node) at save time
 * into the frame's `search_text` column, which the FTS index reads instead of `content`; the
 * query goes through the same segmenter, so both sides agree even where ICU's dictionary splits
 * a word oddly. Korean is written with spaces but glues particles to nouns ("빌드는"): the index
 * also holds each Hangul word without its trailing particle.
 *
 * `unicode61` also treats emoji as separators, so "🧘‍♀️" was never indexed. Each emoji sequence
 * (Unicode's Extended_Pictographic characters with their modifiers, variation selectors and zero-width
 * joiners, a flag's regional-indicator pair, a tag sequence) is indexed as one word-like token,
 * {@link emojiToken}, and each part of a ZWJ sequence or a skin-toned emoji also as its base emoji's
 * token, so "🧘" finds "🧘‍♀️" and "👍" finds "👍🏽"; a query maps its emoji the same way.
 */

/** Scripts written without spaces between words (segmented with Intl.Segmenter). */
const NO_SPACE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const HANGUL = /\p{Script=Hangul}/u;

/** Korean particles and copula endings stripped from the end of a Hangul word (longest first). */
const KO_PARTICLES = ['에서는', '으로는', '에게서', '입니다', '이에요', '에서', '에게', '한테', '으로', '부터', '까지', '처럼', '보다', '이나', '이랑', '하고', '은', '는', '이', '가', '을', '를', '에', '의', '로', '와', '과', '도', '만', '랑'];

// An emoji sequence: a flag (regional-indicator pair), or pictographs with their modifiers and
// variation selectors joined by U+200D, optionally ending in a tag sequence (subdivision flags).
// Source: Unicode UTS #51, ED-16 / ED-17 (emoji ZWJ and tag sequences).
const PICT = String.raw`\p{Extended_Pictographic}[\u{FE0E}\u{FE0F}\p{Emoji_Modifier}]*`;
const EMOJI_SEQUENCE = new RegExp(String.raw`\p{Regional_Indicator}{2}|${PICT}(?:\u200D${PICT})*[\u{E0020}-\u{E007F}]*`, 'gu');
const EMOJI_MODIFIERS = /[\u{FE0E}\u{FE0F}\p{Emoji_Modifier}\u{E0020}-\u{E007F}]/gu;

/**
 * The index token of one emoji (sequence): `emo` and the hex code points joined by `x`, variation
 * selectors and joiners left out (U+FE0F is often typed or not: "❤" and "❤️" are one token). Letters
 * and digits only, so `unicode61` keeps it one token. E.g. 🧘‍♀️ → `emo1f9d8x2640`.
 */
export function emojiToken(seq: string): string {
  const cps = [...seq].filter((c) => c !== '\u200D' && c !== '\uFE0E' && c !== '\uFE0F').map((c) => c.codePointAt(0)!.toString(16));
  return `emo${cps.join('x')}`;
}

/** The tokens of each emoji sequence in `text`: the sequence's, then each of its parts' without modifiers when that differs. */
function emojiTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.match(EMOJI_SEQUENCE) ?? []) {
    const whole = emojiToken(m);
    if (!out.includes(whole)) out.push(whole);
    for (const part of m.split('\u200D')) {
      const base = emojiToken(part.replace(EMOJI_MODIFIERS, ''));
      if (base !== 'emo' && !out.includes(base)) out.push(base);
    }
  }
  return out;
}

let segmenter: Intl.Segmenter | undefined;
function words(text: string): string[] {
  segmenter ??= new Intl.Segmenter('ja', { granularity: 'word' });
  const out: string[] = [];
  for (const s of segmenter.segment(text)) if (s.isWordLike) out.push(s.segment);
  return out;
}

/** A Hangul word without its trailing particle, or undefined when it has none (or would be too short). */
function koStem(word: string): string | undefined {
  if (!HANGUL.test(word)) return undefined;
  for (const p of KO_PARTICLES) if (word.length > p.length && word.endsWith(p)) return word.slice(0, -p.length);
  return undefined;
}

/**
 * What the FTS index holds for `content`: `null` when `unicode61` alone tokenizes it well (no
 * CJK, Thai, Hangul, emoji...); for scripts without spaces or Hangul, the content's words separated
 * by spaces (Intl.Segmenter), each Hangul word followed by its particle-less stem; else the content
 * as it is. Then, when it holds emoji, their tokens ({@link emojiToken}). Pure and deterministic.
 */
export function indexText(content: string): string | null {
  const hangul = HANGUL.test(content);
  const emoji = emojiTokens(content);
  if (!hangul && !NO_SPACE_SCRIPT.test(content)) return emoji.length ? `${content} ${emoji.join(' ')}` : null;
  const out: string[] = [];
  for (const w of words(content)) {
    out.push(w);
    const stem = hangul ? koStem(w) : undefined;
    if (stem) out.push(stem);
  }
  return [...out, ...emoji].join(' ');
}

/** A query split into what search uses. All strings are lower case and free of FTS5 syntax. */
export interface AnalyzedQuery {
  /** Content words (stop words removed unless nothing else is left), at most `maxWords` (64), in order. */
  words: string[];
  /** Quoted phrases, each as its words, to be matched exactly. */
  phrases: string[][];
  /**
   * Exact lookups: paths, error codes, ports, versions, identifiers (`src/store.ts`, `E0425`,
   * `5432`, `ECONNREFUSED`, `snake_case`, `v1.2.3`) as typed, lower case. Frames holding one
   * verbatim rank first.
   */
  exact: string[];
}

/** A token that is looked up exactly: contains a digit, or joins words with `/ . _ - :`, or is an upper-case code. */
const EXACT_TOKEN = /^(?=.*[\p{L}\p{N}])(?:.*\p{N}.*|.*[\p{L}\p{N}][/._:-][\p{L}\p{N}].*|[A-Z][A-Z0-9_]{3,})$/u;

function tokenWords(text: string): string[] {
  // an emoji sequence is one word, its token as indexed; a variation selector alone is no word
  const rest = text.replace(EMOJI_SEQUENCE, (m) => ` ${emojiToken(m)} `);
  const base = rest.normalize('NFKC').match(/[\p{L}\p{N}\p{M}]+/gu)?.filter((w) => /[\p{L}\p{N}]/u.test(w)) ?? [];
  const out: string[] = [];
  for (const w of base) {
    if (NO_SPACE_SCRIPT.test(w)) out.push(...words(w));
    else {
      out.push(w);
      const stem = koStem(w);
      if (stem) out.push(stem);
    }
  }
  return out.map((w) => w.toLowerCase());
}

/**
 * Analyze a free-text query. Quoted parts (`"..."`) become phrases; tokens that look like paths,
 * codes, ports or identifiers become exact lookups (their words also search normally); the other
 * words lose their stop words ({@link STOP_WORDS}) unless only stop words were given. Words of
 * scripts without spaces are segmented as at index time ({@link indexText}). At most `maxWords`
 * content words are kept (default {@link MAX_QUERY_WORDS}, in query order); search reads up to
 * 512 and keeps the rarest.
 */
export function analyzeQuery(query: string, opts: { maxWords?: number } = {}): AnalyzedQuery {
  const text = cleanText(query).text;
  const phrases: string[][] = [];
  const rest = text.replace(/"([^"]*)"/g, (_m, inner: string) => {
    const ws = tokenWords(inner);
    if (ws.length) phrases.push(ws);
    return ' ';
  });
  const exact: string[] = [];
  for (const tok of rest.split(/\s+/)) {
    if (exact.length === 8) break;
    const t = tok.replace(/^[^\p{L}\p{N}/.~]+|[^\p{L}\p{N}]+$/gu, '');
    if (t.length >= 2 && t.length <= 200 && EXACT_TOKEN.test(t) && !exact.includes(t.toLowerCase())) exact.push(t.toLowerCase());
  }
  const all = [...new Set(tokenWords(rest))];
  const content = all.filter((w) => !STOP_WORDS.has(w));
  const chosen = content.length > 0 || phrases.length > 0 ? content : all;
  return { words: chosen.slice(0, opts.maxWords ?? MAX_QUERY_WORDS), phrases: phrases.slice(0, 8), exact: exact.slice(0, 8) };
}

/** Content words of a query that search scores (the rarest in the mind when there are more). */
export const MAX_QUERY_WORDS = 64;
