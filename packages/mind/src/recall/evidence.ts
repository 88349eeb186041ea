import type { StoreContext } from '../store/context.js';
import { MindError } from '../errors.js';
import { toFrame, type Frame, type Row, type SearchHit, type SearchOptions } from '../frame.js';
import { isHistoryKind } from '../history/history.js';
import { neutralize } from '../safety/neutralize.js';
import { PROMPT_MIN_COSINE, PROMPT_MIN_COSINE_RATIO, topicWords } from './prompt-floor.js';
import { redactSecrets } from '../safety/redact.js';
import { DERIVED_WORD_SHARE, FREQUENT_DOCS, matchedShare, searchFrames } from './search.js';
import { isTurn, turnsBeside } from '../store/sql.js';
import { presetDone } from '../store/redaction-stamp.js';
import { contentHash, preview, wordSet } from '../text.js';
import { SENTENCE_CUT, inPassing, remarksOnly, turnSentences } from './in-passing.js';
import { ROLE as WORD_ROLE } from '../harvest/standing-lexicon.js';
import { acknowledgesOnly, replyStanding } from '../harvest/standing.js';
import { scanThreats } from '../safety/threats.js';
import { nearestFrames } from './vectors.js';

/**
 * The evidence for a prompt (README "Recall per prompt"): the turns of the history and the standing
 * frames that answer it, each with what makes it readable (the question a reply answers, the
 * answer a question got), its date, cut at sentence boundaries, and how strongly it matches.
 *
 * The floor: a candidate (a search hit of the prompt) is evidence only when what it shows (the
 * frame, and the neighbour shown beside it) holds at least {@link EVIDENCE_MIN_SHARE} of the
 * prompt's topic words (stop words and task words left out, prompt-floor.ts), each matched as the
 * index matches it (stemmed, CJK segmented), **and** those words carry at least
 * {@link EVIDENCE_MIN_WEIGHT} of the topic words' weight, a word's weight being its rarity in the
 * mind (IDF): a turn sharing only "test" with "which test runner do we use now?" is no evidence; one
 * holding "vitest" and "runner" is. Its strength (0..1) is that weighted share. When one candidate
 * clears the floor, the others holding at least {@link EVIDENCE_ITEM_WEIGHT} of the weight and
 * {@link EVIDENCE_MIN_RELATIVE} of the best one's strength come with it (a question's evidence is
 * often a turn holding only its rarest word), at most {@link EVIDENCE_MAX_ITEMS}, in the ranking's
 * order (search.ts). A prompt with no topic word, or whose candidates all miss the floor, gets nothing.
 *
 * The caller's budget grows with the strength ({@link evidenceBudget}): a weak match gets a line or
 * two, a strong one up to the whole budget.
 */

/** Share of the prompt's topic words what an item shows must hold. */
export const EVIDENCE_MIN_SHARE = 0.5;
/** Share of the topic words' weight (IDF) what an item shows must hold. */
export const EVIDENCE_MIN_WEIGHT = 0.5;
/** Beside the items that clear the floor: share of the topic words' weight an item must hold, at least. */
export const EVIDENCE_ITEM_WEIGHT = 0.2;
/** Beside the items that clear the floor: an item's strength relative to the best one's, at least. */
export const EVIDENCE_MIN_RELATIVE = 0.25;
/** Words a turn must hold beside stop and task words (prompt-floor.ts) to be evidence: a remark in passing holds fewer. */
const EVIDENCE_MIN_TURN_WORDS = 3;
/**
 * Items returned at most (the budget still caps what is shown). 25 rather than 15: LoCoMo's evidence
 * delivered 0.535 -> 0.543 on the first 40 questions of each conversation (multi-hop 0.359 -> 0.379:
 * a question's turns are in several sessions), p90 tokens 1,355 -> 1,498, p50 the same.
 */
export const EVIDENCE_MAX_ITEMS = 25;
/**
 * Characters of a matching turn shown at most. Measured (bench/memory-e2e.mjs (a), conversation 26,
 * 80 questions): 480 shrinking with the strength to 240, with a neighbour of 220, delivered 0.411 of
 * the evidence; 800 and 600 delivered 0.510 (a question's evidence is often the neighbour, and a
 * neighbour cut to its matching sentences loses the fact beside them).
 */
