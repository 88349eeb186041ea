/**
 * A transcript that cannot be read: empty, binary, invalid UTF-8, a bad line,
 * a record of the wrong shape, or an unknown format.
 *
 * `message` is always ONE line: `<file>:<line>: <reason> (field <field>)`; the
 * file part is `<input>` when the text did not come from a file, the field part
 * only appears when one field is to blame. `exitCode` is 2 (bad input) so the
 * CLI can pass it straight through.
 */
export class TranscriptError extends Error {
  readonly exitCode = 2 as const;
  constructor(
    readonly reason: string,
    readonly file?: string,
    readonly line?: number,
    readonly field?: string,
  ) {
    super(formatMessage(reason, file, line, field));
    this.name = 'TranscriptError';
  }
}

function formatMessage(reason: string, file?: string, line?: number, field?: string): string {
  const oneLine = reason.replace(/\s*\n\s*/g, ' ');
  return `${file ?? '<input>'}:${line ?? 1}: ${oneLine}${field ? ` (field ${field})` : ''}`;
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
