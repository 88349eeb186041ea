import type { ContentBlock } from '@hive-mind/session';
import type { LogBuilder } from '../builder.js';
import { RecordError } from '../errors.js';
import { fromAnthropicContent, fromOpenAIContent, isObj, parseArgs, resultParts, str, type Rec } from './common.js';

/**
 * OpenAI Chat Completions `messages` (bare array or a request body `{model, messages}`),
 * as documented in OpenAI's API reference: roles system/developer, user (string or
 * parts: text, image_url), assistant (`content`, `tool_calls[{id, type: 'function',
 * function: {name, arguments}}]`, legacy `function_call`), tool (`tool_call_id`), and
 * legacy `function`. Hermes sessions use the same message form (see {@link readHermes}).
 */
export function readOpenAIMessages(b: LogBuilder, messages: unknown[], base: string): void {
  let legacy = 0;
  let lastLegacyId: string | undefined;
  messages.forEach((m, i) => {
    const f = `${base}[${i}]`;
    const meta = { index: i };
    if (!isObj(m)) throw new RecordError('message is not an object', f);
    const role = str(m.role);
    switch (role) {
      case 'system':
      case 'developer':
        b.message('system/message', fromOpenAIContent(m.content, `${f}.content`), { meta: { ...meta, role } });
        return;
      case 'user':
        b.message('user/message', fromOpenAIContent(m.content, `${f}.content`), { meta });
        return;
      case 'assistant': {
        const content: ContentBlock[] = [];
        const reasoning = str(m.reasoning_content) ?? str(m.reasoning);
        if (reasoning) content.push({ type: 'reasoning', text: reasoning });
        content.push(...fromOpenAIContent(m.content, `${f}.content`));
        if (m.tool_calls !== undefined && m.tool_calls !== null) {
          if (!Array.isArray(m.tool_calls)) throw new RecordError('tool_calls is not an array', `${f}.tool_calls`);
          m.tool_calls.forEach((tc, j) => {
            const g = `${f}.tool_calls[${j}]`;
            if (!isObj(tc) || typeof tc.id !== 'string') throw new RecordError('tool call without id', `${g}.id`);
            const fn = isObj(tc.function) ? tc.function : {};
            content.push({ type: 'tool-call', id: tc.id, name: str(fn.name) ?? '', input: parseArgs(fn.arguments) });
          });
        }
        if (isObj(m.function_call)) {
          lastLegacyId = `function_call_${++legacy}`;
          content.push({ type: 'tool-call', id: lastLegacyId, name: str(m.function_call.name) ?? '', input: parseArgs(m.function_call.arguments) });
        }
        b.message('assistant/message', content, { meta });
        return;
      }
      case 'tool': {
        const id = str(m.tool_call_id);
        if (!id) throw new RecordError('tool message without tool_call_id', `${f}.tool_call_id`);
        b.message('tool/result', [{ type: 'tool-result', callId: id, isError: false, content: resultParts(m.content, `${f}.content`) }], { meta });
        return;
      }
      case 'function':
        b.message('tool/result', [{ type: 'tool-result', callId: lastLegacyId ?? 'function_call_0', toolName: str(m.name), isError: false, content: resultParts(m.content, `${f}.content`) }], { meta });
        return;
      default:
        throw new RecordError(`message with unknown role ${JSON.stringify(m.role)}`, `${f}.role`);
    }
  });
}

/**
 * Hermes agent session JSON (`~/.hermes/sessions/session_<id>.json`), as hermes-agent's
 * `run_agent.py` writes it: `{session_id, model, base_url, platform, session_start,
 * last_updated, system_prompt, tools, message_count, messages}`, `messages` in OpenAI chat
 * form (`tool_calls`, `role: 'tool'`, assistant `reasoning`). Session fields are kept as
 * `session/meta` and in the envelope for write-back.
 */
export function readHermes(b: LogBuilder, obj: Rec): void {
  const { messages, system_prompt: sp, ...rest } = obj;
  b.logOnly('session/meta', { host: 'hermes', ...rest });
  if (typeof sp === 'string' && sp) b.message('system/message', [{ type: 'text', text: sp }], { meta: { hermesField: 'system_prompt' } });
  readOpenAIMessages(b, messages as unknown[], 'messages');
}

/**
 * Anthropic Messages API `messages` (bare array or a request body `{model, system,
 * messages}`), per Anthropic's API reference: `system` is a string or text blocks; message
 * content is a string or blocks (text, image, tool_use, tool_result, thinking,
 * redacted_thinking; others kept opaque).
 */
export function readAnthropic(b: LogBuilder, value: unknown): void {
  let messages: unknown;
  let base = '';
  if (Array.isArray(value)) messages = value;
  else if (isObj(value)) {
    messages = value.messages;
    base = 'messages';
    const sys = value.system;
    if (typeof sys === 'string' && sys) b.message('system/message', [{ type: 'text', text: sys }], { meta: { anthropicField: 'system' } });
    else if (Array.isArray(sys)) {
      const blocks = fromAnthropicContent(sys, 'system', { signatures: true });
      if (blocks.length) b.message('system/message', blocks, { meta: { anthropicField: 'system' } });
    }
  }
  if (!Array.isArray(messages)) throw new RecordError('no messages array', 'messages');
  messages.forEach((m, i) => {
    const f = `${base}[${i}]`;
    if (!isObj(m)) throw new RecordError('message is not an object', f);
    const content = fromAnthropicContent(m.content, `${f}.content`, { signatures: true });
    if (m.role === 'assistant') b.message('assistant/message', content, { meta: { index: i } });
    else if (m.role === 'user') {
      const onlyResults = content.length > 0 && content.every((c) => c.type === 'tool-result');
      b.message(onlyResults ? 'tool/result' : 'user/message', content, { meta: { index: i } });
    } else throw new RecordError(`message with unknown role ${JSON.stringify(m.role)}`, `${f}.role`);
  });
}
