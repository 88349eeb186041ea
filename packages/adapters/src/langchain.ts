/**
 * LangChain.js v1 adapter: an agent middleware (`createAgent({middleware: [...]})`) whose
 * `wrapModelCall` hands the model the request's messages compacted to the budget.
 *
 * Written against `langchain` 1.5.x (`createMiddleware`, `ModelRequest`) and `@langchain/core`
 * 1.4.x (`BaseMessage`, `HumanMessage`, `ToolMessage`, `convertToOpenAITool`). Both are
 * optional peers loaded when this subpath is imported: a missing one is a `MissingPeerError`
 * naming it.
 */
import type { ContentBlock, ImageBlock, TextBlock } from '@hive-mind/session';
import type { CompactionConfig, TokenMeter } from '@hive-mind/compaction';
import type { BaseMessage } from '@langchain/core/messages';
import type { AgentMiddleware } from 'langchain';
import type { MessageCodec, ReadMessage } from './codec.js';
import { DEFAULT_MAX_CONVERSATIONS, MessageCompactor, compactMessages, type CompactMessagesReport, type CompactMessagesResult } from './compact-messages.js';
import { importPeer } from './errors.js';
import { countTextCached, failFor, isRec, rewrittenTexts, type Rec } from './shape.js';

const SUBPATH = '@hive-mind/adapters/langchain';
const NAME = 'langchain';

const { createMiddleware } = await importPeer('langchain', SUBPATH, () => import('langchain'));
const { HumanMessage } = await importPeer('@langchain/core', SUBPATH, () => import('@langchain/core/messages'));
const { convertToOpenAITool } = await importPeer('@langchain/core', SUBPATH, () => import('@langchain/core/utils/function_calling'));

const fail: (field: string, detail: string) => never = failFor(NAME);

function imageOf(p: Rec): ImageBlock {
  const url = isRec(p.image_url) ? p.image_url.url : typeof p.image_url === 'string' ? p.image_url : p.url;
  if (typeof url === 'string') return { type: 'image', url };
  const data = typeof p.data === 'string' ? p.data : isRec(p.source) && typeof p.source.data === 'string' ? p.source.data : undefined;
  const mediaType = typeof p.mimeType === 'string' ? p.mimeType : typeof p.mime_type === 'string' ? p.mime_type : undefined;
  return { type: 'image', ...(data ? { data } : {}), ...(mediaType ? { mediaType } : {}) };
}

/**
 * One content part. Text and images are modelled; a provider's own block on an AI message
 * (`server_tool_use`, `web_search_tool_result`, `citations`...) is kept whole as an opaque
 * block, so the pairing rule keeps server tool blocks together; a part without a `type` is an error.
 */
function part(p: unknown, kind: string, field: string): ContentBlock | null {
  if (typeof p === 'string') return { type: 'text', text: p };
  if (!isRec(p) || typeof p.type !== 'string') fail(`${field}.type`, 'is missing: a content part needs a type');
  switch (p.type) {
    case 'text':
    case 'text_delta':
      if (typeof p.text !== 'string') fail(`${field}.text`, 'is not a string');
      return { type: 'text', text: p.text };
    case 'image_url':
    case 'image':
      return imageOf(p);
    case 'thinking':
    case 'reasoning':
      if (kind !== 'ai') break;
      return { type: 'reasoning', text: typeof p.thinking === 'string' ? p.thinking : typeof p.reasoning === 'string' ? p.reasoning : '' };
    case 'tool_use':
    case 'tool_call':
    case 'input_json_delta':
      // The same call is in `tool_calls` (LangChain keeps both): counted once, from there.
      if (kind === 'ai') return null;
      break;
  }
  if (kind === 'ai' || kind === 'human' || kind === 'system') return { type: 'opaque', kind: `langchain:${p.type}`, raw: p };
  // A tool result's part the model cannot read as text or an image: its JSON, never dropped.
  return { type: 'text', text: JSON.stringify(p) };
}

function contentOf(content: unknown, kind: string, field: string): ContentBlock[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  if (!Array.isArray(content)) fail(`${field}.content`, 'is neither a string nor an array of content blocks');
  const out: ContentBlock[] = [];
  content.forEach((p, j) => {
    const b = part(p, kind, `${field}.content[${j}]`);
    if (b) out.push(b);
  });
  return out;
}

/**
 * Reads LangChain `BaseMessage`s by their `type` (`system`, `human`, `ai` with `tool_calls`,
 * `tool` with `tool_call_id`). Another type (`remove`, `function`, a generic `ChatMessage`),
 * a tool call without an id or a tool message without `tool_call_id` is an
 * {@link AdapterInputError} naming the field.
 */
