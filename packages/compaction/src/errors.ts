/**
 * Errors thrown by the compaction package. `code` is stable for programs.
 */
export class CompactionError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'CompactionError';
  }
}

/** A message that names config options through `name` (the option itself in `message`; a caller's own name for it, such as a CLI flag, in {@link CompactionConfigError.messageWith}). */
export type ConfigMessage = (name: (option: string) => string) => string;

/**
 * Invalid engine or summarizer configuration. `option` is the config option at fault, by its
 * name (`budget` also when it was given by its deprecated alias `threshold`), so a caller maps it
 * to its own name (the CLI: a flag) from a table. The message names it (and any other option it
 * mentions) as the config was written, and {@link messageWith} words it again with the caller's
 * names for the options, so no caller rewrites messages.
 */
export class CompactionConfigError extends CompactionError {
  private readonly words: ConfigMessage;

  /** `given`: how the config named each option, when not by its name (a deprecated alias). */
  constructor(
    message: string | ConfigMessage,
    readonly option: string,
    given: (option: string) => string = (o) => o,
  ) {
    const words: ConfigMessage = typeof message === 'function' ? message : () => message;
    super(words(given), 'CONFIG');
    this.words = words;
    this.name = 'CompactionConfigError';
  }

  /** The message with every option it names given as `name(option)`. */
  messageWith(name: (option: string) => string): string {
    return this.words(name);
  }
}

/**
 * The budget cannot be met because the newest indivisible unit of the surface
 * (the last span between two balanced cuts, kept verbatim) plus the parts that are
 * never compacted (leading system messages) plus the summary reserve exceed it.
 * `smallestBudget` is the smallest budget (tokens) for which compaction can work
 * with the same other settings.
 */
export class BudgetTooSmallError extends CompactionError {
  constructor(
    message: string,
    readonly budget: number,
    readonly smallestBudget: number,
    readonly unitTokens: number,
  ) {
    super(message, 'BUDGET_TOO_SMALL');
    this.name = 'BudgetTooSmallError';
  }
}

/** A compaction attempt failed (summarizer error, verification failure). Nothing landed on the surface. */
export class CompactionFailedError extends CompactionError {
  constructor(
    message: string,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, 'FAILED');
    this.name = 'CompactionFailedError';
    if (options?.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }
}

/** Thrown when the caller's `AbortSignal` fires. `name` is `AbortError` like the DOM's. */
export class CompactionAbortedError extends CompactionError {
  constructor(message = 'compaction aborted') {
    super(message, 'ABORTED');
    this.name = 'AbortError';
  }
}

/** A summarizer call failed. `retryable` tells whether trying again may help. */
export class SummarizerError extends CompactionError {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message, 'SUMMARIZER');
    this.name = 'SummarizerError';
  }
}

/**
 * A feature needs a package that is not installed: one of this package's optional peer
 * dependencies (`openai` for the openai summarizer, `@anthropic-ai/sdk` for the anthropic one).
 * `packageName` names it; the message says how to install it.
 */
export class MissingPackageError extends CompactionError {
  constructor(
    message: string,
    readonly packageName: string,
  ) {
    super(message, 'MISSING_PACKAGE');
    this.name = 'MissingPackageError';
  }
}

/** Throw {@link CompactionAbortedError} when `signal` is aborted. */
export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new CompactionAbortedError(abortMessage(signal));
}

/** A readable message for an aborted signal. */
export function abortMessage(signal: AbortSignal): string {
  const r = signal.reason as unknown;
  if (r instanceof Error && r.name !== 'AbortError') return `compaction aborted: ${r.message}`;
  if (typeof r === 'string') return `compaction aborted: ${r}`;
  return 'compaction aborted';
}

/**
 * Race a promise against an abort signal: rejects with {@link CompactionAbortedError}
 * as soon as the signal fires (the promise keeps running, its result is ignored).
 */
export function raceAbort<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  throwIfAborted(signal);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CompactionAbortedError(abortMessage(signal)));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
