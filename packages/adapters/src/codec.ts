import type { ContentBlock, MessageEventType } from '@hive-mind/session';

/** One framework message read as one session event: its type and its blocks. */
export interface ReadMessage {
  type: MessageEventType;
  /**
   * One block per part of the message, in order (a string content is one text block), so
   * {@link MessageCodec.rewrite} can map blocks back to parts by position.
   */
  content: ContentBlock[];
  /** `checkpoint` for a framework's own compaction summary, so a later compaction merges it instead of copying it. */
  kind?: 'checkpoint';
}

/**
 * How an adapter reads a framework's messages into session events and writes back the few
 * messages compaction creates. Messages compaction leaves alone are returned as the same
 * objects (provider metadata, ids and all), so a codec never renders them.
 */
export interface MessageCodec<M> {
  /** Adapter name used in errors (`ai-sdk`, `openai-agents`, `langchain`, `pi`). */
  readonly name: string;
  /** Name of the message array in error fields (`messages` unless the framework calls it otherwise, e.g. `input`). */
  readonly arrayName?: string;
  /**
   * Read one message. `field` is its path for errors (`messages[3]`). Throws
   * {@link AdapterInputError} naming the field for a shape it does not know; a tool result it
   * cannot read is an error, never dropped.
   */
  read(message: M, field: string): ReadMessage;
  /** The checkpoint (compaction summary, framed text) as a message the framework sends as user input. */
  checkpoint(text: string): M;
  /**
   * `original` with its parts rewritten from `content` (the blocks `read` gave, same length
   * and order, some replaced by compaction: a pruned or masked tool result, pruned command
   * output). Ids, names and metadata come from `original`.
   */
  rewrite(original: M, content: readonly ContentBlock[]): M;
}
