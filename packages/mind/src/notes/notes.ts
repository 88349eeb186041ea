/**
 * Curated notes (the Hermes memory model): a bounded `MEMORY.md` per thread (global fallback) and one
 * global `USER.md`, entries separated by `\n§\n`, limits in characters. See README "Curated notes".
 *
 * {@link Notes} is the facade; each job has its file, the way the store's `Mind` does:
 *
 * - notes-types.ts: the shapes (targets, states, typed results, options);
 * - notes-context.ts: what the jobs share (one instance's settings) and where the files are;
 * - notes-entries.ts: entries, pure (parse, render, sizes, matching, cleaning, warnings);
 * - notes-read.ts: read a file, render what a session is given;
 * - notes-write.ts: the write pipeline (lock, operations, limit, atomic write), archive and restore;
 * - notes-failures.ts: the per-turn failure count and cap, refused facts kept as pending frames;
 * - notes-archive.ts and notes-consolidate.ts: `ARCHIVE.jsonl`, and making room by merging and eviction;
 * - notes-inventory.ts: every notes file and lock, for `doctor`;
 * - notes-file.ts: a file's bytes (BOM, line endings, flagged entries).
 */
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { MindError } from '../errors.js';
import { mindHome, safeFileName } from '../paths.js';
import { envFlag, envNumber, settingDefault, SettingError } from '../settings.js';
import type { LockState } from '../store/lock.js';
import { failuresPath, notesLimit, notesPath, type NotesContext } from './notes-context.js';
import { readNotes, renderNotes } from './notes-read.js';
import { archiveEntry, restoreEntry, writeNotes } from './notes-write.js';
import { failureCount } from './notes-failures.js';
import { readArchive } from './notes-archive.js';
import { notesInventory, notesLocks } from './notes-inventory.js';
import type { ArchiveRecord, NotesFileInventory, NotesOp, NotesOptions, NotesResult, NotesState, NotesTarget, NotesUsage, WriteOptions } from './notes-types.js';

export type { ArchiveRecord, EntrySize, NotesFileInventory, NotesOp, NotesOptions, NotesResult, NotesState, NotesTarget, NotesUsage, WriteOptions } from './notes-types.js';
export { NOTES_DELIMITER, STRUCTURE_WARNING, isPinned, parseEntries, renderEntries } from './notes-entries.js';

/** Default character limits (Hermes defaults; settings.ts `HIVE_MIND_MEMORY_CHAR_LIMIT`, `HIVE_MIND_USER_CHAR_LIMIT`). */
export const DEFAULT_MEMORY_CHAR_LIMIT = settingDefault('HIVE_MIND_MEMORY_CHAR_LIMIT');
export const DEFAULT_USER_CHAR_LIMIT = settingDefault('HIVE_MIND_USER_CHAR_LIMIT');
/** Failed writes allowed in one turn before the tool answers `done: true`. */
export const DEFAULT_FAILURE_CAP = 3;
/** Lock wait of a write, ms. */
const DEFAULT_LOCK_TIMEOUT_MS = 5000;

/** A notes limit from its option or its variable (settings.ts: 50-1000000, refused when invalid), as a {@link MindError}. */
function limitOpt(env: NodeJS.ProcessEnv, name: string, value: number | undefined, option: string): number {
  try {
    return envNumber(env, name, { value, option: `notes option ${option}` });
  } catch (e) {
    if (e instanceof SettingError) throw new MindError(e.message, 'INVALID');
    throw e;
  }
}

/**
 * Curated notes with add / replace / remove / batch, hard character limits that never dead-end
 * an agent, file locks + atomic rename + version checks for concurrent writers.
 * All methods are synchronous and never throw for agent mistakes: they return typed results.
 * They throw {@link MindError} only for I/O failures of the file system itself.
 */
export class Notes {
  readonly home: string;
  readonly dir: string;
  readonly memoryCharLimit: number;
  readonly userCharLimit: number;
  readonly autoConsolidate: boolean;
  readonly failureCap: number;
  private readonly ctx: NotesContext;

  constructor(opts: NotesOptions = {}) {
    // settings: options first, then the environment (settings.ts), then the defaults
    const env = opts.env ?? process.env;
    this.home = resolve(opts.home ?? mindHome(env));
    this.dir = join(this.home, 'memories');
    this.memoryCharLimit = limitOpt(env, 'HIVE_MIND_MEMORY_CHAR_LIMIT', opts.memoryCharLimit, 'memoryCharLimit');
    this.userCharLimit = limitOpt(env, 'HIVE_MIND_USER_CHAR_LIMIT', opts.userCharLimit, 'userCharLimit');
    this.autoConsolidate = envFlag(env, 'HIVE_MIND_NOTES_AUTO_CONSOLIDATE', opts.autoConsolidate);
    this.failureCap = opts.failureCap ?? DEFAULT_FAILURE_CAP;
    if (!Number.isInteger(this.failureCap) || this.failureCap < 1) throw new MindError(`notes option failureCap must be a positive integer, got ${opts.failureCap}`, 'INVALID');
    // what the jobs share
    this.ctx = {
      dir: this.dir,
      memoryCharLimit: this.memoryCharLimit,
      userCharLimit: this.userCharLimit,
      autoConsolidate: this.autoConsolidate,
      failureCap: this.failureCap,
      lockTimeoutMs: opts.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
      ...(opts.meter ? { meter: opts.meter } : {}),
      mindPath: opts.mindPath ?? join(this.home, 'personal.mind'),
      now: opts.now ?? (() => new Date()),
      localFailures: new Map(),
      instanceTurn: `local-${process.pid}-${randomBytes(4).toString('hex')}`,
    };
  }

