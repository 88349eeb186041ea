import {
  balancedCuts,
  isMessageEvent,
  text as textBlock,
  type CompactionEndData,
  type CompactionStartData,
  type CompactionSummaryData,
  type ContentBlock,
  type MessageEvent,
  type NewEvent,
  type SessionLog,
  type SurfaceNode,
} from '@hive-mind/session';
import { randomUUID } from 'node:crypto';
import { checkAnchors, extractAnchors, MAX_REINSERTED_IDENTIFIERS, reinsertAnchors, type Anchor } from './anchors.js';
import { resolveConfig, type CompactionConfig, type CompactionStrategy, type ResolvedCompactionConfig } from './config.js';
import {
  BudgetTooSmallError,
  CompactionAbortedError,
  CompactionError,
  CompactionFailedError,
  MissingPackageError,
  SummarizerError,
  raceAbort,
  throwIfAborted,
} from './errors.js';
import { ExtractiveSummarizer } from './extractive.js';
import { frameCheckpoint } from './frame.js';
import { recordedWorkingFolder } from './paths.js';
import { headEndOf, planMask, planPrune, planRetention, pruneInProportion, savedBy, spanPlan, nodeTokens, type BudgetShortfall, type PlanContext, type Replacement, type SpanPlan } from './plan.js';
import type { RepairedSection } from './repair.js';
import type { Summarizer } from './summarizer.js';
import type { TokenMeter } from './tokens.js';

/** Per-call options of the engine methods. */
export interface CompactOptions {
  /** Cancels the compaction: the method throws a {@link CompactionAbortedError} (name `AbortError`) and appends `compaction/end {error: 'aborted'}`. */
  signal?: AbortSignal;
  /** Plan only: nothing is summarized or appended; the result estimates the outcome (`dryRun: true`). */
  dryRun?: boolean;
  /** Phase reports for progress display (`measuring`, `planning`, `summarize`, `verifying`, `landing`). */
  onProgress?: (phase: string, detail?: Record<string, unknown>) => void;
}

/** What one compaction did (or, with `compacted: false`, why it did nothing). Tokens are meter tokens. */
export interface CompactionResult {
  compacted: boolean;
  /**
   * Why nothing happened: the surface is at or under the budget, nothing can be compacted,
   * or an earlier compaction of this surface failed and the engine is waiting (`backoff` says until when).
   */
  noopReason?: 'under-budget' | 'nothing-to-compact' | 'backing-off';
  /** True for a dry run: seqs below are what would be shadowed, `tokensAfter` an upper-bound estimate. */
  dryRun?: boolean;
  /** Compaction id (`data.id` of its records). */
  id?: string;
  /** Configured strategy. */
  strategy: CompactionStrategy;
  /** What landed: a checkpoint (`summarize`), pruned tool results only (`prune`), masked observations (`mask`). */
  action?: 'summarize' | 'prune' | 'mask';
  startSeq?: number;
  /** Seq of the checkpoint node (summarize). */
  checkpointSeq?: number;
  /** Seq of the `compaction/summary` record. */
  summarySeq?: number;
  endSeq?: number;
  /** Checkpoint content (one text block holding the framed summary); empty for prune/mask. */
  summary: ContentBlock[];
  /** Surface seqs no longer visible, in surface order. */
  shadowedSeqs: number[];
  /** Tokens of the shadowed nodes. */
  shadowedTokens: number;
  /** Seqs of replacement nodes for pruned/masked tool results. */
  replacementSeqs: number[];
  tokensBefore: number;
  tokensAfter: number;
  /** The budget the surface had to fit in (tokens, `config.budget`). */
  budget: number;
  /** Tokens of the checkpoint node (0 when none); in a dry run of a summarize, the checkpoint's upper bound. */
  summaryTokens: number;
  summarizer?: string;
  model?: string;
  anchors: { total: number; kept: number; reinserted: number };
  /** Summarize attempts made (0 for prune/mask/no-op). */
  attempts: number;
  /** Tokens the model receives beside the surface (`overheadTokens`), counted against `budget`. */
  overheadTokens: number;
  /** Set when the configured summarizer failed (or is being backed off) and the extractive checkpoint landed instead. */
  fallback?: { from: string; reason: string };
  /**
   * Set with `noopReason: 'backing-off'`, and on a compaction that was a single probe after a
   * backoff: consecutive failures of this log's compaction, the last error, and when the
   * engine tries again (epoch ms, or once the surface has `retryAtTokens` tokens, whichever comes first).
   */
  backoff?: { failures: number; lastError: string; retryAt: number; retryAtTokens: number };
  /** LLM summarizers: requests sent for the checkpoint that landed, the largest (tokens, input plus output limit) and the summarizer's window. */
  summarizerRequests?: { requests: number; largestRequestTokens: number; window: number };
  /** LLM summarizers: the checkpoint sections the reply lacked, and what wrote them (`follow-up`: asked once more; `extractive`: from the extractive checkpoint of the span). */
  repairedSections?: RepairedSection[];
}

