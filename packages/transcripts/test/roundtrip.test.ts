import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkInvariants } from '@hive-mind/session';
import { parseTranscript, readTranscriptFile, writeTranscript } from '@hive-mind/transcripts';
import { DATA, codexContextItem, codexShapeWithoutContext, compactHalf, rawRecords, surfaceShape } from './helpers.js';

const JSONL = ['claude-code/python-to-rust-port.jsonl', 'claude-code/coverage-test-fix.jsonl', 'claude-code/native-compact-2.1.332.jsonl', 'codex/hello-0.171.jsonl', 'pi/before-compaction.jsonl', 'pi/large-session.jsonl'];

describe('write same, read again', () => {
  for (const f of JSONL) {
    it(`${f}: unchanged log writes the original bytes back`, async () => {
      const t = await readTranscriptFile(DATA + f);
      expect(writeTranscript(t, 'same')).toBe(readFileSync(DATA + f, 'utf8'));
    });
    it(`${f}: after a compaction, the written file reads back to the same surface`, async () => {
      const t = await readTranscriptFile(DATA + f);
      compactHalf(t);
      // Codex sends its initial context again after a compaction, so the file leaves it out
      const want = t.format === 'codex' ? codexShapeWithoutContext(t) : surfaceShape(t);
      const out = writeTranscript(t, 'same');
      // the original records come first, untouched
      expect(out.startsWith(readFileSync(DATA + f, 'utf8'))).toBe(true);
      const t2 = parseTranscript(out, { path: f });
      expect(t2.format).toBe(t.format);
      expect(surfaceShape(t2)).toEqual(want);
      expect(t2.report.compactions).toBe(t.report.compactions + 1);
      expect(checkInvariants(t2.log.events()).violations).toEqual([]);
    });
  }
});

