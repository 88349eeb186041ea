/**
 * The lifecycle handlers shared by every host (DESIGN.md "Hooks"):
 *
 * - `session-start`: the curated notes, then the important frames of the workspace mind and of the
 *   personal mind, then their normal rules and facts (the workspace's first), in one token budget
 *   (inject.ts), returned as `additionalContext`; then, with a
 *   team connection whose cache is stale, a detached background `team sync` (team-sync.ts);
 * - `user-prompt-submit`: the evidence for the prompt from the history and the standing memory
 *   of both minds (inject.ts `evidenceBlocks`; hosts that can add context to a prompt print it; with
 *   the embeddings plug-in also by the prompt's vector, prompt-vector.ts), then save the prompt as a
 *   turn of the history (history.ts), plus the standing frames it gives (mind `promptStanding`, the
 *   rules `mind import` uses: a lasting rule or preference, a decision, a stated value; `critical`
 *   only under the user's explicit mark) beside it;
 * - `stop`: save the reply (the host's assistant text, or the last assistant message in the tail of
 *   the transcript file) as a turn of the history, and beside it its standing frames (mind
 *   `replyStanding`: where something lives or runs, a switch, a cause, never `critical`) and a rule
 *   of the turn's prompt that the reply acknowledges as lasting (mind `promptStanding` with the
 *   reply); a reply that gives none ("All clean, all committed.") is only a turn of the history;
 * - `pre-compact`: mind cleanup (`mode: 'compact'`, the history's retention from the settings) of the
 *   workspace and personal minds;
 * - `session-end`: the turns of the host's transcript the hooks missed (history.ts
 *   `backfillTranscript`, bounded in bytes and time), then the `stop` capture from the transcript (a
 *   turn interrupted before Stop is still kept; a turn Stop already saved is not saved twice), and
 *   what a hook that blocked the agent requires, as `mind import` keeps it (mind `hookPolicyOf`).
 *
 * Idempotency: every save carries (host, session id, turn id, kind), which the mind
 * treats as an idempotency key, so a retried or doubly installed hook stores nothing twice.
 * Workspace scoping: the workspace is the git root above the event's cwd (workspace.ts),
 * stored in `<home>/workspaces/<id>.mind`.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensureDir } from './mkdir.js';
import { Mind, frameInjection, historyRetention, type RecallSection } from '@hive-mind/mind/hook';
import { promptVector, type PromptVector } from './prompt-vector.js';
import { NOTES_SHARE, PERSONAL_SHARE, RESERVES, evidenceBlocks, givenIds, insideFrame, notesBlock, notesEntries, notesThread, promptRecallBudget, recallBlocks, recallBudget, recordGiven, type RecallSource, type SkippedMind } from './inject.js';
import type { LifecycleInput, LifecycleOutput } from './types.js';
import { mindsFor } from './workspace.js';
import { startTeamSyncIfStale } from './team-sync.js';

/** Options of {@link runLifecycle}. */
export interface LifecycleOptions {
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
  /** SQLite busy timeout when a mind is locked by another process, in ms. Default 1500. */
  busyTimeoutMs?: number;
  /** argv of a background team sync a SessionStart may start (team-sync.ts); none when absent. */
  teamSyncCommand?: readonly string[];
  /** Where a problem that does not fail the event goes (the runner: one line in the hook log). */
  log?: (line: string) => void;
}

export { mindsFor };
export { DEFAULT_RECALL_TOKENS, recallBudget } from './inject.js';

function withMind<T>(path: string, busyTimeoutMs: number, fn: (m: Mind) => T, readonly = false): T {
  // create the mind's directory here with a bounded loop: the recursive mkdir inside
  // Mind.open can spin forever on some paths (see ensureDir); this throws instead
  if (!readonly) ensureDir(dirname(path), 0o700);
  const m = Mind.open(path, { busyTimeoutMs, readonly });
  try {
    return fn(m);
  } finally {
    m.close();
  }
}

