import { describe, expect, it } from 'vitest';
import { isCompactionRecord } from '@hive-mind/session';
import { BasicCompactionEngine, TokenMeter, planMask, planPrune, planRetention, pruneInProportion, resolveConfig, savedBy, type PlanContext } from '@hive-mind/compaction';
import { bigOutput, codingSession } from './helpers.js';

const meter = new TokenMeter();

/** A plan context (token counts are cached per event object, so `log` needs no key). */
function ctx(log: object, budget: number, extra: Record<string, unknown> = {}): PlanContext {
  const config = resolveConfig({ budget, meter, ...extra });
  return { meter, config, surfaceBudget: budget, minCheckpoint: 200 };
}

describe('plan (pure)', () => {
  it('plans a retention span without touching the log', () => {
    const b = codingSession(8);
    const lastSeq = b.log.lastSeq;
    const gen = b.log.generation;
    const nodes = b.log.surface();
    const p = planRetention(ctx(b.log, 6000, { retainTokens: 1500, summaryMaxTokens: 1500 }), nodes, 9000);
    expect(p.kind).toBe('span');
    if (p.kind !== 'span') return;
    expect(p.headEnd).toBe(1); // the system message is never compacted
    expect(p.spanStart).toBe(1);
    expect(p.tailTokens).toBeLessThanOrEqual(1500);
    // the retained tail is counted with its oversized tool results pruned
    expect(p.spanTokens + p.headTokens + p.tailTokens + savedBy(p.tailPruned)).toBe(p.tokens.reduce((a, b) => a + b, 0));
    expect([b.log.lastSeq, b.log.generation]).toEqual([lastSeq, gen]);
  });

  it('reports a budget shortfall as data, naming the newest unit', () => {
    const b = codingSession(2);
    b.user('finally: ' + bigOutput(400));
    const p = planRetention(ctx(b.log, 3000, { retainTokens: 500, summaryMaxTokens: 400 }), b.log.surface(), 99999);
    expect(p.kind).toBe('too-small');
    if (p.kind !== 'too-small') return;
    expect(p.toSeq).toBe(b.log.lastSeq);
    expect(p.unitTokens).toBeGreaterThan(3000);
  });

  it('prunes only oversized results of the span and masks all but the newest results', () => {
    const b = codingSession(4);
    b.tool('Bash', { command: 'cargo test' }, bigOutput(800, 'test'));
    const bigSeq = b.log.lastSeq;
    b.user('now the docs please, and keep the API names');
    b.tool('Read', { file_path: '/repo/README.md' }, 'short');
    const c = ctx(b.log, 6000, { retainTokens: 1000, summaryMaxTokens: 1500, maskKeepRecent: 1 });
    const p = planRetention(c, b.log.surface(), 20000);
    if (p.kind !== 'span') throw new Error(p.kind);
    const pruned = planPrune(c, p);
    expect(pruned.map((r) => r.orig.seq)).toContain(bigSeq);
    for (const r of pruned) {
      expect(r.saved).toBeGreaterThan(0);
      expect(meter.countEvent(r.orig)).toBeGreaterThan(c.config.pruneMinTokens);
    }
    const masked = planMask(c, b.log.surface());
    const resultCount = b.log.surface().flatMap((n) => n.content).filter((x) => x.type === 'tool-result').length;
    expect(masked.length).toBeLessThanOrEqual(resultCount - 1);
    expect(masked.every((m) => m.saved > 0)).toBe(true);
  });
});

describe('pruning in proportion', () => {
  it('takes only what the budget needs, the largest results first and findings last', () => {
    const b = codingSession(2);
    b.tool('Bash', { command: 'npm test' }, bigOutput(600, 'small'));
    b.tool('Task', { description: 'research the API' }, 'The API has three endpoints. ' + bigOutput(900, 'finding'));
    b.tool('Bash', { command: 'find .' }, bigOutput(1500, 'big'));
    b.user('thanks, now write the docs for the three endpoints please');
    b.tool('Read', { file_path: '/repo/README.md' }, 'short');
    const c = ctx(b.log, 8000, { retainTokens: 1000, summaryMaxTokens: 1500 });
    const p = planRetention(c, b.log.surface(), 99999);
    if (p.kind !== 'span') throw new Error(p.kind);
    const reps = planPrune(c, p);
    expect(reps.length).toBeGreaterThanOrEqual(3);
    // largest first, the sub-agent's findings last
    expect(reps[reps.length - 1]!.findings).toBe(true);
    expect(reps[0]!.saved).toBeGreaterThanOrEqual(reps[1]!.saved);
    const before = 40000;
    const need = pruneInProportion(reps, before, before - reps[0]!.saved);
    expect(need).toHaveLength(1);
    expect(pruneInProportion(reps, 10_000_000, 0)).toEqual([]);
  });

  it('keeps an oversized tool result of the retained tail pruned, so the conversation around it stays', () => {
    const b = codingSession(8);
    b.user('list everything');
    b.tool('Bash', { command: 'find .' }, bigOutput(3000, 'listing')); // ~70k tokens
    b.assistant('That is the whole tree. Next I will read the config.');
    const c = ctx(b.log, 20000, { retainTokens: 5000 });
    const p = planRetention(c, b.log.surface(), 99999);
    if (p.kind !== 'span') throw new Error(p.kind);
    expect(p.tailPruned.length).toBeGreaterThanOrEqual(1);
    expect(p.tailTokens).toBeLessThanOrEqual(5000);
    // the user's request before the listing is still verbatim
    expect(p.nodes.slice(p.cut).some((n) => n.content.some((x) => x.type === 'text' && x.text === 'list everything'))).toBe(true);
  });
});

describe('compaction records', () => {
  it('are typed: the summary names the checkpoint seq that append stored', async () => {
    const b = codingSession(8);
    const e = new BasicCompactionEngine({ budget: 6000, retainTokens: 1500, summaryMaxTokens: 1500, meter });
    const r = await e.compactIfNeeded(b.log);
    const recs = b.log.events().filter(isCompactionRecord);
    expect(recs.map((x) => x.type)).toEqual(['compaction/start', 'compaction/summary', 'compaction/end']);
    const summary = recs[1]!;
    if (summary.type !== 'compaction/summary') throw new Error('order');
    expect(summary.data.checkpointSeq).toBe(r.checkpointSeq);
    expect(b.log.get(summary.data.checkpointSeq!)).toMatchObject({ kind: 'checkpoint' });
    expect(summary.data.tokensBefore).toBe(r.tokensBefore);
  });
});
