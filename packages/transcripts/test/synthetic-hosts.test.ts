import { describe, expect, it } from 'vitest';
import { checkInvariants } from '@hive-mind/session';
import { detectFormat, parseTranscript, writeTranscript } from '@hive-mind/transcripts';
import { compactHalf, surfaceShape } from './helpers.js';

const jsonl = (...recs: unknown[]) => recs.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('Claude Code branches and sidechains', () => {
  const base = { isSidechain: false, sessionId: 'S', cwd: '/w', version: '2.1.0', userType: 'external' };
  const user = (uuid: string, parentUuid: string | null, content: unknown, extra = {}) => ({ ...base, parentUuid, type: 'user', uuid, timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content }, ...extra });
  const asst = (uuid: string, parentUuid: string, content: unknown, id = `msg_${uuid}`, extra = {}) => ({ ...base, parentUuid, type: 'assistant', uuid, timestamp: '2026-01-01T00:00:01Z', message: { id, role: 'assistant', model: 'claude-x', content }, ...extra });

  it('follows the active branch (a rewound prompt stays log-only) and keeps sidechain lines log-only', () => {
    const t = parseTranscript(
      jsonl(
        user('u1', null, 'first'),
        asst('a1', 'u1', [{ type: 'text', text: 'answer 1' }]),
        user('u2', 'a1', 'abandoned prompt'),
        asst('a2', 'u2', [{ type: 'text', text: 'abandoned answer' }]),
        user('s1', 'a1', 'subagent task', { isSidechain: true }),
        user('u3', 'a1', 'edited prompt'),
        asst('a3', 'u3', [{ type: 'thinking', thinking: 'hmm', signature: 'sig' }, { type: 'text', text: 'answer 3' }]),
      ),
    );
    expect(t.format).toBe('claude-code');
    expect(t.log.surface().map((n) => n.meta?.uuid)).toEqual(['u1', 'a1', 'u3', 'a3']);
    const records = t.log.events().filter((e) => e.type === 'host/record') as Array<{ data: { reason: string; line: number } }>;
    expect(records.map((r) => [r.data.line, r.data.reason])).toEqual([
      [3, 'off-branch'],
      [4, 'off-branch'],
      [5, 'sidechain'],
    ]);
    expect(t.log.surface()[3]!.content[0]).toEqual({ type: 'reasoning', text: 'hmm', signature: 'sig' });
  });

  it('parallel tool calls written as sibling lines are all taken, in file order', () => {
    const t = parseTranscript(
      jsonl(
        user('u1', null, 'go'),
        asst('a1', 'u1', [{ type: 'tool_use', id: 't1', name: 'Read', input: { p: 1 } }], 'msg_A'),
        asst('a2', 'a1', [{ type: 'tool_use', id: 't2', name: 'Read', input: { p: 2 } }], 'msg_A'),
        user('r1', 'a1', [{ type: 'tool_result', tool_use_id: 't1', content: 'one' }]),
        user('r2', 'a2', [{ type: 'tool_result', tool_use_id: 't2', content: 'two' }]),
        asst('a3', 'r2', [{ type: 'text', text: 'done' }]),
      ),
    );
    expect(t.log.surface().map((n) => n.meta?.uuid)).toEqual(['u1', 'a1', 'a2', 'r1', 'r2', 'a3']);
    expect(t.report.repairedCalls + t.report.orphanResults).toBe(0);
    expect(checkInvariants(t.log.events()).ok).toBe(true);
  });
});