export const EVIDENCE_ITEM_CHARS = 800;
/** Characters of the neighbour shown beside a turn (the question it answers, the answer it got). */
const EVIDENCE_NEIGHBOUR_CHARS = 600;
/** Words a neighbour must hold beside stop and task words (prompt-floor.ts) to be shown: "alright, where were we?" holds one. */
const EVIDENCE_NEIGHBOUR_WORDS = 2;
/** Share of the cap {@link evidenceBudget} gives a match at the floor (all of it for a full match). */
const EVIDENCE_BUDGET_FLOOR = 0.6;

/** One piece of evidence: a frame (with its neighbour, for a turn), rendered. */
export interface EvidenceItem {
  /** The frame that matched. */
  frame: Frame;
  /** The neighbouring turn shown beside it, when it is a turn that needs one to be read. */
  neighbour?: Frame;
  /** Ids shown (the frame's, then its neighbour's): what the session was given. */
  ids: number[];
  /** 0..1: the IDF-weighted share of the prompt's topic words that the item holds. */
  strength: number;
  /** The search score of the frame (README "Ranking"). */
  score: number;
  /** The rendered line (`- [#id …] …`), redacted, threat-scanned and neutralized. */
  line: string;
  /** The texts shown, for the caller's near-duplicate checks. */
  texts: string[];
}

/** Options of {@link promptEvidence}. */
export interface EvidenceOptions {
  /** The prompt's vector (Mind.embedQuery): frames near it that pass the cosine floor are candidates too. */
  queryVector?: Float32Array;
  minCosine?: number;
  scopes?: SearchOptions['scopes'];
  /** Frame ids not to return (what the session was given). */
  exclude?: readonly number[];
  /** The session asking: its own turns are in its context already (and the prompt itself must not come back). */
  session?: { host: string; sessionId: string };
  /** The store this mind is to the reader (`get_memory id N mind NAME`). */
  mindName?: 'personal' | 'workspace';
}

/**
 * Words that say when rather than what (month and day names, "yesterday", "last week", a year; English,
 * French, German): the
 * time of a turn answers them (search's stated term), its words rarely do, so the floor leaves them out.
 */
export const TIME_WORDS: ReadonlySet<string> = new Set(
  `january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec
   monday tuesday wednesday thursday friday saturday sunday today yesterday tomorrow tonight morning evening night week weeks weekend month months
   year years day days ago last recently recent lately earlier since moment
   janvier février mars avril mai juin juillet août septembre octobre novembre décembre lundi mardi mercredi jeudi vendredi samedi dimanche
   aujourd'hui hier demain semaine semaines mois année années an ans jour jours dernier dernière récemment
   januar februar märz juni juli oktober dezember montag dienstag mittwoch donnerstag freitag samstag sonntag heute gestern morgen
   woche wochen monat monate jahr jahre tag tage letzte letzten letzter kürzlich neulich`.split(/\s+/),
);

/**
 * The prompt's topic words for the evidence floor: prompt-floor.ts `topicWords` without {@link TIME_WORDS},
 * years and single digits (the `3` of `\d{3}` ties no turn to a prompt: most of a coding session's turns hold one).
 */
export function evidenceTopic(prompt: string): string[] {
  return topicWords(prompt).filter((w) => !TIME_WORDS.has(w) && !/^(?:19|20)\d\d$/.test(w) && !/^\d$/.test(w));
}

/**
 * The total budget in tokens for evidence of `strength` (0..1) under a cap of `maxTokens`:
 * {@link EVIDENCE_BUDGET_FLOOR} of it for a match at the floor, all of it for a full one. (A fifth at the
 * floor cut LoCoMo's multi-hop questions to one or two turns: bench/memory-e2e.mjs (a).)
 */
export function evidenceBudget(strength: number, maxTokens: number): number {
  if (!(strength > 0) || maxTokens <= 0) return 0;
  const t = Math.min(1, Math.max(0, (strength - EVIDENCE_MIN_WEIGHT) / (1 - EVIDENCE_MIN_WEIGHT)));
  return Math.round(maxTokens * (EVIDENCE_BUDGET_FLOOR + (1 - EVIDENCE_BUDGET_FLOOR) * t));
}

/** A turn row with its neighbours' ids. */
interface Around {
  prev?: number;
  next?: number;
}

/**
 * The evidence for `prompt` in this mind, strongest first (module comment). Throws `INVALID` for a
 * bad option; a prompt with no searchable word gives [].
 */
