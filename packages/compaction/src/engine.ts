import {
  balancedCuts,
  blockText,
  isMessageEvent,
  text as textBlock,
  type ContentBlock,
  type MessageEvent,
  type NewEvent,
  type SessionLog,
  type SurfaceNode,
  type ToolResultBlock,
} from '@hive-mind/session';
import { randomUUID } from 'node:crypto';
import { checkAnchors, extractAnchors, reinsertAnchors, type Anchor } from './anchors.js';
import { resolveConfig, type CompactionConfig, type CompactionStrategy, type ResolvedCompactionConfig } from './config.js';
import {
  BudgetTooSmallError,
  CompactionAbortedError,
  CompactionError,
  CompactionFailedError,
  SummarizerError,
  raceAbort,
  throwIfAborted,
} from './errors.js';
import { ExtractiveSummarizer } from './extractive.js';
import { frameCheckpoint } from './frame.js';
import { maskToolResult, pruneToolResult } from './prune.js';
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
  /** Why nothing happened: the surface is at or under the threshold, or nothing can be compacted. */
  noopReason?: 'under-threshold' | 'nothing-to-compact';
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
  threshold: number;
  /** Tokens of the checkpoint node (0 when none). */
  summaryTokens: number;
  summarizer?: string;
  model?: string;
  anchors: { total: number; kept: number; reinserted: number };
  /** Summarize attempts made (0 for prune/mask/no-op). */
  attempts: number;
}

/** The compaction seam. Other engines (template, remote) implement the same interface. */
export interface CompactionEngine {
  /** Compact when the surface is above the threshold; otherwise a no-op result. */
  compactIfNeeded(log: SessionLog, opts?: CompactOptions): Promise<CompactionResult>;
  /** Compact now, whatever the pressure (keeps the retained tail). */
  compactNow(log: SessionLog, opts?: CompactOptions): Promise<CompactionResult>;
  /** Summarize exactly the surface nodes from seq `start` to seq `end` (inclusive, surface order; both cuts must be balanced). */
  compactRegion(log: SessionLog, start: number, end: number, opts?: CompactOptions): Promise<CompactionResult>;
}

interface Gauge {
  generation: number;
  lastSeq: number;
  total: number;
}

interface Plan {
  nodes: readonly SurfaceNode[];
  tokens: number[];
  before: number;
  headEnd: number;
  /** span = nodes[spanStart, cut) */
  spanStart: number;
  cut: number;
  spanTokens: number;
  headTokens: number;
  tailTokens: number;
}

interface Replacement {
  orig: SurfaceNode;
  content: ContentBlock[];
  saved: number;
}

/**
 * The basic engine (see the package README and DESIGN "Compaction"): measure
 * pressure -> prune oversized old tool results -> pick the oldest span ending at a
 * balanced cut that keeps `retainTokens` -> summarize -> verify (shrinks its source,
 * fits the budget, anchors survive) -> land as one replace framed as a checkpoint ->
 * re-measure; at most `compactionRetries` more attempts, then fail closed.
 *
 * Records: `compaction/start` first, then (in one atomic append) the replacement
 * node(s), `compaction/summary` and `compaction/end`; on failure only
 * `compaction/end {error}` and the surface is untouched.
 *
 * @throws CompactionConfigError at construction on a bad config.
 */
/** Smallest checkpoint body (tokens) worth landing: room for the primary request and the next step. */
export const MIN_CHECKPOINT_BODY_TOKENS = 128;

export class BasicCompactionEngine implements CompactionEngine {
  readonly config: ResolvedCompactionConfig;
  private readonly raw: CompactionConfig;
  private readonly summarizer: Summarizer;
  private readonly gauges = new WeakMap<object, Gauge>();

  constructor(config: CompactionConfig) {
    this.config = resolveConfig(config);
    this.raw = { ...config };
    this.summarizer = this.config.summarizer ?? new ExtractiveSummarizer();
  }

  get meter(): TokenMeter {
    return this.config.meter;
  }