describe('Codex rollout items', () => {
  const line = (type: string, payload: unknown, i: number) => ({ timestamp: `2026-01-01T00:00:0${i}Z`, type, payload });
  const meta = line('session_meta', { id: 'sess-1', cwd: '/w', cli_version: '0.171.0', base_instructions: { text: 'You are Codex.' } }, 0);
  const items = [
    line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix it' }] }, 1),
    line('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: 'thinking about it' }], encrypted_content: 'xyz' }, 2),
    line('response_item', { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'call_1' }, 3),
    line('response_item', { type: 'function_call_output', call_id: 'call_1', output: 'a.txt' }, 4),
    line('response_item', { type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch', call_id: 'call_2' }, 5),
    line('response_item', { type: 'custom_tool_call_output', call_id: 'call_2', output: 'Done!' }, 6),
    line('event_msg', { type: 'agent_message', message: 'ok' }, 7),
    line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'fixed' }] }, 8),
  ];

  it('maps messages, reasoning, function and custom tool calls; event_msg is log-only', () => {
    const t = parseTranscript(jsonl(meta, ...items));
    expect(t.format).toBe('codex');
    expect(surfaceShape(t)).toEqual([
      { type: 'system/message', content: [{ type: 'text', text: 'You are Codex.' }] },
      { type: 'user/message', content: [{ type: 'text', text: 'fix it' }] },
      { type: 'assistant/message', content: [{ type: 'reasoning', text: 'thinking about it' }] },
      { type: 'assistant/message', content: [{ type: 'tool-call', id: 'call_1', name: 'shell', input: { command: ['ls'] } }] },
      { type: 'tool/result', content: [{ type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'a.txt' }], isError: false }] },
      { type: 'assistant/message', content: [{ type: 'tool-call', id: 'call_2', name: 'apply_patch', input: '*** Begin Patch' }] },
      { type: 'tool/result', content: [{ type: 'tool-result', callId: 'call_2', content: [{ type: 'text', text: 'Done!' }], isError: false }] },
      { type: 'assistant/message', content: [{ type: 'text', text: 'fixed' }] },
    ]);
    expect(t.log.events().filter((e) => e.type === 'host/record')).toHaveLength(1);
  });

  it('a compacted item with replacement_history makes the surface that history, summary as checkpoint', () => {
    const summary = 'SUMMARY OF WORK';
    const compacted = line(
      'compacted',
      {
        message: summary,
        replacement_history: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix it' }] },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: `Another model produced this summary:\n${summary}` }] },
        ],
      },
      9,
    );
    const after = line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'next' }] }, 9);
    const t = parseTranscript(jsonl(meta, ...items, compacted, after));
    expect(t.report.compactions).toBe(1);
    const s = t.log.surface();
    expect(s.map((n) => [n.type, n.kind ?? null])).toEqual([
      ['system/message', null],
      ['user/message', null],
      ['user/message', 'checkpoint'],
      ['user/message', null],
    ]);
    expect((s[2]!.content[0] as { text: string }).text).toContain(summary);
    expect(checkInvariants(t.log.events()).ok).toBe(true);
    // and it writes back: compacting again yields a readable compacted line
    compactHalf(t, 'SECOND');
    const t2 = parseTranscript(writeTranscript(t, 'same'));
    expect(surfaceShape(t2)).toEqual(surfaceShape(t));
  });
});

describe('detectFormat', () => {
  it('tells the formats apart from content', () => {
    expect(detectFormat([{ type: 'session', id: 'x', timestamp: 't', cwd: '/' }])).toBe('pi');
    expect(detectFormat([{ type: 'queue-operation', operation: 'dequeue', sessionId: 's' }])).toBe('claude-code');
    expect(detectFormat([{ timestamp: 't', type: 'session_meta', payload: { id: 'x' } }])).toBe('codex');
    expect(detectFormat([{ session_id: 's', system_prompt: 'p', messages: [] }])).toBe('hermes');
    expect(detectFormat([[{ role: 'user', content: 'hi' }]])).toBe('openai');
    expect(detectFormat([[{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: 'y' }] }]])).toBe('anthropic');
    expect(detectFormat([{ model: 'm', system: 'be brief', messages: [{ role: 'user', content: 'hi' }] }])).toBe('anthropic');
    expect(detectFormat([{ model: 'm', messages: [{ role: 'system', content: 'hi' }] }])).toBe('openai');
    expect(detectFormat([{ foo: 1 }, 'x', 3])).toBeNull();
  });
});

