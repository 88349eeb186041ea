import { basename, join } from 'node:path';
import { hostDir } from '../host-dirs.js';

/** The hosts whose own session folders `listSessions` knows. */
export type SessionHost = 'claude-code' | 'codex' | 'pi' | 'hermes';

/** Every host, in the order they are listed and searched. */
export const SESSION_HOSTS: readonly SessionHost[] = ['claude-code', 'codex', 'pi', 'hermes'];

/** What the first records of a session file say (read from at most {@link HEAD_BYTES}). */
export interface SessionHead {
  /** The session id the file records (Claude Code `sessionId`, Codex `session_meta.id`, pi header `id`, Hermes `session_id`). */
  id?: string;
  /** The working directory the host recorded. Hermes records none. */
  cwd?: string;
  /** The version of the host (Claude Code: of the last line that records one; Codex: `session_meta.cli_version`) or of the session format (pi) that wrote the file. */
  version?: string;
}

/** The command that resumes a session in its host, as argv and as one shell line. */
export interface ResumeCommand {
  /** Folder the command must run in (the host finds the session from it), when it matters. */
  cwd?: string;
  argv: string[];
  /** `cd <cwd> && <argv>` quoted for a POSIX shell (no `cd` when there is no cwd). */
  shell: string;
  /** A caveat the user must know, e.g. a host that resumes from another store. */
  note?: string;
}

/**
 * One row of the host table: where a host keeps its sessions, how files are named, which
 * versions of its format hive-mind knows, and how a session is resumed. Adding a host is
 * one row here plus its reader.
 */
