import { createHash } from 'node:crypto';
import { accessSync, constants, statSync } from 'node:fs';
import { basename, dirname, extname, resolve } from 'node:path';
import type { WriteTarget } from '@hive-mind/transcripts';
import { backupFile, backupStamp, realTarget, writeFileAtomic } from '@hive-mind/mind';
import { CliError } from '../errors.js';
import { fileDigest, recordCompaction, type CompactionRecord } from './compact-undo.js';
import { pruneBackups, type PruneResult } from './compact-backups.js';

/** Output formats of `hive-mind compact --to`. */
export type Target = WriteTarget;

/** Where `compact` writes, decided and checked before anything is read or summarized. */
export interface OutputPlan {
  /** Absolute output path as the user named it (may be a symlink). */
  path: string;
  /** True when the output is the input file itself (same path, a symlink to it, a hard link). */
  inPlace: boolean;
  /** True when `--out` was given. */
  explicit: boolean;
}

/** Default output path: `<dir>/<name>.compacted.<ext>` (ext from the target format). */
function defaultOutPath(file: string, to: Target): string {
  const ext = extname(file);
  const stem = basename(file, ext);
  const outExt = to === 'same' ? ext || '.jsonl' : to === 'markdown' ? '.md' : '.json';
  return resolve(dirname(file), `${stem}.compacted${outExt}`);
}

/** True when `a` and `b` name the same file: equal after following symlinks, or the same inode (a hard link). */
export function sameFile(a: string, b: string): boolean {
  if (realTarget(a) === realTarget(b)) return true;
  try {
    const sa = statSync(a);
    const sb = statSync(b);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return false;
  }
}

/**
 * Decide and check the output of `compact FILE [--out OUT] --to FORMAT` before any work:
 * writing another format over the input is refused (the session would be lost), and an
 * output that cannot be written (a directory, a missing or read-only folder, a device) is
 * named in one line. Nothing is created here.
 * @throws CliError (exit 2) naming the path and what is wrong with it.
 */
export function planOutput(file: string, out: string | undefined, to: Target): OutputPlan {
  const path = resolve(out ?? defaultOutPath(file, to));
  const flag = out === undefined ? 'the output' : '--out';
  let inPlace: boolean;
  try {
    inPlace = sameFile(path, file);
  } catch (err) {
    // a symlink loop in the output or the input path
    throw new CliError(`${flag} ${path}: ${(err as Error).message}`, 2);
  }
  if (inPlace && to !== 'same') {
    throw new CliError(
      `${flag} ${path} is the input file; writing ${to} over it would replace the session. Use --to same to compact it in place (a backup is kept), or give another --out`,
      2,
    );
  }
  let target: string;
  try {
    target = realTarget(path);
  } catch (err) {
    throw new CliError(`${flag} ${path}: ${(err as Error).message}`, 2);
  }
  try {
    const st = statSync(target);
    if (st.isDirectory()) throw new CliError(`${flag} ${path} is a directory; give a file path, e.g. ${resolve(path, basename(defaultOutPath(file, to)))}`, 2);
    if (!st.isFile()) throw new CliError(`${flag} ${path} is not a regular file (a device, FIFO or socket); give a file path`, 2);
  } catch (err) {
    if (err instanceof CliError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new CliError(`${flag} ${path}: ${(err as Error).message}`, 2);
  }
  const dir = dirname(target);
  let dst;
  try {
    dst = statSync(dir);
  } catch {
    throw new CliError(`${flag} ${path}: folder ${dir} does not exist; create it first`, 2);
  }
  if (!dst.isDirectory()) throw new CliError(`${flag} ${path}: ${dir} is not a folder`, 2);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new CliError(`${flag} ${path}: folder ${dir} is not writable`, 2);
  }
  return { path, inPlace, explicit: out !== undefined };
}

/** What {@link writeOutput} did. */
interface Written {
  path: string;
  /** The copy of the input kept before an in-place write (absolute), else undefined. */
  backup?: string;
}

/** The name a backup of `file` would get now (for a dry run's report). */
export function backupName(file: string): string {
  return `${realTarget(file)}.hive-mind-backup-${backupStamp()}`;
}

