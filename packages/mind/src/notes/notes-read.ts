/** Reading the curated notes: a file as its entries and usage, and what a session is given of it. */
import { readFileSync } from 'node:fs';
import { MindError } from '../errors.js';
import { redactSecrets } from '../safety/redact.js';
import { scanThreats } from '../safety/threats.js';
import { isDangerousCommand } from '../safety/dangerous-commands.js';
import { neutralize } from '../safety/neutralize.js';
import { parseNotesFile, type ParsedNotesFile } from './notes-file.js';
import { flaggedCommandEntry, notesUsage, renderEntries, sha } from './notes-entries.js';
import { notesLimit, notesPath, type NotesContext } from './notes-context.js';
import type { NotesState, NotesTarget, NotesUsage } from './notes-types.js';

/** How each state read from a file was parsed (format, stored bytes of flagged entries), for the write that follows. */
const parsedFiles = new WeakMap<NotesState, ParsedNotesFile>();

/** How `state` was parsed, when {@link readNotes} read it. */
export function parsedFileOf(state: NotesState): ParsedNotesFile | undefined {
  return parsedFiles.get(state);
}

/** Read a notes file (a missing file reads as empty). A file over its limit loads with `warning`. */
export function readNotes(ctx: NotesContext, target: NotesTarget): NotesState {
  const path = notesPath(ctx, target);
  const limit = notesLimit(ctx, target);
  let raw = Buffer.alloc(0);
  let exists = false;
  try {
    raw = readFileSync(path);
    exists = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new MindError(`${path}: cannot read: ${(err as Error).message}`, 'IO', path);
  }
  const file = parseNotesFile(raw);
  const entries = file.entries;
  const usage = notesUsage(ctx.meter, entries, limit);
  const state: NotesState = { path, target, entries, usage, limit, version: exists ? sha(raw) : 'absent', exists };
  const warnings: string[] = [];
  if (usage.chars > limit)
    warnings.push(`${path} is ${usage.chars} characters, over its ${limit}-character limit by ${usage.chars - limit} (edited by hand?): remove or shorten entries; writes that shrink it are accepted`);
  if (file.flagged.length) {
    state.flagged = file.flagged;
    warnings.push(
      `${path}: ${file.flagged.map((f) => `entry [${f.index}] ${f.reason}`).join('; ')}; left out of what sessions are given, kept unchanged in the file: fix it in an editor or remove it`,
    );
  }
  if (warnings.length) state.warning = warnings.join('\n');
  parsedFiles.set(state, file);
  return state;
}

/**
 * What to inject for a thread: the thread's MEMORY.md when it exists, else the global one
 * (the fallback). Rendered entries with the delimiter; scanned for threats (flagged entries
 * are left out), redacted again and neutralized (`neutralize.ts`: markup and lines imitating the
 * injection's headings or frame labels escaped; the file itself is unchanged).
 */
export function renderNotes(ctx: NotesContext, target: NotesTarget): { text: string; path: string; usage: NotesUsage; dropped: number } {
  const r = renderStored(ctx, target);
  return { ...r, text: neutralize(r.text) };
}

/** {@link renderNotes} before neutralization: the kept entries as stored (redacted). */
function renderStored(ctx: NotesContext, target: NotesTarget): { text: string; path: string; usage: NotesUsage; dropped: number } {
  let state = readNotes(ctx, target);
  if (target.file === 'memory' && target.thread && !state.exists) state = readNotes(ctx, { file: 'memory' });
  const flagged = new Set((state.flagged ?? []).map((f) => f.index));
  const kept: string[] = [];
  const shown: string[] = [];
  for (const [i, entry] of state.entries.entries()) {
    if (flagged.has(i)) continue;
    const e = redactSecrets(entry).text;
    const threats = scanThreats(e);
    // the user's own note holding a dangerous command is given marked, never as an instruction; any other threat is left out
    if (threats.length && !threats.every(isDangerousCommand)) continue;
    kept.push(e);
    shown.push(threats.length ? flaggedCommandEntry(e, threats) : e);
  }
  return { text: renderEntries(shown), path: state.path, usage: notesUsage(ctx.meter, kept, state.limit), dropped: state.entries.length - kept.length };
}
