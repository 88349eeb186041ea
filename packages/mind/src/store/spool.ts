/**
 * The pending spool: where a hook puts the frames it could not write because the .mind stayed busy
 * past the hook's time cap (a long `mind import`, a cleanup, many writers), so that no capture is
 * dropped. The next writer that succeeds (the hooks after their own save) and `doctor` replay it.
 *
 * Files: one per spooled batch, `<mind>.pending-<time>-<pid>-<random>.jsonl` beside the .mind, mode 0600,
 * one JSON line per frame (`{"v":1,"at":ISO time,"input":FrameInput}`), content redacted again on the way
 * in. Each is written whole under a temporary name and renamed into place, so a replayer never sees a
 * half-written batch and no writer appends to a file a replayer is reading (an append racing a claim
 * would be lost). A replay claims a file by renaming it (`….replay-<pid>-<random>`), so two replayers never
 * save the same lines; claimed files a crashed replayer left for over a minute are claimed again.
 * The replay saves in transactions of {@link SPOOL_REPLAY_BATCH} frames; frames are deduplicated (turn ids, content hashes), so a replay
 * that is interrupted after its commit and repeated stores nothing twice.
 *
 * When the .mind's own folder cannot take the spool either (a full disk, a read-only home),
 * {@link spoolFramesAnywhere} keeps the batch in the first fallback folder that takes it
 * ({@link fallbackSpoolDirs}: per-user folders on other file systems, memory-backed ones last), named
 * `<mind file name>-<hash of its path>.pending-….jsonl`; the replay of that .mind reads those too.
 */
import { appendFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { FrameInput, SaveResult } from '../frame.js';
import { redactSecrets } from '../safety/redact.js';

/** Frames saved per transaction by a replay. */
const SPOOL_REPLAY_BATCH = 50;

/** Age after which a claimed spool file is taken to be abandoned by a crashed replayer, in ms. */
export const SPOOL_CLAIM_STALE_MS = 60_000;

/** One spooled frame. */
export interface SpoolRecord {
  v: 1;
  /** When it was spooled (ISO 8601). */
  at: string;
  input: FrameInput;
}

/** The prefix of the spool files of the .mind at `mindPath`: `<mindPath>.pending-`. */
export function spoolPrefix(mindPath: string): string {
  return `${mindPath}.pending-`;
}

/**
 * Write one spool file `<prefix><time>-<pid>-<random>.jsonl` holding `records` (whole under a temporary
 * name, then renamed into place). Returns its path. A write that fails (ENOSPC) removes its temporary
 * file, so a full disk leaves no half batch behind; the error is thrown.
 */
function writeSpoolFile(prefix: string, records: string[], now: Date): string {
  const path = `${prefix}${now.getTime()}-${process.pid}-${randomBytes(4).toString('hex')}.jsonl`;
  const tmp = `${path}.tmp`;
  try {
    writeFileSync(tmp, records.join(''), { encoding: 'utf8', mode: 0o600, flag: 'wx' });
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      /* never created */
    }
    throw err;
  }
  return path;
}

function spoolLines(inputs: readonly FrameInput[], now: Date): string[] {
  const at = now.toISOString();
  return inputs.map((input) => {
    const safe: FrameInput = { ...input, content: redactSecrets(input.content).text };
    if (input.createdAt === undefined) safe.createdAt = at; // when it was said, not when it is replayed
    return JSON.stringify({ v: 1, at, input: safe } satisfies SpoolRecord) + '\n';
  });
}

/**
 * Spool `inputs` for the .mind at `mindPath` (content redacted again) as one new spool file. Returns
 * its path. Throws the file system's error when it cannot be written (the caller logs it).
 */
export function spoolFrames(mindPath: string, inputs: readonly FrameInput[], now: Date = new Date()): string {
  return writeSpoolFile(spoolPrefix(mindPath), spoolLines(inputs, now), now);
}

