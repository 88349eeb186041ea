/**
 * The curated notes' write pipeline: the turn's failure cap, the file lock, each operation applied
 * to the entries read (matched, cleaned, scanned for threats), the limit (with consolidation when
 * allowed), then the atomic write with the file's own format kept.
 */
import { MindError } from '../errors.js';
import { redactSecrets } from '../safety/redact.js';
import { isDangerousCommand } from '../safety/dangerous-commands.js';
import { cleanText, nearDuplicate, normalizeForHash, preview } from '../text.js';
import { atomicWrite, withFileLock } from '../store/lock.js';
import { imitatesStructure } from '../safety/neutralize.js';
import { renderNotesFile } from './notes-file.js';
import { commandWarning, entrySizes, matchEntry, notesUsage, prepContent, renderEntries, sha, STRUCTURE_WARNING } from './notes-entries.js';
import { notesLimit, notesPath, type NotesContext } from './notes-context.js';
import { parsedFileOf, readNotes } from './notes-read.js';
import { failureCount, failWrite, keepPending } from './notes-failures.js';
import { appendArchive, archiveRecord, readArchive } from './notes-archive.js';
import { consolidate } from './notes-consolidate.js';
import type { EntrySize, NotesOp, NotesResult, NotesTarget, WriteAction, WriteOptions } from './notes-types.js';

/**
 * Apply `ops` to `target`'s file under its lock: the typed result, a refusal counted against the
 * turn (notes-failures.ts). Throws {@link MindError} only for I/O failures.
 */
export function writeNotes(ctx: NotesContext, target: NotesTarget, ops: NotesOp[], action: WriteAction, opts: WriteOptions): NotesResult {
  const path = notesPath(ctx, target);
  const limit = notesLimit(ctx, target);
  const facts = ops.flatMap((o) => (o.op === 'remove' ? [] : [typeof o.content === 'string' ? redactSecrets(cleanText(o.content).text).text : '']));
  // a turn that already hit the cap answers done without touching the file
  const sofar = failureCount(ctx, opts.turnId);
  if (sofar >= ctx.failureCap) {
    const id = keepPending(ctx, target, facts, opts.origin);
    return {
      ok: false,
      done: true,
      reason: 'failure_cap',
      failures: sofar,
      message: `${sofar} note writes already failed in this turn. Stop retrying the memory tool and answer the user${id !== undefined ? `; the fact was kept as pending frame #${id} in the mind` : ''}.`,
      ...(id !== undefined ? { pendingFrameId: id } : {}),
    };
  }
  if (!Array.isArray(ops) || ops.length === 0) return failWrite(ctx, target, opts, { ok: false, reason: 'invalid', message: 'no operations given' });
  let outcome: NotesResult;
  try {
    outcome = withFileLock(path, () => applyLocked(ctx, target, path, limit, ops, action, opts), ctx.lockTimeoutMs);
  } catch (err) {
    if (err instanceof MindError && err.code === 'LOCKED') return failWrite(ctx, target, opts, { ok: false, reason: 'locked', message: err.message }, facts);
    throw err;
  }
  if (!outcome.ok) return failWrite(ctx, target, opts, outcome as Exclude<NotesResult, { ok: true }>, facts);
  return outcome;
}

