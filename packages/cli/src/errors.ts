/**
 * An error the CLI reports as one line on stderr and exits with `exitCode`
 * (2 for bad input or usage, 1 for a failed operation).
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Exit code for an arbitrary thrown value: its numeric `exitCode` when it has one, else 1. */
export function exitCodeOf(err: unknown): number {
  const c = (err as { exitCode?: unknown } | null)?.exitCode;
  return typeof c === 'number' && Number.isInteger(c) && c > 0 ? c : 1;
}

/** Print a JSON value on stdout followed by a newline. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}
