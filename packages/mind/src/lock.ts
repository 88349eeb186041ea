import { hostname } from 'node:os';
import { closeSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync, fsyncSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MindError } from './errors.js';
import { ensureDir } from './dirs.js';
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

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Read a lock file; undefined when absent or unreadable. */
export function readLock(lockPath: string): (LockInfo & { ageMs: number; stale: boolean }) | undefined {
  try {
    const raw = readFileSync(lockPath, 'utf8');
    const info = JSON.parse(raw) as LockInfo;
    const ageMs = Date.now() - statSync(lockPath).mtimeMs;
    const stale = ageMs > STALE_MS || (info.host === hostId() && !pidAlive(info.pid));
    return { ...info, ageMs, stale };
  } catch {
    return undefined;
  }
}

const STALE_MS = 30_000;
// the machine a lock holder runs on: a lock from another host (a shared home over NFS) is never
// broken by a pid check here. os.hostname(), since $HOSTNAME is a shell variable Node rarely sees.
function hostId(): string {
  return hostname();
}

/**
 * Run `fn` while holding an exclusive lock file `<path>.lock` (created with O_EXCL).
 * Waits up to `timeoutMs` (default 5000) with short sleeps; a lock whose holder process is dead
 * (same host) or that is older than 30 s is considered stale and broken.
 * Throws `MindError('LOCKED')` naming the lock file and its holder on timeout.
 */
export function withFileLock<T>(path: string, fn: () => T, timeoutMs = 5000): T {
  const lockPath = `${path}.lock`;
  ensureDir(dirname(path), 0o700);
  const deadline = Date.now() + timeoutMs;
  let fd: number | undefined;
  let delay = 2;
  for (;;) {
    try {
      fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostId(), since: new Date().toISOString() } satisfies LockInfo));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new MindError(`${lockPath}: cannot create lock: ${(err as Error).message}`, 'IO', lockPath);
      const held = readLock(lockPath);
      if (held?.stale) {
        // break a stale lock atomically: rename it away first so two breakers cannot both win
        const aside = `${lockPath}.stale-${process.pid}-${randomBytes(3).toString('hex')}`;
        try {
          renameSync(lockPath, aside);
          unlinkSync(aside);
        } catch {
          /* someone else broke it */
        }
        continue;
      }
      if (Date.now() >= deadline) {
        throw new MindError(
          `${lockPath}: locked by pid ${held?.pid ?? '?'} since ${held?.since ?? '?'}; gave up after ${timeoutMs} ms`,
          'LOCKED',
          path,
        );
      }
      sleepSync(delay);
      delay = Math.min(delay * 2, 50);
    }
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
