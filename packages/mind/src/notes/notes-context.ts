/**
 * What every notes job shares: the settings of one `Notes` instance (notes.ts, the facade)
 * and where its files are.
 */
import { join, resolve, sep } from 'node:path';
import type { TokenCounter } from '../frame.js';
import { MindError } from '../errors.js';
import { safeFileName } from '../paths.js';
import type { NotesTarget } from './notes-types.js';

/** The state of one `Notes` instance its job functions read (built once by the constructor). */
export interface NotesContext {
  /** `<home>/memories`. */
  readonly dir: string;
  readonly memoryCharLimit: number;
  readonly userCharLimit: number;
  readonly autoConsolidate: boolean;
  readonly failureCap: number;
  /** Lock wait, ms. */
  readonly lockTimeoutMs: number;
  readonly meter?: TokenCounter;
  /** The .mind file of pending notes. */
  readonly mindPath: string;
  readonly now: () => Date;
  /** Failures of writes without a turn id, counted in this process only. */
  readonly localFailures: Map<string, number>;
  /** The key of {@link NotesContext.localFailures}. */
  readonly instanceTurn: string;
}

/**
 * Path of a notes file. A thread key is mapped by {@link safeFileName} (`/`, `..`, NUL, control
 * characters, long keys -> a safe component plus a hash) and the result is checked to be inside
 * `<home>/memories/threads`.
 */
export function notesPath(ctx: NotesContext, target: NotesTarget): string {
  if (target.file === 'user') return join(ctx.dir, 'USER.md');
  if (target.file !== 'memory') throw new MindError(`notes target file must be "memory" or "user", got ${JSON.stringify((target as { file: unknown }).file)}`, 'INVALID');
  if (target.thread === undefined || target.thread === '') return join(ctx.dir, 'MEMORY.md');
  if (typeof target.thread !== 'string') throw new MindError('notes thread key must be a string', 'INVALID');
  const threads = join(ctx.dir, 'threads');
  const p = resolve(threads, safeFileName(target.thread), 'MEMORY.md');
  if (!p.startsWith(threads + sep)) throw new MindError(`thread key ${JSON.stringify(target.thread.slice(0, 40))} maps outside the memories folder`, 'INVALID');
  return p;
}

/** The character limit of `target`'s file. */
export function notesLimit(ctx: NotesContext, target: NotesTarget): number {
  return target.file === 'user' ? ctx.userCharLimit : ctx.memoryCharLimit;
}

/** Path of the per-turn failure counter shared by every process (CLI, MCP server, hooks). */
export function failuresPath(ctx: NotesContext): string {
  return join(ctx.dir, '.turn-failures.json');
}