  /**
   * Tokens on the surface of `log`. Cost is O(events appended since the last call)
   * while no replace happened (counts are cached per event and a running total per log).
   */
  surfaceTokens(log: SessionLog): number {
    const g = this.gauges.get(log);
    if (g && g.generation === log.generation) {
      if (g.lastSeq < log.lastSeq) {
        for (const e of log.events(g.lastSeq + 1)) if (isMessageEvent(e)) g.total += this.meter.countEvent(e, log);
        g.lastSeq = log.lastSeq;
      }
      return g.total;
    }
    const total = this.meter.countEvents(log.surface(), log);
    this.gauges.set(log, { generation: log.generation, lastSeq: log.lastSeq, total });
    return total;
  }

  /**
   * The threshold in this meter's raw tokens: `threshold` divided by the meter's
   * calibration factor (1 until the caller reports provider usage via `meter.calibrate`).
   */
  limit(): number {
    const f = this.meter.calibration;
    return f === 1 ? this.config.threshold : Math.max(1, Math.floor(this.config.threshold / f));
  }

  /** True when the surface is above the threshold. */
  isOverThreshold(log: SessionLog): boolean {
    return this.surfaceTokens(log) > this.limit();
  }

  async compactIfNeeded(log: SessionLog, opts: CompactOptions = {}): Promise<CompactionResult> {
    throwIfAborted(opts.signal);
    opts.onProgress?.('measuring');
    const before = this.surfaceTokens(log);
    if (before <= this.limit()) return this.noop(before, 'under-threshold');
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
    const plan = this.planFor(nodes, a, b + 1, before, log);
    return this.execute(log, opts, plan, { region: true });
  }

  // ---------------------------------------------------------------------------

