import { describe, expect, it } from 'vitest';
import { checkInvariants, isMessageEvent, type MessageEvent } from '@hive-mind/session';
import { readTranscriptFile, transcriptStats, type Transcript } from '@hive-mind/transcripts';
import { DATA, rawRecords } from './helpers.js';

function counts(t: Transcript) {
  const msgs = t.log.events().filter(isMessageEvent) as MessageEvent[];
  const by = (type: string, kind?: string) => msgs.filter((e) => e.type === type && e.kind === kind).length;
  const blocks = (type: string, synthetic = false) => msgs.filter((e) => synthetic || e.kind !== 'repair').flatMap((e) => e.content).filter((b) => b.type === type).length;
  return { user: by('user/message'), assistant: by('assistant/message'), tool: by('tool/result'), system: by('system/message'), checkpoints: by('user/message', 'checkpoint'), calls: blocks('tool-call'), results: blocks('tool-result') };
}

function expectValid(t: Transcript) {
  const inv = checkInvariants(t.log.events());
  expect(inv.violations).toEqual([]);
  expect(inv.unansweredCalls).toEqual([]);
}

describe('pi sessions (real files)', () => {
  it('before-compaction.jsonl: counts match the data README and an independent count', async () => {
    const t = await readTranscriptFile(DATA + 'pi/before-compaction.jsonl');
    // independent count straight from the JSON lines
    const raw = rawRecords('pi/before-compaction.jsonl');
    const role = (r: string) => raw.filter((x) => x.type === 'message' && x.message.role === r).length;
    const callIds = raw.filter((x) => x.type === 'message' && x.message.role === 'assistant').flatMap((x) => x.message.content).filter((b: any) => b.type === 'toolCall').map((b: any) => b.id);
    const resultIds = new Set(raw.filter((x) => x.type === 'message' && x.message.role === 'toolResult').map((x) => x.message.toolCallId));
    const unanswered = callIds.filter((id: string) => !resultIds.has(id)).length;
    // README: 990 messages (55 user, 484 assistant, 448 toolResult, 3 bashExecution), 454 calls, 6 unanswered, 2 compactions, 5 model changes
    expect([role('user'), role('assistant'), role('toolResult'), role('bashExecution')]).toEqual([55, 484, 448, 3]);
    expect([callIds.length, unanswered]).toEqual([454, 6]);
    const c = counts(t);
    expect(t.format).toBe('pi');
    expect(t.report.lines).toBe(1003);
    expect(c.user).toBe(role('user') + role('bashExecution'));
    expect(c.assistant).toBe(484);
    expect(c.tool).toBe(448);
    expect(c.checkpoints).toBe(2);
    expect(c.calls).toBe(454);
    expect(c.results).toBe(448);
    expect(t.report.repairedCalls).toBe(unanswered);
    expect(t.report.compactions).toBe(2);
    expect(t.report.orphanResults).toBe(0);
    expect(t.log.events().filter((e) => e.type === 'model/change')).toHaveLength(5);
    expect(t.log.events().filter((e) => e.type === 'thinking/change')).toHaveLength(raw.filter((x) => x.type === 'thinking_level_change').length);
    expectValid(t);
    // the surface is pi's own view after its second compaction: its summary, then the entries
    // from firstKeptEntryIndex 551 (line 552) on
    const surface = t.log.surface();
    expect(surface[0]!.kind).toBe('checkpoint');
    expect((surface[0]!.content[0] as { text: string }).text).toBe(raw.filter((x) => x.type === 'compaction')[1]!.summary);
    expect(surface[1]!.meta?.line).toBe(552);
    const summaries = t.log.events().filter((e) => e.type === 'compaction/summary');
    expect(summaries.map((e) => (e as { data: { tokensBefore: number } }).data.tokensBefore)).toEqual([175004, 185014]);
  });

  it('large-session.jsonl: counts match the data README', async () => {
    const t = await readTranscriptFile(DATA + 'pi/large-session.jsonl');
    const c = counts(t);
    // README: 914 messages (88 user, 453 assistant, 373 toolResult), 391 calls of which 18 unanswered, 103 thinking-level changes
    expect([c.user, c.assistant, c.tool, c.calls, c.results]).toEqual([88, 453, 373, 391, 373]);
    expect(t.report.repairedCalls).toBe(18);
    expect(t.report.compactions).toBe(0);
    expect(t.log.events().filter((e) => e.type === 'thinking/change')).toHaveLength(103);
    expectValid(t);
  });
});

