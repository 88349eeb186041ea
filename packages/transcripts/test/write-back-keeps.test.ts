import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTree, type Node as JsonNode } from 'jsonc-parser';
import { checkInvariants } from '@hive-mind/session';
import { parseTranscript, writeTranscript, type Transcript } from '@hive-mind/transcripts';
import { DATA, codexContextItem, compactHalf, maskOldResults } from './helpers.js';

// Write-back loses nothing: every message the compaction did not change comes out byte for
// byte (JSONL: the original lines; whole JSON: the original message text), and a changed
// message keeps every field it does not model.

type Rec = Record<string, any>;

// ------------------------------------------------------------------ realistic fixtures

const OUT = (n: number) => Array.from({ length: 40 }, (_, i) => `src/mod_${n}/file_${i}.py  ${i * 37} lines  café ✓`).join('\n');

/** A Hermes session as hermes-agent writes it (json.dump indent=2, ensure_ascii=False), tool calls from the Codex Responses backend. */
function hermesSession(): string {
  const messages: Rec[] = [{ role: 'user', content: 'List the modules and tell me which ones still lack tests.' }];
  for (let n = 1; n <= 6; n++) {
    messages.push({
      role: 'assistant',
      content: '',
      reasoning: `I should list module ${n} before answering.`,
      reasoning_details: [{ type: 'reasoning.summary', summary: `listing module ${n}`, format: 'openai-responses-v1', index: 0 }],
      codex_reasoning_items: [{ type: 'reasoning', id: `rs_0a1b${n}`, summary: [], encrypted_content: `gAAAAABo${'Zx9'.repeat(30)}${n}==` }],
      finish_reason: 'tool_calls',
      tool_calls: [{ id: `call_${n}`, call_id: `call_${n}`, response_item_id: `fc_68ab${n}`, type: 'function', function: { name: 'terminal', arguments: JSON.stringify({ command: `ls -l src/mod_${n}` }) } }],
    });
    messages.push({ role: 'tool', content: OUT(n), tool_call_id: `call_${n}` });
  }
  messages.push({ role: 'assistant', content: 'Modules 2 and 5 have no tests yet.', reasoning: 'Compared the listings.', finish_reason: 'stop' });
  const s = {
    session_id: '20261201_081500_ab12cd',
    model: 'gpt-5.5',
    base_url: 'https://chatgpt.com/backend-api/codex',
    platform: 'cli',
    session_start: '2026-12-01T08:15:00.123456',
    last_updated: '2026-12-01T08:19:42.654321',
    system_prompt: 'You are Hermes, an agent with a terminal.',
    tools: [{ type: 'function', function: { name: 'terminal', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'string' } } } } }],
    message_count: messages.length,
    messages,
  };
  return JSON.stringify(s, null, 2);
}

/** An OpenAI Chat Completions request body with fields this package does not model. */
function openaiBody(): string {
  const messages: Rec[] = [
    { role: 'developer', content: 'You are a coding agent.', name: 'policy' },
    { role: 'user', content: [{ type: 'text', text: 'Find the failing test.' }], name: 'dev_1' },
  ];
  for (let n = 1; n <= 5; n++) {
    messages.push({ role: 'assistant', content: null, refusal: null, annotations: [], tool_calls: [{ id: `call_${n}`, type: 'function', function: { name: 'run', arguments: `{"cmd":"pytest -k t${n}"}` } }] });
    messages.push({ role: 'tool', tool_call_id: `call_${n}`, content: OUT(n) });
  }
  messages.push({ role: 'assistant', content: 'test_parse fails on empty input.', refusal: null, annotations: [{ type: 'url_citation', url_citation: { url: 'https://example.test', title: 'x', start_index: 0, end_index: 4 } }] });
  return JSON.stringify({ model: 'gpt-4.1', temperature: 0.2, parallel_tool_calls: false, messages }, null, 2);
}

/** The same as a bare array on one line (another writer's formatting). */
function openaiCompactArray(): string {
  return JSON.stringify(JSON.parse(openaiBody()).messages.slice(1));
}

