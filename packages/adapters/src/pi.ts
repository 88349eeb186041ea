/**
 * pi adapter: a pi extension that compacts the messages of every model call (the `context`
 * event, pi's context transform) and writes pi's own compactions (`session_before_compact`)
 * with hive-mind's summarizer.
 *
 * Written against `@earendil-works/pi-coding-agent` 0.74.x (the `ExtensionAPI` of
 * `core/extensions/types`, `AgentMessage` of `@earendil-works/pi-agent-core` with the coding
 * agent's `bashExecution`, `custom`, `branchSummary` and `compactionSummary` messages); only
 * types are imported, so nothing of pi loads at run time.
 */
import type { ContentBlock, ImageBlock, TextBlock } from '@hive-mind/session';
import type { CompactionConfig, TokenMeter } from '@hive-mind/compaction';
import type { AgentMessage } from '@earendil-works/pi-agent-core';
import type { ExtensionAPI, ExtensionFactory } from '@earendil-works/pi-coding-agent';
import type { MessageCodec, ReadMessage } from './codec.js';
import { DEFAULT_MAX_CONVERSATIONS, MessageCompactor, compactMessages, type CompactMessagesReport, type CompactMessagesResult } from './compact-messages.js';
import { countTextCached, failFor, isRec, rewrittenTexts, type Rec } from './shape.js';

const NAME = 'pi';

const fail: (field: string, detail: string) => never = failFor(NAME);

/** pi's framing of its own summaries (`core/messages.ts` of the coding agent 0.74), so they count as sent. */
const COMPACTION_PREFIX = 'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';
const COMPACTION_SUFFIX = '\n</summary>';
const BRANCH_PREFIX = 'The following is a summary of a branch that this conversation came back from:\n\n<summary>\n';
const BRANCH_SUFFIX = '</summary>';

/** The frame around a summary: counted (as an opaque block), but not text a later checkpoint merges. */
function frameBlock(prefix: string, suffix: string): ContentBlock {
  return { type: 'opaque', kind: 'pi:summary-frame', raw: prefix + suffix };
}

/** A `bashExecution` as pi renders it for the model (`bashExecutionToText`). */
function bashText(m: Rec): string {
  let text = `Ran \`${String(m.command)}\`\n`;
  text += typeof m.output === 'string' && m.output ? `\`\`\`\n${m.output}\n\`\`\`` : '(no output)';
  if (m.cancelled === true) text += '\n\n(command cancelled)';
  else if (typeof m.exitCode === 'number' && m.exitCode !== 0) text += `\n\nCommand exited with code ${m.exitCode}`;
  if (m.truncated === true && typeof m.fullOutputPath === 'string') text += `\n\n[Output truncated. Full output: ${m.fullOutputPath}]`;
  return text;
}

/** The output inside a (pruned) `bashText` rendering, or undefined when it has none. */
function bashOutput(text: string): string | undefined {
  const open = text.indexOf('\n```\n');
  const close = text.lastIndexOf('\n```');
  return open >= 0 && close > open ? text.slice(open + 5, close) : undefined;
}

function parts(content: unknown, role: string, field: string): Array<TextBlock | ImageBlock> {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) fail(`${field}.content`, 'is neither a string nor an array of parts');
  return content.map((p, j): TextBlock | ImageBlock => {
    const f = `${field}.content[${j}]`;
    if (!isRec(p)) fail(f, 'is not an object');
    if (p.type === 'text') {
      if (typeof p.text !== 'string') fail(`${f}.text`, 'is not a string');
      return { type: 'text', text: p.text };
    }
    if (p.type === 'image') return { type: 'image', ...(typeof p.data === 'string' ? { data: p.data } : {}), ...(typeof p.mimeType === 'string' ? { mediaType: p.mimeType } : {}) };
    fail(`${f}.type`, `unknown ${role} content part type ${JSON.stringify(p.type)}`);
  });
}

/**
 * Reads and writes pi `AgentMessage`s: `user`, `assistant` (`text`, `thinking`, `toolCall`),
 * `toolResult`, and the coding agent's `bashExecution` (one text block, as pi renders it for
 * the model: prunable command output), `custom`, `branchSummary`, `compactionSummary` (read as
 * a checkpoint, so a later compaction merges it; pi's frame around it is counted, not merged). Another role or part type is an
 * {@link AdapterInputError} naming the field.
 */
