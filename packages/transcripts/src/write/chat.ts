import { blockText, type ContentBlock, type ImageBlock, type SurfaceNode, type TextBlock } from '@hive-mind/session';

/** A tool call in OpenAI Chat Completions form. */
export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}
/** A content part of an OpenAI user message. */
export type OpenAIContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
/** An OpenAI Chat Completions message (the subset this package writes). */
export type OpenAIChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | OpenAIContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAIToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** An Anthropic Messages content block (loosely typed: blocks restored from opaque input pass through). */
export type AnthropicBlock = { type: string; [k: string]: unknown };
/** An Anthropic Messages message. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

function imageUrl(b: ImageBlock): string {
  if (b.data) return `data:${b.mediaType ?? 'image/png'};base64,${b.data}`;
  return b.url ?? '';
}

function resultText(parts: Array<TextBlock | ImageBlock>): string {
  return parts.map((p) => (p.type === 'text' ? p.text : `[image${p.mediaType ? ` ${p.mediaType}` : ''}]`)).join('\n');
}

function jsonArgs(input: unknown): string {
  if (typeof input === 'string') return input;
  return JSON.stringify(input ?? {});
}

/**
 * Render a surface as OpenAI Chat Completions messages.
 * - system messages -> `system`; checkpoints and other user messages -> `user`
 *   (string content when text only, else text/image_url parts);
 * - tool results -> one `tool` message each (text; images become a `[image]` marker, the
 *   format has no images in tool messages), placed before the rest of their user message;
 * - consecutive assistant messages are merged into one (Claude Code writes one line per
 *   content block), tool calls become `tool_calls` with JSON-string arguments;
 * - reasoning is dropped (Chat Completions takes no reasoning input); opaque blocks become
 *   their text rendering so nothing disappears silently.
 */
export function toOpenAIMessages(surface: readonly SurfaceNode[]): OpenAIChatMessage[] {
  const out: OpenAIChatMessage[] = [];
  for (const node of surface) {
    if (node.type === 'system/message') {
      out.push({ role: 'system', content: node.content.filter((b) => b.type !== 'reasoning').map((b) => blockText(b)).join('\n') });
      continue;
    }
    if (node.type === 'assistant/message') {
      const texts: string[] = [];
      const calls: OpenAIToolCall[] = [];
      for (const b of node.content) {
        if (b.type === 'tool-call') calls.push({ id: b.id, type: 'function', function: { name: b.name, arguments: jsonArgs(b.input) } });
        else if (b.type === 'text') texts.push(b.text);
        else if (b.type !== 'reasoning') texts.push(blockText(b));
      }
      const prev = out[out.length - 1];
      if (prev && prev.role === 'assistant') {
        const joined = [prev.content, ...texts].filter((s): s is string => !!s).join('\n');
        prev.content = joined || null;
        if (calls.length) prev.tool_calls = [...(prev.tool_calls ?? []), ...calls];
      } else if (texts.length || calls.length) {
        const m: OpenAIChatMessage = { role: 'assistant', content: texts.filter(Boolean).join('\n') || null };
        if (calls.length) m.tool_calls = calls;
        out.push(m);
      }
      continue;
    }
    const parts: OpenAIContentPart[] = [];
    for (const b of node.content) {
      if (b.type === 'tool-result') out.push({ role: 'tool', tool_call_id: b.callId, content: resultText(b.content) });
      else if (b.type === 'text') parts.push({ type: 'text', text: b.text });
      else if (b.type === 'image') parts.push({ type: 'image_url', image_url: { url: imageUrl(b) } });
      else if (b.type === 'opaque' && b.kind.startsWith('openai:')) parts.push(b.raw as OpenAIContentPart);
      else if (b.type !== 'reasoning') parts.push({ type: 'text', text: blockText(b) });
    }
    if (!parts.length) continue;
    out.push({ role: 'user', content: parts.every((p) => p.type === 'text') ? parts.map((p) => (p as { text: string }).text).join('\n') : parts });
  }
  return out;
}

const TOOL_ID = /^[a-zA-Z0-9_-]+$/;
/** Anthropic requires tool_use ids matching `^[a-zA-Z0-9_-]+$`; other characters become `_`. */
export function anthropicToolId(id: string): string {
  return TOOL_ID.test(id) ? id : id.replace(/[^a-zA-Z0-9_-]/g, '_') || 'tool';
}

function anthropicImage(b: ImageBlock): AnthropicBlock {
  if (b.data) return { type: 'image', source: { type: 'base64', media_type: b.mediaType ?? 'image/png', data: b.data } };
  return { type: 'image', source: { type: 'url', url: b.url ?? '' } };
}

