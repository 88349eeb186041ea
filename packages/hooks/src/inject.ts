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
 *   `HIVE_MIND_PROMPT_RECALL_TOKENS` (default 2,000; 0 turns it off).
 *
 * In both, a frame that is a near-duplicate of a notes entry or of a frame already injected is
 * left out, a mind that cannot be read is skipped (one line says which file and how to repair
 * it), and a cut item's `get_memory` pointer names its mind. Tokens are counted with the mind's
 * conservative estimate (estimate.ts), so a budget holds in every script. Which frames a session was given is kept in `<home>/sessions/<safe id>.recalled`
 * (one `label:id` per line, append-only), so a prompt never repeats them.
 */
import { appendFileSync, existsSync, readFileSync, readdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  IMPORTANCES,
  Mind,
  MindError,
  Notes,
  estimateTokens,
  evidenceBudget,
  frameInjection,
  isHistoryKind,
  mindHome,
  nearDuplicate,
  normalizeForHash,
  parseEntries,
  recallBlockLabel,
  safeFileName,
  type EvidenceItem,
  type Importance,
  type NotesTarget,
  type RecallResult,
} from '@hive-mind/mind/hook';
import { envNumber, settingDefault } from '@hive-mind/mind/settings';
import { ensureDir } from './mkdir.js';

/** Default total budget of session start, in tokens (under Codex's ~2,500-token inline limit for additional context). */
export const DEFAULT_RECALL_TOKENS = settingDefault('HIVE_MIND_RECALL_TOKENS');
/**
 * Default cap of the per-prompt recall, in tokens (under Codex's ~2,500-token inline limit): the
 * evidence of a strong match fills it, one at the floor gets 60% of it (the mind's `evidenceBudget`),
 * none when nothing clears the floor. 1,200 left LoCoMo's multi-hop questions a turn or two
 * (bench/memory-e2e.mjs (a), mind README "Recall per prompt").
 */
const DEFAULT_PROMPT_RECALL_TOKENS = settingDefault('HIVE_MIND_PROMPT_RECALL_TOKENS');
/** Share of the session-start budget the notes may take; the recall gets the rest. */
export const NOTES_SHARE = 0.6;
/**
 * Share of the budget left after the notes and the important frames that SessionStart keeps for the
 * personal mind's normal rules and facts (what it needs of it, at most this): the workspace's normal
 * frames come first but cannot take it all.
 */
export const PERSONAL_SHARE = 0.35;
/**
 * What an injection pays out of its budget besides the text it shows (tokens, the mind's
 * estimate), in one place: the framing around the whole injection (`frameInjection`: nonce tags,
 * one note line), the blank line before each block after the first, and the least room worth
 * recalling a source into beside its heading.
 */
export const RESERVES = {
  frame: estimateTokens(frameInjection([{ body: '.' }])) + 1,
  blockGap: 2,
  minRecall: 32,
} as const;

/** What the blocks of an injection may take out of `budget` (tokens): the budget less {@link RESERVES}' framing. */
export function insideFrame(budget: number): number {
  return Math.max(0, budget - RESERVES.frame);
}

/** A session's record of what it was given is dropped after this many days. */
const SESSION_RECORD_DAYS = 7;

/** A mind to recall from: its label (`workspace <id>` / `personal`), file, and record key. */
export interface RecallSource {
  key: 'workspace' | 'personal';
  label: string;
  path: string;
}

/** The session-start budget from `HIVE_MIND_RECALL_TOKENS` (a positive integer), else {@link DEFAULT_RECALL_TOKENS}. */
export function recallBudget(env: NodeJS.ProcessEnv): number {
  return envNumber(env, 'HIVE_MIND_RECALL_TOKENS');
}

