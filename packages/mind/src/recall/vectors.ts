import type { StoreContext } from '../store/context.js';
import { embedTexts, EmbeddingsError, type ResolvedEmbeddings } from './embeddings.js';
import { toFrame, type Row, type SearchHit, type SearchOptions } from '../frame.js';
import { frameFilters, matchedShare, searchFrames } from './search.js';
import { analyzeQuery } from './analyze.js';

/**
 * The optional embeddings plug-in, its store half: vectors kept in the .mind beside the frames
 * (`frame_vectors`, schema v5), the backfill of frames that have none, and the hybrid ranking
 * (BM25 and cosine similarity fused by reciprocal rank). Used only when the mind was opened with
 * `embeddings`; see README "Embeddings (optional)".
 */

/** Reciprocal rank fusion constant (Cormack, Clarke, Büttcher, SIGIR 2009: k = 60). */
export const RRF_K = 60;
/** Frames without a vector embedded in the same request as a query (the lazy backfill). */
export const LAZY_BACKFILL = 32;

/** What a backfill did. `pending`: frames still without a vector for this model. */
export interface EmbedReport {
  embedded: number;
  pending: number;
  /** Why it stopped early (endpoint down, bad response); what was embedded before is kept. */
  error?: string;
}

/** Result of {@link searchHybridFrames}: the hits, which ranking produced them, and why BM25 alone when it fell back. */
export interface HybridSearchResult {
  hits: SearchHit[];
  ranking: 'hybrid' | 'bm25';
  /** Set when embeddings are configured but could not be used for this search. */
  notice?: string;
}

/** The key a vector is stored under: the model and the configured dimensions (vectors of two configurations never mix). */
function vectorModel(cfg: ResolvedEmbeddings): string {
  return cfg.dimensions ? `${cfg.model}@${cfg.dimensions}` : cfg.model;
}

function pendingRows(ctx: StoreContext, model: string, limit: number, ids?: readonly number[]): Array<{ id: number; content: string; content_hash: string }> {
  const only = ids ? 'AND f.id IN (SELECT value FROM json_each(?))' : '';
  return ctx.guard(
    () =>
      ctx
        .stmt(
          `SELECT f.id, f.content, f.content_hash FROM frames f WHERE f.quarantined = 0 AND f.importance != 'temporary' ${only}
             AND NOT EXISTS (SELECT 1 FROM frame_vectors v WHERE v.frame_id = f.id AND v.model = ?) ORDER BY f.id LIMIT ?`,
        )
        .all(...(ids ? [JSON.stringify(ids)] : []), model, limit) as Array<{ id: number; content: string; content_hash: string }>,
  );
}

function countPending(ctx: StoreContext, model: string): number {
  return ctx.guard(
    () =>
      (ctx.stmt("SELECT count(*) AS n FROM frames f WHERE f.quarantined = 0 AND f.importance != 'temporary' AND NOT EXISTS (SELECT 1 FROM frame_vectors v WHERE v.frame_id = f.id AND v.model = ?)").get(model) as { n: number }).n,
  );
}

/** Store vectors of frames whose content is still what was embedded (a frame changed meanwhile keeps none). */
function storeVectors(ctx: StoreContext, model: string, rows: ReadonlyArray<{ id: number; content_hash: string }>, vectors: readonly Float32Array[]): number {
  const ins = ctx.stmt(
    `INSERT OR REPLACE INTO frame_vectors (frame_id, model, dims, vector) SELECT id, ?, ?, ? FROM frames WHERE id = ? AND content_hash = ?`,
  );
  return ctx.guard(() =>
    ctx.tx(() => rows.reduce((n, r, i) => n + ins.run(model, vectors[i]!.length, Buffer.from(vectors[i]!.buffer, vectors[i]!.byteOffset, vectors[i]!.byteLength), r.id, r.content_hash).changes, 0)),
  );
}

/**
 * Embed frames that have no vector for the configured model (only `ids` when given: a save's
 * frames), oldest first, `batchSize` per request and per transaction, at most `limit`. Quarantined
 * frames are never sent; temporary ones (captured prompts: they expire, and search leaves them out)
 * are not embedded. Never throws for the
 * endpoint: an error stops the backfill and is reported (`error`), what was stored stays.
 */
