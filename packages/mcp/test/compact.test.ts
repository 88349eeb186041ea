import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { callError, callJson, connectStdio, REPO, requireBuilt, tempHome, textOf, type Connected } from './helpers.js';

const PI = join(REPO, '../shared/data/transcripts/pi/before-compaction.jsonl');
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

/** Page through compact_transcript and return the report and the joined text. */
async function compactAll(c: Connected, args: Record<string, unknown>): Promise<{ report: any; text: string; pages: number; output: string }> {
  let offset: number | undefined = 0;
  let text = '';
  let report: any;
  let output = '';
  let pages = 0;
  while (offset !== undefined) {
    const r = await c.client.callTool({ name: 'compact_transcript', arguments: { ...args, offset } });
    if (r.isError) throw new Error(textOf(r));
    expect(textOf(r).length).toBeLessThanOrEqual(16_000);
    const p = JSON.parse(textOf(r));
    report = p.report;
    output = p.output;
    text += p.compacted;
    offset = p.nextOffset;
    pages++;
    expect(pages).toBeLessThan(200);
  }
  return { report, text, pages, output };
}

/** An OpenAI conversation of `turns` turns, each with a tool call whose output is `outputChars` long. */
function openaiConversation(turns: number, outputChars: number): Record<string, unknown>[] {
  const m: Record<string, unknown>[] = [{ role: 'system', content: 'You are a coding agent.' }];
  for (let i = 0; i < turns; i++) {
    m.push({ role: 'user', content: `Step ${i}: please inspect src/module${i}.ts and fix the failing test test_${i}` });
    m.push({ role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: `src/module${i}.ts` }) } }] });
    m.push({ role: 'tool', tool_call_id: `call_${i}`, content: `// module ${i}\n` + `export const value${i} = ${i};\n`.repeat(Math.ceil(outputChars / 28)) });
    m.push({ role: 'assistant', content: `Fixed module ${i}: the export was wrong.` });
  }
  return m;
}

