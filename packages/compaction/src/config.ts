import { CompactionConfigError } from './errors.js';
import type { Summarizer } from './summarizer.js';
import { TokenMeter } from './tokens.js';

/** Compaction strategies. See the package README. */
export type CompactionStrategy = 'summarize' | 'mask' | 'auto';

/**
 * Configuration of {@link BasicCompactionEngine}. All budgets are in tokens of the
 * meter's encoding. Give `contextWindow` (then `threshold = floor(contextWindow × thresholdRatio)`)
 * or an absolute `threshold`, not both.
 */
export interface CompactionConfig {
  /** Model context window (tokens). */
  contextWindow?: number;
  /** Fraction of `contextWindow` at which compaction starts, in (0, 1]. Default 0.8. */
  thresholdRatio?: number;
  /** Absolute threshold (tokens): compaction starts when the surface is above it, and must end at or below it. */
  threshold?: number;
  /** Recent tail kept verbatim (tokens). Default `min(20000, floor(threshold × 0.3))`. Must be `< threshold`. */
  retainTokens?: number;
  /** Upper bound of a checkpoint (tokens, framing included). Default `min(4096, floor(threshold × 0.15))`, plus what the verbatim tail leaves unused of `retainTokens` (its cut lands at a balanced point short of it), at most 4096 in all. `summaryMaxTokens + retainTokens` must be `< threshold`. */
  summaryMaxTokens?: number;
  /** Extra attempts after a failed one (summarizer error, verification failure). Default 2. Integer >= 0. */
  compactionRetries?: number;
  /** `summarize` (default), `mask` (observation masking only) or `auto` (mask, summarize only if still over). */
  strategy?: CompactionStrategy;
  /** Summarizer used by `summarize`/`auto`. Default: the offline extractive summarizer. */
  summarizer?: Summarizer;
  /** Token meter. Default `new TokenMeter()` (o200k_base, exact). */
  meter?: TokenMeter;
  /** Old tool results above this size (tokens) are pruned before summarizing. Default 2000. */
  pruneMinTokens?: number;
  /** Lines kept at the head of a pruned tool result. Default 20. */
  pruneHeadLines?: number;
  /** Lines kept at the tail of a pruned tool result. Default 20. */
  pruneTailLines?: number;
  /** `mask`/`auto`: the newest N tool results stay verbatim. Default 5. Integer >= 0. */
  maskKeepRecent?: number;
  /** Check anchors and re-insert missing ones. Default true. */
  anchors?: boolean;
  /** Cap on identifier anchors taken from the retained tail. Default 40. Integer >= 0. */
  maxIdentifierAnchors?: number;
  /**
   * When pruning old tool results alone brings the surface under the threshold, land only
   * the pruning (no checkpoint). Default true. Set false when the output must be a single
   * checkpoint (e.g. writing back to a host format that can only express a compaction).
   */
  pruneOnly?: boolean;
  /**
   * Tokens the model receives beside the surface that the log does not hold: tool
   * definitions, a host system prompt. They count against `threshold`: the surface may
   * take `threshold - overheadTokens`. Default 0. Integer >= 0, below the threshold.
   */
  overheadTokens?: number;
  /**
   * Headroom: a prune or mask pass lands alone only when it leaves the surface at or below
   * `targetRatio × (threshold - overheadTokens)`; otherwise the engine summarizes. Default 0.8.
   * Number in (0, 1].
   */
  targetRatio?: number;
  /**
   * When the summarizer (an LLM) fails after its retries, land the extractive checkpoint
   * instead and say so in the result (`fallback`). Default true; false keeps fail-closed.
   */
  fallback?: boolean;
  /**
   * After a failed compaction, `compactIfNeeded` and `compactNow` wait (result
   * `noopReason: 'backing-off'`) until the surface has grown by a quarter of its budget or
   * this long has passed (ms), doubling per consecutive failure (at most 16 times). Default 60000.
   */
  failureBackoffMs?: number;
}

