import { analyzeQuery, MAX_QUERY_WORDS, type AnalyzedQuery } from './analyze.js';
import type { StoreContext } from '../store/context.js';
import { MindError } from '../errors.js';
import { statedRange, type StatedRange } from './query-dates.js';
import { DAY_MS, IMPORTANCE_WEIGHT, SCOPES, toFrame, type RankingWeights, type Row, type SearchHit, type SearchOptions } from '../frame.js';
import { isHistoryKind } from '../history/history.js';
import { isTurn, turnsBeside } from '../store/sql.js';
import { wordSet } from '../text.js';
import { remarksOnly, turnSentences } from './in-passing.js';

/**
 * Search and ranking: the query analyzed (analyze.ts), one FTS5 BM25 query for the candidates,
 * then the re-rank of README "Ranking": BM25 relevance smoothed with the relevance of the turn's
 * neighbours in its conversation, importance, recency since `createdAt`, exact lookups first.
 */

/** BM25 weights of the FTS columns: content, tags, context (the turns around a frame in its session). */
const COLUMN_WEIGHTS = [1.0, 0.5, 0.3] as const;
const BM25_WEIGHTS = `bm25(${COLUMN_WEIGHTS.join(', ')})`;
/** Share of a neighbouring turn's relevance a frame gains (README "Ranking"). */
const NEIGHBOUR_WEIGHT = 0.1;
/**
 * Share of the previous turn's relevance a frame gains when that turn asks a question (holds a
 * `?`): the frame is then the reply, which states what was asked about without repeating its words
 * (README "Ranking").
 */
const ANSWER_WEIGHT = 0.7;
/** Weight of the share of the query's words a frame holds (coordination level; README "Ranking"). */
const COVERAGE_WEIGHT = 0.2;
/** Weight of the relevance of the frame's conversation among the candidates (README "Ranking"). */
const SESSION_WEIGHT = 0.1;
/** Bonus of a frame stated (`createdAt`) in the time the query names ("on 3 June, 2023", "yesterday"; query-dates.ts). */
const STATED_WEIGHT = 0.3;
/** A word in at least this many frames is "frequent": not scored when the query has rarer terms (README "Ranking"). */
export const FREQUENT_DOCS = 1000;
/** How many of the best candidates have their conversation neighbours looked up. */
const NEIGHBOUR_LOOKUPS = 50;

function quote(words: readonly string[]): string {
  return `"${words.join(' ').replace(/"/g, '')}"`;
}

/**
 * The FTS5 MATCH expression of an analyzed query: quoted phrases are required (AND), the other
 * words and the exact lookups (as phrases of their words) are OR'ed, so BM25 ranks frames holding
 * more of them higher. Every term is quoted, so FTS5 operators in user text are inert.
 */
function matchOf(q: AnalyzedQuery): string {
  const exactPhrases = q.exact.map((e) => e.match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).filter((ws) => ws.length > 1);
  const any = [...q.words.map((w) => quote([w])), ...exactPhrases.map(quote)];
  const required = q.phrases.map(quote);
  if (!required.length) return any.join(' OR ');
  return any.length ? `${required.join(' AND ')} AND (${any.join(' OR ')})` : required.join(' AND ');
}

/**
 * Turn free text into the FTS5 query {@link Mind.search} runs: stop words dropped (unless only
 * stop words were given), quoted phrases kept as required phrases, every term quoted.
 * Throws `EMPTY_QUERY` when there is no word.
 */
export function ftsQuery(query: string): string {
  return matchOf(analyzed(query));
}

/** Words of a long query read before the rarest {@link MAX_QUERY_WORDS} are kept. */
const QUERY_WORDS_READ = 512;

function analyzed(query: string, maxWords = MAX_QUERY_WORDS): AnalyzedQuery {
  if (typeof query !== 'string') throw new MindError('search query must be a string', 'EMPTY_QUERY');
  const q = analyzeQuery(query, { maxWords });
  if (q.words.length === 0 && q.phrases.length === 0)
    throw new MindError(`search query is empty: give at least one word to search for (got ${JSON.stringify(query.slice(0, 40))})`, 'EMPTY_QUERY');
  return q;
}

