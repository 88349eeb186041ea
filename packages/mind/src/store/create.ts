import Database from 'better-sqlite3';
import { closeSync, linkSync, openSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fsyncDir } from './atomic.js';
import { ensureDir } from '../dirs.js';
import { MindError } from '../errors.js';
import { migrateSchema } from './schema.js';

/**
 * Creating a .mind file so that no other process ever sees it half made: the schema is built in a
 * temporary file beside it (`.<name>.creating-<pid>-<random>`), which is then hard-linked to the
 * real name. `link` never replaces a file, so of several processes creating the same mind at once
 * one wins and the others open the winner's file; an opener finds either no file or a file with
 * its whole schema, never the empty file an in-place create shows between `open(O_CREAT)` and the
 * first commit (issue 25: a readonly hook opener took that file for "not a mind").
 */

/** What the temporary name of a mind being created holds between the mind's name and the creator's pid. */
const CREATING_INFIX = '.creating-';

/**
 * Age after which a creation's temporary file (or one of its SQLite sidecars) is taken to be left by
 * a crashed creator and removed by the next creation in the folder, in ms (a creation takes
 * milliseconds; this is far past any live one).
 */
export const CREATING_STALE_MS = 60_000;

/** The temporary file and the sidecars SQLite may give it (rollback journal, WAL, shared memory). */
const SIDECARS = ['', '-journal', '-wal', '-shm'];

/** `.<name>.creating-<pid>-<hex>` and its sidecars. */
const CREATING_NAME = /^\..+\.creating-\d+-[0-9a-f]+(-journal|-wal|-shm)?$/;

/** Errors of `link` on file systems without hard links (some FUSE, FAT, SMB mounts). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

/**
 * Make the .mind at `path` exist with its whole schema (`SCHEMA_VERSION`, WAL mode), unless
 * another process makes it first: its folder is created (0700, see `ensureDir`), stale creation
 * files there are removed, the schema is built in a new temporary file (0600, rollback journal with
 * `synchronous = FULL`, so each commit is on disk in the main file and nothing lives in a WAL when
 * the file is linked; WAL is switched on last and its sidecars go with the connection), the
 * temporary file is hard-linked to `path` and the folder fsynced. `EEXIST` from the link means
 * another process won: its file is the mind, ours is dropped. Where the file system has no hard
 * links the file is created empty in place as before hard links were used (openers that find it
 * without a schema wait for it, see `openDatabase`). The temporary file and its sidecars are
 * removed in every case.
 * @throws MindError `IO` naming `path` when the folder or a file cannot be created; SQLite's error
 *   (the caller maps it with `wrapSqliteError`) when building the schema fails.
 */
export function createMind(path: string, busyTimeoutMs: number): void {
  const dir = dirname(path);
  ensureDir(dir, 0o700);
  sweepStaleCreations(dir);
  const tmp = join(dir, `.${basename(path)}${CREATING_INFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    try {
      closeSync(openSync(tmp, 'wx', 0o600));
    } catch (err) {
      throw new MindError(`${path}: cannot create: ${(err as Error).message}`, 'IO', path);
    }
    buildSchema(tmp, path, busyTimeoutMs);
    try {
      linkSync(tmp, path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (code === 'EEXIST') return; // lost the race: the winner's file is the mind
      if (!NO_HARD_LINKS.has(code)) throw new MindError(`${path}: cannot create: ${(err as Error).message}`, 'IO', path);
      createInPlace(path);
      return;
    }
    fsyncDir(dir);
  } finally {
    removeCreation(tmp);
  }
}

/** The schema, then WAL mode, in the temporary file `tmp` (errors name `path`, the file the user asked for). */
function buildSchema(tmp: string, path: string, busyTimeoutMs: number): void {
  const db = new Database(tmp, { fileMustExist: true, timeout: busyTimeoutMs });
  try {
    db.pragma('synchronous = FULL');
    migrateSchema(db, path);
    // last: from here on a writer of this file journals in its WAL; the connection's close
    // checkpoints and deletes the (empty) WAL and the shared-memory file
    db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
}

/** The create of file systems without hard links: an empty file, migrated by the opener. */
function createInPlace(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new MindError(`${path}: cannot create: ${(err as Error).message}`, 'IO', path);
  }
}

/** Remove the temporary file `tmp` and its sidecars (after a link it is only a second name of the mind). */
function removeCreation(tmp: string): void {
  for (const s of SIDECARS) {
    try {
      unlinkSync(`${tmp}${s}`);
    } catch {
      /* never made, or already gone */
    }
  }
}

/**
 * Remove, in folder `dir`, the creation files (`.<name>.creating-…` and their sidecars) of any mind
 * not modified for {@link CREATING_STALE_MS}: what a creator killed halfway left. They never stand in
 * a mind's way (another name), this only gives the space back. Returns how many were removed; never
 * throws (a file another sweeper removed first, an unreadable folder).
 */
function sweepStaleCreations(dir: string, now = Date.now()): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!CREATING_NAME.test(name)) continue;
    const p = join(dir, name);
    try {
      if (now - statSync(p).mtimeMs < CREATING_STALE_MS) continue;
      unlinkSync(p);
      removed++;
    } catch {
      /* removed meanwhile */
    }
  }
  return removed;
}