describe('compact_transcript over stdio', () => {
  const t = tempHome();
  let c: Connected;
  beforeAll(async () => {
    requireBuilt();
    c = await connectStdio(t.home);
  });
  afterAll(async () => {
    await c?.close();
    t.cleanup();
  });

  it('compacts a real pi session file to the budget, balanced, paged, without touching the file', async () => {
    const before = sha(PI);
    const { report, text, pages, output } = await compactAll(c, { path: PI, budget: 50_000 });
    expect(sha(PI)).toBe(before);
    expect(report.format).toBe('pi');
    expect(report.compacted).toBe(true);
    expect(report.tokensBefore).toBeGreaterThan(50_000);
    expect(report.tokensAfter).toBeLessThanOrEqual(50_000);
    expect(report.toolPairing).toBe('balanced');
    expect(report.shadowedEvents).toBeGreaterThan(0);
    expect(report.anchors.total).toBeGreaterThan(0);
    expect(output).toBe('openai');
    expect(pages).toBeGreaterThan(1);
    const messages = JSON.parse(text);
    expect(Array.isArray(messages)).toBe(true);
    expect(JSON.stringify(messages)).toContain('compacted-summary');
    // every tool call in the output has its result
    const calls = new Set<string>();
    const results = new Set<string>();
    for (const m of messages) {
      for (const tc of m.tool_calls ?? []) calls.add(tc.id);
      if (m.role === 'tool') results.add(m.tool_call_id);
    }
    for (const id of calls) expect(results.has(id)).toBe(true);
  });

  it('says why a checkpoint landed far under the budget: the verbatim tail retainTokens keeps, in the tool\'s own parameter name', async () => {
    const file = join(REPO, 'examples/sessions/claude-code-python-to-rust-port.jsonl');
    const { report } = await compactAll(c, { path: file, budget: 8000 });
    expect(report.compacted).toBe(true);
    expect(report.tokensAfter).toBeLessThan(0.8 * 8000);
    const tail = Number(/the newest (\d+) tokens/.exec(report.why)?.[1]);
    expect(report.why).toMatch(new RegExp(`^why ${report.tokensAfter} of 8000: the newest \\d+ tokens are kept verbatim \\(the default retainTokens of 2400, min\\(20000, 30% of the budget\\), to the nearest cut that splits no tool call\\) and everything older is in the checkpoint; nothing older is left to compact; a larger retainTokens keeps more of the conversation verbatim$`));
    // the tail named is a real part of what landed, beside the checkpoint
    expect(tail).toBeGreaterThan(0);
    expect(tail + report.summaryTokens).toBeLessThanOrEqual(report.tokensAfter);
    const given = await compactAll(c, { path: file, budget: 8000, retainTokens: 3000 });
    expect(given.report.why).toContain('(retainTokens 3000, to the nearest cut');
    // masking replaces no span with a checkpoint: there is no tail to explain
    const masked = await compactAll(c, { path: file, budget: 12000, strategy: 'mask' });
    expect(masked.report.why).toBeUndefined();
  });

  it('compacts inline OpenAI messages, with masking, and says when nothing needs doing', async () => {
    const messages = openaiConversation(30, 1_500);
    const masked = await compactAll(c, { messages, budget: 8_000, strategy: 'mask' });
    expect(masked.report.tokensAfter).toBeLessThanOrEqual(8_000);
    expect(await callError(c.client, 'compact_transcript', { messages, budget: 4_000, strategy: 'mask' })).toMatch(/strategy auto or summarize/);
    expect(masked.report.format).toBe('openai');
    expect(masked.report.strategy).toBe('mask');
    expect(masked.report.tokensAfter).toBeLessThan(masked.report.tokensBefore);
    const summarized = await compactAll(c, { messages, budget: 4_000, output: 'markdown' });
    expect(summarized.report.tokensAfter).toBeLessThanOrEqual(4_000);
    expect(summarized.output).toBe('markdown');
    expect(summarized.text).toMatch(/Step 29/); // the recent tail is kept verbatim

    const small = await callJson(c.client, 'compact_transcript', { messages: openaiConversation(1, 100), budget: 4_000 });
    expect(small.report.compacted).toBe(false);
    expect(small.report.noopReason).toBe('under-budget');
    expect(small.note).toMatch(/Already within the budget/);
    expect(JSON.parse(small.compacted)).toHaveLength(5);
  });

  it('keeps Anthropic input Anthropic', async () => {
    const messages = [] as Record<string, unknown>[];
    for (let i = 0; i < 20; i++) {
      messages.push({ role: 'user', content: `Question ${i}: ${'context '.repeat(150)}` });
      messages.push({ role: 'assistant', content: [{ type: 'text', text: `Answer ${i}` }, { type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `ls dir${i}` } }] });
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `file${i}.txt\n`.repeat(80) }] });
    }
    messages.push({ role: 'assistant', content: 'All done.' });
    const r = await compactAll(c, { messages, system: 'Be brief.', budget: 3_000 });
    expect(r.report.format).toBe('anthropic');
    expect(r.output).toBe('anthropic');
    expect(r.report.tokensAfter).toBeLessThanOrEqual(3_000);
    const body = JSON.parse(r.text);
    expect(body.system).toContain('Be brief.');
    expect(body.messages.at(-1).content).toEqual(expect.anything());
  });

  it('answers bad input with isError naming the field', async () => {
    expect(await callError(c.client, 'compact_transcript', { budget: 5_000 })).toMatch(/path: give exactly one of path, session or messages/);
    expect(await callError(c.client, 'compact_transcript', { path: PI, messages: [{ role: 'user', content: 'x' }], budget: 5_000 })).toMatch(/messages: give exactly one/);
    expect(await callError(c.client, 'compact_transcript', { path: PI })).toMatch(/budget/);
    expect(await callError(c.client, 'compact_transcript', { path: PI, budget: 10 })).toMatch(/budget/);
    expect(await callError(c.client, 'compact_transcript', { path: PI, budget: 5_000, strategy: 'shrink' })).toMatch(/strategy/);
    expect(await callError(c.client, 'compact_transcript', { path: join(t.home, 'missing.jsonl'), budget: 5_000 })).toMatch(/^compact_transcript: path: cannot read/);
    const bad = join(t.home, 'bad.jsonl');
    writeFileSync(bad, '{"type":"session","id":"s1","version":3}\n{this is not json\n');
    expect(await callError(c.client, 'compact_transcript', { path: bad, budget: 5_000 })).toMatch(/path: .*bad\.jsonl:2/);
    expect(await callError(c.client, 'compact_transcript', { messages: openaiConversation(3, 100), budget: 5_000, retainTokens: 9_000 })).toMatch(/retainTokens/);
    // one huge newest turn cannot fit: the error gives the smallest workable budget
    const huge = [{ role: 'user', content: 'go' }, { role: 'assistant', content: 'word '.repeat(6_000) }];
    expect(await callError(c.client, 'compact_transcript', { messages: huge, budget: 1_000 })).toMatch(/budget: .*smallest budget/);
    expect(await callError(c.client, 'compact_transcript', { messages: [{ role: 'user', content: 'x' }], budget: 5_000, offset: 10_000_000 })).toMatch(/offset/);
  });
});
