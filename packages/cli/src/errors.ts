import { CommanderError, type Command } from 'commander';

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
function exitCodeOf(err: unknown): number {
  const c = (err as { exitCode?: unknown } | null)?.exitCode;
  return typeof c === 'number' && Number.isInteger(c) && c > 0 ? c : 1;
}

/**
 * Parse `argv` with a commander program built with `exitOverride()`, reporting failures the
 * CLI way: commander's own messages are already printed (exit 2 for usage errors, 0 for
 * help/version); anything else is one line `hive-mind: <message>` on stderr (the stack only
 * with `--debug`) and `process.exitCode` from {@link exitCodeOf}.
 */
export async function runProgram(program: Command, argv: string[]): Promise<void> {
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? 0 : 2;
      return;
    }
    const msg = err instanceof Error ? err.message : String(err);
    process.stderr.write(`hive-mind: ${msg.split('\n')[0]}\n`);
    if (argv.includes('--debug') && err instanceof Error && err.stack) process.stderr.write(err.stack + '\n');
    process.exitCode = exitCodeOf(err);
  }
}

/** Print a JSON value on stdout followed by a newline. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}
