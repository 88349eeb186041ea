/**
 * OpenAI Agents SDK (JavaScript) adapter: a `callModelInputFilter` that compacts the items
 * sent to the model on every turn of a run.
 *
 * Written against `@openai/agents` 0.14.x (`@openai/agents-core` `CallModelInputFilter`,
 * `AgentInputItem`); only types are imported, so nothing of the SDK loads at run time.
 */
import type { ContentBlock, ImageBlock, TextBlock, ToolResultBlock } from '@hive-mind/session';
import type { CompactionConfig, TokenMeter } from '@hive-mind/compaction';
import type { AgentInputItem, CallModelInputFilter } from '@openai/agents-core';
import type { MessageCodec, ReadMessage } from './codec.js';
import { DEFAULT_MAX_CONVERSATIONS, MessageCompactor, compactMessages, type CompactMessagesReport, type CompactMessagesResult } from './compact-messages.js';
import { countTextCached, failFor, isRec, rewrittenTexts, type Rec } from './shape.js';

const NAME = 'openai-agents';

const fail: (field: string, detail: string) => never = failFor(NAME);

function str(v: unknown, field: string): string {
  if (typeof v !== 'string') fail(field, 'is not a string');
  return v;
}

/** Arguments as the model wrote them: parsed JSON when they parse, else the string. */
function parseArgs(v: unknown): unknown {
  if (typeof v !== 'string') return v ?? {};
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

function imageOf(image: unknown): ImageBlock {
  if (typeof image === 'string') return /^data:([^;]+);base64,/.test(image) ? { type: 'image', url: image } : { type: 'image', url: image };
  if (isRec(image) && typeof image.url === 'string') return { type: 'image', url: image.url };
  if (isRec(image) && typeof image.data === 'string') return { type: 'image', data: image.data, ...(typeof image.mediaType === 'string' ? { mediaType: image.mediaType } : {}) };
  return { type: 'image' };
}

/** A content part of a user, system or assistant message. */
function messagePart(p: unknown, role: string, field: string): ContentBlock {
  if (!isRec(p)) fail(field, 'is not an object');
  switch (p.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: str(p.text, `${field}.text`) };
    case 'refusal':
      return { type: 'text', text: str(p.refusal, `${field}.refusal`) };
    case 'input_image':
    case 'image':
      return imageOf(p.image);
    case 'input_file':
    case 'audio':
      // Counted by what it is, not by its bytes; kept verbatim on the item itself.
      return { type: 'opaque', kind: `openai-agents:${p.type}`, raw: { type: p.type, ...(typeof p.filename === 'string' ? { filename: p.filename } : {}), ...(typeof p.transcript === 'string' ? { transcript: p.transcript } : {}) } };
    default:
      fail(`${field}.type`, `unknown ${role} content part type ${JSON.stringify(p.type)}`);
  }
}

/** `function_call_result.output`: a string, one text/image/file output, or a list of input_text/input_image/input_file. */
function functionOutput(output: unknown, field: string): Array<TextBlock | ImageBlock> {
  if (typeof output === 'string') return [{ type: 'text', text: output }];
  const one = (o: unknown, f: string): TextBlock | ImageBlock => {
    if (!isRec(o)) fail(f, 'is not an object');
    switch (o.type) {
      case 'text':
      case 'input_text':
        return { type: 'text', text: str(o.text, `${f}.text`) };
      case 'image':
      case 'input_image':
        return imageOf(o.image);
      case 'file':
      case 'input_file':
        return { type: 'text', text: `[file${isRec(o.file) && typeof o.file.filename === 'string' ? ` ${o.file.filename}` : typeof o.filename === 'string' ? ` ${o.filename}` : ''}]` };
      default:
        fail(`${f}.type`, `unknown tool output type ${JSON.stringify(o.type)}`);
    }
  };
  if (Array.isArray(output)) return output.map((o, k) => one(o, `${field}[${k}]`));
  return [one(output, field)];
}

function callId(item: Rec, field: string): string {
  const id = item.callId ?? item.call_id;
  if (typeof id !== 'string' || !id) fail(`${field}.callId`, 'is missing: a tool call and its result are paired by it');
  return id;
}

