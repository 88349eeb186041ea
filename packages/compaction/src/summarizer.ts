import type { SurfaceNode } from '@hive-mind/session';
import type { RepairedSection } from './repair.js';
import type { TokenMeter } from './tokens.js';

/** What a summarizer gets: the span to replace and the context around it. */
export interface SummarizeInput {
  /** Surface nodes being replaced, in surface order. May contain a prior checkpoint (`kind: 'checkpoint'`). */
  span: readonly SurfaceNode[];
  /** Retained nodes after the span (read-only context; they stay verbatim). */
  tail: readonly SurfaceNode[];
  /** Upper bound for the summary body (tokens of `meter`). Exceeding it is a verification failure. */
  maxTokens: number;
  /** The engine's meter (use it to stay within `maxTokens`). */
  meter: TokenMeter;
  /** Aborts the call; a summarizer must stop promptly and reject. */
  signal?: AbortSignal;
  /**
   * The session's working folder as the host recorded it before the span (pi's session header,
   * Codex's `session_meta` / `turn_context`, a Claude Code record's `cwd`), when it did: the
   * checkpoint states paths relative to the project root it leads to.
   */
  cwd?: string;
}

/** A summary body (markdown with `## ` sections, no framing: the engine frames it). */
export interface SummaryOutput {
  text: string;
  /** Model that wrote it (LLM summarizers). */
  model?: string;
  /** Provider-reported usage (tokens), when known. */
  usage?: { inputTokens?: number; outputTokens?: number };
  /** LLM summarizers: HTTP requests made for this summary (chunks and retries included). */
  requests?: number;
  /** LLM summarizers: the largest request sent, input plus output limit (tokens of the engine's meter). */
  largestRequestTokens?: number;
  /** LLM summarizers: the summarizer model's window the requests were bounded by (tokens). */
  window?: number;
  /** LLM summarizers: the checkpoint sections the reply lacked, and what wrote them (the follow-up request or the extractive checkpoint). */
  repairedSections?: RepairedSection[];
}

/** Turns a span into a checkpoint body. Implementations: extractive, openai, anthropic, claude-code, codex. */
export interface Summarizer {
  /** `extractive`, `openai`, `anthropic`, `claude-code`, `codex` or a custom name (recorded in `compaction/summary`). */
  readonly name: string;
  /** Model name when the summarizer uses one. */
  readonly model?: string;
  summarize(input: SummarizeInput): Promise<SummaryOutput>;
}

/** Heading under which the engine re-inserts anchors a summary lost. */
export const PRESERVED_HEADING = 'Preserved details';
