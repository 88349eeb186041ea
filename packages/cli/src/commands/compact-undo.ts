import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { backupFile, realTarget, writeFileAtomic } from '@hive-mind/mind';
import { CliError } from '../errors.js';

/**
 * One in-place compaction, as recorded in `<file>.hive-mind-compactions` (one JSON object a
 * line, appended after the write): enough to undo it and to say which one is undone.
 */
export interface CompactionRecord {
  /** ISO time of the write. */
  at: string;
  /** The copy of the file as it was before (absolute path). */
  backup: string;
  /** sha256 (hex) and size (bytes) of the file before and after the write. */
  before: { sha256: string; size: number };
  after: { sha256: string; size: number };
  /** Surface tokens before and after, the summarizer and what landed. */
  tokensBefore: number;
  tokensAfter: number;
  summarizer: string;
  action?: string;
  /** ISO time the backup was removed by the retention rule (compact-backups.ts); the record stays as history. */
  pruned?: string;
}

/** The record file of a session file (the real target when `file` is a symlink); its name ends in neither `.json` nor `.jsonl`, so no host lists it as a session. */
export function recordsPath(file: string): string {
  return `${realTarget(file)}.hive-mind-compactions`;
}

function digest(bytes: Buffer): { sha256: string; size: number } {
  return { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}

/** sha256 and size of the file now. */
export function fileDigest(file: string): { sha256: string; size: number } {
  return digest(readFileSync(file));
}

/** Append the record of an in-place compaction. A failure is reported, never fatal: the compaction itself is done. */
export function recordCompaction(file: string, rec: CompactionRecord): string | undefined {
  try {
    appendFileSync(recordsPath(file), JSON.stringify(rec) + '\n');
    return undefined;
  } catch (err) {
    return `could not record the compaction in ${recordsPath(file)} (${(err as Error).message}); --undo will need --force`;
  }
}

/** Every record of `file`, oldest first; lines that do not parse are skipped. */
export function readRecords(file: string): CompactionRecord[] {
  let text: string;
  try {
    text = readFileSync(recordsPath(file), 'utf8');
  } catch {
    return [];
  }
  const out: CompactionRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as CompactionRecord;
      if (typeof r.backup === 'string' && r.after?.sha256 && r.before?.sha256) out.push(r);
    } catch {
      /* a torn line from a crash: skipped */
    }
  }
  return out;
}

/**
 * True when `file` is exactly what hive-mind's newest compaction of it wrote (same size and
 * sha256): nobody has written to it since, so a fresh modification time is ours, not a host's.
 */
export function lastWrittenByUs(file: string): boolean {
  const last = readRecords(file).at(-1);
  if (!last) return false;
  try {
    if (statSync(file).size !== last.after.size) return false;
    return fileDigest(file).sha256 === last.after.sha256;
  } catch {
    return false;
  }
}

/** What {@link undoCompaction} did. */
export interface UndoResult {
  file: string;
  undone: CompactionRecord;
  /** A backup of the compacted file taken before it was replaced (nothing is lost). */
  compactedBackup?: string;
  /** True when the file had changed since the compaction and `force` restored it anyway. */
  forced: boolean;
  /** True when the file already is as it was before `undone` (undone earlier): nothing was written. */
  nothingLeft?: boolean;
}

/**
 * Put back the file as it was before hive-mind's newest compaction of it: the newest record
 * whose `after` digest is the file as it is now names the backup to restore (so undoing
 * again walks back through earlier compactions). The backup is checked against the record's
 * `before` digest, the current file is itself backed up, then the backup's bytes are written
 * atomically over it (byte for byte; the backup stays). A file that is already as it was
 * before a recorded compaction (and after none) is left alone (`nothingLeft`).
 * @throws CliError (exit 2) when there is nothing to undo, or the file changed since (the host
 * wrote to it: undoing would drop those turns) and `force` is not set; (exit 1) when the
 * backup is missing or altered, or the write fails.
 */
export function undoCompaction(file: string, force: boolean): UndoResult {
  const records = readRecords(file);
  if (!records.length) throw new CliError(`${file}: no compaction by hive-mind to undo (no ${recordsPath(file)})`, 2);
  const now = fileDigest(file);
  let rec = [...records].reverse().find((r) => r.after.sha256 === now.sha256);
  let forced = false;
  const first = records.find((r) => r.before.sha256 === now.sha256);
  if (!rec && first && !records.some((r) => r.after.sha256 === now.sha256)) return { file, undone: first, forced: false, nothingLeft: true };
  if (!rec) {
    const last = records[records.length - 1]!;
    if (!force) {
      throw new CliError(
        `${file} changed since hive-mind compacted it at ${last.at} (${last.after.size} bytes then, ${now.size} now: the host has written to it), so undoing would lose what came after; give --force to restore ${last.backup} anyway (the current file is backed up first)`,
        2,
      );
    }
    rec = last;
    forced = true;
  }
  if (rec.pruned) {
    throw new CliError(
      `${file}: the compaction made at ${rec.at} can no longer be undone: its backup ${rec.backup} was removed at ${rec.pruned}, when the retention rule pruned older backups (the newest compactions keep theirs: 5 by default, HIVE_MIND_COMPACT_KEEP_BACKUPS or compact --keep-backups N to keep more); nothing restored`,
      2,
    );
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(rec.backup);
  } catch (err) {
    throw new CliError(`cannot read the backup ${rec.backup} of the compaction at ${rec.at}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 1);
  }
  if (digest(bytes).sha256 !== rec.before.sha256) throw new CliError(`the backup ${rec.backup} is not the file hive-mind backed up at ${rec.at} (its content changed); nothing restored`, 1);
  let compactedBackup: string | undefined;
  try {
    compactedBackup = backupFile(file);
  } catch (err) {
    throw new CliError(`cannot keep a backup of ${file} before restoring, so nothing was restored: ${(err as Error).message}`, 1);
  }
  try {
    writeFileAtomic(file, bytes, { mode: statSync(file).mode & 0o777 });
  } catch (err) {
    throw new CliError(`cannot restore ${file}: ${(err as Error).message} (it is unchanged; the backup is ${rec.backup})`, 1);
  }
  return { file, undone: rec, ...(compactedBackup ? { compactedBackup } : {}), forced };
}
