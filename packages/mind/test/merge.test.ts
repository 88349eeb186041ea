import { describe, expect, it } from 'vitest';
import { mergeRanked, mergeRecent } from '@hive-mind/mind';

describe('several minds read as one', () => {
  it('mergeRanked: one ranking by score, ties by the order of the lists then id, each hit labelled, cut at the limit', () => {
    const ws = [
      { id: 3, score: 0.9 },
      { id: 1, score: 0.5 },
    ];
    const personal = [
      { id: 1, score: 1.2 },
      { id: 2, score: 0.5 },
      { id: 7, score: 0.9 },
    ];
    const all = mergeRanked([
      { mind: 'workspace', hits: ws },
      { mind: 'personal', hits: personal },
    ]);
    expect(all.map((h) => `${h.mind}:${h.id}`)).toEqual(['personal:1', 'workspace:3', 'personal:7', 'workspace:1', 'personal:2']);
    expect(mergeRanked([{ mind: 'workspace', hits: ws }, { mind: 'personal', hits: personal }], 2).map((h) => `${h.mind}:${h.id}`)).toEqual(['personal:1', 'workspace:3']);
    expect(ws[0]).toEqual({ id: 3, score: 0.9 }); // the inputs are not changed
  });

  it('mergeRecent: newest updatedAt first, ties by the order of the lists then the newer id', () => {
    const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
    const all = mergeRecent(
      [
        { mind: 'workspace', frames: [{ id: 9, updatedAt: t(5) }, { id: 4, updatedAt: t(1) }] },
        { mind: 'personal', frames: [{ id: 2, updatedAt: t(5) }, { id: 6, updatedAt: t(3) }, { id: 5, updatedAt: t(3) }] },
      ],
      4,
    );
    expect(all.map((f) => `${f.mind}:${f.id}`)).toEqual(['workspace:9', 'personal:2', 'personal:6', 'personal:5']);
  });

  it('no lists or empty lists give nothing', () => {
    expect(mergeRanked([])).toEqual([]);
    expect(mergeRecent([{ mind: 'personal', frames: [] }])).toEqual([]);
  });
});