/**
 * The frame filters of {@link SearchOptions} as SQL over `frames f` (AND-ed conditions) and their
 * parameters. Throws `INVALID` for an unknown scope.
 */
export function frameFilters(opts: SearchOptions, now: Date): { sql: string; params: unknown[] } {
  const scopes = opts.scopes && opts.scopes.length ? opts.scopes : SCOPES;
  for (const s of scopes) if (!SCOPES.includes(s)) throw new MindError(`search option \`scopes\`: unknown scope ${JSON.stringify(s)}`, 'INVALID');
  const where: string[] = [`f.scope IN (${scopes.map(() => '?').join(',')})`];
  const params: unknown[] = [...scopes];
  if (!opts.includeQuarantined) where.push('f.quarantined = 0');
  if (!opts.includeRetired) {
    where.push("f.importance <> 'deprecated'", 'f.superseded_by IS NULL', '(f.expires_at IS NULL OR f.expires_at > ?)');
    params.push(now.toISOString());
  }
  if (!opts.includeTemporary) where.push("f.importance <> 'temporary'");
  return { sql: where.join(' AND '), params };
}

/**
 * Full-text search: see {@link Mind.search}. Candidates are FTS5's own rank-ordered best
 * `4 × max(5 × limit, 50)` matches (ids and bm25), of which the first `max(5 × limit, 50)` that pass
 * the frame filters are read (a full filtered join when the filters leave too few).
 */
