import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensureDir } from './dirs.js';
import { MindError } from './errors.js';
import type { MindOptions } from './frame.js';
import { sleepSync } from './lock.js';
import { DEFAULT_BUSY_TIMEOUT_MS } from './validate.js';
import { APP_ID, MIGRATIONS, SCHEMA_VERSION } from './schema.js';

/** Opening a .mind file: create, probe, migrate; and the mapping of SQLite failures to {@link MindError}. */

export function sqliteCode(err: unknown): string {
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
    return new MindError(`${path}: ${msg} (${code})`, 'IO', path);
  }
  return err;
}

/**
 * Retry `fn` while it fails with SQLITE_BUSY (beyond the busy handler: e.g. a racing creator switching
 * the journal mode), with short jittered sleeps, until `timeoutMs` has passed.
 */
export function retryBusy<T>(fn: () => T, timeoutMs: number): T {
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
 * Open (creating when missing, unless `readonly`) the .mind file at `path`: create, probe (header,
 * schema version, owner, truncation), then WAL mode and migrations when writable.
 * New files and their directory are created with modes 0600 / 0700.
 * Throws {@link MindError}: `CORRUPT` (not a database, malformed or truncated; untouched),
 * `SCHEMA_NEWER` (written by a newer hive-mind; versions named), `NOT_MIND` (a SQLite file of
 * another application), `IO` (missing file when readonly, permissions).
 */
export function openDatabase(path: string, opts: MindOptions = {}): Database.Database {
  const busy = opts.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (opts.readonly && !existsSync(path)) throw new MindError(`${path}: no such .mind file`, 'IO', path);
  if (!opts.readonly && !existsSync(path)) {
    ensureDir(dirname(path), 0o700);
    try {
      closeSync(openSync(path, 'wx', 0o600));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new MindError(`${path}: cannot create: ${(err as Error).message}`, 'IO', path);
    }
  }
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: !!opts.readonly, fileMustExist: true, timeout: busy });
  } catch (err) {
    throw wrapSqliteError(err, path, busy);
  }
  try {
    checkHeader(path);
    // another process may be creating/migrating the file right now: its locks answer SQLITE_BUSY
    // one read transaction: user_version and the table list come from the same snapshot, so a
    // creator committing its first migration in between cannot look like a foreign database
    retryBusy(() => db.transaction(() => probe(db, path))(), busy);
    if (!opts.readonly) {
      try {
        const st = statSync(path);
        if ((st.mode & 0o777) !== 0o600 && st.uid === process.getuid?.()) chmodSync(path, 0o600);
      } catch {
        /* best effort: not the owner */
      }
      retryBusy(() => prepareWritable(db, path), busy);
    } else if ((db.pragma('user_version', { simple: true }) as number) === 0) {
      throw new MindError(`${path}: empty file (no .mind schema yet)`, 'NOT_MIND', path);
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
export const TRUNCATION_READINGS = 6;
/** Pause between two readings, in ms. */
export const TRUNCATION_PAUSE_MS = 30;

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

/** Read-only checks done before anything is written: readable header, schema version, owner, truncation. */
function probe(db: Database.Database, path: string): void {
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
}

function prepareWritable(db: Database.Database, path: string): void {
  const mode = String(db.pragma('journal_mode', { simple: true })).toLowerCase();
  if (mode !== 'wal') {
    // needs an exclusive lock: the caller retries on SQLITE_BUSY (racing creators)
    db.pragma('journal_mode = WAL');
  }
  db.pragma('synchronous = NORMAL');
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current < SCHEMA_VERSION) {
    const migrate = db.transaction(() => {
      // re-read under the write lock: another process may have migrated meanwhile
      let v = db.pragma('user_version', { simple: true }) as number;
      if (v > SCHEMA_VERSION) throw new MindError(`${path}: .mind schema version ${v} is newer than supported (${SCHEMA_VERSION})`, 'SCHEMA_NEWER', path);
      while (v < SCHEMA_VERSION) {
        MIGRATIONS[v]!(db);
        v++;
        db.pragma(`user_version = ${v}`);
      }
    });
    migrate.immediate();
  }
}