/** Run the shared handler of `input.lifecycle`. Rejects on mind errors (the runner logs them and fails open). */
export async function runLifecycle(input: LifecycleInput, opts: LifecycleOptions = {}): Promise<LifecycleOutput> {
  const env = opts.env ?? process.env;
  const now = opts.now ?? (() => new Date());
  const busy = opts.busyTimeoutMs ?? 1500;
  switch (input.lifecycle) {
    case 'session-start': {
      const out = sessionStart(input, env, busy, opts.log);
      // after the recall: the cache it read is what this session gets; the next one gets the synced cache
      if (opts.teamSyncCommand) startTeamSyncIfStale(env, opts.teamSyncCommand);
      return out;
    }
    case 'user-prompt-submit': {
      // recall first: the frames this prompt is about to save must not come back as its context
      const out = await promptRecall(input, env, busy, opts.log);
      (await import('./capture-lifecycles.js')).userPromptSubmit(input, env, now(), busy);
      return out;
    }
    case 'stop':
      (await import('./capture-lifecycles.js')).captureReply(input, env, now(), busy);
      return {};
    case 'session-end':
      (await import('./capture-lifecycles.js')).sessionEnd(input, env, now(), busy, opts.log);
      return {};
    case 'pre-compact':
      cleanupMinds(input, env, now(), busy);
      return {};
    default:
      return {};
  }
}

function sourcesFor(input: LifecycleInput, env: NodeJS.ProcessEnv): RecallSource[] {
  const minds = mindsFor(input, env);
  const out: RecallSource[] = [];
  if (minds.workspace) out.push({ key: 'workspace', label: `workspace ${minds.workspace.id}`, path: minds.workspace.path });
  out.push({ key: 'personal', label: 'personal', path: minds.personal });
  return out;
}

const openReadonly = (busy: number) => (path: string) => Mind.open(path, { busyTimeoutMs: busy, readonly: true });

/**
 * Session start (inject.ts): the notes; for a host whose session starts with its first prompt
 * (Hermes `pre_llm_call`), the evidence for that prompt; then what is important in both minds
 * (critical frames, pending notes, important rules, important facts: the user's marks and what
 * lasts); then the normal rules (instructions, preferences, decisions) and facts, this workspace's
 * first and the personal mind's after them, the personal mind keeping up to
 * {@link PERSONAL_SHARE} of what is left; each fact once (a near-duplicate of a notes entry or of an
 * earlier item is left out); all within `HIVE_MIND_RECALL_TOKENS`, framing included. Never a turn of
 * the history.
 */
function sessionStart(input: LifecycleInput, env: NodeJS.ProcessEnv, busy: number, log?: (line: string) => void): LifecycleOutput {
  const budget = insideFrame(recallBudget(env));
  const notes = notesBlock(env, Math.floor(budget * NOTES_SHARE), notesThread(input, env));
  const sources = sourcesFor(input, env);
  const open = openReadonly(busy);
  const given: Record<RecallSource['key'], number[]> = { workspace: [], personal: [] };
  const blocks: string[] = notes.text ? [notes.text] : [];
  let left = budget - notes.tokens - (notes.text ? RESERVES.blockGap : 0);
  const seen = [...notes.entries];
  const skipped: SkippedMind[] = [];
  const ids: Array<[RecallSource['key'], number]> = [];
  const take = (r: { text: string; tokens: number; ids: Array<[RecallSource['key'], number]>; skipped: SkippedMind[]; texts?: string[] }) => {
    for (const s of r.skipped) if (!skipped.some((k) => k.key === s.key)) skipped.push(s);
    for (const [k, id] of r.ids) given[k].push(id);
    ids.push(...r.ids);
    seen.push(...(r.texts ?? []));
    if (!r.text) return;
    blocks.push(r.text);
    left -= r.tokens + RESERVES.blockGap;
  };
  // Hermes starts a session with its first prompt: the evidence for it comes first
  const query = input.prompt?.trim().slice(0, 1000);
  if (query) {
    const session = input.sessionId ? { host: input.host, sessionId: input.sessionId } : undefined;
    const ev = evidenceBlocks(
      sources,
      Math.min(left, insideFrame(promptRecallBudget(env))),
      given,
      (m, exclude, src) => m.promptEvidence(query, { exclude, mindName: src.key, ...(session ? { session } : {}) }),
      open,
      { seen },
    );
    take(ev);
  }
  const recallOf =
    (name: RecallSection | undefined) =>
    (m: Mind, budgetTokens: number, exclude: number[], src: RecallSource) =>
      m.recall({ ...(name ? { section: name } : {}), budgetTokens, header: false, exclude, mindName: src.key });
  const section = (srcs: RecallSource[], name: RecallSection, title: string, budgetTokens = left) =>
    take(recallBlocks(srcs, Math.min(left, budgetTokens), given, recallOf(name), open, { seen, title, saySkipped: !skipped.length }));
  // 1. what the user marked and what lasts, of both minds: critical frames, pending notes, important rules, important facts
  section(sources, 'important', 'important');
  // 2. the normal rules and facts, this workspace's first; the personal mind keeps up to PERSONAL_SHARE of what is left,
  // so a workspace's recent decisions cannot crowd out the user's preferences, nor the personal mind the project's facts
  const workspace = sources.filter((s) => s.key === 'workspace');
  const personal = sources.filter((s) => s.key === 'personal');
  if (workspace.length) {
    const reserve = personal.length ? recallBlocks(personal, Math.floor(left * PERSONAL_SHARE), given, recallOf(undefined), open, { seen, saySkipped: false }).tokens : 0;
    section(workspace, 'rules', 'instructions and decisions', left - reserve);
    section(workspace, 'facts', 'facts', left - reserve);
  }
  section(personal, 'rules', 'instructions and decisions');
  section(personal, 'facts', 'facts');
  logSkipped(skipped, log);
  recordGiven(env, input.host, input.sessionId, ids, true);
  // one block with a per-injection nonce, stored text neutralized (the mind's neutralize.ts)
  const text = frameInjection(blocks.map((body) => ({ body })));
  return text ? { additionalContext: text } : {};
}

