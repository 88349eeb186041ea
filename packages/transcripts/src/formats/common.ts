import type { ContentBlock, ImageBlock, TextBlock } from '@hive-mind/session';
import { RecordError } from '../errors.js';

export type Rec = Record<string, unknown>;

export function isObj(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Parse tool-call arguments: JSON when they parse, otherwise the raw string. */
export function parseArgs(v: unknown): unknown {
  if (typeof v !== 'string') return v ?? {};
  if (v.trim() === '') return {};
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** Convert Anthropic Messages content (string or blocks) into session blocks. Used by Claude Code and Anthropic arrays. */
export function fromAnthropicContent(content: unknown, field: string, opts: { signatures: boolean }): ContentBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw new RecordError('content is neither a string nor an array of blocks', field);
  const out: ContentBlock[] = [];
  content.forEach((b, i) => {
    const f = `${field}[${i}]`;
    if (!isObj(b) || typeof b.type !== 'string') throw new RecordError('content block without a type', `${f}.type`);
    switch (b.type) {
      case 'text':
        if (typeof b.text !== 'string') throw new RecordError('text block without text', `${f}.text`);
        out.push({ type: 'text', text: b.text });
        break;
      case 'thinking':
        out.push({ type: 'reasoning', text: str(b.thinking) ?? '', ...(opts.signatures && typeof b.signature === 'string' ? { signature: b.signature } : {}) });
        break;
      case 'redacted_thinking':
        out.push({ type: 'reasoning', text: '', redacted: true, ...(opts.signatures && typeof b.data === 'string' ? { signature: b.data } : {}) });
        break;
      case 'tool_use':
        if (typeof b.id !== 'string' || !b.id) throw new RecordError('tool_use block without id', `${f}.id`);
        out.push({ type: 'tool-call', id: b.id, name: str(b.name) ?? '', input: b.input ?? {} });
        break;
      case 'tool_result': {
        if (typeof b.tool_use_id !== 'string' || !b.tool_use_id) throw new RecordError('tool_result block without tool_use_id', `${f}.tool_use_id`);
        out.push({ type: 'tool-result', callId: b.tool_use_id, isError: b.is_error === true, content: resultParts(b.content, `${f}.content`) });
        break;
      }
      case 'image':
        out.push(anthropicImage(b));
        break;
      default:
        out.push({ type: 'opaque', kind: `anthropic:${b.type}`, raw: b });
    }
  });
  return out;
}

function anthropicImage(b: Rec): ImageBlock {
  const src = isObj(b.source) ? b.source : {};
  if (src.type === 'url') return { type: 'image', url: str(src.url) };
  return { type: 'image', mediaType: str(src.media_type), data: str(src.data) };
}

/** Tool result content: a string or text/image blocks (other blocks become their JSON as text). */
export function resultParts(content: unknown, field: string): Array<TextBlock | ImageBlock> {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) {
    if (isObj(content)) return [{ type: 'text', text: JSON.stringify(content) }];
    throw new RecordError('tool result content is neither a string nor a list', field);
  }
  return content.map((c): TextBlock | ImageBlock => {
    if (isObj(c) && c.type === 'text' && typeof c.text === 'string') return { type: 'text', text: c.text };
    if (isObj(c) && c.type === 'image') return anthropicImage(c);
    if (isObj(c) && (c.type === 'image_url' || c.type === 'input_image')) return { type: 'image', url: str(isObj(c.image_url) ? c.image_url.url : c.image_url) };
    return { type: 'text', text: typeof c === 'string' ? c : JSON.stringify(c) };
  });
}

/** Convert OpenAI chat content (string, null or parts) into blocks. */
export function fromOpenAIContent(content: unknown, field: string): ContentBlock[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  if (!Array.isArray(content)) throw new RecordError('content is neither a string, null nor an array of parts', field);
  return content.map((p, i): ContentBlock => {
    if (!isObj(p)) throw new RecordError('content part is not an object', `${field}[${i}]`);
    if ((p.type === 'text' || p.type === 'input_text' || p.type === 'output_text') && typeof p.text === 'string') return { type: 'text', text: p.text };
    if (p.type === 'refusal' && typeof p.refusal === 'string') return { type: 'text', text: p.refusal };
    if (p.type === 'image_url') {
      const url = str(isObj(p.image_url) ? p.image_url.url : p.image_url);
      const m = url?.match(/^data:([^;]+);base64,(.*)$/s);
      return m ? { type: 'image', mediaType: m[1], data: m[2] } : { type: 'image', url };
    }
    return { type: 'opaque', kind: `openai:${String(p.type)}`, raw: p };
  });
}
