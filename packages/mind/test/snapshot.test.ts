import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mind } from '../src/index.js';

// The small API the UI's Frames view needs: list/count filters, setImportance, snapshot/restore (undo).

const dirs: string[] = [];
function open(): Mind {
  const d = mkdtempSync(join(tmpdir(), 'hm-snap-'));
  dirs.push(d);
  return Mind.open(join(d, 'x.mind'));
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('list and count filters', () => {
  it('filter by host, source, scope, thread, expired and superseded, and count the same set', () => {
    const m = open();
    m.save({ content: 'from claude about builds', host: 'claude-code', source: 'user_stated' });
    m.save({ content: 'from codex about tests', host: 'codex', source: 'tool_verified' });
    m.save({ content: 'a thread prompt', scope: 'thread', threadKey: 'T1', importance: 'temporary', host: 'codex' });
    const old = m.save({ content: 'expired fact', expiresAt: '2000-01-01T00:00:00.000Z' }).id;
    const v1 = m.save({ content: 'version one of the port fact' }).id;
    const v2 = m.save({ content: 'version two of the port fact', supersedes: v1 }).id;
    expect(m.list({ host: 'codex' }).map((f) => f.host)).toEqual(['codex', 'codex']);
    expect(m.count({ host: 'codex' })).toBe(2);
    expect(m.count({ source: 'tool_verified' })).toBe(1);
    expect(m.list({ threadKey: 'T1' }).map((f) => f.content)).toEqual(['a thread prompt']);
    expect(m.count({ scope: 'thread' })).toBe(1);
    expect(m.list({ expiredOnly: true }).map((f) => f.id)).toEqual([old]);
    expect(m.list({ supersededOnly: true }).map((f) => f.id)).toEqual([v1]);
    expect(m.count()).toBe(5);
    expect(m.count({ includeRetired: true })).toBe(6);
    expect(m.list({ limit: 2, offset: 1 }).length).toBe(2);
    expect(() => m.count({ source: 'nope' as never })).toThrow(/source/);
    expect(v2).toBeGreaterThan(v1);
    m.close();
  });
});

describe('setImportance', () => {
  it('returns the previous level, changes the frame, and refuses an unknown level', () => {
    const m = open();
    const id = m.save({ content: 'a normal fact' }).id;
    expect(m.setImportance(id, 'critical')).toBe('normal');
    expect(m.get(id)!.importance).toBe('critical');
    expect(m.setImportance(9999, 'normal')).toBeUndefined();
    expect(() => m.setImportance(id, 'huge' as never)).toThrow(/importance must be one of/);
    m.close();
  });
});

describe('snapshot and restore', () => {
  it('puts a forgotten frame back with its versions, history, times and search index', () => {
    const m = open();
    const v1 = m.save({ content: 'the staging database is on port 5433' }).id;
    const v2 = m.save({ content: 'the staging database moved to port 6543', supersedes: v1 }).id;
    const v3 = m.save({ content: 'the staging database moved again, to port 7000', supersedes: v2 }).id;
    m.cleanup({ mode: 'compact' }); // folds v1, v2 into the history of v3
    const head = m.get(v3)!;
    const history = m.history(v3);
    expect(history.length).toBe(2);
    const snap = m.snapshot(v3, { versions: true })!;
    expect(m.forget(v3)).toBe(true);
    expect(m.get(v3)).toBeUndefined();
    expect(m.search('staging database')).toEqual([]);
    m.restore(snap);
    expect(m.get(v3)).toEqual(head);
    expect(m.history(v3)).toEqual(history);
    expect(m.search('staging database').map((h) => h.id)).toEqual([v3]);
    m.close();
  });

  it('undoes an importance change exactly, updatedAt included', () => {
    const m = open();
    const id = m.save({ content: 'keep the changelog short' }).id;
    const before = m.get(id)!;
    const snap = m.snapshot(id)!;
    m.setImportance(id, 'deprecated');
    m.setQuarantined(id, true);
    m.restore(snap);
    expect(m.get(id)).toEqual(before);
    expect(m.snapshot(12345)).toBeUndefined();
    expect(() => m.restore({ id: 1, frames: [{ 'id; DROP TABLE frames': 1 }], history: [] } as never)).toThrow(/bad columns/);
    m.close();
  });
});
