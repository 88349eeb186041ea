/**
 * A transcript that cannot be read: missing, a directory, empty, binary, invalid UTF-8, a
 * bad line, a record of the wrong shape, or an unknown format.
 *
 * `message` is always ONE line: `<file>:<line>: <reason> (field <field>)` when one line is
 * to blame, `<file>: <reason>` when the whole file is (missing, a directory, empty, binary,
 * unknown format, a whole-JSON value of the wrong shape, whose `field` path locates the
 * problem). The file part is `<input>` when the text did not come from a file; the field
 * part only appears when one field is to blame. `exitCode` is 2 (bad input) so the CLI can
 * pass it straight through.
 */
export class TranscriptError extends Error {
  readonly exitCode = 2 as const;
  constructor(
    readonly reason: string,
    readonly file?: string,
    /** 1-based line; undefined for an error about the whole file. */
    readonly line?: number,
    readonly field?: string,
  ) {
    super(formatMessage(reason, file, line, field));
    this.name = 'TranscriptError';
  }
}

function formatMessage(reason: string, file?: string, line?: number, field?: string): string {
  const oneLine = reason.replace(/\s*\n\s*/g, ' ');
  return `${file ?? '<input>'}${line === undefined ? '' : `:${line}`}: ${oneLine}${field ? ` (field ${field})` : ''}`;
}

/** The reason for a file that cannot be opened, from its `errno` code. */
export function fileErrorReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'ENOTDIR':
      return 'no such file (a parent path is not a directory)';
    case 'EISDIR':
      return 'is a directory, not a transcript file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    case 'ENAMETOOLONG':
      return 'file name too long';
    default:
      return `cannot read file (${code ?? (err as Error)?.message ?? String(err)})`;
  }
}

/** A problem with one record, thrown by a format reader and turned into a {@link TranscriptError} with file and line. */
export class RecordError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'RecordError';
  }
}