/**
 * Write `text` to the planned output atomically (temp file beside the real target, fsync,
 * rename, directory fsync; a symlinked output stays a link). In place, the input is first
 * copied to `<input>.hive-mind-backup-<stamp>` (never over an existing backup). A new output
 * file gets the input's permission bits.
 * @throws CliError (exit 1) when the backup or the write fails; the input is then unchanged.
 */
function writeOutput(plan: OutputPlan, inputFile: string, text: string): Written {
  let backup: string | undefined;
  try {
    if (plan.inPlace) backup = backupFile(inputFile);
  } catch (err) {
    throw new CliError(`cannot keep a backup of ${inputFile}, so it was not overwritten: ${(err as Error).message}`, 1);
  }
  try {
    writeFileAtomic(plan.path, text, { mode: statSync(inputFile).mode & 0o777 });
  } catch (err) {
    throw new CliError(`cannot write ${plan.path}: ${(err as Error).message}${backup ? ` (the input is unchanged; backup ${backup})` : ''}`, 1);
  }
  return { path: plan.path, ...(backup ? { backup } : {}) };
}

/** What a compaction record says of the compaction itself (compact-undo.ts {@link CompactionRecord}). */
export type CompactionFacts = Pick<CompactionRecord, 'tokensBefore' | 'tokensAfter' | 'action'> & {
  /** The summarizer as the compaction report names it (`compactionReport(...).summarizer`); null (a mask) is recorded as `none`. */
  summarizer: string | null;
};

/** What {@link writeCompaction} did. */
export interface WrittenCompaction extends Written {
  /** In place: the line appended to `<file>.hive-mind-compactions` (what `compact --undo` reads), unless recording failed. */
  record?: CompactionRecord;
  /** In place: why the record could not be appended (the compaction itself is done; `--undo` then needs `--force`). */
  recordProblem?: string;
  /** In place, once recorded: what the backup retention rule removed or spared (compact-backups.ts). */
  pruned?: PruneResult;
}

/**
 * Write a compacted session the way `hive-mind compact` does, for the CLI and the ui's page alike
 * (the CLI lends it to the server): {@link writeOutput}; in place, then the record of the
 * compaction (sha256 and size of the file before and after, the backup, `facts`: tokens before
 * and after, summarizer, action) appended to `<file>.hive-mind-compactions`, then the retention
 * rule keeping the backups of the newest `keep` compactions of the file.
 * @throws CliError as {@link writeOutput} (nothing written); (exit 1) when the retention rule
 * cannot mark what it removed.
 */
export function writeCompaction(plan: OutputPlan, inputFile: string, text: string, facts: CompactionFacts, keep: number): WrittenCompaction {
  const before = plan.inPlace ? fileDigest(inputFile) : undefined;
  const written: WrittenCompaction = writeOutput(plan, inputFile, text);
  if (!before || !written.backup) return written;
  const buf = Buffer.from(text, 'utf8');
  const record: CompactionRecord = {
    at: new Date().toISOString(),
    backup: written.backup,
    before,
    after: { sha256: createHash('sha256').update(buf).digest('hex'), size: buf.length },
    tokensBefore: facts.tokensBefore,
    tokensAfter: facts.tokensAfter,
    summarizer: facts.summarizer ?? 'none',
    ...(facts.action ? { action: facts.action } : {}),
  };
  const problem = recordCompaction(inputFile, record);
  if (problem) return { ...written, recordProblem: problem };
  // the retention rule runs only once this compaction is recorded (its backup is then the newest kept)
  return { ...written, record, pruned: pruneBackups(inputFile, keep) };
}

/** The command that undoes hive-mind's newest compaction of `file` (by its session when it is a host's). */
export function undoShell(file: string, session?: { id: string; host: string }): string {
  return session ? `hive-mind compact --undo --session ${shq(session.id)} --host ${session.host}` : `hive-mind compact --undo ${shq(file)}`;
}

/** `s` quoted for a POSIX shell when it needs it. */
function shq(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The command that puts a backup back (cp writes through a symlinked input, keeping the link). */
export function restoreCommand(backup: string, file: string): string {
  return `cp ${shq(backup)} ${shq(file)}`;
}