export function searchFrames(ctx: StoreContext, query: string, opts: SearchOptions = {}): SearchHit[] {
  const limit = opts.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new MindError(`search option \`limit\` must be an integer 1-1000, got ${opts.limit}`, 'INVALID');
  const now = ctx.now();
  // the numbers of a date the query names ("3 June, 2023") say when, not what: they leave the
  // words and the exact lookups, and the date ranks frames stated then (the stated term)
  const stated = statedRange(query, now);
  const read = withoutDateNumbers(analyzed(query, QUERY_WORDS_READ), stated);
  const { sql: filters, params } = frameFilters(opts, now);
  const where = ['frames_fts MATCH ?', filters];
  const candidates = Math.max(limit * 10, 100);
  // FTS5's own rank-ordered best 4 × candidates (ids and bm25 only), then the frame rows that pass
  // the filters in one statement; the full filtered join only when the filters left too few of a
  // match set larger than what was asked
  const top = `SELECT rowid AS id, rank AS bm25 FROM frames_fts WHERE frames_fts MATCH ? AND rank MATCH '${BM25_WEIGHTS}' ORDER BY rank LIMIT ${candidates * 4}`;
  const newest = `SELECT rowid AS id, rank AS bm25 FROM frames_fts WHERE frames_fts MATCH ? AND rank MATCH '${BM25_WEIGHTS}' ORDER BY rowid DESC LIMIT ${candidates * 4}`;
  const pass = `SELECT f.* FROM frames f WHERE f.id IN (SELECT value FROM json_each(?)) AND ${filters}`;
  const pick = 'SELECT f.* FROM frames f WHERE f.id IN (SELECT value FROM json_each(?))';
  const full = `SELECT f.id AS id, bm25(frames_fts, ${COLUMN_WEIGHTS.join(', ')}) AS bm25 FROM frames_fts JOIN frames f ON f.id = frames_fts.rowid
       WHERE ${where.join(' AND ')} ORDER BY bm25 LIMIT ${candidates}`;
  return ctx.guard(() => {
    if (!read.words.length && !read.phrases.length) return statedOnly(ctx, now, stated!, limit, filters, params);
    // words in more than FREQUENT_DOCS frames carry little BM25 weight but cost a scan of their whole
    // posting list: they are not scored when rarer terms are there; a query of frequent words only
    // takes the newest frames holding all of them (FTS5 streams rowid order and stops at the limit)
    const count = ctx.stmt(`SELECT count(*) AS n FROM (SELECT rowid FROM frames_fts WHERE frames_fts MATCH ? LIMIT ${FREQUENT_DOCS})`);
    const df = new Map(read.words.map((w) => [w, (count.get(quote([w])) as { n: number }).n]));
    // a long query (a pasted page) is scored by its rarest words that occur, in query order
    const q: AnalyzedQuery = read.words.length <= MAX_QUERY_WORDS ? read : { ...read, words: rarest(read.words, df) };
    const frequent = new Set(q.words.filter((w) => df.get(w)! >= FREQUENT_DOCS));
    const rare: AnalyzedQuery = { ...q, words: q.words.filter((w) => !frequent.has(w)) };
    const onlyFrequent = rare.words.length === 0 && q.phrases.length === 0 && !q.exact.some((e) => (e.match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).length > 1);
    const match = onlyFrequent ? q.words.map((w) => quote([w])).join(' AND ') : matchOf(frequent.size ? rare : q);
    const topSql = onlyFrequent ? newest : top;
    let hits = ctx.stmt(topSql).all(match) as Array<{ id: number; bm25: number }>;
    if (onlyFrequent && hits.length === 0) hits = ctx.stmt(newest).all(matchOf(q)) as Array<{ id: number; bm25: number }>;
    const exhausted = hits.length < candidates * 4;
    // the rows of the first `candidates` hits (in rank order) that pass the frame filters: the best
    // `candidates` hits checked first, then the next ones in chunks of twice what is still missing
    // (so a filter that drops a few hits costs a few more rows, not all 4 × candidates); the full
    // filtered join only when the filters left too few of a match set larger than what was asked
    const byId = new Map<number, Row>();
    for (let next = 0, size = candidates; byId.size < candidates && next < hits.length; size = 2 * (candidates - byId.size)) {
      const chunk = hits.slice(next, next + size);
      next += chunk.length;
      for (const r of ctx.stmt(pass).all(JSON.stringify(chunk.map((h) => h.id)), ...params) as Row[]) byId.set(r.id, r);
    }
    if (byId.size < candidates && !exhausted && !onlyFrequent) {
      hits = (ctx.stmt(full).all(match, ...params) as Array<{ id: number; bm25: number }>).slice(0, candidates);
      byId.clear();
      if (hits.length) for (const r of ctx.stmt(pick).all(JSON.stringify(hits.map((h) => h.id))) as Row[]) byId.set(r.id, r);
    }
    const best = hits.filter((h) => byId.has(h.id)).slice(0, candidates);
    const rows = best.map((h) => ({ ...byId.get(h.id)!, bm25: h.bm25 }));
    const neighbours = neighbourMap(ctx, rows);
    const borrowed = borrowedOnly(ctx, rows, q);
    const ranked = rankHits(ctx.config.weights, rows, now, { exact: q.exact, neighbours, words: q.words, stated, borrowed }).slice(0, limit);
    // fewer hits than asked and a time named: the frames stated then follow the word matches
    if (stated && ranked.length < limit) {
      const seen = new Set(ranked.map((h) => h.id));
      ranked.push(...statedOnly(ctx, now, stated, limit, filters, params).filter((h) => !seen.has(h.id)).slice(0, limit - ranked.length));
    }
    return ranked;
  });
}

/** The {@link MAX_QUERY_WORDS} rarest of `words` found in some frame (the first ones when none is), in query order. */
function rarest(words: readonly string[], df: ReadonlyMap<string, number>): string[] {
  const found = words.filter((w) => df.get(w)! > 0);
  if (!found.length) return words.slice(0, MAX_QUERY_WORDS);
  const keep = new Set([...found].sort((a, b) => df.get(a)! - df.get(b)!).slice(0, MAX_QUERY_WORDS));
  return found.filter((w) => keep.has(w));
}

/** `q` without the words and exact lookups made of the numbers of the date the query names. */
function withoutDateNumbers(q: AnalyzedQuery, stated: StatedRange | undefined): AnalyzedQuery {
  if (!stated) return q;
  const numbers = new Set((stated.text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => /\d/.test(w)));
  const iso = stated.text.toLowerCase();
  return { ...q, words: q.words.filter((w) => !numbers.has(w)), exact: q.exact.filter((e) => !numbers.has(e) && e !== iso) };
}

