/**
 * Creating a .mind (src/create.ts, src/open.ts): a new mind appears whole to every other opener,
 * with real files and real child processes (issue 25).
 */
import { describe, it, expect, beforeEach, afterEach, beforeAll } from 'vitest';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { Mind, MindError, SCHEMA_VERSION } from '@hive-mind/mind';
import { CREATING_STALE_MS } from '../src/store/create.js';
import { CREATION_QUIET_MS } from '../src/store/open.js';
import { startWorker, type Worker } from '../../../test-support/workers.js';
import { tmp, ensureBuilt, DIST_INDEX } from './helpers.js';

let t: ReturnType<typeof tmp>;
beforeEach(() => {
  t = tmp('hm-create-');
});
afterEach(() => t.cleanup());

function openError(fn: () => unknown): MindError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(MindError);
    return err as MindError;
  }
  throw new Error('expected a MindError');
}

/** Set a file's times `ms` into the past. */
function age(path: string, ms: number): void {
  const then = new Date(Date.now() - ms);
  utimesSync(path, then, then);
}

describe('creating a .mind', () => {
  it('a new mind appears whole: its schema, WAL mode, 0600, and nothing else left in its folder', () => {
    const path = join(t.dir, 'ws', 'a.mind');
    const m = Mind.open(path);
    expect(m.schemaVersion).toBe(SCHEMA_VERSION);
    expect(String(m.database.pragma('journal_mode', { simple: true }))).toBe('wal');
    m.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(t.dir, 'ws')).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(t.dir, 'ws'))).toEqual(['a.mind']);
    const ro = Mind.open(path, { readonly: true });
    expect(ro.schemaVersion).toBe(SCHEMA_VERSION);
    ro.close();
  });

  it("a crashed creator's files are removed by the next creation in the folder once stale; a live creation's are kept; neither stands in a mind's way", () => {
    const dir = join(t.dir, 'ws');
    mkdirSync(dir);
    // what a creator killed halfway leaves: the temporary file and its rollback journal, or a WAL
    const stale = ['.b.mind.creating-4242-0badf00d', '.b.mind.creating-4242-0badf00d-journal', '.a.mind.creating-77-deadbeef-wal'];
    const live = '.c.mind.creating-99-cafe0123';
    for (const f of [...stale, live]) writeFileSync(join(dir, f), 'x');
    for (const f of stale) age(join(dir, f), CREATING_STALE_MS + 60_000);
    writeFileSync(join(dir, 'notes.txt'), 'not ours'); // a file of the user's, old too
    age(join(dir, 'notes.txt'), CREATING_STALE_MS + 60_000);
    const m = Mind.open(join(dir, 'a.mind'));
    m.save({ content: 'kept' });
    m.close();
    expect(readdirSync(dir).sort()).toEqual(['.c.mind.creating-99-cafe0123', 'a.mind', 'notes.txt']);
    // b.mind, whose creation crashed, is created now like any missing mind
    const b = Mind.open(join(dir, 'b.mind'));
    expect(b.schemaVersion).toBe(SCHEMA_VERSION);
    b.close();
  });

  it('a zero-length leftover: a readonly open says NOT_MIND naming the file and leaves it; a writable open gives it its schema', () => {
    const path = join(t.dir, 'left.mind');
    closeSync(openSync(path, 'wx', 0o600));
    age(path, CREATION_QUIET_MS + 10_000);
    const err = openError(() => Mind.open(path, { readonly: true }));
    expect(err.code).toBe('NOT_MIND');
    expect(err.file).toBe(path);
    expect(err.message).toMatch(/left\.mind: empty file \(no \.mind schema yet, unwritten for \d+\.\d s\); a writable open \(any save\) creates the schema in it/);
    expect(statSync(path).size).toBe(0);
    const w = Mind.open(path);
    w.save({ content: 'first frame' });
    w.close();
    const ro = Mind.open(path, { readonly: true });
    expect(ro.schemaVersion).toBe(SCHEMA_VERSION);
    expect(ro.stats().frames).toBe(1);
    ro.close();
  });
});

