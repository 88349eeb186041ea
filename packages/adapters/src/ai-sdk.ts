/**
 * Vercel AI SDK adapter: a `prepareStep` that compacts the step's messages.
 *
 * Written against `ai` 6.0.x (`ModelMessage` of `@ai-sdk/provider-utils` 4.x, `PrepareStepFunction`
 * of `generateText` / `streamText` / `ToolLoopAgent`); only types are imported, so nothing of
 * the SDK loads at run time.
 */
import type { ContentBlock, ImageBlock, TextBlock, ToolResultBlock } from '@hive-mind/session';
import type { CompactionConfig, TokenMeter } from '@hive-mind/compaction';
import type { ModelMessage, PrepareStepFunction, ToolSet } from 'ai';
import type { MessageCodec, ReadMessage } from './codec.js';
import { MessageCompactor, DEFAULT_MAX_CONVERSATIONS, compactMessages, type CompactMessagesReport, type CompactMessagesResult } from './compact-messages.js';
import { importPeer } from './errors.js';
import { failFor, isRec, rewrittenTexts, type Rec } from './shape.js';

const NAME = 'ai-sdk';

const fail: (field: string, detail: string) => never = failFor(NAME);

function textOf(part: Rec, field: string): string {
  if (typeof part.text !== 'string') fail(`${field}.text`, 'is not a string');
  return part.text;
}

/** `image`/`file` data (base64 string, data URL, URL, bytes) as an image block or a file marker. */
function mediaBlock(part: Rec, field: string): ContentBlock {
  const raw = part.type === 'image' ? part.image : part.data;
  const mediaType = typeof part.mediaType === 'string' ? part.mediaType : undefined;
  if (part.type === 'file' && !(mediaType ?? '').startsWith('image/')) {
    // Counted by what it is, not by its bytes; kept verbatim on the message itself.
    return { type: 'opaque', kind: 'ai-sdk:file', raw: { type: 'file', mediaType, filename: part.filename } };
  }
  if (raw instanceof URL) return { type: 'image', url: raw.href, ...(mediaType ? { mediaType } : {}) };
  if (typeof raw === 'string') {
    if (/^(https?:|data:)/.test(raw)) return { type: 'image', url: raw, ...(mediaType ? { mediaType } : {}) };
    return { type: 'image', data: raw, ...(mediaType ? { mediaType } : {}) };
  }
  if (raw instanceof Uint8Array || raw instanceof ArrayBuffer) return { type: 'image', data: '', ...(mediaType ? { mediaType } : {}) };
  fail(`${field}.${part.type === 'image' ? 'image' : 'data'}`, 'is neither a string, a URL nor bytes');
}

/** A `ToolResultOutput` as text/image parts and its error flag. */
function outputContent(output: unknown, field: string): { content: Array<TextBlock | ImageBlock>; isError: boolean } {
  if (!isRec(output)) fail(field, 'is not an object ({type, value})');
  switch (output.type) {
    case 'text':
    case 'error-text':
      if (typeof output.value !== 'string') fail(`${field}.value`, 'is not a string');
      return { content: [{ type: 'text', text: output.value }], isError: output.type === 'error-text' };
    case 'json':
    case 'error-json':
      return { content: [{ type: 'text', text: JSON.stringify(output.value) ?? 'null' }], isError: output.type === 'error-json' };
    case 'execution-denied':
      return { content: [{ type: 'text', text: `[execution denied${typeof output.reason === 'string' ? `: ${output.reason}` : ''}]` }], isError: true };
    case 'content': {
      if (!Array.isArray(output.value)) fail(`${field}.value`, 'is not an array');
      const content = output.value.map((p, k): TextBlock | ImageBlock => {
        const f = `${field}.value[${k}]`;
        if (!isRec(p)) fail(f, 'is not an object');
        switch (p.type) {
          case 'text':
            return { type: 'text', text: textOf(p, f) };
          case 'media':
          case 'image-data':
          case 'file-data':
            return { type: 'image', mediaType: String(p.mediaType ?? ''), data: String(p.data ?? '') };
          case 'image-url':
          case 'file-url':
            return { type: 'image', url: String(p.url ?? '') };
          case 'file-id':
          case 'image-file-id':
          case 'custom':
            return { type: 'text', text: `[${p.type}]` };
          default:
            fail(`${f}.type`, `unknown tool output part type ${JSON.stringify(p.type)}`);
        }
      });
      return { content, isError: false };
    }
    default:
      fail(`${field}.type`, `unknown tool result output type ${JSON.stringify(output.type)}`);
  }
}