/**
 * The frames stated (`created_at`) in `stated` that pass the filters, as hits after any word
 * match: the decisions, instructions and other frames of that time by importance, then newest
 * first (at most `limit`; `matched` 0, scored without relevance).
 */
function statedOnly(ctx: StoreContext, now: Date, stated: StatedRange, limit: number, filters: string, params: unknown[]): SearchHit[] {
  const rows = ctx
    .stmt(
      `SELECT f.* FROM frames f WHERE f.created_at >= ? AND f.created_at < ? AND f.part = 0 AND ${filters}
       ORDER BY CASE f.importance WHEN 'critical' THEN 0 WHEN 'important' THEN 1 WHEN 'normal' THEN 2 ELSE 3 END, f.created_at DESC, f.id DESC LIMIT ${limit}`,
    )
    .all(new Date(stated.from).toISOString(), new Date(stated.to).toISOString(), ...params) as Row[];
  return rankHits(ctx.config.weights, rows.map((r) => ({ ...r, bm25: 0 })), now, { stated, unmatched: true });
}

/** A history turn's neighbours in its session: the turns just before and after it, and the second before (its context holds the two before and the one after). */
interface Neighbours {
  prev?: number;
  prev2?: number;
  next?: number;
}

/**
 * For the best candidates that are history turns: the ids of the turns around them in their
 * session, in the order they were said (sql.ts `turnsBeside`). Standing memory has no neighbours.
 */
function neighbourMap(ctx: StoreContext, rows: ReadonlyArray<Row & { bm25: number }>): Map<number, Neighbours> {
  const out = new Map<number, Neighbours>();
  const ids = rows.slice(0, NEIGHBOUR_LOOKUPS).filter((r) => r.session_id && r.part === 0 && isHistoryKind(r.kind)).map((r) => r.id);
  if (!ids.length) return out;
  const found = ctx
    .stmt(
      `SELECT f.id AS id, (${turnsBeside('f', 'before', 1)}) AS prev, (${turnsBeside('f', 'before', 1, 'c.id', 1)}) AS prev2, (${turnsBeside('f', 'after', 1)}) AS next
       FROM frames f WHERE f.id IN (SELECT value FROM json_each(?)) AND ${isTurn('f')}`,
    )
    .all(JSON.stringify(ids)) as Array<{ id: number; prev: number | null; prev2: number | null; next: number | null }>;
  for (const r of found) out.set(r.id, { prev: r.prev ?? undefined, prev2: r.prev2 ?? undefined, next: r.next ?? undefined });
  return out;
}

/**
 * Of the candidates that are history turns whose own text seems to hold none of the query's words
 * (no prefix of one in content or tags), those FTS5 finds no word in either (so only their
 * conversation context matched): the frames whose match the context lent them.
 */
function borrowedOnly(ctx: StoreContext, rows: ReadonlyArray<Row>, q: AnalyzedQuery): Set<number> {
  const terms = [...q.words, ...q.phrases.map((p) => p.join(' '))];
  const suspects = rows.filter((r) => isHistoryKind(r.kind) && r.session_id && terms.length && matchedShare(`${r.content} ${r.tags}`, terms) === 0).map((r) => r.id);
  if (!suspects.length) return new Set();
  const own = `{content tags} : (${terms.map((t) => quote(t.split(' '))).join(' OR ')})`;
  const holding = new Set(
    (ctx.stmt('SELECT rowid AS id FROM frames_fts WHERE frames_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))').all(own, JSON.stringify(suspects)) as Array<{ id: number }>).map((r) => r.id),
  );
  return new Set(suspects.filter((id) => !holding.has(id)));
}

