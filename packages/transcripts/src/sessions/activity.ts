import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HOST_TABLE } from './hosts.js';
import type { SessionFile } from './list.js';

/**
 * A session written less than this long ago (ms) is taken to be in use: a host appends to
 * its file at every step of a turn, so a turn in progress always looks this fresh.
 */
export const RECENT_WRITE_MS = 10_000;

/** Whether a host may be writing a session right now, and why. */
export interface SessionActivity {
  busy: boolean;
  /** One line naming the evidence (the lock file and process, or the age of the last write). */
  reason?: string;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

/** The start time of process `pid` (field 22 of /proc/<pid>/stat, clock ticks), or undefined off Linux. */
function procStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * Claude Code 2.1.332 registers each running process in `<config dir>/sessions/<pid>.json`
 * (`{pid, sessionId, cwd, startedAt, procStart, version, ...}`, observed while `claude -p`
 * ran; removed when it exits). A file whose process is alive (and, on Linux, started at
 * the recorded `procStart`, so a reused pid does not count) holds the session.
 */
function claudeCodeHolder(s: SessionFile, env: NodeJS.ProcessEnv): string | undefined {
  const dir = join(dirname(HOST_TABLE['claude-code'].root(env)), 'sessions');
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /^\d+\.json$/.test(n));
  } catch {
    return undefined;
  }
  for (const n of names) {
    let rec: { pid?: unknown; sessionId?: unknown; procStart?: unknown };
    try {
      rec = JSON.parse(readFileSync(join(dir, n), 'utf8'));
    } catch {
      continue;
    }
    if (rec.sessionId !== s.id || typeof rec.pid !== 'number' || !pidAlive(rec.pid)) continue;
    const started = procStart(rec.pid);
    if (started !== undefined && typeof rec.procStart === 'string' && started !== rec.procStart) continue;
    return `Claude Code process ${rec.pid} has it open (${join(dir, n)})`;
  }
  return undefined;
}

/** True when /proc/locks lists a lock on the file with this device and inode (Linux); undefined where /proc/locks is absent. */
function lockedInProc(path: string): boolean | undefined {
  let locks: string;
  try {
    locks = readFileSync('/proc/locks', 'utf8');
  } catch {
    return undefined;
  }
  const st = statSync(path);
  // "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF": major:minor:inode in hex:hex:decimal
  const want = `:${st.ino} `;
  const major = Math.floor(st.dev / 256) & 0xfff;
  const minor = (st.dev & 0xff) | ((st.dev >> 12) & 0xfff00);
  return locks.split('\n').some((l) => {
    const f = l.trim().split(/\s+/);
    const id = f.find((x) => /^[0-9a-f]+:[0-9a-f]+:\d+$/i.test(x));
    if (!id || !`${id} `.endsWith(want)) return false;
    const [ma, mi] = id.split(':').map((x) => Number.parseInt(x, 16));
    return ma === major && mi === minor;
  });
}

/**
 * Codex 0.171.0 keeps `<CODEX_HOME>/thread-writer-locks/<thread id>.lock` while a thread is
 * open (observed: present while `codex exec` runs, only `.coordination.lock` left after it
 * exits) and holds an exclusive `flock` on it; a clean exit removes the file, a killed one
 * leaves it unlocked. So the file with a lock on it (from /proc/locks) holds the session;
 * where /proc/locks cannot be read, the file's presence does.
 */
function codexHolder(s: SessionFile, env: NodeJS.ProcessEnv): string | undefined {
  const file = join(dirname(HOST_TABLE.codex.root(env)), 'thread-writer-locks', `${s.id}.lock`);
  try {
    statSync(file);
  } catch {
    return undefined;
  }
  const held = lockedInProc(file);
  if (held === false) return undefined;
  return held ? `a Codex process holds its writer lock (${file})` : `its Codex writer lock exists (${file})`;
}

/**
 * Whether a host is writing `s` now: the host's own lock (Claude Code's process registry,
 * Codex's thread writer lock), or a write less than {@link RECENT_WRITE_MS} ago. pi and
 * Hermes keep no lock we know of, so only the age of the last write tells for them.
 * `locksOnly` skips the age test (for a caller that knows who wrote last, e.g. an undo that
 * finds the very bytes it wrote).
 */
export function sessionActivity(s: SessionFile, opts: { env?: NodeJS.ProcessEnv; now?: number; locksOnly?: boolean } = {}): SessionActivity {
  const env = opts.env ?? process.env;
  const holder = s.host === 'claude-code' ? claudeCodeHolder(s, env) : s.host === 'codex' ? codexHolder(s, env) : undefined;
  if (holder) return { busy: true, reason: holder };
  if (opts.locksOnly) return { busy: false };
  let mtimeMs = s.mtimeMs;
  try {
    mtimeMs = statSync(s.path).mtimeMs;
  } catch {
    /* listed a moment ago; the reader will say what is wrong */
  }
  const age = (opts.now ?? Date.now()) - mtimeMs;
  if (age < RECENT_WRITE_MS) return { busy: true, reason: `it was written ${Math.max(0, Math.round(age / 1000))} s ago (less than ${RECENT_WRITE_MS / 1000} s)` };
  return { busy: false };
}
