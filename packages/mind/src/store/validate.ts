import { validateEmbeddingsConfig, type ResolvedEmbeddings } from '../recall/embeddings.js';
import { MindError } from '../errors.js';
import { ESTIMATE_METER, IMPORTANCES, SCOPES, SOURCES, type FrameInput, type MindOptions, type RankingWeights, type TokenCounter } from '../frame.js';

/** Input validation: the options of {@link Mind.open} and every {@link FrameInput}, each error naming the field. */

/** {@link MindOptions} with every default applied and checked. */
export interface MindConfig {
  readonly: boolean;
  meter: TokenCounter;
  busyTimeoutMs: number;
  maxContentBytes: number;
  chunkChars: number;
  ttlDays: number;
  deprecatedDays: number;
  weights: RankingWeights;
  now: () => Date;
  /** The embeddings plug-in, validated; undefined: offline (the default). */
  embeddings?: ResolvedEmbeddings;
}

/**
 * Default `busy_timeout` in ms of {@link Mind.open}: 30 s. SQLite's busy handler is not fair, so with
 * 32 writers on two cores (bench/concurrency.mjs) a CLI or MCP save could wait past 10 s and fail; the
 * hooks use 1.5 s and spool instead of waiting (spool.ts).
 */
export const DEFAULT_BUSY_TIMEOUT_MS = 30_000;

/** Apply the defaults of {@link MindOptions} and validate them. Throws `INVALID` naming the option. */
export function resolveOptions(opts: MindOptions): MindConfig {
  const config: MindConfig = {
    readonly: !!opts.readonly,
    meter: opts.meter ?? ESTIMATE_METER,
    busyTimeoutMs: opts.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
    maxContentBytes: opts.maxContentBytes ?? 16 * 1024 * 1024,
    chunkChars: opts.chunkChars ?? 8000,
    ttlDays: opts.temporaryTtlDays ?? 30,
    deprecatedDays: opts.deprecatedDays ?? 90,
    weights: { relevance: 0.6, importance: 0.25, recency: 0.15, halfLifeDays: 30, ...opts.weights },
    now: opts.now ?? (() => new Date()),
    ...(opts.embeddings !== undefined ? { embeddings: validateEmbeddingsConfig(opts.embeddings) } : {}),
  };
  if (!(config.chunkChars >= 200)) throw new MindError(`option chunkChars must be >= 200, got ${opts.chunkChars}`, 'INVALID');
  if (!(config.maxContentBytes > 0)) throw new MindError(`option maxContentBytes must be > 0, got ${opts.maxContentBytes}`, 'INVALID');
  if (!(config.ttlDays > 0) || !(config.deprecatedDays > 0)) throw new MindError('options temporaryTtlDays and deprecatedDays must be > 0', 'INVALID');
  for (const k of ['relevance', 'importance', 'recency', 'halfLifeDays'] as const)
    if (!(config.weights[k] >= 0) || !Number.isFinite(config.weights[k])) throw new MindError(`option weights.${k} must be a finite number >= 0`, 'INVALID');
  return config;
}

export function validateInput(input: FrameInput, i: number): void {
  const where = (field: string) => `frame input${i >= 0 ? ` #${i}` : ''}: field \`${field}\``;
  if (input === null || typeof input !== 'object') throw new MindError(`frame input${i >= 0 ? ` #${i}` : ''} must be an object`, 'INVALID');
  if (typeof input.content !== 'string') throw new MindError(`${where('content')} must be a string`, 'INVALID');
  if (input.kind !== undefined && (typeof input.kind !== 'string' || !/^[A-Za-z0-9_.:-]{1,64}$/.test(input.kind)))
    throw new MindError(`${where('kind')} must be 1-64 characters of [A-Za-z0-9_.:-], got ${JSON.stringify(input.kind)}`, 'INVALID');
  if (input.importance !== undefined && !IMPORTANCES.includes(input.importance))
    throw new MindError(`${where('importance')} must be one of ${IMPORTANCES.join(', ')}, got ${JSON.stringify(input.importance)}`, 'INVALID');
  if (input.scope !== undefined && !SCOPES.includes(input.scope))
    throw new MindError(`${where('scope')} must be one of ${SCOPES.join(', ')}, got ${JSON.stringify(input.scope)}`, 'INVALID');
  if (input.source !== undefined && !SOURCES.includes(input.source))
    throw new MindError(`${where('source')} must be one of ${SOURCES.join(', ')}, got ${JSON.stringify(input.source)}`, 'INVALID');
  for (const f of ['host', 'sessionId', 'turnId', 'threadKey', 'workspace'] as const) {
    const v = input[f];
    if (v !== undefined && (typeof v !== 'string' || v.length > 512)) throw new MindError(`${where(f)} must be a string of at most 512 characters`, 'INVALID');
  }
  if (input.cwd !== undefined && (typeof input.cwd !== 'string' || input.cwd.length > 4096)) throw new MindError(`${where('cwd')} must be a string of at most 4,096 characters`, 'INVALID');
  if (input.expiresAt != null && (typeof input.expiresAt !== 'string' || Number.isNaN(Date.parse(input.expiresAt))))
    throw new MindError(`${where('expiresAt')} must be an ISO 8601 date, got ${JSON.stringify(input.expiresAt)}`, 'INVALID');
  if (input.createdAt !== undefined) {
    const t = typeof input.createdAt === 'string' ? Date.parse(input.createdAt) : NaN;
    if (Number.isNaN(t)) throw new MindError(`${where('createdAt')} must be an ISO 8601 date, got ${JSON.stringify(input.createdAt)}`, 'INVALID');
    if (t > Date.now() + 86_400_000) throw new MindError(`${where('createdAt')} lies in the future: ${input.createdAt}`, 'INVALID');
  }
  if (input.supersedes != null && (!Number.isInteger(input.supersedes) || input.supersedes <= 0))
    throw new MindError(`${where('supersedes')} must be a positive integer frame id`, 'INVALID');
  if (input.tags !== undefined && (!Array.isArray(input.tags) || input.tags.some((t) => typeof t !== 'string' || t.length > 128)))
    throw new MindError(`${where('tags')} must be an array of strings (at most 128 characters each)`, 'INVALID');
}

