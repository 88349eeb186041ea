/**
 * `compact_transcript` with a model summarizer: the host CLIs (`claude -p`, `codex exec`) as real
 * child processes of the real MCP server (small fakes on PATH, test-support/fake-hosts.ts), through
 * the real MCP client. A host that works writes the checkpoint; one that hangs or is missing is
 * bounded by `deadlineSeconds`, the extractive checkpoint lands and the report says why. The real
 * binaries are in packages/cli/test/summarizer-hosts.e2e.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKPOINT_HEADINGS } from '@hive-mind/compaction';
import { alive, makeFakeHosts } from '../../../test-support/fake-hosts.js';
import { callError, callJson, connectStdio, requireBuilt, tempHome, type Connected } from './helpers.js';

const GOOD = CHECKPOINT_HEADINGS.map((h) => `## ${h}\n- ${h === 'Goal' ? 'host model: fix every failing module test' : 'none'}`).join('\n\n');

/** An OpenAI conversation of `turns` turns, each with a tool call and its output. */
function conversation(turns: number): Record<string, unknown>[] {
  const m: Record<string, unknown>[] = [{ role: 'system', content: 'You are a coding agent.' }];
  for (let i = 0; i < turns; i++) {
    m.push({ role: 'user', content: `Step ${i}: please inspect src/module${i}.ts and fix the failing test test_${i}` });
    m.push({ role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: `src/module${i}.ts` }) } }] });
    m.push({ role: 'tool', tool_call_id: `call_${i}`, content: `// module ${i}\n` + `export const value${i} = ${i};\n`.repeat(60) });
    m.push({ role: 'assistant', content: `Fixed module ${i}: the export was wrong.` });
  }
  return m;
}

describe('compact_transcript with summarizer claude-code / codex', () => {
  const t = tempHome();
  const fakes = makeFakeHosts();
  let c: Connected;
  beforeAll(async () => {
    requireBuilt();
    c = await connectStdio(t.home, [], 'hm-test', { PATH: fakes.path(), CODEX_HOME: `${t.home}/codex` });
  });
  afterAll(async () => {
    await c?.close();
    fakes.cleanup();
    t.cleanup();
  });

  it("the host's checkpoint lands; the span went on its stdin", async () => {
    for (const host of ['claude-code', 'codex']) {
      fakes.script([{ reply: GOOD }]);
      const r = await callJson(c.client, 'compact_transcript', { messages: conversation(12), budget: 3000, summarizer: host, model: 'small', output: 'markdown' });
      expect(r.report.summarizer).toBe(host);
      expect(r.report.fallback).toBeUndefined();
      expect(r.compacted).toContain('host model: fix every failing module test');
      const [run] = fakes.runs();
      expect(run!.host).toBe(host === 'claude-code' ? 'claude' : 'codex');
      expect(run!.stdin).toContain('Step 0: please inspect src/module0.ts');
      expect(run!.argv).toContain('small');
    }
  });

  it('a hanging host is bounded by deadlineSeconds: the extractive checkpoint lands, the report says why, the process is gone', async () => {
    fakes.script([{ hang: true }]);
    const r = await callJson(c.client, 'compact_transcript', { messages: conversation(12), budget: 3000, summarizer: 'claude-code', deadlineSeconds: 5 });
    expect(r.report.summarizer).toBe('extractive');
    expect(r.report.fallback.from).toBe('claude-code');
    // the run had what was left of the 5 s deadline
    expect(r.report.fallback.reason).toMatch(/^claude-code failed after 1 attempt\(s\): attempt 1: claude-code: `claude -p` did not answer within \d+ ms; its process group was killed$/);
    const [run] = fakes.runs();
    for (let i = 0; i < 400 && (alive(run!.pid) || alive(run!.grandchild!)); i++) await new Promise((res) => setTimeout(res, 50));
    expect([alive(run!.pid), alive(run!.grandchild!)]).toEqual([false, false]);
  });

  it('`model` without a model summarizer is an error on `model`', async () => {
    const e = await callError(c.client, 'compact_transcript', { messages: conversation(12), budget: 3000, model: 'haiku' });
    expect(e).toMatch(/model: applies only with a model summarizer/);
  });
});

describe('compact_transcript with a host CLI that is not installed', () => {
  const t = tempHome();
  let c: Connected;
  beforeAll(async () => {
    requireBuilt();
    c = await connectStdio(t.home, [], 'hm-test', { PATH: '/nonexistent-hm-bin', CODEX_HOME: `${t.home}/codex` });
  });
  afterAll(async () => {
    await c?.close();
    t.cleanup();
  });

  it('the extractive checkpoint lands and the report names the missing command', async () => {
    const r = await callJson(c.client, 'compact_transcript', { messages: conversation(12), budget: 3000, summarizer: 'codex' });
    expect(r.report.summarizer).toBe('extractive');
    expect(r.report.fallback.reason).toBe('codex failed after 1 attempt(s): attempt 1: codex: `codex` is not installed (not found on PATH); install it and log in, or use another summarizer');
    expect(r.compacted).toContain('<compacted-summary>');
  });
});