  private noop(before: number, reason: 'under-threshold' | 'nothing-to-compact'): CompactionResult {
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
      threshold: this.config.threshold,
      summaryTokens: 0,
      anchors: { total: 0, kept: 0, reinserted: 0 },
      attempts: 0,
    };
  }

  private nodeTokens(nodes: readonly SurfaceNode[], log?: object): number[] {
    return nodes.map((n) => this.meter.countEvent(n, log));
  }

  private planFor(nodes: readonly SurfaceNode[], spanStart: number, cut: number, before: number, log?: object): Plan {
    const tokens = this.nodeTokens(nodes, log);
    let headEnd = 0;
    while (headEnd < nodes.length && nodes[headEnd]!.type === 'system/message') headEnd++;
    const sum = (i: number, j: number) => {
      let s = 0;
      for (let k = i; k < j; k++) s += tokens[k]!;
      return s;
    };
    return {
      nodes,
      tokens,
      before,
      headEnd,
      spanStart,
      cut,
      spanTokens: sum(spanStart, cut),
      headTokens: sum(0, spanStart),
      tailTokens: sum(cut, nodes.length),
    };
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

  /** Smallest threshold (tokens) that can work for a fixed head + newest unit, other settings unchanged. */
  smallestWorkableBudget(fixedTokens: number): number {
    const minCk = this.minCheckpoint();
    const ok = (t: number) => {
      try {
        const c = resolveConfig({ ...this.raw, contextWindow: undefined, thresholdRatio: undefined, threshold: t });
        return c.summaryMaxTokens >= minCk && t - fixedTokens >= minCk;
      } catch {
        return false;
      }
    };
    let lo = 1;
    let hi = Math.max(2, fixedTokens + minCk);
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

  /** The arithmetic of a budget that cannot hold the newest unit beside a useful checkpoint, spelled out. */
  private budgetTooSmallMessage(fromSeq: number, toSeq: number, unitTokens: number, headTokens: number, smallest: number): string {
    const minCk = this.minCheckpoint();
    const fixed = unitTokens + headTokens;
    const explicitCap = this.raw.summaryMaxTokens !== undefined;
    const capRule = explicitCap ? `summaryMaxTokens (${this.config.summaryMaxTokens})` : 'min(4096, 15% of the budget)';
    const room = Math.max(0, Math.min(this.config.summaryMaxTokens, this.limit() - fixed));
    let atSmallest = '';
    try {
      const c = resolveConfig({ ...this.raw, contextWindow: undefined, thresholdRatio: undefined, threshold: smallest });
      atSmallest = ` (there the checkpoint may take min(${c.summaryMaxTokens}, ${smallest} - ${fixed}) = ${Math.min(c.summaryMaxTokens, smallest - fixed)} tokens)`;
    } catch {
      /* smallest is the MAX_SAFE_INTEGER sentinel */
    }
    return (
      `budget ${this.config.threshold} is below what the newest indivisible unit needs: surface seqs ${fromSeq}..${toSeq} ` +
      `(${unitTokens} tokens${headTokens ? ` + ${headTokens} of leading system messages` : ''}) must stay verbatim, and the checkpoint beside it needs at least ${minCk} tokens ` +
      `(${minCk - this.minCheckpointBody()} of framing + ${this.minCheckpointBody()} of summary); a checkpoint may take at most ${capRule} and what the verbatim part leaves, ` +
      `which is only ${room} tokens at this budget; the smallest budget that can work is ${smallest}${atSmallest}`
    );
  }

  /** The retention walk: the oldest span ending at the balanced cut that keeps at most `retainTokens` (at least the newest unit). */
  private planRetention(log: SessionLog, before: number): Plan | 'nothing' {
    const nodes = log.surface();
    const plan0 = this.planFor(nodes, 0, 0, before, log);
    const { tokens, headEnd } = plan0;
    const n = nodes.length;
    const cuts = balancedCuts(nodes).filter((c) => c >= headEnd);
    if (n - headEnd <= 0 || cuts.length < 2) return 'nothing';
    const suffix = new Array<number>(n + 1).fill(0);
    for (let i = n - 1; i >= 0; i--) suffix[i] = suffix[i + 1]! + tokens[i]!;
    const lastUnitStart = cuts.filter((c) => c < n).pop()!;
    let cut = lastUnitStart;
    for (const c of cuts) {
      if (c >= headEnd && c < n && suffix[c]! <= this.config.retainTokens) {
        cut = Math.min(c, lastUnitStart);
        break;
      }
    }
    const headTokens = sumRange(tokens, 0, headEnd);
    const unitTokens = suffix[lastUnitStart]!;
    const room = (tail: number) => Math.min(this.config.summaryMaxTokens, this.limit() - headTokens - tail);
    if (cut < lastUnitStart && room(suffix[cut]!) < this.minCheckpoint()) cut = lastUnitStart;
    if (room(unitTokens) < this.minCheckpoint()) {
      const smallest = this.smallestWorkableBudget(headTokens + unitTokens);
      throw new BudgetTooSmallError(
        this.budgetTooSmallMessage(nodes[lastUnitStart]!.seq, nodes[n - 1]!.seq, unitTokens, headTokens, smallest),
        this.config.threshold,
        smallest,
        unitTokens,
      );
    }
    if (cut <= headEnd) return 'nothing';
    return this.planFor(nodes, headEnd, cut, before, log);
  }

  private async run(log: SessionLog, opts: CompactOptions, before: number): Promise<CompactionResult> {
    opts.onProgress?.('planning');
    const strategy = this.config.strategy;
    if (strategy === 'mask' || strategy === 'auto') {
      const masked = this.planMask(log);
      const after = before - masked.reduce((s, r) => s + r.saved, 0);
      if (strategy === 'mask' || after <= this.limit()) {
        if (strategy === 'mask' && after > this.limit() && !opts.dryRun) {
          return this.failClosed(log, opts, before, 'mask', `observation masking leaves ${after} tokens, above the threshold ${this.config.threshold}; use strategy auto or summarize`);
        }
        if (!masked.length) return this.noop(before, 'nothing-to-compact');
        return this.landReplacements(log, opts, before, masked, 'mask');
      }
    }
    const plan = this.planRetention(log, before);
    if (plan === 'nothing') return this.noop(before, 'nothing-to-compact');
    // Prune oversized old tool results; if that alone is enough, land only the pruning.
    const pruned = this.planPrune(plan);
    const savings = pruned.reduce((s, r) => s + r.saved, 0);
    if (this.config.pruneOnly && pruned.length && before - savings <= this.limit() && before > this.limit()) {
      return this.landReplacements(log, opts, before, pruned, 'prune');
    }
    return this.execute(log, opts, plan, { pruned });
  }

  private planPrune(plan: Plan): Replacement[] {
    const out: Replacement[] = [];
    const o = { headLines: this.config.pruneHeadLines, tailLines: this.config.pruneTailLines };
    for (let i = plan.spanStart; i < plan.cut; i++) {
      const node = plan.nodes[i]!;
      if (node.kind === 'checkpoint') continue;
      let changed = false;
      const content = node.content.map((b) => {
        if (b.type !== 'tool-result' || this.meter.countText(blockText(b)) <= this.config.pruneMinTokens) return b;
        const p = pruneToolResult(b, o);
        if (p !== b) changed = true;
        return p;
      });
      if (!changed) continue;
      const saved = plan.tokens[i]! - (this.meter.countBlocks(content) + this.meter.perMessageOverhead);
      if (saved > 0) out.push({ orig: node, content, saved });
    }
    return out;
  }

  private planMask(log: SessionLog): Replacement[] {
    const nodes = log.surface();
    const names = new Map<string, string>();
    const results: Array<{ i: number; b: number }> = [];
    nodes.forEach((n, i) =>
      n.content.forEach((b, j) => {
        if (b.type === 'tool-call') names.set(b.id, b.name);
        else if (b.type === 'tool-result') results.push({ i, b: j });
      }),
    );
    const maskable = results.slice(0, Math.max(0, results.length - this.config.maskKeepRecent));
    const byNode = new Map<number, number[]>();
    for (const r of maskable) byNode.set(r.i, [...(byNode.get(r.i) ?? []), r.b]);
    const out: Replacement[] = [];
    for (const [i, blocks] of byNode) {
      const node = nodes[i]!;
      let changed = false;
      const content = node.content.map((b, j) => {
        if (!blocks.includes(j) || b.type !== 'tool-result') return b;
        const size = this.meter.countText(blockText(b));
        const m = maskToolResult(b as ToolResultBlock, names.get(b.callId), size);
        if (m === b || this.meter.countText(blockText(m)) >= size) return b;
        changed = true;
        return m;
      });
      if (!changed) continue;
      const saved = this.meter.countEvent(node, log) - (this.meter.countBlocks(content) + this.meter.perMessageOverhead);
      if (saved > 0) out.push({ orig: node, content, saved });
    }
    return out;
  }

  private startRecord(log: SessionLog, id: string, data: Record<string, unknown>): number {
    return log.append({ type: 'compaction/start', data: { id, ...data } })[0]!.seq;
  }

  private failClosed(log: SessionLog, opts: CompactOptions, before: number, action: string, message: string): never {
    const id = randomUUID();
    const startSeq = this.startRecord(log, id, { strategy: this.config.strategy, action, tokensBefore: before, threshold: this.config.threshold });
    log.append({ type: 'compaction/end', data: { id, startSeq, error: message } });
    void opts;
    throw new CompactionFailedError(message, 0);
  }

  private async landReplacements(log: SessionLog, opts: CompactOptions, before: number, reps: Replacement[], action: 'prune' | 'mask'): Promise<CompactionResult> {
    const saved = reps.reduce((s, r) => s + r.saved, 0);
    const shadowedTokens = reps.reduce((s, r) => s + this.meter.countEvent(r.orig, log), 0);
    const order = (s: SurfaceNode) => log.surfacePosition(s.seq) ?? 0;
    reps.sort((a, b) => order(a.orig) - order(b.orig));
    const base: CompactionResult = {
      ...this.noop(before, 'under-threshold'),
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
    const startSeq = this.startRecord(log, id, { strategy: this.config.strategy, action, tokensBefore: before, threshold: this.config.threshold });
    try {
      throwIfAborted(opts.signal);
      opts.onProgress?.('landing', { replacements: reps.length });
      let seq = log.lastSeq;
      const events: NewEvent[] = reps.map((r) => ({
        type: r.orig.type,
        surfaceOp: { op: 'replace', start: r.orig.seq, end: r.orig.seq },
        content: r.content,
        sourceSeqs: [r.orig.seq],
        ...(r.orig.meta ? { meta: { ...r.orig.meta } } : {}),
        ...(r.orig.model ? { model: r.orig.model } : {}),
      })) as NewEvent[];
      const replacementSeqs = events.map(() => ++seq);
      const summarySeq = ++seq;
      const endSeq = ++seq;
      const tokensAfter = before - saved;
      events.push({
        type: 'compaction/summary',
        data: { id, summarizer: action, model: null, maxTokens: null, shadowedSeqs: base.shadowedSeqs, replacementSeqs, tokensBefore: before, tokensAfter },
      });
      events.push({ type: 'compaction/end', data: { id, startSeq } });
      log.append(events);
      const measured = this.surfaceTokens(log);
      return { ...base, id, startSeq, summarySeq, endSeq, replacementSeqs, tokensAfter: measured };
    } catch (err) {
      throw this.endWithError(log, id, startSeq, err);
    }
  }

  private endWithError(log: SessionLog, id: string, startSeq: number, err: unknown): unknown {
    const aborted = err instanceof CompactionAbortedError;
    const message = aborted ? 'aborted' : err instanceof Error ? err.message : String(err);
    try {
      log.append({ type: 'compaction/end', data: { id, startSeq, error: message } });
    } catch {
      // the log itself failed: the orphaned start stays inert
    }
    return err;
  }

  private async execute(log: SessionLog, opts: CompactOptions, plan: Plan, how: { pruned?: Replacement[]; region?: boolean }): Promise<CompactionResult> {
    const span = plan.nodes.slice(plan.spanStart, plan.cut);
    const tail = plan.nodes.slice(plan.cut);
    const prunedBy = new Map((how.pruned ?? []).map((r) => [r.orig.seq, r.content]));
    const spanForSummary = span.map((n) => (prunedBy.has(n.seq) ? { ...n, content: prunedBy.get(n.seq)! } : n));
    const overhead = this.frameOverhead();
    const ckMax = how.region
      ? this.config.summaryMaxTokens
      : Math.min(this.config.summaryMaxTokens, this.limit() - plan.headTokens - plan.tailTokens);
    const base: CompactionResult = {
      ...this.noop(plan.before, 'under-threshold'),
      noopReason: undefined,
      compacted: false,
      action: 'summarize',
      shadowedSeqs: span.map((n) => n.seq),
      shadowedTokens: plan.spanTokens,
      summarizer: this.summarizer.name,
      model: this.summarizer.model,
    };
    if (opts.dryRun) return { ...base, dryRun: true, tokensAfter: plan.headTokens + ckMax + plan.tailTokens };

    const id = randomUUID();
    const startSeq = this.startRecord(log, id, {
      strategy: this.config.strategy,
      action: 'summarize',
      tokensBefore: plan.before,
      threshold: this.config.threshold,
      span: { start: span[0]!.seq, end: span[span.length - 1]!.seq },
    });
    try {
      const anchors: Anchor[] = this.config.anchors ? extractAnchors(spanForSummary, tail, { maxIdentifiers: this.config.maxIdentifierAnchors }) : [];
      const bodyMax = ckMax - overhead;
      const errors: string[] = [];
      let attempt = 0;
      for (; attempt <= this.config.compactionRetries; attempt++) {
        throwIfAborted(opts.signal);
        const target = Math.floor(bodyMax * Math.pow(0.75, attempt));
        const anchorReserve = anchors.length ? Math.min(Math.floor(target / 3), this.meter.countText(anchors.map((a) => a.text).join('\n')) + 16 + anchors.length * 4) : 0;
        const maxTokens = Math.max(16, target - anchorReserve);
        opts.onProgress?.('summarize', { attempt: attempt + 1, maxTokens });
        let body: string;
        let model = this.summarizer.model;
        try {
          const out = await raceAbort(this.summarizer.summarize({ span: spanForSummary, tail, maxTokens, meter: this.meter, signal: opts.signal }), opts.signal);
          body = out.text.trim();
          model = out.model ?? model;
        } catch (err) {
          if (err instanceof CompactionAbortedError || opts.signal?.aborted) throw err instanceof CompactionAbortedError ? err : new CompactionAbortedError();
          errors.push(`attempt ${attempt + 1}: ${(err as Error).message}`);
          if (err instanceof SummarizerError && !err.retryable) break;
          continue;
        }
        throwIfAborted(opts.signal);
        opts.onProgress?.('verifying', { attempt: attempt + 1 });
        if (!body) {
          errors.push(`attempt ${attempt + 1}: the summary is empty`);
          continue;
        }
        const { kept, missing } = checkAnchors(body, anchors);
        const re = reinsertAnchors(body, missing, target, this.meter);
        const framed = frameCheckpoint(re.body);
        const content: ContentBlock[] = [textBlock(framed)];
        const ckTokens = this.meter.countBlocks(content) + this.meter.perMessageOverhead;
        if (ckTokens > ckMax) {
          errors.push(`attempt ${attempt + 1}: the checkpoint has ${ckTokens} tokens, above its budget of ${ckMax}`);
          continue;
        }
        if (ckTokens >= plan.spanTokens) {
          errors.push(`attempt ${attempt + 1}: the summary (${ckTokens} tokens) does not shrink its source (${plan.spanTokens} tokens)`);
          continue;
        }
        const projected = plan.before - plan.spanTokens + ckTokens;
        if (!how.region && projected > this.limit()) {
          errors.push(`attempt ${attempt + 1}: the surface would still have ${projected} tokens, above the threshold ${this.config.threshold}`);
          continue;
        }
        // Land: one replace, then the summary and end records, atomically.
        throwIfAborted(opts.signal);
        opts.onProgress?.('landing');
        const checkpoint: NewEvent = {
          type: 'user/message',
          kind: 'checkpoint',
          surfaceOp: { op: 'replace', start: span[0]!.seq, end: span[span.length - 1]!.seq },
          content,
          sourceSeqs: span.map((n) => n.seq),
        };
        const checkpointSeq = log.lastSeq + 1;
        const summarySeq = checkpointSeq + 1;
        const endSeq = checkpointSeq + 2;
        const anchorsReport = { total: anchors.length, kept: kept.length, reinserted: re.reinserted.length };
        log.append([
          checkpoint,
          {
            type: 'compaction/summary',
            data: {
              id,
              checkpointSeq,
              summarizer: this.summarizer.name,
              model: model ?? null,
              maxTokens,
              shadowedSeqs: base.shadowedSeqs,
              tokensBefore: plan.before,
              tokensAfter: projected,
              summaryTokens: ckTokens,
              attempts: attempt + 1,
              anchors: { ...anchorsReport, lost: re.lost.map((a) => `${a.kind}: ${a.text}`) },
            },
          },
          { type: 'compaction/end', data: { id, startSeq } },
        ]);
        const after = this.surfaceTokens(log);
        return {
          ...base,
          compacted: true,
          id,
          startSeq,
          checkpointSeq,
          summarySeq,
          endSeq,
          summary: content,
          tokensAfter: after,
          summaryTokens: ckTokens,
          model,
          anchors: anchorsReport,
          attempts: attempt + 1,
        };
      }
      throw new CompactionFailedError(`compaction failed after ${Math.min(attempt + 1, this.config.compactionRetries + 1)} attempt(s); the surface is unchanged: ${errors.join('; ')}`, attempt + 1);
    } catch (err) {
      throw this.endWithError(log, id, startSeq, err);
    }
  }
}

function sumRange(a: number[], i: number, j: number): number {
  let s = 0;
  for (let k = i; k < j; k++) s += a[k]!;
  return s;
}

export type { MessageEvent };
