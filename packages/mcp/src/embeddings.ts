import type { Mind, SearchHit, SearchOptions } from '@hive-mind/mind';
import type { ServerContext } from './context.js';

/**
 * The embeddings plug-in on the MCP server's reads (mind README "Embeddings (optional)"): when the
 * environment configures it, `search_memory` and `recall` with a query rank as `hive-mind mind
 * search` does (BM25 and vector similarity fused by reciprocal rank, `Mind.searchHybrid`); the query
 * is embedded once for every mind searched. When the endpoint fails, BM25 alone with a notice, and
 * for {@link EMBEDDINGS_RETRY_MS} after a failure no request is made (the answer says so), so a
 * dead endpoint costs one time-out, not one per call.
 */

/** After the endpoint failed, searches use BM25 alone for this long before trying it again, ms. */
const EMBEDDINGS_RETRY_MS = 60_000;

/** How one read was ranked: `hybrid`, or `bm25` with `notice` saying why when the plug-in is configured. */
export interface Ranked {
  ranking: 'hybrid' | 'bm25';
  notice?: string;
}

/** A mind to search, as tools-mind.ts lists them. */
interface Searchable {
  mind: Mind;
}

/**
 * The query's vector for a read of `minds`, or why there is none. Embeds with the frames still
 * without a vector of one of the minds (turn by turn), within the configured time limit
 * (`HIVE_MIND_EMBEDDINGS_TIMEOUT_MS`, default 10,000 ms); none when the plug-in is off or its
 * configuration is invalid (then `notice` says so).
 */
export async function queryVector(ctx: ServerContext, minds: readonly Searchable[], query: string): Promise<Ranked & { vector?: Float32Array }> {
  const { problem } = await ctx.embeddingsConfig();
  if (problem) return { ranking: 'bm25', notice: `the embeddings plug-in is configured but unusable (${problem}); ranked by BM25 only` };
  const with_ = minds.filter((s) => s.mind.embeddingsConfigured);
  if (!with_.length) return { ranking: 'bm25' };
  const now = Date.now();
  const down = ctx.embeddingsDown;
  if (down && now < down.until) {
    return { ranking: 'bm25', notice: `${down.why} (${Math.round((now - down.at) / 1000)} s ago; tried again after ${Math.round(EMBEDDINGS_RETRY_MS / 1000)} s); ranked by BM25 only` };
  }
  const src = with_[ctx.backfillTurn++ % with_.length]!;
  const r = await src.mind.embedQuery(query);
  if (!r.vector) {
    ctx.embeddingsDown = { until: Date.now() + EMBEDDINGS_RETRY_MS, at: Date.now(), why: r.error ?? 'the embeddings endpoint failed' };
    ctx.log(`embeddings: ${ctx.embeddingsDown.why}; BM25 only for ${EMBEDDINGS_RETRY_MS / 1000} s`);
    return { ranking: 'bm25', notice: `${ctx.embeddingsDown.why}; ranked by BM25 only` };
  }
  ctx.embeddingsDown = undefined;
  return { ranking: 'hybrid', vector: r.vector };
}

/** The hits of `mind` for `query`: hybrid with `vector` when the mind has the plug-in, else its BM25 search. */
export async function searchWith(mind: Mind, query: string, vector: Float32Array | undefined, opts: SearchOptions): Promise<SearchHit[]> {
  if (vector && mind.embeddingsConfigured) return (await mind.searchHybrid(query, { ...opts, queryVector: vector })).hits;
  return mind.search(query, opts);
}

/**
 * Compute the vectors of frames a save just stored, in the background (the answer never waits for
 * the endpoint; a failure is logged and the frame gets its vector with a later query). Skipped
 * while the endpoint is known to be down.
 */
export function embedSavedSoon(ctx: ServerContext, mind: Mind, ids: readonly number[]): void {
  if (!mind.embeddingsConfigured || !ids.length) return;
  if (ctx.embeddingsDown && Date.now() < ctx.embeddingsDown.until) return;
  void mind.embedPending({ ids }).then(
    (rep) => {
      if (rep.error) ctx.log(`embeddings: vector of a saved memory not computed (${rep.error}); a later search computes it`);
    },
    (e: unknown) => ctx.log(`embeddings: ${(e as Error)?.message ?? String(e)}`),
  );
}
