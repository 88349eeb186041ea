import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { createMind } from './create.js';
import { MindError } from '../errors.js';
import type { MindOptions } from '../frame.js';
import { sleepSync } from './lock.js';
import { DEFAULT_BUSY_TIMEOUT_MS } from './validate.js';
import { APP_ID, SCHEMA_VERSION, migrateSchema } from './schema.js';

/**
 * Opening a .mind file: create (create.ts), probe, wait for a schema another process is still
 * writing, migrate; and the mapping of SQLite failures to {@link MindError}.
 */

/**
 * How long a file without a schema yet must have gone unwritten (the file and its WAL) before an
 * opener believes it is a leftover rather than a mind an older hive-mind (or one on a file system
 * without hard links, see create.ts) is creating in place, in ms.
 */
export const CREATION_QUIET_MS = 2000;
/** Pause between two readings of a file without a schema yet, in ms. */
const CREATION_POLL_MS = 20;

function sqliteCode(err: unknown): string {
  const c = (err as { code?: unknown } | null)?.code;
  return typeof c === 'string' ? c : '';
}

/** Convert SQLite failures into {@link MindError}s naming the file; other errors pass through. */
export function wrapSqliteError(err: unknown, path: string, busyTimeoutMs?: number): unknown {
  if (err instanceof MindError) return err;
  const code = sqliteCode(err);
  const msg = err instanceof Error ? err.message : String(err);
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return new MindError(
      `${path}: not a readable .mind file (${msg}); the file was left untouched. Run \`hive-mind mind doctor --repair\` to recover what SQLite can read into a new file`,
      'CORRUPT',
      path,
    );
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new MindError(`${path}: database is busy (another process held the lock longer than ${busyTimeoutMs ?? '?'} ms): ${msg}`, 'BUSY', path);
  }
  if (code.startsWith('SQLITE_')) {
    return new MindError(`${path}: ${msg} (${code})`, 'IO', path, err);
  }
  return err;
}

/**
 * Retry `fn` while it fails with SQLITE_BUSY (beyond the busy handler: e.g. a racing creator switching
 * the journal mode), with short jittered sleeps, until `timeoutMs` has passed.
 */
function retryBusy<T>(fn: () => T, timeoutMs: number): T {
  const deadline = Date.now() + timeoutMs;
  let delay = 0.5;
  for (;;) {
    try {
      return fn();
    } catch (err) {
      if (!sqliteCode(err).startsWith('SQLITE_BUSY') || Date.now() >= deadline) throw err;
      sleepSync(delay * (0.5 + Math.random()));
      delay = Math.min(delay * 1.5, 4);
    }
  }
}

/**
 * Open (creating when missing, unless `readonly`) the .mind file at `path`: create (create.ts: the
 * schema is built under a temporary name and linked into place, so no opener sees a half-made
 * mind), probe (header, schema version, owner, truncation), then WAL mode and migrations when
 * writable. New files and their directory are created with modes 0600 / 0700.
 * A file with no schema yet (empty: made in place by an older hive-mind or on a file system without
 * hard links) is migrated by a writable opener; a readonly opener re-reads it every
 * {@link CREATION_POLL_MS} ms while it is being written, until it has its schema, for at most the
 * busy timeout, and calls it `NOT_MIND` once it has gone unwritten for {@link CREATION_QUIET_MS}
 * (a leftover gets its error at once).
 * Throws {@link MindError}: `CORRUPT` (not a database, malformed or truncated; untouched),
 * `SCHEMA_NEWER` (written by a newer hive-mind; versions named), `NOT_MIND` (a SQLite file of
 * another application; readonly: an empty file still without a schema), `IO` (missing file when
 * readonly, permissions), `BUSY` (another process's lock held past the busy timeout).
 */
export function openDatabase(path: string, opts: MindOptions = {}): Database.Database {
  const busy = opts.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (opts.readonly && !existsSync(path)) throw new MindError(`${path}: no such .mind file`, 'IO', path);
  let db: Database.Database;
  try {
    if (!opts.readonly && !existsSync(path)) createMind(path, busy);
    db = new Database(path, { readonly: !!opts.readonly, fileMustExist: true, timeout: busy });
  } catch (err) {
    throw wrapSqliteError(err, path, busy);
  }
  try {
    checkHeader(path);
    // another process may be migrating the file right now: its locks answer SQLITE_BUSY
    // one read transaction: user_version and the table list come from the same snapshot, so a
    // migrator committing in between cannot look like a foreign database
    const version = retryBusy(() => db.transaction(() => probe(db, path))(), busy);
    if (!opts.readonly) {
      try {
        const st = statSync(path);
        if ((st.mode & 0o777) !== 0o600 && st.uid === process.getuid?.()) chmodSync(path, 0o600);
      } catch {
        /* best effort: not the owner */
      }
      retryBusy(() => prepareWritable(db, path), busy);
    } else if (version === 0) {
      waitForSchema(db, path, busy);
    }
    return db;
  } catch (err) {
    try {
      db.close();
    } catch {
      /* ignore */
    }
    throw wrapSqliteError(err, path, busy);
  }
}

/**
 * Byte-level check of the SQLite header (https://www.sqlite.org/fileformat.html, section 1.3):
 * a file shorter than the page count its header declares (offset 28, valid when the
 * version-valid-for number at offset 92 equals the change counter at 24) is truncated.
 * Skipped while a WAL file holds content (pages may live there).
 */
