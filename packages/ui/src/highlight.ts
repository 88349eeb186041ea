import { analyzeQuery } from '@hive-mind/mind';

/**
 * Where a search query matches a frame's text, for `<mark>` in the page: the ranges of the
 * query's words, phrases and exact lookups as {@link analyzeQuery} (the search's own analysis)
 * finds them. The index stems with Porter, so a query word marks every word that starts with
 * its stem: the word less a common English ending (-ing, -ed, -s, -ment, -ion, ...; at least
 * 4 characters kept), or its first max(4, n - 2) characters (the rule of the mind's
 * `matchedShare`), whichever is shorter; "deploying" marks "deployment". The mark runs to the
 * end of the word.
 */

/** Half-open character ranges `[start, end)` into `text`, sorted, merged where they overlap. */
export type Marks = Array<[number, number]>;

const ENDINGS = ['ments', 'ment', 'ings', 'ing', 'ions', 'ion', 'ers', 'er', 'ies', 'es', 'ed', 'ly', 's'];

/** The prefix a query word marks (see the module comment). */
function stemOf(word: string): string {
  let stem = word.length > 5 ? word.slice(0, Math.max(4, word.length - 2)) : word;
  for (const e of ENDINGS) {
    if (word.endsWith(e) && word.length - e.length >= 4) {
      if (word.length - e.length < stem.length) stem = word.slice(0, word.length - e.length);
      break;
    }
  }
  return stem;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The ranges of `text` that `query` matches (empty for a query with no word). */
export function highlight(text: string, query: string): Marks {
  if (!query.trim()) return [];
  const q = analyzeQuery(query);
  const patterns: RegExp[] = [];
  for (const w of [...q.words, ...q.phrases.flat()]) {
    const stem = stemOf(w);
    patterns.push(new RegExp(`(?<![\\p{L}\\p{N}])${escape(stem)}[\\p{L}\\p{N}\\p{M}]*`, 'giu'));
  }
  for (const e of q.exact) patterns.push(new RegExp(escape(e), 'giu'));
  const ranges: Marks = [];
  for (const re of patterns) for (const m of text.matchAll(re)) if (m[0].length) ranges.push([m.index!, m.index! + m[0].length]);
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: Marks = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}
