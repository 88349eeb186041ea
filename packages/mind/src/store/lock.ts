import { hostname } from 'node:os';
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MindError } from '../errors.js';
import { ensureDir } from '../dirs.js';
import { realTarget, writeFileAtomic } from './atomic.js';

const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** Synchronous sleep (the notes API is synchronous so hooks and tools can call it without async plumbing). */
export function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** Contents of a lock file: who holds it. */
export interface LockInfo {
  pid: number;
  host: string;
  since: string;
}

/**
 * A lock file as found on disk: its holder when the file records one, else why it cannot be read
 * (`unreadable`: `'empty'` when a writer died, or the disk was full, between creating the file and
 * writing its holder; `'not JSON'`; `'no holder recorded'` for JSON without a pid). `ageMs` is the
 * time since the file was last written (its mtime), in milliseconds.
 */
export type LockState = Partial<LockInfo> & { ageMs: number; stale: boolean; unreadable?: 'empty' | 'not JSON' | 'no holder recorded' };

/** Age (ms) past which a readable lock is stale whatever its holder: no notes write holds one this long. */
export const LOCK_STALE_MS = 30_000;
/**
 * Age (ms) past which a lock file that records no holder (empty or unreadable) is stale. A writer
 * fills its lock in the same instant it creates it (one `write` of ~70 bytes after the `open`), so a
 * lock still empty after 3 s was left by a writer that died or met a full disk; 3 s is also below the
 * default 5 s lock wait, so a waiting writer breaks such a lock instead of giving up.
 */
export const UNREADABLE_LOCK_STALE_MS = 3_000;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Read a lock file; undefined when there is none (or it vanished while being read). */
export function readLock(lockPath: string): LockState | undefined {
  let raw: string;
  let ageMs: number;
  try {
    raw = readFileSync(lockPath, 'utf8');
    ageMs = Math.max(0, Date.now() - statSync(lockPath).mtimeMs);
  } catch {
    return undefined;
  }
  let info: Partial<LockInfo> | undefined;
  let unreadable: LockState['unreadable'];
  if (!raw.trim()) unreadable = 'empty';
  else {
    try {
      const v = JSON.parse(raw) as Partial<LockInfo> | null;
      if (v && typeof v === 'object' && Number.isInteger(v.pid)) info = v;
      else unreadable = 'no holder recorded';
    } catch {
      unreadable = 'not JSON';
    }
  }
  if (!info) return { ageMs, stale: ageMs > UNREADABLE_LOCK_STALE_MS, unreadable };
  const stale = ageMs > LOCK_STALE_MS || (info.host === hostId() && !pidAlive(info.pid!));
  return { ...info, ageMs, stale };
}

/** Who holds a lock, for messages: `pid 123 on host since 2026-…`, or what is wrong with an unreadable one. */
export function describeLock(l: LockState): string {
  if (l.unreadable)
    return `a lock file that records no holder (${l.unreadable}), ${Math.round(l.ageMs)} ms old; it counts as stale after ${UNREADABLE_LOCK_STALE_MS} ms`;
  return `pid ${l.pid}${l.host ? ` on ${l.host}` : ''} since ${l.since ?? 'an unrecorded time'}`;
}

/**
 * Remove a stale lock file atomically: it is renamed aside first, so that two processes breaking
 * it at once cannot both win (the loser's rename fails), nor remove a fresh lock taken meanwhile.
 * Returns whether this call removed it.
 */
export function breakLock(lockPath: string): boolean {
  const aside = `${lockPath}.stale-${process.pid}-${randomBytes(3).toString('hex')}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return false; // someone else broke it
  }
  // another breaker may have won first and a writer taken a fresh lock since: put a live lock back
  const taken = readLock(aside);
  if (taken && !taken.stale) {
    try {
      linkSync(aside, lockPath);
    } catch {
      /* a newer lock is in place: the writer holding ours finds its lock gone only at release */
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    /* gone already */
  }
  return !(taken && !taken.stale);
}

// the machine a lock holder runs on: a lock from another host (a shared home over NFS) is never
// broken by a pid check here. os.hostname(), since $HOSTNAME is a shell variable Node rarely sees.
function hostId(): string {
  return hostname();
}

/**
 * Create `lockPath` (O_EXCL) holding this process as its holder. Returns false when it exists. When
 * the holder cannot be written (ENOSPC, EIO...) the half-made lock is removed before the error is
 * thrown, so a full disk never leaves an empty lock behind.
 * @throws MindError `IO` when the lock can be neither created nor written.
 */
function tryLock(lockPath: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new MindError(`${lockPath}: cannot create the lock: ${(err as Error).message}; nothing was written`, 'IO', lockPath);
  }
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, host: hostId(), since: new Date().toISOString() } satisfies LockInfo));
  } catch (err) {
    try {
      closeSync(fd);
    } catch {
      /* closing is all that is left to try */
    }
    try {
      unlinkSync(lockPath);
    } catch {
      /* doctor lists what is left, and it turns stale */
    }
    throw new MindError(`${lockPath}: cannot write the lock: ${(err as Error).message}; nothing was written`, 'IO', lockPath);
  }
  closeSync(fd);
  return true;
}

/**
 * Run `fn` while holding an exclusive lock file `<path>.lock` (created with O_EXCL, holding
 * `{pid, host, since}`). Waits up to `timeoutMs` (default 5000) with short sleeps; a stale lock
 * ({@link readLock}: its holder process is dead on this host, it is older than 30 s, or it records no
 * holder and is older than 3 s) is broken. A lock that cannot be written (a full disk) is removed again.
 * @throws MindError `LOCKED` naming the lock file and its holder on timeout; `IO` when the lock cannot
 *   be created or written.
 */
export function withFileLock<T>(path: string, fn: () => T, timeoutMs = 5000): T {
  const lockPath = `${path}.lock`;
  ensureDir(dirname(path), 0o700);
  const deadline = Date.now() + timeoutMs;
  let delay = 2;
  for (;;) {
    if (tryLock(lockPath)) break;
    const held = readLock(lockPath);
    if (!held) continue; // released between our open and our read
    if (held.stale) {
      breakLock(lockPath);
      continue;
    }
    if (Date.now() >= deadline) throw new MindError(`${lockPath}: held by ${describeLock(held)}; gave up after ${timeoutMs} ms`, 'LOCKED', path);
    sleepSync(delay);
    delay = Math.min(delay * 2, 50);
  }
  try {
    return fn();
  } finally {
    try {
      unlinkSync(lockPath);
    } catch {
      /* already gone */
    }
  }
}

/**
 * Write `data` to `path` atomically for the mind's own files (notes, failure records): its
 * directory is created (0700, bounded, see `ensureDir`), then {@link writeFileAtomic} (temp
 * file, fsync, rename, directory fsync; a symlinked file stays a link, its target is replaced;
 * new files 0600).
 * @throws MindError `IO` when the write fails.
 */
export function atomicWrite(path: string, data: string | Uint8Array): void {
  try {
    ensureDir(dirname(realTarget(path)), 0o700);
    writeFileAtomic(path, data);
  } catch (err) {
    throw new MindError(`${path}: cannot write: ${(err as Error).message}`, 'IO', path);
  }
}