function toolResult(part: Rec, field: string): ToolResultBlock {
  if (typeof part.toolCallId !== 'string' || !part.toolCallId) fail(`${field}.toolCallId`, 'is missing: a tool result must name its call');
  const { content, isError } = outputContent(part.output, `${field}.output`);
  return { type: 'tool-result', callId: part.toolCallId, content, isError, ...(typeof part.toolName === 'string' ? { toolName: part.toolName } : {}) };
}

function readPart(part: unknown, role: string, field: string): ContentBlock {
  if (!isRec(part)) fail(field, 'is not an object');
  switch (part.type) {
    case 'text':
      return { type: 'text', text: textOf(part, field) };
    case 'reasoning':
      if (role !== 'assistant') break;
      return { type: 'reasoning', text: textOf(part, field) };
    case 'image':
    case 'file':
      if (role === 'tool' || role === 'system') break;
      return mediaBlock(part, field);
    case 'tool-call':
      if (role !== 'assistant') break;
      if (typeof part.toolCallId !== 'string' || !part.toolCallId) fail(`${field}.toolCallId`, 'is missing');
      if (typeof part.toolName !== 'string') fail(`${field}.toolName`, 'is not a string');
      return { type: 'tool-call', id: part.toolCallId, name: part.toolName, input: part.input };
    case 'tool-result':
      if (role !== 'assistant' && role !== 'tool') break;
      return toolResult(part, field);
    case 'tool-approval-request':
      if (role !== 'assistant') break;
      // Travels with its call (`callId`) and its response (`id`): see the pairing rule of @hive-mind/session.
      return { type: 'opaque', kind: 'ai-sdk:tool-approval-request', raw: { id: part.approvalId, callId: part.toolCallId } };
    case 'tool-approval-response':
      if (role !== 'tool') break;
      return { type: 'opaque', kind: 'ai-sdk:tool-approval-response', raw: { callId: part.approvalId, approved: part.approved } };
    default:
      fail(`${field}.type`, `unknown ${role} content part type ${JSON.stringify(part.type)}`);
  }
  fail(`${field}.type`, `a ${JSON.stringify(part.type)} part is not allowed in a ${role} message`);
}

/**
 * Reads and writes AI SDK `ModelMessage`s (roles system, user, assistant, tool; the part types
 * of `@ai-sdk/provider-utils`). A part it does not know is an {@link AdapterInputError} naming
 * the field (`messages[4].content[0].type`).
 */
export const aiSdkCodec: MessageCodec<ModelMessage> = {
  name: NAME,
  read(message, field): ReadMessage {
    if (!isRec(message)) fail(field, 'is not an object');
    const m = message as unknown as Rec;
    const role = m.role;
    if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool') fail(`${field}.role`, `unknown role ${JSON.stringify(role)}`);
    let content: ContentBlock[];
    if (typeof m.content === 'string') {
      if (role === 'tool') fail(`${field}.content`, 'a tool message holds an array of tool-result parts, not a string');
      content = [{ type: 'text', text: m.content }];
    } else if (Array.isArray(m.content)) {
      if (role === 'system') fail(`${field}.content`, 'a system message holds a string');
      content = m.content.map((p, j) => readPart(p, role, `${field}.content[${j}]`));
    } else fail(`${field}.content`, 'is neither a string nor an array of parts');
    const type = role === 'system' ? 'system/message' : role === 'assistant' ? 'assistant/message' : role === 'tool' ? 'tool/result' : 'user/message';
    return { type, content };
  },
  checkpoint(text) {
    return { role: 'user', content: [{ type: 'text', text }] };
  },
  rewrite(original, content) {
    const m = original as unknown as Rec;
    if (typeof m.content === 'string') {
      const b = content[0];
      return { ...original, content: b && b.type === 'text' ? b.text : m.content } as ModelMessage;
    }
    const parts = (m.content as Rec[]).map((part, j) => {
      const b = content[j];
      if (!b) return part;
      if (b.type === 'text' && part.type === 'text') return b.text === part.text ? part : { ...part, text: b.text };
      if (b.type === 'tool-result' && part.type === 'tool-result') return { ...part, output: rewriteOutput(part.output as Rec, b) };
      return part;
    });
    return { ...original, content: parts } as ModelMessage;
  },
};

