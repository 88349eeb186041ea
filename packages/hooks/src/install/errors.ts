/**
 * The one error every installer throws for a host config it cannot read or safely edit
 * (STYLE.md example 5). Its message always starts with the location, in the format the
 * README promises: `<file>: line L, column C: <problem>; nothing was changed`.
 */
export class HostConfigError extends Error {
  /** Exit code the CLI uses for it (a failed operation, not a usage error). */
  readonly exitCode = 1;
  constructor(
    /** The config file (as the user names it: the link, not its target). */
    readonly file: string,
    /** 1-based line of the problem (0: not about a place in the file, see {@link HostConfigError.io}). */
    readonly line: number,
    /** 1-based column of the problem. */
    readonly column: number,
    /** What is wrong, e.g. `field "hooks" must be an object`. */
    readonly problem: string,
  ) {
    super(line > 0 ? `${file}: line ${line}, column ${column}: ${problem}; nothing was changed` : `${file}: ${problem}; nothing was changed`);
    this.name = 'HostConfigError';
  }

  /**
   * The error for a config that cannot be read or written (`err` from node:fs, e.g. EISDIR,
   * EACCES, EPERM): no location, `line` and `column` are 0, the message is
   * `<file>: cannot read it (EISDIR: illegal operation on a directory); nothing was changed`.
   */
  static io(file: string, doing: 'read' | 'write', err: unknown): HostConfigError {
    const e = err as NodeJS.ErrnoException;
    const reason = e?.code ? `${e.code}: ${String(e.message).replace(/^[A-Z]+: /, '').split(', ')[0]}` : String((e as Error)?.message ?? err);
    return new HostConfigError(file, 0, 0, `cannot ${doing} it (${reason})`);
  }

  /** The error for `offset` into `text` (line and column counted in UTF-16 units, `\r\n` as one break). */
  static at(file: string, text: string, offset: number, problem: string): HostConfigError {
    const { line, column } = lineColumn(text, offset);
    return new HostConfigError(file, line, column, problem);
  }
}

/** 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const nl = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: before.length - nl };
}
