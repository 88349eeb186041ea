import { CompactionConfigError, type ConfigMessage } from './errors.js';
import type { Summarizer } from './summarizer.js';
import { TokenMeter } from './tokens.js';

/** Compaction strategies. See the package README. */
export type CompactionStrategy = 'summarize' | 'mask' | 'auto';

/**
 * Configuration of {@link BasicCompactionEngine}. All budgets are in tokens of the
 * meter's encoding. Give `contextWindow` (then `budget = floor(contextWindow × budgetRatio)`)
 * or an absolute `budget`, not both. `threshold` and `thresholdRatio`, their earlier names,
 * are deprecated aliases of `budget` and `budgetRatio`: still accepted, never beside them.
 */
export interface CompactionConfig {
  /** Model context window (tokens). */
  contextWindow?: number;
  /** Fraction of `contextWindow` the budget is, in (0, 1]. Default 0.8. */
  budgetRatio?: number;
  /** The budget (tokens): compaction starts when the surface is above it, and must end at or below it. */
  budget?: number;
  /** @deprecated The old name of {@link budgetRatio}; accepted, not beside it. */
  thresholdRatio?: number;
  /** @deprecated The old name of {@link budget}; accepted, not beside it. */
  threshold?: number;
  /** Recent tail kept verbatim (tokens). Default `min(20000, floor(budget × 0.3))`. Must be `< budget`. */
  retainTokens?: number;
  /** Upper bound of a checkpoint (tokens, framing included). Default `min(4096, floor(budget × 0.15))`, plus what the verbatim tail leaves unused of `retainTokens` (its cut lands at a balanced point short of it), and at least the headroom the tail leaves below `targetRatio` of the surface (the extractive checkpoint takes only what the span's facts need of it), at most 4096 in all. `summaryMaxTokens + retainTokens` must be `< budget`. */
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
   * When pruning old tool results alone brings the surface under the budget, land only
   * the pruning (no checkpoint). Default true. Set false when the output must be a single
   * checkpoint (e.g. writing back to a host format that can only express a compaction).
   */
  pruneOnly?: boolean;
  /**
   * Tokens the model receives beside the surface that the log does not hold: tool
   * definitions, a host system prompt. They count against `budget`: the surface may
   * take `budget - overheadTokens`. Default 0. Integer >= 0, below the budget.
   */
  overheadTokens?: number;
  /**
   * Headroom: a prune or mask pass lands alone only when it leaves the surface at or below
   * `targetRatio × (budget - overheadTokens)`; otherwise the engine summarizes. Default 0.8.
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

/** A configuration with every default filled in (a deprecated alias given as its option's name). */
export interface ResolvedCompactionConfig {
  contextWindow?: number;
  budgetRatio: number;
  budget: number;
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

/** The share of `contextWindow` the budget is when `budgetRatio` is not given. */
export const DEFAULT_BUDGET_RATIO = 0.8;

/** The deprecated option names, each with the option it stands for. */
const ALIASES = { threshold: 'budget', thresholdRatio: 'budgetRatio' } as const;

const KEYS = new Set([
  'contextWindow',
  'budgetRatio',
  'budget',
  ...Object.keys(ALIASES),
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

/**
 * Validate a configuration and fill defaults. Throws {@link CompactionConfigError} (its `option`
 * the option at fault) on: unknown keys, a deprecated alias beside its option, non-integer or
 * non-positive budgets, a ratio outside (0, 1], both or neither of `contextWindow`/`budget`,
 * `overheadTokens >= budget`, and (with what the surface may take, `budget - overheadTokens`)
 * `retainTokens >=` it, `summaryMaxTokens + retainTokens >=` it. The message names each option
 * as the caller wrote it (`threshold` when the alias was given).
 */
export function resolveConfig(config: CompactionConfig): ResolvedCompactionConfig {
  if (config === null || typeof config !== 'object') throw new CompactionConfigError('compaction config must be an object', '(config)');
  const given = config as Record<string, unknown>;
  for (const k of Object.keys(given)) {
    if (!KEYS.has(k)) throw new CompactionConfigError(`unknown compaction config key ${JSON.stringify(k)} (known: ${[...KEYS].join(', ')})`, k);
  }
  // phase 1: the deprecated aliases become their options; messages still name what was given
  const raw: Record<string, unknown> = { ...given };
  const asGiven: Record<string, string> = {};
  for (const [alias, option] of Object.entries(ALIASES)) {
    if (given[alias] === undefined) continue;
    if (given[option] !== undefined) throw new CompactionConfigError(`give ${option} or ${alias} (its deprecated name), not both`, option);
    raw[option] = given[alias];
    asGiven[option] = alias;
    delete raw[alias];
  }
  const fail = (option: string, words: ConfigMessage) => new CompactionConfigError(words, option, (k) => asGiven[k] ?? k);
  const posInt = (key: string, allowZero = false): number | undefined => {
    const v = raw[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || (!allowZero && v === 0)) {
      throw fail(key, (n) => `${n(key)} must be a ${allowZero ? 'non-negative' : 'positive'} integer (tokens/count), got ${JSON.stringify(v)}`);
    }
    return v;
  };

  // phase 2: the budget, absolute or a share of the window
  const contextWindow = posInt('contextWindow');
  let budgetRatio = DEFAULT_BUDGET_RATIO;
  if (raw.budgetRatio !== undefined) {
    const r = raw.budgetRatio;
    if (typeof r !== 'number' || !(r > 0) || !(r <= 1)) throw fail('budgetRatio', (n) => `${n('budgetRatio')} must be a number in (0, 1], got ${JSON.stringify(r)}`);
    budgetRatio = r;
  }
  const absolute = posInt('budget');
  if (absolute !== undefined && contextWindow !== undefined) throw fail('budget', (n) => `give ${n('contextWindow')} or ${n('budget')}, not both`);
  if (absolute !== undefined && raw.budgetRatio !== undefined) throw fail('budgetRatio', (n) => `${n('budgetRatio')} applies to ${n('contextWindow')}; it cannot be combined with an absolute ${n('budget')}`);
  if (absolute === undefined && contextWindow === undefined) throw fail('budget', (n) => `one of ${n('contextWindow')} or ${n('budget')} is required`);
  const budget = absolute ?? Math.floor(contextWindow! * budgetRatio);
  if (budget < 1) throw fail('contextWindow', (n) => `${n('contextWindow')} × ${n('budgetRatio')} is below 1 token (${contextWindow} × ${budgetRatio})`);

  // phase 3: what the surface may take, and the shares of it
  const overheadTokens = posInt('overheadTokens', true) ?? 0;
  if (overheadTokens >= budget) throw fail('overheadTokens', (n) => `${n('overheadTokens')} (${overheadTokens}) must be below the ${n('budget')} (${budget})`);
  // What the surface may take: the budget less what the model receives beside it.
  const surface = budget - overheadTokens;
  const of = (n: (key: string) => string) => (overheadTokens ? ` less ${n('overheadTokens')} (${budget} - ${overheadTokens} = ${surface})` : ` (${budget})`);
  const retainTokens = posInt('retainTokens') ?? Math.max(1, Math.min(20000, Math.floor(surface * 0.3)));
  if (retainTokens >= surface) throw fail('retainTokens', (n) => `${n('retainTokens')} (${retainTokens}) must be below the ${n('budget')}${of(n)}`);
  const summaryMaxTokens = posInt('summaryMaxTokens') ?? Math.max(1, Math.min(4096, Math.floor(surface * 0.15)));
  if (summaryMaxTokens + retainTokens >= surface) {
    throw fail(
      raw.summaryMaxTokens !== undefined ? 'summaryMaxTokens' : 'retainTokens',
      (n) => `${n('summaryMaxTokens')} + ${n('retainTokens')} (${summaryMaxTokens} + ${retainTokens} = ${summaryMaxTokens + retainTokens}) must be below the ${n('budget')}${of(n)}`,
    );
  }
  let targetRatio = 0.8;
  if (raw.targetRatio !== undefined) {
    const r = raw.targetRatio;
    if (typeof r !== 'number' || !(r > 0) || !(r <= 1)) throw fail('targetRatio', (n) => `${n('targetRatio')} must be a number in (0, 1], got ${JSON.stringify(r)}`);
    targetRatio = r;
  }
  if (raw.fallback !== undefined && typeof raw.fallback !== 'boolean') throw fail('fallback', (n) => `${n('fallback')} must be a boolean, got ${JSON.stringify(raw.fallback)}`);
  const compactionRetries = posInt('compactionRetries', true) ?? 2;
  const strategy = (raw.strategy ?? 'summarize') as CompactionStrategy;
  if (strategy !== 'summarize' && strategy !== 'mask' && strategy !== 'auto') {
    throw fail('strategy', (n) => `${n('strategy')} must be one of summarize, mask, auto; got ${JSON.stringify(raw.strategy)}`);
  }
  const summarizer = raw.summarizer as Summarizer | undefined;
  if (summarizer !== undefined && (typeof summarizer !== 'object' || summarizer === null || typeof summarizer.summarize !== 'function' || typeof summarizer.name !== 'string')) {
    throw fail('summarizer', (n) => `${n('summarizer')} must be an object with a name and a summarize(input) method`);
  }
  const meter = raw.meter as TokenMeter | undefined;
  if (meter !== undefined && !(meter instanceof TokenMeter)) throw fail('meter', (n) => `${n('meter')} must be a TokenMeter`);
  if (raw.pruneOnly !== undefined && typeof raw.pruneOnly !== 'boolean') throw fail('pruneOnly', (n) => `${n('pruneOnly')} must be a boolean, got ${JSON.stringify(raw.pruneOnly)}`);
  if (raw.anchors !== undefined && typeof raw.anchors !== 'boolean') throw fail('anchors', (n) => `${n('anchors')} must be a boolean, got ${JSON.stringify(raw.anchors)}`);
  return {
    contextWindow,
    budgetRatio,
    budget,
    retainTokens,
    summaryMaxTokens,
    summaryMaxGiven: raw.summaryMaxTokens !== undefined,
    compactionRetries,
    strategy,
    summarizer,
    meter: meter ?? new TokenMeter(),
    pruneMinTokens: posInt('pruneMinTokens') ?? 2000,
    pruneHeadLines: posInt('pruneHeadLines', true) ?? 20,
    pruneTailLines: posInt('pruneTailLines', true) ?? 20,
    maskKeepRecent: posInt('maskKeepRecent', true) ?? 5,
    anchors: (raw.anchors as boolean | undefined) ?? true,
    maxIdentifierAnchors: posInt('maxIdentifierAnchors', true) ?? 40,
    pruneOnly: (raw.pruneOnly as boolean | undefined) ?? true,
    overheadTokens,
    targetRatio,
    fallback: (raw.fallback as boolean | undefined) ?? true,
    failureBackoffMs: posInt('failureBackoffMs') ?? 60_000,
  };
}
