/**
 * Pure planning of a compaction: which span to summarize (retention), which tool results
 * to prune or mask, and what each saves. Nothing here appends to a log or calls a
 * summarizer; the engine executes a plan (see engine.ts). Tokens are the meter's tokens.
 */
import { balancedCuts, blockText, type ContentBlock, type SurfaceNode, type ToolResultBlock } from '@hive-mind/session';
import type { ResolvedCompactionConfig } from './config.js';
import { maskToolResult, pruneText, pruneToolResult } from './prune.js';
import { resultValue, type ResultValue } from './results.js';
import { toolInfo } from './toolinfo.js';
import type { TokenMeter } from './tokens.js';

/** What a planner needs to know: the meter, the resolved config and the limits the engine derived from them. */
export interface PlanContext {
  meter: TokenMeter;
  config: ResolvedCompactionConfig;
  /** What the surface may take, in raw meter tokens (the engine's `surfaceBudget()`: calibration applied, overhead taken). */
  surfaceBudget: number;
  /** Smallest checkpoint worth landing (tokens, framing included). */
  minCheckpoint: number;
}

/** A span of the surface to summarize: `nodes[spanStart, cut)`, with per-node tokens. */
export interface SpanPlan {
  nodes: readonly SurfaceNode[];
  /** Tokens of each node of `nodes`. */
  tokens: number[];
  /** Surface tokens before the compaction. */
  before: number;
  /** Index after the leading system messages (never compacted). */
  headEnd: number;
  spanStart: number;
  cut: number;
  spanTokens: number;
  /** Tokens before the span (leading system messages). */
  headTokens: number;
  /** Tokens of the retained tail `nodes[cut..]`, its oversized tool results pruned. */
  tailTokens: number;
  /** Oversized tool results of the retained tail, pruned (they land with the checkpoint). */
  tailPruned: Replacement[];
}

/** The newest indivisible unit does not leave room for a checkpoint: the engine turns this into a `BudgetTooSmallError`. */
export interface BudgetShortfall {
  kind: 'too-small';
  fromSeq: number;
  toSeq: number;
  /** Tokens of the newest indivisible unit. */
  unitTokens: number;
  /** Tokens of the leading system messages. */
  headTokens: number;
}

/** Outcome of the retention walk. */
export type RetentionPlan = ({ kind: 'span' } & SpanPlan) | { kind: 'nothing' } | BudgetShortfall;

/** One surface node to replace by a pruned or masked copy. */
export interface Replacement {
  orig: SurfaceNode;
  content: ContentBlock[];
  /** Tokens saved by the replacement. */
  saved: number;
  /** The result's value is its findings (a sub-agent's report, a research result): pruned last, never before summarizing. */
  findings?: boolean;
  /** What the pruned result was worth verbatim (results.ts): a dump goes first, findings last. */
  value?: ResultValue;
}

/** Per-node token counts of `nodes` (cached by the meter per event). */
export function nodeTokens(ctx: PlanContext, nodes: readonly SurfaceNode[]): number[] {
  return nodes.map((n) => ctx.meter.countEvent(n));
}

/** Sum of `a[i..j)`. */
export function sumRange(a: readonly number[], i: number, j: number): number {
  let s = 0;
  for (let k = i; k < j; k++) s += a[k]!;
  return s;
}

/** Index after the leading system messages of `nodes`. */
export function headEndOf(nodes: readonly SurfaceNode[]): number {
  let i = 0;
  while (i < nodes.length && nodes[i]!.type === 'system/message') i++;
  return i;
}

/** The plan of summarizing exactly `nodes[spanStart, cut)`. */
export function spanPlan(nodes: readonly SurfaceNode[], tokens: number[], spanStart: number, cut: number, before: number): SpanPlan {
  return {
    nodes,
    tokens,
    before,
    headEnd: headEndOf(nodes),
    spanStart,
    cut,
    spanTokens: sumRange(tokens, spanStart, cut),
    headTokens: sumRange(tokens, 0, spanStart),
    tailTokens: sumRange(tokens, cut, nodes.length),
    tailPruned: [],
  };
}

/**
 * Tool results of the retained part that are too large to keep verbatim: above
 * `max(pruneMinTokens, retainTokens / 4)` tokens. One 27k-token listing must not be what the
 * tail keeps instead of the conversation, so the newest *message* is the indivisible unit and
 * such a result is kept pruned (head, tail and error lines).
 */
export function tailPruneMinTokens(ctx: PlanContext): number {
  return Math.max(ctx.config.pruneMinTokens, Math.floor(ctx.config.retainTokens / 4));
}

/**
 * True for message text that is command output the user's side recorded (pi's `bashExecution`
 * "Ran `cmd`" plus a fenced block, Claude Code's `<bash-stdout>` / `<local-command-stdout>`, or
 * text that is mostly one fenced block): prunable like a tool result. A user's own words never are.
 */