/** One hook-log line per mind an injection left out (the injection says it too, budget permitting). */
function logSkipped(skipped: readonly SkippedMind[], log?: (line: string) => void): void {
  for (const s of skipped) log?.(`${s.key} mind skipped (${s.code}): ${s.message.split('\n')[0]}`);
}

/**
 * The per-prompt recall (inject.ts `evidenceBlocks`): the evidence for the prompt in the history and
 * the standing memory of both minds, not given to this session yet and no turn of this session (its
 * own turns are in its context; the prompt being submitted is not saved yet), within the budget its
 * strength earns; with the embeddings plug-in, also the frames near the prompt's vector
 * (prompt-vector.ts, bounded in time; the lexical side alone when the endpoint fails).
 */
async function promptRecall(input: LifecycleInput, env: NodeJS.ProcessEnv, busy: number, log?: (line: string) => void): Promise<LifecycleOutput> {
  const cap = insideFrame(promptRecallBudget(env));
  const prompt = input.prompt?.trim();
  if (!cap || !prompt) return {};
  const query = prompt.slice(0, 1000);
  const sources = sourcesFor(input, env);
  const vec: PromptVector = await promptVector(sources, query, env, busy);
  if (vec.error) log?.(`embeddings: ${vec.error}; this prompt's recall used words only`);
  const session = input.sessionId ? { host: input.host, sessionId: input.sessionId } : undefined;
  const recalled = evidenceBlocks(
    sources,
    cap,
    givenIds(env, input.host, input.sessionId),
    (m, exclude, src) => m.promptEvidence(query, { exclude, minCosine: vec.minCosine, mindName: src.key, ...(session ? { session } : {}), ...(vec.vector ? { queryVector: vec.vector } : {}) }),
    (path) => Mind.open(path, { busyTimeoutMs: busy, readonly: true, ...(vec.embeddings ? { embeddings: vec.embeddings } : {}) }),
    // the notes the session was given at its start: a frame saying the same is not repeated
    { seen: notesEntries(env, notesThread(input, env)) },
  );
  // a mind left out goes to the hook log only (session start said it in the text)
  logSkipped(recalled.skipped, log);
  recordGiven(env, input.host, input.sessionId, recalled.ids, false);
  return recalled.text ? { additionalContext: frameInjection([{ body: recalled.text }]) } : {};
}

/** Mind cleanup (`mode: 'compact'`) of the event's workspace mind and the personal mind, each when it exists. Throws the first failure after trying both. */
export function cleanupMinds(input: LifecycleInput, env: NodeJS.ProcessEnv, now: Date, busy: number): void {
  const minds = mindsFor(input, env);
  let firstErr: unknown;
  for (const p of [minds.workspace?.path, minds.personal]) {
    if (!p || !existsSync(p)) continue;
    try {
      withMind(p, busy, (m) => m.cleanup({ mode: 'compact', now, history: historyRetention(env) }));
    } catch (e) {
      firstErr ??= e;
    }
  }
  if (firstErr) throw firstErr;
}