/** The write of {@link writeNotes} once the lock is held: read, apply, check the limit (consolidating when allowed), write. */
function applyLocked(ctx: NotesContext, target: NotesTarget, path: string, limit: number, ops: NotesOp[], action: WriteAction, opts: WriteOptions): NotesResult {
  const state = readNotes(ctx, target);
  if (opts.expectedVersion !== undefined && opts.expectedVersion !== state.version) {
    return {
      ok: false,
      reason: 'stale',
      message: `${path} changed since it was read (expected version ${opts.expectedVersion}, now ${state.version}): re-read the current entries and retry`,
      current: state,
    };
  }
  const entries = [...state.entries];
  const duplicates: EntrySize[] = [];
  const commandThreats: string[] = [];
  let grew = false;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    const at = ops.length > 1 ? ` (operation #${i})` : '';
    if (op === null || typeof op !== 'object' || !['add', 'replace', 'remove'].includes((op as { op: string }).op))
      return { ok: false, reason: 'invalid', message: `unknown operation${at}: expected add, replace or remove`, opIndex: i };
    if (op.op === 'remove') {
      const m = matchEntry(entries, op.old);
      if ('error' in m) return { ...m.error, message: m.error.message + at, opIndex: i } as NotesResult;
      entries.splice(m.index, 1);
      continue;
    }
    const prep = prepContent(op.content);
    if ('error' in prep) return { ok: false, reason: 'invalid', message: prep.error + at, opIndex: i };
    // a destructive or fetch-and-run command is the user's to keep in their own note (marked when
    // rendered, see flaggedCommandEntry); from an agent or an import it is refused like an injection
    const ownCommand = opts.origin?.source === 'user_stated' && prep.threats.length > 0 && prep.threats.every(isDangerousCommand);
    if (ownCommand) commandThreats.push(...prep.threats.filter((t) => !commandThreats.includes(t)));
    else if (prep.threats.length)
      return {
        ok: false,
        reason: 'threat',
        message: prep.threats.every(isDangerousCommand)
          ? `refused${at}: the entry holds a command that destroys data or runs downloaded code (${prep.threats.join(', ')}); only the user's own \`hive-mind notes add\` keeps such an entry. It was kept quarantined in the mind for review`
          : `refused${at}: the entry looks like a prompt injection or hides text (${prep.threats.join(', ')}); it was kept quarantined in the mind for review`,
        threats: prep.threats,
        opIndex: i,
      };
    if (op.op === 'add') {
      // already there, word for word or as a near-duplicate (text.ts nearDuplicate): nothing to add
      const same = entries.findIndex((e) => normalizeForHash(e) === normalizeForHash(prep.text) || nearDuplicate(e, prep.text));
      if (same >= 0) {
        duplicates.push({ index: same, chars: entries[same]!.length, preview: preview(entries[same]!, 80) });
        continue;
      }
      entries.push(prep.text);
      grew = true;
    } else {
      const m = matchEntry(entries, op.old);
      if ('error' in m) return { ...m.error, message: m.error.message + at, opIndex: i } as NotesResult;
      if (prep.text.length > entries[m.index]!.length) grew = true;
      entries[m.index] = prep.text;
    }
  }
  let final = entries;
  let chars = renderEntries(final).length;
  let consolidated: { merged: number; evicted: number; archiveIds: string[] } | undefined;
  // accepted: within the limit, or (over it, e.g. hand-edited) and the write makes the file smaller
  const acceptable = (c: number) => c <= limit || (c < state.usage.chars && !grew);
  if (!acceptable(chars) && (opts.autoConsolidate ?? ctx.autoConsolidate)) {
    const added = new Set(ops.flatMap((o) => (o.op === 'remove' ? [] : [redactSecrets(cleanText(o.content).text.trim()).text])));
    const c = consolidate(ctx, target, path, final, limit, added);
    if (c.archived.length) {
      final = c.entries;
      chars = renderEntries(final).length;
      consolidated = { merged: c.merged, evicted: c.evicted, archiveIds: c.archived.map((a) => a.id) };
      if (!acceptable(chars)) consolidated = undefined;
      else appendArchive(ctx, target, c.archived);
    }
  }
  if (!acceptable(chars)) {
    const usage = notesUsage(ctx.meter, final, limit);
    // an entry longer than the whole limit cannot fit whatever is removed: say so, do not advise removals
    const largest = Math.max(0, ...ops.flatMap((o) => (o.op === 'remove' ? [] : [redactSecrets(cleanText(o.content).text.trim()).text.length])));
    const tooLarge = largest > limit;
    return {
      ok: false,
      reason: 'over_limit',
      message: tooLarge
        ? `This entry alone is ${largest} characters, more than the whole ${limit}-character limit of ${path}: no removal can make it fit. Nothing was written. ` +
          `Do not retry it as a note: the fact is kept in the mind as a pending frame (recalled and searchable); save a shorter summary (under ${limit} characters) as the note if one is needed.`
        : `${path} would be ${chars} characters, over its ${limit}-character limit by ${chars - limit}. Nothing was written. ` +
          `Remove or shorten entries (see entries with their sizes), or merge related entries with one batch, then retry once; ` +
          `the fact is kept as a pending frame in the mind so it is not lost.`,
      ...(tooLarge ? { entryTooLarge: { chars: largest, limit } } : {}),
      usage,
      limit,
      overflowBy: chars - limit,
      entries: entrySizes(state.entries),
      version: state.version,
    };
  }
  const body = renderEntries(final);
  if (body === renderEntries(state.entries) && state.exists) {
    const usage = notesUsage(ctx.meter, final, limit);
    const what = duplicates.length ? `entry #${duplicates[0]!.index} already says this: "${duplicates[0]!.preview}"` : 'the entry is already there';
    return { ok: true, action, message: `no change (${what})`, usage, limit, version: state.version, ...(duplicates.length ? { duplicates } : {}), ...(state.warning ? { warning: state.warning } : {}) };
  }
  // the file's BOM and line endings are kept, and a flagged entry's own bytes
  const file = parsedFileOf(state);
  const data = renderNotesFile(final, file?.format ?? { bom: false, eol: '\n' }, file?.raw);
  atomicWrite(path, data);
  const usage = notesUsage(ctx.meter, final, limit);
  const warnings = usage.chars > limit ? [`${path} is still over its limit by ${usage.chars - limit} characters`] : [];
  // stored as written; what the injection makes of it is said, so the agent is not surprised
  if (ops.some((o) => o.op !== 'remove' && imitatesStructure(o.content))) warnings.push(STRUCTURE_WARNING);
  if (commandThreats.length) warnings.push(commandWarning(commandThreats));
  const warning = warnings.length ? warnings.join('; ') : undefined;
  return {
    ok: true,
    action,
    message: `${action} done: ${usage.chars}/${limit} characters (${usage.percent}%), ${usage.entries} entries` + (consolidated ? `; consolidated (merged ${consolidated.merged}, evicted ${consolidated.evicted}, archived in ARCHIVE.jsonl)` : ''),
    usage,
    limit,
    version: sha(data),
    ...(consolidated ? { consolidated } : {}),
    ...(duplicates.length ? { duplicates } : {}),
    ...(warning ? { warning } : {}),
  };
}

