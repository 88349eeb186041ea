/**
 * A fast token estimate for injection budgets on the hook path (no tokenizer load), built to
 * count at least as many tokens as OpenAI's o200k_base tokenizer for English, European
 * languages, code, JSON, CJK, Hangul, emoji and random strings (tests compare it with the real
 * tokenizer, `gpt-tokenizer`, on samples of each). `ceil(chars / 4)` undercounts Japanese 2x,
 * emoji 2.7x and hex strings 3.4x (measured on those samples).
 *
 * Rules, per run of text:
 * - ASCII letter runs: 0.3 per letter + 0.2 (o200k: about one token per common English word,
 *   long identifiers split every 3-5 letters);
 * - digit runs: one token per 3 digits (o200k groups digits by three);
 * - runs mixing letters and digits (hashes, keys, ids): 0.9 per character (random strings cost
 *   a token per 1.1-1.5 characters; ids like `v2` or `e2e` stay cheap because they are short);
 * - spaces: free (o200k glues a space to the next word); other whitespace runs: 1;
 * - ASCII punctuation: 0.7 each;
 * - Latin, Cyrillic and Greek letters outside ASCII: 0.4; Kana 0.8; Hangul 1.0; Han 1.2;
 *   emoji and their modifiers/joiners: 2.5 per code point; anything else: 1 per code point.
 */

/**
 * Code point ranges with the cost {@link nonAscii} gives each of their code points: Latin-1 and
 * Latin Extended-A/B letters, Greek and Coptic letters, Cyrillic, Hiragana and Katakana letters,
 * Hangul syllables, CJK unified ideographs; the Latin-1 symbols and General Punctuation (but the
 * zero-width joiner and the pictographs among them: ©, ®, ‼, ⁉), which belong to no script listed there.
 */
export const BLOCK_COST: ReadonlyArray<readonly [number, number, number]> = [
  [0x00c0, 0x00d6, 0.4],
  [0x00d8, 0x00f6, 0.4],
  [0x00f8, 0x024f, 0.4],
  [0x0400, 0x0482, 0.4],
  [0x048a, 0x04ff, 0.4],
  [0x3041, 0x3096, 0.8],
  [0x30a1, 0x30fa, 0.8],
  [0xac00, 0xd7a3, 1.0],
  [0x4e00, 0x9fff, 1.2],
  [0x00a1, 0x00a8, 1],
  [0x00ab, 0x00ad, 1],
  [0x00af, 0x00b9, 1],
  [0x00bb, 0x00bf, 1],
  [0x2010, 0x2027, 1],
  [0x2030, 0x203b, 1],
  [0x203d, 0x2048, 1],
  [0x204a, 0x205e, 1],
];

/** Estimated tokens of `text` (an integer, 0 for ''). Conservative: at least o200k_base's count on typical text. */
export function estimateTokens(text: string): number {
  if (!text) return 0;
  let n = 0;
  for (const m of text.matchAll(/[A-Za-z0-9]+|[ ]+|\s+|[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]+|[^\x00-\x7f]/gu)) {
    const s = m[0];
    const c = s.charCodeAt(0);
    if (c < 128) {
      if (/^[A-Za-z]+$/.test(s)) n += 0.3 * s.length + 0.2;
      else if (/^[0-9]+$/.test(s)) n += Math.ceil(s.length / 3);
      else if (/^[A-Za-z0-9]+$/.test(s)) n += s.length <= 3 ? 1 : 0.9 * s.length;
      else if (s[0] === ' ') n += s.length > 1 ? 1 : 0;
      else if (/^\s+$/.test(s)) n += 1;
      else n += 0.7 * s.length;
    } else n += nonAscii(s);
  }
  return Math.ceil(n);
}

function nonAscii(ch: string): number {
  // the common blocks by code point first, each wholly of one class of costByProperty (a Unicode
  // property regex costs milliseconds to compile in a new process; test/estimate.test.ts checks
  // these ranges against costByProperty for every code point in them)
  const c = ch.codePointAt(0)!;
  const fast = BLOCK_COST.find(([lo, hi]) => c >= lo && c <= hi);
  return fast ? fast[2] : costByProperty(ch);
}

/** The cost of one non-ASCII code point `ch` by its Unicode script (or emoji) properties. */
export function costByProperty(ch: string): number {
  if (/[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/u.test(ch)) return 0.4;
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(ch)) return 0.8;
  if (/\p{Script=Hangul}/u.test(ch)) return 1.0;
  if (/\p{Script=Han}/u.test(ch)) return 1.2;
  if (/\p{Extended_Pictographic}|[\u200d\ufe0f\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]/u.test(ch)) return 2.5;
  return 1;
}