/** The compaction seam. Other engines (template, remote) implement the same interface. */
export interface CompactionEngine {
  /** Compact when the surface is above the budget; otherwise a no-op result. */
  compactIfNeeded(log: SessionLog, opts?: CompactOptions): Promise<CompactionResult>;
  /** Compact now, whatever the pressure (keeps the retained tail). */
  compactNow(log: SessionLog, opts?: CompactOptions): Promise<CompactionResult>;
  /** Summarize exactly the surface nodes from seq `start` to seq `end` (inclusive, surface order; both cuts must be balanced). */
  compactRegion(log: SessionLog, start: number, end: number, opts?: CompactOptions): Promise<CompactionResult>;
}

/** Smallest checkpoint body (tokens) worth landing: room for the primary request and the next step. */
const MIN_CHECKPOINT_BODY_TOKENS = 128;

interface Gauge {
  generation: number;
  lastSeq: number;
  total: number;
}

/** A failed compaction of one log, remembered so the next calls wait instead of retrying at once. */
interface FailureMemory {
  failures: number;
  lastError: string;
  /** Epoch ms after which one probe attempt is allowed. */
  until: number;
  /** Surface tokens at which one probe attempt is allowed. */
  grownAt: number;
  /** The summarizer failed but the extractive fallback landed: skip the summarizer while waiting. */
  rescued: boolean;
}

/** How {@link BasicCompactionEngine.summarizeSpan} summarizes: with which summarizer, how many retries, and what to report. */
interface SummarizeHow {
  pruned?: Replacement[];
  region?: boolean;
  /** Summarizer to use (default the configured one). */
  summarizer?: Summarizer;
  /** Extra attempts (default `compactionRetries`; 0 for a probe after a backoff). */
  retries?: number;
  /** Why the configured summarizer is skipped (backing off): the extractive one is used and the result says so. */
  skipReason?: string;
}

/** What every attempt at one checkpoint shares. */
interface CheckpointJob {
  log: SessionLog;
  id: string;
  startSeq: number;
  span: readonly SurfaceNode[];
  /** The span as the summarizer reads it (pruned tool results). */
  spanForSummary: readonly SurfaceNode[];
  tail: readonly SurfaceNode[];
  anchors: Anchor[];
  ckMax: number;
  plan: SpanPlan;
  region: boolean;
  /** The session's working folder the log records up to the span's end (paths.ts). */
  cwd?: string;
  signal?: AbortSignal;
  onProgress?: CompactOptions['onProgress'];
}

/** A checkpoint that landed: its seqs, what was verified, the reply, the attempts it took and who wrote it. */
interface Landed {
  landed: { checkpointSeq: number; summarySeq: number; endSeq: number; replacementSeqs: number[] };
  verdict: VerifiedCheckpoint;
  reply: { body: string; model?: string; requests?: CompactionResult['summarizerRequests']; repaired?: RepairedSection[] };
  attempts: number;
  by: Summarizer;
}

/** A checkpoint that passed verification, ready to land. */
interface VerifiedCheckpoint {
  content: ContentBlock[];
  tokens: number;
  /** Surface tokens once it lands (before re-measuring). */
  projected: number;
  anchors: { total: number; kept: number; reinserted: number; lost: string[] };
}

/** One summarizer reply (or why there is none). */
type SummaryAttempt = { body: string; model?: string; requests?: CompactionResult['summarizerRequests']; repaired?: RepairedSection[] } | { error: string; retryable: boolean };

/** Longest wait after repeated failures, as a multiple of `failureBackoffMs` (and of the growth step). */
const MAX_BACKOFF_FACTOR = 16;
/** Largest default checkpoint (tokens), as the `summaryMaxTokens` default caps it: a tail's unused room never grows a checkpoint past it. */
const DEFAULT_SUMMARY_CAP = 4096;

/**
 * The basic engine (see the package README and DESIGN "Compaction"), in pipeline order:
 * measure pressure -> plan (pure, plan.ts: mask, retention walk, prune) -> summarize once
 * -> verify (shrinks its source, fits the budget, anchors survive) -> land as one replace
 * framed as a checkpoint -> re-measure; at most `compactionRetries` more attempts, then
 * fail closed.
 *
 * Records: `compaction/start` first, then (in one atomic append) the replacement
 * node(s), `compaction/summary` and `compaction/end`; on failure only
 * `compaction/end {error}` and the surface is untouched. Their data are
 * `CompactionStartData`, `CompactionSummaryData`, `CompactionEndData` (session package).
 *
 * @throws CompactionConfigError at construction on a bad config.
 */
export class BasicCompactionEngine implements CompactionEngine {
  readonly config: ResolvedCompactionConfig;
  private readonly raw: CompactionConfig;
  private readonly summarizer: Summarizer;
  private readonly gauges = new WeakMap<object, Gauge>();
  private readonly failures = new WeakMap<object, FailureMemory>();
  private readonly extractive: Summarizer;

  constructor(config: CompactionConfig) {
    this.config = resolveConfig(config);
    this.raw = { ...config };
    this.extractive = new ExtractiveSummarizer();
    this.summarizer = this.config.summarizer ?? this.extractive;
  }

  get meter(): TokenMeter {
    return this.config.meter;
  }

  // --- 1. pressure -------------------------------------------------------------