export async function embedPendingFrames(ctx: StoreContext, cfg: ResolvedEmbeddings, opts: { limit?: number; ids?: readonly number[]; signal?: AbortSignal } = {}): Promise<EmbedReport> {
  ctx.writable();
  const model = vectorModel(cfg);
  let left = opts.limit ?? Infinity;
  let embedded = 0;
  let error: string | undefined;
  while (left > 0) {
    const rows = pendingRows(ctx, model, Math.min(cfg.batchSize, left), opts.ids);
    if (!rows.length) break;
    try {
      const vectors = await embedTexts(cfg, rows.map((r) => r.content), { signal: opts.signal });
      embedded += storeVectors(ctx, model, rows, vectors);
    } catch (e) {
      if (!(e instanceof EmbeddingsError)) throw e;
      error = e.message;
      break;
    }
    left -= rows.length;
  }
  return { embedded, pending: countPending(ctx, model), ...(error ? { error } : {}) };
}

/** Vectors of one model held in memory, refreshed when the table changed (count or newest rowid). */
interface VectorCache {
  model: string;
  count: number;
  maxRowid: number;
  ids: number[];
  vectors: Float32Array[];
}
const caches = new WeakMap<StoreContext, VectorCache>();

function loadVectors(ctx: StoreContext, model: string): VectorCache {
  const stamp = ctx.guard(() => ctx.stmt('SELECT count(*) AS n, coalesce(max(rowid), 0) AS m FROM frame_vectors WHERE model = ?').get(model) as { n: number; m: number });
  const old = caches.get(ctx);
  if (old && old.model === model && old.count === stamp.n && old.maxRowid === stamp.m) return old;
  const rows = ctx.guard(() => ctx.stmt('SELECT frame_id, vector FROM frame_vectors WHERE model = ?').all(model) as Array<{ frame_id: number; vector: Buffer }>);
  const cache: VectorCache = {
    model,
    count: stamp.n,
    maxRowid: stamp.m,
    ids: rows.map((r) => r.frame_id),
    vectors: rows.map((r) => new Float32Array(r.vector.buffer.slice(r.vector.byteOffset, r.vector.byteOffset + r.vector.byteLength))),
  };
  caches.set(ctx, cache);
  return cache;
}

/** The `n` stored vectors most similar (cosine: the vectors are normalized) to `q`: [frame id, cosine], best first. */
function nearestScored(cache: VectorCache, q: Float32Array, n: number): Array<[number, number]> {
  const scored: Array<[number, number]> = [];
  for (let k = 0; k < cache.vectors.length; k++) {
    const v = cache.vectors[k]!;
    if (v.length !== q.length) continue;
    let dot = 0;
    for (let i = 0; i < v.length; i++) dot += v[i]! * q[i]!;
    scored.push([cache.ids[k]!, dot]);
  }
  return scored.sort((a, b) => b[1] - a[1]).slice(0, n);
}

/** Options of {@link searchHybridFrames}: a search's, and the query's vector when the caller embedded it already ({@link embedQuery}). */
export interface HybridSearchOptions extends SearchOptions {
  /** The query's vector (normalized, from {@link embedQuery}): no request is made. */
  queryVector?: Float32Array;
}

/** Result of {@link embedQuery}: the query's vector, or why there is none. */
export interface QueryEmbedding {
  /** The query's vector, L2-normalized; undefined when the endpoint failed. */
  vector?: Float32Array;
  /** Frames without a vector embedded in the same request (the lazy backfill) and stored. */
  embedded: number;
  /** Why there is no vector (endpoint down, timed out, a bad response), for the caller to say. */
  error?: string;
}

/**
 * Embed `query` together with up to `backfill` (default {@link LAZY_BACKFILL}; none when the mind is
 * read-only) frames that have no vector yet, in one request limited to `timeoutMs` (default: the
 * configuration's `timeoutMs`, never more), and store those frames' vectors. Never throws for the
 * endpoint: a failure is `error`, nothing stored changes.
 */
export async function embedQuery(ctx: StoreContext, cfg: ResolvedEmbeddings, query: string, opts: { backfill?: number; timeoutMs?: number; signal?: AbortSignal } = {}): Promise<QueryEmbedding> {
  const model = vectorModel(cfg);
  const n = ctx.config.readonly ? 0 : (opts.backfill ?? LAZY_BACKFILL);
  const lazy = n > 0 ? pendingRows(ctx, model, n) : [];
  const bounded = opts.timeoutMs !== undefined ? { ...cfg, timeoutMs: Math.max(1, Math.min(cfg.timeoutMs, opts.timeoutMs)) } : cfg;
  try {
    const vs = await embedTexts(bounded, [query, ...lazy.map((r) => r.content)], opts.signal ? { signal: opts.signal } : {});
    const embedded = lazy.length ? storeVectors(ctx, model, lazy, vs.slice(1)) : 0;
    return { vector: vs[0]!, embedded };
  } catch (e) {
    if (!(e instanceof EmbeddingsError)) throw e;
    return { embedded: 0, error: e.message };
  }
}

