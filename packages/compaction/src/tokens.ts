import { createRequire } from 'node:module';
import { blockText, isMessageEvent, type ContentBlock, type SessionEvent } from '@hive-mind/session';

/** Tokenizer encodings the meter can load (names as in tiktoken / gpt-tokenizer). */
export type EncodingName = 'o200k_base' | 'cl100k_base';

/** Options of {@link TokenMeter}. */
export interface TokenMeterOptions {
  /** Encoding for exact counts. Default `o200k_base` (GPT-4o / o-series / GPT-5 family). */
  encoding?: EncodingName;
  /**
   * Characters per token for text the tokenizer cannot encode, and for the
   * `estimate` mode. Default 4 (OpenAI's rule of thumb for English).
   */
  charsPerToken?: number;
  /**
   * Tokens added per message for role and framing, as in OpenAI's chat format
   * accounting (`<|start|>role<|message|>...<|end|>`). Default 4.
   */
  perMessageOverhead?: number;
  /**
   * `exact` (default) loads the tokenizer on first use (~350 ms); `estimate`
   * never loads it and counts `ceil(chars / charsPerToken)` (hook hot paths).
   */
  mode?: 'exact' | 'estimate';
}

type CountFn = (text: string) => number;
const require_ = createRequire(import.meta.url);
const encoders = new Map<EncodingName, CountFn>();

function loadEncoder(name: EncodingName): CountFn {
  let fn = encoders.get(name);
  if (!fn) {
    const mod = require_(`gpt-tokenizer/encoding/${name}`) as { countTokens: (t: string, o?: unknown) => number };
    // Special-token strings in user content are counted as ordinary text.
    const opts = { disallowedSpecial: new Set<string>(), allowedSpecial: new Set<string>() };
    fn = (t: string) => mod.countTokens(t, opts);
    encoders.set(name, fn);
  }
  return fn;
}

/**
 * Counts tokens of text, blocks and session events.
 *
 * - Units: every count is in tokens of the configured encoding.
 * - Per-event counts are cached by seq, so measuring a growing log costs
 *   O(new events) (events are immutable once appended).
 * - Calibration: when a caller reports the provider's real prompt size for a
 *   request we measured, {@link calibrate} learns a factor (exponential moving
 *   average) that {@link adjusted} applies, so budgets track the real model.
 */
export class TokenMeter {
  readonly encoding: EncodingName;
  readonly charsPerToken: number;
  readonly perMessageOverhead: number;
  readonly mode: 'exact' | 'estimate';
  private factor = 1;
  private samples = 0;
  private readonly cache = new Map<number, number>();
  private readonly cacheOwner = new WeakMap<object, Map<number, number>>();

  constructor(opts: TokenMeterOptions = {}) {
    this.encoding = opts.encoding ?? 'o200k_base';
    this.charsPerToken = opts.charsPerToken ?? 4;
    this.perMessageOverhead = opts.perMessageOverhead ?? 4;
    this.mode = opts.mode ?? 'exact';
    if (!(this.charsPerToken > 0) || !Number.isFinite(this.charsPerToken)) throw new RangeError(`charsPerToken must be a positive number, got ${opts.charsPerToken}`);
    if (!Number.isInteger(this.perMessageOverhead) || this.perMessageOverhead < 0) throw new RangeError(`perMessageOverhead must be a non-negative integer, got ${opts.perMessageOverhead}`);
  }

  /** Tokens in a string. Falls back to `ceil(chars / charsPerToken)` when encoding fails. */
  countText(text: string): number {
    if (!text) return 0;
    if (this.mode === 'estimate') return this.estimateText(text);
    try {
      return loadEncoder(this.encoding)(text);
    } catch {
      return this.estimateText(text);
    }
  }

  /** `ceil(chars / charsPerToken)`: the estimate used where the tokenizer is not loaded. */
  estimateText(text: string): number {
    return Math.ceil(text.length / this.charsPerToken);
  }

  /** Tokens in a list of content blocks (text as rendered by `blockText`). */
  countBlocks(blocks: readonly ContentBlock[]): number {
    let n = 0;
    for (const b of blocks) n += this.countText(blockText(b));
    return n;
  }

  /**
   * Tokens of one event: content plus per-message overhead for message events;
   * log-only events count 0 (they are never sent to a model). Cached by seq
   * per `owner` (a log object), or globally when no owner is given.
   */
  countEvent(event: SessionEvent, owner?: object): number {
    const cache = owner ? this.cacheFor(owner) : this.cache;
    const hit = cache.get(event.seq);
    if (hit !== undefined) return hit;
    const n = isMessageEvent(event) ? this.countBlocks(event.content) + this.perMessageOverhead : 0;
    cache.set(event.seq, n);
    return n;
  }

  /** Sum of {@link countEvent} over events (a surface or a span). */
  countEvents(events: Iterable<SessionEvent>, owner?: object): number {
    let n = 0;
    for (const e of events) n += this.countEvent(e, owner);
    return n;
  }

  /**
   * Learn from provider-reported usage: `measured` is what this meter counted for a
   * prompt, `reported` the provider's `input_tokens`/`prompt_tokens` for it.
   * Ignores non-positive or non-finite values. Returns the current factor.
   */
  calibrate(measured: number, reported: number): number {
    if (!(measured > 0) || !(reported > 0) || !Number.isFinite(measured) || !Number.isFinite(reported)) return this.factor;
    const r = reported / measured;
    this.samples++;
    const alpha = this.samples === 1 ? 1 : 0.3;
    this.factor = this.factor * (1 - alpha) + r * alpha;
    return this.factor;
  }

  /** Current calibration factor (1 until {@link calibrate} is called). */
  get calibration(): number {
    return this.factor;
  }

  /** A raw count scaled by the calibration factor, rounded up. */
  adjusted(tokens: number): number {
    return Math.ceil(tokens * this.factor);
  }

  private cacheFor(owner: object): Map<number, number> {
    let m = this.cacheOwner.get(owner);
    if (!m) {
      m = new Map();
      this.cacheOwner.set(owner, m);
    }
    return m;
  }
}

/** True once the exact encoder for `name` has been loaded in this process. */
export function isEncoderLoaded(name: EncodingName = 'o200k_base'): boolean {
  return encoders.has(name);
}