/**
 * Move the entry matching `old` (matched as `Notes.remove` does) to the archive: a remove
 * that keeps the entry restorable with {@link restoreEntry} (`reason: 'archived'`). Same typed
 * results as remove.
 */
export function archiveEntry(ctx: NotesContext, target: NotesTarget, old: string, opts: WriteOptions = {}): NotesResult {
  const state = readNotes(ctx, target);
  const m = matchEntry(state.entries, old);
  if ('error' in m) return failWrite(ctx, target, opts, m.error);
  const entry = state.entries[m.index]!;
  const r = writeNotes(ctx, target, [{ op: 'remove', old: entry }], 'remove', opts);
  if (r.ok) appendArchive(ctx, target, [archiveRecord(ctx, target, notesPath(ctx, target), entry, 'archived')]);
  return r;
}

/** Put an archived entry back (an `add`, subject to the limit like any add). */
export function restoreEntry(ctx: NotesContext, target: NotesTarget, archiveId: string, opts: WriteOptions = {}): NotesResult {
  const rec = readArchive(ctx, target).find((r) => r.id === archiveId);
  if (!rec) return failWrite(ctx, target, opts, { ok: false, reason: 'not_found', message: `no archived entry with id ${JSON.stringify(archiveId)} for ${notesPath(ctx, target)}` });
  return writeNotes(ctx, target, [{ op: 'add', content: rec.entry }], 'restore', opts);
}
