import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MemorySessionLog,
  analyzePairing,
  assertInvariants,
  balancedCuts,
  checkInvariants,
  foldSurface,
  isBalancedBefore,
  SurfaceOpError,
  ToolPairingError,
  type NewEvent,
  type SessionLog,
} from '../src/index.js';
import { SqliteSessionLog } from '../src/sqlite.js';

const user = (t: string): NewEvent => ({ type: 'user/message', surfaceOp: 'append', content: [{ type: 'text', text: t }] });
const call = (id: string): NewEvent => ({ type: 'assistant/message', surfaceOp: 'append', content: [{ type: 'tool-call', id, name: 'bash', input: { cmd: 'ls' } }] });
const result = (id: string): NewEvent => ({ type: 'tool/result', surfaceOp: 'append', content: [{ type: 'tool-result', callId: id, content: [{ type: 'text', text: 'ok' }], isError: false }] });

describe('session log', () => {
  it('assigns monotonic seqs and folds appends and replaces', () => {
    const log = new MemorySessionLog();
    log.append([user('a'), user('b'), user('c'), user('d')]);
    expect(log.surface().map((n) => n.seq)).toEqual([1, 2, 3, 4]);
    log.append({ type: 'user/message', kind: 'checkpoint', surfaceOp: { op: 'replace', start: 1, end: 2 }, content: [{ type: 'text', text: 'sum' }] });
    expect(log.surface().map((n) => n.seq)).toEqual([5, 3, 4]);
    expect(log.generation).toBe(1);
    expect(log.get(1)).toBeDefined(); // shadowed events stay readable
    expect(log.surfacePosition(5)).toBe(0);
    expect(log.surfacePosition(1)).toBeUndefined();
  });

  it('rejects a whole batch whose replace names seqs not on the surface', () => {
    const log = new MemorySessionLog();
    log.append([user('a'), user('b')]);
    expect(() =>
      log.append([user('c'), { type: 'user/message', surfaceOp: { op: 'replace', start: 2, end: 1 }, content: [] }]),
    ).toThrow(SurfaceOpError);
    expect(log.size).toBe(2);
    expect(() => log.append({ type: 'user/message', surfaceOp: { op: 'replace', start: 9, end: 9 }, content: [] })).toThrow(/not on the surface/);
  });

  it('returns the same cached surface object until the log changes', () => {
    const log = new MemorySessionLog();
    log.append([user('a'), user('b')]);
    const s1 = log.surface();
    expect(log.surface()).toBe(s1);
    log.append(user('c'));
    expect(log.surface()).not.toBe(s1);
  });

  it('persists to SQLite in WAL mode and reopens to the same surface', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hm-session-'));
    try {
      const path = join(dir, 's.db');
      const log = SqliteSessionLog.open(path, { id: 'abc' });
      log.append([user('a'), call('c1'), result('c1'), user('b')]);
      log.append({ type: 'user/message', surfaceOp: { op: 'replace', start: 1, end: 3 }, content: [{ type: 'text', text: 'sum' }] });
      const before = log.surface().map((n) => n.seq);
      log.close();
      const again = SqliteSessionLog.open(path);
      expect(again.id).toBe('abc');
      expect(again.surface().map((n) => n.seq)).toEqual(before);
      expect(again.events()).toHaveLength(5);
      again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('tool pairing', () => {
  it('finds balanced cuts around a call and its result', () => {
    const log = new MemorySessionLog();
    log.append([user('a'), call('x'), result('x'), user('b')]);
    expect(balancedCuts(log.surface())).toEqual([0, 1, 3, 4]);
    expect(isBalancedBefore(log.surface(), 2)).toBe(false);
  });

  it('throws on a result with no earlier call', () => {
    const log = new MemorySessionLog();
    log.append([user('a'), result('nope')]);
    expect(() => analyzePairing(log.surface())).toThrow(ToolPairingError);
    expect(checkInvariants(log.events()).ok).toBe(false);
  });

  it('does not let a never-answered call block later cuts', () => {
    const log = new MemorySessionLog();
    log.append([user('a'), call('lost'), user('b'), call('y'), result('y')]);
    const r = analyzePairing(log.surface());
    expect(r.unanswered.map((u) => u.id)).toEqual(['lost']);
    expect(balancedCuts(log.surface())).toEqual([0, 1, 2, 3, 5]);
  });
});

type Op = { kind: 'user' } | { kind: 'tool'; parallel: number } | { kind: 'replace'; a: number; b: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.constant<Op>({ kind: 'user' }),
  fc.integer({ min: 1, max: 3 }).map<Op>((parallel) => ({ kind: 'tool', parallel })),
  fc.tuple(fc.nat(), fc.nat()).map<Op>(([a, b]) => ({ kind: 'replace', a, b })),
);

function run(log: SessionLog, ops: Op[]): void {
  let n = 0;
  for (const op of ops) {
    if (op.kind === 'user') log.append(user(`u${n++}`));
    else if (op.kind === 'tool') {
      const ids = Array.from({ length: op.parallel }, () => `c${n++}`);
      log.append({ type: 'assistant/message', surfaceOp: 'append', content: ids.map((id) => ({ type: 'tool-call' as const, id, name: 't', input: {} })) });
      for (const id of ids) log.append(result(id));
    } else {
      const s = log.surface();
      if (s.length === 0) continue;
      // replace only at balanced cuts, as compaction does
      const cuts = balancedCuts(s);
      const i = cuts[op.a % cuts.length]!;
      const j = cuts[op.b % cuts.length]!;
      const [lo, hi] = i < j ? [i, j] : [j, i];
      if (lo === hi) continue;
      log.append({ type: 'user/message', kind: 'checkpoint', surfaceOp: { op: 'replace', start: s[lo]!.seq, end: s[hi - 1]!.seq }, content: [{ type: 'text', text: 'checkpoint' }] });
    }
  }
}

describe('properties', () => {
  it('the cached surface equals a full refold after any appends and replaces', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const log = new MemorySessionLog();
        run(log, ops);
        const refold = foldSurface(log.events());
        expect(log.surface().map((x) => x.seq)).toEqual(refold.map((x) => x.seq));
        assertInvariants(log.events());
      }),
      { numRuns: 300 },
    );
  });

  it('no balanced cut separates a tool call from its result', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const log = new MemorySessionLog();
        run(log, ops);
        const s = log.surface();
        const callPos = new Map<string, number>();
        s.forEach((node, i) => node.content.forEach((b) => b.type === 'tool-call' && callPos.set(b.id, i)));
        for (const k of balancedCuts(s)) {
          s.forEach((node, i) =>
            node.content.forEach((b) => {
              if (b.type !== 'tool-result') return;
              const c = callPos.get(b.callId)!;
              expect(c < k && i >= k).toBe(false);
            }),
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});
