/**
 * How a hook writes its captures: save within the hook's busy timeout, or, when the .mind stays
 * busy past it (a long import or cleanup holding the lock), append them to the mind's pending spool
 * (`<mind>.pending-….jsonl`, see the mind's spool.ts) and log one line, so no capture is dropped;
 * the same when the .mind is corrupt (it is never written to; the spool waits for the repair), and
 * when the disk refuses the write (full, over quota, failing): then the spool goes where it
 * can be kept (beside the .mind, else a private fallback folder on another file system, see
 * `fallbackSpoolDirs`), and one line says so on stderr as well as in the hook log, which may be on the
 * full disk too. After a save that succeeds, whatever earlier hooks spooled is replayed in the same
 * open. Captures of the kinds listed in `HIVE_MIND_TEAM_KINDS` are saved as team frames instead (team-sync.ts).
 */
import { dirname } from 'node:path';
import { Mind, replaySpool, spoolFramesAnywhere, type FrameInput } from '@hive-mind/mind/hook';
import { ensureDir } from './mkdir.js';
import { hookLogPath, logHookLine } from './log.js';
import { shareCaptures } from './team-sync.js';
import { isStorageFailure } from './storage-failure.js';

/** What {@link saveCaptures} did with the frames: saved, spooled (`spool` is the file), or lost (no place took the spool). */
export type CaptureOutcome = { saved: number; replayed: number } | { spooled: number; spool: string } | { lost: number; reason: string };

/**
 * Save `inputs` to the .mind at `path` (busy timeout `busyTimeoutMs`), replaying its spool after.
 * On `BUSY`, spool them instead and log `store busy …; N captures spooled to …`; on `CORRUPT` (a
 * truncated or overwritten file, never written to), spool them the same way and log the file and the
 * repair command; when the disk refuses the write ({@link isStorageFailure}: full, over quota...), spool them
 * wherever a spool can be written and say so on stderr and in the log (`… lost` when nowhere took
 * them). Other errors (a newer schema, another application's file) are thrown for the runner to log.
 * A line the hook log cannot take (both its places refuse) goes to stderr. Never writes stdout.
 */
export function saveCaptures(path: string, busyTimeoutMs: number, all: FrameInput[], env: NodeJS.ProcessEnv, where: { host: string; event: string }): CaptureOutcome {
  // the kinds the user shares with the team go to the team's outbox first (team-sync.ts)
  const inputs = shareCaptures(all, env, busyTimeoutMs);
  if (!inputs.length) return { saved: 0, replayed: 0 };
  try {
    ensureDir(dirname(path), 0o700); // bounded: the recursive mkdir inside Mind.open can spin forever on some paths
    const m = Mind.open(path, { busyTimeoutMs });
    try {
      m.saveMany(inputs);
      const replayed = replaySpool(path, (i) => m.saveMany(i)).replayed; // one readdir per spool folder when nothing waits
      return { saved: inputs.length, replayed };
    } finally {
      m.close();
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    const diskFailed = isStorageFailure(err);
    if (code !== 'BUSY' && code !== 'CORRUPT' && !diskFailed) throw err;
    const kept = spoolFramesAnywhere(path, inputs);
    const n = `${inputs.length} capture${inputs.length === 1 ? '' : 's'}`;
    const replay = code === 'CORRUPT' ? 'replayed by the first write after `hive-mind mind doctor --repair` and the recovered file put in its place' : 'replayed by the next write that succeeds or `hive-mind mind doctor`';
    const cause =
      code === 'BUSY'
        ? `store busy past ${busyTimeoutMs} ms`
        : code === 'CORRUPT'
          ? `${path} is not a readable .mind file (left untouched)`
          : `cannot write ${path}: ${oneLine(String((err as Error).message ?? err).replace(`${path}: `, ''))}`;
    const msg = kept.path
      ? `${cause}; ${n} spooled to ${kept.path} (${replay})${kept.fallback ? `; the .mind's folder refused the spool too (${oneLine(kept.refused[0] ?? '')})` : ''}`
      : `${cause}; ${n} lost: no folder took the spool (${kept.refused.map(oneLine).join('; ')})`;
    const logged = logHookLine(hookLogPath(env), where.host, where.event, msg);
    // a full disk may hold the hook log too: the user hears of it either way
    if (diskFailed || !logged) process.stderr.write(`hive-mind ${where.host} ${where.event}: ${msg}${logged ? '' : ' (the hook log could not be written either)'}\n`);
    return kept.path ? { spooled: inputs.length, spool: kept.path } : { lost: inputs.length, reason: msg };
  }
}

function oneLine(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 300 ? `${t.slice(0, 299)}…` : t;
}
