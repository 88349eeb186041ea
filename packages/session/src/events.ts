import type { ContentBlock } from './blocks.js';

/**
 * How a message-producing event changes the surface.
 * - `append`: the node goes at the end.
 * - `replace`: the node takes the place of the surface nodes from `start` to `end`
 *   (inclusive, both surface seqs, `start` at or before `end` in surface order).
 */
export type SurfaceOp = 'append' | { op: 'replace'; start: number; end: number };

/** Fields every event has. */
export interface EventBase {
  /** Monotonic, strictly increasing, assigned by the log (first event is 1). */
  seq: number;
  /** ISO-8601 timestamp. */
  ts: string;
  /** Seqs of the events this one was derived from (e.g. a checkpoint's source span). */
  sourceSeqs?: number[];
  /** Host-specific data kept for write-back (uuid, parentUuid, entry id...). */
  meta?: Record<string, unknown>;
}

/** Message-producing event types: these (and only these) change the surface. */
export type MessageEventType = 'user/message' | 'assistant/message' | 'tool/result' | 'system/message';

/** A message on the surface (or shadowed from it). */
export interface MessageEvent extends EventBase {
  type: MessageEventType;
  surfaceOp: SurfaceOp;
  content: ContentBlock[];
  /**
   * `checkpoint` marks a compaction summary node; `repair` a synthetic node the
   * importer added (an unanswered call's result, an orphan result's note).
   */
  kind?: 'checkpoint' | 'repair';
  /**
   * Id of the model message this event is a part of, when the host records one (Claude
   * Code writes each block of one API message on its own line with the same `message.id`).
   * Events sharing a `messageId` are parts of one model message: no cut falls between them.
   */
  messageId?: string;
  /** Model that produced an assistant message, when known. */
  model?: string;
  /** Provider-reported usage for an assistant message, when known (tokens). */
  usage?: { inputTokens?: number; outputTokens?: number; cacheReadTokens?: number; cacheWriteTokens?: number };
}

/** Log-only event types known to this package. Other strings are allowed too. */
export type LogEventType =
  | 'compaction/start'
  | 'compaction/summary'
  | 'compaction/end'
  | 'session/meta'
  | 'model/change'
  | 'thinking/change'
  | 'host/record';

/** An event that never changes the surface. `data` is free-form JSON. */
export interface LogEvent extends EventBase {
  type: LogEventType | (string & {});
  data?: unknown;
}

/**
 * `data` of a `compaction/start` record: the first record of a compaction, appended before
 * anything is summarized. Written by the compaction engine and by transcript readers for a
 * host's own compactions (`host: true`).
 */
export interface CompactionStartData {
  /** Compaction id, shared by its start, summary and end records. */
  id: string;
  /** Engine strategy (`summarize`, `mask`, `auto`). */
  strategy?: string;
  /** What the compaction set out to land. */
  action?: 'summarize' | 'prune' | 'mask';
  /** Surface tokens before the compaction (meter tokens). */
  tokensBefore?: number;
  /** The budget the compaction must reach (tokens). */
  budget?: number;
  /** @deprecated The same figure, as records written before the rename named it (read it as {@link budget}). */
  threshold?: number;
  /** First and last surface seq of the span to summarize. */
  span?: { start: number; end: number };
  /** True for a compaction the host made (imported from its transcript). */
  host?: boolean;
  /** Summarizer name (host compactions: `host:pi`, `host:claude-code`, `host:codex`). */
  summarizer?: string;
}

/**
 * `data` of a `compaction/summary` record: what landed. Appended atomically with the
 * replacement node(s) and the `compaction/end` record.
 */
export interface CompactionSummaryData {
  id: string;
  /** `extractive`, `openai`, `anthropic`, `claude-code`, `codex`, `prune`, `mask`, a custom name, or `host:<host>`. */
  summarizer: string;
  /** Model that wrote the summary, null when none did. */
  model?: string | null;
  /** Summary body budget the summarizer was given (tokens), null for prune/mask. */
  maxTokens?: number | null;
  /** Seq of the checkpoint node (null when a host compaction left no summary). */
  checkpointSeq?: number | null;
  /** Surface seqs the compaction shadowed, in surface order. */
  shadowedSeqs: number[];
  /** Seqs of the replacement nodes of pruned/masked tool results. */
  replacementSeqs?: number[];
  /** Surface tokens before (tokens; pi records its own count here for its compactions). */
  tokensBefore?: number;
  /** Surface tokens after (tokens). */
  tokensAfter?: number;
  /** Tokens of the checkpoint node, framing included. */
  summaryTokens?: number;
  /** Summarize attempts made. */
  attempts?: number;
  /** Set when the configured summarizer failed and this checkpoint came from the extractive one instead: which failed, and why. */
  fallback?: { from: string; reason: string };
  /** Checkpoint sections the LLM summarizer's reply lacked, and what wrote them: `follow-up` (asked once more) or `extractive` (from the extractive checkpoint of the span). */
  repairedSections?: Array<{ section: string; by: 'follow-up' | 'extractive' }>;
  /** Anchor recall: `lost` lists `kind: text` of the anchors the budget dropped. */
  anchors?: { total: number; kept: number; reinserted: number; lost: string[] };
  host?: boolean;
  /** pi: the entry the host kept from (index or id), as its `compaction` entry recorded it. */
  firstKeptEntryIndex?: number;
  firstKeptEntryId?: string;
  /** Codex: number of items in the host's replacement history. */
  replacementItems?: number;
}

/** `data` of a `compaction/end` record: the last record of a compaction, with `error` when it failed (the surface is then unchanged). */
export interface CompactionEndData {
  id: string;
  /** Seq of the matching `compaction/start` record. */
  startSeq?: number;
  /** Why the compaction failed (`aborted` for an abort); absent on success. */
  error?: string;
}

/** A `compaction/start`, `compaction/summary` or `compaction/end` record with its typed data. */
export type CompactionRecord =
  | (LogEvent & { type: 'compaction/start'; data: CompactionStartData })
  | (LogEvent & { type: 'compaction/summary'; data: CompactionSummaryData })
  | (LogEvent & { type: 'compaction/end'; data: CompactionEndData });

/** True for a compaction record whose `data` is an object with a string `id` (the shape every writer gives it). */
export function isCompactionRecord(e: { type: string; data?: unknown }): e is CompactionRecord {
  if (e.type !== 'compaction/start' && e.type !== 'compaction/summary' && e.type !== 'compaction/end') return false;
  const d = e.data as { id?: unknown } | null | undefined;
  return !!d && typeof d === 'object' && typeof d.id === 'string';
}

/** Any event on the log. */
export type SessionEvent = MessageEvent | LogEvent;

/** An event before the log assigned its seq (and, optionally, its timestamp). */
export type NewEvent = DistributiveOmit<MessageEvent, 'seq' | 'ts'> & { ts?: string } | (Omit<LogEvent, 'seq' | 'ts'> & { ts?: string });

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const MESSAGE_TYPES = new Set<string>(['user/message', 'assistant/message', 'tool/result', 'system/message']);

/** True for the event types that carry a `surfaceOp` and content. */
export function isMessageEvent(e: { type: string }): e is MessageEvent {
  return MESSAGE_TYPES.has(e.type);
}

/** The conversational role of a message event type. */
export function roleOf(type: MessageEventType): 'user' | 'assistant' | 'tool' | 'system' {
  switch (type) {
    case 'user/message':
      return 'user';
    case 'assistant/message':
      return 'assistant';
    case 'tool/result':
      return 'tool';
    case 'system/message':
      return 'system';
  }
}
