import type { StoreContext } from './context.js';
import { MindError } from './errors.js';
import { DAY_MS, IMPORTANCE_WEIGHT, SCOPES, toFrame, type RankingWeights, type Row, type SearchHit, type SearchOptions } from './frame.js';
import { cleanText } from './text.js';

/** Search and ranking: free text to an FTS5 query, BM25 candidates, the blended re-rank. */

/**
 * Turn free text into an FTS5 query: the words (Unicode letters/digits) of `query`, each quoted
 * (so FTS5 operators in user text are inert), joined with OR. `search` first runs the AND of the
 * words and falls back to this OR form when that finds fewer than `limit` frames.
 * Throws `EMPTY_QUERY` when there is no word.
 */
export function ftsQuery(query: string): string {
  return queryWords(query)
    .map((w) => `"${w}"`)
    .join(' OR ');
}

/** The distinct words (Unicode letters, digits, marks; lower-cased, at most 64) of a query. Throws `EMPTY_QUERY` when there is none. */
export function queryWords(query: string): string[] {
  if (typeof query !== 'string') throw new MindError('search query must be a string', 'EMPTY_QUERY');
  const words = cleanText(query).text.normalize('NFKC').match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  const uniq = [...new Set(words.map((w) => w.toLowerCase()))].slice(0, 64);
  if (uniq.length === 0) throw new MindError(`search query is empty: give at least one word to search for (got ${JSON.stringify(query.slice(0, 40))})`, 'EMPTY_QUERY');
  return uniq;
}

/**
 * Full-text search (FTS5, porter + unicode61, BM25), re-ranked by the blended score
 * `relevance·w_r + importance·w_i + recency·w_t` (README "Ranking"). Excludes by default
 * temporary, deprecated, superseded, quarantined and expired frames.
 * Throws `EMPTY_QUERY` for a query with no words.
 */
export function searchFrames(ctx: StoreContext, query: string, opts: SearchOptions = {}): SearchHit[] {
  const words = queryWords(query);
  const limit = opts.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new MindError(`search option \`limit\` must be an integer 1-1000, got ${opts.limit}`, 'INVALID');
  const scopes = opts.scopes && opts.scopes.length ? opts.scopes : SCOPES;
  for (const s of scopes) if (!SCOPES.includes(s)) throw new MindError(`search option \`scopes\`: unknown scope ${JSON.stringify(s)}`, 'INVALID');
  const now = ctx.now();
  const where: string[] = ['frames_fts MATCH ?', `f.scope IN (${scopes.map(() => '?').join(',')})`];
  const params: unknown[] = [...scopes];
  if (!opts.includeQuarantined) where.push('f.quarantined = 0');
  if (!opts.includeRetired) {
    where.push("f.importance <> 'deprecated'", 'f.superseded_by IS NULL', '(f.expires_at IS NULL OR f.expires_at > ?)');
    params.push(now.toISOString());
  }
  if (!opts.includeTemporary) where.push("f.importance <> 'temporary'");
  const candidates = Math.max(limit * 5, 50);
  // ids and bm25 only: the sorter never carries frame content. Fast path: FTS5's own rank-ordered
  // top 4×candidates, then the frame filters; when the filters leave too few, the full join.
  const filters = where.slice(1).join(' AND ');
  const fast = `SELECT f.id AS id, t.bm25 AS bm25 FROM (SELECT rowid AS id, rank AS bm25 FROM frames_fts WHERE frames_fts MATCH ? AND rank MATCH 'bm25(1.0, 0.5)'
       ORDER BY rank LIMIT ${candidates * 4}) t JOIN frames f ON f.id = t.id WHERE ${filters} ORDER BY t.bm25 LIMIT ${candidates}`;
  const full = `SELECT f.id AS id, bm25(frames_fts, 1.0, 0.5) AS bm25 FROM frames_fts JOIN frames f ON f.id = frames_fts.rowid
       WHERE ${where.join(' AND ')} ORDER BY bm25 LIMIT ${candidates}`;
  const top = (match: string) => {
    const r = ctx.stmt(fast).all(match, ...params) as Array<{ id: number; bm25: number }>;
    return r.length >= candidates ? r : (ctx.stmt(full).all(match, ...params) as Array<{ id: number; bm25: number }>);
  };
  return ctx.guard(() => {
    // frames holding every word first (small match sets, precise); any word when that finds too few
    let hits = top(words.map((w) => `"${w}"`).join(' AND '));
    if (words.length > 1 && hits.length < limit) {
      const seen = new Set(hits.map((h) => h.id));
      const more = top(words.map((w) => `"${w}"`).join(' OR '));
      hits = [...hits, ...more.filter((h) => !seen.has(h.id))];
    }
    const get = ctx.stmt('SELECT * FROM frames WHERE id = ?');
    const rows = hits.map((h) => ({ ...(get.get(h.id) as Row), bm25: h.bm25 }));
    return rankHits(ctx.config.weights, rows, now).slice(0, limit);
  });
}

/** Order candidates by the blended score of README "Ranking". */
export function rankHits(w: RankingWeights, rows: Array<Row & { bm25: number }>, now: Date): SearchHit[] {
  const maxRel = rows.reduce((m, r) => Math.max(m, -r.bm25), 0);
  const total = w.relevance + w.importance + w.recency || 1;
  return rows
    .map((r) => {
      const rel = maxRel > 0 ? Math.max(0, -r.bm25) / maxRel : 1;
      const ageDays = Math.max(0, (now.getTime() - Date.parse(r.updated_at)) / DAY_MS);
      const recency = w.halfLifeDays > 0 ? Math.pow(0.5, ageDays / w.halfLifeDays) : 0;
      const score = (w.relevance * rel + w.importance * IMPORTANCE_WEIGHT[r.importance] + w.recency * recency) / total;
      return { ...toFrame(r), score, bm25: r.bm25 };
    })
    .sort((a, b) => b.score - a.score || a.bm25 - b.bm25 || b.id - a.id);
}
