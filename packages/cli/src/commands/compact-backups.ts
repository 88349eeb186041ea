import { statSync, unlinkSync } from 'node:fs';
import { envNumber, SettingError, writeFileAtomic } from '@hive-mind/mind';
import { CliError } from '../errors.js';
import { fileDigest, readRecords, recordsPath } from './compact-undo.js';

/**
 * Retention of compaction backups. Every in-place compaction keeps `<file>.hive-mind-backup-<stamp>`
 * and a record in `<file>.hive-mind-compactions`; `compact --undo` walks back through the records
 * newest first, restoring each one's backup. The rule: per session file, the backups of the newest
 * `keep` compactions stay (so `--undo` can walk back `keep` compactions), older ones are removed and
 * their records marked `pruned` (kept as history, so an undo that reaches one says why it stops).
 * The backup of the newest compaction is never removed (`keep` >= 1), nor a file that is not the
 * backup its record names (its sha256 differs), nor a backup no record names (an undo's copy of the
 * compacted file, one made by hand).
 */

/** The environment variable that sets how many compaction backups are kept per session file. */
export const KEEP_BACKUPS_ENV = 'HIVE_MIND_COMPACT_KEEP_BACKUPS';

/**
 * The number of backups to keep: `flag` (a `--keep-backups` value) when given, else the
 * environment's {@link KEEP_BACKUPS_ENV}, else its default (5).
 * @throws CliError (exit 2) for a value that is not a positive integer, naming the flag or variable.
 */
export function keepBackups(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): number {
  if (flag !== undefined) {
    if (!/^\d+$/.test(flag) || Number(flag) < 1) throw new CliError(`--keep-backups must be a positive integer (the newest compaction's backup is always kept), got ${JSON.stringify(flag)}`, 2);
    return Number(flag);
  }
  try {
    return envNumber(env, KEEP_BACKUPS_ENV);
  } catch (e) {
    throw e instanceof SettingError ? new CliError(e.message, 2) : e;
  }
}

/** What {@link pruneBackups} did (or, with `dryRun`, would do). */
export interface PruneResult {
  file: string;
  keep: number;
  /** Backups removed, oldest first, with their size in bytes. */
  removed: Array<{ path: string; bytes: number; at: string }>;
  /** Backups kept (the newest `keep` compactions whose backup is there). */
  kept: string[];
  /** Backups left although their compaction is past `keep`, with why (changed since, unreadable). */
  spared: Array<{ path: string; reason: string }>;
}

/**
 * Apply the retention rule to the backups of `file`: keep the backups of its newest `keep`
 * compactions, remove older ones (checked first to be the bytes the record says) and mark their
 * records `pruned`. Records whose backup is already gone are marked too. Nothing is done when the
 * file has at most `keep` recorded compactions.
 * @throws CliError (exit 1) when the records file cannot be rewritten (the removed backups are
 * then named in the message).
 */
export function pruneBackups(file: string, keep: number, opts: { dryRun?: boolean; now?: Date } = {}): PruneResult {
  if (!Number.isInteger(keep) || keep < 1) throw new RangeError(`keep must be a positive integer, got ${keep}`);
  const records = readRecords(file);
  const result: PruneResult = { file, keep, removed: [], kept: [], spared: [] };
  const cut = Math.max(0, records.length - keep);
  const newest = records.at(-1)?.backup;
  for (const r of records.slice(cut)) if (!r.pruned) result.kept.push(r.backup);
  if (cut === 0) return result;
  const at = (opts.now ?? new Date()).toISOString();
  let changed = false;
  for (const r of records.slice(0, cut)) {
    if (r.pruned || r.backup === newest || records.slice(cut).some((k) => k.backup === r.backup)) continue;
    let bytes: number;
    try {
      bytes = statSync(r.backup).size;
    } catch {
      r.pruned = at; // already gone: say so in its record
      changed = true;
      continue;
    }
    let same: boolean;
    try {
      same = bytes === r.before.size && fileDigest(r.backup).sha256 === r.before.sha256;
    } catch (err) {
      result.spared.push({ path: r.backup, reason: `unreadable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` });
      continue;
    }
    if (!same) {
      result.spared.push({ path: r.backup, reason: 'it is not the copy its compaction record names (its content changed), so it is left alone' });
      continue;
    }
    result.removed.push({ path: r.backup, bytes, at: r.at });
    if (opts.dryRun) continue;
    try {
      unlinkSync(r.backup);
    } catch (err) {
      result.removed.pop();
      result.spared.push({ path: r.backup, reason: `cannot remove it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` });
      continue;
    }
    r.pruned = at;
    changed = true;
  }
  if (changed && !opts.dryRun) {
    // a compaction recorded while this ran is kept (records are only ever appended)
    const appended = readRecords(file).slice(records.length);
    try {
      writeFileAtomic(recordsPath(file), [...records, ...appended].map((r) => JSON.stringify(r)).join('\n') + '\n');
    } catch (err) {
      throw new CliError(`removed ${result.removed.map((x) => x.path).join(', ')} but cannot mark them in ${recordsPath(file)}: ${(err as Error).message}`, 1);
    }
  }
  return result;
}
