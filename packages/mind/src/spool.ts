/**
 * The pending spool: where a hook puts the frames it could not write because the .mind stayed busy
 * past the hook's time cap (a long `mind import`, a cleanup, many writers), so that no capture is
 * dropped. The next writer that succeeds (the hooks after their own save) and `doctor` replay it.
 *
 * File: `<mind>.pending.jsonl` beside the .mind, mode 0600, one JSON line per frame
 * (`{"v":1,"at":ISO time,"input":FrameInput}`), content redacted again on the way in. Appends are one
 * `write` per batch on an O_APPEND descriptor, so concurrent hooks never interleave lines.
 * A replay first claims the file by renaming it (`<spool>.replay-<pid>-<random>`), so two replayers
 * never save the same lines; claimed files a crashed replayer left for over a minute are claimed again.
 * The replay saves in one transaction; frames are deduplicated (turn ids, content hashes), so a replay
 * that is interrupted after its commit and repeated stores nothing twice.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FrameInput, SaveResult } from './frame.js';
import { redactSecrets } from './redact.js';

/** Age after which a claimed spool file is taken to be abandoned by a crashed replayer, in ms. */
export const SPOOL_CLAIM_STALE_MS = 60_000;

/** One spooled frame. */
export interface SpoolRecord {
  v: 1;
  /** When it was spooled (ISO 8601). */
  at: string;
  input: FrameInput;
}

/** The spool of the .mind at `mindPath`: `<mindPath>.pending.jsonl`. */
export function spoolPath(mindPath: string): string {
  return `${mindPath}.pending.jsonl`;
}

/**
 * Append `inputs` to the spool of `mindPath` (content and tags redacted again). Returns the spool's path.
 * Throws the file system's error when the spool cannot be written (the caller logs it).
 */
export function spoolFrames(mindPath: string, inputs: readonly FrameInput[], now: Date = new Date()): string {
  const path = spoolPath(mindPath);
  const at = now.toISOString();
  const lines = inputs.map((input) => {
    const safe: FrameInput = { ...input, content: redactSecrets(input.content).text };
    if (input.createdAt === undefined) safe.createdAt = at; // when it was said, not when it is replayed
    return JSON.stringify({ v: 1, at, input: safe } satisfies SpoolRecord) + '\n';
  });
  appendFileSync(path, lines.join(''), { encoding: 'utf8', mode: 0o600, flag: 'a' });
  return path;
}

/** Spool files of `mindPath` waiting to be replayed: the spool and any claimed file (count of lines in all). */
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
  const spool = spoolPath(mindPath);
  const dir = dirname(spool);
  const prefix = `${basename(spool)}.replay-`;
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out = existsSync(spool) ? [spool] : [];
  for (const n of names) if (n.startsWith(prefix)) out.push(join(dir, n));
  return out;
}

/** What {@link replaySpool} did. */
export interface ReplayReport {
  /** Frames saved (inserted, or found already stored). */
  replayed: number;
  /** Lines that were not a spool record (kept in `<spool>.bad`, never dropped silently). */
  bad: number;
  /** Spool files given back because the .mind was busy again (their frames wait for the next replay). */
  deferred: number;
}

/**
 * Save what the spool of `mindPath` holds through `saveMany` (a writable Mind's, one transaction),
 * then delete the claimed file. When the .mind is busy again the lines go back to the spool; a record
 * the mind refuses (invalid) goes to `<spool>.bad` with the error. Never throws for those. Returns the counts.
 */
export function replaySpool(mindPath: string, saveMany: (inputs: FrameInput[]) => SaveResult[], now: Date = new Date()): ReplayReport {
  const report: ReplayReport = { replayed: 0, bad: 0, deferred: 0 };
  const spool = spoolPath(mindPath);
  const claimed: string[] = [];
  for (const f of spoolFiles(mindPath)) {
    if (f !== spool) {
      try {
        if (now.getTime() - statSync(f).mtimeMs < SPOOL_CLAIM_STALE_MS) continue; // another replayer is on it
      } catch {
        continue;
      }
    }
    const claim = `${spool}.replay-${process.pid}-${randomBytes(4).toString('hex')}`;
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
    let saved = inputs.length;
    try {
      if (inputs.length) saveMany(inputs);
    } catch (err) {
      if ((err as { code?: string }).code === 'BUSY') {
        // busy again: give the lines back to the spool for the next writer
        const text = readFileSync(claim, 'utf8');
        appendFileSync(spool, text.endsWith('\n') ? text : text + '\n', { mode: 0o600 });
        unlinkSync(claim);
        report.deferred++;
        continue;
      }
      // one bad record must not hold back the others: save one by one, keep the refused ones
      saved = 0;
      for (const input of inputs) {
        try {
          saveMany([input]);
          saved++;
        } catch (e) {
          badLines.push(JSON.stringify({ v: 1, at: now.toISOString(), input, error: (e as Error).message }));
        }
      }
    }
    if (badLines.length) appendFileSync(`${spool}.bad`, badLines.map((l) => l + '\n').join(''), { mode: 0o600 });
    report.replayed += saved;
    report.bad += badLines.length;
    unlinkSync(claim);
  }
  return report;
}