export function promptEvidence(ctx: StoreContext, prompt: string, opts: EvidenceOptions = {}): EvidenceItem[] {
  const minCosine = opts.minCosine ?? PROMPT_MIN_COSINE;
  if (!(minCosine >= -1 && minCosine <= 1)) throw new MindError(`promptEvidence option \`minCosine\` must be a number in -1..1, got ${opts.minCosine}`, 'INVALID');
  const topic = evidenceTopic(prompt);
  if (!topic.length) return [];
  const skip = new Set(opts.exclude ?? []);
  const own = opts.session;
  const promptHash = contentHash(prompt.trim());
  const scopes = opts.scopes && opts.scopes.length ? { scopes: opts.scopes } : {};
  let hits: SearchHit[] = [];
  try {
    hits = searchFrames(ctx, prompt, { limit: 40, ...scopes });
  } catch (e) {
    if ((e as { code?: string }).code !== 'EMPTY_QUERY') throw e;
  }
  // with the embeddings plug-in: the frames near the prompt's vector (a prompt in another language
  // than the memory shares no word with it), within PROMPT_MIN_COSINE_RATIO of the nearest
  const cfg = ctx.config.embeddings;
  const byVector = new Set<number>();
  const isOwn = (f: Frame) => !!own && f.host === own.host && f.sessionId === own.sessionId && isHistoryKind(f.kind);
  // not this session's own turns (they are in its context), not the prompt itself saved earlier
  const allowed = (f: Frame) => !skip.has(f.id) && !(f.partOf != null && skip.has(f.partOf)) && !isOwn(f) && !(isHistoryKind(f.kind) && f.contentHash === promptHash);
  if (opts.queryVector && cfg) {
    const have = new Set(hits.map((h) => h.id));
    // a question turn near the prompt is the same question asked before, not what answers it
    const near = nearestFrames(ctx, cfg, opts.queryVector, { limit: 8 + skip.size, minCosine, ...scopes }).filter(
      (n) => allowed(toFrame(n.frame)) && !(isHistoryKind(n.frame.kind) && asksOnly(n.frame.content, [])),
    );
    const best = near[0]?.cosine ?? 0;
    for (const n of near) {
      if (have.has(n.frame.id) || n.cosine < PROMPT_MIN_COSINE_RATIO * best) continue;
      hits.push({ ...toFrame(n.frame), bm25: 0, matched: matchedShare(n.frame.content, topic), score: n.cosine });
      byVector.add(n.frame.id);
    }
  }
  hits = hits.filter(allowed);
  if (!hits.length) return [];
  return ctx.guard(() => {
    const around = new Map<number, Around>();
    const rows = new Map<number, Frame>();
    // the turns around the history hits among `list`, and those turns' rows
    const lookAround = (list: readonly SearchHit[]) => {
      for (const [id, a] of aroundOf(ctx, list.filter((h) => isHistoryKind(h.kind) && h.sessionId && h.part === 0 && !around.has(h.id)).map((h) => h.id))) around.set(id, a);
      const missing = [...new Set([...around.values()].flatMap((a) => [a.prev, a.next]).filter((id): id is number => id !== undefined && !rows.has(id)))];
      if (missing.length)
        for (const r of ctx.stmt('SELECT * FROM frames WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(missing)) as Row[]) rows.set(r.id, toFrame(r));
    };
    lookAround(hits);
    hits = instead(hits, topic, around, rows, allowed);
    lookAround(hits);
    // which neighbour makes a turn readable: the question a turn answers, the answer a question got
    const shownBeside = (h: Frame): Frame | undefined => {
      const a = around.get(h.id);
      if (!a) return undefined;
      const prev = a.prev !== undefined ? rows.get(a.prev) : undefined;
      const next = a.next !== undefined ? rows.get(a.next) : undefined;
      // a question is a sentence ending with "?" (not a `?` inside code); an answer that only
      // announces the next step or reports status says nothing the question needs
      // a neighbour of a word or two beside stop and task words ("alright, where were we?", "what did
      // i just execute?") makes nothing readable: it is a remark, never shown
      const says = (f: Frame) => topicWords(f.content).length >= EVIDENCE_NEIGHBOUR_WORDS;
      if (prev && asks(prev.content) && !skip.has(prev.id) && says(prev)) return prev;
      // the answer beside a question the user asked; what follows an agent's question (an offer:
      // "Want me to begin?") is the user's next request or a reaction, not an answer it needs
      if (next && h.kind === 'prompt' && asks(h.content) && !skip.has(next.id) && !(next.kind === 'reply' && (narrationOnly(next.content) || statusOnly(next.content))) && says(next)) return next;
      return undefined;
    };
    const beside = new Map(hits.map((h) => [h.id, shownBeside(h)] as const));
    const ids = [...new Set([...hits.map((h) => h.id), ...[...beside.values()].filter((f): f is Frame => !!f).map((f) => f.id)])];
    const held = holding(ctx, topic, ids);
    const weight = idfWeights(ctx, topic);
    const total = topic.reduce((a, w) => a + weight.get(w)!, 0) || 1;
    // what the session was given (SessionStart's standing frames, earlier prompts' evidence) is not shown again inside a turn
    const given = givenStanding(ctx, skip);
    const prevOf = (f: Frame) => {
      const p = around.get(f.id)?.prev;
      return p !== undefined ? rows.get(p) : undefined;
    };
    const reading = new Map<number, Reading>();
    const readOf = (f: Frame) => {
      let r = reading.get(f.id);
      if (!r) {
        // a reply to a reply: a prompt after the agent's answer, a reply to a prompt that was all remarks
        const prev = prevOf(f);
        const reaction = !!prev && (f.kind === 'prompt' ? prev.kind === 'reply' : prev.kind === 'prompt' && remarksOnly(turnSentences(prev.content), false));
        reading.set(f.id, (r = readTurn(f, topic, weight, total, given, reaction)));
      }
      return r;
    };
    const measured = hits.map((h) => {
      // a neighbour that is all remarks, or says only what the session was given, is not shown
      const nb0 = beside.get(h.id);
      const nb = nb0 && isHistoryKind(nb0.kind) && readOf(nb0).empty ? undefined : nb0;
      // a word found only in what is left out (a remark, what the session was given) is not held
      const own = (f: Frame) => {
        const words = held.get(f.id) ?? new Set<string>();
        if (!isHistoryKind(f.kind)) return [...words];
        const r = readOf(f);
        return [...words].filter((w) => !r.gone.has(w));
      };
      const words = new Set([...own(h), ...(nb ? own(nb) : [])]);
      const share = words.size / topic.length;
      const weighted = [...words].reduce((a, w) => a + weight.get(w)!, 0) / total;
      // a frame the prompt's vector found (past the cosine floor) counts as a match at the floor
      const strength = byVector.has(h.id) ? Math.max(weighted, EVIDENCE_MIN_WEIGHT) : weighted;
      return { h, nb, share, strength, floor: byVector.has(h.id) || (share >= EVIDENCE_MIN_SHARE && weighted >= EVIDENCE_MIN_WEIGHT) };
    });
    // the prompt has evidence only when one candidate clears the floor; then the others that hold
    // enough of its weight come with it, in the ranking's order
    const best = Math.max(0, ...measured.filter((m) => m.floor).map((m) => m.strength));
    if (!best) return [];
    const items: EvidenceItem[] = [];
    const taken = new Set<number>();
    for (const { h, nb, strength, floor } of measured) {
      if (items.length >= EVIDENCE_MAX_ITEMS) break;
      if (!floor && (strength < EVIDENCE_ITEM_WEIGHT || strength < EVIDENCE_MIN_RELATIVE * best)) continue;
      // a turn shown as another's neighbour is not shown again on its own (and the reverse)
      if (taken.has(h.id) || (nb && taken.has(nb.id))) continue;
      // a question is evidence only with its answer: the same question asked before, unanswered, says nothing
      if (isHistoryKind(h.kind) && !(nb && nb.createdAt >= h.createdAt) && asksOnly(h.content, topic)) continue;
      // an agent's message that only says what it will do next ("Now let me rename main.ts:") states nothing,
      // nor does a turn of a word or two beside the task words ("run the tests again", "All clean, all committed.")
      if (h.kind === 'reply' && narrationOnly(h.content)) continue;
      // a status report ("All 34 tests pass.", "Reverted the navbar change.") is evidence only when it
      // answers the prompt itself (clears the floor), never one riding along with a better match
      if (h.kind === 'reply' && !floor && statusOnly(h.content)) continue;
      if (isHistoryKind(h.kind) && topicWords(h.content).length < EVIDENCE_MIN_TURN_WORDS) continue;
      // a turn that is all remarks, or says only what the session was given, is no evidence (its neighbour may be, on its own)
      if (isHistoryKind(h.kind) && readOf(h).empty) continue;
      const rendered = renderEvidence(h, nb, topic, {
        stamped: presetDone(ctx),
        mindName: opts.mindName,
        dropOf: (f) => (isHistoryKind(f.kind) ? readOf(f).dropped : undefined),
      });
      if (!rendered) continue;
      taken.add(h.id);
      if (nb) taken.add(nb.id);
      items.push({ frame: h, ...(nb ? { neighbour: nb } : {}), ids: nb ? [h.id, nb.id] : [h.id], strength, score: h.score, line: rendered.line, texts: rendered.texts });
    }
    return items;
  });
}

/** For turns `ids`: the ids of the turns just before and after each in its session. */
function aroundOf(ctx: StoreContext, ids: number[]): Map<number, Around> {
  const out = new Map<number, Around>();
  if (!ids.length) return out;
  const found = ctx
    .stmt(`SELECT f.id AS id, (${turnsBeside('f', 'before', 1)}) AS prev, (${turnsBeside('f', 'after', 1)}) AS next FROM frames f WHERE f.id IN (SELECT value FROM json_each(?)) AND ${isTurn('f')}`)
    .all(JSON.stringify(ids)) as Array<{ id: number; prev: number | null; next: number | null }>;
  for (const r of found) out.set(r.id, { ...(r.prev != null ? { prev: r.prev } : {}), ...(r.next != null ? { next: r.next } : {}) });
  return out;
}

/**
 * `hits` with each agent reply that only agrees to the prompt before it (harvest `acknowledgesOnly`:
 * "Noted, I will write commit messages that way.") replaced by that prompt, at the reply's place and
 * score: the user's statement is the memory, the reply borrowed its words. Dropped when the prompt is
 * a hit already or is not to be shown (`allowed`: what the session was given, its own turns).
 */
function instead(hits: readonly SearchHit[], topic: readonly string[], around: ReadonlyMap<number, Around>, rows: ReadonlyMap<number, Frame>, allowed: (f: Frame) => boolean): SearchHit[] {
  const have = new Set(hits.map((h) => h.id));
  const out: SearchHit[] = [];
  for (const h of hits) {
    const p = h.kind === 'reply' ? around.get(h.id)?.prev : undefined;
    const prompt = p !== undefined ? rows.get(p) : undefined;
    if (!prompt || prompt.kind !== 'prompt' || !acknowledgesOnly(h.content, prompt.content)) {
      out.push(h);
      continue;
    }
    if (have.has(prompt.id) || !allowed(prompt)) continue;
    have.add(prompt.id);
    out.push({ ...prompt, bm25: h.bm25, matched: matchedShare(prompt.content, topic), score: h.score });
  }
  return out;
}

/** For each of `ids`: the topic words its own text and tags hold, matched as the index matches them (stemmed, segmented). */
function holding(ctx: StoreContext, topic: readonly string[], ids: readonly number[]): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  const q = ctx.stmt('SELECT rowid AS id FROM frames_fts WHERE frames_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))');
  const list = JSON.stringify(ids);
  for (const w of topic)
    for (const r of q.all(`{content tags} : "${w.replace(/"/g, '')}"`, list) as Array<{ id: number }>) {
      let s = out.get(r.id);
      if (!s) out.set(r.id, (s = new Set()));
      s.add(w);
    }
  return out;
}

/**
 * Each topic word's weight: ln(1 + N / df), its inverse document frequency in this mind (df counted
 * up to FREQUENT_DOCS, N the highest id). A word no frame holds (a typo, a word the memory never used)
 * weighs the mean of the others: as the rarest of all (df 1) it took most of the weight while no frame
 * can hold it, so "How long has Melanie been practicing art?" cleared the floor nowhere; left at 0, a
 * prompt the memory knows two common words of cleared it (unrelated prompts of bench/memory-e2e (b)
 * given recall 2/80 -> 5/80). It still counts in the share of topic words ({@link EVIDENCE_MIN_SHARE}).
 */
function idfWeights(ctx: StoreContext, topic: readonly string[]): Map<string, number> {
  const n = Math.max(1, Number((ctx.stmt('SELECT max(id) AS n FROM frames').get() as { n: number | null }).n ?? 1));
  const count = ctx.stmt(`SELECT count(*) AS n FROM (SELECT rowid FROM frames_fts WHERE frames_fts MATCH ? LIMIT ${FREQUENT_DOCS})`);
  const df = topic.map((w) => (count.get(`{content tags} : "${w.replace(/"/g, '')}"`) as { n: number }).n);
  const known = df.filter((d) => d > 0).map((d) => Math.log(1 + n / d));
  const unknown = known.length ? known.reduce((a, b) => a + b, 0) / known.length : 1;
  return new Map(topic.map((w, i) => [w, df[i]! > 0 ? Math.log(1 + n / df[i]!) : unknown]));
}

/** What of a turn can be shown for a prompt ({@link readTurn}). */
interface Reading {
  /** Its sentences left out: said in passing without the prompt's specific words, or saying what the session was given. */
  dropped: ReadonlySet<string>;
  /** Topic words found only in the sentences saying what the session was given: they do not count for the turn. */
  gone: ReadonlySet<string>;
  /** Every sentence of it is left out. */
  empty: boolean;
}

/**
 * The standing frames among `ids` (what the session was given: SessionStart's frames, earlier evidence), as word sets.
 */
function givenStanding(ctx: StoreContext, ids: ReadonlySet<number>): Array<Set<string>> {
  if (!ids.size) return [];
  const rows = ctx.stmt('SELECT content, kind FROM frames WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify([...ids])) as Array<{ content: string; kind: string }>;
  return rows.filter((r) => !isHistoryKind(r.kind)).map((r) => wordSet(r.content)).filter((w) => w.size > 0);
}

/** Share of `a`'s words that `b` holds. */
const heldShare = (a: ReadonlySet<string>, b: ReadonlySet<string>) => {
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return a.size ? n / a.size : 0;
};

/**
 * Which sentences of turn `f` are shown for a prompt of `topic` (README "Recall per prompt"): a sentence
 * said in passing (in-passing.ts) only when it holds the prompt's specific words itself (at least
 * {@link EVIDENCE_MIN_WEIGHT} of the topic words' weight); a sentence saying what a standing frame the
 * session was given says (`given`, a frame whose words the turn holds, {@link DERIVED_WORD_SHARE} of
 * them, as search.ts reads a frame harvested from a turn) never. `reaction`: the turn replies to a
 * reply (in-passing.ts `SentencePlace`).
 */
function readTurn(f: Frame, topic: readonly string[], weight: ReadonlyMap<string, number>, total: number, given: ReadonlyArray<Set<string>>, reaction: boolean): Reading {
  const sentences = turnSentences(f.content);
  const paragraphs = f.content.trim().split(/\n\s*\n/);
  const opening = turnSentences(paragraphs[0] ?? '').length;
  const more = paragraphs.length > 1;
  const turnWords = given.length ? wordSet(f.content) : new Set<string>();
  const repeated = given.filter((g) => heldShare(g, turnWords) >= DERIVED_WORD_SHARE);
  const dropped = new Set<string>();
  const givenHere = new Set<string>();
  const kept: string[] = [];
  sentences.forEach((x, i) => {
    const own = repeated.length ? wordSet(x) : undefined;
    if (own && own.size > 0 && repeated.some((g) => heldShare(own, g) >= DERIVED_WORD_SHARE)) {
      dropped.add(x);
      givenHere.add(x);
      return;
    }
    const words = topic.filter((w) => matchedShare(x, [w]) > 0);
    const specific = words.reduce((a, w) => a + weight.get(w)!, 0) / total >= EVIDENCE_MIN_WEIGHT;
    if (!specific && inPassing(x, { first: i === 0, opening: i < opening, more, agent: f.kind === 'reply', reaction })) dropped.add(x);
    else kept.push(x);
  });
  // what the session was given does not count; a remark's words still do (they tie the turn to the prompt:
  // "Thanks, Melanie! I painted it after I visited the beach." is Melanie's turn only by its remark)
  const gone = new Set(topic.filter((w) => [...givenHere].some((x) => matchedShare(x, [w]) > 0) && !sentences.some((x) => !givenHere.has(x) && matchedShare(x, [w]) > 0)));
  return { dropped, gone, empty: sentences.length > 0 && kept.length === 0 };
}

/**
 * An agent's step announcements, sentence by sentence: "Let me …", "Now let's …", "I'll …", "I need
 * to …", "First, …", "Next, …" (English; a message in another language is never taken for one).
 */
const NARRATION = /^(?:(?:ok(?:ay)?|good|great|perfect|now|next|first|then|alright|right)[,!.]?\s+)*(?:let me|let's|let us|i'll|i will|i need to|i'm going to|i am going to|we need to|we'll|time to)\b[^.!?]*[.!?:]?$/i;

/**
 * True when every sentence of an agent's message announces its next step ({@link NARRATION}), or
 * acknowledges ("Good.", "Done."); or when a message of one or two sentences ends with a colon (in any
 * language): it announces what follows it, a tool call or a listing the turn's text does not hold
 * ("Now find where links are rendered in the markdown component:").
 */
function narrationOnly(text: string): boolean {
  const sentences = text.replace(/\s+/g, ' ').trim().split(/(?<=[.!?:])\s+/).filter(Boolean);
  if (sentences.length > 0 && sentences.length <= 2 && /[:：]$/.test(sentences[sentences.length - 1]!)) return true;
  return sentences.length > 0 && sentences.length <= 4 && sentences.every((x) => NARRATION.test(x) || /^(?:ok(?:ay)?|good|great|perfect|done|right|alright|got it|noted)[.!]?$/i.test(x));
}

/**
 * True when an agent's message only reports status: each of its sentences (at most 4) is a status
 * report by the standing rules' words (standing-lexicon.ts `status`, every language there: "All 34
 * tests pass.", "Alle Tests sind grün.", "すべてのテストが成功しました。") and it establishes nothing
 * lasting (standing.ts `replyStanding` gives no frame).
 */
function statusOnly(text: string): boolean {
  const sentences = text.replace(/\s+/g, ' ').trim().split(/(?<=[.!?。！？])\s*/).filter(Boolean);
  return sentences.length > 0 && sentences.length <= 4 && sentences.every((x) => WORD_ROLE.status.test(x)) && replyStanding(text).length === 0;
}

/**
 * A sentence said in passing around what a turn states: an offer to be asked ("You can ask me questions
 * if you need clarification.", "Let me know if …", "Feel free to …"). English only, like {@link NARRATION}.
 */
const ASIDE = /^(?:(?:and|also|oh|btw|so)[,]?\s+)?(?:(?:you can|you may|feel free to|don't hesitate to|do not hesitate to)\s+(?:ask|reach out|ping|tell)\b|let me know\b)[^.!?]*[.!?]?$|^[^.!?]*\bif you (?:need|have|want) (?:any |more |further )?(?:clarification|questions?)\b[^.!?]*[.!?]?$/i;

/**
 * `text` without the sentences that announce the agent's next step ({@link NARRATION}: "Now let me
 * update the Justfile for Rust.") or are said in passing ({@link ASIDE}), `…` in their place, unless
 * every sentence is one (the callers' rules judge a turn that is nothing else); and always without the
 * sentences `drop` holds (what readTurn leaves out). Line breaks are kept (a list item, a heading of a
 * markdown reply ends a sentence); a fenced code block is left as it is.
 */
function withoutAsides(text: string, drop?: ReadonlySet<string>): string {
  const pass = (asides: boolean) => {
    let fenced = false;
    let dropped = 0;
    let kept = 0;
    const lines = text.split('\n').map((line) => {
      if (/^\s*(?:```|~~~)/.test(line)) fenced = !fenced;
      if (fenced || /^\s*(?:```|~~~)/.test(line)) {
        if (line.trim()) kept++;
        return line;
      }
      const parts = line.replace(/\s+/g, ' ').trim().split(SENTENCE_CUT).filter(Boolean);
      const out = parts.map((x) => {
        if (drop?.has(x) || (asides && (NARRATION.test(x) || ASIDE.test(x)))) {
          dropped++;
          return '…';
        }
        kept++;
        return x;
      });
      return out.join(' ').replace(/…(?: …)+/g, '…');
    });
    return { text: lines.join('\n').replace(/…(\s*…)+/g, '…'), dropped, kept };
  };
  const all = pass(true);
  if (all.kept) return all.dropped ? all.text : text;
  if (!drop?.size) return text;
  const forced = pass(false);
  return forced.kept ? forced.text : '';
}

/** The sentences of `text`: its lines (a list item, a heading, a paragraph), each split after `.!?` and their CJK forms, whitespace collapsed. */
function sentencesOf(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => line.replace(/\s+/g, ' ').trim().split(/(?<=[.!?。！？])\s+/))
    .filter(Boolean);
}

/** True when a sentence of `text` asks a question (ends with `?`). */
function asks(text: string): boolean {
  return sentencesOf(text).some((x) => /[?？]$/.test(x));
}

/** True when every sentence of `text` holding one of `words` (every sentence, when none does) asks a question (ends with `?`). */
function asksOnly(text: string, words: readonly string[]): boolean {
  const all = text.replace(/\s+/g, ' ').trim().split(/(?<=[.!?。！？])\s+/).filter(Boolean);
  const holding = all.filter((x) => words.some((w) => matchedShare(x, [w]) > 0));
  const sentences = holding.length ? holding : all;
  return sentences.length > 0 && sentences.every((x) => /[?？]\s*$/.test(x));
}

/**
 * The sentences of `text` that hold the most of `words`, in their order, within `max` characters
 * (the whole text when it fits); `…` marks what was left out between and around them. A line (a
 * list item, a heading of a markdown reply) ends a sentence too.
 */
export function excerpt(text: string, words: readonly string[], max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  // by line too: a list item or a heading of a markdown reply is a sentence of its own
  const sentences = sentencesOf(text);
  if (sentences.length <= 1) return preview(flat, max);
  const scored = sentences.map((s, i) => ({ i, s, n: words.filter((w) => matchedShare(s, [w]) > 0).length }));
  const order = [...scored].sort((a, b) => b.n - a.n || a.i - b.i);
  const chosen = new Set<number>();
  let used = 0;
  for (const c of order) {
    if (c.n === 0 && chosen.size) break;
    const cost = c.s.length + 2;
    if (used + cost > max) {
      if (!chosen.size) return preview(c.s, max);
      continue;
    }
    chosen.add(c.i);
    used += cost;
  }
  const parts: string[] = [];
  let last = -1;
  for (const c of scored) {
    if (!chosen.has(c.i)) continue;
    if (c.i > last + 1 || (last < 0 && c.i > 0)) parts.push('…');
    parts.push(c.s);
    last = c.i;
  }
  if (last < sentences.length - 1) parts.push('…');
  return parts.join(' ');
}

const ROLE: Record<string, string> = { prompt: 'user', reply: 'agent' };

/**
 * One evidence line: the label (`#id kind · host · date`, a standing frame's as recall labels it),
 * then for a turn with a neighbour both turns in the order they were said, each as `user:` or
 * `agent:` and cut at sentence boundaries. Undefined when the recall-time threat scan flags a text.
 */
/** How a hit is rendered: whether the file's redaction stamp lets the preset's second pass go, the mind's name for get_memory, and the sentences of a turn left out. */
interface RenderOptions {
  stamped: boolean;
  mindName: string | undefined;
  dropOf: (f: Frame) => ReadonlySet<string> | undefined;
}

function renderEvidence(h: Frame, nb: Frame | undefined, topic: readonly string[], opts: RenderOptions): { line: string; texts: string[] } | undefined {
  const { mindName } = opts;
  const clean = (f: Frame, max: number) => {
    // line breaks kept until the excerpt: they end a list item or a heading (excerpt collapses the rest);
    // the sentences left out are cut before the redaction (it can change a sentence's text); redacted again
    // as it leaves the file, the preset only when the file's stamp says it has not run (redaction-stamp.ts)
    const text = redactSecrets(withoutAsides(f.content.trim(), opts.dropOf(f)), { preset: !opts.stamped }).text;
    if (scanThreats(text).length) return undefined;
    return excerpt(text, topic, max);
  };
  const hit = clean(h, EVIDENCE_ITEM_CHARS);
  if (hit === undefined) return undefined;
  const more = h.parts > 1 || hit.includes('…') ? ` (get_memory id ${h.id}${mindName ? ` mind ${mindName}` : ''} for the whole text)` : '';
  if (!isHistoryKind(h.kind)) {
    const label = `#${h.id} ${h.importance} · ${h.kind} · ${h.source} · ${h.host || 'unknown origin'} · ${h.createdAt.slice(0, 10)}`;
    return { line: `- [${label}] ${neutralize(hit)}${more}`, texts: [hit] };
  }
  const label = `#${h.id} ${h.kind} · ${h.host || 'unknown origin'} · ${h.createdAt.slice(0, 10)}`;
  const mine = `${ROLE[h.kind]}: ${neutralize(hit)}${more}`;
  if (!nb) return { line: `- [${label}] ${mine}`, texts: [hit] };
  const side = clean(nb, EVIDENCE_NEIGHBOUR_CHARS);
  if (side === undefined) return { line: `- [${label}] ${mine}`, texts: [hit] };
  const theirs = `${ROLE[nb.kind] ?? nb.kind}: ${neutralize(side)}`;
  const before = (nb.createdAt < h.createdAt || (nb.createdAt === h.createdAt && nb.id < h.id));
  return { line: `- [${label}] ${before ? `${theirs} | ${mine}` : `${mine} | ${theirs}`}`, texts: [hit, side] };
}
