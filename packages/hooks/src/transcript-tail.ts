import { redactSecrets } from '@hive-mind/mind/redact';
import { isHostText } from '@hive-mind/mind/history';
import { hookPolicyOf } from '@hive-mind/mind/hook';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { isAbsolute } from 'node:path';

/** Bytes read from the end of a transcript file: 512 KiB. */
export const TRANSCRIPT_TAIL_BYTES = 512 * 1024;

/** The last turn found in the tail of a host transcript. */
export interface TranscriptTurn {
  /** Text of the last assistant message (text blocks joined), if any. */
  assistantText?: string;
  /** Text of the last real user prompt before it, if any. */
  userText?: string;
}

/**
 * Read at most `maxBytes` from the end of `path` and return the complete lines in it
 * (the first, possibly cut, line is dropped when the read did not start at offset 0).
 * Throws the fs error when the file cannot be opened.
 */
export function readTailLines(path: string, maxBytes = TRANSCRIPT_TAIL_BYTES): string[] {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - maxBytes);
    const len = size - start;
    const buf = Buffer.alloc(len);
    let off = 0;
    while (off < len) {
      const n = readSync(fd, buf, off, len - off, start + off);
      if (n <= 0) break;
      off += n;
    }
    const lines = buf.subarray(0, off).toString('utf8').split('\n');
    if (start > 0) lines.shift();
    return lines.filter((l) => l.trim().length > 0);
  } finally {
    closeSync(fd);
  }
}

function textOfContent(content: unknown, types: string[]): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b): b is { type: string; text: string } => !!b && typeof b === 'object' && types.includes((b as { type?: unknown }).type as string) && typeof (b as { text?: unknown }).text === 'string')
    .map((b) => b.text)
    .join('\n')
    .trim();
}

/**
 * Find the last assistant message (and the user prompt before it) in transcript lines
 * of either host format:
 * - Claude Code JSONL (seen in shared/data/transcripts/claude-code/native-compact-2.1.332.jsonl):
 *   `{"type":"assistant","message":{"content":[{"type":"text","text":...}]}}` and
 *   `{"type":"user","message":{"content":"..."}}` (lines with `isMeta` or `isCompactSummary`,
 *   and `<command-...>`/`<local-command-...>` prompts, are not prompts);
 * - Codex rollout JSONL (shared/data/transcripts/codex/hello-0.171.jsonl):
 *   `{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":...}]}}`,
 *   the same with `role:"user"` and `input_text`, and `event_msg` `task_complete.last_agent_message`.
 * Lines that are not JSON are skipped.
 */
export function lastTurnFromLines(lines: string[]): TranscriptTurn {
  const turn: TranscriptTurn = {};
  for (let i = lines.length - 1; i >= 0; i--) {
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(lines[i]!) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (!o || typeof o !== 'object') continue;
    const type = o.type;
    let role: string | undefined;
    let text = '';
    if (type === 'assistant' || type === 'user') {
      if (o.isMeta || o.isCompactSummary || o.isSidechain) continue;
      const msg = o.message as { role?: string; content?: unknown } | undefined;
      role = type;
      text = textOfContent(msg?.content, ['text']);
    } else if (type === 'response_item') {
      const p = o.payload as { type?: string; role?: string; content?: unknown } | undefined;
      if (p?.type !== 'message' || (p.role !== 'assistant' && p.role !== 'user')) continue;
      role = p.role;
      text = textOfContent(p.content, role === 'assistant' ? ['output_text'] : ['input_text']);
    } else if (type === 'event_msg') {
      const p = o.payload as { type?: string; last_agent_message?: unknown } | undefined;
      if (p?.type === 'task_complete' && typeof p.last_agent_message === 'string' && turn.assistantText === undefined) {
        turn.assistantText = p.last_agent_message;
      }
      continue;
    } else continue;
    if (!text) continue;
    if (role === 'assistant') {
      if (turn.assistantText === undefined && turn.userText === undefined) turn.assistantText = text;
    } else if (role === 'user') {
      if (isHostText(text)) continue;
      turn.userText = text;
      break;
    }
  }
  return turn;
}

/** {@link readTailLines} + {@link lastTurnFromLines}. Throws when the file cannot be read. */
export function lastTurnFromTranscript(path: string, maxBytes = TRANSCRIPT_TAIL_BYTES): TranscriptTurn {
  // redacted here, before any extraction cuts or joins the text (like the stdin payload in the runner)
  const turn = lastTurnFromLines(readTailLines(path, maxBytes));
  for (const k of ['assistantText', 'userText'] as const) if (turn[k] !== undefined) turn[k] = redactSecrets(turn[k]!).text;
  return turn;
}

/** One turn found in a transcript's lines (a prompt or an assistant message with text). */
export interface TranscriptLineTurn {
  role: 'user' | 'assistant';
  text: string;
  /** The record's time, ISO 8601, when it has a valid one. */
  ts?: string;
  /** The host's turn id: Claude Code's `promptId` of the prompt (its replies share it), Codex's `turn_id` of the turn's `turn_context`/`task_started`. */
  hostTurnId?: string;
  /**
   * The working folder the transcript gives for the turn, absolute: Claude Code's `cwd` of its record,
   * Codex's `cwd` of the last `session_meta` or `turn_context` before it (a session that moves to another
   * folder says so there).
   */
  cwd?: string;
}

