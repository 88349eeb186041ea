/**
 * Content blocks: the unit of message content on the session log.
 *
 * The set is open: another package can add a block type by declaration merging
 * on {@link BlockTypes}. A consumer that meets a block type it does not know must
 * pass it through untouched (see {@link isKnownBlock}); nothing is silently dropped.
 */

/** Plain text, as the model reads or writes it. */
export interface TextBlock {
  type: 'text';
  text: string;
}

/** Model reasoning ("thinking"). Never lands in a checkpoint summary. */
export interface ReasoningBlock {
  type: 'reasoning';
  text: string;
  /** Provider signature (Anthropic `signature`, OpenAI `encrypted_content`), kept for write-back. */
  signature?: string;
  /** True when the provider returned only an opaque/redacted form. */
  redacted?: boolean;
}

/** A tool call made by the assistant. `id` is unique within a session. */
export interface ToolCallBlock {
  type: 'tool-call';
  id: string;
  name: string;
  /** Parsed arguments when they were JSON, otherwise the raw string. */
  input: unknown;
}

/** An image, inline (base64 `data`) or by `url`. */
export interface ImageBlock {
  type: 'image';
  mediaType?: string;
  data?: string;
  url?: string;
}

/** The result of the tool call whose id is `callId`. */
export interface ToolResultBlock {
  type: 'tool-result';
  callId: string;
  /** Result content: text and image blocks. */
  content: Array<TextBlock | ImageBlock>;
  isError: boolean;
  /** Tool name when the host records it next to the result (pi, Codex). */
  toolName?: string;
}

/**
 * A block from a host format we read but do not model (e.g. a provider's
 * `server_tool_use`, a `document`). Kept verbatim so write-back can restore it.
 */
export interface OpaqueBlock {
  type: 'opaque';
  /** Where it came from, e.g. `anthropic:document`. */
  kind: string;
  raw: unknown;
}

/** Registry of block types; extend by declaration merging. */
export interface BlockTypes {
  text: TextBlock;
  reasoning: ReasoningBlock;
  'tool-call': ToolCallBlock;
  'tool-result': ToolResultBlock;
  image: ImageBlock;
  opaque: OpaqueBlock;
}

/** Any content block. */
export type ContentBlock = BlockTypes[keyof BlockTypes];

const KNOWN = new Set(['text', 'reasoning', 'tool-call', 'tool-result', 'image', 'opaque']);

/** True when the block is one of the built-in types this package models. */
export function isKnownBlock(block: { type: string }): block is ContentBlock {
  return KNOWN.has(block.type);
}

/** The text of a message's text blocks (no reasoning, tool calls or results), joined by newlines and trimmed. */
export function textBlocksText(blocks: readonly { type: string }[]): string {
  return blocks
    .filter((b): b is TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
    .trim();
}

/**
 * The text a block carries, as a reader would see it (characters, not tokens).
 * Tool calls render as `name(json)`, tool results as their text parts; images and
 * opaque blocks render as a short bracketed marker. Unknown block types render as
 * their JSON, so nothing is invisible to a token count.
 */
export function blockText(block: { type: string }): string {
  const b = block as ContentBlock;
  switch (b.type) {
    case 'text':
      return b.text;
    case 'reasoning':
      return b.text;
    case 'tool-call':
      return `${b.name}(${typeof b.input === 'string' ? b.input : safeJson(b.input)})`;
    case 'tool-result':
      return b.content.map((c) => blockText(c)).join('\n');
    case 'image':
      return `[image${b.mediaType ? ` ${b.mediaType}` : ''}]`;
    case 'opaque':
      return `[${b.kind}] ${safeJson(b.raw)}`;
    default:
      return safeJson(block);
  }
}

/**
 * Ids a block carries or refers to, for pairing (see `analyzePairing`).
 *
 * - `carries`: ids this block introduces: a tool call's `id`; an opaque or unknown
 *   block's `id` (Anthropic `server_tool_use` and `mcp_tool_use` carry `id`, per the
 *   Messages API reference).
 * - `references`: ids of another block this one answers: a tool result's `callId`; an
 *   opaque or unknown block's `tool_use_id` (Anthropic `web_search_tool_result`,
 *   `web_fetch_tool_result`, `code_execution_tool_result`, `mcp_tool_result`) or `callId`.
 * - `links`: ids that only tie blocks together, with no direction (OpenAI Responses items
 *   `function_call` and `function_call_output` both carry `call_id`).
 *
 * Text, reasoning and image blocks link nothing.
 */
export function blockIds(block: { type: string }): { carries: string[]; references: string[]; links: string[] } {
  const b = block as ContentBlock;
  switch (b.type) {
    case 'tool-call':
      return { carries: [b.id], references: [], links: [] };
    case 'tool-result':
      return { carries: [], references: [b.callId], links: [] };
    case 'text':
    case 'reasoning':
    case 'image':
      return NO_IDS;
    case 'opaque':
      return idsOfRecord(b.raw);
    default:
      return idsOfRecord(block);
  }
}

const NO_IDS = Object.freeze({ carries: [], references: [], links: [] }) as unknown as { carries: string[]; references: string[]; links: string[] };

function idsOfRecord(raw: unknown): { carries: string[]; references: string[]; links: string[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return NO_IDS;
  const r = raw as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? [v] : []);
  const carries = str(r.id);
  const references = [...str(r.tool_use_id), ...str(r.callId)];
  const links = str(r.call_id);
  return carries.length || references.length || links.length ? { carries, references, links } : NO_IDS;
}

/** Text of a list of blocks joined by newlines. */
export function blocksText(blocks: readonly { type: string }[]): string {
  return blocks.map((b) => blockText(b)).join('\n');
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Shorthand for a text block. */
export function text(t: string): TextBlock {
  return { type: 'text', text: t };
}
