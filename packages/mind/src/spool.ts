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
 */
import { appendFileSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FrameInput, SaveResult } from './frame.js';
import { redactSecrets } from './redact.js';

/** Frames saved per transaction by a replay. */
export const SPOOL_REPLAY_BATCH = 50;

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

/** Write one spool file holding `records` (whole, then renamed into place). Returns its path. */
function writeSpoolFile(mindPath: string, records: string[], now: Date): string {
  const path = `${spoolPrefix(mindPath)}${now.getTime()}-${process.pid}-${randomBytes(4).toString('hex')}.jsonl`;
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, records.join(''), { encoding: 'utf8', mode: 0o600, flag: 'wx' });
  renameSync(tmp, path);
  return path;
}

/**
 * Spool `inputs` for the .mind at `mindPath` (content redacted again) as one new spool file. Returns
 * its path. Throws the file system's error when it cannot be written (the caller logs it).
 */
export function spoolFrames(mindPath: string, inputs: readonly FrameInput[], now: Date = new Date()): string {
  const at = now.toISOString();
  const lines = inputs.map((input) => {
    const safe: FrameInput = { ...input, content: redactSecrets(input.content).text };
    if (input.createdAt === undefined) safe.createdAt = at; // when it was said, not when it is replayed
    return JSON.stringify({ v: 1, at, input: safe } satisfies SpoolRecord) + '\n';
  });
  return writeSpoolFile(mindPath, lines, now);
}

/** Spool files of `mindPath` waiting to be replayed (claimed ones included) and the frames they hold. */
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

function spoolFiles(mindPath: string): string[] {
  const prefix = basename(spoolPrefix(mindPath));
  const dir = dirname(mindPath);
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => n.startsWith(prefix) && (n.endsWith('.jsonl') || n.includes('.jsonl.replay-'))).map((n) => join(dir, n));
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
      if (rest.length) writeSpoolFile(mindPath, rest, now);
      report.deferred++;
    }
    if (badLines.length) appendFileSync(badPath, badLines.map((l) => l + '\n').join(''), { mode: 0o600 });
    report.replayed += saved;
    report.bad += badLines.length;
    unlinkSync(claim);
  }
  return report;
}
