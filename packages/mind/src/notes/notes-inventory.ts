/** What the curated notes hold on disk, for `doctor`: every notes file with its size and lock, and every lock. */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readLock, type LockState } from '../store/lock.js';
import { parseNotesFile } from './notes-file.js';
import { renderEntries } from './notes-entries.js';
import { failuresPath, notesLimit, type NotesContext } from './notes-context.js';
import type { NotesFileInventory, NotesTarget } from './notes-types.js';

/** Every notes file under `<home>/memories` with its size against its limit and lock state (for `doctor`). */
export function notesInventory(ctx: NotesContext): NotesFileInventory[] {
  const out: NotesFileInventory[] = [];
  const one = (target: NotesTarget, p: string) => {
    if (!existsSync(p)) return;
    const file = parseNotesFile(readFileSync(p));
    const entries = file.entries;
    const chars = renderEntries(entries).length;
    const limit = notesLimit(ctx, target);
    const lock = readLock(`${p}.lock`);
    out.push({ path: p, target, chars, limit, entries: entries.length, overLimit: chars > limit, flagged: file.flagged, ...(lock ? { lock } : {}) });
  };
  one({ file: 'memory' }, join(ctx.dir, 'MEMORY.md'));
  one({ file: 'user' }, join(ctx.dir, 'USER.md'));
  for (const d of threadDirs(ctx)) {
    const p = join(ctx.dir, 'threads', d, 'MEMORY.md');
    if (existsSync(p) && statSync(p).isFile()) one({ file: 'memory', thread: d }, p);
  }
  return out;
}

/**
 * Every lock file the notes use, whether or not the file it guards exists yet (a first write that
 * met a full disk leaves no MEMORY.md, only its lock): MEMORY.md's, USER.md's, each thread's
 * MEMORY.md's and the failure counters'; with its holder, age and staleness ({@link readLock}).
 */
export function notesLocks(ctx: NotesContext): Array<{ path: string } & LockState> {
  const paths = [join(ctx.dir, 'MEMORY.md.lock'), join(ctx.dir, 'USER.md.lock'), `${failuresPath(ctx)}.lock`, ...threadDirs(ctx).map((d) => join(ctx.dir, 'threads', d, 'MEMORY.md.lock'))];
  return paths.flatMap((path) => {
    const l = readLock(path);
    return l ? [{ path, ...l }] : [];
  });
}

/** The folders under `<home>/memories/threads` (safe keys). */
function threadDirs(ctx: NotesContext): string[] {
  const threads = join(ctx.dir, 'threads');
  try {
    return readdirSync(threads, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}
