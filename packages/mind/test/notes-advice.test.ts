import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { Notes } from '@hive-mind/mind';
import { tmp, ensureBuilt, runNode, CLI_BIN } from './helpers.js';

let t: ReturnType<typeof tmp>;
beforeEach(() => (t = tmp()));
afterEach(() => t.cleanup());

describe('over-limit advice fits the case', () => {
  it('an entry larger than the whole limit says so (no advice to remove entries, which could never work)', () => {
    const notes = new Notes({ home: t.dir, memoryCharLimit: 100 });
    notes.add({ file: 'memory' }, 'short entry');
    const r = notes.add({ file: 'memory' }, 'x'.repeat(150));
    expect(r).toMatchObject({ ok: false, reason: 'over_limit', entryTooLarge: { chars: 150, limit: 100 } });
    if (r.ok) throw new Error('unreachable');
    expect(r.message).toMatch(/alone is 150 characters, more than the whole 100-character limit/);
    expect(r.message).not.toMatch(/Remove or shorten entries/);
    expect(r.message).toMatch(/pending frame/);
    // an entry that fits once others go: the removal advice
    const r2 = notes.add({ file: 'memory' }, 'y'.repeat(95));
    expect(r2).toMatchObject({ ok: false, reason: 'over_limit' });
    expect('entryTooLarge' in r2).toBe(false);
    if (!r2.ok) expect(r2.message).toMatch(/Remove or shorten entries/);
  });

  it('the CLI words it for a person (commands to run), not for an agent', async () => {
    ensureBuilt('cli');
    const env = { HIVE_MIND_HOME: t.dir, HIVE_MIND_MEMORY_CHAR_LIMIT: '100' };
    const big = await runNode([CLI_BIN, 'notes', 'add', 'z'.repeat(150)], { env });
    expect(big.code).toBe(1);
    expect(big.stderr).toMatch(/this entry is 150 characters, more than the whole 100-character limit, so it can never fit; nothing was written\. It was kept in the mind as pending frame #\d+ \(hive-mind mind show \d+\)/);
    expect(big.stderr).not.toMatch(/Stop retrying|retry once|answer the user/);
    await runNode([CLI_BIN, 'notes', 'add', 'a'.repeat(60)], { env });
    const over = await runNode([CLI_BIN, 'notes', 'add', 'b'.repeat(60)], { env });
    expect(over.stderr).toMatch(/hive-mind notes remove TEXT/);
    expect(over.stderr).toMatch(/--auto-consolidate/);
    expect(over.stderr).not.toMatch(/retry once/);
  });
});