function checkHeader(path: string): void {
  confirmTruncation(path, () => {
    let walBytes = 0;
    try {
      walBytes = statSync(`${path}-wal`).size;
    } catch {
      /* no wal */
    }
    const size = statSync(path).size;
    if (size < 100 || walBytes > 0) return undefined;
    const fd = openSync(path, 'r');
    const h = Buffer.alloc(100);
    try {
      readSync(fd, h, 0, 100, 0);
    } finally {
      closeSync(fd);
    }
    if (h.toString('latin1', 0, 16) !== 'SQLite format 3\u0000') return undefined; // SQLite itself reports NOTADB
    const raw = h.readUInt16BE(16);
    const pageSize = raw === 1 ? 65536 : raw;
    const pages = h.readUInt32BE(28);
    return pages > 0 && h.readUInt32BE(92) === h.readUInt32BE(24) && pageSize * pages > size ? { declared: pageSize * pages, size } : undefined;
  });
}

/** Readings of a truncation check before it is believed (a concurrent checkpoint extends the file in steps). */
const TRUNCATION_READINGS = 6;
/** Pause between two readings, in ms. */
const TRUNCATION_PAUSE_MS = 30;

/**
 * Throw `CORRUPT` only when `read` reports the same truncation (declared size over file size, both
 * unchanged) on {@link TRUNCATION_READINGS} readings {@link TRUNCATION_PAUSE_MS} ms apart. A file
 * another process is extending (a WAL checkpoint writes page 1 before the pages past the old end)
 * reads as truncated for a moment; a truncated file stays so.
 */
export function confirmTruncation(path: string, read: () => { declared: number; size: number } | undefined): void {
  let first = read();
  for (let i = 1; first && i < TRUNCATION_READINGS; i++) {
    sleepSync(TRUNCATION_PAUSE_MS);
    const next = read();
    if (!next || next.declared !== first.declared || next.size !== first.size) first = undefined;
  }
  if (first) {
    throw new MindError(
      `${path}: truncated .mind file (header says ${first.declared} bytes, file has ${first.size}); the file was left untouched. Run \`hive-mind mind doctor --repair\` to recover what SQLite can read into a new file`,
      'CORRUPT',
      path,
    );
  }
}

/**
 * Read-only checks done before anything is written: readable header, schema version, owner,
 * truncation. Returns the schema version (0: no schema yet, and no table either).
 */
function probe(db: Database.Database, path: string): number {
  const version = db.pragma('user_version', { simple: true }) as number;
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name);
  if (version > SCHEMA_VERSION) {
    throw new MindError(
      `${path}: .mind schema version ${version} is newer than the version this hive-mind supports (${SCHEMA_VERSION}); upgrade hive-mind to open it. The file was not modified`,
      'SCHEMA_NEWER',
      path,
    );
  }
  if (version === 0 && tables.length > 0) {
    throw new MindError(`${path}: a SQLite database that is not a .mind file (tables: ${tables.slice(0, 5).join(', ')}); refusing to modify it`, 'NOT_MIND', path);
  }
  if (version > 0) {
    const app = tables.includes('meta') ? (db.prepare("SELECT value FROM meta WHERE key = 'app'").get() as { value: string } | undefined) : undefined;
    if (!app || app.value !== APP_ID) throw new MindError(`${path}: SQLite user_version ${version} but no hive-mind marker; not a .mind file, refusing to modify it`, 'NOT_MIND', path);
    // Truncation: the header's page count exceeds the file (only meaningful with no WAL content);
    // read inside this read transaction, and believed only when it holds over several readings
    confirmTruncation(path, () => {
      let walBytes = 0;
      try {
        walBytes = statSync(`${path}-wal`).size;
      } catch {
        /* no wal */
      }
      if (walBytes > 0) return undefined;
      const declared = (db.pragma('page_size', { simple: true }) as number) * (db.pragma('page_count', { simple: true }) as number);
      const size = statSync(path).size;
      return declared > size ? { declared, size } : undefined;
    });
  }
  return version;
}

/**
 * A readonly opener found `path` without a schema: re-probe it every {@link CREATION_POLL_MS} ms
 * (each reading a new read transaction, so a commit by the creator is seen) until it has one.
 * @throws MindError `NOT_MIND` once neither the file nor its WAL has been written for
 *   {@link CREATION_QUIET_MS} ms, or `busyTimeoutMs` has passed; what `probe` throws.
 */
function waitForSchema(db: Database.Database, path: string, busyTimeoutMs: number): void {
  const deadline = Date.now() + busyTimeoutMs;
  for (;;) {
    const quietMs = Date.now() - lastWrite(path);
    if (quietMs >= CREATION_QUIET_MS) {
      throw new MindError(`${path}: empty file (no .mind schema yet, unwritten for ${(quietMs / 1000).toFixed(1)} s); a writable open (any save) creates the schema in it`, 'NOT_MIND', path);
    }
    if (Date.now() >= deadline) throw new MindError(`${path}: no .mind schema yet after waiting ${busyTimeoutMs} ms for the process writing it; try again`, 'NOT_MIND', path);
    sleepSync(CREATION_POLL_MS);
    if (retryBusy(() => db.transaction(() => probe(db, path))(), busyTimeoutMs) > 0) return;
  }
}

/** When `path` or its WAL was last written (ms since the epoch; 0 when neither can be read). */
function lastWrite(path: string): number {
  let t = 0;
  for (const p of [path, `${path}-wal`]) {
    try {
      t = Math.max(t, statSync(p).mtimeMs);
    } catch {
      /* absent */
    }
  }
  return t;
}

function prepareWritable(db: Database.Database, path: string): void {
  const mode = String(db.pragma('journal_mode', { simple: true })).toLowerCase();
  if (mode !== 'wal') {
    // needs an exclusive lock: the caller retries on SQLITE_BUSY (racing migrators, readers)
    db.pragma('journal_mode = WAL');
  }
  db.pragma('synchronous = NORMAL');
  migrateSchema(db, path);
}
