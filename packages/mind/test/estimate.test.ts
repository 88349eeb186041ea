import { describe, it, expect } from 'vitest';
import { estimateTokens } from '@hive-mind/mind';
import { BLOCK_COST, costByProperty } from '../src/estimate.js';

describe('the token estimate', () => {
  it('the code point ranges it looks up first cost what the Unicode properties give (costByProperty), for every code point in them', () => {
    const wrong: string[] = [];
    for (const [lo, hi, cost] of BLOCK_COST) for (let c = lo; c <= hi; c++) if (costByProperty(String.fromCodePoint(c)) !== cost) wrong.push(c.toString(16));
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