  /**
   * Tokens on the surface of `log`. Cost is O(events appended since the last call)
   * while no replace happened (counts are cached per event and a running total per log).
   */
  surfaceTokens(log: SessionLog): number {
    const g = this.gauges.get(log);
    if (g && g.generation === log.generation) {
      if (g.lastSeq < log.lastSeq) {
        for (const e of log.events(g.lastSeq + 1)) if (isMessageEvent(e)) g.total += this.meter.countEvent(e);
        g.lastSeq = log.lastSeq;
      }
      return g.total;
    }
    const total = this.meter.countEvents(log.surface());
    this.gauges.set(log, { generation: log.generation, lastSeq: log.lastSeq, total });
    return total;
  }

  /**
   * What the surface may take, in this meter's raw tokens: `budget` divided by the meter's
   * calibration factor (1 until the caller reports provider usage via `meter.calibrate`),
   * less `overheadTokens` (what the model receives beside the surface).
   */
  surfaceBudget(): number {
    const f = this.meter.calibration;
    const t = f === 1 ? this.config.budget : Math.floor(this.config.budget / f);
    return Math.max(1, t - this.config.overheadTokens);
  }

  /**
   * The checkpoint's upper bound (tokens) beside a verbatim tail of `tailTokens` and leading
   * system messages of `headTokens`: a given `summaryMaxTokens`; else the larger of the default
   * share plus what the tail leaves unused of `retainTokens` (a tail cut at a balanced point short
   * of it) and the headroom the tail leaves below the target (`surfaceTarget() - head - tail`),
   * at most {@link DEFAULT_SUMMARY_CAP}. The extractive checkpoint takes only what the span's
   * facts need of it (a span in a script that costs more tokens a character needs more than 15%
   * of a small budget), so the room follows what the span holds; the surface after landing stays
   * at or under the headroom target either way.
   */
  private checkpointRoom(tailTokens: number, headTokens = 0): number {
    const { summaryMaxTokens, summaryMaxGiven, retainTokens } = this.config;
    if (summaryMaxGiven) return summaryMaxTokens;
    const share = Math.max(summaryMaxTokens, Math.min(DEFAULT_SUMMARY_CAP, summaryMaxTokens + Math.max(0, retainTokens - tailTokens)));
    return Math.max(share, Math.min(DEFAULT_SUMMARY_CAP, this.surfaceTarget() - headTokens - tailTokens));
  }

  /** The headroom target (raw meter tokens): a prune or mask pass lands alone only at or below it (`targetRatio × surfaceBudget()`). */
  surfaceTarget(): number {
    return Math.max(1, Math.floor(this.surfaceBudget() * this.config.targetRatio));
  }

  /** True when the surface is above what it may take ({@link surfaceBudget}). */
  isOverBudget(log: SessionLog): boolean {
    return this.surfaceTokens(log) > this.surfaceBudget();
  }

  async compactIfNeeded(log: SessionLog, opts: CompactOptions = {}): Promise<CompactionResult> {
    throwIfAborted(opts.signal);
    opts.onProgress?.('measuring');
    const before = this.surfaceTokens(log);
    if (before <= this.surfaceBudget()) return this.noop(before, 'under-budget');
    return this.run(log, opts, before);
  }

  async compactNow(log: SessionLog, opts: CompactOptions = {}): Promise<CompactionResult> {
    throwIfAborted(opts.signal);
    return this.run(log, opts, this.surfaceTokens(log));
  }

  async compactRegion(log: SessionLog, start: number, end: number, opts: CompactOptions = {}): Promise<CompactionResult> {
    throwIfAborted(opts.signal);
    const nodes = log.surface();
    const a = log.surfacePosition(start);
    const b = log.surfacePosition(end);
    if (a === undefined) throw new CompactionError(`compactRegion: start seq ${start} is not on the surface`, 'REGION');
    if (b === undefined) throw new CompactionError(`compactRegion: end seq ${end} is not on the surface`, 'REGION');
    if (a > b) throw new CompactionError(`compactRegion: start seq ${start} comes after end seq ${end} on the surface`, 'REGION');
    const cuts = new Set(balancedCuts(nodes));
    if (!cuts.has(a)) throw new CompactionError(`compactRegion: the cut before seq ${start} separates a tool call from its result`, 'REGION');
    if (!cuts.has(b + 1)) throw new CompactionError(`compactRegion: the cut after seq ${end} separates a tool call from its result`, 'REGION');
    const before = this.surfaceTokens(log);
    const plan = spanPlan(nodes, nodeTokens(this.planContext(log), nodes), a, b + 1, before);
    return this.summarizeSpan(log, opts, plan, { region: true });
  }

  // --- 2. plan (pure; plan.ts) ---------------------------------------------------

  /**
   * After a failed compaction of `log`: wait (a no-op saying so) until the surface has grown or
   * the backoff passed, then allow one probe attempt; a failure the extractive fallback rescued
   * skips the summarizer while waiting. Every call path of `compactIfNeeded`/`compactNow` goes
   * through here, so whatever the caller does after a `CompactionFailedError`, one surface
   * state costs at most `compactionRetries + 1` summarizer calls.
   */
  private async run(log: SessionLog, opts: CompactOptions, before: number): Promise<CompactionResult> {
    const mem = this.failures.get(log);
    if (!mem || opts.dryRun) return this.runPlanned(log, opts, before, {});
    const backoff = { failures: mem.failures, lastError: mem.lastError, retryAt: mem.until, retryAtTokens: mem.grownAt };
    // A rescued failure compacted the surface (extractively), so its growth says nothing: wait on time only.
    const waiting = Date.now() < mem.until && (mem.rescued || before < mem.grownAt);
    if (waiting && mem.rescued) {
      return this.runPlanned(log, opts, before, { summarizer: this.extractive, skipReason: `backing off after ${mem.failures} failure(s): ${mem.lastError}` });
    }
    if (waiting) return { ...this.noop(before, 'backing-off'), backoff };
    try {
      const r = await this.runPlanned(log, opts, before, { retries: 0 });
      return { ...r, backoff };
    } catch (err) {
      if (err instanceof CompactionFailedError) this.rememberFailure(log, before, err.message, false);
      throw err;
    }
  }