export function isCommandOutput(text: string): boolean {
  if (/<(?:bash-stdout|bash-stderr|local-command-stdout)>/.test(text)) return true;
  let inFence = 0;
  let fence = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fence = !fence;
    else if (fence) inFence += line.length + 1;
  }
  return inFence >= 0.8 * text.length;
}

/** The call behind each tool result id of `nodes`: its name and input. */
function callsById(nodes: readonly SurfaceNode[]): Map<string, { name: string; input: unknown }> {
  const calls = new Map<string, { name: string; input: unknown }>();
  for (const n of nodes) for (const b of n.content) if (b.type === 'tool-call') calls.set(b.id, { name: b.name, input: b.input });
  return calls;
}

/** What a tool result block is worth verbatim (results.ts), from its call. */
function blockValue(b: ToolResultBlock, calls: ReadonlyMap<string, { name: string; input: unknown }>): ResultValue {
  const call = calls.get(b.callId);
  const info = toolInfo(call?.name ?? b.toolName ?? '', call?.input ?? {});
  return resultValue(info.kind, info.command, info.paths[0] ?? info.reads?.[0], blockText(b));
}

/**
 * The pruned copy of `node` when it carries a tool result above the size its value allows
 * (`minTokens(value)`), else undefined. User-side command output counts as `normal`.
 */
function prunedCopy(ctx: PlanContext, node: SurfaceNode, tokens: number, minTokens: (v: ResultValue) => number, calls: ReadonlyMap<string, { name: string; input: unknown }>): Replacement | undefined {
  if (node.kind === 'checkpoint') return undefined;
  const o = { headLines: ctx.config.pruneHeadLines, tailLines: ctx.config.pruneTailLines };
  let changed = false;
  let value: ResultValue | undefined;
  const content = node.content.map((b) => {
    if (b.type === 'text' && node.type === 'user/message' && isCommandOutput(b.text) && ctx.meter.countText(b.text) > minTokens('normal')) {
      const t = pruneText(b.text, o);
      if (t === b.text) return b;
      changed = true;
      value ??= 'normal';
      return { ...b, text: t };
    }
    if (b.type !== 'tool-result') return b;
    const v = blockValue(b, calls);
    if (ctx.meter.countText(blockText(b)) <= minTokens(v)) return b;
    const p = pruneToolResult(b, o, v === 'findings');
    if (p !== b) {
      changed = true;
      value = value === 'findings' || v === 'findings' ? 'findings' : value === 'normal' || v === 'normal' ? 'normal' : 'dump';
    }
    return p;
  });
  if (!changed) return undefined;
  const saved = tokens - (ctx.meter.countBlocks(content) + ctx.meter.perMessageOverhead);
  return saved > 0 ? { orig: node, content, saved, ...(value ? { value } : {}), ...(value === 'findings' ? { findings: true } : {}) } : undefined;
}

/**
 * The retention walk: the oldest span ending at the balanced cut that keeps at most
 * `retainTokens` verbatim (at least the newest indivisible unit) and leaves the checkpoint its
 * room under the budget, never the leading system messages. `too-small` when the newest
 * unit leaves no room for a checkpoint; `nothing` when everything after the leading system
 * messages fits the retained tail, unless `requireSpan` (the surface is over the budget and
 * pruning alone cannot bring it under: then the oldest units are summarized).
 */
