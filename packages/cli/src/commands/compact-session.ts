import { HOST_TABLE, hostVersionProblem, listSessions, sessionActivity, type SessionActivity, type SessionFile } from '@hive-mind/transcripts';
import { lastWrittenByUs } from './compact-undo.js';
import { sameFile } from './compact-output.js';

/**
 * Whether a host is writing session `s` now (transcripts `sessionActivity`): its lock always
 * counts; a write in the last seconds counts unless `locksOnly` or the file is exactly the bytes
 * hive-mind's newest compaction of it wrote (then the fresh modification time is ours).
 */
export function hostActivity(s: SessionFile, opts: { env?: NodeJS.ProcessEnv; locksOnly?: boolean } = {}): SessionActivity {
  return sessionActivity(s, { ...(opts.env ? { env: opts.env } : {}), locksOnly: !!opts.locksOnly || lastWrittenByUs(s.path) });
}

/** Why compacting a host's session is refused now (see {@link sessionRefusal}). */
export interface SessionRefusal {
  /** One line naming the session, the reason and the way out. */
  message: string;
  /** True when `--force` (the page's "Compact anyway") overrides it: a host writing the session; false for an unknown host version. */
  forcible: boolean;
}

/**
 * The check `compact --session` makes before touching a host's session: a version of the host
 * whose format hive-mind does not know is refused (not for an undo, which only puts bytes back);
 * a session a host is writing now ({@link hostActivity}) is refused unless `force`.
 */
export function sessionRefusal(s: SessionFile, o: { force?: boolean; undo?: boolean; env?: NodeJS.ProcessEnv } = {}): SessionRefusal | undefined {
  const unknown = o.undo ? undefined : hostVersionProblem(s.host, s.version);
  if (unknown) return { message: `${s.path}: ${unknown}`, forcible: false };
  // an undo checks itself that nothing was written since the compaction
  const activity = hostActivity(s, { ...(o.env ? { env: o.env } : {}), locksOnly: !!o.undo });
  if (activity.busy && !o.force) {
    const name = HOST_TABLE[s.host].name;
    return { message: `${name} session ${s.id} is being written right now: ${activity.reason}; quit ${name} (or let its turn finish) and run this again, or give --force (${s.path})`, forcible: true };
  }
  return undefined;
}

/** The host session whose file `file` is (the same file, through symlinks or hard links), among every host's listed sessions; undefined for any other file. */
export function sessionOfFile(file: string, env: NodeJS.ProcessEnv = process.env): SessionFile | undefined {
  return listSessions({ env }).find((s) => {
    try {
      return sameFile(s.path, file);
    } catch {
      return false;
    }
  });
}
