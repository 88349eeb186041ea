/** The curated notes' archive: `ARCHIVE.jsonl` beside each notes file, one removed entry a line. */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { preview } from '../text.js';
import { ensureDir } from '../dirs.js';
import { notesPath, type NotesContext } from './notes-context.js';
import type { ArchiveRecord, NotesTarget } from './notes-types.js';

/** `ARCHIVE.jsonl` beside `target`'s file. */
function archivePath(ctx: NotesContext, target: NotesTarget): string {
  const p = notesPath(ctx, target);
  return join(p, '..', 'ARCHIVE.jsonl');
}

/** A new archive line for `entry` of `target`, removed for `reason`. */
export function archiveRecord(ctx: NotesContext, target: NotesTarget, path: string, entry: string, reason: ArchiveRecord['reason'], keptAs?: string): ArchiveRecord {
  return {
    id: `${ctx.now().getTime().toString(36)}-${randomBytes(3).toString('hex')}`,
    ts: ctx.now().toISOString(),
    file: target.file,
    ...(target.file === 'memory' && target.thread ? { thread: target.thread } : {}),
    path,
    entry,
    reason,
    ...(keptAs ? { keptAs: preview(keptAs, 80) } : {}),
  };
}

/** Append `records` to `target`'s archive (created 0600). */
export function appendArchive(ctx: NotesContext, target: NotesTarget, records: ArchiveRecord[]): void {
  if (!records.length) return;
  const p = archivePath(ctx, target);
  ensureDir(join(p, '..'), 0o700);
  appendFileSync(p, records.map((r) => JSON.stringify(r)).join('\n') + '\n', { mode: 0o600 });
}

/** Archived entries (evicted or merged by consolidation, or archived by hand) for a target, oldest first. */
export function readArchive(ctx: NotesContext, target: NotesTarget): ArchiveRecord[] {
  const path = archivePath(ctx, target);
  if (!existsSync(path)) return [];
  const own = notesPath(ctx, target);
  const out: ArchiveRecord[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as ArchiveRecord;
      if (r.path === own) out.push(r);
    } catch {
      /* a torn line: skip */
    }
  }
  return out;
}