  /** Record a failed compaction of `log` (see {@link run}): the wait doubles with each consecutive failure. */
  private rememberFailure(log: SessionLog, tokens: number, error: string, rescued: boolean): void {
    const failures = (this.failures.get(log)?.failures ?? 0) + 1;
    const factor = Math.min(MAX_BACKOFF_FACTOR, 2 ** (failures - 1));
    const step = Math.max(1, Math.floor(this.surfaceBudget() / 4));
    this.failures.set(log, { failures, lastError: error, until: Date.now() + this.config.failureBackoffMs * factor, grownAt: tokens + step * factor, rescued });
  }

  /** Choose the action: mask (strategies mask/auto), prune alone when it leaves the headroom target, else summarize the retention span. */
  private async runPlanned(log: SessionLog, opts: CompactOptions, before: number, how: SummarizeHow): Promise<CompactionResult> {
    try {
      return await this.plannedAction(log, opts, before, how);
    } catch (err) {
      if (err instanceof CompactionFailedError && !opts.dryRun && how.retries === undefined) this.rememberFailure(log, before, err.message, false);
      throw err;
    }
  }

  private async plannedAction(log: SessionLog, opts: CompactOptions, before: number, how: SummarizeHow): Promise<CompactionResult> {
    opts.onProgress?.('planning');
    const ctx = this.planContext(log);
    const strategy = this.config.strategy;
    if (strategy === 'mask' || strategy === 'auto') {
      const masked = planMask(ctx, log.surface());
      const after = before - savedBy(masked);
      if (strategy === 'mask' || after <= this.surfaceTarget()) {
        if (strategy === 'mask' && after > this.surfaceBudget() && !opts.dryRun) {
          return this.failClosed(log, before, 'mask', `observation masking leaves ${after} tokens, above the budget ${this.config.budget}; use strategy auto or summarize`);
        }
        if (!masked.length) return this.noop(before, 'nothing-to-compact');
        return this.landReplacements(log, opts, before, masked, 'mask');
      }
    }
    const nodes = log.surface();
    let plan = planRetention(ctx, nodes, before);
    if (plan.kind === 'nothing') {
      // No span to summarize (the whole surface fits the retained tail once its oversized tool
      // results are pruned, as in one agent turn of huge results): the pruning alone is the pass.
      const whole = spanPlan(nodes, nodeTokens(ctx, nodes), headEndOf(nodes), nodes.length, before);
      const enough = before > this.surfaceBudget() ? pruneInProportion(planPrune(ctx, whole), before, this.surfaceTarget()) : [];
      if (enough.length) return this.landReplacements(log, opts, before, enough, 'prune');
      // Over the budget and pruning is not enough (large leading system messages beside a
      // tail that fits only once pruned): summarize the oldest units instead of giving up.
      if (before <= this.surfaceBudget()) return this.noop(before, 'nothing-to-compact');
      plan = planRetention(ctx, nodes, before, { requireSpan: true });
      if (plan.kind === 'nothing') return this.noop(before, 'nothing-to-compact');
    }
    if (plan.kind === 'too-small') throw this.budgetTooSmall(plan);
    // Prune oversized old tool results; if that alone is enough, land only the pruning it needs
    // (the largest and least valuable results first).
    const pruned = planPrune(ctx, plan);
    // ... and only down to the headroom target: a pass that would leave less does not land alone.
    const enough = before > this.surfaceBudget() ? pruneInProportion(pruned, before, this.surfaceTarget()) : [];
    if (this.config.pruneOnly && enough.length) return this.landReplacements(log, opts, before, enough, 'prune');
    return this.summarizeSpan(log, opts, plan, { ...how, pruned: pruned.filter((r) => !r.findings) });
  }

  private planContext(log: SessionLog): PlanContext {
    return { meter: this.meter, config: this.config, surfaceBudget: this.surfaceBudget(), minCheckpoint: this.minCheckpoint() };
  }

  /** Tokens a checkpoint node costs beyond its body: framing plus per-message overhead. */
  private frameOverhead(): number {
    return this.meter.countText(frameCheckpoint('')) + this.meter.perMessageOverhead + 2;
  }

  /**
   * Smallest checkpoint (tokens, framing included) worth landing: the frame plus
   * {@link MIN_CHECKPOINT_BODY_TOKENS} of body, room for the primary request and the next step
   * (a 32-token body was cut after its first line).
   */
  private minCheckpoint(): number {
    return this.frameOverhead() + this.minCheckpointBody();
  }

