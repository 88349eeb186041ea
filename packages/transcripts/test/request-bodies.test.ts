import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { balancedCuts, checkInvariants } from '@hive-mind/session';
import { parseTranscript, readTranscriptFile } from '@hive-mind/transcripts';

const dir = mkdtempSync(join(tmpdir(), 'hm-transcripts-bodies-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A realistic file listing of about `chars` characters (what a `cat` of a big source file returns). */
function bigFile(chars: number): string {
  const lines: string[] = [];
  for (let i = 0; lines.join('\n').length < chars; i++) lines.push(`${String(i + 1).padStart(5)}  export function handler${i}(req: Request): Response { return json({ ok: true, id: ${i} }); }`);
  return lines.join('\n');
}
const listing = bigFile(150_000);
const toolSchema = Array.from({ length: 40 }, (_, i) => ({
  type: 'function',
  function: { name: `tool_${i}`, description: `Does step ${i} of the workflow. `.repeat(20), parameters: { type: 'object', properties: { path: { type: 'string', description: 'Absolute path.' } }, required: ['path'] } },
}));

const bodies: Array<{ name: string; body: Record<string, unknown>; format: string; messages: number }> = [
  {
    name: 'anthropic {system, messages}',
    format: 'anthropic',
    messages: 5, // the system prompt + 4
    body: {
      system: 'You are a coding agent.',
      messages: [
        { role: 'user', content: 'read src/app.ts' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'src/app.ts' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: listing }] },
        { role: 'assistant', content: 'It exports 1,500 handlers.' },
      ],
    },
  },
  {
    name: 'openai {model, messages}',
    format: 'openai',
    messages: 4,
    body: {
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'read src/app.ts' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/app.ts"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: listing },
        { role: 'assistant', content: 'It exports 1,500 handlers.' },
      ],
    },
  },
  {
    name: 'openai {tools, messages} with the tools first',
    format: 'openai',
    messages: 2,
    body: { tools: toolSchema, tool_choice: 'auto', messages: [{ role: 'user', content: listing }, { role: 'assistant', content: 'ok' }] },
  },
  {
    name: 'hermes session',
    format: 'hermes',
    messages: 3, // the system prompt + 2
    body: { session_id: '20260101_120000_abcd', model: 'anthropic/claude-sonnet-4', platform: 'cli', system_prompt: 'You are Hermes.', tools: toolSchema, messages: [{ role: 'user', content: listing }, { role: 'assistant', content: 'done' }] },
  },
];

describe('one-line request bodies of any size', () => {
  for (const { name, body, format, messages } of bodies) {
    it(`detects ${name} past the first 64 KiB, from a file and from memory`, async () => {
      const text = JSON.stringify(body);
      expect(text.length).toBeGreaterThan(140_000);
      expect(text).not.toContain('\n');
      const p = join(dir, `${format}-${text.length}.json`);
      writeFileSync(p, text);
      for (const t of [await readTranscriptFile(p), parseTranscript(text)]) {
        expect(t.format).toBe(format);
        expect(t.log.surface()).toHaveLength(messages);
      }
      // the same body with a trailing newline is still one JSON value
      writeFileSync(p, `${text}\n`);
      expect((await readTranscriptFile(p)).format).toBe(format);
    });
  }

  it('still reads a JSONL file whose first line is long as JSONL', async () => {
    const rec = (i: number, extra = '') => JSON.stringify({ type: 'message', id: `e${i}`, parentId: i ? `e${i - 1}` : null, timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: [{ type: 'text', text: `hello ${i}${extra}` }] } });
    const p = join(dir, 'long-first.jsonl');
    writeFileSync(p, [JSON.stringify({ type: 'session', id: 's1', cwd: `/w${'x'.repeat(100_000)}`, timestamp: '2026-01-01T00:00:00Z', version: 3 }), rec(0), rec(1, listing.slice(0, 1000))].join('\n') + '\n');
    const t = await readTranscriptFile(p);
    expect(t.format).toBe('pi');
    expect(t.log.surface()).toHaveLength(2);
  });
});

describe('one model message over several records', () => {
  it('Claude Code lines sharing a message.id become events with that messageId, and no cut falls between them', () => {
    const base = { sessionId: 's1', version: '2.1.14', cwd: '/w', userType: 'external', isSidechain: false };
    let parent: string | null = null;
    let n = 0;
    const line = (type: 'user' | 'assistant', message: Record<string, unknown>) => {
      const uuid = `u${++n}`;
      const rec = { ...base, type, uuid, parentUuid: parent, timestamp: `2026-01-01T00:00:${String(n).padStart(2, '0')}Z`, message };
      parent = uuid;
      return JSON.stringify(rec);
    };
    const lines = [
      line('user', { role: 'user', content: 'what changed in the web search API?' }),
      // one API message, written one block per line
      line('assistant', { id: 'msg_01', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Let me search.' }] }),
      line('assistant', { id: 'msg_01', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'web search api changes' } }] }),
      line('assistant', { id: 'msg_01', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [{ type: 'web_search_result', url: 'https://example.com', title: 'Changes' }] }] }),
      line('assistant', { id: 'msg_01', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'git log -1' } }] }),
      line('user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'commit abc' }] }),
      line('assistant', { id: 'msg_01', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Summary: the API now pages results.' }] }),
      line('user', { role: 'user', content: 'thanks' }),
    ];
    const t = parseTranscript(lines.join('\n') + '\n');
    expect(t.format).toBe('claude-code');
    const s = t.log.surface();
    expect(s.filter((e) => e.messageId === 'msg_01')).toHaveLength(5);
    expect(balancedCuts(s)).toEqual([0, 1, 7, 8]);
    expect(checkInvariants(t.log.events()).ok).toBe(true);
  });

  it('an Anthropic body with a pause_turn continuation keeps server tool blocks and the turn whole', () => {
    const body = {
      model: 'claude-sonnet-4-5',
      system: 'Research assistant.',
      messages: [
        { role: 'user', content: 'Find three recent papers on context compaction.' },
        { role: 'assistant', content: [{ type: 'text', text: 'Searching.' }, { type: 'server_tool_use', id: 'srvtoolu_a', name: 'web_search', input: { query: 'context compaction agents 2025' } }] },
        // the paused turn, sent back as-is; the model continued it in a second assistant message
        { role: 'assistant', content: [{ type: 'web_search_tool_result', tool_use_id: 'srvtoolu_a', content: [] }, { type: 'text', text: 'Found: ...' }] },
        { role: 'user', content: 'and a fourth?' },
      ],
    };
    const t = parseTranscript(JSON.stringify(body));
    const s = t.log.surface();
    expect(s.map((e) => e.type)).toEqual(['system/message', 'user/message', 'assistant/message', 'assistant/message', 'user/message']);
    expect(s[3]!.content[0]).toMatchObject({ type: 'opaque', kind: 'anthropic:web_search_tool_result' });
    expect(balancedCuts(s)).toEqual([0, 1, 2, 4, 5]);
  });
});
