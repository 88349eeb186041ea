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
