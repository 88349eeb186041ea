import { MindError } from '../errors.js';

/**
 * The optional embeddings plug-in, its client half: configuration (validated, each error naming the
 * key) and one HTTP client for an OpenAI-compatible `POST {baseUrl}/embeddings` (OpenAI API
 * reference, "Embeddings": request `{model, input: string[], dimensions?}`, response
 * `{data: [{index, embedding: number[]}]}`). Nothing here runs unless a mind is opened with
 * `embeddings`; the offline default never loads a URL. Storage and hybrid ranking: vectors.ts.
 */

/** Configuration of the embeddings plug-in (`MindOptions.embeddings`, or the environment: {@link embeddingsConfigFromEnv}). */
export interface EmbeddingsConfig {
  /** Base URL of the API, up to and including `/v1` (`http://127.0.0.1:8080/v1`, `https://api.openai.com/v1`): `POST {baseUrl}/embeddings`. */
  baseUrl: string;
  /** Model name sent as `model` (`text-embedding-3-small`, `nomic-embed-text`...). */
  model: string;
  /** Name of the environment variable holding the API key (sent as `Authorization: Bearer`); none: no header. */
  apiKeyEnv?: string;
  /** Vector length: sent as `dimensions` and checked on every vector received. Default: what the model returns (checked equal across vectors). */
  dimensions?: number;
  /** Time limit of one request, ms. Default 10,000. */
  timeoutMs?: number;
  /** Texts per request. Default 64. */
  batchSize?: number;
}

const KEYS = ['baseUrl', 'model', 'apiKeyEnv', 'dimensions', 'timeoutMs', 'batchSize'] as const;
const EMBEDDINGS_DEFAULT_TIMEOUT_MS = 10_000;
const EMBEDDINGS_DEFAULT_BATCH = 64;
/** Characters of a frame sent to be embedded (longer content is cut; a part of a long save is at most `chunkChars`). */
const EMBED_MAX_CHARS = 8000;

/** Environment variables of the plug-in: {@link embeddingsConfigFromEnv}. */
export const EMBEDDINGS_ENV = {
  baseUrl: 'HIVE_MIND_EMBEDDINGS_URL',
  model: 'HIVE_MIND_EMBEDDINGS_MODEL',
  apiKeyEnv: 'HIVE_MIND_EMBEDDINGS_API_KEY_ENV',
  dimensions: 'HIVE_MIND_EMBEDDINGS_DIMENSIONS',
  timeoutMs: 'HIVE_MIND_EMBEDDINGS_TIMEOUT_MS',
} as const;

/**
 * Check an embeddings configuration. Throws `INVALID` naming the key (`${where}.baseUrl` ...):
 * unknown keys, a base URL that is not http(s), an empty model, an env var name that is not one,
 * a non-integer or out-of-range number.
 */
export function validateEmbeddingsConfig(raw: unknown, where = 'option embeddings'): Required<Omit<EmbeddingsConfig, 'apiKeyEnv' | 'dimensions'>> & Pick<EmbeddingsConfig, 'apiKeyEnv' | 'dimensions'> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new MindError(`${where} must be an object with baseUrl and model`, 'INVALID');
  const c = raw as Record<string, unknown>;
  for (const k of Object.keys(c)) if (!(KEYS as readonly string[]).includes(k)) throw new MindError(`${where}: unknown key ${JSON.stringify(k)} (known: ${KEYS.join(', ')})`, 'INVALID');
  let url: URL;
  try {
    url = new URL(String(c.baseUrl ?? ''));
  } catch {
    throw new MindError(`${where}.baseUrl must be an http(s) URL such as http://127.0.0.1:8080/v1, got ${JSON.stringify(c.baseUrl)}`, 'INVALID');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new MindError(`${where}.baseUrl must be an http(s) URL, got ${JSON.stringify(c.baseUrl)}`, 'INVALID');
  if (typeof c.model !== 'string' || !c.model.trim()) throw new MindError(`${where}.model must be a non-empty string (the embedding model's name), got ${JSON.stringify(c.model)}`, 'INVALID');
  if (c.apiKeyEnv !== undefined && (typeof c.apiKeyEnv !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(c.apiKeyEnv)))
    throw new MindError(`${where}.apiKeyEnv must be the name of an environment variable (e.g. OPENAI_API_KEY), got ${JSON.stringify(c.apiKeyEnv)}`, 'INVALID');
  const int = (k: 'dimensions' | 'timeoutMs' | 'batchSize', min: number, max: number) => {
    const v = c[k];
    if (v !== undefined && !(Number.isInteger(v) && (v as number) >= min && (v as number) <= max)) throw new MindError(`${where}.${k} must be an integer ${min}-${max}, got ${JSON.stringify(v)}`, 'INVALID');
  };
  int('dimensions', 1, 65_536);
  int('timeoutMs', 1, 600_000);
  int('batchSize', 1, 2048);
  return {
    baseUrl: String(c.baseUrl).replace(/\/+$/, ''),
    model: c.model,
    apiKeyEnv: c.apiKeyEnv as string | undefined,
    dimensions: c.dimensions as number | undefined,
    timeoutMs: (c.timeoutMs as number | undefined) ?? EMBEDDINGS_DEFAULT_TIMEOUT_MS,
    batchSize: (c.batchSize as number | undefined) ?? EMBEDDINGS_DEFAULT_BATCH,
  };
}

/**
 * The plug-in's configuration from the environment ({@link EMBEDDINGS_ENV}): undefined when
 * `HIVE_MIND_EMBEDDINGS_URL` is unset or empty (the offline default); else validated, each error
 * naming the variable. Throws `INVALID`.
 */
