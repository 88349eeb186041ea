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

/**
 * Longest run of non-whitespace (or of whitespace) characters handed to the BPE encoder in
 * one piece. BPE merging is quadratic in the length of one pre-tokenized piece (measured
 * with gpt-tokenizer: 100k characters of one letter took 6.4 s, 2 MB did not finish in 12
 * minutes), and the o200k/cl100k pre-tokenizers never break such a run, so longer runs are
 * counted in slices of this many characters. 256 is a multiple of the longest o200k token
 * of a repeated letter (8), so a run of one character is still counted exactly.
 */
export const MAX_ENCODED_RUN = 256;
/** A whole-text fast path: texts without a run above {@link MAX_ENCODED_RUN} go to the encoder as they are. */
const LONG_RUN = new RegExp(`\\S{${MAX_ENCODED_RUN + 1},}|\\s{${MAX_ENCODED_RUN + 1},}`, 'g');

function loadEncoder(name: EncodingName): CountFn {
  let fn = encoders.get(name);
  if (!fn) {
    const mod = require_(`gpt-tokenizer/encoding/${name}`) as { countTokens: (t: string, o?: unknown) => number };
    // Special-token strings in user content are counted as ordinary text.
    const opts = { disallowedSpecial: new Set<string>(), allowedSpecial: new Set<string>() };
    const count = (t: string) => mod.countTokens(t, opts);
    fn = (t: string) => countLinear(t, count);
    encoders.set(name, fn);
  }
  return fn;
}

/**
 * Count `text` with `count` in time linear in its length: the text between long runs goes to
 * the encoder whole; a run longer than {@link MAX_ENCODED_RUN} is counted slice by slice,
 * each slice ending, where it can, just before a punctuation character (where the
 * pre-tokenizer starts a new piece anyway). Exact for ordinary text; for a long run, off
 * by at most one token per slice (a token that would have spanned a slice boundary).
 */
export function countLinear(text: string, count: (t: string) => number): number {
  LONG_RUN.lastIndex = 0;
  let m = LONG_RUN.exec(text);
  if (!m) return count(text);
  let n = 0;
  let from = 0;
  for (; m; m = LONG_RUN.exec(text)) {
    if (m.index > from) n += count(text.slice(from, m.index));
    const run = m[0];
    for (let i = 0; i < run.length; ) {
      let j = Math.min(run.length, i + MAX_ENCODED_RUN);
      if (j < run.length) {
        // prefer a cut before a non-alphanumeric character in the last quarter of the slice
        for (let k = j; k > i + (MAX_ENCODED_RUN * 3) / 4; k--) {
          if (!/[\p{L}\p{N}]/u.test(run[k]!) && /[\p{L}\p{N}]/u.test(run[k - 1]!)) {
            j = k;
            break;
          }
        }
      }
      n += count(run.slice(i, j));
      i = j;
    }
    from = m.index + run.length;
  }
  if (from < text.length) n += count(text.slice(from));
  return n;
}

/**
 * Counts tokens of text, blocks and session events.
 *
 * - Units: every count is in tokens of the configured encoding.
 * - Per-event counts are cached by event object (a `WeakMap`), so measuring a growing log
 *   costs O(new events) (events are immutable once appended), and one meter can count any
 *   number of logs or plain event arrays: two events that share a seq in different logs
 *   are different objects and never share a count.
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
  private readonly cache = new WeakMap<SessionEvent, number>();

  constructor(opts: TokenMeterOptions = {}) {
    this.encoding = opts.encoding ?? 'o200k_base';
    this.charsPerToken = opts.charsPerToken ?? 4;
    this.perMessageOverhead = opts.perMessageOverhead ?? 4;
    this.mode = opts.mode ?? 'exact';
    if (!(this.charsPerToken > 0) || !Number.isFinite(this.charsPerToken)) throw new RangeError(`charsPerToken must be a positive number, got ${opts.charsPerToken}`);
    if (!Number.isInteger(this.perMessageOverhead) || this.perMessageOverhead < 0) throw new RangeError(`perMessageOverhead must be a non-negative integer, got ${opts.perMessageOverhead}`);
  }

  /**
   * Tokens in a string. Linear in its length whatever it holds (see {@link countLinear}).
   * Falls back to `ceil(chars / charsPerToken)` when encoding fails.
   */
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
   * log-only events count 0 (they are never sent to a model). Cached per event object,
   * so the count is the event's own whichever log or array it comes from (an event must
   * not be mutated after it is counted; appended events never are).
   */
  countEvent(event: SessionEvent): number {
    const hit = this.cache.get(event);
    if (hit !== undefined) return hit;
    const n = isMessageEvent(event) ? this.countBlocks(event.content) + this.perMessageOverhead : 0;
    this.cache.set(event, n);
    return n;
  }

  /** Sum of {@link countEvent} over events (a surface or a span). */
  countEvents(events: Iterable<SessionEvent>): number {
    let n = 0;
    for (const e of events) n += this.countEvent(e);
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
}

/** True once the exact encoder for `name` has been loaded in this process. */
export function isEncoderLoaded(name: EncodingName = 'o200k_base'): boolean {
  return encoders.has(name);
}
