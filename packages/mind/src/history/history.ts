import type { FrameInput, FrameSource, Scope } from '../frame.js';
import { envNumber, settingDefault } from '../settings.js';

/**
 * The history: every user prompt and agent reply a hook sees (and what `mind import` reads from a
 * past session) kept as a **turn** of its session, a frame of kind `prompt` (the user's words) or
 * `reply` (the agent's), importance `normal`, with its host, the host's session id, the host's turn
 * id, the time it was said, the working folder, and its place among the session's other turns
 * (ordered by `createdAt`, then id). README "History".
 *
 * What makes a turn different from the standing memory:
 * - it is kept whole (up to {@link HISTORY_TURN_MAX_CHARS}), never merged with a frame of another
 *   session or turn that says the same ("All clean, all committed." is a turn of every session that
 *   said it);
 * - one turn is stored once: a turn whose session, kind and normalized text (content hash) are
 *   already stored is the same turn, unless both carry a host turn id and they differ (the same
 *   prompt typed twice in one session with two prompt ids is two turns); so a live-captured turn and
 *   the same turn imported later from the transcript are one frame;
 * - only turns are conversation neighbours (the FTS `context` column and the ranking's neighbour
 *   and answer terms: sql.ts, search.ts);
 * - SessionStart's recall never lists a turn; search and the per-prompt recall do;
 * - `mind cleanup` deletes turns by age and by count ({@link HistoryRetention}).
 */