describe('Claude Code write-back shape (against the real 2.1.332 /compact lines)', () => {
  it('writes a compact_boundary line and an isCompactSummary line like the real binary, then re-chains the tail', async () => {
    const f = 'claude-code/python-to-rust-port.jsonl';
    const t = await readTranscriptFile(DATA + f);
    const before = t.log.surface().length;
    const cp = compactHalf(t, 'THE SUMMARY');
    const tail = t.log.surface().slice(1);
    const original = readFileSync(DATA + f, 'utf8');
    const added = writeTranscript(t, 'same').slice(original.length).trim().split('\n').map((l) => JSON.parse(l));
    const real = rawRecords('claude-code/native-compact-2.1.332.jsonl');
    const realBoundary = real.find((r) => r.subtype === 'compact_boundary')!;
    const realSummary = real.find((r) => r.isCompactSummary)!;
    const [boundary, summary, ...rest] = added;
    const raw = rawRecords(f);
    const leaf = raw.filter((r) => r.uuid).at(-1)!;
    // every field the real boundary has that is not run-specific telemetry
    for (const k of ['parentUuid', 'logicalParentUuid', 'isSidechain', 'type', 'subtype', 'content', 'isMeta', 'level', 'userType', 'cwd', 'sessionId', 'version', 'gitBranch']) expect(boundary).toHaveProperty(k);
    expect(boundary).toMatchObject({ parentUuid: null, logicalParentUuid: leaf.uuid, isSidechain: false, type: 'system', subtype: 'compact_boundary', content: realBoundary.content, isMeta: false, level: 'info', sessionId: leaf.sessionId });
    expect(boundary.compactMetadata).toMatchObject({ trigger: 'manual', preTokens: 4321 });
    expect(boundary.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(realSummary)).toEqual(expect.arrayContaining(['isVisibleInTranscriptOnly', 'isCompactSummary']));
    expect(summary).toMatchObject({ parentUuid: boundary.uuid, isSidechain: false, type: 'user', isVisibleInTranscriptOnly: true, isCompactSummary: true, message: { role: 'user', content: 'THE SUMMARY' }, sessionId: leaf.sessionId });
    // tail re-emitted: one line per retained node, new uuids, chained
    expect(rest).toHaveLength(tail.length);
    let parent = summary.uuid;
    for (const r of rest) {
      expect(r.parentUuid).toBe(parent);
      expect(raw.some((o) => o.uuid === r.uuid)).toBe(false);
      parent = r.uuid;
    }
    // original content copied (first retained line); an assistant message gets a new id,
    // the same on every line of it (Claude Code keeps the first line of an id it reads)
    const firstOrig = raw.find((o) => o.uuid === tail[0]!.meta!.uuid)!;
    const { id: newId, ...copied } = rest[0].message;
    const { id: oldId, ...orig } = firstOrig.message;
    expect(copied).toEqual(orig);
    if (oldId !== undefined) expect(newId).toMatch(/^msg_hm_/);
    const ids = new Map<string, Set<string>>();
    for (const r of rest) {
      const o = raw.find((x) => x.message?.id && x.message.content && JSON.stringify(x.message.content) === JSON.stringify(r.message?.content));
      if (o && r.message?.id) ids.set(o.message.id, (ids.get(o.message.id) ?? new Set()).add(r.message.id));
      if (r.message?.id) expect(raw.some((x) => x.message?.id === r.message.id)).toBe(false);
    }
    for (const s of ids.values()) expect(s.size).toBe(1);
    expect(cp.seq).toBeGreaterThan(t.importedLastSeq);
    expect(before).toBeGreaterThan(tail.length + 1);
  });

  it('2.1.332 file: new lines are the newest (fresh increasing timestamps) and a last-prompt line points at the new leaf', async () => {
    const f = 'claude-code/native-compact-2.1.332.jsonl';
    const t = await readTranscriptFile(DATA + f);
    compactHalf(t, 'S2');
    const original = readFileSync(DATA + f, 'utf8');
    const added = writeTranscript(t, 'same').slice(original.length).trim().split('\n').map((l) => JSON.parse(l));
    const raw = rawRecords(f);
    const newest = raw.map((r) => r.timestamp).filter(Boolean).sort().at(-1);
    const chain = added.filter((r) => r.uuid);
    for (let i = 1; i < chain.length; i++) expect(chain[i].timestamp > chain[i - 1].timestamp).toBe(true);
    expect(chain[0].timestamp > newest).toBe(true);
    expect(added.at(-1)).toEqual({ type: 'last-prompt', lastPrompt: raw.filter((r) => r.type === 'last-prompt').at(-1)!.lastPrompt, leafUuid: chain.at(-1).uuid, sessionId: raw[0]!.sessionId });
  });

  it('new messages without a compaction are chained after the old leaf', async () => {
    const t = await readTranscriptFile(DATA + 'claude-code/coverage-test-fix.jsonl');
    t.log.append({ type: 'user/message', surfaceOp: 'append', content: [{ type: 'text', text: 'one more thing' }] });
    const original = readFileSync(DATA + 'claude-code/coverage-test-fix.jsonl', 'utf8');
    const added = writeTranscript(t, 'same').slice(original.length).trim().split('\n').map((l) => JSON.parse(l));
    const leaf = rawRecords('claude-code/coverage-test-fix.jsonl').filter((r) => r.uuid).at(-1)!;
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ parentUuid: leaf.uuid, type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'one more thing' }] }, sessionId: leaf.sessionId });
  });
});

