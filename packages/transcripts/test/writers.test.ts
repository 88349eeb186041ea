import { describe, expect, it } from 'vitest';
import { checkInvariants, type MessageEvent } from '@hive-mind/session';
import { parseTranscript, toAnthropicMessages, toMarkdown, toOpenAIMessages, unansweredText, writeTranscript } from '@hive-mind/transcripts';
import { DATA } from './helpers.js';
import { readFileSync } from 'node:fs';

const jsonl = (...recs: unknown[]) => recs.map((r) => JSON.stringify(r)).join('\n') + '\n';
const piMsg = (message: unknown) => ({ type: 'message', timestamp: '2025-01-01T00:00:00.000Z', message });
const header = { type: 'session', id: 'p1', timestamp: '2025-01-01T00:00:00.000Z', cwd: '/w' };

describe('pairing repair at import', () => {
  it('an unanswered call gets a synthetic result that says so, before the conversation moves on', () => {
    const t = parseTranscript(
      jsonl(
        header,
        piMsg({ role: 'user', content: 'go' }),
        piMsg({ role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'bash', arguments: { cmd: 'ls' } }, { type: 'toolCall', id: 'c2', name: 'read', arguments: {} }] }),
        piMsg({ role: 'toolResult', toolCallId: 'c1', toolName: 'bash', content: [{ type: 'text', text: 'ok' }], isError: false }),
        piMsg({ role: 'user', content: 'stop' }),
      ),
    );
    expect(t.report.repairedCalls).toBe(1);
    const s = t.log.surface();
    const repair = s[3] as MessageEvent;
    expect(repair.kind).toBe('repair');
    expect(repair.type).toBe('tool/result');
    expect(repair.content).toEqual([{ type: 'tool-result', callId: 'c2', toolName: 'read', isError: true, content: [{ type: 'text', text: unansweredText('c2', 'read') }] }]);
    expect((s[4]!.content[0] as { text: string }).text).toBe('stop');
    expect(checkInvariants(t.log.events()).ok).toBe(true);
  });

  it('a call still open at the end is repaired too', () => {
    const t = parseTranscript(jsonl(header, piMsg({ role: 'assistant', content: [{ type: 'toolCall', id: 'c9', name: 'bash', arguments: '{}' }] })));
    expect(t.report.repairedCalls).toBe(1);
    expect(checkInvariants(t.log.events()).unansweredCalls).toEqual([]);
  });

  it('a result with no call becomes a visible note', () => {
    const t = parseTranscript(jsonl(header, piMsg({ role: 'user', content: 'x' }), piMsg({ role: 'toolResult', toolCallId: 'ghost', toolName: 'bash', content: [{ type: 'text', text: 'boo' }], isError: false })));
    expect(t.report.orphanResults).toBe(1);
    const note = t.log.surface()[1]!;
    expect(note.type).toBe('user/message');
    expect(note.kind).toBe('repair');
    expect((note.content[0] as { text: string }).text).toMatch(/^\[hive-mind: tool result for call ghost \(bash\) has no matching tool call; kept as a note\]\nboo$/);
    expect(checkInvariants(t.log.events()).ok).toBe(true);
  });

  it('a repeated call id is renamed deterministically and its result follows it', () => {
    const call = (id: string) => piMsg({ role: 'assistant', content: [{ type: 'toolCall', id, name: 'bash', arguments: {} }] });
    const res = (id: string, text: string) => piMsg({ role: 'toolResult', toolCallId: id, toolName: 'bash', content: [{ type: 'text', text }], isError: false });
    const text = jsonl(header, piMsg({ role: 'user', content: 'a' }), call('call_0'), res('call_0', 'first'), call('call_0'), res('call_0', 'second'), call('call_0'), res('call_0', 'third'));
    const t = parseTranscript(text);
    const ids = t.log.surface().flatMap((n) => n.content).map((b) => (b.type === 'tool-call' ? b.id : b.type === 'tool-result' ? b.callId : null)).filter(Boolean);
    expect(ids).toEqual(['call_0', 'call_0', 'call_0_2', 'call_0_2', 'call_0_3', 'call_0_3']);
    expect(t.report.renamedCallIds).toBe(2);
    expect(checkInvariants(t.log.events()).ok).toBe(true);
    // same input, same ids
    expect(parseTranscript(text).log.surface().map((n) => n.content)).toEqual(t.log.surface().map((n) => n.content));
  });
});