/**
 * Every turn in transcript lines of either host format (see {@link lastTurnFromLines}), in order:
 * each real user prompt, and each assistant message with text (Claude Code writes one block per
 * line; lines of one `message.id` are one message). Not turns: meta, sidechain and compact-summary
 * records, tool results, text a host or hook wrote (the mind's `isHostText`), Codex developer
 * messages. The same turns `mind import` reads from the file (the mind's history-import.ts), so
 * what a hook backfills and what an import adds later are one. Lines that are not JSON are skipped.
 */
function turnsFromLines(lines: readonly string[], hookPolicies?: string[]): TranscriptLineTurn[] {
  const out: TranscriptLineTurn[] = [];
  let hostTurnId: string | undefined;
  let cwd: string | undefined;
  let reply: { text: string[]; messageId?: string; ts?: string; turnId?: string; cwd?: string } | undefined;
  const flush = () => {
    const text = reply?.text.join('\n').trim();
    if (reply && text) out.push({ role: 'assistant', text, ...(reply.ts ? { ts: reply.ts } : {}), ...(reply.turnId ? { hostTurnId: reply.turnId } : {}), ...(reply.cwd ? { cwd: reply.cwd } : {}) });
    reply = undefined;
  };
  const here = () => (cwd ? { cwd } : {});
  for (const line of lines) {
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (!o || typeof o !== 'object') continue;
    const ts = validTs(o.timestamp);
    const at = folderOf(o.cwd) ?? folderOf((o.type === 'session_meta' || o.type === 'turn_context') && o.payload && typeof o.payload === 'object' ? (o.payload as { cwd?: unknown }).cwd : undefined);
    if (at) cwd = at;
    if (o.type === 'user' || o.type === 'assistant') {
      const msg = o.message as { content?: unknown; id?: unknown } | undefined;
      const text = textOfContent(msg?.content, ['text']);
      // a hook that blocked the agent (Claude Code writes its feedback as a meta user record) is not the
      // user speaking, but what it requires lasts (mind `hookPolicyOf`)
      const policy = hookPolicies && o.type === 'user' && !o.isSidechain && text && isHostText(text) ? hookPolicyOf(text) : undefined;
      if (policy && !hookPolicies!.includes(policy)) hookPolicies!.push(policy);
      if (o.isMeta || o.isCompactSummary || o.isSidechain) continue;
      if (o.type === 'user') {
        if (!text || isHostText(text)) continue;
        flush();
        if (typeof o.promptId === 'string' && o.promptId) hostTurnId = o.promptId;
        out.push({ role: 'user', text, ...(ts ? { ts } : {}), ...(hostTurnId ? { hostTurnId } : {}), ...here() });
        continue;
      }
      const messageId = typeof msg?.id === 'string' ? msg.id : undefined;
      if (reply && (!messageId || reply.messageId !== messageId)) flush();
      if (!text) continue;
      reply ??= { text: [], ...(messageId ? { messageId } : {}), ...(ts ? { ts } : {}), ...(hostTurnId ? { turnId: hostTurnId } : {}), ...here() };
      reply.text.push(text);
    } else if (o.type === 'response_item') {
      const p = o.payload as { type?: string; role?: string; content?: unknown } | undefined;
      if (p?.type !== 'message' || (p.role !== 'assistant' && p.role !== 'user')) continue;
      const text = textOfContent(p.content, p.role === 'assistant' ? ['output_text'] : ['input_text']);
      flush();
      if (!text || (p.role === 'user' && isHostText(text))) continue;
      out.push({ role: p.role, text, ...(ts ? { ts } : {}), ...(hostTurnId ? { hostTurnId } : {}), ...here() });
    } else if (o.type === 'turn_context' || o.type === 'event_msg') {
      const p = o.payload as { type?: string; turn_id?: unknown } | undefined;
      if (typeof p?.turn_id === 'string' && p.turn_id && (o.type === 'turn_context' || p.type === 'task_started')) hostTurnId = p.turn_id;
    }
  }
  flush();
  return out;
}

/** An absolute folder path of a record (POSIX or Windows), at most 4,096 characters; else undefined. */
function folderOf(v: unknown): string | undefined {
  if (typeof v !== 'string' || !v || v.length > 4096 || v.includes('\0')) return undefined;
  return isAbsolute(v) || /^[A-Za-z]:[\\/]/.test(v) ? v : undefined;
}

function validTs(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) || t > Date.now() + 86_400_000 ? undefined : new Date(t).toISOString();
}

/** Bytes read from the end of a transcript at session end to find the turns the hooks missed: 8 MiB. */
export const TRANSCRIPT_BACKFILL_BYTES = 8 * 1024 * 1024;

/**
 * The turns in the last `maxBytes` of the transcript at `path` ({@link turnsFromLines}), each text
 * redacted as it is read. A longer transcript's earlier turns are not read (`mind import` reads
 * the whole file). Throws the fs error when the file cannot be opened.
 */
export function transcriptTurns(path: string, maxBytes = TRANSCRIPT_BACKFILL_BYTES, hookPolicies?: string[]): TranscriptLineTurn[] {
  const turns = turnsFromLines(readTailLines(path, maxBytes), hookPolicies).map((t) => ({ ...t, text: redactSecrets(t.text).text }));
  if (hookPolicies) hookPolicies.splice(0, hookPolicies.length, ...hookPolicies.map((p) => redactSecrets(p).text));
  return turns;
}