/** A configuration with every default filled in. */
export interface ResolvedCompactionConfig {
  contextWindow?: number;
  thresholdRatio: number;
  threshold: number;
  retainTokens: number;
  summaryMaxTokens: number;
  /** True when `summaryMaxTokens` was given: then it bounds every checkpoint; the default also takes the room the verbatim tail leaves of `retainTokens` (engine.ts). */
  summaryMaxGiven: boolean;
  compactionRetries: number;
  strategy: CompactionStrategy;
  summarizer?: Summarizer;
  meter: TokenMeter;
  pruneMinTokens: number;
  pruneHeadLines: number;
  pruneTailLines: number;
  maskKeepRecent: number;
  anchors: boolean;
  maxIdentifierAnchors: number;
  pruneOnly: boolean;
  overheadTokens: number;
  targetRatio: number;
  fallback: boolean;
  failureBackoffMs: number;
}

const KEYS = new Set([
  'contextWindow',
  'thresholdRatio',
  'threshold',
  'retainTokens',
  'summaryMaxTokens',
  'compactionRetries',
  'strategy',
  'summarizer',
  'meter',
  'pruneMinTokens',
  'pruneHeadLines',
  'pruneTailLines',
  'maskKeepRecent',
  'anchors',
  'maxIdentifierAnchors',
  'pruneOnly',
  'overheadTokens',
  'targetRatio',
  'fallback',
  'failureBackoffMs',
]);

function posInt(cfg: Record<string, unknown>, key: string, allowZero = false): number | undefined {
  const v = cfg[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || (!allowZero && v === 0)) {
    throw new CompactionConfigError((n) => `${n(key)} must be a ${allowZero ? 'non-negative' : 'positive'} integer (tokens/count), got ${JSON.stringify(v)}`, key);
  }
  return v;
}

/**
 * Validate a configuration and fill defaults. Throws {@link CompactionConfigError}
 * (naming the key) on: unknown keys, non-integer or non-positive budgets, a ratio
 * outside (0, 1], both or neither of `contextWindow`/`threshold`, `overheadTokens >=
 * threshold`, and (with the surface budget `threshold - overheadTokens`) `retainTokens >=
 * budget`, `summaryMaxTokens + retainTokens >= budget`.
 */