/** Tool call items: the tool's name and its input. */
const CALLS: Record<string, (item: Rec, field: string) => { name: string; input: unknown }> = {
  function_call: (it, f) => ({ name: str(it.name, `${f}.name`), input: parseArgs(it.arguments) }),
  computer_call: (it) => ({ name: 'computer', input: it.actions ?? it.action ?? {} }),
  shell_call: (it) => ({ name: 'shell', input: it.action ?? {} }),
  apply_patch_call: (it) => ({ name: 'apply_patch', input: it.operation ?? {} }),
  program: (it) => ({ name: 'program', input: { code: it.code } }),
  tool_search_call: (it) => ({ name: 'tool_search', input: it.arguments ?? {} }),
};

/** Tool result items: the result's content and whether it failed. */
const RESULTS: Record<string, (item: Rec, field: string) => { content: Array<TextBlock | ImageBlock>; isError: boolean; toolName?: string }> = {
  function_call_result: (it, f) => ({ content: functionOutput(it.output, `${f}.output`), isError: false, toolName: typeof it.name === 'string' ? it.name : undefined }),
  computer_call_result: (it) => ({ content: [isRec(it.output) && typeof it.output.data === 'string' ? { type: 'image', url: it.output.data } : { type: 'image' }], isError: false }),
  shell_call_output: (it, f) => {
    if (!Array.isArray(it.output)) fail(`${f}.output`, 'is not an array');
    const text = (it.output as Rec[]).map((o) => [o.stdout, o.stderr].filter((s) => typeof s === 'string' && s).join('\n')).join('\n');
    return { content: [{ type: 'text', text }], isError: false };
  },
  apply_patch_call_output: (it) => ({ content: [{ type: 'text', text: typeof it.output === 'string' ? it.output : '' }], isError: it.status === 'failed' }),
  program_output: (it, f) => ({ content: [{ type: 'text', text: str(it.output, `${f}.output`) }], isError: it.status === 'incomplete' }),
  tool_search_output: (it) => ({ content: [{ type: 'text', text: JSON.stringify(it.tools ?? []) }], isError: false }),
};

/** Items the model produced that need no pairing: kept whole, counted as their JSON. */
const STANDALONE = new Set(['hosted_tool_call', 'compaction', 'unknown']);

/**
 * Reads and writes Agents SDK `AgentInputItem`s (the 19 item types of `@openai/agents-core`
 * 0.14: messages by role, function/computer/shell/apply_patch/program/tool_search calls and
 * their results, reasoning, hosted tool calls, compaction and unknown items). An item or part
 * type it does not know is an {@link AdapterInputError} naming the field (`input[3].type`).
 */
export const openAIAgentsCodec: MessageCodec<AgentInputItem> = {
  name: NAME,
  arrayName: 'input',
  read(item, field): ReadMessage {
    if (!isRec(item)) fail(field, 'is not an object');
    const it = item as Rec;
    const type = it.type;
    if (type === undefined || type === 'message') {
      const role = it.role;
      if (role !== 'system' && role !== 'user' && role !== 'assistant') fail(`${field}.role`, `unknown role ${JSON.stringify(role)}`);
      let content: ContentBlock[];
      if (typeof it.content === 'string') content = [{ type: 'text', text: it.content }];
      else if (Array.isArray(it.content)) content = it.content.map((p, j) => messagePart(p, role, `${field}.content[${j}]`));
      else fail(`${field}.content`, 'is neither a string nor an array of parts');
      return { type: role === 'system' ? 'system/message' : role === 'user' ? 'user/message' : 'assistant/message', content };
    }
    if (typeof type !== 'string') fail(`${field}.type`, 'is not a string');
    const call = CALLS[type];
    if (call) {
      const { name, input } = call(it, field);
      return { type: 'assistant/message', content: [{ type: 'tool-call', id: callId(it, field), name, input }] };
    }
    const result = RESULTS[type];
    if (result) {
      const { content, isError, toolName } = result(it, field);
      const block: ToolResultBlock = { type: 'tool-result', callId: callId(it, field), content, isError, ...(toolName ? { toolName } : {}) };
      return { type: 'tool/result', content: [block] };
    }
    if (type === 'reasoning') {
      const parts = Array.isArray(it.content) ? (it.content as Rec[]) : [];
      return { type: 'assistant/message', content: [{ type: 'reasoning', text: parts.map((p) => (typeof p.text === 'string' ? p.text : '')).join('\n') }] };
    }
    if (STANDALONE.has(type)) return { type: 'assistant/message', content: [{ type: 'opaque', kind: `openai-agents:${type}`, raw: { type, ...(typeof it.name === 'string' ? { name: it.name } : {}), ...(typeof it.output === 'string' ? { output: it.output } : {}) } }] };
    fail(`${field}.type`, `unknown item type ${JSON.stringify(type)}`);
  },
  checkpoint(text) {
    return { role: 'user', content: text } as AgentInputItem;
  },
  rewrite(original, content) {
    const it = original as unknown as Rec;
    const texts = rewrittenTexts(content);
    const joined = texts.join('\n');
    switch (it.type) {
      case 'function_call_result': {
        const out = it.output;
        if (typeof out === 'string') return { ...it, output: joined } as unknown as AgentInputItem;
        if (Array.isArray(out)) {
          let k = 0;
          return { ...it, output: (out as Rec[]).map((o) => (o.type === 'input_text' ? { ...o, text: texts[k++] ?? '' } : o)) } as unknown as AgentInputItem;
        }
        if (isRec(out) && out.type === 'text') return { ...it, output: { ...out, text: joined } } as unknown as AgentInputItem;
        return { ...it, output: joined } as unknown as AgentInputItem;
      }
      case 'shell_call_output': {
        const first = Array.isArray(it.output) && isRec(it.output[0]) ? (it.output[0] as Rec) : {};
        return { ...it, output: [{ ...first, stdout: joined, stderr: '' }] } as unknown as AgentInputItem;
      }
      case 'apply_patch_call_output':
      case 'program_output':
        return { ...it, output: joined } as unknown as AgentInputItem;
      case undefined:
      case 'message': {
        if (typeof it.content === 'string') return { ...it, content: joined } as unknown as AgentInputItem;
        let k = 0;
        const parts = (it.content as Rec[]).map((p) => (p.type === 'input_text' || p.type === 'output_text' ? { ...p, text: texts[k++] ?? '' } : p));
        return { ...it, content: parts } as unknown as AgentInputItem;
      }
      default:
        // An image result (computer_call_result) or a tool list: nothing textual to replace.
        return original;
    }
  },
};

