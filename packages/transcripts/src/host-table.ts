/**
 * The host table: one row per agent host hive-mind knows, at the lowest layer that needs it.
 * Everything else that names hosts derives from it: `HostName`, `SessionHost` and `HookHost`
 * (the hooks' `HostId`), the folder resolver (host-dirs.ts), the session table
 * (sessions/hosts.ts), the CLI's help and lists, the MCP tool enums and the web page's preview
 * list. The hooks' registry (packages/hooks/src/registry.ts) adds each hook host's adapter and
 * installer loader, typed against {@link HookHost}, so a row without an adapter does not compile.
 *
 * Imports nothing of this package but types.ts (itself a leaf): the hook path and the MCP
 * server's tool schemas load it (`@hive-mind/transcripts/hosts`) without the readers and writers.
 */
import { basename } from 'node:path';
import type { TranscriptFormat } from './types.js';

// The format table travels with the host table on this lean entry (the MCP tool's enums need both, without the readers).
export { EXPORT_FORMATS, FORMAT_TABLE, FORMATS, type ExportFormat, type FormatRow, type TranscriptFormat } from './types.js';

/** Where a host keeps its own folder: `$variable` when set and not empty, else `~/<base...>`. */
export interface ConfigDirRule {
  /** The variable that moves the folder (none: the host always reads the default). */
  variable?: string;
  /** The default folder, as path parts under `HOME`. */
  base: readonly string[];
  /** Expand a leading `~` or `~/` in the variable's value (pi does; the others take it as written). */
  tilde?: boolean;
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

/** Where a host keeps its session files and how they are named (hosts whose sessions `listSessions` reads). */
export interface SessionRule {
  /** The sessions folder under the host's folder ({@link ConfigDirRule}). */
  sub: string;
  /** A variable that replaces the whole sessions folder when set and not empty. */
  variable?: string;
  /** Folders beside {@link sub}, under the host's folder, where the host moves sessions it archives (read by `hive-mind mind import`, not listed by `listSessions`). */
  archives?: readonly string[];
  /** Folder depth of the session files under the sessions folder (files deeper or shallower are not sessions). */
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

/** A hook host's SessionStart: the native event that injects at a session's start and a payload for it (the web page's preview runs the hook with it). */
export interface SessionStartSample {
  event: string;
  /** The payload, with the fields the host's adapter documents, for a workspace `cwd` and a session id. */
  payload(cwd: string, sessionId: string): Record<string, unknown>;
  /** What the user must know about this host's start (shown beside the preview). */
  note?: string;
}

/** One row of {@link HOSTS}. */
export interface HostRow {
  /** The id every command and file uses (`claude-code`). */
  id: string;
  /** Human name for messages (`Claude Code`). */
  name: string;
  /** The host's own folder (config, sessions, plugins). */
  config: ConfigDirRule;
  /** The transcript format of the host's session files (null: hive-mind reads none of its files). */
  format: TranscriptFormat | null;
  /** Where its session files live (absent: `hive-mind sessions` does not list this host). */
  sessions?: SessionRule;
  /** Present for a host hive-mind installs lifecycle hooks into: its SessionStart sample. */
  hooks?: { sessionStart: SessionStartSample };
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

/** A Claude-style SessionStart payload (Claude Code and Codex share the schema). */
const claudeStyleStart = (cwd: string, session: string) => ({ session_id: session, cwd, hook_event_name: 'SessionStart', source: 'startup' });

/**
 * The hosts, in the order help texts and lists show them. Sources, per host:
 *
 * Folders (`config`):
 * - Claude Code: `$CLAUDE_CONFIG_DIR`, else `~/.claude` (Claude Code docs, "Claude Code settings":
 *   the variable moves every file Claude Code keeps, settings.json, plugins and projects/ included;
 *   the pinned 2.1.332 reads its hooks from `$CLAUDE_CONFIG_DIR/settings.json`, hooks e2e test).
 * - Codex: `$CODEX_HOME` when set and not empty, else `~/.codex` (codex-rs `find_codex_home`; a set
 *   CODEX_HOME must be an existing directory, else Codex refuses to start).
 * - pi: `$PI_CODING_AGENT_DIR` (`~` and `~/…` expanded), else `~/.pi/agent` (pi-mono
 *   `packages/coding-agent` `getAgentDir`).
 * - Hermes: `$HERMES_HOME`, else `~/.hermes` (hermes-agent `hermes_constants.get_hermes_home`).
 * - OpenClaw: `$OPENCLAW_STATE_DIR`, else `~/.openclaw` (OpenClaw CLI docs, environment variables;
 *   `$OPENCLAW_CONFIG_PATH` moves only its config file, hooks/openclaw-install.ts).
 * - Cursor: always `~/.cursor` (user hooks in `~/.cursor/hooks.json`, cursor.com/docs/agent/hooks;
 *   no variable moves it).
 *
 * Sessions (`sessions`):
 * - Claude Code: `<folder>/projects/<slug>/<session id>.jsonl`, where the slug is the working
 *   directory with every character that is not an ASCII letter or digit replaced by `-` (observed
 *   with the pinned 2.1.332, test-support/README.md "Files"). `claude --resume <id>` looks the
 *   session up in the project folder of the current directory, so it runs from the session's cwd.
 *   Known: 1.x and 2.x (real files from 2.1.14 and 2.1.332 in shared/data/transcripts). Only
 *   `<UUID>.jsonl` files are sessions: with a file `notes.jsonl` in the project folder, 2.1.332's
 *   `claude -p --resume notes` answers "Provided value "notes" is not a UUID and does not match any
 *   session title", and a `custom-title` record inside such a file is not found either (tried with
 *   the pinned binary; a UUID-named file's title is).
 * - Codex: `<folder>/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`, first line
 *   `session_meta {id, cwd, cli_version}` (codex-rs `rollout/recorder.rs`, observed with 0.171.0;
 *   the name is parsed by `rollout/list.rs` `parse_timestamp_uuid_from_filename`, which skips any
 *   other name, and a session is found by the UUID in its name); `codex resume <id>` (and
 *   `codex exec resume <id> <prompt>`, from `codex exec resume --help` of 0.171.0) finds a session
 *   by id wherever it was started. Known: the `{timestamp, type, payload}` rollout lines of 0.x.
 * - pi: `<folder>/sessions/--<cwd>--/<time>_<id>.jsonl`, the cwd without its leading separator and
 *   with `/`, `\` and `:` replaced by `-` (pi-mono `packages/coding-agent`
 *   `getSessionDirForCwd` and docs/session.md); the header entry
 *   `{type: 'session', version, id, timestamp, cwd}`; any `*.jsonl` whose first line is that header
 *   is a session, whatever its name (`session-manager.ts` `isValidSessionFile`); `pi --session
 *   <file>` opens one file. `PI_CODING_AGENT_SESSION_DIR` replaces the sessions folder (the lookup
 *   order pi-link documents after pi's: that variable, then a `sessionDir` in settings.json, which
 *   is not read here). Known: session format versions 1 to 3 (docs/session.md "Session Version").
 * - Hermes: `<folder>/sessions/session_<id>.json` (hermes-agent `run_agent.py`, the session log),
 *   no working directory recorded; `hermes --resume <id>` (hermes-agent docs/cli.md). hermes-agent
 *   resumes a conversation from its SQLite session store
 *   (`hermes_state.SessionDB.get_messages_as_conversation`), not from this JSON log.
 *
 * SessionStart samples (`hooks`): the fields each adapter documents (packages/hooks/src/hosts/).
 */
export const HOSTS = [
  {
    id: 'claude-code',
    name: 'Claude Code',
    config: { variable: 'CLAUDE_CONFIG_DIR', base: ['.claude'] },
    format: 'claude-code',
    sessions: {
      sub: 'projects',
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
    hooks: { sessionStart: { event: 'SessionStart', payload: claudeStyleStart } },
  },
  {
    id: 'codex',
    name: 'Codex',
    config: { variable: 'CODEX_HOME', base: ['.codex'] },
    format: 'codex',
    sessions: {
      sub: 'sessions',
      // codex-rs `ARCHIVED_SESSIONS_SUBDIR`: `codex` archives a rollout by moving it there
      archives: ['archived_sessions'],
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
    hooks: { sessionStart: { event: 'SessionStart', payload: claudeStyleStart } },
  },
  {
    id: 'pi',
    name: 'pi',
    config: { variable: 'PI_CODING_AGENT_DIR', base: ['.pi', 'agent'], tilde: true },
    format: 'pi',
    sessions: {
      sub: 'sessions',
      variable: 'PI_CODING_AGENT_SESSION_DIR',
      depth: 1,
      ext: '.jsonl',
      isSessionFile: (n) => n.endsWith('.jsonl'),
      nameProblem: 'its name does not end in .jsonl',
      placeProblem: "it is not in a project folder (sessions/--<folder>--/), where pi looks for a folder's sessions (pi --session FILE still opens it)",
      idFromName: (n) => UUID.exec(n)?.[0],
      projectDir: (cwd) => `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`,
      versions: ['1', '4'],
      versionLabel: (v) => `pi session format ${v}`,
      resume: (s) => command(['pi', '--session', s.path], s.cwd),
    },
  },
  {
    id: 'cursor',
    name: 'Cursor',
    config: { base: ['.cursor'] },
    format: null,
    hooks: {
      sessionStart: {
        event: 'sessionStart',
        payload: (cwd, session) => ({ session_id: session, conversation_id: session, workspace_roots: [cwd], hook_event_name: 'sessionStart' }),
      },
    },
  },
  {
    id: 'openclaw',
    name: 'OpenClaw',
    config: { variable: 'OPENCLAW_STATE_DIR', base: ['.openclaw'] },
    format: null,
    hooks: {
      sessionStart: {
        event: 'agent:bootstrap',
        payload: (cwd, session) => ({ type: 'agent', action: 'bootstrap', sessionKey: session, context: { workspaceDir: cwd, sessionId: session } }),
      },
    },
  },
  {
    id: 'hermes',
    name: 'Hermes',
    config: { variable: 'HERMES_HOME', base: ['.hermes'] },
    format: 'hermes',
    sessions: {
      sub: 'sessions',
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
    hooks: {
      sessionStart: {
        event: 'pre_llm_call',
        payload: (cwd, session) => ({ session_id: session, cwd, hook_event_name: 'pre_llm_call', extra: { is_first_turn: true } }),
        note: "Hermes ignores on_session_start's output; the first turn's pre_llm_call injects (without a first prompt here).",
      },
    },
  },
] as const satisfies readonly HostRow[];

type Row = (typeof HOSTS)[number];

/** Every host id in the table. */
export type HostName = Row['id'];
/** The hosts whose own session folders `listSessions` knows (rows with `sessions`). */
export type SessionHost = Extract<Row, { sessions: object }>['id'];
/** The hosts hive-mind installs lifecycle hooks into (rows with `hooks`; the hooks' `HostId`). */
export type HookHost = Extract<Row, { hooks: object }>['id'];

const ids = <T extends string>(pick: (r: HostRow) => boolean) => HOSTS.filter((r: HostRow) => pick(r)).map((r) => r.id) as unknown as readonly [T, ...T[]];

/** Every host id, in table order. */
export const HOST_NAMES = ids<HostName>(() => true);
/** The hosts with session folders, in table order (the order sessions are listed and searched). */
export const SESSION_HOSTS = ids<SessionHost>((r) => r.sessions !== undefined);
/** The hook hosts, in table order (the order help texts list them). */
export const HOOK_HOSTS = ids<HookHost>((r) => r.hooks !== undefined);

/** The row of `id`, or undefined for a name not in the table. */
export function hostRow(id: string): HostRow | undefined {
  return (HOSTS as readonly HostRow[]).find((r) => r.id === id);
}

/** `a | b | c`, or `a, b or c` (`style: 'or'`): a host list for help texts and errors. */
export function hostList(hosts: readonly string[], style: 'bar' | 'or' = 'bar'): string {
  if (style === 'bar') return hosts.join(' | ');
  return hosts.length < 2 ? hosts.join('') : `${hosts.slice(0, -1).join(', ')} or ${hosts[hosts.length - 1]}`;
}