/**
 * The folders a spool falls back to when the .mind's folder refuses it, in the order tried: a
 * `hive-mind-spool-<uid>` folder in `$XDG_RUNTIME_DIR` (per user, memory-backed), in the OS temp folder
 * (`os.tmpdir()`, `$TMPDIR`), and on Linux in `/dev/shm` (memory-backed: it outlasts a full disk, not a
 * reboot). Duplicates are dropped. A folder is used only when it is a real folder (no symlink) owned by
 * this user with no access for others ({@link ownFallbackDir}), so no one else can plant frames in it.
 */
export function fallbackSpoolDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  const name = `hive-mind-spool-${uid}`;
  const roots: string[] = [];
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg && isAbsolute(xdg)) roots.push(xdg);
  roots.push(tmpdir());
  if (process.platform === 'linux') roots.push('/dev/shm');
  return [...new Set(roots.map((r) => join(resolve(r), name)))];
}

/** The name prefix of `mindPath`'s spool files in a fallback folder: `<file name>-<12 hex of sha256(absolute path)>.pending-`. */
export function fallbackSpoolPrefix(dir: string, mindPath: string): string {
  const abs = resolve(mindPath);
  return join(dir, `${basename(abs)}-${createHash('sha256').update(abs).digest('hex').slice(0, 12)}.pending-`);
}

/**
 * Whether `dir` is fit to hold (and to replay) spooled captures: a folder, not a symlink, owned by
 * this process's user, without permissions for group or others. With `create`, it is made first (0700).
 */