/** Anthropic blocks for one node's content (no merging); `role` decides what reasoning becomes. */
export function anthropicBlocks(content: readonly ContentBlock[], role: 'user' | 'assistant'): AnthropicBlock[] {
  const out: AnthropicBlock[] = [];
  for (const b of content) {
    switch (b.type) {
      case 'text':
        if (b.text) out.push({ type: 'text', text: b.text });
        break;
      case 'reasoning':
        // Only signed thinking is accepted back by the API; unsigned reasoning is dropped.
        if (role === 'assistant' && b.signature) out.push(b.redacted ? { type: 'redacted_thinking', data: b.signature } : { type: 'thinking', thinking: b.text, signature: b.signature });
        break;
      case 'tool-call':
        out.push({ type: 'tool_use', id: anthropicToolId(b.id), name: b.name, input: typeof b.input === 'object' && b.input !== null && !Array.isArray(b.input) ? b.input : { input: b.input } });
        break;
      case 'tool-result': {
        const parts = b.content.map((p) => (p.type === 'text' ? { type: 'text', text: p.text } : anthropicImage(p))).filter((p) => p.type !== 'text' || (p as { text?: unknown }).text);
        out.push({ type: 'tool_result', tool_use_id: anthropicToolId(b.callId), content: parts, ...(b.isError ? { is_error: true } : {}) });
        break;
      }
      case 'image':
        out.push(anthropicImage(b));
        break;
      case 'opaque':
        if (b.kind.startsWith('anthropic:')) out.push(b.raw as AnthropicBlock);
        else out.push({ type: 'text', text: blockText(b) });
        break;
      default:
        out.push({ type: 'text', text: blockText(b) });
    }
  }
  return out;
}

/**
 * Render a surface as Anthropic Messages input: `{system?, messages}`.
 * - leading system messages become `system` (joined by a blank line); a later system
 *   message becomes user text (the API has no system role in `messages`);
 * - tool results become `tool_result` blocks in user turns, placed first in their turn;
 * - consecutive same-role messages are merged (the API requires alternation);
 * - reasoning is kept only as signed `thinking`/`redacted_thinking` (the API rejects
 *   unsigned thinking), otherwise dropped; empty text blocks and empty messages are dropped;
 * - tool ids are made to match `^[a-zA-Z0-9_-]+$`.
 */
export function toAnthropicMessages(surface: readonly SurfaceNode[]): { system?: string; messages: AnthropicMessage[] } {
  const system: string[] = [];
  const messages: AnthropicMessage[] = [];
  for (const node of surface) {
    if (node.type === 'system/message') {
      const text = node.content.filter((b) => b.type !== 'reasoning').map((b) => blockText(b)).join('\n');
      if (!messages.length) system.push(text);
      else push('user', [{ type: 'text', text: `<system>\n${text}\n</system>` }]);
      continue;
    }
    const role = node.type === 'assistant/message' ? 'assistant' : 'user';
    push(role, anthropicBlocks(node.content, role));
  }
  for (const m of messages) {
    if (m.role === 'user') m.content = [...m.content.filter((b) => b.type === 'tool_result'), ...m.content.filter((b) => b.type !== 'tool_result')];
  }
  return system.length ? { system: system.join('\n\n'), messages } : { messages };

  function push(role: 'user' | 'assistant', blocks: AnthropicBlock[]): void {
    if (!blocks.length) return;
    const prev = messages[messages.length - 1];
    if (prev && prev.role === role) prev.content.push(...blocks);
    else messages.push({ role, content: blocks });
  }
}

/**
 * Render a surface as Markdown for people: one `##` section per node (role, seq, and
 * `checkpoint`/`repair` when synthetic), text as is, tool calls and results in fenced
 * blocks, reasoning in a collapsed `<details>`.
 */
export function toMarkdown(surface: readonly SurfaceNode[]): string {
  const out: string[] = [];
  const fence = (s: string): string => {
    let f = '```';
    while (s.includes(f)) f += '`';
    return `${f}\n${s}\n${f}`;
  };
  for (const node of surface) {
    const role = node.type === 'user/message' ? 'User' : node.type === 'assistant/message' ? 'Assistant' : node.type === 'tool/result' ? 'Tool' : 'System';
    const tag = node.kind === 'checkpoint' ? ' — checkpoint (compaction summary)' : node.kind === 'repair' ? ' — repair (added at import)' : '';
    out.push(`## ${role} (seq ${node.seq})${tag}`, '');
    for (const b of node.content) {
      switch (b.type) {
        case 'text':
          out.push(b.text, '');
          break;
        case 'reasoning':
          out.push('<details><summary>Reasoning</summary>', '', b.redacted && !b.text ? '(redacted)' : b.text, '', '</details>', '');
          break;
        case 'tool-call':
          out.push(`**Tool call** \`${b.name}\` (id \`${b.id}\`)`, '', fence(typeof b.input === 'string' ? b.input : JSON.stringify(b.input, null, 2)), '');
          break;
        case 'tool-result':
          out.push(`**Tool result** for \`${b.callId}\`${b.toolName ? ` (${b.toolName})` : ''}${b.isError ? ' — error' : ''}`, '', fence(resultText(b.content)), '');
          break;
        default:
          out.push(blockText(b), '');
      }
    }
  }
  return out.join('\n');
}