export const langchainCodec: MessageCodec<BaseMessage> = {
  name: NAME,
  read(message, field): ReadMessage {
    if (!isRec(message)) fail(field, 'is not a LangChain message');
    const m = message as unknown as Rec;
    const kind = typeof m.type === 'string' ? m.type : typeof (m as { _getType?: () => string })._getType === 'function' ? (m as { _getType: () => string })._getType() : undefined;
    switch (kind) {
      case 'system':
        return { type: 'system/message', content: contentOf(m.content, kind, field) };
      case 'human':
        return { type: 'user/message', content: contentOf(m.content, kind, field) };
      case 'ai': {
        const content = contentOf(m.content, kind, field);
        const calls = m.tool_calls ?? [];
        if (!Array.isArray(calls)) fail(`${field}.tool_calls`, 'is not an array');
        calls.forEach((c, j) => {
          if (!isRec(c) || typeof c.id !== 'string' || !c.id) fail(`${field}.tool_calls[${j}].id`, 'is missing: a tool call and its result are paired by it');
          content.push({ type: 'tool-call', id: c.id, name: typeof c.name === 'string' ? c.name : '', input: c.args ?? {} });
        });
        return { type: 'assistant/message', content };
      }
      case 'tool': {
        if (typeof m.tool_call_id !== 'string' || !m.tool_call_id) fail(`${field}.tool_call_id`, 'is missing: a tool result must name its call');
        const parts = contentOf(m.content, kind, field).filter((b): b is TextBlock | ImageBlock => b.type === 'text' || b.type === 'image');
        return {
          type: 'tool/result',
          content: [{ type: 'tool-result', callId: m.tool_call_id, content: parts, isError: m.status === 'error', ...(typeof m.name === 'string' ? { toolName: m.name } : {}) }],
        };
      }
      default:
        fail(`${field}.type`, `unknown message type ${JSON.stringify(kind)} (expected system, human, ai or tool)`);
    }
  },
  checkpoint(text) {
    return new HumanMessage(text);
  },
  rewrite(original, content) {
    const m = original as unknown as Rec & { constructor: new (fields: Rec) => BaseMessage };
    const texts = rewrittenTexts(content);
    if (m.type !== 'tool' && m.type !== 'human') return original;
    let next: unknown;
    if (typeof m.content === 'string') next = texts.join('\n');
    else {
      let k = 0;
      next = (m.content as unknown[]).map((p) => (isRec(p) && p.type === 'text' ? { ...p, text: texts[k++] ?? '' } : p));
    }
    const fields: Rec = { content: next, id: m.id, name: m.name, additional_kwargs: m.additional_kwargs, response_metadata: m.response_metadata };
    if (m.type === 'tool') Object.assign(fields, { tool_call_id: m.tool_call_id, status: m.status, artifact: m.artifact, metadata: m.metadata });
    return new m.constructor(fields);
  },
};

/**
 * Tokens of the system message and of the tools as a chat model is given them (each tool as
 * `convertToOpenAITool` renders it: `{type: 'function', function: {name, description,
 * parameters}}`, JSON), measured with `meter`.
 */
export function requestOverheadTokens(meter: TokenMeter, system: BaseMessage | undefined, tools: readonly unknown[] | undefined): number {
  let n = 0;
  if (system) n += countTextCached(meter, typeof system.content === 'string' ? system.content : JSON.stringify(system.content)) + meter.perMessageOverhead;
  if (tools?.length) n += countTextCached(meter, JSON.stringify(tools.map((t) => convertToOpenAITool(t as Parameters<typeof convertToOpenAITool>[0]))));
  return n;
}

/** Options of {@link compactionMiddleware}: the engine's config keys plus a report callback. */
export interface MiddlewareCompactionOptions extends CompactionConfig {
  /** Called after every model call's check with what it did. */
  onReport?: (report: CompactMessagesReport) => void;
  /** Conversations remembered at once (default 16; one thread is one conversation). */
  maxConversations?: number;
}

/**
 * An agent middleware for `createAgent({model, tools, middleware: [compactionMiddleware({contextWindow})]})`.
 * Its `wrapModelCall` passes the model the request's messages compacted to the budget (the
 * system message and the tools counted against it on every call); the agent's state keeps
 * every message, as the session log does, so nothing is lost and a checkpointer stores the
 * whole thread. Each call reads only the messages added since the last.
 *
 * Throws what `MessageCompactor.compact` throws (an {@link AdapterInputError} for a message it
 * does not know), which fails the model call.
 */
export function compactionMiddleware(options: MiddlewareCompactionOptions): AgentMiddleware {
  const { onReport, maxConversations = DEFAULT_MAX_CONVERSATIONS, ...config } = options;
  const compactor = new MessageCompactor(langchainCodec, config, maxConversations);
  return createMiddleware({
    name: 'HiveMindCompaction',
    wrapModelCall: async (request, handler) => {
      const overheadTokens = requestOverheadTokens(compactor.engine.meter, request.systemMessage, request.tools);
      const { messages, report } = await compactor.compact(request.messages, { overheadTokens });
      onReport?.(report);
      return handler({ ...request, messages });
    },
  }) as AgentMiddleware;
}

/** {@link compactMessages} for LangChain messages. */
export function compactLangChainMessages(messages: readonly BaseMessage[], options: CompactionConfig & { signal?: AbortSignal }): Promise<CompactMessagesResult<BaseMessage>> {
  return compactMessages(messages, { ...options, codec: langchainCodec });
}