describe('toOpenAIMessages', () => {
  it('merges Claude Code per-block assistant lines, puts tool results in tool messages, drops reasoning', async () => {
    const t = parseTranscript(readFileSync(DATA + 'claude-code/coverage-test-fix.jsonl', 'utf8'));
    const msgs = toOpenAIMessages(t.log.surface());
    // every assistant message with tool_calls is followed by exactly its tool messages
    for (let i = 0; i < msgs.length; i++) {
      const m = msgs[i]!;
      if (m.role === 'assistant') expect(msgs[i + 1]?.role).not.toBe('assistant');
      if (m.role === 'assistant' && m.tool_calls) {
        const ids = m.tool_calls.map((c) => c.id);
        const next = msgs.slice(i + 1, i + 1 + ids.length);
        expect(next.map((n) => (n.role === 'tool' ? n.tool_call_id : null))).toEqual(ids);
        for (const c of m.tool_calls) expect(() => JSON.parse(c.function.arguments)).not.toThrow();
      }
    }
    expect(msgs.filter((m) => m.role === 'tool')).toHaveLength(13);
  });

  it('reasoning is dropped and images become image_url parts', () => {
    const t = parseTranscript(JSON.stringify([{ role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }] }, { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 'sig' }, { type: 'text', text: 'a cat' }] }]));
    expect(toOpenAIMessages(t.log.surface())).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
      { role: 'assistant', content: 'a cat' },
    ]);
  });
});

describe('toAnthropicMessages', () => {
  it('alternates roles, tool results first in their user turn, system lifted out', async () => {
    const t = parseTranscript(
      JSON.stringify([
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call.1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }, { id: 'call.2', type: 'function', function: { name: 'g', arguments: 'not json' } }] },
        { role: 'tool', tool_call_id: 'call.1', content: 'r1' },
        { role: 'tool', tool_call_id: 'call.2', content: 'r2' },
        { role: 'user', content: 'and?' },
        { role: 'assistant', content: 'done' },
      ]),
    );
    const out = toAnthropicMessages(t.log.surface());
    expect(out.system).toBe('sys');
    expect(out.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(out.messages[1]!.content).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'f', input: { a: 1 } },
      { type: 'tool_use', id: 'call_2', name: 'g', input: { input: 'not json' } },
    ]);
    expect(out.messages[2]!.content.map((b) => b.type)).toEqual(['tool_result', 'tool_result', 'text']);
    expect(out.messages[2]!.content[0]).toEqual({ type: 'tool_result', tool_use_id: 'call_1', content: [{ type: 'text', text: 'r1' }] });
  });

  it('keeps signed thinking, drops unsigned reasoning', () => {
    const t = parseTranscript(JSON.stringify([{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a', reasoning_content: 'unsigned' }]));
    expect(toAnthropicMessages(t.log.surface()).messages[1]!.content).toEqual([{ type: 'text', text: 'a' }]);
    const pi = parseTranscript(readFileSync(DATA + 'pi/before-compaction.jsonl', 'utf8'));
    const thinking = toAnthropicMessages(pi.log.surface()).messages.flatMap((m) => m.content).filter((b) => b.type === 'thinking');
    expect(thinking.length).toBeGreaterThan(0);
    for (const b of thinking) expect(typeof b.signature).toBe('string');
  });

  it('every real transcript renders to a valid alternation with paired tool blocks', async () => {
    for (const f of ['pi/before-compaction.jsonl', 'pi/large-session.jsonl', 'claude-code/python-to-rust-port.jsonl', 'codex/hello-0.171.jsonl']) {
      const t = parseTranscript(readFileSync(DATA + f, 'utf8'));
      const { messages } = toAnthropicMessages(t.log.surface());
      for (let i = 1; i < messages.length; i++) expect(messages[i]!.role).not.toBe(messages[i - 1]!.role);
      for (let i = 0; i < messages.length; i++) {
        const uses = messages[i]!.content.filter((b) => b.type === 'tool_use').map((b) => b.id);
        if (!uses.length) continue;
        const results = (messages[i + 1]?.content ?? []).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id);
        expect(results).toEqual(expect.arrayContaining(uses));
      }
      for (const m of messages) expect(m.content.length).toBeGreaterThan(0);
    }
  });
});

describe('toMarkdown and writeTranscript targets', () => {
  it('renders roles, checkpoints, tool calls and results', () => {
    const t = parseTranscript(readFileSync(DATA + 'pi/before-compaction.jsonl', 'utf8'));
    const md = toMarkdown(t.log.surface());
    expect(md.startsWith('## User (seq ')).toBe(true);
    expect(md).toContain('— checkpoint (compaction summary)');
    expect(md).toContain('**Tool call** `');
    expect(md).toContain('**Tool result** for `');
    expect(writeTranscript(t, 'markdown')).toBe(md);
    expect(JSON.parse(writeTranscript(t, 'openai'))).toEqual(toOpenAIMessages(t.log.surface()));
    expect(JSON.parse(writeTranscript(t, 'anthropic'))).toEqual(toAnthropicMessages(t.log.surface()));
  });
});
