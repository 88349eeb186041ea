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
  /** The threshold the surface had to fit in (tokens). */
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
    budget: result.threshold,
    shadowedEvents: result.shadowedSeqs.length,
    summaryTokens: result.summaryTokens,
    anchors: result.anchors,
    repairedSections: result.repairedSections ?? [],
    toolPairing: toolPairingOf(surface),
    durationMs,
  };
}