  /**
   * Path of a notes file. A thread key is mapped by {@link safeFileName} (`/`, `..`, NUL, control
   * characters, long keys -> a safe component plus a hash) and the result is checked to be inside
   * `<home>/memories/threads`.
   */
  pathFor(target: NotesTarget): string {
    return notesPath(this.ctx, target);
  }

  /** The character limit of `target`'s file. */
  limitFor(target: NotesTarget): number {
    return notesLimit(this.ctx, target);
  }

  /** Read a notes file (a missing file reads as empty). A file over its limit loads with `warning`. */
  read(target: NotesTarget): NotesState {
    return readNotes(this.ctx, target);
  }

  /**
   * What to inject for a thread: the thread's MEMORY.md when it exists, else the global one
   * (the fallback). Rendered entries with the delimiter; scanned for threats (flagged entries
   * are left out), redacted again and neutralized (`neutralize.ts`: markup and lines imitating the
   * injection's headings or frame labels escaped; the file itself is unchanged).
   */
  render(target: NotesTarget): { text: string; path: string; usage: NotesUsage; dropped: number } {
    return renderNotes(this.ctx, target);
  }

  /** Add an entry. Refused as `over_limit` (typed, actionable) when the file would exceed its limit. */
  add(target: NotesTarget, content: string, opts: WriteOptions = {}): NotesResult {
    return writeNotes(this.ctx, target, [{ op: 'add', content }], 'add', opts);
  }

  /** Replace the entry matching `old` (exact match wins; a unique substring works; ambiguity is an error). */
  replace(target: NotesTarget, old: string, content: string, opts: WriteOptions = {}): NotesResult {
    return writeNotes(this.ctx, target, [{ op: 'replace', old, content }], 'replace', opts);
  }

  /** Remove the entry matching `old` (same matching as replace). Always allowed, even over the limit. */
  remove(target: NotesTarget, old: string, opts: WriteOptions = {}): NotesResult {
    return writeNotes(this.ctx, target, [{ op: 'remove', old }], 'remove', opts);
  }

  /** Apply several operations atomically: all or nothing, the limit checked only on the final state. */
  batch(target: NotesTarget, ops: NotesOp[], opts: WriteOptions = {}): NotesResult {
    return writeNotes(this.ctx, target, ops, 'batch', opts);
  }

  /**
   * Move the entry matching `old` (matched as {@link Notes.remove} does) to the archive: a remove
   * that keeps the entry restorable with {@link Notes.restore} (`reason: 'archived'`). Same typed
   * results as remove.
   */
  archiveEntry(target: NotesTarget, old: string, opts: WriteOptions = {}): NotesResult {
    return archiveEntry(this.ctx, target, old, opts);
  }

  /** Archived entries (evicted or merged by consolidation, or archived by hand) for a target, oldest first. */
  archive(target: NotesTarget): ArchiveRecord[] {
    return readArchive(this.ctx, target);
  }

  /** Put an archived entry back (an `add`, subject to the limit like any add). */
  restore(target: NotesTarget, archiveId: string, opts: WriteOptions = {}): NotesResult {
    return restoreEntry(this.ctx, target, archiveId, opts);
  }

  /** Path of the per-turn failure counter shared by every process (CLI, MCP server, hooks). */
  get failuresPath(): string {
    return failuresPath(this.ctx);
  }

  /** Failed writes recorded so far for `turnId`. */
  failures(turnId: string | undefined): number {
    return failureCount(this.ctx, turnId);
  }

  /** Every notes file under `<home>/memories` with its size against its limit and lock state (for `doctor`). */
  inventory(): NotesFileInventory[] {
    return notesInventory(this.ctx);
  }

  /**
   * Every lock file the notes use, whether or not the file it guards exists yet (a first write that
   * met a full disk leaves no MEMORY.md, only its lock): MEMORY.md's, USER.md's, each thread's
   * MEMORY.md's and the failure counters'; with its holder, age and staleness.
   */
  locks(): Array<{ path: string } & LockState> {
    return notesLocks(this.ctx);
  }
}