/** Options of {@link compactionInputFilter}: the engine's config keys plus a report callback. */
export interface InputFilterCompactionOptions extends CompactionConfig {
  /** Called after every turn's check with what it did. */
  onReport?: (report: CompactMessagesReport) => void;
  /** Conversations remembered at once (default 16). */
  maxConversations?: number;
}

interface AgentLike {
  tools?: unknown[];
}

/**
 * Tokens of the instructions and of the agent's function tools as the Responses API carries
 * them (`{type: 'function', name, description, parameters, strict}` as JSON). Hosted tools,
 * MCP server tools and handoffs are not counted: give them in `overheadTokens`.
 */
export function agentOverheadTokens(meter: TokenMeter, instructions: string | undefined, agent: AgentLike | undefined): number {
  let n = instructions ? countTextCached(meter, instructions) + meter.perMessageOverhead : 0;
  const defs = (agent?.tools ?? [])
    .filter((t): t is Rec => isRec(t) && t.type === 'function')
    .map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters, strict: t.strict }));
  if (defs.length) n += countTextCached(meter, JSON.stringify(defs));
  return n;
}

/**
 * A `callModelInputFilter` for `run(agent, input, {callModelInputFilter})` (or `new
 * Runner({callModelInputFilter})`) that returns the turn's input compacted to the budget, so
 * every model call of a run fits. The instructions and the agent's function tools are counted
 * against the budget on each turn (they may change with a handoff). The SDK gives the filter a
 * deep copy of the items every turn, so the cache matches them by content: one
 * `JSON.stringify` per item per turn (see the README's figures).
 *
 * Throws what `MessageCompactor.compact` throws (an {@link AdapterInputError} for an item shape
 * it does not know); the SDK then fails the run with it.
 */
export function compactionInputFilter(options: InputFilterCompactionOptions): CallModelInputFilter {
  const { onReport, maxConversations = DEFAULT_MAX_CONVERSATIONS, ...config } = options;
  const compactor = new MessageCompactor(openAIAgentsCodec, config, maxConversations);
  return async ({ modelData, agent }) => {
    const overheadTokens = agentOverheadTokens(compactor.engine.meter, modelData.instructions, agent as AgentLike);
    const { messages, report } = await compactor.compact(modelData.input, { overheadTokens });
    onReport?.(report);
    return { ...modelData, input: messages };
  };
}

/** {@link compactMessages} for Agents SDK items. */
export function compactAgentInput(items: readonly AgentInputItem[], options: CompactionConfig & { signal?: AbortSignal }): Promise<CompactMessagesResult<AgentInputItem>> {
  return compactMessages(items, { ...options, codec: openAIAgentsCodec });
}