/** A live frame near a query's vector: the frame and its cosine similarity (-1..1; the vectors are normalized). */
export interface VectorHit {
  frame: Row;
  cosine: number;
}

/**
 * The live frames (filtered like search: `opts` scopes, temporary, quarantined...) nearest to `qv`
 * by cosine, best first, at most `limit` (default 10), only those at or above `minCosine`. Frames
 * without a vector for the configured model are not seen. Throws `INVALID` for a bad option.
 */
export function nearestFrames(ctx: StoreContext, cfg: ResolvedEmbeddings, qv: Float32Array, opts: SearchOptions & { minCosine?: number } = {}): VectorHit[] {
  const limit = opts.limit ?? 10;
  const scored = nearestScored(loadVectors(ctx, vectorModel(cfg)), qv, Math.max(limit * 4, 200)).filter(([, c]) => c >= (opts.minCosine ?? -1));
  if (!scored.length) return [];
  const { sql, params } = frameFilters(opts, ctx.now());
  const rows = ctx.guard(() => ctx.stmt(`SELECT f.* FROM frames f WHERE f.id IN (SELECT value FROM json_each(?)) AND ${sql}`).all(JSON.stringify(scored.map(([id]) => id)), ...params)) as Row[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return scored
    .filter(([id]) => byId.has(id))
    .slice(0, limit)
    .map(([id, cosine]) => ({ frame: byId.get(id)!, cosine }));
}

/**
 * Hybrid search (see {@link Mind.searchHybrid}): BM25 candidates ({@link searchFrames}) and the
 * frames nearest to the query's vector, fused by reciprocal rank (score = Σ 1 / (RRF_K + rank));
 * a frame holding an exact lookup of the query verbatim still ranks first. The query is embedded
 * together with up to {@link LAZY_BACKFILL} frames that have no vector yet (unless `queryVector`
 * is given). Without `cfg`, or when the endpoint fails, the BM25 ranking alone, with a `notice`
 * saying why. Throws what {@link searchFrames} throws (`EMPTY_QUERY`, `INVALID`).
 */
export async function searchHybridFrames(ctx: StoreContext, cfg: ResolvedEmbeddings | undefined, query: string, opts: HybridSearchOptions = {}): Promise<HybridSearchResult> {
  const { queryVector, ...searchOpts } = opts;
  const limit = searchOpts.limit ?? 10;
  const pool = Math.max(limit * 5, 50);
  const bm25 = searchFrames(ctx, query, { ...searchOpts, limit: Math.min(1000, Math.max(limit, pool)) });
  if (!cfg) return { hits: bm25.slice(0, limit), ranking: 'bm25' };
  let qv = queryVector;
  if (!qv) {
    const e = await embedQuery(ctx, cfg, query);
    if (!e.vector) return { hits: bm25.slice(0, limit), ranking: 'bm25', notice: `${e.error}; ranked by BM25 only` };
    qv = e.vector;
  }
  const near = nearestFrames(ctx, cfg, qv, { ...searchOpts, limit: pool });
  const vectorRank = near.map((h) => h.frame.id);
  const allowed = new Map(near.map((h) => [h.frame.id, h.frame]));
  const fused = new Map<number, number>();
  bm25.forEach((h, i) => fused.set(h.id, 1 / (RRF_K + i + 1)));
  vectorRank.forEach((id, i) => fused.set(id, (fused.get(id) ?? 0) + 1 / (RRF_K + i + 1)));
  const byId = new Map(bm25.map((h) => [h.id, h]));
  const { words, exact } = analyzeQuery(query);
  const hits = [...fused].map(([id, rrf]): SearchHit => {
    const h = byId.get(id);
    const base = h ?? { ...toFrame(allowed.get(id)!), bm25: 0, matched: matchedShare(allowed.get(id)!.content, words), score: 0 };
    const lower = base.content.toLowerCase();
    // as in the BM25 ranking: the share of the query's exact lookups found verbatim comes first
    const bonus = exact.length ? exact.filter((e) => lower.includes(e)).length / exact.length : 0;
    return { ...base, score: rrf + bonus };
  });
  hits.sort((a, b) => b.score - a.score || b.id - a.id);
  return { hits: hits.slice(0, limit), ranking: 'hybrid' };
}
