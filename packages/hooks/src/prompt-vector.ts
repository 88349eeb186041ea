/**
 * The vector side of the per-prompt recall (mind README "Recall per prompt"): when the environment
 * configures the embeddings plug-in (`HIVE_MIND_EMBEDDINGS_URL`, `_MODEL`...), the prompt is
 * embedded once for every mind the hook reads, in one request bounded by
 * `HIVE_MIND_PROMPT_EMBED_TIMEOUT_MS` (default 1,500 ms, at most the plug-in's own limit), with up
 * to {@link PROMPT_BACKFILL} frames of the mind the hooks write that have no vector yet (so what
 * the hooks capture gets a vector over the next prompts). When the endpoint is down, hangs or
 * answers badly, or the configuration is invalid, there is no vector: the lexical floor alone, as
 * offline. Never throws for the endpoint.
 */
import { existsSync } from 'node:fs';
import { Mind, embeddingsConfigFromEnv, type EmbeddingsConfig } from '@hive-mind/mind/hook';
import { envNumber } from '@hive-mind/mind/settings';
import type { RecallSource } from './inject.js';

/** Frames without a vector embedded with a prompt, at most (a short request keeps the hook within its time limit). */
const PROMPT_BACKFILL = 8;

/** The prompt's vector for the per-prompt recall, and the settings the recall uses with it. */
export interface PromptVector {
  /** The plug-in's configuration, when the environment sets it validly (the minds are opened with it). */
  embeddings?: EmbeddingsConfig;
  /** The prompt's vector; undefined offline or when the endpoint failed (`error` says why). */
  vector?: Float32Array;
  /** Cosine floor of the vector side (`HIVE_MIND_PROMPT_MIN_COSINE`). */
  minCosine: number;
  error?: string;
}

/**
 * Embed `prompt` for the per-prompt recall of `sources` (see the module comment): the first source
 * whose file exists (the workspace mind, else the personal one) is opened writable for the
 * backfill. Returns no vector when the plug-in is off.
 */
export async function promptVector(sources: readonly RecallSource[], prompt: string, env: NodeJS.ProcessEnv, busy: number): Promise<PromptVector> {
  const minCosine = envNumber(env, 'HIVE_MIND_PROMPT_MIN_COSINE');
  let embeddings: EmbeddingsConfig | undefined;
  try {
    embeddings = embeddingsConfigFromEnv(env);
  } catch (e) {
    // an invalid configuration: the recall stays lexical (doctor and the CLI name the variable)
    return { minCosine, error: (e as Error).message };
  }
  const target = sources.find((s) => existsSync(s.path));
  if (!embeddings || !target) return { minCosine, ...(embeddings ? { embeddings } : {}) };
  const m = Mind.open(target.path, { busyTimeoutMs: busy, embeddings });
  try {
    const r = await m.embedQuery(prompt, { backfill: PROMPT_BACKFILL, timeoutMs: envNumber(env, 'HIVE_MIND_PROMPT_EMBED_TIMEOUT_MS') });
    return { embeddings, minCosine, ...(r.vector ? { vector: r.vector } : {}), ...(r.error ? { error: r.error } : {}) };
  } finally {
    m.close();
  }
}
