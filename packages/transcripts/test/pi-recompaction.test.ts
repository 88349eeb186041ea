import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkInvariants, type MessageEvent } from '@hive-mind/session';
import { parseTranscript, readTranscriptFile, transcriptStats, writeTranscript } from '@hive-mind/transcripts';
import { DATA, compactHalf, maskOldResults, rawRecords, surfaceShape } from './helpers.js';

// The built CLI (needs `npx tsc -b packages/cli` first).
const BIN = fileURLToPath(new URL('../../cli/bin/hive-mind.js', import.meta.url));
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000 });
const work = mkdtempSync(join(tmpdir(), 'hm-pi-recompact-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Copy a real pi file to the temp dir (the data dir is read-only). */
function copy(rel: string, name: string): string {
  const p = join(work, name);
  copyFileSync(DATA + rel, p);
  return p;
}

/** Entry types of the records a write appended, in order. */
function appended(before: string, after: string): Array<Record<string, any>> {
  return after
    .slice(before.length)
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

describe('pi: successive compactions written back read back to the same surface', () => {
  for (const rel of ['pi/large-session.jsonl', 'pi/before-compaction.jsonl']) {
    it(`${rel}: 3 compactions in a row, each written and read again`, async () => {
      let path = copy(rel, rel.replace('/', '-'));
      for (let round = 1; round <= 3; round++) {
        const t = await readTranscriptFile(path);
        compactHalf(t, `<compacted-summary>\nROUND ${round} SUMMARY\n</compacted-summary>`);
        const want = surfaceShape(t);
        const original = readFileSync(path, 'utf8');
        const out = writeTranscript(t, 'same');
        expect(out.startsWith(original)).toBe(true);
        const next = join(work, `${round}-${rel.replace('/', '-')}`);
        writeFileSync(next, out);
        const back = await readTranscriptFile(next);
        expect(surfaceShape(back)).toEqual(want);
        expect(back.log.surface()[0]!.content).toEqual([{ type: 'text', text: `<compacted-summary>\nROUND ${round} SUMMARY\n</compacted-summary>` }]);
        expect(checkInvariants(back.log.events()).violations).toEqual([]);
        // the new compaction entry never keeps from before an older compaction entry:
        // pi's own loaders disagree on such a span (old ones skip the older entry, current
        // ones show its summary again), so the tail is written again instead
        const added = appended(original, out);
        const entry = added.find((r) => r.type === 'compaction')!;
        const entries = original.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
        const olderCompactions = entries.map((r, i) => (r.type === 'compaction' ? i : -1)).filter((i) => i >= 0);
        const lastOlder = Math.max(-1, ...olderCompactions);
        expect(entry.firstKeptEntryIndex).toBeGreaterThan(lastOlder);
        path = next;
      }
    });
  }

  it('large-session: masking, then two summaries, each written back, reads back the same', async () => {
    let path = copy('pi/large-session.jsonl', 'mask-then-summary.jsonl');
    const steps: Array<(t: Awaited<ReturnType<typeof readTranscriptFile>>) => void> = [(t) => void maskOldResults(t, 5), (t) => void compactHalf(t, 'S1'), (t) => void compactHalf(t, 'S2')];
    for (const [i, step] of steps.entries()) {
      const t = await readTranscriptFile(path);
      step(t);
      const want = surfaceShape(t);
      const next = join(work, `mask-step-${i}.jsonl`);
      writeFileSync(next, writeTranscript(t, 'same'));
      const back = await readTranscriptFile(next);
      if (i === 0) {
        // pi cannot change a kept entry: masking alone is written as a compaction entry
        // with a one-line note, then the tail again (the write-back framing)
        expect(back.log.surface()[0]!.kind).toBe('checkpoint');
        expect(surfaceShape(back).slice(1)).toEqual(want);
      } else expect(surfaceShape(back)).toEqual(want);
      expect(checkInvariants(back.log.events()).violations).toEqual([]);
      path = next;
    }
  });

  it('a kept span reaching back past the older compaction entry is written again; the next compaction references the re-written entries', async () => {
    const path = copy('pi/large-session.jsonl', 'ref.jsonl');
    const t = await readTranscriptFile(path);
    compactHalf(t, 'FIRST');
    const p1 = join(work, 'ref-1.jsonl');
    writeFileSync(p1, writeTranscript(t, 'same'));
    // second round: everything up to the last user message goes; the kept entries all
    // come after the first compaction's firstKeptEntryIndex and before its entry, so a
    // reference would need the older entry inside the kept span: written again instead
    const t2 = await readTranscriptFile(p1);
    compactHalf(t2, 'SECOND');
    const want = surfaceShape(t2);
    const original = readFileSync(p1, 'utf8');
    const out = writeTranscript(t2, 'same');
    const added = appended(original, out);
    const kept = t2.log.surface().slice(1);
    expect(added[0]).toMatchObject({ type: 'compaction', summary: 'SECOND', firstKeptEntryIndex: original.split('\n').filter((l) => l.trim()).length + 1 });
    expect(added.slice(1).map((r) => r.type)).toEqual(kept.filter((n) => n.kind !== 'repair').map(() => 'message'));
    expect(surfaceShape(parseTranscript(out))).toEqual(want);
    // a third round on that file keeps from the re-written tail: a plain reference now
    const p2 = join(work, 'ref-2.jsonl');
    writeFileSync(p2, out);
    const t3 = await readTranscriptFile(p2);
    compactHalf(t3, 'THIRD');
    const want3 = surfaceShape(t3);
    const out3 = writeTranscript(t3, 'same');
    const added3 = appended(out, out3);
    expect(added3).toHaveLength(1);
    expect(added3[0]).toMatchObject({ type: 'compaction', summary: 'THIRD', firstKeptEntryIndex: t3.log.surface()[1]!.meta!.entryIndex });
    expect(surfaceShape(parseTranscript(out3))).toEqual(want3);
  });
});

describe('pi: reading a compaction whose kept span starts before an older compaction entry', () => {
  // before-compaction.jsonl has pi's own compactions at lines 360 (index 359, keeps from
  // index 293) and 629 (index 628, keeps from index 551). A third one keeping from index
  // 600 spans the entry at index 628. Current pi migrates such a version-1 file to entry
  // ids and rebuilds the context as: the newest summary, then every entry on the path
  // from the first kept one up to the newest compaction (an older compaction entry shows
  // as its summary), then the entries after it.
  it('follows pi: newest summary, kept entries in order with the older summary in place, then the rest', () => {
    const text = readFileSync(DATA + 'pi/before-compaction.jsonl', 'utf8');
    const raw = rawRecords('pi/before-compaction.jsonl');
    const third = { type: 'compaction', timestamp: '2025-12-09T01:00:00.000Z', summary: 'THIRD SUMMARY', firstKeptEntryIndex: 600, tokensBefore: 1 };
    const t = parseTranscript(text + JSON.stringify(third) + '\n', { path: 'third.jsonl' });
    expect(t.report.compactions).toBe(3);
    const s = t.log.surface();
    expect(s[0]!.content).toEqual([{ type: 'text', text: 'THIRD SUMMARY' }]);
    expect(s[0]!.kind).toBe('checkpoint');
    const fromEntries = s.slice(1).filter((n) => typeof n.meta?.entryIndex === 'number');
    const idx = fromEntries.map((n) => n.meta!.entryIndex as number);
    // every message entry and the older compaction entry from index 600 on, once, in file order
    const want = raw.map((r, i) => (i >= 600 && i < raw.length && (r.type === 'message' || r.type === 'compaction') ? i : -1)).filter((i) => i >= 0);
    expect(idx).toEqual(want);
    const older = fromEntries.find((n) => n.meta!.entryIndex === 628)!;
    expect(older.kind).toBe('checkpoint');
    expect((older.content[0] as { text: string }).text).toBe(raw[628]!.summary);
    // the entries appended again are copies: inspect counts each host message once
    const plain = parseTranscript(text, { path: 'plain.jsonl' });
    const count = (x: typeof t) => transcriptStats(x, () => 1);
    expect(count(t).messages.assistant).toBe(count(plain).messages.assistant);
    expect(count(t).toolCalls).toBe(count(plain).toolCalls);
    expect(t.log.events().some((e) => e.meta?.copyOf !== undefined)).toBe(true);
    // nothing from before index 600 is visible, and the log still holds every event
    expect(s.some((n) => typeof n.meta?.entryIndex === 'number' && (n.meta.entryIndex as number) < 600)).toBe(false);
    expect(checkInvariants(t.log.events()).violations).toEqual([]);
  });

  it('a compaction whose firstKeptEntryIndex points past its own entry keeps nothing before it (pi: the entries after it follow)', () => {
    const text = readFileSync(DATA + 'pi/large-session.jsonl', 'utf8');
    const n = text.split('\n').filter((l) => l.trim()).length;
    const user = { type: 'message', timestamp: '2025-11-21T00:00:00.000Z', message: { role: 'user', content: [{ type: 'text', text: 'after' }], timestamp: 1 } };
    const comp = { type: 'compaction', timestamp: '2025-11-21T00:00:00.000Z', summary: 'S', firstKeptEntryIndex: n + 1, tokensBefore: 1 };
    const t = parseTranscript(text + JSON.stringify(comp) + '\n' + JSON.stringify(user) + '\n');
    const s = t.log.surface().filter((x: MessageEvent) => x.kind !== 'repair');
    expect(s.map((x) => x.content)).toEqual([[{ type: 'text', text: 'S' }], [{ type: 'text', text: 'after' }]]);
  });
});

describe('hive-mind compact, then compact the output again (built binary, real pi files)', () => {
  // budgets (tokens): each round compacts the previous round's output below the last
  // surface (the 27.6k-token `find` listing of before-compaction is kept pruned in the
  // retained tail, so its budgets go below it)
  const plans: Record<string, number[]> = { 'pi/large-session.jsonl': [90000, 10000, 3000], 'pi/before-compaction.jsonl': [50000, 20000, 12000] };
  for (const [rel, budgets] of Object.entries(plans)) {
    it(`${rel}: 3 successive compactions; inspect of each output gives the tokens compact reported`, () => {
      if (!existsSync(BIN)) throw new Error('build the CLI first: npx tsc -b packages/cli');
      let input = copy(rel, `cli-${rel.replace('/', '-')}`);
      for (const [i, budget] of budgets.entries()) {
        const out = join(work, `cli-${i + 1}-${rel.replace('/', '-')}`);
        const c = cli('compact', input, '--budget', String(budget), '--out', out, '--json');
        expect(c.stderr, `round ${i + 1}`).toBe('');
        expect(c.status).toBe(0);
        const rep = JSON.parse(c.stdout);
        expect(rep.tokensAfter).toBeLessThan(rep.tokensBefore);
        expect(rep.tokensAfter).toBeLessThanOrEqual(budget);
        const ins = cli('inspect', out, '--json');
        expect(ins.status).toBe(0);
        const got = JSON.parse(ins.stdout);
        expect(got.format).toBe('pi');
        expect(got.compactions).toBe(i + 1 + (rel.includes('before-compaction') ? 2 : 0));
        // the surface read back is the one the engine produced: same token count
        expect(got.surfaceTokens, `round ${i + 1}`).toBe(rep.tokensAfter);
        input = out;
      }
    });
  }
});
