import { describe, it, expect } from 'vitest';
import { estimateTokens } from '@hive-mind/mind';
import { BLOCK_COST } from '../src/estimate.js';

/** The cost of one non-ASCII code point by its Unicode properties, as estimate.ts states it. */
function byProperty(ch: string): number {
  if (/[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/u.test(ch)) return 0.4;
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(ch)) return 0.8;
  if (/\p{Script=Hangul}/u.test(ch)) return 1.0;
  if (/\p{Script=Han}/u.test(ch)) return 1.2;
  if (/\p{Extended_Pictographic}|[\u200d\ufe0f\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]/u.test(ch)) return 2.5;
  return 1;
}

describe('the token estimate', () => {
  it('the code point ranges it looks up first cost what the Unicode properties give, for every code point in them', () => {
    const wrong: string[] = [];
    for (const [lo, hi, cost] of BLOCK_COST) for (let c = lo; c <= hi; c++) if (byProperty(String.fromCodePoint(c)) !== cost) wrong.push(c.toString(16));
    expect(wrong).toEqual([]);
  });

  it('each class costs its rate: a symbol 1, a pictograph among the symbols 2.5, a Latin letter 0.4, Kana 0.8, Han 1.2 (rounded up per text)', () => {
    expect(estimateTokens('·')).toBe(1);
    expect(estimateTokens('©©')).toBe(5);
    expect(estimateTokens('éèêëà')).toBe(2);
    expect(estimateTokens('ひらがな')).toBe(4);
    expect(estimateTokens('日本語')).toBe(4);
  });
});