export function embeddingsConfigFromEnv(env: NodeJS.ProcessEnv = process.env): EmbeddingsConfig | undefined {
  const url = env[EMBEDDINGS_ENV.baseUrl];
  if (!url) return undefined;
  const int = (raw: string | undefined) => (raw && /^\d+$/.test(raw) ? Number(raw) : raw);
  const dims = env[EMBEDDINGS_ENV.dimensions];
  const timeout = env[EMBEDDINGS_ENV.timeoutMs];
  const keyVariable = env[EMBEDDINGS_ENV.apiKeyEnv];
  const cfg: Record<string, unknown> = {
    baseUrl: url,
    model: env[EMBEDDINGS_ENV.model],
    ...(keyVariable ? { apiKeyEnv: keyVariable } : {}),
    ...(dims ? { dimensions: int(dims) } : {}),
    ...(timeout ? { timeoutMs: int(timeout) } : {}),
  };
  try {
    return validateEmbeddingsConfig(cfg, 'embeddings');
  } catch (e) {
    const m = (e as Error).message.replace(/^embeddings\.(\w+)/, (_x, k: keyof typeof EMBEDDINGS_ENV) => `${EMBEDDINGS_ENV[k] ?? k}`);
    throw new MindError(`${m}${cfg.model === undefined ? ` (set ${EMBEDDINGS_ENV.model} beside ${EMBEDDINGS_ENV.baseUrl})` : ''}`, 'INVALID');
  }
}

/** Why a call to the endpoint failed: unreachable, timed out, an HTTP error, or a response of the wrong shape. */
export class EmbeddingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddingsError';
  }
}

/** `EmbeddingsConfig` with its defaults applied. */
export type ResolvedEmbeddings = ReturnType<typeof validateEmbeddingsConfig>;

/**
 * Embed `texts` (each cut to {@link EMBED_MAX_CHARS}) in batches of `batchSize`: one L2-normalized
 * Float32Array per text, in order. Throws {@link EmbeddingsError} (endpoint down, timeout, HTTP
 * status, a response without one vector of the expected length per text), or the API key
 * variable being unset.
 */
export async function embedTexts(cfg: ResolvedEmbeddings, texts: readonly string[], opts: { signal?: AbortSignal; env?: NodeJS.ProcessEnv } = {}): Promise<Float32Array[]> {
  const env = opts.env ?? process.env;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (cfg.apiKeyEnv) {
    const key = env[cfg.apiKeyEnv];
    if (!key) throw new EmbeddingsError(`the API key variable ${cfg.apiKeyEnv} (embeddings.apiKeyEnv) is not set`);
    headers.authorization = `Bearer ${key}`;
  }
  const url = `${cfg.baseUrl}/embeddings`;
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += cfg.batchSize) {
    const input = texts.slice(i, i + cfg.batchSize).map((t) => t.slice(0, EMBED_MAX_CHARS));
    const body: Record<string, unknown> = { model: cfg.model, input };
    if (cfg.dimensions) body.dimensions = cfg.dimensions;
    const timeout = AbortSignal.timeout(cfg.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
      text = await res.text();
    } catch (e) {
      // undici puts the reason in `cause` ("connect ECONNREFUSED 127.0.0.1:9", "other side closed")
      const cause = (e as { cause?: { message?: string; code?: string } }).cause;
      const why = timeout.aborted ? `no answer within ${cfg.timeoutMs} ms` : cause?.message ? `${cause.message}${cause.code && !cause.message.includes(cause.code) ? ` (${cause.code})` : ''}` : (e as Error).message;
      throw new EmbeddingsError(`embeddings endpoint ${url} unreachable: ${why}`);
    }
    if (!res.ok) throw new EmbeddingsError(`embeddings endpoint ${url} answered HTTP ${res.status}: ${text.slice(0, 200)}`);
    out.push(...parseEmbeddings(text, input.length, cfg.dimensions, url));
  }
  return out;
}

/** The vectors of an embeddings response, ordered by `index`, normalized. Throws {@link EmbeddingsError} naming what is wrong. */
function parseEmbeddings(text: string, n: number, dims: number | undefined, url: string): Float32Array[] {
  const bad = (why: string) => new EmbeddingsError(`embeddings endpoint ${url} sent a bad response: ${why}`);
  let json: { data?: Array<{ index?: number; embedding?: unknown }> };
  try {
    json = JSON.parse(text);
  } catch {
    throw bad(`not JSON (${JSON.stringify(text.slice(0, 80))})`);
  }
  const data = json?.data;
  if (!Array.isArray(data) || data.length !== n) throw bad(`expected ${n} vectors in \`data\`, got ${Array.isArray(data) ? data.length : typeof data}`);
  const out = new Array<Float32Array>(n);
  data.forEach((d, k) => {
    const i = Number.isInteger(d?.index) ? d.index! : k;
    const e = d?.embedding;
    let v: Float32Array;
    if (typeof e === 'string') {
      const buf = Buffer.from(e, 'base64');
      v = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength - (buf.byteLength % 4)));
    } else if (Array.isArray(e) && e.every((x) => typeof x === 'number' && Number.isFinite(x))) v = Float32Array.from(e as number[]);
    else throw bad(`data[${k}].embedding is not an array of numbers`);
    if (i < 0 || i >= n || out[i]) throw bad(`data[${k}].index ${i} is out of range or repeated`);
    const want = dims ?? out.find(Boolean)?.length ?? v.length;
    if (v.length === 0 || v.length !== want) throw bad(`data[${k}].embedding has ${v.length} dimensions, expected ${want}`);
    out[i] = normalize(v);
  });
  const len = out[0]!.length;
  if (out.some((v) => v.length !== len)) throw bad('vectors of different lengths');
  return out;
}

function normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s) || 1;
  for (let i = 0; i < v.length; i++) v[i] = v[i]! / n;
  return v;
}
