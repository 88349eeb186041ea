// How bench/memory-e2e.mjs reads what the hooks injected (bench/probes/memory-e2e/README.md).

/** Text as the probes are matched: NFKC, lowercase, straight quotes, no `*_ nor the escape marks ‹ ›, whitespace collapsed. */
export function norm(s) {
  return String(s)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[`*_‹›]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** `norm(s)` as its words only (letters and digits), single-spaced and padded: for whole-word containment. */
export function words(s) {
  return ` ${norm(s).replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
}

/** Every group of `must` has an alternative in `hay` (normalized). */
export function delivered(hay, must) {
  const h = norm(hay);
  return must.every((group) => group.some((alt) => h.includes(norm(alt))));
}

/** The first substring of `not` found in `hay` (normalized), else undefined. */
export function foundAny(hay, not) {
  const h = norm(hay);
  return not.find((n) => h.includes(norm(n)));
}

// sentences: cut after . ! ? … and their CJK forms, and at line breaks
const SENTENCE = /(?<=[.!?…。！？])\s+|(?<=[。！？])|\n+/u;
/** Sentences of fewer words than this are not counted on their own ("Wow!", "Thanks."). */
const MIN_SENTENCE_WORDS = 3;
// a script written without spaces: each of its characters counts as a word
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/gu;
/** Words of a `words()` string, a character of an unspaced script counting as one. */
const size = (w) => w.trim().split(' ').reduce((n, x) => n + Math.max(1, (x.match(UNSPACED) ?? []).length + (x.replace(UNSPACED, '').length ? 1 : 0)), 0);

/**
 * Whether an evidence turn's text is in the injection (`hayWords` = `words(injection)`): its whole
 * text (as words) is contained, or its sentences of at least MIN_SENTENCE_WORDS words (a character
 * of a script written without spaces counting as a word) that are contained hold at least half of
 * the words of all such sentences (a turn cut at a sentence
 * boundary, or shown with its neighbour, still counts). Returns `{whole, in}`.
 */
export function turnIn(text, hayWords) {
  const w = words(text);
  if (w.trim() === '') return { whole: false, in: false };
  if (hayWords.includes(w)) return { whole: true, in: true };
  const sentences = text
    .split(SENTENCE)
    .map((s) => words(s))
    .filter((s) => size(s) >= MIN_SENTENCE_WORDS);
  if (!sentences.length) return { whole: false, in: false };
  const total = sentences.reduce((a, s) => a + size(s), 0);
  const inside = sentences.filter((s) => hayWords.includes(s)).reduce((a, s) => a + size(s), 0);
  return { whole: false, in: inside * 2 >= total };
}

/**
 * The items of a SessionStart injection: each list item (a line opening with `-`, `*`, `•` or `N.`,
 * with the lines after it that are not items) and each notes entry (the lines between `§`
 * separators under a notes heading); structure is not an item: the nonce tags, the framing line,
 * headings, the "Recalled from hive-mind memory" line, `§`, "(N more …)" pointers. Returns
 * `[{text, body}]`, `body` without the leading `- [#id importance · kind · …]` label.
 */
export function injectionItems(text) {
  const out = [];
  let cur;
  for (const raw of String(text).split('\n')) {
    const line = raw.trim();
    if (!line || line === '§') {
      cur = undefined;
      continue;
    }
    if (/^<\/?hive-mind-memory/i.test(line) || /^hive-mind memory from earlier sessions/i.test(line) || /^recalled from hive-mind memory/i.test(line) || /^\(\d+ more\b/i.test(line)) continue;
    if (/^#/.test(line)) {
      cur = undefined;
      continue;
    }
    if (/^([-*•]|\d+[.)])\s+/.test(line) || !cur) {
      cur = { text: line };
      out.push(cur);
    } else cur.text += ' ' + line;
  }
  for (const it of out) it.body = it.text.replace(/^([-*•]|\d+[.)])\s+/, '').replace(/^\[#[^\]]*\]\s*/, '');
  return out;
}

/** The gold entry an item matches (every key a case-insensitive regular expression found in its body), else undefined. */
export function goldOf(item, gold) {
  return gold.find((g) => g.keys.every((k) => new RegExp(k, 'iu').test(item.body)));
}

/** The p-th percentile (nearest rank) of `xs`; 0 for an empty list. */
export function pct(xs, p) {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
