/**
 * The per-prompt recall across languages (prompt-vector.ts and the mind's promptHits): with the
 * embeddings plug-in, a German or Spanish prompt finds the English fact; offline it gets nothing
 * (never a wrong frame); with the endpoint hanging, the hook still answers (the lexical recall) and
 * exits 0 within its cap. A real loopback OpenAI /v1/embeddings server (test-support); its vectors
 * come from a glossary stand-in, not a model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { existsSync } from 'node:fs';
import { Mind, STOP_WORDS, workspaceMindPath } from '@hive-mind/mind';
import { runHook, hookLogPath } from '../src/index.js';
import { logLines, payload, runCli, sandbox } from './helpers.js';
import { glossaryEmbedding, startEmbeddingsServer, type OpenAIEmbeddingsServer } from '../../../test-support/llm-servers.js';

const GLOSSARY = { welche: 'which', datenbank: 'database', benutzen: 'use', wir: 'we', qué: 'what', base: '', de: 'of', datos: 'database', usamos: 'use', wie: 'how', backe: 'bake', ich: 'i', sauerteigbrot: 'sourdough bread' };
const FACTS = ['the database is postgres 16', 'CI runs on GitHub Actions with node 20', 'Deploys run from the deploy/ folder with helm', 'The staging API listens on port 8443'];

async function ask(env: NodeJS.ProcessEnv, project: string, prompt: string, session: string): Promise<{ text: string; error?: string }> {
  let out = '';
  const body = { ...payload('claude-code', 'UserPromptSubmit', 0, project), session_id: session, prompt, prompt_id: `${session}-p` };
  const r = await runHook(['claude-code', 'UserPromptSubmit'], { stdin: Readable.from([JSON.stringify(body)]), env, write: (t) => (out += t) });
  const text = out.trim() ? ((JSON.parse(out) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? '') : '';
  return { text, ...(r.error ? { error: r.error } : {}) };
}

function seeded(): ReturnType<typeof sandbox> {
  const s = sandbox();
  const m = Mind.open(workspaceMindPath(s.project, s.env));
  for (const content of FACTS) m.save({ content, scope: 'workspace' });
  m.close();
  return s;
}

describe('per-prompt recall across languages (embeddings plug-in)', () => {
  let server: OpenAIEmbeddingsServer;
  beforeAll(async () => {
    server = await startEmbeddingsServer({ dimensions: 256, embed: glossaryEmbedding(GLOSSARY, STOP_WORDS) });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a German or Spanish prompt finds the English fact with vectors; offline it gets nothing, never a wrong frame', async () => {
    const s = seeded();
    const offline = await ask(s.env, s.project, 'Welche Datenbank benutzen wir?', 'off-1');
    expect(offline).toEqual({ text: '' });
    const env = { ...s.env, HIVE_MIND_EMBEDDINGS_URL: server.v1Url, HIVE_MIND_EMBEDDINGS_MODEL: 'embed-test' };
    const de = await ask(env, s.project, 'Welche Datenbank benutzen wir?', 'on-1');
    expect(de.error).toBeUndefined();
    expect(de.text).toContain('the database is postgres 16');
    expect(de.text).not.toMatch(/helm|8443|GitHub Actions/);
    // the prompt was embedded with the frames still without a vector (the backfill), in one request:
    // the facts and the turn the offline prompt left in the history
    const first = server.embeddingRequests.at(-1)!;
    expect(first.body.input).toEqual(['Welche Datenbank benutzen wir?', ...FACTS, 'Welche Datenbank benutzen wir?']);
    const es = await ask(env, s.project, '¿Qué base de datos usamos?', 'on-2');
    expect(es.text).toContain('the database is postgres 16');
    // a prompt about nothing stored gets nothing, in any language
    expect((await ask(env, s.project, 'Wie backe ich Sauerteigbrot?', 'on-3')).text).toBe('');
    // what this session was given is not given again
    expect((await ask(env, s.project, 'Welche Datenbank benutzen wir?', 'on-1')).text).toBe('');
  });

  it('the endpoint hangs: the prompt gets the recall by words within the embedding time limit, the log says why', async () => {
    const hang = await startEmbeddingsServer({ fallback: { fault: { kind: 'hang' } } });
    try {
      const s = seeded();
      const env = { ...s.env, HIVE_MIND_EMBEDDINGS_URL: hang.v1Url, HIVE_MIND_EMBEDDINGS_MODEL: 'embed-test', HIVE_MIND_PROMPT_EMBED_TIMEOUT_MS: '300' };
      const body = JSON.stringify({ ...payload('claude-code', 'UserPromptSubmit', 0, s.project), session_id: 'hang-1', prompt: 'which database version do we use?', prompt_id: 'h1' });
      const r = await runCli(['hook', 'claude-code', 'UserPromptSubmit'], body, env);
      expect(r).toMatchObject({ code: 0, killedByTest: false });
      expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain('the database is postgres 16');
      const log = logLines(hookLogPath(env)).join('\n');
      expect(log).toMatch(/embeddings: embeddings endpoint .* unreachable: no answer within 300 ms; this prompt's recall used words only/);
      expect(log).not.toMatch(/timed out/);
      expect(hang.embeddingRequests).toHaveLength(1);
      // the prompt is still captured (a temporary frame) after the recall
      const m = Mind.open(workspaceMindPath(s.project, s.env), { readonly: true });
      expect(m.list({ kind: 'prompt' }).map((f) => f.content)).toContain('which database version do we use?');
      m.close();
    } finally {
      await hang.close();
    }
  });

  it('the endpoint hangs longer than the hook may run: the watchdog answers empty and the process exits 0', async () => {
    const hang = await startEmbeddingsServer({ fallback: { fault: { kind: 'hang' } } });
    try {
      const s = seeded();
      const env = {
        ...s.env,
        HIVE_MIND_EMBEDDINGS_URL: hang.v1Url,
        HIVE_MIND_EMBEDDINGS_MODEL: 'embed-test',
        HIVE_MIND_EMBEDDINGS_TIMEOUT_MS: '60000',
        HIVE_MIND_PROMPT_EMBED_TIMEOUT_MS: '60000',
        HIVE_MIND_HOOK_TIMEOUT_MS: '1000',
      };
      const body = JSON.stringify({ ...payload('claude-code', 'UserPromptSubmit', 0, s.project), session_id: 'hang-2', prompt: 'Welche Datenbank benutzen wir?', prompt_id: 'h2' });
      const r = await runCli(['hook', 'claude-code', 'UserPromptSubmit'], body, env);
      expect(r).toMatchObject({ code: 0, killedByTest: false });
      expect(r.stdout.trim()).toBe('');
      expect(logLines(hookLogPath(env)).join('\n')).toMatch(/timed out after 1000 ms; printed the empty response/);
      expect(existsSync(workspaceMindPath(s.project, s.env))).toBe(true);
    } finally {
      await hang.close();
    }
  });

  it('a bad HIVE_MIND_PROMPT_MIN_COSINE is logged and the default used', async () => {
    const s = seeded();
    const env = { ...s.env, HIVE_MIND_EMBEDDINGS_URL: server.v1Url, HIVE_MIND_EMBEDDINGS_MODEL: 'embed-test', HIVE_MIND_PROMPT_MIN_COSINE: '2' };
    const de = await ask(env, s.project, 'Welche Datenbank benutzen wir?', 'cos-1');
    expect(de.text).toContain('the database is postgres 16');
    expect(logLines(hookLogPath(env)).join('\n')).toMatch(/HIVE_MIND_PROMPT_MIN_COSINE="2" must be a number from -1 to 1 .*the default 0.4 is used/);
  });
});