/** An Anthropic Messages request body: cache_control, signed thinking, citations, is_error. */
function anthropicBody(): string {
  const messages: Rec[] = [{ role: 'user', content: 'Why does the build fail?' }];
  for (let n = 1; n <= 5; n++) {
    messages.push({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: `Check step ${n}.`, signature: `EqQBCkgIARAB${n}GAIiQ` },
        { type: 'text', text: `Running step ${n}.` },
        { type: 'tool_use', id: `toolu_0${n}`, name: 'bash', input: { command: `make step${n}` } },
      ],
    });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_0${n}`, content: [{ type: 'text', text: OUT(n) }], ...(n === 3 ? { is_error: true } : {}), cache_control: { type: 'ephemeral' } }] });
  }
  messages.push({ role: 'assistant', content: [{ type: 'text', text: 'Step 3 fails: a missing header.', citations: null }] });
  return JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 4096, system: [{ type: 'text', text: 'You are a build doctor.', cache_control: { type: 'ephemeral' } }], metadata: { user_id: 'u1' }, messages }, null, 2);
}

// ------------------------------------------------------------------ comparison helpers

/** Exact text of each element of the messages array (independent of the writer: jsonc-parser offsets). */
function messageTexts(text: string): string[] {
  const root = parseTree(text)!;
  const arr: JsonNode | undefined = root.type === 'array' ? root : root.children?.find((p) => p.children?.[0]?.value === 'messages')?.children?.[1];
  return (arr?.children ?? []).map((n) => text.slice(n.offset, n.offset + n.length));
}

/** Original message indexes still on the surface, untouched / replaced. */
function byState(t: Transcript): { untouched: number[]; replaced: number[] } {
  const untouched: number[] = [];
  const replaced: number[] = [];
  for (const n of t.log.surface()) {
    if (n.kind !== undefined || typeof n.meta?.index !== 'number') continue;
    (n.seq <= t.importedLastSeq ? untouched : replaced).push(n.meta.index as number);
  }
  return { untouched, replaced };
}

function checkWhole(input: string, t: Transcript): string {
  const out = writeTranscript(t, 'same');
  const before = messageTexts(input);
  const after = messageTexts(out);
  const { untouched, replaced } = byState(t);
  expect(untouched.length).toBeGreaterThan(0);
  // untouched messages byte for byte, in order
  let at = 0;
  for (const i of untouched) {
    const k = after.indexOf(before[i]!, at);
    expect(k, `message ${i} byte for byte`).toBeGreaterThanOrEqual(0);
    at = k + 1;
  }
  // replaced messages keep every field but content
  const outMsgs = after.map((m) => JSON.parse(m) as Rec);
  for (const i of replaced) {
    const o = JSON.parse(before[i]!) as Rec;
    const got = outMsgs.find((m) => Object.keys(o).every((key) => key === 'content' || JSON.stringify(m[key]) === JSON.stringify(o[key])) && JSON.stringify(m.content) !== JSON.stringify(o.content));
    expect(got, `replaced message ${i} keeps its fields`).toBeDefined();
  }
  // and the file reads back with the same surface
  const back = parseTranscript(out);
  expect(back.format).toBe(t.format);
  expect(checkInvariants(back.log.events()).violations).toEqual([]);
  expect(back.log.surface().map((n) => n.content)).toEqual(t.log.surface().map((n) => n.content));
  return out;
}

// ------------------------------------------------------------------ tests

describe('whole-JSON write-back keeps every field', () => {
  const cases: Array<[string, () => string]> = [
    ['hermes session', hermesSession],
    ['openai request body', openaiBody],
    ['openai bare array on one line', openaiCompactArray],
    ['anthropic request body', anthropicBody],
  ];
  for (const [name, make] of cases) {
    it(`${name}: nothing changed -> the file comes back byte for byte`, () => {
      const input = make();
      const t = parseTranscript(input);
      expect(writeTranscript(t, 'same')).toBe(input);
    });
    it(`${name}: masked -> untouched messages byte for byte, masked ones keep their other fields`, () => {
      const input = make();
      const t = parseTranscript(input);
      expect(maskOldResults(t)).toBeGreaterThan(1);
      checkWhole(input, t);
    });
    it(`${name}: checkpoint -> the retained messages byte for byte`, () => {
      const input = make();
      const t = parseTranscript(input);
      compactHalf(t);
      checkWhole(input, t);
    });
  }

  it('hermes: reasoning, codex_reasoning_items, finish_reason, call_id/response_item_id and "" content survive a masked compaction', () => {
    const input = hermesSession();
    const t = parseTranscript(input);
    maskOldResults(t);
    compactHalf(t);
    const out = JSON.parse(writeTranscript(t, 'same')) as Rec;
    const orig = JSON.parse(input) as Rec;
    const assistants = out.messages.filter((m: Rec) => m.role === 'assistant' && m.tool_calls);
    expect(assistants.length).toBeGreaterThan(0);
    for (const a of assistants) {
      const o = orig.messages.find((m: Rec) => m.tool_calls?.[0]?.id === a.tool_calls[0].id);
      expect(a).toEqual(o);
      expect(a.content).toBe('');
      expect(a.tool_calls[0].call_id).toBe(a.tool_calls[0].id);
      expect(a.tool_calls[0].response_item_id).toMatch(/^fc_/);
      expect(a.codex_reasoning_items[0].encrypted_content).toMatch(/^gAAAA/);
    }
    expect(out.message_count).toBe(out.messages.length);
    for (const k of ['session_id', 'model', 'base_url', 'platform', 'session_start', 'system_prompt', 'tools']) expect(out[k], k).toEqual(orig[k]);
  });

  it('anthropic: the system blocks (cache_control) and the request fields are kept', () => {
    const t = parseTranscript(anthropicBody());
    compactHalf(t);
    const out = JSON.parse(writeTranscript(t, 'same')) as Rec;
    const orig = JSON.parse(anthropicBody()) as Rec;
    expect(out.system).toEqual(orig.system);
    expect(out.metadata).toEqual(orig.metadata);
    // turns still alternate
    for (let i = 1; i < out.messages.length; i++) expect(out.messages[i].role).not.toBe(out.messages[i - 1].role);
  });
});

// ------------------------------------------------------------------ JSONL hosts

/** Every shared transcript file (Node's recursive readdir). */
function sharedFiles(): string[] {
  return (readdirSync(DATA, { recursive: true }) as string[]).map((f) => join(DATA, f)).filter((p) => statSync(p).isFile()).sort();
}

const ALLOWED_NEW: Record<string, string[]> = {
  // Claude Code re-chains the retained tail: new uuid, parent and timestamp per record
  'claude-code': ['uuid', 'parentUuid', 'timestamp', 'logicalParentUuid', 'sourceToolAssistantUUID'],
};

describe('JSONL write-back on every shared transcript keeps the original lines and every field of re-emitted records', () => {
  for (const file of sharedFiles()) {
    const rel = relative(DATA, file);
    for (const how of ['mask', 'checkpoint'] as const) {
      it(`${rel} (${how})`, () => {
        const input = readFileSync(file, 'utf8');
        const t = parseTranscript(input, { path: rel });
        if (how === 'mask') maskOldResults(t);
        else compactHalf(t);
        let out: string;
        try {
          out = writeTranscript(t, 'same');
        } catch (err) {
          // pi cannot record a checkpoint in the middle of its surface; that refusal is its own test
          expect(t.format).toBe('pi');
          expect((err as Error).message).toMatch(/oldest span/);
          return;
        }
        // every original line, byte for byte
        expect(out.startsWith(input)).toBe(true);
        const added = out.slice(input.length).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Rec);
        const lines = input.split('\n');
        const untouched = t.log.surface().filter((n) => n.kind === undefined && n.seq <= t.importedLastSeq && typeof n.meta?.line === 'number');
        if (t.format === 'claude-code' && added.length) {
          // each re-emitted untouched record equals its original line but for the chain fields
          // and an assistant message's id (renewed, one new id per old one: Claude Code keeps the first line it reads for an id)
          const msg = (m: unknown) => (m && typeof m === 'object' ? JSON.stringify({ ...(m as Rec), id: undefined }) : undefined);
          const strip = (r: Rec) => ({ ...Object.fromEntries(Object.entries(r).filter(([k]) => !ALLOWED_NEW['claude-code']!.includes(k))), message: msg(r.message) });
          const pool = added.map((r) => JSON.stringify(strip(r)));
          for (const n of untouched) {
            const o = JSON.parse(lines[(n.meta!.line as number) - 1]!) as Rec;
            if (o.type !== 'user' && o.type !== 'assistant') continue;
            if (!added.some((r) => r.message && msg(r.message) === msg(o.message))) continue; // before the checkpoint: stays in the old branch
            expect(pool, `line ${n.meta!.line}`).toContain(JSON.stringify(strip(o)));
          }
        }
        if (t.format === 'codex') {
          const compacted = added.find((r) => r.type === 'compacted');
          if (compacted) {
            const history = compacted.payload.replacement_history.map((h: Rec) => JSON.stringify(h));
            for (const n of untouched) {
              const o = JSON.parse(lines[(n.meta!.line as number) - 1]!) as Rec;
              if (o.type === 'response_item' && !codexContextItem(o.payload)) expect(history).toContain(JSON.stringify(o.payload));
            }
          }
        }
        const back = parseTranscript(out);
        expect(checkInvariants(back.log.events()).violations).toEqual([]);
      });
    }
  }
});

describe('JSONL hosts: a masked record keeps every field but its new output', () => {
  it('Claude Code: the tool_result block keeps tool_use_id, is_error and its other fields; the record keeps its own', () => {
    const common = { isSidechain: false, userType: 'external', cwd: '/repo', sessionId: 'sess-1', version: '2.1.332', gitBranch: 'main' };
    const lines: Rec[] = [{ parentUuid: null, type: 'user', message: { role: 'user', content: 'Fix the failing tests.' }, uuid: 'u0', timestamp: '2026-12-01T08:00:00.000Z', ...common }];
    let parent = 'u0';
    for (let n = 1; n <= 5; n++) {
      lines.push({ parentUuid: parent, type: 'assistant', message: { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'claude-opus-4', content: [{ type: 'tool_use', id: `toolu_${n}`, name: 'Bash', input: { command: `pytest -k t${n}` } }], stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } }, requestId: `req_${n}`, uuid: `a${n}`, timestamp: `2026-12-01T08:0${n}:00.000Z`, ...common });
      lines.push({ parentUuid: `a${n}`, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${n}`, content: OUT(n), is_error: false }] }, toolUseResult: { stdout: OUT(n), stderr: '', interrupted: false }, sourceToolAssistantUUID: `a${n}`, promptId: `p${n}`, uuid: `r${n}`, timestamp: `2026-12-01T08:0${n}:01.000Z`, ...common });
      parent = `r${n}`;
    }
    lines.push({ parentUuid: parent, type: 'assistant', message: { id: 'msg_9', type: 'message', role: 'assistant', model: 'claude-opus-4', content: [{ type: 'text', text: 'All fixed.' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } }, uuid: 'a9', timestamp: '2026-12-01T08:09:00.000Z', ...common });
    const input = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
    const t = parseTranscript(input);
    expect(t.format).toBe('claude-code');
    expect(maskOldResults(t)).toBe(3);
    const out = writeTranscript(t, 'same');
    expect(out.startsWith(input)).toBe(true);
    const added = out.slice(input.length).trim().split('\n').map((l) => JSON.parse(l) as Rec);
    const masked = added.filter((r) => JSON.stringify(r.message?.content ?? '').includes('[masked '));
    expect(masked).toHaveLength(3);
    for (const m of masked) {
      const o = lines.find((l) => l.promptId === m.promptId)!;
      const { uuid: _u, parentUuid: _p, timestamp: _t, toolUseResult: _r, sourceToolAssistantUUID: _s, message: om, ...rest } = o;
      for (const [k, v] of Object.entries(rest)) expect(m[k], k).toEqual(v);
      expect(m.message.role).toBe(om.role);
      expect(m.message.content[0]).toEqual({ ...om.content[0], content: [{ type: 'text', text: m.message.content[0].content[0].text }] });
      expect(m.toolUseResult).toBeUndefined();
    }
  });

  it('Codex: a masked function_call_output keeps call_id and the item fields it does not model', () => {
    const rec = (type: string, payload: Rec) => JSON.stringify({ timestamp: '2026-12-01T08:00:00.000Z', type, payload });
    const rows = [
      rec('session_meta', { id: 'sess', cwd: '/repo', originator: 'codex_cli_rs', cli_version: '0.171.0' }),
      rec('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List the services.' }] }),
    ];
    for (let n = 1; n <= 5; n++) {
      rows.push(rec('response_item', { type: 'function_call', id: `fc_${n}`, name: 'shell', arguments: JSON.stringify({ command: ['ls', `svc${n}`] }), call_id: `call_${n}` }));
      rows.push(rec('response_item', { type: 'function_call_output', call_id: `call_${n}`, output: OUT(n), status: 'completed', id: `fco_${n}` }));
    }
    rows.push(rec('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Five services.' }] }));
    const input = rows.join('\n') + '\n';
    const t = parseTranscript(input);
    expect(t.format).toBe('codex');
    expect(maskOldResults(t)).toBe(3);
    const out = writeTranscript(t, 'same');
    expect(out.startsWith(input)).toBe(true);
    const compacted = out.slice(input.length).trim().split('\n').map((l) => JSON.parse(l) as Rec).find((r) => r.type === 'compacted')!;
    const outputs = compacted.payload.replacement_history.filter((h: Rec) => h.type === 'function_call_output');
    expect(outputs.map((h: Rec) => [h.call_id, h.status, h.id])).toEqual([1, 2, 3, 4, 5].map((n) => [`call_${n}`, 'completed', `fco_${n}`]));
    expect(outputs.filter((h: Rec) => String(h.output).includes('[masked '))).toHaveLength(3);
  });
});