describe('openers racing a creation (real child processes)', () => {
  beforeAll(() => ensureBuilt('mind'), 120_000);

  it('an empty file another process is creating in place (an older hive-mind): a readonly opener waits for its schema', async () => {
    const path = join(t.dir, 'inplace.mind');
    // what every hive-mind before issue 25 did: create the file empty, then open, WAL, migrate
    const creator = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { closeSync, openSync } from 'node:fs';
         import { Mind } from ${JSON.stringify(DIST_INDEX)};
         closeSync(openSync(process.argv[1], 'wx', 0o600));
         console.log('created');
         await new Promise((r) => setTimeout(r, 150));
         const m = Mind.open(process.argv[1]);
         m.save({ content: 'saved by the creator' });
         m.close();
         console.log('done');`,
        path,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    await new Promise<void>((resolve) =>
      creator.stdout.on('data', (d) => {
        out += d;
        if (out.includes('created')) resolve();
      }),
    );
    expect(statSync(path).size).toBe(0);
    const ro = Mind.open(path, { readonly: true, busyTimeoutMs: 20_000 });
    expect(ro.schemaVersion).toBe(SCHEMA_VERSION);
    ro.close();
    await new Promise((resolve) => creator.on('close', resolve));
    expect(out).toContain('done');
  });

  it('6 processes opening a new mind at the same moment, half readonly, 20 rounds: every opener finds it whole, every writer saves', async () => {
    const ROUNDS = 20;
    const prelude = `import { Mind } from ${JSON.stringify(DIST_INDEX)};`;
    // a readonly opener retries while the file does not exist yet (what it may see) and reports
    // anything else it meets; a writer opens (creating), saves one frame, closes
    const handler = `
      if (cmd.readonly) {
        const giveUp = Date.now() + 20000;
        for (;;) {
          try { const m = Mind.open(cmd.path, { readonly: true }); const v = m.schemaVersion; m.close(); return { ok: true, version: v }; }
          catch (e) { if (e.code === 'IO' && /no such \\.mind file/.test(e.message) && Date.now() < giveUp) continue; return { ok: false, code: e.code, message: e.message }; }
        }
      }
      const m = Mind.open(cmd.path); m.save({ content: cmd.content }); const v = m.schemaVersion; m.close();
      return { ok: true, version: v };`;
    const workers: Worker[] = await Promise.all(Array.from({ length: 6 }, () => startWorker(prelude, handler)));
    try {
      const failures: unknown[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const dir = join(t.dir, `round-${round}`);
        const path = join(dir, 'new.mind');
        const answers = await Promise.all(workers.map((w, i) => w.send(i % 2 ? { readonly: true, path } : { path, content: `writer ${i} saved in round ${round}` })));
        for (const a of answers) if (!a.ok || a.version !== SCHEMA_VERSION) failures.push({ round, ...a });
        const m = Mind.open(path, { readonly: true });
        const contents = m.list({ limit: 10 }).map((f) => f.content).sort();
        m.close();
        expect(contents).toEqual([0, 2, 4].map((i) => `writer ${i} saved in round ${round}`));
        expect(readdirSync(dir).filter((f) => f.includes('.creating-'))).toEqual([]);
      }
      expect(failures).toEqual([]);
    } finally {
      for (const w of workers) expect((await w.close()).code).toBe(0);
    }
  });

  it('a process killed at random moments while creating minds leaves every mind whole; what it left is swept once stale', async () => {
    const dir = join(t.dir, 'killed');
    mkdirSync(dir, { recursive: true });
    for (let run = 0; run < 4; run++) {
      const child = spawn(
        process.execPath,
        ['--input-type=module', '-e', `import { Mind } from ${JSON.stringify(DIST_INDEX)}; for (let i = 0; ; i++) { Mind.open(process.argv[1] + '/run${run}-' + i + '.mind').close(); if (i === 0) console.log('started'); }`, dir],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 400));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.on('close', resolve));
    }
    const minds = readdirSync(dir).filter((f) => f.endsWith('.mind'));
    expect(minds.length).toBeGreaterThanOrEqual(4);
    for (const f of minds) {
      const m = Mind.open(join(dir, f), { readonly: true });
      expect(m.schemaVersion).toBe(SCHEMA_VERSION);
      m.close();
    }
    // whatever the kills left (a creation file and its sidecars), aged: the next creation sweeps it
    const left = readdirSync(dir).filter((f) => f.includes('.creating-'));
    for (const f of left) age(join(dir, f), CREATING_STALE_MS + 60_000);
    Mind.open(join(dir, 'after.mind')).close();
    expect(readdirSync(dir).filter((f) => f.includes('.creating-'))).toEqual([]);
    expect(existsSync(join(dir, 'after.mind'))).toBe(true);
  });
});
