/**
 * What a session is given (hooks README "What the model sees"):
 *
 * - at session start: the curated notes (USER.md, then the thread's MEMORY.md, else the global
 *   one), each entry whole, then the recall of the workspace mind and of the personal mind, all in
 *   one budget (`HIVE_MIND_RECALL_TOKENS`, default 1,500 tokens), the notes taking at most
 *   {@link NOTES_SHARE} of it;
 * - per prompt (hosts whose prompt hook can add context): the few frames (at most 3) that pass the
 *   mind's per-prompt floor (`promptFloor`, the mind's prompt-floor.ts: half of the prompt's topic
 *   words, BM25 within 0.7 of the best hit's; with the embeddings plug-in also a cosine floor on
 *   the prompt's vector, prompt-vector.ts), not already given in this session, within
 *   `HIVE_MIND_PROMPT_RECALL_TOKENS` (default 300; 0 turns it off).
 *
 * Tokens are counted with the mind's conservative estimate (estimate.ts), so a budget holds in
 * every script. Which frames a session was given is kept in `<home>/sessions/<safe id>.recalled`
 * (one `label:id` per line, append-only), so a prompt never repeats them.
 */
import { appendFileSync, existsSync, readFileSync, readdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Mind, Notes, estimateTokens, mindHome, parseEntries, safeFileName, type NotesTarget, type RecallResult } from '@hive-mind/mind';
import { ensureDir } from './mkdir.js';

/** Default total budget of session start, in tokens (under Codex's ~2,500-token inline limit for additional context). */
export const DEFAULT_RECALL_TOKENS = 1500;
/** Default budget of the per-prompt recall, in tokens. */
export const DEFAULT_PROMPT_RECALL_TOKENS = 300;
/** Share of the session-start budget the notes may take; the recall gets the rest. */
export const NOTES_SHARE = 0.6;
/** Characters of one item in the per-prompt recall. */
export const PROMPT_ITEM_CHARS = 300;
/** A session's record of what it was given is dropped after this many days. */
const SESSION_RECORD_DAYS = 7;

/** A mind to recall from: its label (`workspace <id>` / `personal`), file, and record key. */
export interface RecallSource {
  key: 'workspace' | 'personal';
  label: string;
  path: string;
}

/** A non-negative integer setting from `env[name]`, else `def` (an unusable value is logged by the runner, see mind settings.ts). */
export function envBudget(env: NodeJS.ProcessEnv, name: string, def: number, allowZero: boolean): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return def;
  const v = Number(raw);
  return Number.isInteger(v) && (v > 0 || (allowZero && v === 0)) ? v : def;
}

/** The session-start budget from `HIVE_MIND_RECALL_TOKENS` (a positive integer), else {@link DEFAULT_RECALL_TOKENS}. */
export function recallBudget(env: NodeJS.ProcessEnv): number {
  return envBudget(env, 'HIVE_MIND_RECALL_TOKENS', DEFAULT_RECALL_TOKENS, false);
}

/** The per-prompt budget from `HIVE_MIND_PROMPT_RECALL_TOKENS` (0 turns per-prompt recall off), else {@link DEFAULT_PROMPT_RECALL_TOKENS}. */
export function promptRecallBudget(env: NodeJS.ProcessEnv): number {
  return envBudget(env, 'HIVE_MIND_PROMPT_RECALL_TOKENS', DEFAULT_PROMPT_RECALL_TOKENS, true);
}

/** The session's record file, or undefined when the event names no session. */
function recordPath(env: NodeJS.ProcessEnv, host: string, sessionId: string | undefined): string | undefined {
  return sessionId ? join(mindHome(env), 'sessions', `${safeFileName(`${host}-${sessionId}`)}.recalled`) : undefined;
}

/** Frame ids given to this session so far, per mind. */
export function givenIds(env: NodeJS.ProcessEnv, host: string, sessionId: string | undefined): Record<RecallSource['key'], number[]> {
  const out: Record<RecallSource['key'], number[]> = { workspace: [], personal: [] };
  const p = recordPath(env, host, sessionId);
  if (!p || !existsSync(p)) return out;
  for (const line of readFileSync(p, 'utf8').split('\n')) {
    const m = /^(workspace|personal):(\d+)$/.exec(line.trim());
    if (m) out[m[1] as RecallSource['key']].push(Number(m[2]));
  }
  return out;
}

/**
 * Record frame ids given to the session: session start replaces the record (a new, resumed or
 * compacted context starts over), a prompt appends to it. Records older than a week are pruned
 * at session start.
 */
export function recordGiven(env: NodeJS.ProcessEnv, host: string, sessionId: string | undefined, ids: Array<[RecallSource['key'], number]>, replace: boolean): void {
  const p = recordPath(env, host, sessionId);
  if (!p || (!ids.length && !replace)) return;
  const dir = join(mindHome(env), 'sessions');
  ensureDir(dir, 0o700);
  if (replace) pruneRecords(dir);
  const text = ids.map(([k, id]) => `${k}:${id}\n`).join('');
  if (replace) writeFileSync(p, text, { mode: 0o600 });
  else appendFileSync(p, text, { mode: 0o600 });
}

