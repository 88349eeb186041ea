import { describe, expect, it } from 'vitest';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTranscriptFile } from '@hive-mind/transcripts';
import { BasicCompactionEngine, BudgetTooSmallError, TokenMeter } from '@hive-mind/compaction';

const here = dirname(fileURLToPath(import.meta.url));
/** A real Codex 0.171.0 rollout: 4,924 tokens of leading developer messages, three 3.9k-token `cat` results (fixtures/README.md). */
const CODEX = join(here, 'fixtures/codex-0.171-three-reads.jsonl');

/** The verbatim tail `hive-mind compact --budget N` keeps by default (packages/cli, cliRetainDefault). */
const cliRetain = (b: number) => Math.max(1, Math.min(Math.floor(b / 2), b - Math.min(4096, Math.floor(b * 0.15)) - 1));

async function compactAt(budget: number, retain: 'cli' | 'library') {
  const t = await readTranscriptFile(CODEX);
  const engine = new BasicCompactionEngine({ budget: budget, ...(retain === 'cli' ? { retainTokens: cliRetain(budget) } : {}), meter: new TokenMeter() });
  return { r: await engine.compactIfNeeded(t.log), log: t.log };
}

describe('every budget above the smallest workable one compacts (real Codex rollout)', () => {
  it('budgets 9000 and 10000, refused before as "nothing can be compacted", compact under the budget', async () => {
    for (const b of [9000, 10000]) {
      const { r } = await compactAt(b, 'cli');
      expect(r.compacted, `budget ${b}`).toBe(true);
      expect(r.tokensAfter).toBeLessThanOrEqual(b);
    }
  });

  it('a budget below the minimum names it; the minimum itself compacts; so does every budget from there to the session size', async () => {
    for (const retain of ['cli', 'library'] as const) {
      const err = await compactAt(1000, retain).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(BudgetTooSmallError);
      const smallest = (err as BudgetTooSmallError).smallestBudget;
      expect(smallest).toBeGreaterThan(4924); // the leading system messages stay
      expect((err as BudgetTooSmallError).message).toContain(`the smallest budget that can work is ${smallest}`);
      await expect(compactAt(smallest - 1, retain)).rejects.toMatchObject({ name: 'BudgetTooSmallError', smallestBudget: smallest });
      const before = (await compactAt(smallest, retain)).r.tokensBefore;
      const budgets = [smallest];
      for (let b = smallest + 1; b < before; b += 397) budgets.push(b);
      budgets.push(before - 1);
      for (const b of budgets) {
        const { r } = await compactAt(b, retain);
        expect(r.compacted, `retain ${retain}, budget ${b}: ${r.noopReason}`).toBe(true);
        expect(r.tokensAfter, `retain ${retain}, budget ${b}`).toBeLessThanOrEqual(b);
      }
    }
  }, 120_000);
});