export function resolveConfig(config: CompactionConfig): ResolvedCompactionConfig {
  if (config === null || typeof config !== 'object') throw new CompactionConfigError('compaction config must be an object', '(config)');
  const raw = config as Record<string, unknown>;
  for (const k of Object.keys(raw)) {
    if (!KEYS.has(k)) throw new CompactionConfigError(`unknown compaction config key ${JSON.stringify(k)} (known: ${[...KEYS].join(', ')})`, k);
  }
  const contextWindow = posInt(raw, 'contextWindow');
  let thresholdRatio = 0.8;
  if (raw.thresholdRatio !== undefined) {
    const r = raw.thresholdRatio;
    if (typeof r !== 'number' || !(r > 0) || !(r <= 1)) throw new CompactionConfigError((n) => `${n('thresholdRatio')} must be a number in (0, 1], got ${JSON.stringify(r)}`, 'thresholdRatio');
    thresholdRatio = r;
  }
  let threshold = posInt(raw, 'threshold');
  if (threshold !== undefined && contextWindow !== undefined) throw new CompactionConfigError((n) => `give ${n('contextWindow')} or ${n('threshold')}, not both`, 'threshold');
  if (threshold !== undefined && raw.thresholdRatio !== undefined) throw new CompactionConfigError((n) => `${n('thresholdRatio')} applies to ${n('contextWindow')}; it cannot be combined with an absolute ${n('threshold')}`, 'thresholdRatio');
  if (threshold === undefined) {
    if (contextWindow === undefined) throw new CompactionConfigError((n) => `one of ${n('contextWindow')} or ${n('threshold')} is required`, 'threshold');
    threshold = Math.floor(contextWindow * thresholdRatio);
    if (threshold < 1) throw new CompactionConfigError((n) => `${n('contextWindow')} × ${n('thresholdRatio')} is below 1 token (${contextWindow} × ${thresholdRatio})`, 'contextWindow');
  }
  const overheadTokens = posInt(raw, 'overheadTokens', true) ?? 0;
  if (overheadTokens >= threshold) throw new CompactionConfigError((n) => `${n('overheadTokens')} (${overheadTokens}) must be below the ${n('threshold')} (${threshold})`, 'overheadTokens');
  // What the surface may take: the threshold less what the model receives beside it.
  const budget = threshold - overheadTokens;
  const of = (n: (key: string) => string) => (overheadTokens ? ` less ${n('overheadTokens')} (${threshold} - ${overheadTokens} = ${budget})` : ` (${threshold})`);
  const retainTokens = posInt(raw, 'retainTokens') ?? Math.max(1, Math.min(20000, Math.floor(budget * 0.3)));
  if (retainTokens >= budget) throw new CompactionConfigError((n) => `${n('retainTokens')} (${retainTokens}) must be below the ${n('threshold')}${of(n)}`, 'retainTokens');
  const summaryMaxTokens = posInt(raw, 'summaryMaxTokens') ?? Math.max(1, Math.min(4096, Math.floor(budget * 0.15)));
  if (summaryMaxTokens + retainTokens >= budget) {
    throw new CompactionConfigError(
      (n) => `${n('summaryMaxTokens')} + ${n('retainTokens')} (${summaryMaxTokens} + ${retainTokens} = ${summaryMaxTokens + retainTokens}) must be below the ${n('threshold')}${of(n)}`,
      raw.summaryMaxTokens !== undefined ? 'summaryMaxTokens' : 'retainTokens',
    );
  }
  let targetRatio = 0.8;
  if (raw.targetRatio !== undefined) {
    const r = raw.targetRatio;
    if (typeof r !== 'number' || !(r > 0) || !(r <= 1)) throw new CompactionConfigError((n) => `${n('targetRatio')} must be a number in (0, 1], got ${JSON.stringify(r)}`, 'targetRatio');
    targetRatio = r;
  }
  if (raw.fallback !== undefined && typeof raw.fallback !== 'boolean') throw new CompactionConfigError((n) => `${n('fallback')} must be a boolean, got ${JSON.stringify(raw.fallback)}`, 'fallback');
  const compactionRetries = posInt(raw, 'compactionRetries', true) ?? 2;
  const strategy = (raw.strategy ?? 'summarize') as CompactionStrategy;
  if (strategy !== 'summarize' && strategy !== 'mask' && strategy !== 'auto') {
    throw new CompactionConfigError((n) => `${n('strategy')} must be one of summarize, mask, auto; got ${JSON.stringify(raw.strategy)}`, 'strategy');
  }
  const summarizer = raw.summarizer as Summarizer | undefined;
  if (summarizer !== undefined && (typeof summarizer !== 'object' || summarizer === null || typeof summarizer.summarize !== 'function' || typeof summarizer.name !== 'string')) {
    throw new CompactionConfigError((n) => `${n('summarizer')} must be an object with a name and a summarize(input) method`, 'summarizer');
  }
  const meter = raw.meter as TokenMeter | undefined;
  if (meter !== undefined && !(meter instanceof TokenMeter)) throw new CompactionConfigError('meter must be a TokenMeter', 'meter');
  if (raw.pruneOnly !== undefined && typeof raw.pruneOnly !== 'boolean') throw new CompactionConfigError(`pruneOnly must be a boolean, got ${JSON.stringify(raw.pruneOnly)}`, 'pruneOnly');
  if (raw.anchors !== undefined && typeof raw.anchors !== 'boolean') throw new CompactionConfigError(`anchors must be a boolean, got ${JSON.stringify(raw.anchors)}`, 'anchors');
  return {
    contextWindow,
    thresholdRatio,
    threshold,
    retainTokens,
    summaryMaxTokens,
    summaryMaxGiven: raw.summaryMaxTokens !== undefined,
    compactionRetries,
    strategy,
    summarizer,
    meter: meter ?? new TokenMeter(),
    pruneMinTokens: posInt(raw, 'pruneMinTokens') ?? 2000,
    pruneHeadLines: posInt(raw, 'pruneHeadLines', true) ?? 20,
    pruneTailLines: posInt(raw, 'pruneTailLines', true) ?? 20,
    maskKeepRecent: posInt(raw, 'maskKeepRecent', true) ?? 5,
    anchors: (raw.anchors as boolean | undefined) ?? true,
    maxIdentifierAnchors: posInt(raw, 'maxIdentifierAnchors', true) ?? 40,
    pruneOnly: (raw.pruneOnly as boolean | undefined) ?? true,
    overheadTokens,
    targetRatio,
    fallback: (raw.fallback as boolean | undefined) ?? true,
    failureBackoffMs: posInt(raw, 'failureBackoffMs') ?? 60_000,
  };
}