/** The per-prompt budget from `HIVE_MIND_PROMPT_RECALL_TOKENS` (0 turns per-prompt recall off), else {@link DEFAULT_PROMPT_RECALL_TOKENS}. */
export function promptRecallBudget(env: NodeJS.ProcessEnv): number {
  return envNumber(env, 'HIVE_MIND_PROMPT_RECALL_TOKENS');
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
 * left out says how many and where they are; a file none of whose entries fit gets one line
 * (`N entries in <path>, not shown: budget`), the room for the later files' lines being kept while
 * the earlier ones are filled; a file that cannot be read says so in one line. `entries` are the
 * entries shown (the recall leaves out frames that say the same).
 */
export function notesBlock(env: NodeJS.ProcessEnv, budgetTokens: number, thread?: string): { text: string; tokens: number; entries: string[] } {
  try {
    return notesBlockOf(new Notes({ env }), budgetTokens, thread);
  } catch (e) {
    // a notes file that cannot be read (a directory in its place, bad permissions, a bad limit in
    // the environment) must not cost the session its recall: one line says so instead
    const line = `## hive-mind notes could not be read: ${String((e as Error)?.message ?? e).split('\n')[0]!.slice(0, 200)}`;
    return estimateTokens(line) <= budgetTokens ? { text: line, tokens: estimateTokens(line), entries: [] } : { text: '', tokens: 0, entries: [] };
  }
}

/**
 * The entries of USER.md and of the thread's MEMORY.md (else the global one), as session start
 * injects them (redacted, threat-scanned); [] for a file that cannot be read. The per-prompt
 * recall leaves out frames that say the same.
 */
export function notesEntries(env: NodeJS.ProcessEnv, thread?: string): string[] {
  const out: string[] = [];
  try {
    const notes = new Notes({ env });
    for (const target of [{ file: 'user' }, thread ? { file: 'memory', thread } : { file: 'memory' }] as NotesTarget[]) {
      try {
        out.push(...parseEntries(notes.render(target).text));
      } catch {
        /* an unreadable file: session start said so; nothing to compare against */
      }
    }
  } catch {
    /* a bad notes setting: session start said so */
  }
  return out;
}

function notesBlockOf(notes: Notes, budgetTokens: number, thread?: string): { text: string; tokens: number; entries: string[] } {
  const targets: Array<{ target: NotesTarget; what: string; name: string }> = [
    { target: { file: 'user' }, what: 'what the user asked hive-mind to remember about them', name: 'USER.md' },
    { target: thread ? { file: 'memory', thread } : { file: 'memory' }, what: 'notes kept across sessions', name: 'MEMORY.md' },
  ];
  // read every file first: each one with entries is owed at least its one-line pointer, so an
  // earlier file never takes the whole budget (the defect: MEMORY.md vanished at 300 tokens)
  const files = targets.map(({ target, what, name }) => {
    try {
      const r = notes.render(target);
      return { name, what, path: r.path, entries: parseEntries(r.text) };
    } catch (e) {
      // one unreadable file (a directory in its place, bad permissions) costs only its own block
      return { name, what, path: '', entries: [] as string[], error: `## hive-mind notes: ${name} could not be read (${String((e as Error)?.message ?? e).split('\n')[0]!.slice(0, 160)})` };
    }
  });
  const pointer = (f: (typeof files)[number]) =>
    f.error ?? (f.entries.length ? `## hive-mind notes: ${f.name}: ${f.entries.length} entr${f.entries.length === 1 ? 'y' : 'ies'} in ${f.path}, not shown: budget` : '');
  const cost = (t: string) => (t ? estimateTokens(t) + 2 : 0);
  const parts: string[] = [];
  const shown: string[] = [];
  let left = budgetTokens;
  files.forEach((f, i) => {
    // what the files after this one need for their pointer lines stays reserved
    const reserved = files.slice(i + 1).reduce((n, g) => n + cost(pointer(g)), 0);
    if (f.error || !f.entries.length) {
      if (f.error && cost(f.error) <= left - reserved) {
        parts.push(f.error);
        left -= cost(f.error);
      }
      return;
    }
    const header = `## hive-mind notes: ${f.name} (${f.what}; from ${f.path})`;
    const tailOf = (more: number) => (more ? `\n(${more} more entr${more === 1 ? 'y' : 'ies'} in ${f.path})` : '');
    // the longest tail this block can carry is paid for up front, so adding it never goes over
    const room = left - reserved - estimateTokens(tailOf(f.entries.length));
    const kept: string[] = [];
    let used = cost(header);
    // in file order; an entry too large for what is left is skipped (and counted), the next may fit
    for (const e of f.entries) {
      const c = estimateTokens(e) + 2;
      if (used + c > room) continue;
      kept.push(e);
      used += c;
    }
    const block = kept.length ? `${header}\n${kept.join('\n§\n')}${tailOf(f.entries.length - kept.length)}` : pointer(f);
    if (cost(block) > left - reserved) return;
    parts.push(block);
    shown.push(...kept);
    left -= cost(block);
  });
  const text = parts.join('\n\n');
  return { text, tokens: estimateTokens(text), entries: shown };
}

/** A mind left out of an injection: it could not be opened or read (a corrupt or truncated file, a newer schema, ...). */
export interface SkippedMind {
  key: RecallSource['key'];
  path: string;
  /** The mind's error code (`CORRUPT`, `SCHEMA_NEWER`, `IO`, ...). */
  code: string;
  /** The mind's one-line error, for the hook log. */
  message: string;
}

/** The injected line of a mind left out (no stored byte is touched; the repair command for a corrupt file). */
function skippedLine(s: SkippedMind, label: string): string {
  const why = s.code === 'CORRUPT' ? 'is not a readable .mind file (left untouched; `hive-mind mind doctor --repair` recovers what can be read)' : `could not be read (${s.code}: ${s.message.split('\n')[0]!.slice(0, 160)})`;
  return `## hive-mind memory (${label}): skipped, ${s.path} ${why}`;
}

/** What {@link recallBlocks} gives: the text, its tokens, the ids given (to {@link recordGiven}), and the minds left out. */
export interface RecallBlocks {
  text: string;
  tokens: number;
  ids: Array<[RecallSource['key'], number]>;
  skipped: SkippedMind[];
  /** The contents shown (for a later block's near-duplicate checks). */
  texts?: string[];
}

const rank = (i: Importance) => IMPORTANCES.length - IMPORTANCES.indexOf(i);
const sameAs = (text: string) => (other: string) => nearDuplicate(other, text);

/**
 * Recall from each source in turn within `budgetTokens` (the mind's estimate), as labelled
 * blocks. `recall` is called with the budget left for that source, the ids it must not repeat,
 * and the source. A frame that is a near-duplicate (the mind's `nearDuplicate`: word Jaccard ≥
 * 0.8, same numbers and negations) of one of `seen` (the notes entries injected beside it) or of
 * a frame injected before it is left out, and the source recalled again without it; of two
 * near-duplicate frames of different minds the higher importance is kept (equal: the first
 * source's). A mind that cannot be opened or read (a `MindError`: corrupt, truncated, newer
 * schema) is left out and listed in `skipped`, with one line in the text saying which file and
 * how to repair it (unless `saySkipped` is false: the per-prompt recall, whose session start said
 * it); the other minds are still recalled. Other errors are thrown.
 */
export function recallBlocks(
  sources: RecallSource[],
  budgetTokens: number,
  given: Record<RecallSource['key'], number[]>,
  recall: (m: Mind, budgetTokens: number, exclude: number[], src: RecallSource) => RecallResult,
  open: (path: string) => Mind,
  opts: { seen?: readonly string[]; saySkipped?: boolean; title?: string } = {},
): RecallBlocks {
  const drop: Record<RecallSource['key'], Set<number>> = { workspace: new Set(), personal: new Set() };
  const pass: Omit<Pass, 'mayRedo'> = { sources, budgetTokens, given, recall, open, seen: opts.seen ?? [], drop, saySkipped: opts.saySkipped ?? true, ...(opts.title ? { title: opts.title } : {}) };
  // a second pass only when a later mind's frame outranks an earlier mind's near-duplicate
  const first = recallPass({ ...pass, mayRedo: true });
  return first.redo ? recallPass({ ...pass, mayRedo: false }) : first;
}

/** What one pass of {@link recallBlocks} works with. */
interface Pass {
  sources: RecallSource[];
  budgetTokens: number;
  given: Record<RecallSource['key'], number[]>;
  recall: (m: Mind, budgetTokens: number, exclude: number[], src: RecallSource) => RecallResult;
  open: (path: string) => Mind;
  seen: readonly string[];
  /** Ids each source's recall leaves out (near-duplicates found so far). */
  drop: Record<RecallSource['key'], Set<number>>;
  saySkipped: boolean;
  /** Said after each block's heading (`## hive-mind memory (workspace …): instructions and decisions`). */
  title?: string;
  /** The first pass: a later mind's frame that outranks an earlier mind's near-duplicate asks for a second one (`redo`); the second keeps what it has. */
  mayRedo: boolean;
}

function recallPass(p: Pass): RecallBlocks & { redo: boolean } {
  const { sources, budgetTokens, given, recall, open, seen, drop, saySkipped, mayRedo } = p;
  // each block's heading (and the blank line before it) is paid for out of the budget, counted as the text is
  // its label says `and team` (or `team`) when team frames came out of it (recallBlockLabel); the budget
  // pays for the longest label before the frames are known
  const headingOf = (src: RecallSource, frames: ReadonlyArray<{ scope: RecallResult['frames'][number]['scope'] }> | null) =>
    `## hive-mind memory (${frames ? recallBlockLabel(src.label, frames) : `${src.label} and team`})${p.title ? `: ${p.title}` : ''}`;
  const ROUNDS = 8;
  const notes = seen.map((t) => sameAs(t));
  const kept: Array<{ key: RecallSource['key']; id: number; importance: Importance; same: (t: string) => boolean }> = [];
  const parts: string[] = [];
  const ids: Array<[RecallSource['key'], number]> = [];
  const skipped: SkippedMind[] = [];
  const texts: string[] = [];
  let redo = false;
  let left = budgetTokens;
  for (const src of sources) {
    const headCost = estimateTokens(headingOf(src, null)) + RESERVES.blockGap;
    if (left <= headCost + RESERVES.minRecall || !existsSync(src.path)) continue;
    let r: RecallResult | undefined;
    try {
      const m = open(src.path);
      try {
        // recalled again without the near-duplicates found (each round drops at least one; after
        // ROUNDS the last recall is taken as it is)
        for (let round = 0; round < ROUNDS; round++) {
          r = recall(m, left - headCost, [...given[src.key], ...drop[src.key]], src);
          let dup = false;
          const mine: typeof kept = [];
          for (const f of r.frames) {
            const other = [...kept, ...mine].find((k) => k.same(f.content));
            if (notes.some((n) => n(f.content))) {
              drop[src.key].add(f.id);
              dup = true;
            } else if (other && other.key !== src.key && rank(f.importance) > rank(other.importance) && mayRedo) {
              // the earlier mind's copy goes; its block is already built, so the pass starts over
              drop[other.key].add(other.id);
              redo = true;
              mine.push({ key: src.key, id: f.id, importance: f.importance, same: sameAs(f.content) });
            } else if (other) {
              drop[src.key].add(f.id);
              dup = true;
            } else mine.push({ key: src.key, id: f.id, importance: f.importance, same: sameAs(f.content) });
          }
          if (!dup || round === ROUNDS - 1) {
            kept.push(...mine);
            break;
          }
        }
      } finally {
        m.close();
      }
    } catch (e) {
      if (!(e instanceof MindError)) throw e;
      skipped.push({ key: src.key, path: src.path, code: e.code, message: e.message });
      const line = skippedLine(skipped[skipped.length - 1]!, src.label);
      if (saySkipped && estimateTokens(line) + RESERVES.blockGap <= left) {
        parts.push(line);
        left -= estimateTokens(line) + RESERVES.blockGap;
      }
      continue;
    }
    if (!r || !r.text.trim()) continue;
    for (const f of r.frames) ids.push([src.key, f.id]);
    texts.push(...r.frames.map((f) => f.content));
    parts.push(`${headingOf(src, r.frames)}\n${r.text.trim()}`);
    left -= r.tokens + headCost;
  }
  return { text: parts.join('\n\n'), tokens: budgetTokens - left, ids, skipped, redo, texts };
}

/**
 * The per-prompt recall: the evidence of each source (`evidence`, the mind's `promptEvidence`, told
 * which ids this session was given), strongest first across the minds, within the budget the
 * strongest item earns under `maxTokens` (the mind's `evidenceBudget`: a weak match gets a line or
 * two, a strong one up to the cap), as one labelled block per mind. An item saying the same as a
 * notes entry shown at session start (`seen`), or as an item already taken (a near-duplicate, or a
 * standing frame whose text a turn taken shows), is left out. A mind that cannot be read is left out
 * and listed in `skipped` (the hook log says it; the session start said it in the text).
 */
export function evidenceBlocks(
  sources: RecallSource[],
  maxTokens: number,
  given: Record<RecallSource['key'], number[]>,
  evidence: (m: Mind, exclude: number[], src: RecallSource) => EvidenceItem[],
  open: (path: string) => Mind,
  opts: { seen?: readonly string[] } = {},
): RecallBlocks & { strength: number } {
  const all: Array<EvidenceItem & { src: RecallSource }> = [];
  const skipped: SkippedMind[] = [];
  for (const src of sources) {
    if (!existsSync(src.path)) continue;
    try {
      const m = open(src.path);
      try {
        for (const item of evidence(m, given[src.key], src)) all.push({ ...item, src });
      } finally {
        m.close();
      }
    } catch (e) {
      if (!(e instanceof MindError)) throw e;
      skipped.push({ key: src.key, path: src.path, code: e.code, message: e.message });
    }
  }
  // the ranking's order across the minds (the same blended score); the budget from the strongest match
  all.sort((a, b) => b.score - a.score);
  const strength = Math.max(0, ...all.map((i) => i.strength));
  const budget = evidenceBudget(strength, maxTokens);
  const notes = (opts.seen ?? []).map((t) => sameAs(t));
  const taken: Array<EvidenceItem & { src: RecallSource }> = [];
  const shown = new Set<string>();
  const norm = (t: string) => normalizeForHash(t);
  // the headers of the blocks (one per mind) are paid for when their first item is taken
  const header = (src: RecallSource) => `## hive-mind memory (${src.label})`;
  let used = 0;
  for (const item of all) {
    const key = `${item.src.key}:${item.frame.id}`;
    if (shown.has(key)) continue;
    if (item.texts.some((t) => notes.some((n) => n(t)))) continue;
    const dup = taken.some((k) => k.texts.some((t) => item.texts.some((u) => nearDuplicate(t, u))));
    // a standing frame that a turn taken already shows word for word (the fact harvested from it)
    const inTurn = !isHistoryKind(item.frame.kind) && taken.some((k) => isHistoryKind(k.frame.kind) && k.texts.some((t) => norm(t).includes(norm(item.texts[0]!))));
    if (dup || inTurn) continue;
    const first = !taken.some((k) => k.src.key === item.src.key);
    const cost = estimateTokens(item.line) + 1 + (first ? estimateTokens(header(item.src)) + 2 : 0);
    if (used + cost > budget) continue;
    used += cost;
    taken.push(item);
    for (const id of item.ids) shown.add(`${item.src.key}:${id}`);
  }
  const parts: string[] = [];
  const ids: Array<[RecallSource['key'], number]> = [];
  for (const src of sources) {
    const mine = taken.filter((t) => t.src.key === src.key);
    if (!mine.length) continue;
    parts.push(`${header(src)}\n${mine.map((t) => t.line).join('\n')}`);
    for (const t of mine) for (const id of t.ids) ids.push([src.key, id]);
  }
  const text = parts.join('\n\n');
  return { text, tokens: text ? estimateTokens(text) : 0, ids, skipped, strength, texts: taken.flatMap((t) => t.texts) };
}