describe('Claude Code sessions (real files)', () => {
  it('python-to-rust-port.jsonl: 41 user and 55 assistant lines, 39 tool_use / 39 tool_result', async () => {
    const t = await readTranscriptFile(DATA + 'claude-code/python-to-rust-port.jsonl');
    const raw = rawRecords('claude-code/python-to-rust-port.jsonl');
    expect(raw.filter((r) => r.type === 'user')).toHaveLength(41);
    const c = counts(t);
    expect(t.format).toBe('claude-code');
    // user lines that carry only tool_result blocks are tool/result events
    expect(c.user + c.tool).toBe(41);
    expect(c.tool).toBe(39);
    expect(c.assistant).toBe(55);
    expect([c.calls, c.results]).toEqual([39, 39]);
    expect(t.report.repairedCalls + t.report.orphanResults).toBe(0);
    expectValid(t);
    // parallel calls: both sibling tool_result lines are on the surface, in file order
    const lines = t.log.surface().map((n) => n.meta?.line);
    expect(lines).toContain(68);
    expect(lines).toContain(79);
  });

  it('coverage-test-fix.jsonl: 16 user, 21 assistant lines, 13 tool calls', async () => {
    const t = await readTranscriptFile(DATA + 'claude-code/coverage-test-fix.jsonl');
    const c = counts(t);
    expect([c.user + c.tool, c.assistant, c.calls, c.results]).toEqual([16, 21, 13, 13]);
    expectValid(t);
    // isMeta stop-hook feedback lines are user messages flagged in meta
    expect(t.log.surface().filter((n) => n.meta?.isMeta)).toHaveLength(2);
  });

  it('the working folder every line records is on the first message, and on later ones only where it changes', async () => {
    const t = await readTranscriptFile(DATA + 'claude-code/coverage-test-fix.jsonl');
    const raw = rawRecords('claude-code/coverage-test-fix.jsonl');
    const folders = [...new Set(raw.map((r) => r.cwd).filter(Boolean))];
    const withCwd = t.log.events().filter((e) => isMessageEvent(e) && typeof e.meta?.cwd === 'string');
    expect(withCwd.map((e) => e.meta!.cwd)).toEqual(folders);
    expect(withCwd[0]!.seq).toBe(t.log.events().find((e) => isMessageEvent(e))!.seq);
  });

  it('native-compact-2.1.332.jsonl: the compact_boundary + isCompactSummary pair lands as a replace', async () => {
    const t = await readTranscriptFile(DATA + 'claude-code/native-compact-2.1.332.jsonl');
    const raw = rawRecords('claude-code/native-compact-2.1.332.jsonl');
    expect(t.report.compactions).toBe(1);
    const surface = t.log.surface();
    expect(surface[0]!.kind).toBe('checkpoint');
    const summaryLine = raw.find((r) => r.isCompactSummary)!;
    expect((surface[0]!.content[0] as { text: string }).text).toBe(summaryLine.message.content);
    // the pre-compaction prompt and answer are on the log, shadowed
    const shadowed = t.log.events().filter((e) => isMessageEvent(e) && t.log.surfacePosition(e.seq) === undefined) as MessageEvent[];
    expect(shadowed.map((e) => e.type)).toEqual(['user/message', 'assistant/message']);
    expect(shadowed[1]!.model).toBe('claude-opus-5-5');
    // after the summary: the three user lines Claude Code wrote for the /compact command
    expect(surface.slice(1).map((n) => n.meta?.line)).toEqual([35, 36, 37]);
    // attachments, system lines and uuid-less records are all log-only host records
    const hostRecords = t.log.events().filter((e) => e.type === 'host/record');
    expect(hostRecords).toHaveLength(raw.length - 6);
    expectValid(t);
  });
});

describe('Codex rollout (real file)', () => {
  it('hello-0.171.jsonl: instructions, developer/user/assistant messages, everything else log-only', async () => {
    const t = await readTranscriptFile(DATA + 'codex/hello-0.171.jsonl');
    const raw = rawRecords('codex/hello-0.171.jsonl');
    expect(t.format).toBe('codex');
    const items = raw.filter((r) => r.type === 'response_item' && r.payload.type === 'message');
    const c = counts(t);
    // base_instructions from session_meta + developer messages
    expect(c.system).toBe(1 + items.filter((r) => r.payload.role === 'developer').length);
    expect(c.user).toBe(items.filter((r) => r.payload.role === 'user').length);
    expect(c.assistant).toBe(1);
    const last = t.log.surface().at(-1)!;
    expect(last.content).toEqual([{ type: 'text', text: 'Hello from fake codex model.' }]);
    expect(t.log.events().filter((e) => e.type === 'session/meta')).toHaveLength(1);
    expectValid(t);
  });
});

describe('inspect stats', () => {
  it('pi before-compaction: format pi, 454 tool calls, 6 repaired, 2 compactions', async () => {
    const t = await readTranscriptFile(DATA + 'pi/before-compaction.jsonl');
    const s = transcriptStats(t, (e) => e.content.length);
    expect(s).toMatchObject({ format: 'pi', toolCalls: 454, toolResults: 448, repairedCalls: 6, compactions: 2, messages: { user: 58, assistant: 484, tool: 448, other: 6 } });
    expect(s.events).toBe(t.log.size);
    expect(s.largest).toHaveLength(5);
    expect(s.logTokens).toBeGreaterThan(s.surfaceTokens);
  });
});

describe("the log is named after the host's own session id", () => {
  it.each([
    ['claude-code/coverage-test-fix.jsonl', undefined, 'c64cc478-3430-40fe-8e9c-4ee9986e9754'],
    ['claude-code/coverage-test-fix.jsonl', 'claude-code', 'c64cc478-3430-40fe-8e9c-4ee9986e9754'],
    ['pi/large-session.jsonl', undefined, 'd703a1a9-1b7b-4fb1-b512-c9738b1fe617'],
    ['codex/hello-0.171.jsonl', undefined, undefined],
  ] as const)('%s (format %s)', async (rel, format, id) => {
    const t = await readTranscriptFile(DATA + rel, format ? { format } : {});
    // codex: the session_meta payload id, read independently from the file
    const expected = id ?? (rawRecords(rel).find((r) => r.type === 'session_meta') as { payload: { id: string } }).payload.id;
    expect(t.log.id).toBe(expected);
    expect(t.log.id).not.toBe(rel.replace(/^.*\//, ''));
  });

  it('a Hermes session is named after its session_id; a file that records none keeps its file name', async () => {
    const { parseTranscript } = await import('@hive-mind/transcripts');
    const hermes = parseTranscript(JSON.stringify({ session_id: '20260121_061938_ab12cd', model: 'm', messages: [{ role: 'user', content: 'hi' }] }), { path: '/x/session_1.json' });
    expect(hermes.log.id).toBe('20260121_061938_ab12cd');
    const openai = parseTranscript(JSON.stringify([{ role: 'user', content: 'hi' }]), { path: '/x/chat.json' });
    expect(openai.log.id).toBe('chat.json');
  });
});
