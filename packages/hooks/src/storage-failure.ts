/** Which errors mean the disk refused to take a write (full, over quota, over the file-size limit, failing), as the hooks tell them from bad input, permissions or a newer schema. */

/** errno codes of a disk that cannot take the bytes: no space, quota, file-size limit (`ulimit -f`), an I/O error. */
const STORAGE_ERRNOS = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EIO']);

function storageCode(code: unknown): boolean {
  return typeof code === 'string' && (STORAGE_ERRNOS.has(code) || code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR'));
}

/**
 * Whether `err` is the disk refusing a write: an errno in {@link STORAGE_ERRNOS}, SQLite's
 * `SQLITE_FULL` or an `SQLITE_IOERR_*` code (what a full tmpfs gives: `SQLITE_IOERR_SHMSIZE`,
 * `SQLITE_IOERR_WRITE`), directly or as the `cause` of a MindError `IO`. Permissions, a read-only
 * home or a path that is not a folder are not: those are the user's setup, logged as failures.
 */
export function isStorageFailure(err: unknown): boolean {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  return storageCode(e?.code) || (e?.code === 'IO' && storageCode(e.cause?.code));
}
