import { analyzePairing, type SurfaceNode } from '@hive-mind/session';
import type { CompactionStrategy } from './config.js';
import type { CompactionResult } from './engine.js';

/**
 * The summary of one compaction run, as `hive-mind compact --json` prints it and the MCP
 * `compact_transcript` tool returns it (exactly these keys). Tokens are counts of the
 * meter's encoding (o200k_base by default).
 */
export interface CompactionReport {
  /** Transcript format of the input (`claude-code`, `codex`, `pi`, `hermes`, `openai`, `anthropic`). */
  format: string;
  strategy: CompactionStrategy;
  /** Summarizer that wrote the checkpoint (`extractive`, `openai`, `anthropic`, `claude-code`, `codex`), `prune` when pruning alone sufficed, null for masking or a no-op. */
  summarizer: string | null;
  tokensBefore: number;
  tokensAfter: number;
  /** The budget the surface had to fit in (tokens). */
  budget: number;
  /** Surface events now hidden behind the checkpoint or masks (still in the log). */
  shadowedEvents: number;
  /** Tokens of the checkpoint node (0 when none). */
  summaryTokens: number;
  anchors: { total: number; kept: number; reinserted: number };
  /** Checkpoint sections the LLM summarizer's reply lacked and what wrote them (`follow-up` or `extractive`); empty when none was missing. */
  repairedSections: Array<{ section: string; by: 'follow-up' | 'extractive' }>;
  /** `balanced` when every tool call on the surface has its result, else `unbalanced (N calls without a result)` or `broken (...)`. */
  toolPairing: string;
  durationMs: number;
}

/** `balanced`, `unbalanced (N calls without a result)`, or `broken (reason)` for an orphan result. */
export function toolPairingOf(surface: readonly SurfaceNode[]): string {
  try {
    const u = analyzePairing(surface).unanswered;
    return u.length ? `unbalanced (${u.length} call${u.length === 1 ? '' : 's'} without a result)` : 'balanced';
  } catch (err) {
    return `broken (${(err as Error).message})`;
  }
}

/**
 * Build the {@link CompactionReport} of `result` for a transcript of `format` whose surface is
 * now `surface`. `configuredSummarizer` names the summarizer when the result does not (a dry run).
 */
export function compactionReport(format: string, result: CompactionResult, surface: readonly SurfaceNode[], durationMs: number, configuredSummarizer?: string): CompactionReport {
  const summarizer =
    result.action === 'summarize' ? (result.summarizer ?? configuredSummarizer ?? null) : result.action === 'prune' ? 'prune' : null;
  return {
    format,
    strategy: result.strategy,
    summarizer,
    tokensBefore: result.tokensBefore,
    tokensAfter: result.tokensAfter,
    budget: result.budget,
    shadowedEvents: result.shadowedSeqs.length,
    summaryTokens: result.summaryTokens,
    anchors: result.anchors,
    repairedSections: result.repairedSections ?? [],
    toolPairing: toolPairingOf(surface),
    durationMs,
  };
}

/**
 * Why a summarizing compaction landed well under its budget: the span replaced is everything older
 * than the verbatim tail, so what is left is the leading system messages, the checkpoint and that
 * tail, whose size is the engine's `retainTokens` reached back to a cut that splits no tool call.
 * Tokens as the engine's meter counts them.
 */
export interface CompactionLanding {
  /** Tokens of the surface after the compaction. */
  tokensAfter: number;
  /** The budget the surface had to fit (tokens). */
  budget: number;
  /** Tokens of the newest events kept verbatim after the checkpoint. */
  tailTokens: number;
  /** Tokens of the leading system messages kept before the checkpoint (0 when none). */
  leadTokens: number;
  /** The engine's `retainTokens`: the verbatim tail it was asked to keep. */
  retainTokens: number;
}

/** What {@link compactionLanding} needs of the engine (a {@link BasicCompactionEngine} has it). */
export interface LandingEngine {
  surfaceTarget(): number;
  readonly meter: { countEvents(events: readonly SurfaceNode[]): number };
  readonly config: { readonly retainTokens: number };
}

/**
 * The {@link CompactionLanding} of `result` when it was a summarize that landed below the
 * engine's headroom target (`engine.surfaceTarget()`, `targetRatio` of what the surface may take) and `surface` (the
 * surface after it) holds its checkpoint; undefined otherwise (a mask, a prune, a no-op, a
 * landing at the target). `budget` is the budget the caller was given (tokens; default the
 * engine's budget, which a caller may have lowered by fixed overhead).
 */
export function compactionLanding(result: CompactionResult, surface: readonly SurfaceNode[], engine: LandingEngine, budget = result.budget): CompactionLanding | undefined {
  if (result.action !== 'summarize' || result.tokensAfter >= engine.surfaceTarget()) return undefined;
  const at = surface.findIndex((n) => n.kind === 'checkpoint');
  if (at < 0) return undefined;
  return {
    tokensAfter: result.tokensAfter,
    budget,
    tailTokens: engine.meter.countEvents(surface.slice(at + 1)),
    leadTokens: engine.meter.countEvents(surface.slice(0, at)),
    retainTokens: engine.config.retainTokens,
  };
}

/**
 * The one-line reason for a {@link CompactionLanding}, naming the caller's option that sets the
 * verbatim tail: `retainRule` says where its size came from (`--retain 3000`, `the default --retain
 * of 4000, half the budget less any overhead`), `retainHint` how to keep more (`--retain N keeps
 * more of the conversation verbatim`).
 */
export function landingSentence(l: CompactionLanding, retainRule: string, retainHint: string): string {
  return `why ${l.tokensAfter} of ${l.budget}: the newest ${l.tailTokens} tokens are kept verbatim (${retainRule}, to the nearest cut that splits no tool call) and everything older is in the checkpoint${l.leadTokens ? `, after ${l.leadTokens} tokens of leading system messages` : ''}; nothing older is left to compact; ${retainHint}`;
}