/** What {@link rankHits} uses beyond BM25. */
export interface RankContext {
  /** Exact lookups of the query (lower case): a frame holding one verbatim ranks first. */
  exact?: readonly string[];
  /** Frame id -> its conversation neighbours (the turns just before and after it in its session). */
  neighbours?: ReadonlyMap<number, Neighbours>;
  /** The query's words, for `SearchHit.matched`. */
  words?: readonly string[];
  /** The time the query names: frames stated (`created_at`) in it rank up. */
  stated?: StatedRange;
  /** The rows were not found by the query's words (the frames of a named time): relevance and `matched` are 0. */
  unmatched?: boolean;
  /**
   * Turns matched only through their conversation context (their own text holds none of the
   * query's words): each ranks below every neighbour among the candidates whose words it borrowed,
   * and is left out when none of them is a candidate.
   */
  borrowed?: ReadonlySet<number>;
}

/** Share of `words` found in `text` (lower case; a word counts when its first max(4, n - 2) characters occur, so plurals and tenses match). */
export function matchedShare(text: string, words: readonly string[]): number {
  if (!words.length) return 1;
  const lower = text.toLowerCase();
  let n = 0;
  for (const w of words) if (lower.includes(w.length > 5 ? w.slice(0, Math.max(4, w.length - 2)) : w)) n++;
  return n / words.length;
}

/**
 * Order candidates by the blended score of README "Ranking": BM25 relevance (normalized over the
 * candidates) smoothed with the relevance of the turn's neighbours (more from a question just
 * before it), the share of the query's words it holds, the relevance of its conversation among the
 * candidates, a bonus when it was stated in the time the query names, importance and recency; exact
 * lookups first. Pure: the same rows give the same order.
 */
