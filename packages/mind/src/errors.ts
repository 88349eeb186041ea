/**
 * Stable error codes of the mind package:
 * - `CORRUPT`: the file is not a readable SQLite database (or is truncated/malformed). It is never written to.
 * - `SCHEMA_NEWER`: the file was written by a newer schema than this build supports.
 * - `EMPTY_QUERY`: a search query with no searchable term.
 * - `TOO_LARGE`: content over the configured byte limit.
 * - `INVALID`: a bad argument (field named in the message).
 * - `NOT_FOUND`: a frame id that does not exist.
 * - `LOCKED`: a notes file lock could not be acquired in time.
 * - `STALE`: a notes write based on an out-of-date read.
 * - `BUSY`: another process held the .mind's lock longer than the busy timeout (nothing was written;
 *   retrying later succeeds; the hooks spool the capture, see spool.ts).
 * - `NOT_MIND`: a SQLite file of another application (never modified), or, for a readonly opener, an
 *   empty file that has no .mind schema yet and that no process is writing (see open.ts).
 * - `IO`: the file system refused (a missing file opened readonly, permissions, a folder that cannot be made).
 */
export type MindErrorCode = 'CORRUPT' | 'SCHEMA_NEWER' | 'EMPTY_QUERY' | 'TOO_LARGE' | 'INVALID' | 'NOT_FOUND' | 'LOCKED' | 'STALE' | 'BUSY' | 'IO' | 'NOT_MIND';

/**
 * Error thrown by the mind package. `file` names the file concerned when there is one. `exitCode` follows
 * the CLI convention (2 bad input, 1 failed operation). `cause` is the underlying error when there is one
 * (for `IO` from SQLite, its error with the extended code: `SQLITE_FULL`, `SQLITE_IOERR_WRITE`...).
 */
export class MindError extends Error {
  readonly exitCode: number;
  constructor(
    message: string,
    readonly code: MindErrorCode,
    readonly file?: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'MindError';
    this.exitCode = code === 'EMPTY_QUERY' || code === 'INVALID' || code === 'TOO_LARGE' || code === 'NOT_FOUND' ? 2 : 1;
  }
}
