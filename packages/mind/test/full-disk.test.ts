import { describe, it, expect, beforeAll, beforeEach, afterEach } from 'vitest';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Notes, doctor, repairLocks } from '@hive-mind/mind';
import { tmp, ensureBuilt, runNode, CLI_BIN, type RunResult } from './helpers.js';

/**
 * A full disk for real: a 64 KiB tmpfs mounted for the test (needs root, which this machine's test
 * runs have; elsewhere the tests that need the mount are skipped and say so), filled to its last
 * byte by a filler file, then freed.
 */
function mountTmpfs(dir: string): boolean {
  mkdirSync(dir, { recursive: true });
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  return spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', dir]).status === 0;
}

/** Write until the file system refuses (ENOSPC); returns the filler's path. */
function fill(dir: string): string {
  const p = join(dir, 'filler.bin');
  const fd = openSync(p, 'w');
  const chunk = Buffer.alloc(4096, 0x61);
  try {
    for (;;) {
      try {
        writeSync(fd, chunk);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
        // the last page: byte by byte until nothing at all fits
        for (;;) {
          try {
            writeSync(fd, Buffer.from('a'));
          } catch (e2) {
            if ((e2 as NodeJS.ErrnoException).code === 'ENOSPC') return p;
            throw e2;
          }
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

let t: ReturnType<typeof tmp>;
let fs: string;
let mounted = false;
beforeAll(() => ensureBuilt('cli'), 300_000);
beforeEach(() => {
  t = tmp('hm-fulldisk-');
  fs = join(t.dir, 'fs');
  mounted = mountTmpfs(fs);
});
afterEach(() => {
  if (mounted) spawnSync('umount', ['-l', fs]);
  t.cleanup();
});

function cli(home: string, args: string[]): Promise<RunResult> {
  return runNode([CLI_BIN, ...args], { env: { HIVE_MIND_HOME: home }, cwd: t.dir });
}

const canMount = process.platform === 'linux' && process.getuid?.() === 0;

describe.skipIf(!canMount)('notes on a full disk (a real 64 KiB tmpfs; needs root to mount)', () => {
  it('a notes add that cannot write its lock leaves no lock; once space is freed the next write succeeds', async () => {
    expect(mounted, 'mount -t tmpfs failed').toBe(true);
    const home = join(fs, 'home');
    mkdirSync(join(home, 'memories'), { recursive: true });
    const filler = fill(fs);
    const full = await cli(home, ['notes', 'add', 'deploy with helm 3']);
    expect(full.code).toBe(1);
    expect(full.stderr).toMatch(/MEMORY\.md\.lock: cannot write the lock: .*ENOSPC/);
    expect(full.stderr).toMatch(/nothing was written/);
    // the failed lock write took its lock file with it
    expect(existsSync(join(home, 'memories', 'MEMORY.md.lock'))).toBe(false);
    expect(existsSync(join(home, 'memories', 'MEMORY.md'))).toBe(false);
    rmSync(filler);
    const ok = await cli(home, ['notes', 'add', 'deploy with helm 3']);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(readFileSync(join(home, 'memories', 'MEMORY.md'), 'utf8')).toBe('deploy with helm 3\n');
    const doc = await cli(home, ['mind', 'doctor']);
    expect(doc.stdout).toMatch(/^locks\n {2}none held$/m);
  });

  it('a full disk while writing MEMORY.md itself: refused, the old file and no lock left behind', async () => {
    expect(mounted, 'mount -t tmpfs failed').toBe(true);
    const home = join(fs, 'home');
    expect((await cli(home, ['notes', 'add', 'first entry'])).code).toBe(0);
    // room for the lock (one 4 KiB page, freed from the filler) but not for the new MEMORY.md's temp file
    const filler = fill(fs);
    truncateSync(filler, statSync(filler).size - 4096);
    const big = await cli(home, ['notes', 'add', 'x'.repeat(1500)]);
    expect(big.code).toBe(1);
    expect(big.stderr).toMatch(/ENOSPC/);
    expect(readFileSync(join(home, 'memories', 'MEMORY.md'), 'utf8')).toBe('first entry\n');
    expect(existsSync(join(home, 'memories', 'MEMORY.md.lock'))).toBe(false);
  });
});

describe('notes locks that cannot be read', () => {
  const age = (p: string, seconds: number) => {
    const when = new Date(Date.now() - seconds * 1000);
    utimesSync(p, when, when);
  };

  it('an empty lock older than 3 s is stale: the next write breaks it; a fresh one is waited for', () => {
    const notes = new Notes({ home: t.dir, lockTimeoutMs: 300 });
    mkdirSync(join(t.dir, 'memories'), { recursive: true });
    const lock = join(t.dir, 'memories', 'MEMORY.md.lock');
    writeFileSync(lock, '');
    const fresh = notes.add({ file: 'memory' }, 'written past a fresh empty lock');
    expect(fresh).toMatchObject({ ok: false, reason: 'locked' });
    expect((fresh as { message: string }).message).toMatch(/MEMORY\.md\.lock: held by a lock file that records no holder \(empty\), \d+ ms old; it counts as stale after 3000 ms/);
    age(lock, 10);
    expect(notes.add({ file: 'memory' }, 'written past a stale empty lock')).toMatchObject({ ok: true });
    expect(existsSync(lock)).toBe(false);
    // not JSON, or JSON without a pid: unreadable too
    writeFileSync(lock, '{"pid":');
    age(lock, 10);
    expect(notes.add({ file: 'memory' }, 'written past a torn lock')).toMatchObject({ ok: true });
    expect(notes.read({ file: 'memory' }).entries).toEqual(['written past a stale empty lock', 'written past a torn lock']);
  });

  it('doctor lists every notes lock, also of a file not created yet, with its holder, age and staleness; --repair removes the stale ones only', async () => {
    const mem = join(t.dir, 'memories');
    mkdirSync(join(mem, 'threads', 'feature-x'), { recursive: true });
    // MEMORY.md was never written (the first write found the disk full): its empty lock is all there is
    writeFileSync(join(mem, 'MEMORY.md.lock'), '');
    age(join(mem, 'MEMORY.md.lock'), 60);
    writeFileSync(join(mem, 'threads', 'feature-x', 'MEMORY.md.lock'), JSON.stringify({ pid: process.pid, host: (await import('node:os')).hostname(), since: new Date().toISOString() }));
    writeFileSync(join(mem, 'USER.md.lock'), 'garbage');
    const r = doctor({ mindPath: join(t.dir, 'personal.mind'), notes: new Notes({ home: t.dir }) });
    const by = (name: string) => r.locks.find((l) => l.path.endsWith(name))!;
    expect(r.locks).toHaveLength(3);
    expect(by('/memories/MEMORY.md.lock')).toMatchObject({ unreadable: 'empty', stale: true });
    expect(by('feature-x/MEMORY.md.lock')).toMatchObject({ pid: process.pid, stale: false });
    expect(by('USER.md.lock')).toMatchObject({ unreadable: 'not JSON', stale: false });
    const text = await cli(t.dir, ['mind', 'doctor']);
    expect(text.stdout).toMatch(/memories\/MEMORY\.md\.lock empty lock file \(no holder recorded\), 6\d s old: stale \(mind doctor --repair removes it; the next write breaks it\)/);
    expect(text.stdout).toMatch(new RegExp(`feature-x/MEMORY\\.md\\.lock held by pid ${process.pid} on \\S+ since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z \\(\\d+ s\\)\\n`));
    const repaired = repairLocks(new Notes({ home: t.dir }));
    expect(repaired.removed.map((l) => l.path)).toEqual([join(mem, 'MEMORY.md.lock')]);
    expect(existsSync(join(mem, 'MEMORY.md.lock'))).toBe(false);
    expect(existsSync(join(mem, 'threads', 'feature-x', 'MEMORY.md.lock'))).toBe(true);
    // through the CLI: --repair clears stale locks even when there is no .mind to repair
    writeFileSync(join(mem, 'MEMORY.md.lock'), '');
    age(join(mem, 'MEMORY.md.lock'), 60);
    const rep = await cli(t.dir, ['mind', 'doctor', '--repair']);
    expect(rep.stdout).toMatch(/removed the stale lock .*memories\/MEMORY\.md\.lock \(empty lock file/);
    expect(rep.stdout).toMatch(/no \.mind file to repair at /);
    expect(rep.code).toBe(0);
    expect(existsSync(join(mem, 'MEMORY.md.lock'))).toBe(false);
  });
});