/** A tool output carrying the (pruned or masked) text of `b`; a `content` output keeps its media parts. */
function rewriteOutput(output: Rec, b: ToolResultBlock): Rec {
  const texts = b.content.filter((c): c is TextBlock => c.type === 'text').map((c) => c.text);
  if (output.type === 'content' && Array.isArray(output.value)) {
    let k = 0;
    const value = (output.value as Rec[]).map((p) => (p.type === 'text' ? { ...p, text: texts[k++] ?? '' } : p));
    return { ...output, value };
  }
  const error = output.type === 'error-text' || output.type === 'error-json' || output.type === 'execution-denied';
  return { type: error ? 'error-text' : 'text', value: texts.join('\n') };
}

/** Options of {@link compactionPrepareStep}: the engine's config keys (see `@hive-mind/compaction`) plus what the model receives beside the messages. */
export interface PrepareStepCompactionOptions extends CompactionConfig {
  /** The `system` prompt given to the SDK (it is not in the step's messages): counted into `overheadTokens`. */
  system?: string;
  /** The `tools` given to the SDK: their definitions (name, description, JSON schema, as Chat Completions sends them) are counted into `overheadTokens`. Needs `ai` at run time. */
  tools?: ToolSet;
  /** Called after every step's check with what it did (`report.compacted` when a compaction landed). */
  onReport?: (report: CompactMessagesReport, stepNumber: number) => void;
  /** Conversations remembered at once (default 16; one agent run is one conversation). */
  maxConversations?: number;
}

/**
 * Tokens of `system` and of the tool definitions as a Chat Completions request carries them
 * (`[{type: 'function', function: {name, description, parameters}}]`, JSON), measured with `meter`.
 * The JSON schemas come from the SDK's own `asSchema` (the optional peer `ai`).
 */
export async function aiSdkOverheadTokens(meter: TokenMeter, system?: string, tools?: ToolSet): Promise<number> {
  let n = system ? meter.countText(system) + meter.perMessageOverhead : 0;
  if (tools && Object.keys(tools).length) {
    const { asSchema } = await importPeer('ai', '@hive-mind/adapters/ai-sdk', () => import('ai'));
    const defs = [];
    for (const [name, t] of Object.entries(tools)) {
      const parameters = await asSchema((t as { inputSchema: Parameters<typeof asSchema>[0] }).inputSchema).jsonSchema;
      defs.push({ type: 'function', function: { name, ...(t.description ? { description: t.description } : {}), parameters } });
    }
    n += meter.countText(JSON.stringify(defs));
  }
  return n;
}

/**
 * A `prepareStep` for `generateText`, `streamText` or `ToolLoopAgent` that returns the step's
 * messages compacted to the budget (`{messages}`), so every model call fits. Messages left
 * alone are the same objects; the oldest span becomes one checkpoint user message. Each step
 * reads only the messages added since the last (see `MessageCompactor`).
 *
 * What the model receives beside the messages counts against the budget: give `system` and
 * `tools` (measured once, on the first step) and/or `overheadTokens`. Throws what
 * `MessageCompactor.compact` throws (an {@link AdapterInputError} for a message shape it does
 * not know), and a `MissingPeerError` naming `ai` when `tools` is given without it installed.
 */
export function compactionPrepareStep<TOOLS extends ToolSet = ToolSet>(options: PrepareStepCompactionOptions): PrepareStepFunction<TOOLS> {
  const { onReport, maxConversations = DEFAULT_MAX_CONVERSATIONS, system, tools, ...config } = options;
  const compactor = new MessageCompactor(aiSdkCodec, config, maxConversations); // validates the config now
  let overhead: Promise<number> | undefined;
  return async ({ messages, stepNumber }) => {
    const overheadTokens = await (overhead ??= aiSdkOverheadTokens(compactor.engine.meter, system, tools));
    const { messages: compacted, report } = await compactor.compact(messages, { overheadTokens });
    onReport?.(report, stepNumber);
    return { messages: compacted };
  };
}

/** {@link compactMessages} for AI SDK messages: `compactMessages(messages, {contextWindow})`. */
export function compactModelMessages(messages: readonly ModelMessage[], options: CompactionConfig & { signal?: AbortSignal }): Promise<CompactMessagesResult<ModelMessage>> {
  return compactMessages(messages, { ...options, codec: aiSdkCodec });
}
