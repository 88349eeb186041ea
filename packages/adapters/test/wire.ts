/**
 * Checks on the requests a loopback model server recorded: what the model was actually sent.
 * Pairing is checked on the raw wire body (a transcript reader would repair an orphan), tokens
 * with the engine's own meter over the request read as a transcript, plus the tool definitions.
 */
import { fileURLToPath } from 'node:url';
import { parseTranscript } from '@hive-mind/transcripts';
import { TokenMeter } from '@hive-mind/compaction';
import type { ContentBlock } from '@hive-mind/session';
import { runIn } from '../../../test-support/frameworks.js';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));

export type Wire = 'chat' | 'anthropic' | 'responses';

/** Problems with tool pairing in one request body: orphan results and calls left without a result. */
export function pairingProblems(wire: Wire, body: any): string[] {
  const problems: string[] = [];
  const known = new Set<string>();
  const open = new Set<string>();
  const call = (id: string) => {
    known.add(id);
    open.add(id);
  };
  const result = (id: string, where: string) => {
    if (!known.has(id)) problems.push(`${where}: orphaned tool result for ${id}`);
    open.delete(id);
  };
  const moveOn = (where: string) => {
    for (const id of open) problems.push(`${where}: tool call ${id} has no result before the conversation moves on`);
    open.clear();
  };
  if (wire === 'chat') {
    (body.messages as any[]).forEach((m, i) => {
      const where = `messages[${i}]`;
      if (m.role === 'tool') return result(m.tool_call_id, where);
      moveOn(where);
      for (const tc of m.tool_calls ?? []) call(tc.id);
    });
  } else if (wire === 'anthropic') {
    (body.messages as any[]).forEach((m, i) => {
      const where = `messages[${i}]`;
      const blocks = typeof m.content === 'string' ? [] : (m.content as any[]);
      if (m.role === 'user') {
        for (const b of blocks) if (b.type === 'tool_result') result(b.tool_use_id, where);
        if (blocks.some((b) => b.type !== 'tool_result') || !blocks.length) moveOn(where);
      } else {
        moveOn(where);
        for (const b of blocks) if (b.type === 'tool_use') call(b.id);
      }
    });
  } else {
    const items = typeof body.input === 'string' ? [] : (body.input as any[]);
    items.forEach((it, i) => {
      const where = `input[${i}]`;
      if (it.type === 'function_call') call(it.call_id);
      else if (it.type === 'function_call_output') result(it.call_id, where);
      else moveOn(where);
    });
  }
  moveOn('end of request');
  return problems.filter((p) => !p.startsWith('end of request'));
}

/**
 * Tokens of a Responses API request as the engine counts them: `instructions` as a system
 * message, each input item as a message of its blocks (per-message overhead included).
 */
function responsesTokens(body: any, meter: TokenMeter): number {
  const message = (blocks: ContentBlock[]) => meter.countBlocks(blocks) + meter.perMessageOverhead;
  let n = body.instructions ? message([{ type: 'text', text: body.instructions }]) : 0;
  for (const it of typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input as any[])) {
    if (it.type === 'function_call') n += message([{ type: 'tool-call', id: it.call_id, name: it.name, input: JSON.parse(it.arguments || '{}') }]);
    else if (it.type === 'function_call_output') n += message([{ type: 'tool-result', callId: it.call_id, isError: false, content: [{ type: 'text', text: typeof it.output === 'string' ? it.output : JSON.stringify(it.output) }] }]);
    else if (it.type === 'reasoning') n += message([{ type: 'reasoning', text: (it.summary ?? []).map((s: any) => s.text).join('\n') }]);
    else {
      const parts = typeof it.content === 'string' ? [it.content] : (it.content as any[]).map((p) => p.text ?? p.refusal ?? '');
      n += message(parts.map((text: string) => ({ type: 'text', text })));
    }
  }
  return n;
}

/** Tokens of a request as the engine counts them: its messages read as a transcript, plus its tool definitions as JSON. */
export function requestTokens(wire: Wire, body: any, meter: TokenMeter): number {
  const { tools, ...rest } = body;
  if (wire === 'responses') return responsesTokens(rest, meter) + (tools?.length ? meter.countText(JSON.stringify(tools)) : 0);
  const format = wire === 'chat' ? 'openai' : 'anthropic';
  const t = parseTranscript(JSON.stringify({ messages: rest.messages, ...(rest.system ? { system: rest.system } : {}) }), { format });
  return meter.countEvents(t.log.surface()) + (tools?.length ? meter.countText(JSON.stringify(tools)) : 0);
}

/** Run an example script with node; resolves with its exit code and output. */
export function runExample(file: string, args: string[], timeoutMs = 120_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runIn(REPO, `${REPO}examples/${file}`, args, timeoutMs);
}
