/**
 * search_memory and recall with the embeddings plug-in, as `hive-mind mind search` ranks: the real
 * server process over stdio (SDK client) against a loopback OpenAI /v1/embeddings server
 * (test-support/llm-servers.ts). The stand-in vectors put the German prompt's words beside the
 * English ones (glossaryEmbedding): a frame BM25 cannot find is found by its vector; with the
 * endpoint down or hanging, the answer still comes, ranked by BM25, with a notice.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callJson, connectStdio, requireBuilt, tempHome, type Connected } from './helpers.js';
import { glossaryEmbedding, startEmbeddingsServer, type OpenAIEmbeddingsServer } from '../../../test-support/llm-servers.js';

const FACTS = ['the database is postgres 16', 'CI runs on GitHub Actions with node 20', 'Logs are written to /var/log/shop/app.log', 'The user prefers terse answers'];
const GERMAN = 'Welche Datenbank benutzen wir';

describe('search_memory and recall with the embeddings plug-in', () => {
  const t = tempHome();
  let server: OpenAIEmbeddingsServer;
  let ids: number[] = [];
  const open: Connected[] = [];
  const connect = async (env: Record<string, string> = {}) => {
    const c = await connectStdio(t.home, ['--no-workspace'], 'hm-test', env);
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    requireBuilt();
    server = await startEmbeddingsServer({ dimensions: 256, embed: glossaryEmbedding({ welche: 'which', datenbank: 'database', benutzen: 'use', wir: 'we' }) });
    // saved offline: the frames have no vector yet
    const c = await connect();
    ids = [];
    for (const content of FACTS) ids.push((await callJson(c.client, 'save_memory', { content })).id);
  });
  afterEach(async () => {
    for (const c of open.splice(0)) await c.close();
  });
  afterAll(async () => {
    await server?.close();
    t.cleanup();
  });

  it('vectors find a frame BM25 cannot: the German question finds the English fact', async () => {
    const offline = await connect();
    const bm25 = await callJson(offline.client, 'search_memory', { query: GERMAN });
    expect(bm25.ranking).toBe('bm25');
    expect(bm25.notice).toBeUndefined();
    expect(bm25.results.map((r: any) => r.id)).not.toContain(ids[0]);
    expect(server.embeddingRequests).toHaveLength(0);

    const c = await connect({ HIVE_MIND_EMBEDDINGS_URL: server.v1Url, HIVE_MIND_EMBEDDINGS_MODEL: 'embed-test' });
    const hybrid = await callJson(c.client, 'search_memory', { query: GERMAN });
    expect(hybrid.ranking).toBe('hybrid');
    expect(hybrid.notice).toBeUndefined();
    expect(hybrid.results[0]).toMatchObject({ id: ids[0], content: 'the database is postgres 16' });
    // the query was embedded with the frames still without a vector (the lazy backfill), in one request
    expect(server.embeddingRequests).toHaveLength(1);
    expect(server.embeddingRequests[0]!.body.input).toEqual([GERMAN, ...FACTS]);

    const rec = await callJson(c.client, 'recall', { query: GERMAN, budgetTokens: 200 });
    expect(rec.ranking).toBe('hybrid');
    expect(rec.frameIds.personal[0]).toBe(ids[0]);
    expect(rec.text).toMatch(/the database is postgres 16/);
    // an exact lookup still ranks first
    const exact = await callJson(c.client, 'search_memory', { query: '/var/log/shop/app.log' });
    expect(exact.results[0].id).toBe(ids[2]);
  });

  it('the endpoint down or hanging: the answer still comes, ranked by BM25, with a notice; no request per call while it is down', async () => {
    const dead = await startEmbeddingsServer();
    const deadUrl = dead.v1Url;
    await dead.close();
    const c = await connect({ HIVE_MIND_EMBEDDINGS_URL: deadUrl, HIVE_MIND_EMBEDDINGS_MODEL: 'embed-test' });
    const r = await callJson(c.client, 'search_memory', { query: 'postgres database' });
    expect(r.ranking).toBe('bm25');
    expect(r.results[0].id).toBe(ids[0]);
    expect(r.notice).toMatch(/embeddings endpoint .*unreachable.*; ranked by BM25 only$/);
    const again = await callJson(c.client, 'recall', { query: 'postgres database', budgetTokens: 200 });
    expect(again.text).toMatch(/postgres 16/);
    expect(again.notice).toMatch(/unreachable.* s ago; tried again after 60 s\); ranked by BM25 only$/);

    const hang = await startEmbeddingsServer({ fallback: { fault: { kind: 'hang' } } });
    try {
      const h = await connect({ HIVE_MIND_EMBEDDINGS_URL: hang.v1Url, HIVE_MIND_EMBEDDINGS_MODEL: 'embed-test', HIVE_MIND_EMBEDDINGS_TIMEOUT_MS: '300' });
      const slow = await callJson(h.client, 'search_memory', { query: 'postgres database' });
      expect(slow).toMatchObject({ ranking: 'bm25', results: [expect.objectContaining({ id: ids[0] })] });
      expect(slow.notice).toMatch(/no answer within 300 ms; ranked by BM25 only/);
      expect(hang.embeddingRequests).toHaveLength(1);
    } finally {
      await hang.close();
    }
  });

  it('a bad configuration is said in the answer, and search stays offline', async () => {
    const c = await connect({ HIVE_MIND_EMBEDDINGS_URL: 'ftp://nowhere', HIVE_MIND_EMBEDDINGS_MODEL: 'embed-test' });
    const r = await callJson(c.client, 'search_memory', { query: 'postgres' });
    expect(r.ranking).toBe('bm25');
    expect(r.results[0].id).toBe(ids[0]);
    expect(r.notice).toMatch(/configured but unusable \(HIVE_MIND_EMBEDDINGS_URL must be an http\(s\) URL/);
    expect(c.stderr()).toMatch(/embeddings plug-in off: HIVE_MIND_EMBEDDINGS_URL/);
  });
});