function pruneRecords(dir: string): void {
  const cut = Date.now() - SESSION_RECORD_DAYS * 86_400_000;
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.recalled')) continue;
    try {
      if (statSync(join(dir, f)).mtimeMs < cut) unlinkSync(join(dir, f));
    } catch {
      /* another hook pruned it */
    }
  }
}

/**
 * The notes thread of an event: `HIVE_MIND_THREAD` when set, else the host's own thread
 * (`threadKey`: OpenClaw's `sessionKey`), else its session id (Claude Code, Codex and Hermes
 * `session_id`, Cursor `conversation_id`). Notes then inject that thread's MEMORY.md when it has
 * one (`hive-mind notes add --thread KEY`, the MCP notes tool's `thread`), else the global one.
 */
export function notesThread(input: { threadKey?: string; sessionId?: string }, env: NodeJS.ProcessEnv): string | undefined {
  return env.HIVE_MIND_THREAD?.trim() || input.threadKey?.trim() || input.sessionId?.trim() || undefined;
}

/**
 * The notes block of session start: USER.md, then MEMORY.md (the thread's when `thread` names
 * one that exists, else the global one), each under a header naming the file, entries kept whole
 * and in file order when they fit `budgetTokens` (one too large is skipped); a file with entries
 * left out says how many and where they are; a file that cannot be read says so in one line.
 */
export function notesBlock(env: NodeJS.ProcessEnv, budgetTokens: number, thread?: string): { text: string; tokens: number } {
  try {
    return notesBlockOf(new Notes({ env }), budgetTokens, thread);
  } catch (e) {
    // a notes file that cannot be read (a directory in its place, bad permissions, a bad limit in
    // the environment) must not cost the session its recall: one line says so instead
    const line = `## hive-mind notes could not be read: ${String((e as Error)?.message ?? e).split('\n')[0]!.slice(0, 200)}`;
    return estimateTokens(line) <= budgetTokens ? { text: line, tokens: estimateTokens(line) } : { text: '', tokens: 0 };
  }
}

function notesBlockOf(notes: Notes, budgetTokens: number, thread?: string): { text: string; tokens: number } {
  const targets: Array<{ target: NotesTarget; what: string }> = [
    { target: { file: 'user' }, what: 'what the user asked hive-mind to remember about them' },
    { target: thread ? { file: 'memory', thread } : { file: 'memory' }, what: 'notes kept across sessions' },
  ];
  const parts: string[] = [];
  let left = budgetTokens;
  for (const { target, what } of targets) {
    const name = target.file === 'user' ? 'USER.md' : 'MEMORY.md';
    let r: ReturnType<Notes['render']>;
    try {
      r = notes.render(target);
    } catch (e) {
      // one unreadable file (a directory in its place, bad permissions) costs only its own block
      const line = `## hive-mind notes: ${name} could not be read (${String((e as Error)?.message ?? e).split('\n')[0]!.slice(0, 160)})`;
      if (estimateTokens(line) + 2 <= left) {
        parts.push(line);
        left -= estimateTokens(line) + 2;
      }
      continue;
    }
    const entries = parseEntries(r.text);
    if (!entries.length) continue;
    const header = `## hive-mind notes: ${name} (${what}; from ${r.path})`;
    const kept: string[] = [];
    let cost = estimateTokens(header) + 2;
    // in file order; an entry too large for what is left is skipped (and counted), the next may fit
    for (const e of entries) {
      const c = estimateTokens(e) + 2;
      if (cost + c > left) continue;
      kept.push(e);
      cost += c;
    }
    if (!kept.length) continue;
    const more = entries.length - kept.length;
    const tail = more ? `\n(${more} more entr${more === 1 ? 'y' : 'ies'} in ${r.path})` : '';
    const block = `${header}\n${kept.join('\n§\n')}${tail}`;
    parts.push(block);
    left -= estimateTokens(block) + 2;
  }
  const text = parts.join('\n\n');
  return { text, tokens: estimateTokens(text) };
}

/**
 * Recall from each source in turn within `budgetTokens` (the mind's estimate), as labelled
 * blocks. `recall` is called with the budget left for that source and the ids it must not repeat.
 * Returns the text, its tokens, and the ids given (to {@link recordGiven}).
 */
export function recallBlocks(
  sources: RecallSource[],
  budgetTokens: number,
  given: Record<RecallSource['key'], number[]>,
  recall: (m: Mind, budgetTokens: number, exclude: number[]) => RecallResult,
  open: (path: string) => Mind,
): { text: string; tokens: number; ids: Array<[RecallSource['key'], number]> } {
  // Each block's header costs a few tokens; keep 16 in reserve so the sum stays within budget.
  const HEADER_RESERVE = 16;
  const parts: string[] = [];
  const ids: Array<[RecallSource['key'], number]> = [];
  let left = budgetTokens;
  for (const src of sources) {
    if (left <= HEADER_RESERVE + 32 || !existsSync(src.path)) continue;
    const m = open(src.path);
    let r: RecallResult;
    try {
      r = recall(m, left - HEADER_RESERVE, given[src.key]);
    } finally {
      m.close();
    }
    if (!r.text.trim()) continue;
    for (const f of r.frames) ids.push([src.key, f.id]);
    parts.push(`## hive-mind memory (${src.label})\n${r.text.trim()}`);
    left -= r.tokens + HEADER_RESERVE;
  }
  return { text: parts.join('\n\n'), tokens: budgetTokens - left, ids };
}
