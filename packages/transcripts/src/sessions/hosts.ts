import { join } from 'node:path';
import { hostDir } from '../host-dirs.js';
import { hostRow, SESSION_HOSTS, type SessionHost, type SessionRule } from '../host-table.js';

export { SESSION_HOSTS, shellQuote, type ResumeCommand, type SessionHost } from '../host-table.js';

/** What the first records of a session file say (read from at most {@link HEAD_BYTES}). */
export interface SessionHead {
  /** The session id the file records (Claude Code `sessionId`, Codex `session_meta.id`, pi header `id`, Hermes `session_id`). */
  id?: string;
  /** The working directory the host recorded. Hermes records none. */
  cwd?: string;
  /** The version of the host (Claude Code: of the last line that records one; Codex: `session_meta.cli_version`) or of the session format (pi) that wrote the file. */
  version?: string;
}

/**
 * One host's session rule (host-table.ts, with each host's sources) with its resolved folder:
 * where a host keeps its sessions, how files are named, which versions of its format
 * hive-mind knows, and how a session is resumed.
 */
export interface SessionHostSpec extends Omit<SessionRule, 'sub' | 'variable'> {
  host: SessionHost;
  /** Human name for messages. */
  name: string;
  /** The folder holding every session of this host, from the environment (`HOME` and the host's own variables). */
  root(env: NodeJS.ProcessEnv): string;
}

function spec(host: SessionHost): SessionHostSpec {
  const row = hostRow(host)!;
  const { sub, variable, ...rule } = row.sessions!;
  return { host, name: row.name, root: (env) => (variable && env[variable]) || join(hostDir(host, env).dir, sub), ...rule };
}

/** The session table, by host: derived from the host table's rows with `sessions`. */
export const HOST_TABLE: Readonly<Record<SessionHost, SessionHostSpec>> = Object.fromEntries(SESSION_HOSTS.map((h) => [h, spec(h)])) as Record<SessionHost, SessionHostSpec>;

/** The session folder of every host (for an allow-list of readable places). */
export function sessionRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  return SESSION_HOSTS.map((h) => HOST_TABLE[h].root(env));
}

/** Compare dotted versions numerically (`2.1.10` > `2.1.9`); missing parts count as 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return d < 0 ? -1 : 1;
  }
  return 0;
}

/**
 * Why hive-mind will not rewrite a session written by `version` of `host`, or undefined when
 * the version is known (or the host records none). The message names the version and the
 * known range.
 */
export function hostVersionProblem(host: SessionHost, version: string | undefined): string | undefined {
  const spec = HOST_TABLE[host];
  if (!spec.versions || version === undefined) return undefined;
  const [lo, hi] = spec.versions;
  if (!/^\d+(\.\d+)*([-+].*)?$/.test(version)) return `${spec.versionLabel(version)} is not a version hive-mind can read`;
  if (compareVersions(version, lo) >= 0 && compareVersions(version, hi) < 0) return undefined;
  return `${spec.versionLabel(version)} wrote this session; hive-mind knows the session format of ${spec.versionLabel(lo)} up to (not including) ${hi}, so it does not rewrite this file`;
}