/** Frame kinds of the history: the user's turn and the agent's. */
export const HISTORY_KINDS = ['prompt', 'reply'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/** SQL list of {@link HISTORY_KINDS} (`'prompt', 'reply'`), for `kind IN (...)` (the partial indexes use the same text). */
export const HISTORY_KINDS_SQL = HISTORY_KINDS.map((k) => `'${k}'`).join(', ');

/** True when `kind` is a history turn's kind. */
export function isHistoryKind(kind: string | undefined): kind is HistoryKind {
  return kind === 'prompt' || kind === 'reply';
}

/**
 * Characters of one turn kept at most: a longer turn (a pasted log, a 1 MB prompt) keeps its first
 * three quarters and its last quarter of this, cut at line or sentence boundaries, with a marker
 * line saying how much was left out. 24,000 characters are three parts of `chunkChars` 8,000.
 */
export const HISTORY_TURN_MAX_CHARS = 24_000;

/** The marker put where a long turn was cut. */
export function cutMarker(omitted: number): string {
  return `[… ${omitted.toLocaleString('en-US')} characters of this turn not kept in the history …]`;
}

/** `text` cut to {@link HISTORY_TURN_MAX_CHARS} as {@link HISTORY_TURN_MAX_CHARS} describes, or as it is when it fits. */
export function cutTurn(text: string, max = HISTORY_TURN_MAX_CHARS): { text: string; omitted: number } {
  if (text.length <= max) return { text, omitted: 0 };
  const boundary = (s: string, fromEnd: boolean): number => {
    // the last (or first) line break or sentence end within the window's outer fifth
    const re = /\n|(?<=[.!?。！？])\s/g;
    let best = -1;
    for (const m of s.matchAll(re)) {
      const at = m.index! + m[0].length;
      if (!fromEnd && at >= s.length * 0.8) best = at;
      if (fromEnd && at <= s.length * 0.2) best = at;
      if (fromEnd && at > s.length * 0.2) break;
    }
    return best;
  };
  const headMax = Math.floor(max * 0.75);
  const tailMax = max - headMax;
  let head = text.slice(0, headMax);
  const hb = boundary(head, false);
  if (hb > 0) head = head.slice(0, hb);
  let tail = text.slice(text.length - tailMax);
  const tb = boundary(tail, true);
  if (tb > 0) tail = tail.slice(tb);
  // never split a surrogate pair at either cut
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  if (/^[\uDC00-\uDFFF]/.test(tail)) tail = tail.slice(1);
  const omitted = text.length - head.length - tail.length;
  return { text: `${head.trimEnd()}\n${cutMarker(omitted)}\n${tail.trimStart()}`, omitted };
}

/** One turn of a session, as a hook or an import gives it to {@link turnFrame}. */
export interface TurnInput {
  /** Who said it: the user (a prompt) or the agent (a reply). */
  role: 'user' | 'assistant';
  text: string;
  /** The host that recorded it: `claude-code`, `codex`, `cursor`, `openclaw`, `hermes`, `pi`, ... */
  host: string;
  /** The host's own session id. */
  sessionId: string;
  /** The host's own id of the turn (Claude Code `prompt_id`, Codex `turn_id`), when it has one. */
  hostTurnId?: string;
  /** When it was said, ISO 8601 (default: now). */
  createdAt?: string;
  /** The working folder, absolute. */
  cwd?: string;
  /** The workspace id (git root) of the working folder; with it the turn's scope is `workspace`. */
  workspace?: string;
  /** Default `user_stated` for a prompt, `agent_inferred` for a reply; `import` for `mind import`. */
  source?: FrameSource;
}

/**
 * The frame input of a turn: kind `prompt`/`reply`, importance `normal`, scope `workspace` (with a
 * workspace) or `personal`, `turnId` the host's turn id ('' when none; the store appends the
 * turn's content hash, so several replies of one host turn are several turns).
 */
export function turnFrame(t: TurnInput): FrameInput {
  const scope: Scope = t.workspace ? 'workspace' : 'personal';
  return {
    content: t.text,
    kind: t.role === 'user' ? 'prompt' : 'reply',
    importance: 'normal',
    scope,
    source: t.source ?? (t.role === 'user' ? 'user_stated' : 'agent_inferred'),
    host: t.host,
    sessionId: t.sessionId,
    turnId: t.hostTurnId ?? '',
    ...(t.workspace ? { workspace: t.workspace } : {}),
    ...(t.cwd ? { cwd: t.cwd } : {}),
    ...(t.createdAt ? { createdAt: t.createdAt } : {}),
  };
}

/** The stored `turn_id` of a turn: the host's turn id, `#`, the first 16 hex digits of its content hash. */
export function storedTurnId(hostTurnId: string, contentHash: string): string {
  return `${hostTurnId}#${contentHash.slice(0, 16)}`;
}

/** The host's turn id in a stored turn's `turn_id` ('' when the host gave none). */
export function hostTurnOf(storedTurnId: string): string {
  const i = storedTurnId.lastIndexOf('#');
  return i < 0 ? storedTurnId : storedTurnId.slice(0, i);
}

/**
 * Text a host or a hook wrote into the conversation, not a person or the agent: Claude Code's
 * command wrappers (`<command-name>`, `<local-command-stdout>`, `<local-command-caveat>`),
 * `<system-reminder>`, Codex's `<environment_context>` and `<user_instructions>`, hook feedback
 * ("Stop hook feedback:", "... hook blocking error ..."), interrupted-turn markers. Not a turn.
 */
export function isHostText(text: string): boolean {
  return HOST_TEXT.test(text);
}
const HOST_TEXT =
  /^\s*(?:<(?:command-[\w-]+|local-command-[\w-]+|system-reminder|environment_context|user_instructions|user-prompt-submit-hook|task-notification|bash-(?:input|stdout|stderr))\b|\[Request interrupted\b|[\w-]+(?::[\w*|-]+)? hooks? (?:feedback|blocking error|error)\b|Caveat: The messages below)/i;

/** How long the history is kept (README "History": retention). */
export interface HistoryRetention {
  /** Turns stated (`createdAt`) more than this many days ago are deleted. */
  maxAgeDays: number;
  /** At most this many turns are kept per .mind; the oldest go first. */
  maxTurns: number;
}

/** The defaults: a year of turns, at most 100,000 of them per .mind (README "History" gives what that costs). */
export const DEFAULT_HISTORY_RETENTION: HistoryRetention = { maxAgeDays: settingDefault('HIVE_MIND_HISTORY_DAYS'), maxTurns: settingDefault('HIVE_MIND_HISTORY_MAX_TURNS') };

/** The retention `HIVE_MIND_HISTORY_DAYS` and `HIVE_MIND_HISTORY_MAX_TURNS` set in `env` (settings.ts), else the defaults. */
export function historyRetention(env: NodeJS.ProcessEnv): HistoryRetention {
  return { maxAgeDays: envNumber(env, 'HIVE_MIND_HISTORY_DAYS'), maxTurns: envNumber(env, 'HIVE_MIND_HISTORY_MAX_TURNS') };
}
