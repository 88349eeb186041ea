import type { Hono } from 'hono';
import { Notes, isPinned, type ArchiveRecord, type NotesResult, type NotesState, type NotesTarget } from '@hive-mind/mind';
import { ApiError, readJson } from './errors.js';

/**
 * The Notes view's API: USER.md, the global MEMORY.md and each thread's MEMORY.md with their
 * usage against the limit, and the writes a person makes through the same `Notes` methods the
 * CLI and the MCP tool call (add, replace, remove, restore, archive), so the same never-deadlock
 * rules hold: a write over the limit is refused with a typed result (usage, the exact overflow,
 * the entries with their sizes, the pending frame that keeps the fact) and the page offers the
 * consolidation (`autoConsolidate`) and the edits that make room. Pin and unpin are replaces
 * that add or drop the `!` prefix (`isPinned`: a pinned entry is never evicted by consolidation).
 * Writes carry the version the page read (`expectedVersion`): a file changed meanwhile (an agent
 * wrote to it) is refused as `stale` with its current state.
 */

/** One notes file as the page shows it. */
export interface NotesFile {
  key: string;
  label: string;
  target: NotesTarget;
  state: NotesState;
  pinned: boolean[];
  archive: ArchiveRecord[];
}

function targetOf(key: unknown): NotesTarget {
  if (key === 'user') return { file: 'user' };
  if (key === 'memory') return { file: 'memory' };
  if (typeof key === 'string' && key.startsWith('thread:') && key.length > 7) return { file: 'memory', thread: key.slice(7) };
  throw new ApiError(400, `file must be user, memory or thread:<key>, got ${JSON.stringify(key)}`);
}

function keyOf(t: NotesTarget): string {
  return t.file === 'user' ? 'user' : t.thread ? `thread:${t.thread}` : 'memory';
}

/** Every notes file: USER.md and the global MEMORY.md always (even before they exist), then each thread's. */
export function notesFiles(notes: Notes): NotesFile[] {
  const targets: NotesTarget[] = [{ file: 'user' }, { file: 'memory' }];
  for (const inv of notes.inventory()) if (inv.target.file === 'memory' && inv.target.thread) targets.push(inv.target);
  return targets.map((target) => {
    const state = notes.read(target);
    const label = target.file === 'user' ? 'USER.md' : target.thread ? `MEMORY.md · thread ${target.thread}` : 'MEMORY.md';
    return { key: keyOf(target), label, target, state, pinned: state.entries.map(isPinned), archive: notes.archive(target) };
  });
}

/** The text of an entry pinned (`!` prefix) or unpinned (the prefix, or a `(pinned)` mark, dropped). */
export function pinned(entry: string, pin: boolean): string {
  if (pin) return isPinned(entry) ? entry : `!${entry}`;
  return entry.replace(/^!\s*/, '').replace(/\s*\(pinned\)/gi, '');
}

const str = (v: unknown, name: string): string => {
  if (typeof v !== 'string') throw new ApiError(400, `${name} must be a string`);
  return v;
};

/** Mount the routes of the Notes view. `notes()` builds a `Notes` with the server's environment (and, per call, `autoConsolidate`). */
export function mountNotes(app: Hono, notes: (opts?: { autoConsolidate?: boolean }) => Notes): void {
  app.get('/api/notes', (c) => {
    const n = notes();
    return c.json({ files: notesFiles(n), limits: { memory: n.memoryCharLimit, user: n.userCharLimit } });
  });

  app.post('/api/notes', async (c) => {
    const b = await readJson(c);
    const target = targetOf(b.file);
    const auto = b.autoConsolidate === true;
    const n = notes(auto ? { autoConsolidate: true } : {});
    // who writes: the person at the page, as the CLI records it
    const wo = { origin: { host: 'ui', source: 'user_stated' as const }, ...(typeof b.expectedVersion === 'string' ? { expectedVersion: b.expectedVersion } : {}) };
    let r: NotesResult;
    switch (b.op) {
      case 'add':
        r = n.add(target, str(b.content, 'content'), wo);
        break;
      case 'replace':
        r = n.replace(target, str(b.old, 'old'), str(b.content, 'content'), wo);
        break;
      case 'remove':
        r = n.remove(target, str(b.old, 'old'), wo);
        break;
      case 'archive':
        r = n.archiveEntry(target, str(b.old, 'old'), wo);
        break;
      case 'restore':
        r = n.restore(target, str(b.id, 'id'), wo);
        break;
      case 'pin':
      case 'unpin': {
        const old = str(b.old, 'old');
        r = n.replace(target, old, pinned(old, b.op === 'pin'), wo);
        break;
      }
      default:
        throw new ApiError(400, `op must be add, replace, remove, archive, restore, pin or unpin, got ${JSON.stringify(b.op)}`);
    }
    return c.json({ result: r, file: notesFiles(n).find((f) => f.key === keyOf(target)) ?? null });
  });
}