export const piCodec: MessageCodec<AgentMessage> = {
  name: NAME,
  read(message, field): ReadMessage {
    if (!isRec(message)) fail(field, 'is not an object');
    const m = message as unknown as Rec;
    switch (m.role) {
      case 'user':
      case 'custom':
        return { type: 'user/message', content: parts(m.content, String(m.role), field) };
      case 'assistant': {
        if (!Array.isArray(m.content)) fail(`${field}.content`, 'is not an array of parts');
        const content = m.content.map((p, j): ContentBlock => {
          const f = `${field}.content[${j}]`;
          if (!isRec(p)) fail(f, 'is not an object');
          switch (p.type) {
            case 'text':
              if (typeof p.text !== 'string') fail(`${f}.text`, 'is not a string');
              return { type: 'text', text: p.text };
            case 'thinking':
              return { type: 'reasoning', text: typeof p.thinking === 'string' ? p.thinking : '', ...(typeof p.thinkingSignature === 'string' ? { signature: p.thinkingSignature } : {}), ...(p.redacted === true ? { redacted: true } : {}) };
            case 'toolCall':
              if (typeof p.id !== 'string' || !p.id) fail(`${f}.id`, 'is missing: a tool call and its result are paired by it');
              return { type: 'tool-call', id: p.id, name: typeof p.name === 'string' ? p.name : '', input: p.arguments ?? {} };
            default:
              fail(`${f}.type`, `unknown assistant content part type ${JSON.stringify(p.type)}`);
          }
        });
        return { type: 'assistant/message', content };
      }
      case 'toolResult':
        if (typeof m.toolCallId !== 'string' || !m.toolCallId) fail(`${field}.toolCallId`, 'is missing: a tool result must name its call');
        return {
          type: 'tool/result',
          content: [{ type: 'tool-result', callId: m.toolCallId, content: parts(m.content, 'toolResult', field), isError: m.isError === true, ...(typeof m.toolName === 'string' ? { toolName: m.toolName } : {}) }],
        };
      case 'bashExecution':
        // One text block, as pi sends it (`bashExecutionToText`), so the engine sees command output it may prune.
        return { type: 'user/message', content: m.excludeFromContext === true ? [] : [{ type: 'text', text: bashText(m) }] };
      case 'branchSummary':
        return { type: 'user/message', content: [frameBlock(BRANCH_PREFIX, BRANCH_SUFFIX), { type: 'text', text: String(m.summary) }] };
      case 'compactionSummary':
        return { type: 'user/message', kind: 'checkpoint', content: [frameBlock(COMPACTION_PREFIX, COMPACTION_SUFFIX), { type: 'text', text: String(m.summary) }] };
      default:
        fail(`${field}.role`, `unknown role ${JSON.stringify(m.role)}`);
    }
  },
  checkpoint(text) {
    return { role: 'user', content: [{ type: 'text', text }], timestamp: Date.now() } as AgentMessage;
  },
  rewrite(original, content) {
    const m = original as unknown as Rec;
    const texts = rewrittenTexts(content);
    if (m.role === 'bashExecution') {
      const output = texts[0] === undefined ? undefined : bashOutput(texts[0]);
      return output === undefined ? original : ({ ...m, output } as unknown as AgentMessage);
    }
    if (m.role !== 'toolResult' && m.role !== 'user' && m.role !== 'custom') return original;
    if (typeof m.content === 'string') return { ...m, content: texts.join('\n') } as unknown as AgentMessage;
    let k = 0;
    return { ...m, content: (m.content as Rec[]).map((p) => (p.type === 'text' ? { ...p, text: texts[k++] ?? '' } : p)) } as unknown as AgentMessage;
  },
};

/** Tokens of pi's system prompt and of its active tools as an OpenAI-style request carries them (`{type: 'function', function: {name, description, parameters}}`, JSON). */
export function piOverheadTokens(meter: TokenMeter, systemPrompt: string, pi: Pick<ExtensionAPI, 'getActiveTools' | 'getAllTools'>): number {
  const active = new Set(pi.getActiveTools());
  const defs = pi
    .getAllTools()
    .filter((t) => active.has(t.name))
    .map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
  return (systemPrompt ? countTextCached(meter, systemPrompt) + meter.perMessageOverhead : 0) + (defs.length ? countTextCached(meter, JSON.stringify(defs)) : 0);
}

/** Options of {@link hiveMindCompaction}: the engine's config keys plus a report callback. */
export interface PiCompactionOptions extends CompactionConfig {
  /** Called after every model call's check. */
  onReport?: (report: CompactMessagesReport) => void;
  /** Write pi's own compactions (`/compact`, its threshold) with the configured summarizer. Default true. */
  replaceSummaries?: boolean;
  /** Conversations remembered at once (default 16). */
  maxConversations?: number;
}

/**
 * A pi extension (give it in `extensionFactories`, or default-export it from an extension file):
 *
 * - `context`: before every model call, the messages pi will send are compacted to the budget
 *   (pi's system prompt and active tools counted against it); pi's session keeps every message.
 * - `session_before_compact`: when pi compacts its session (its threshold, `/compact`), the
 *   summary is the configured summarizer's checkpoint (extractive by default: no model call)
 *   of the messages pi summarizes, its earlier summary merged; pi keeps the entries it chose.
 */
export function hiveMindCompaction(options: PiCompactionOptions): ExtensionFactory {
  const { onReport, replaceSummaries = true, maxConversations = DEFAULT_MAX_CONVERSATIONS, ...config } = options;
  return (pi) => {
    const compactor = new MessageCompactor(piCodec, config, maxConversations);
    pi.on('context', async (event, ctx) => {
      const overheadTokens = piOverheadTokens(compactor.engine.meter, ctx.getSystemPrompt(), pi);
      const { messages, report } = await compactor.compact(event.messages, { overheadTokens, ...(ctx.signal ? { signal: ctx.signal } : {}) });
      onReport?.(report);
      return { messages };
    });
    if (!replaceSummaries) return;
    pi.on('session_before_compact', async (event) => {
      const { preparation, signal } = event;
      const earlier: AgentMessage[] = preparation.previousSummary ? [{ role: 'compactionSummary', summary: preparation.previousSummary, tokensBefore: 0, timestamp: 0 } as AgentMessage] : [];
      const span = [...earlier, ...preparation.messagesToSummarize, ...preparation.turnPrefixMessages];
      if (!span.length) return undefined;
      const { summary, result } = await compactor.summarize(span, { signal });
      return { compaction: { summary, firstKeptEntryId: preparation.firstKeptEntryId, tokensBefore: preparation.tokensBefore, details: { summarizer: `hive-mind:${result.summarizer ?? 'extractive'}` } } };
    });
  };
}

/** {@link compactMessages} for pi messages. */
export function compactPiMessages(messages: readonly AgentMessage[], options: CompactionConfig & { signal?: AbortSignal }): Promise<CompactMessagesResult<AgentMessage>> {
  return compactMessages(messages, { ...options, codec: piCodec });
}