export function planRetention(ctx: PlanContext, nodes: readonly SurfaceNode[], before: number, opts: { requireSpan?: boolean } = {}): RetentionPlan {
  const tokens = nodeTokens(ctx, nodes);
  const headEnd = headEndOf(nodes);
  const n = nodes.length;
  const cuts = balancedCuts(nodes).filter((c) => c >= headEnd);
  if (n - headEnd <= 0 || cuts.length < 2) return { kind: 'nothing' };
  // what each node costs if it stays: oversized tool results pruned, by what they are worth
  // verbatim (a dump above the prune floor, a report only when it would take half the tail)
  const minTail = tailPruneMinTokens(ctx);
  const allowed = (v: ResultValue) => (v === 'dump' ? ctx.config.pruneMinTokens : v === 'findings' ? Math.max(minTail, Math.floor(ctx.config.retainTokens / 2)) : minTail);
  const calls = callsById(nodes);
  const pruned = new Map<number, Replacement>();
  const kept = tokens.map((t, i) => {
    if (i < headEnd) return t;
    const r = prunedCopy(ctx, nodes[i]!, t, allowed, calls);
    if (!r) return t;
    pruned.set(i, r);
    return t - r.saved;
  });
  const suffix = new Array<number>(n + 1).fill(0);
  for (let i = n - 1; i >= 0; i--) suffix[i] = suffix[i + 1]! + kept[i]!;
  const lastUnitStart = cuts.filter((c) => c < n).pop()!;
  let cut = lastUnitStart;
  for (const c of cuts) {
    if (c < n && (!opts.requireSpan || c > headEnd) && suffix[c]! <= ctx.config.retainTokens) {
      cut = Math.min(c, lastUnitStart);
      break;
    }
  }
  const headTokens = sumRange(tokens, 0, headEnd);
  const unitTokens = suffix[lastUnitStart]!;
  const room = (tail: number) => Math.min(ctx.config.summaryMaxTokens, ctx.surfaceBudget - headTokens - tail);
  // a tail that leaves no room for the checkpoint gives up its oldest units until it does
  if (cut < lastUnitStart && room(suffix[cut]!) < ctx.minCheckpoint) cut = cuts.find((c) => c > cut && c <= lastUnitStart && room(suffix[c]!) >= ctx.minCheckpoint) ?? lastUnitStart;
  if (room(unitTokens) < ctx.minCheckpoint) {
    return { kind: 'too-small', fromSeq: nodes[lastUnitStart]!.seq, toSeq: nodes[n - 1]!.seq, unitTokens, headTokens };
  }
  if (cut <= headEnd) return { kind: 'nothing' };
  const plan = spanPlan(nodes, tokens, headEnd, cut, before);
  plan.tailPruned = [...pruned].filter(([i]) => i >= cut).map(([, r]) => r);
  plan.tailTokens = suffix[cut]!;
  return { kind: 'span', ...plan };
}

/** Order in which pruned results go: dumps, then the rest, reports last. */
const PRUNE_ORDER: Record<ResultValue, number> = { dump: 0, normal: 1, findings: 2 };

/**
 * Oversized tool results of the span (above `pruneMinTokens`) pruned to head, tail and error
 * lines, in the order they should go: dumps first (a path list, `strings` of a binary, a config
 * dump: results.ts), then the largest, results whose value is their findings (sub-agents,
 * research) last.
 */
export function planPrune(ctx: PlanContext, plan: SpanPlan): Replacement[] {
  const out: Replacement[] = [];
  const calls = callsById(plan.nodes);
  for (let i = plan.spanStart; i < plan.cut; i++) {
    const r = prunedCopy(ctx, plan.nodes[i]!, plan.tokens[i]!, () => ctx.config.pruneMinTokens, calls);
    if (r) out.push(r);
  }
  out.sort((a, b) => PRUNE_ORDER[a.value ?? 'normal'] - PRUNE_ORDER[b.value ?? 'normal'] || b.saved - a.saved);
  return out;
}

/**
 * The prune replacements that bring `before` to `target`, in the order given (largest and least
 * valuable first): pruning takes only what the budget needs. Empty when even all do not reach it.
 */
export function pruneInProportion(reps: readonly Replacement[], before: number, target: number): Replacement[] {
  const out: Replacement[] = [];
  let after = before;
  for (const r of reps) {
    if (after <= target) break;
    out.push(r);
    after -= r.saved;
  }
  return after <= target ? out : [];
}

/** Every tool result but the newest `maskKeepRecent` replaced by a one-line placeholder (observation masking). */
export function planMask(ctx: PlanContext, nodes: readonly SurfaceNode[]): Replacement[] {
  const names = new Map<string, string>();
  const results: Array<{ i: number; b: number }> = [];
  nodes.forEach((n, i) =>
    n.content.forEach((b, j) => {
      if (b.type === 'tool-call') names.set(b.id, b.name);
      else if (b.type === 'tool-result') results.push({ i, b: j });
    }),
  );
  const maskable = results.slice(0, Math.max(0, results.length - ctx.config.maskKeepRecent));
  const byNode = new Map<number, number[]>();
  for (const r of maskable) byNode.set(r.i, [...(byNode.get(r.i) ?? []), r.b]);
  const out: Replacement[] = [];
  for (const [i, blocks] of byNode) {
    const node = nodes[i]!;
    let changed = false;
    const content = node.content.map((b, j) => {
      if (!blocks.includes(j) || b.type !== 'tool-result') return b;
      const size = ctx.meter.countText(blockText(b));
      const m = maskToolResult(b as ToolResultBlock, names.get(b.callId), size);
      if (m === b || ctx.meter.countText(blockText(m)) >= size) return b;
      changed = true;
      return m;
    });
    if (!changed) continue;
    const saved = ctx.meter.countEvent(node) - (ctx.meter.countBlocks(content) + ctx.meter.perMessageOverhead);
    if (saved > 0) out.push({ orig: node, content, saved });
  }
  return out;
}

/** Tokens saved by a set of replacements. */
export function savedBy(reps: readonly Replacement[]): number {
  return reps.reduce((s, r) => s + r.saved, 0);
}