  /** {@link MIN_CHECKPOINT_BODY_TOKENS}, or less (never under 32) when the caller set a smaller `summaryMaxTokens` on purpose. */
  private minCheckpointBody(): number {
    if (this.raw.summaryMaxTokens === undefined) return MIN_CHECKPOINT_BODY_TOKENS;
    return Math.max(32, Math.min(MIN_CHECKPOINT_BODY_TOKENS, this.raw.summaryMaxTokens - this.frameOverhead()));
  }

  /** This engine's configuration with an absolute `budget` (tokens) in place of the one given (window, ratio or budget, by any name). @throws CompactionConfigError */
  private configAt(budget: number): ResolvedCompactionConfig {
    return resolveConfig({ ...this.raw, contextWindow: undefined, budgetRatio: undefined, thresholdRatio: undefined, threshold: undefined, budget });
  }

  /** Smallest budget (tokens) that can work for a fixed head + newest unit, other settings unchanged. */
  smallestWorkableBudget(fixedTokens: number): number {
    const minCk = this.minCheckpoint();
    const ok = (t: number) => {
      try {
        const c = this.configAt(t);
        return c.summaryMaxTokens >= minCk && t - c.overheadTokens - fixedTokens >= minCk;
      } catch {
        return false;
      }
    };
    let lo = 1;
    let hi = Math.max(2, fixedTokens + minCk + this.config.overheadTokens);
    while (!ok(hi)) {
      hi *= 2;
      if (hi > 1e12) return Number.MAX_SAFE_INTEGER;
    }
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (ok(mid)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** The error for a budget that cannot hold the newest unit beside a useful checkpoint, with its arithmetic spelled out. */
  private budgetTooSmall(s: BudgetShortfall): BudgetTooSmallError {
    const smallest = this.smallestWorkableBudget(s.headTokens + s.unitTokens);
    const minCk = this.minCheckpoint();
    // what the model receives beside the surface takes its share of the budget first
    const fixed = s.unitTokens + s.headTokens + this.config.overheadTokens;
    const explicitCap = this.raw.summaryMaxTokens !== undefined;
    const capRule = explicitCap ? `summaryMaxTokens (${this.config.summaryMaxTokens})` : 'min(4096, 15% of the budget)';
    const room = Math.max(0, Math.min(this.config.summaryMaxTokens, this.surfaceBudget() - s.unitTokens - s.headTokens));
    let atSmallest = '';
    try {
      const c = this.configAt(smallest);
      atSmallest = ` (there the checkpoint may take min(${c.summaryMaxTokens}, ${smallest} - ${fixed}) = ${Math.min(c.summaryMaxTokens, smallest - fixed)} tokens)`;
    } catch {
      /* smallest is the MAX_SAFE_INTEGER sentinel */
    }
    const message =
      `budget ${this.config.budget} is below what the newest indivisible unit needs: surface seqs ${s.fromSeq}..${s.toSeq} ` +
      `(${s.unitTokens} tokens${s.headTokens ? ` + ${s.headTokens} of leading system messages` : ''}${this.config.overheadTokens ? `, beside ${this.config.overheadTokens} of overheadTokens` : ''}) must stay verbatim, and the checkpoint beside it needs at least ${minCk} tokens ` +
      `(${minCk - this.minCheckpointBody()} of framing + ${this.minCheckpointBody()} of summary); a checkpoint may take at most ${capRule} and what the verbatim part leaves, ` +
      `which is only ${room} tokens at this budget; the smallest budget that can work is ${smallest}${atSmallest}`;
    return new BudgetTooSmallError(message, this.config.budget, smallest, s.unitTokens);
  }

  // --- 3a. execute: pruned/masked tool results ----------------------------------------

  private async landReplacements(log: SessionLog, opts: CompactOptions, before: number, reps: Replacement[], action: 'prune' | 'mask'): Promise<CompactionResult> {
    const saved = savedBy(reps);
    const shadowedTokens = reps.reduce((s, r) => s + this.meter.countEvent(r.orig), 0);
    const order = (s: SurfaceNode) => log.surfacePosition(s.seq) ?? 0;
    reps.sort((a, b) => order(a.orig) - order(b.orig));
    const base: CompactionResult = {
      ...this.noop(before, 'under-budget'),
      noopReason: undefined,
      compacted: !opts.dryRun,
      action,
      shadowedSeqs: reps.map((r) => r.orig.seq),
      shadowedTokens,
      tokensAfter: before - saved,
      summarizer: action,
    };
    if (opts.dryRun) return { ...base, dryRun: true };
    const id = randomUUID();
    const startSeq = this.startRecord(log, { id, strategy: this.config.strategy, action, tokensBefore: before, budget: this.config.budget });
    try {
      throwIfAborted(opts.signal);
      opts.onProgress?.('landing', { replacements: reps.length });
      const events = replacementEvents(reps);
      // One batch gets consecutive seqs from lastSeq + 1 (SessionLog.append), so the summary can name its replacements.
      const firstSeq = log.lastSeq + 1;
      const summary: CompactionSummaryData = {
        id,
        summarizer: action,
        model: null,
        maxTokens: null,
        shadowedSeqs: base.shadowedSeqs,
        replacementSeqs: events.map((_, i) => firstSeq + i),
        tokensBefore: before,
        tokensAfter: before - saved,
      };
      const end: CompactionEndData = { id, startSeq };
      const stored = log.append([...events, { type: 'compaction/summary', data: summary }, { type: 'compaction/end', data: end }]);
      const replacementSeqs = stored.slice(0, events.length).map((e) => e.seq);
      const [summaryEvent, endEvent] = stored.slice(events.length);
      if (!this.failures.get(log)?.rescued) this.failures.delete(log);
      return { ...base, id, startSeq, summarySeq: summaryEvent!.seq, endSeq: endEvent!.seq, replacementSeqs, tokensAfter: this.surfaceTokens(log) };
    } catch (err) {
      throw this.endWithError(log, id, startSeq, err);
    }
  }

  // --- 3b. execute: summarize -> verify -> land ------------------------------------------

  /**
   * Summarize `plan`'s span into a checkpoint and land it, retrying with a tighter budget at
   * most `compactionRetries` times; when the configured summarizer fails and `fallback` is on,
   * the extractive summarizer writes the checkpoint instead (the result's `fallback` says why).
   */
  private async summarizeSpan(log: SessionLog, opts: CompactOptions, plan: SpanPlan, how: SummarizeHow): Promise<CompactionResult> {
    const span = plan.nodes.slice(plan.spanStart, plan.cut);
    const tail = plan.nodes.slice(plan.cut);
    const prunedBy = new Map((how.pruned ?? []).map((r) => [r.orig.seq, r.content]));
    const spanForSummary = span.map((n) => (prunedBy.has(n.seq) ? { ...n, content: prunedBy.get(n.seq)! } : n));
    const ckMax = how.region ? this.config.summaryMaxTokens : Math.min(this.checkpointRoom(plan.tailTokens, plan.headTokens), this.surfaceBudget() - plan.headTokens - plan.tailTokens);
    const primary = how.summarizer ?? this.summarizer;
    const base: CompactionResult = {
      ...this.noop(plan.before, 'under-budget'),
      noopReason: undefined,
      compacted: false,
      action: 'summarize',
      shadowedSeqs: span.map((n) => n.seq),
      shadowedTokens: plan.spanTokens,
      summarizer: primary.name,
      model: primary.model,
    };
    if (opts.dryRun) return { ...base, dryRun: true, summaryTokens: ckMax, tokensAfter: plan.headTokens + ckMax + plan.tailTokens };

    const id = randomUUID();
    const startSeq = this.startRecord(log, {
      id,
      strategy: this.config.strategy,
      action: 'summarize',
      tokensBefore: plan.before,
      budget: this.config.budget,
      span: { start: span[0]!.seq, end: span[span.length - 1]!.seq },
    });
    try {
      const cwd = recordedWorkingFolder(log.events(), span[span.length - 1]!.seq);
      const anchors: Anchor[] = this.config.anchors ? extractAnchors(spanForSummary, tail, { maxIdentifiers: this.config.maxIdentifierAnchors, cwd }) : [];
      const job: CheckpointJob = { log, id, startSeq, span, spanForSummary, tail, anchors, ckMax, plan, region: how.region === true, ...(cwd ? { cwd } : {}), signal: opts.signal, onProgress: opts.onProgress };
      const first = await this.attemptCheckpoint(job, primary, how.retries ?? this.config.compactionRetries, 0);
      let fallback = how.skipReason ? { from: this.summarizer.name, reason: how.skipReason } : undefined;
      if ('landed' in first && primary === this.summarizer) this.failures.delete(log);
      const done = 'landed' in first ? first : await this.fallBack(job, primary, first, (f) => (fallback = f));
      const { verdict, landed, reply, attempts, by } = done;
      return {
        ...base,
        compacted: true,
        id,
        startSeq,
        ...landed,
        summarizer: by.name,
        summary: verdict.content,
        tokensAfter: this.surfaceTokens(log),
        summaryTokens: verdict.tokens,
        model: reply.model,
        anchors: { total: verdict.anchors.total, kept: verdict.anchors.kept, reinserted: verdict.anchors.reinserted },
        attempts,
        ...(fallback ? { fallback } : {}),
        ...(reply.requests ? { summarizerRequests: reply.requests } : {}),
        ...(reply.repaired?.length ? { repairedSections: reply.repaired } : {}),
      };
    } catch (err) {
      throw this.endWithError(log, id, startSeq, err);
    }
  }

  /**
   * `primary` failed: fail closed (no `fallback`, or it was the extractive summarizer), or
   * remember the failure and land the extractive checkpoint (`report` gets why).
   * @throws CompactionFailedError when there is no fallback or it fails too.
   */
  private async fallBack(job: CheckpointJob, primary: Summarizer, failed: { errors: string[]; attempts: number }, report: (f: { from: string; reason: string }) => void): Promise<Landed> {
    const message = `compaction failed after ${failed.attempts} attempt(s); the surface is unchanged: ${failed.errors.join('; ')}`;
    if (!this.config.fallback || primary instanceof ExtractiveSummarizer) throw new CompactionFailedError(message, failed.attempts);
    const fallback = { from: primary.name, reason: `${primary.name} failed after ${failed.attempts} attempt(s): ${failed.errors.join('; ')}` };
    report(fallback);
    this.rememberFailure(job.log, job.plan.before, fallback.reason, true);
    job.onProgress?.('fallback', { from: primary.name });
    const done = await this.attemptCheckpoint(job, this.extractive, this.config.compactionRetries, failed.attempts, fallback);
    if (!('landed' in done)) throw new CompactionFailedError(`${message}; the extractive fallback failed too: ${done.errors.join('; ')}`, done.attempts);
    return done;
  }

  /**
   * The attempt loop of one summarizer: summarize once, verify, land; on a failure retry with
   * a budget three quarters the size, at most `retries` times. Attempts are numbered from
   * `done + 1` (a fallback continues the count). Returns what landed, or the errors.
   */
  private async attemptCheckpoint(
    job: CheckpointJob,
    summarizer: Summarizer,
    retries: number,
    done: number,
    fallback?: { from: string; reason: string },
  ): Promise<Landed | { errors: string[]; attempts: number }> {
    const bodyMax = job.ckMax - this.frameOverhead();
    const errors: string[] = [];
    for (let k = 0; k <= retries; k++) {
      const attempt = done + k + 1;
      const target = Math.floor(bodyMax * Math.pow(0.75, k));
      // the extractive summarizer keeps the items that hold anchors (fit.ts): only identifiers need room set aside
      const reserved = summarizer instanceof ExtractiveSummarizer ? job.anchors.filter((a) => a.kind === 'identifier') : job.anchors;
      const maxTokens = Math.max(16, target - this.anchorReserve(reserved, target));
      job.onProgress?.('summarize', { attempt, maxTokens, summarizer: summarizer.name });
      const reply = await this.summarizeOnce(summarizer, job.spanForSummary, job.tail, maxTokens, job.signal, job.cwd, job.anchors);
      if ('error' in reply) {
        errors.push(`attempt ${attempt}: ${reply.error}`);
        if (!reply.retryable) return { errors, attempts: attempt };
        continue;
      }
      job.onProgress?.('verifying', { attempt });
      const verdict = this.verifyCheckpoint(reply.body, job.anchors, target, job.ckMax, job.plan, job.region);
      if ('reason' in verdict) {
        errors.push(`attempt ${attempt}: ${verdict.reason}`);
        continue;
      }
      throwIfAborted(job.signal);
      job.onProgress?.('landing');
      const landed = this.landCheckpoint(job.log, job.id, job.startSeq, job.span, verdict, job.plan.tailPruned, {
        summarizer: summarizer.name,
        model: reply.model,
        maxTokens,
        attempts: attempt,
        tokensBefore: job.plan.before,
        ...(fallback ? { fallback } : {}),
        ...(reply.repaired?.length ? { repairedSections: reply.repaired } : {}),
      });
      return { landed, verdict, reply, attempts: attempt, by: summarizer };
    }
    return { errors, attempts: done + retries + 1 };
  }

  /** Tokens of a summary budget left for re-inserting the anchors it may lose (at most a third). */
  private anchorReserve(anchors: readonly Anchor[], target: number): number {
    let idents = 0;
    const counted = anchors.filter((a) => a.kind !== 'identifier' || ++idents <= MAX_REINSERTED_IDENTIFIERS);
    if (!counted.length) return 0;
    return Math.min(Math.floor(target / 3), this.meter.countText(counted.map((a) => a.text).join('\n')) + 16 + counted.length * 4);
  }

  /** One summarizer call: the trimmed body, or the error (retryable unless the summarizer said otherwise). Rethrows an abort. */
  private async summarizeOnce(summarizer: Summarizer, span: readonly SurfaceNode[], tail: readonly SurfaceNode[], maxTokens: number, signal?: AbortSignal, cwd?: string, anchors?: readonly Anchor[]): Promise<SummaryAttempt> {
    throwIfAborted(signal);
    try {
      const out = await raceAbort(summarizer.summarize({ span, tail, maxTokens, meter: this.meter, signal, ...(cwd ? { cwd } : {}), ...(anchors ? { anchors } : {}) }), signal);
      throwIfAborted(signal);
      const requests = out.requests !== undefined && out.window !== undefined ? { requests: out.requests, largestRequestTokens: out.largestRequestTokens ?? 0, window: out.window } : undefined;
      return { body: out.text.trim(), model: out.model ?? summarizer.model, ...(requests ? { requests } : {}), ...(out.repairedSections?.length ? { repaired: out.repairedSections } : {}) };
    } catch (err) {
      if (err instanceof CompactionAbortedError || signal?.aborted) throw err instanceof CompactionAbortedError ? err : new CompactionAbortedError();
      return { error: (err as Error).message, retryable: !((err instanceof SummarizerError && !err.retryable) || err instanceof MissingPackageError) };
    }
  }

  /**
   * Check a summary body: not empty; anchors it lost re-inserted within `target`; the framed
   * checkpoint fits `ckMax`, shrinks its source and (outside `compactRegion`) brings the
   * surface to the budget. Returns the checkpoint to land, or the reason it cannot.
   */
  private verifyCheckpoint(body: string, anchors: readonly Anchor[], target: number, ckMax: number, plan: SpanPlan, region: boolean): VerifiedCheckpoint | { reason: string } {
    if (!body) return { reason: 'the summary is empty' };
    const { kept, missing } = checkAnchors(body, anchors);
    const re = reinsertAnchors(body, missing, target, this.meter);
    const content: ContentBlock[] = [textBlock(frameCheckpoint(re.body))];
    const tokens = this.meter.countBlocks(content) + this.meter.perMessageOverhead;
    if (tokens > ckMax) return { reason: `the checkpoint has ${tokens} tokens, above its budget of ${ckMax}` };
    if (tokens >= plan.spanTokens) return { reason: `the summary (${tokens} tokens) does not shrink its source (${plan.spanTokens} tokens)` };
    const projected = plan.before - plan.spanTokens + tokens - savedBy(plan.tailPruned);
    if (!region && projected > this.surfaceBudget()) return { reason: `the surface would still have ${projected} tokens, above the budget ${this.config.budget}` };
    return {
      content,
      tokens,
      projected,
      anchors: { total: anchors.length, kept: kept.length, reinserted: re.reinserted.length, lost: re.lost.map((a) => `${a.kind}: ${a.text}`) },
    };
  }

  /** Land a verified checkpoint: the replace, `compaction/summary` and `compaction/end` in one atomic append. Returns the stored seqs. */
  private landCheckpoint(
    log: SessionLog,
    id: string,
    startSeq: number,
    span: readonly SurfaceNode[],
    ck: VerifiedCheckpoint,
    tailPruned: readonly Replacement[],
    by: { summarizer: string; model?: string; maxTokens: number; attempts: number; tokensBefore: number; fallback?: { from: string; reason: string }; repairedSections?: RepairedSection[] },
  ): { checkpointSeq: number; summarySeq: number; endSeq: number; replacementSeqs: number[] } {
    const checkpoint: NewEvent = {
      type: 'user/message',
      kind: 'checkpoint',
      surfaceOp: { op: 'replace', start: span[0]!.seq, end: span[span.length - 1]!.seq },
      content: ck.content,
      sourceSeqs: span.map((n) => n.seq),
    };
    // oversized tool results of the retained tail land pruned, in the same batch
    const tailEvents = replacementEvents(tailPruned);
    const summary: CompactionSummaryData = {
      id,
      // the checkpoint is the first event of this batch (SessionLog.append: consecutive seqs from lastSeq + 1)
      checkpointSeq: log.lastSeq + 1,
      ...(tailEvents.length ? { replacementSeqs: tailEvents.map((_, i) => log.lastSeq + 2 + i) } : {}),
      summarizer: by.summarizer,
      model: by.model ?? null,
      maxTokens: by.maxTokens,
      shadowedSeqs: span.map((n) => n.seq),
      tokensBefore: by.tokensBefore,
      tokensAfter: ck.projected,
      summaryTokens: ck.tokens,
      attempts: by.attempts,
      ...(by.fallback ? { fallback: by.fallback } : {}),
      ...(by.repairedSections ? { repairedSections: by.repairedSections } : {}),
      anchors: ck.anchors,
    };
    const end: CompactionEndData = { id, startSeq };
    const stored = log.append([checkpoint, ...tailEvents, { type: 'compaction/summary', data: summary }, { type: 'compaction/end', data: end }]);
    const [sum, fin] = stored.slice(-2);
    return { checkpointSeq: stored[0]!.seq, summarySeq: sum!.seq, endSeq: fin!.seq, replacementSeqs: stored.slice(1, 1 + tailEvents.length).map((e) => e.seq) };
  }

  // --- records -----------------------------------------------------------------------

  private startRecord(log: SessionLog, data: CompactionStartData): number {
    return log.append({ type: 'compaction/start', data })[0]!.seq;
  }

  private failClosed(log: SessionLog, before: number, action: 'mask', message: string): never {
    const id = randomUUID();
    const startSeq = this.startRecord(log, { id, strategy: this.config.strategy, action, tokensBefore: before, budget: this.config.budget });
    const end: CompactionEndData = { id, startSeq, error: message };
    log.append({ type: 'compaction/end', data: end });
    throw new CompactionFailedError(message, 0);
  }

  private endWithError(log: SessionLog, id: string, startSeq: number, err: unknown): unknown {
    const aborted = err instanceof CompactionAbortedError;
    const end: CompactionEndData = { id, startSeq, error: aborted ? 'aborted' : err instanceof Error ? err.message : String(err) };
    try {
      log.append({ type: 'compaction/end', data: end });
    } catch {
      // the log itself failed: the orphaned start stays inert
    }
    return err;
  }

  private noop(before: number, reason: NonNullable<CompactionResult['noopReason']>): CompactionResult {
    return {
      compacted: false,
      noopReason: reason,
      strategy: this.config.strategy,
      summary: [],
      shadowedSeqs: [],
      shadowedTokens: 0,
      replacementSeqs: [],
      tokensBefore: before,
      tokensAfter: before,
      budget: this.config.budget,
      summaryTokens: 0,
      anchors: { total: 0, kept: 0, reinserted: 0 },
      attempts: 0,
      overheadTokens: this.config.overheadTokens,
    };
  }
}

/** Single-node replace events for pruned or masked nodes (same type, meta and model; the `callId`s stay). */
function replacementEvents(reps: readonly Replacement[]): NewEvent[] {
  return reps.map((r) => ({
    type: r.orig.type,
    surfaceOp: { op: 'replace', start: r.orig.seq, end: r.orig.seq },
    content: r.content,
    sourceSeqs: [r.orig.seq],
    ...(r.orig.meta ? { meta: { ...r.orig.meta } } : {}),
    ...(r.orig.model ? { model: r.orig.model } : {}),
  })) as NewEvent[];
}