export function rankHits(w: RankingWeights, rows: Array<Row & { bm25: number }>, now: Date, rc: RankContext = {}): SearchHit[] {
  const maxRel = rows.reduce((m, r) => Math.max(m, -r.bm25), 0);
  const total = w.relevance + w.importance + w.recency || 1;
  const relOf = new Map(rows.map((r) => [r.id, rc.unmatched ? 0 : maxRel > 0 ? Math.max(0, -r.bm25) / maxRel : 1]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  // a conversation's relevance: the sum of its candidates' own relevance (a frame without a session is its own)
  const conversationOf = (r: Row) => (r.session_id ? `s:${r.session_id}` : `f:${r.id}`);
  const conversation = new Map<string, number>();
  for (const r of rows) conversation.set(conversationOf(r), (conversation.get(conversationOf(r)) ?? 0) + relOf.get(r.id)!);
  const maxConversation = Math.max(0, ...conversation.values());
  const exact = rc.exact ?? [];
  const words = rc.words ?? [];
  const scored = rows
    .map((r): SearchHit => {
      const own = relOf.get(r.id)!;
      const nb = rc.neighbours?.get(r.id);
      const prev = nb?.prev !== undefined ? byId.get(nb.prev) : undefined;
      const prevRel = prev ? relOf.get(prev.id)! * (prev.content.includes('?') ? ANSWER_WEIGHT : NEIGHBOUR_WEIGHT) : 0;
      const nextRel = nb?.next !== undefined ? (relOf.get(nb.next) ?? 0) * NEIGHBOUR_WEIGHT : 0;
      const rel = (own + Math.max(prevRel, nextRel)) / (1 + NEIGHBOUR_WEIGHT);
      const ageDays = Math.max(0, (now.getTime() - Date.parse(r.created_at)) / DAY_MS);
      const recency = w.halfLifeDays > 0 ? Math.pow(0.5, ageDays / w.halfLifeDays) : 0;
      const matched = rc.unmatched ? 0 : matchedShare(r.content, words);
      let score = (w.relevance * rel + w.importance * IMPORTANCE_WEIGHT[r.importance] + w.recency * recency) / total;
      score += COVERAGE_WEIGHT * (words.length ? matched : 0);
      if (maxConversation > 0) score += (SESSION_WEIGHT * conversation.get(conversationOf(r))!) / maxConversation;
      if (rc.stated) {
        const t = Date.parse(r.created_at);
        if (t >= rc.stated.from && t < rc.stated.to) score += STATED_WEIGHT;
      }
      if (exact.length) {
        const lower = r.content.toLowerCase();
        score += exact.filter((e) => lower.includes(e)).length / exact.length;
      }
      return { ...toFrame(r), score, bm25: r.bm25, matched };
    });
  // a standing frame harvested from a turn among the candidates is that turn's words again: the turn,
  // with its date and its neighbours, answers for both (README "Ranking")
  const derived = derivedFromTurns(rows);
  if (derived.size) for (let i = scored.length - 1; i >= 0; i--) if (derived.has(scored[i]!.id)) scored.splice(i, 1);
  // a turn found only through its neighbours' words never outranks the neighbours that hold them
  // (README "Ranking": the noise frame after a fact must not answer for it), and without one of them
  // among the candidates it is no answer at all
  const borrowed = rc.borrowed;
  if (borrowed?.size) {
    const scoreOf = new Map(scored.map((h) => [h.id, h.score]));
    const kept: SearchHit[] = [];
    const behind: SearchHit[] = [];
    for (const h of scored) {
      if (!borrowed.has(h.id)) {
        kept.push(h);
        continue;
      }
      const nb = rc.neighbours?.get(h.id);
      const lenders = [nb?.prev2, nb?.prev, nb?.next].filter((id): id is number => id !== undefined && scoreOf.has(id) && !borrowed.has(id));
      if (!lenders.length) continue;
      // the answer to a question among the candidates states what was asked without its words: it
      // follows its question; any other turn found through its neighbours ranks after every frame
      // matched by its own text, and a remark so found ("OK.", "All clean, all committed.") is none
      const prev = nb?.prev !== undefined ? byId.get(nb.prev) : undefined;
      const answers = !!prev && lenders.includes(prev.id) && prev.content.includes('?');
      if (!answers) {
        if (bare(h.content) || remarksOnly(turnSentences(h.content), h.kind === 'reply')) continue;
        behind.push(h);
        continue;
      }
      const below = Math.min(...lenders.map((id) => scoreOf.get(id)!));
      kept.push(h.score < below ? h : { ...h, score: below - BORROWED_GAP });
    }
    kept.sort(byScore);
    let floor = kept.length ? kept[kept.length - 1]!.score : Infinity;
    for (const h of behind.sort(byScore)) {
      const score = Math.min(h.score, floor - BORROWED_GAP);
      kept.push(score === h.score ? h : { ...h, score });
      floor = score;
    }
    return kept;
  }
  return scored.sort(byScore);
}

/** Words a turn of no number holds at most to say nothing on its own ("OK.", "Sure, go ahead."). */
const BARE_MAX_WORDS = 3;
const bare = (text: string) => !/\p{N}/u.test(text) && (text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).length <= BARE_MAX_WORDS;


/** Share of a standing frame's words a turn of its session must hold for the frame to be that turn's words again. */
export const DERIVED_WORD_SHARE = 0.8;

/**
 * The standing frames among `rows` (not history turns, with a session) whose words a history turn of
 * the same session among `rows` holds (at least {@link DERIVED_WORD_SHARE} of them): what the hooks or
 * an import harvested from that turn.
 */
function derivedFromTurns(rows: ReadonlyArray<Row>): Set<number> {
  const out = new Set<number>();
  const turnsBySession = new Map<string, Array<Set<string>>>();
  for (const r of rows) if (isHistoryKind(r.kind) && r.session_id) turnsBySession.set(r.session_id, [...(turnsBySession.get(r.session_id) ?? []), wordSet(r.content)]);
  if (!turnsBySession.size) return out;
  for (const r of rows) {
    if (isHistoryKind(r.kind) || !r.session_id) continue;
    const turns = turnsBySession.get(r.session_id);
    if (!turns) continue;
    const words = wordSet(r.content);
    if (!words.size) continue;
    if (turns.some((t) => [...words].filter((w) => t.has(w)).length >= DERIVED_WORD_SHARE * words.size)) out.add(r.id);
  }
  return out;
}

/** How far below its lowest lender a borrowed turn is put (so the order is strict). */
const BORROWED_GAP = 1e-6;

const byScore = (a: SearchHit, b: SearchHit) => b.score - a.score || a.bm25 - b.bm25 || b.id - a.id;