describe('pi and Codex write-back shape', () => {
  it('pi: a compaction entry with summary, firstKeptEntryIndex and tokensBefore, like the real ones', async () => {
    const f = 'pi/large-session.jsonl';
    const t = await readTranscriptFile(DATA + f);
    compactHalf(t, 'PI SUMMARY');
    const firstKept = t.log.surface()[1]!;
    const original = readFileSync(DATA + f, 'utf8');
    const added = writeTranscript(t, 'same').slice(original.length).trim().split('\n').map((l) => JSON.parse(l));
    const realKeys = Object.keys(rawRecords('pi/before-compaction.jsonl').find((r) => r.type === 'compaction')!).sort();
    expect(added).toHaveLength(1);
    expect(Object.keys(added[0]).sort()).toEqual(realKeys);
    expect(added[0]).toMatchObject({ type: 'compaction', summary: 'PI SUMMARY', firstKeptEntryIndex: firstKept.meta!.entryIndex, tokensBefore: 4321 });
    expect(firstKept.meta!.line).toBe((firstKept.meta!.entryIndex as number) + 1);
  });

  it('Codex: a compacted item whose replacement_history is the new history', async () => {
    const f = 'codex/hello-0.171.jsonl';
    const t = await readTranscriptFile(DATA + f);
    compactHalf(t, 'CODEX SUMMARY');
    const original = readFileSync(DATA + f, 'utf8');
    const added = writeTranscript(t, 'same').slice(original.length).trim().split('\n').map((l) => JSON.parse(l));
    expect(added).toHaveLength(1);
    const [c] = added;
    expect(c).toMatchObject({ type: 'compacted', payload: { message: 'CODEX SUMMARY' } });
    expect(c.ordinal).toBe(rawRecords(f).at(-1)!.ordinal + 1);
    const hist = c.payload.replacement_history;
    // base instructions are not history, nor is the context Codex sends again; everything else on the surface is, in order
    expect(hist).toHaveLength(codexShapeWithoutContext(t).length - 1);
    expect(hist.some((h: any) => codexContextItem(h))).toBe(false);
    const context = rawRecords(f).filter((r) => r.type === 'response_item' && codexContextItem(r.payload));
    expect(context.length).toBeGreaterThan(0); // the real file has some (skills, environment, permissions)
    expect(hist.some((h: any) => h.type === 'message' && h.role === 'user' && h.content[0].text === 'CODEX SUMMARY')).toBe(true);
    expect(hist.at(-1)).toEqual(rawRecords(f).filter((r) => r.type === 'response_item').at(-1)!.payload);
  });
});

describe('whole-JSON formats round trip', () => {
  const openai = [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'list files' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: 'a.txt\nb.txt' },
    { role: 'assistant', content: 'Two files.' },
  ];
  it('openai array', () => {
    const t = parseTranscript(JSON.stringify(openai));
    expect(t.format).toBe('openai');
    expect(JSON.parse(writeTranscript(t, 'same'))).toEqual(openai);
  });
  it('openai request body keeps its other fields', () => {
    const t = parseTranscript(JSON.stringify({ model: 'gpt-5', temperature: 0, messages: openai }));
    expect(JSON.parse(writeTranscript(t, 'same'))).toEqual({ model: 'gpt-5', temperature: 0, messages: openai });
  });
  it('hermes session', () => {
    const hermes = { session_id: 's1', model: 'm', platform: 'cli', system_prompt: 'You are Hermes.', message_count: 4, messages: openai.slice(1) };
    const t = parseTranscript(JSON.stringify(hermes, null, 2));
    expect(t.format).toBe('hermes');
    expect(t.log.surface()[0]!.type).toBe('system/message');
    expect(JSON.parse(writeTranscript(t, 'same'))).toEqual(hermes);
    compactHalf(t, 'HERMES SUMMARY');
    const out = JSON.parse(writeTranscript(t, 'same'));
    expect(out.system_prompt).toBe('You are Hermes.');
    expect(out.messages[0]).toEqual({ role: 'user', content: 'HERMES SUMMARY' });
    expect(out.message_count).toBe(out.messages.length);
  });
  it('anthropic body and bare array', () => {
    const messages = [
      { role: 'user', content: 'read a.txt' },
      { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.txt' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'hello' }] }] },
      { role: 'assistant', content: [{ type: 'text', text: 'It says hello.' }] },
    ];
    const body = { model: 'claude-x', max_tokens: 100, system: 'be brief', messages };
    const t = parseTranscript(JSON.stringify(body));
    expect(t.format).toBe('anthropic');
    const back = JSON.parse(writeTranscript(t, 'same'));
    expect(back).toEqual(body); // string content stays a string: untouched messages are copied as they were
    const t2 = parseTranscript(JSON.stringify(messages));
    expect(t2.format).toBe('anthropic');
    expect(surfaceShape(parseTranscript(writeTranscript(t2, 'same')))).toEqual(surfaceShape(t2));
  });
});