function ownFallbackDir(dir: string, create: boolean): boolean {
  if (create) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return false;
    }
  }
  try {
    const st = lstatSync(dir);
    const uid = typeof process.getuid === 'function' ? process.getuid() : st.uid;
    return st.isDirectory() && st.uid === uid && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** Where {@link spoolFramesAnywhere} kept a batch, or why it could not. */
export interface SpoolOutcome {
  /** The spool file written; undefined when no folder took it (the captures are lost). */
  path?: string;
  /** Whether `path` is in a fallback folder rather than beside the .mind. */
  fallback: boolean;
  /** One `<folder>: <error>` per place that refused, in the order tried. */
  refused: string[];
}

/**
 * Spool `inputs` (content redacted again) beside the .mind at `mindPath` or, when that folder refuses
 * (ENOSPC, EROFS, EACCES...), in the first of `dirs` (default {@link fallbackSpoolDirs}) that takes it;
 * the replay of `mindPath` reads them from there too. Never throws: what refused is in `refused`.
 */
export function spoolFramesAnywhere(mindPath: string, inputs: readonly FrameInput[], opts: { now?: Date; dirs?: readonly string[] } = {}): SpoolOutcome {
  const now = opts.now ?? new Date();
  const lines = spoolLines(inputs, now);
  const refused: string[] = [];
  try {
    return { path: writeSpoolFile(spoolPrefix(mindPath), lines, now), fallback: false, refused };
  } catch (e) {
    refused.push(`${dirname(mindPath)}: ${(e as Error).message}`);
  }
  for (const dir of opts.dirs ?? fallbackSpoolDirs()) {
    if (!ownFallbackDir(dir, true)) {
      refused.push(`${dir}: cannot be made, or is not a private folder of this user`);
      continue;
    }
    try {
      return { path: writeSpoolFile(fallbackSpoolPrefix(dir, mindPath), lines, now), fallback: true, refused };
    } catch (e) {
      refused.push(`${dir}: ${(e as Error).message}`);
    }
  }
  return { fallback: false, refused };
}

/** Spool files of `mindPath` waiting to be replayed (claimed ones included), beside it and in the fallback folders, and the frames they hold. */
export function pendingSpooled(mindPath: string): { files: string[]; frames: number } {
  const files = spoolFiles(mindPath);
  let frames = 0;
  for (const f of files) {
    try {
      frames += readFileSync(f, 'utf8').split('\n').filter((l) => l.trim()).length;
    } catch {
      /* replayed meanwhile */
    }
  }
  return { files, frames };
}

/** The spool files of `mindPath`: beside it, then in each private fallback folder (see {@link fallbackSpoolDirs}). */
function spoolFiles(mindPath: string): string[] {
  const places = [spoolPrefix(mindPath), ...fallbackSpoolDirs().map((d) => fallbackSpoolPrefix(d, mindPath))];
  return places.flatMap((prefix, i) => {
    const dir = dirname(prefix);
    let names: string[];
    try {
      names = readdirSync(dir); // ENOENT for a fallback folder never used: one failed call
    } catch {
      return [];
    }
    const base = basename(prefix);
    const mine = names.filter((n) => n.startsWith(base) && (n.endsWith('.jsonl') || n.includes('.jsonl.replay-')));
    if (i > 0 && mine.length && !ownFallbackDir(dir, false)) return []; // a folder someone else can write: never replayed
    return mine.map((n) => join(dir, n));
  });
}

/** What {@link replaySpool} did. */
export interface ReplayReport {
  /** Frames saved (inserted, or found already stored). */
  replayed: number;
  /** Lines that were not a spool record, or frames the mind refused (kept in `<mind>.pending.bad.jsonl`, never dropped silently). */
  bad: number;
  /** Spool files given back because the .mind was busy again (their frames wait for the next replay). */
  deferred: number;
}

/**
 * Save what the spool of `mindPath` holds through `saveMany` (a writable Mind's, one transaction),
 * then delete the claimed file. When the .mind is busy again the frames not saved go back as a new spool
 * file; a record the mind refuses (invalid) goes to `<mind>.pending.bad.jsonl` with the error. Never throws for those. Returns the counts.
 */
export function replaySpool(mindPath: string, saveMany: (inputs: FrameInput[]) => SaveResult[], now: Date = new Date()): ReplayReport {
  const report: ReplayReport = { replayed: 0, bad: 0, deferred: 0 };
  const badPath = `${mindPath}.pending.bad.jsonl`;
  const claimed: string[] = [];
  for (const f of spoolFiles(mindPath)) {
    if (f.includes('.jsonl.replay-')) {
      try {
        if (now.getTime() - statSync(f).mtimeMs < SPOOL_CLAIM_STALE_MS) continue; // another replayer is on it
      } catch {
        continue;
      }
    }
    const claim = `${f.replace(/\.replay-.*$/, '')}.replay-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      renameSync(f, claim);
      claimed.push(claim);
    } catch {
      /* taken by another replayer */
    }
  }
  for (const claim of claimed) {
    const inputs: FrameInput[] = [];
    const badLines: string[] = [];
    for (const line of readFileSync(claim, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const rec = JSON.parse(line) as SpoolRecord;
        if (rec?.v !== 1 || !rec.input || typeof rec.input.content !== 'string') throw new Error('not a spool record');
        inputs.push(rec.input);
      } catch {
        badLines.push(line);
      }
    }
    let saved = 0;
    let okOne = 0;
    let busy = false;
    try {
      // short transactions, so that a long spool never holds the write lock against the hooks it serves
      while (saved < inputs.length) {
        const batch = inputs.slice(saved, saved + SPOOL_REPLAY_BATCH);
        saveMany(batch);
        saved += batch.length;
      }
    } catch (err) {
      if ((err as { code?: string }).code === 'BUSY') busy = true;
      else {
        // one bad record must not hold back the others: save one by one, keep the refused ones
        for (const input of inputs.slice(saved)) {
          try {
            saveMany([input]);
            okOne++;
          } catch (e) {
            badLines.push(JSON.stringify({ v: 1, at: now.toISOString(), input, error: (e as Error).message }));
          }
        }
        saved += okOne;
      }
    }
    if (busy) {
      // busy again: the frames not yet saved go back as a new spool file for the next writer
      const rest = inputs.slice(saved).map((input) => JSON.stringify({ v: 1, at: now.toISOString(), input } satisfies SpoolRecord) + '\n');
      if (rest.length) writeSpoolFile(spoolPrefix(mindPath), rest, now);
      report.deferred++;
    }
    if (badLines.length) appendFileSync(badPath, badLines.map((l) => l + '\n').join(''), { mode: 0o600 });
    report.replayed += saved;
    report.bad += badLines.length;
    unlinkSync(claim);
  }
  return report;
}
