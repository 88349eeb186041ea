/**
 * How a hook writes its captures: save within the hook's busy timeout, or, when the .mind stays
 * busy past it (a long import or cleanup holding the lock), append them to the mind's pending spool
 * (`<mind>.pending-….jsonl`, see the mind's spool.ts) and log one line, so no capture is dropped;
 * the same when the .mind is corrupt (it is never written to; the spool waits for the repair).
 * After a save that succeeds, whatever earlier hooks spooled is replayed in the same open. Captures of
 * the kinds listed in `HIVE_MIND_TEAM_KINDS` are saved as team frames instead (team-sync.ts).
 */
import { dirname } from 'node:path';
import { Mind, replaySpool, spoolFrames, type FrameInput } from '@hive-mind/mind';
import { ensureDir } from './mkdir.js';
import { hookLogPath, logHookLine } from './log.js';
import { shareCaptures } from './team-sync.js';

/** What {@link saveCaptures} did with the frames. */
export type CaptureOutcome = { saved: number; replayed: number } | { spooled: number; spool: string };

/**
 * Save `inputs` to the .mind at `path` (busy timeout `busyTimeoutMs`), replaying its spool after;
 * on `BUSY`, spool them instead and log `store busy …; N captures spooled to …`; on `CORRUPT` (a
 * truncated or overwritten file, never written to), spool them the same way and log the file and
 * the repair command. Other errors (a full disk, a newer schema) are thrown for the runner to log.
 */
export function saveCaptures(path: string, busyTimeoutMs: number, all: FrameInput[], env: NodeJS.ProcessEnv, where: { host: string; event: string }): CaptureOutcome {
  // the kinds the user shares with the team go to the team's outbox first (team-sync.ts)
  const inputs = shareCaptures(all, env, busyTimeoutMs);
  if (!inputs.length) return { saved: 0, replayed: 0 };
  ensureDir(dirname(path), 0o700); // bounded: the recursive mkdir inside Mind.open can spin forever on some paths
  try {
    const m = Mind.open(path, { busyTimeoutMs });
    try {
      m.saveMany(inputs);
      const replayed = replaySpool(path, (i) => m.saveMany(i)).replayed; // one readdir when nothing waits
      return { saved: inputs.length, replayed };
    } finally {
      m.close();
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'BUSY' && code !== 'CORRUPT') throw err;
    const spool = spoolFrames(path, inputs);
    const n = `${inputs.length} capture${inputs.length === 1 ? '' : 's'}`;
    logHookLine(
      hookLogPath(env),
      where.host,
      where.event,
      code === 'BUSY'
        ? `store busy past ${busyTimeoutMs} ms; ${n} spooled to ${spool} (replayed by the next write or \`hive-mind mind doctor\`)`
        : `${path} is not a readable .mind file (left untouched); ${n} spooled to ${spool} (replayed by the first write after \`hive-mind mind doctor --repair\` and the recovered file put in its place)`,
    );
    return { spooled: inputs.length, spool };
  }
}