describe('pi version 2+ trees', () => {
  const e = (id: string, parentId: string | null, message: unknown) => ({ type: 'message', id, parentId, timestamp: '2026-01-01T00:00:00.000Z', message });
  it('follows the active branch from the last entry; abandoned entries are log-only; firstKeptEntryId compaction', () => {
    const text = [
      { type: 'session', version: 3, id: 'sess', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/w' },
      e('a1', null, { role: 'user', content: 'one' }),
      e('a2', 'a1', { role: 'assistant', content: [{ type: 'text', text: 'two' }] }),
      e('b1', 'a2', { role: 'user', content: 'abandoned' }),
      e('b2', 'b1', { role: 'assistant', content: [{ type: 'text', text: 'abandoned answer' }] }),
      e('c1', 'a2', { role: 'user', content: 'three' }),
      e('c2', 'c1', { role: 'assistant', content: [{ type: 'text', text: 'four' }] }),
      { type: 'compaction', id: 'k1', parentId: 'c2', timestamp: '2026-01-01T00:00:01.000Z', summary: 'SUM', firstKeptEntryId: 'c1', tokensBefore: 10 },
      e('c3', 'k1', { role: 'user', content: 'five' }),
    ]
      .map((r) => JSON.stringify(r))
      .join('\n');
    const t = parseTranscript(text);
    expect(t.format).toBe('pi');
    expect(t.log.surface().map((n) => (n.kind === 'checkpoint' ? 'SUM' : n.meta?.id))).toEqual(['SUM', 'c1', 'c2', 'c3']);
    const off = t.log.events().filter((x) => x.type === 'host/record').map((x) => (x as { data: { id: string } }).data.id);
    expect(off).toEqual(['b1', 'b2']);
    // write-back: a compaction entry with id/parentId/firstKeptEntryId
    compactHalf(t, 'NEW');
    const lines = writeTranscript(t, 'same').split('\n').filter(Boolean).slice(text.split('\n').length).map((l) => JSON.parse(l));
    const [added, ...tail] = lines;
    expect(added).toMatchObject({ type: 'compaction', parentId: 'c3', summary: 'NEW', tokensBefore: 4321 });
    expect(added.id).toMatch(/^[0-9a-f]{8}$/);
    expect(typeof added.firstKeptEntryId).toBe('string');
    expect(added).not.toHaveProperty('firstKeptEntryIndex');
    // the kept c2 comes before k1 on the path: current pi would show k1's summary again
    // between c2 and c3, so the kept tail is written again after the new entry, chained
    expect(tail.map((r) => r.message.content)).toEqual([[{ type: 'text', text: 'four' }], 'five']);
    expect(tail[0]).toMatchObject({ id: added.firstKeptEntryId, parentId: added.id });
    expect(tail[1].parentId).toBe(tail[0].id);
    const t2 = parseTranscript(writeTranscript(t, 'same'));
    expect(surfaceShape(t2)).toEqual(surfaceShape(t));
  });

  it('a compaction keeping from before an older compaction entry: the older summary shows in place (current pi)', () => {
    const text = [
      { type: 'session', version: 3, id: 'sess', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/w' },
      e('a1', null, { role: 'user', content: 'one' }),
      e('a2', 'a1', { role: 'assistant', content: [{ type: 'text', text: 'two' }] }),
      e('c1', 'a2', { role: 'user', content: 'three' }),
      e('c2', 'c1', { role: 'assistant', content: [{ type: 'text', text: 'four' }] }),
      { type: 'compaction', id: 'k1', parentId: 'c2', timestamp: '2026-01-01T00:00:01.000Z', summary: 'SUM', firstKeptEntryId: 'c1', tokensBefore: 10 },
      e('c3', 'k1', { role: 'user', content: 'five' }),
      e('c4', 'c3', { role: 'assistant', content: [{ type: 'text', text: 'six' }] }),
      { type: 'compaction', id: 'k2', parentId: 'c4', timestamp: '2026-01-01T00:00:02.000Z', summary: 'SUM2', firstKeptEntryId: 'c2', tokensBefore: 10 },
      e('c5', 'k2', { role: 'user', content: 'seven' }),
    ]
      .map((r) => JSON.stringify(r))
      .join('\n');
    const t = parseTranscript(text);
    expect(t.log.surface().map((n) => (n.kind === 'checkpoint' ? (n.content[0] as { text: string }).text : n.meta?.id))).toEqual(['SUM2', 'c2', 'SUM', 'c3', 'c4', 'c5']);
    expect(t.report.compactions).toBe(2);
    // an id that is not on the path keeps nothing before the entry
    const t2 = parseTranscript(text.replace('"firstKeptEntryId":"c2"', '"firstKeptEntryId":"nope"'));
    expect(t2.log.surface().map((n) => (n.kind === 'checkpoint' ? (n.content[0] as { text: string }).text : n.meta?.id))).toEqual(['SUM2', 'c5']);
  });
});