export interface SessionHostSpec {
  host: SessionHost;
  /** Human name for messages. */
  name: string;
  /** The folder holding every session of this host, from the environment (`HOME` and the host's own variable). */
  root(env: NodeJS.ProcessEnv): string;
  /** Folder depth of the session files under the root (files deeper or shallower are not sessions). */
  depth: number;
  /** How the host's session files end (`.jsonl`, `.json`): a file so named that is not a session is reported, not skipped silently. */
  ext: string;
  /** True for a file name that is a session file of this host. */
  isSessionFile(name: string): boolean;
  /** Why a file named `name` (ending in {@link ext}) is not a session of this host: the host's own naming rule. */
  nameProblem: string;
  /** Why a file ending in {@link ext} above the session depth is not a session: where the host looks instead. */
  placeProblem: string;
  /** The session id from a file name, when the name holds one. */
  idFromName(name: string): string | undefined;
  /** The project folder name for a working directory, when the host groups sessions per project (null: not grouped). */
  projectDir: ((cwd: string) => string) | null;
  /** The versions whose format is known, as `[lowest, highest exclusive]` dotted versions; null when the files record none. */
  versions: readonly [string, string] | null;
  /** The version as the user knows it (`Claude Code 2.1.332`, `pi session format 3`). */
  versionLabel(v: string): string;
  resume(s: { id: string; path: string; cwd?: string }): ResumeCommand;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const UUID_JSONL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;
// codex-rs `rollout/list.rs` `parse_timestamp_uuid_from_filename`: `rollout-`, a timestamp, `-`, a UUID, `.jsonl`
const CODEX_ROLLOUT = /^rollout-.+-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/** `s` quoted for a POSIX shell when it needs it. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function command(argv: string[], cwd?: string, note?: string): ResumeCommand {
  const line = argv.map(shellQuote).join(' ');
  return { ...(cwd ? { cwd } : {}), argv, shell: cwd ? `cd ${shellQuote(cwd)} && ${line}` : line, ...(note ? { note } : {}) };
}

/**
 * The host table. Each host's folder comes from {@link hostDir} (host-dirs.ts, shared with the
 * hook installers). Sources, per host:
 * - Claude Code: `$CLAUDE_CONFIG_DIR` (default `~/.claude`) `/projects/<slug>/<session id>.jsonl`,
 *   where the slug is the working directory with every character that is not an ASCII letter
 *   or digit replaced by `-` (observed with the pinned 2.1.332, test-support/README.md "Files";
 *   Claude Code's docs, "Claude Code settings": CLAUDE_CONFIG_DIR moves every file it keeps).
 *   `claude --resume <id>` looks the session up in the project folder of the current
 *   directory, so it runs from the session's cwd. Known: 1.x and 2.x (real files from 2.1.14
 *   and 2.1.332 in shared/data/transcripts). Only `<UUID>.jsonl` files are sessions: with a file
 *   `notes.jsonl` in the project folder, 2.1.332's `claude -p --resume notes` answers "Provided value
 *   "notes" is not a UUID and does not match any session title", and a `custom-title` record inside
 *   such a file is not found either (tried with the pinned binary; a UUID-named file's title is).
 * - Codex: `$CODEX_HOME` (default `~/.codex`) `/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`,
 *   first line `session_meta {id, cwd, cli_version}` (codex-rs `rollout/recorder.rs`, observed
 *   with 0.171.0; the name is parsed by `rollout/list.rs` `parse_timestamp_uuid_from_filename`,
 *   which skips any other name, and a session is found by the UUID in its name); `codex resume <id>` (and `codex exec resume <id> <prompt>`, from
 *   `codex exec resume --help` of 0.171.0) finds a session by id wherever it was started.
 *   Known: the `{timestamp, type, payload}` rollout lines of 0.x.
 * - pi: `$PI_CODING_AGENT_DIR` (default `~/.pi/agent`) `/sessions/--<cwd>--/<time>_<id>.jsonl`,
 *   the cwd without its leading separator and with `/`, `\` and `:` replaced by `-` (pi-mono
 *   `packages/coding-agent` `getAgentDir`/`getSessionDirForCwd` and docs/session.md); the header
 *   entry `{type: 'session', version, id, timestamp, cwd}`; any `*.jsonl` whose first line is
 *   that header is a session, whatever its name (`session-manager.ts` `isValidSessionFile`);
 *   `pi --session <file>` opens one file. `PI_CODING_AGENT_SESSION_DIR` replaces the sessions folder (the lookup order pi-link
 *   documents after pi's: that variable, then a `sessionDir` in settings.json, which is not
 *   read here). Known: session format versions 1 to 3 (docs/session.md "Session Version").
 * - Hermes: `$HERMES_HOME` (default `~/.hermes`) `/sessions/session_<id>.json` (hermes-agent
 *   `run_agent.py`, the session log), no working directory recorded; `hermes --resume <id>`
 *   (hermes-agent docs/cli.md). hermes-agent resumes a conversation from its SQLite session
 *   store (`hermes_state.SessionDB.get_messages_as_conversation`), not from this JSON log.
 */
export const HOST_TABLE: Readonly<Record<SessionHost, SessionHostSpec>> = {
  'claude-code': {
    host: 'claude-code',
    name: 'Claude Code',
    root: (env) => join(hostDir('claude-code', env).dir, 'projects'),
    depth: 1,
    ext: '.jsonl',
    isSessionFile: (n) => UUID_JSONL.test(n),
    nameProblem: 'its name is not <session id>.jsonl with a UUID as the id, and Claude Code resumes only such files (claude --resume takes a UUID or the title of one of them)',
    placeProblem: 'it is not in a project folder (projects/<folder>/), where Claude Code keeps each session',
    idFromName: (n) => basename(n, '.jsonl'),
    projectDir: (cwd) => cwd.replace(/[^A-Za-z0-9]/g, '-'),
    versions: ['1.0.0', '3.0.0'],
    versionLabel: (v) => `Claude Code ${v}`,
    resume: (s) => command(['claude', '--resume', s.id], s.cwd),
  },
  codex: {
    host: 'codex',
    name: 'Codex',
    root: (env) => join(hostDir('codex', env).dir, 'sessions'),
    depth: 3,
    ext: '.jsonl',
    isSessionFile: (n) => CODEX_ROLLOUT.test(n),
    nameProblem: 'its name is not rollout-<time>-<UUID>.jsonl, the only name Codex lists and resumes',
    placeProblem: 'it is not in a sessions/YYYY/MM/DD/ folder, where Codex looks for its rollouts',
    idFromName: (n) => CODEX_ROLLOUT.exec(n)?.[1],
    projectDir: null,
    versions: ['0.1.0', '1.0.0'],
    versionLabel: (v) => `Codex ${v}`,
    resume: (s) => command(['codex', 'resume', s.id]),
  },
  pi: {
    host: 'pi',
    name: 'pi',
    root: (env) => env.PI_CODING_AGENT_SESSION_DIR || join(hostDir('pi', env).dir, 'sessions'),
    depth: 1,
    ext: '.jsonl',
    isSessionFile: (n) => n.endsWith('.jsonl'),
    nameProblem: 'its name does not end in .jsonl',
    placeProblem: "it is not in a project folder (sessions/--<folder>--/), where pi looks for a folder's sessions (pi --session FILE still opens it)",
    idFromName: (n) => {
      const m = UUID.exec(n);
      return m?.[0];
    },
    projectDir: (cwd) => `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`,
    versions: ['1', '4'],
    versionLabel: (v) => `pi session format ${v}`,
    resume: (s) => command(['pi', '--session', s.path], s.cwd),
  },
  hermes: {
    host: 'hermes',
    name: 'Hermes',
    root: (env) => join(hostDir('hermes', env).dir, 'sessions'),
    depth: 0,
    ext: '.json',
    isSessionFile: (n) => n.startsWith('session_') && n.endsWith('.json'),
    nameProblem: 'its name is not session_<id>.json, the name of the session logs hermes-agent writes',
    placeProblem: 'it is not directly in the sessions folder',
    idFromName: (n) => basename(n, '.json').slice('session_'.length),
    projectDir: null,
    versions: null,
    versionLabel: (v) => `Hermes ${v}`,
    resume: (s) =>
      command(
        ['hermes', '--resume', s.id],
        undefined,
        'hermes-agent resumes from its own session store (state.db), not from this JSON log: the compacted log is for reading and export, Hermes itself keeps the uncompacted conversation',
      ),
  },
};

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
