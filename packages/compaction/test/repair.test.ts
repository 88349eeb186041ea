/**
 * An LLM checkpoint reply missing some sections is repaired, not thrown away: the missing ones
 * are asked for once in a follow-up request naming them, and what that does not give comes from
 * the extractive checkpoint of the same span. Against a real loopback Chat Completions server,
 * through the engine and through the CLI.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompactionSummaryData, LogEvent } from '@hive-mind/session';
import { BasicCompactionEngine, CHECKPOINT_HEADINGS, OpenAISummarizer, TokenMeter, missingSections, splitReply, type CompactionResult, type LlmSummarizerOptions } from '@hive-mind/compaction';
import { startOpenAIChatServer, type OpenAIChatServer } from '../../../test-support/llm-servers.js';
import { codingSession, runCli } from './helpers.js';

const meter = new TokenMeter();
const fast: LlmSummarizerOptions = { apiKey: 'sk-test', backoffMs: 5, requestTimeoutMs: 5000, deadlineMs: 20000 };

/** A reply with every checkpoint section but `drop`, each holding a line tagged with its heading. */
function replyWithout(...drop: string[]): string {
  return CHECKPOINT_HEADINGS.filter((h) => !drop.includes(h))
    .map((h) => `## ${h}\n- model wrote ${h.toLowerCase()}: port src/lexer.py to Rust, keep \`tokenize_source\``)
    .join('\n\n');
}

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});
async function chat(opts: Parameters<typeof startOpenAIChatServer>[0]): Promise<OpenAIChatServer> {
  const s = await startOpenAIChatServer(opts);
  servers.push(s);
  return s;
}
function engine(url: string) {
  return new BasicCompactionEngine({ budget: 5000, retainTokens: 1200, summaryMaxTokens: 1500, compactionRetries: 0, summarizer: new OpenAISummarizer({ ...fast, baseURL: url }), meter, fallback: false });
}
const text = (r: CompactionResult) => (r.summary[0] as { text: string }).text;

describe('a checkpoint reply missing some sections', () => {
  it('asks once for the missing ones, naming them, and lands them in order', async () => {
    const srv = await chat({
      script: [replyWithout('Findings', 'Files'), '## Findings\n- follow-up found: `src/lexer.py` defines `tokenize_source`\n\n## Files\n- `/repo/rust/src/module_0.rs` (modified)'],
    });
    const b = codingSession(6);
    const r = await engine(srv.v1Url).compactIfNeeded(b.log);
    expect(r.compacted).toBe(true);
    expect(r.summarizer).toBe('openai');
    expect(r.repairedSections).toEqual([
      { section: 'Findings', by: 'follow-up' },
      { section: 'Files', by: 'follow-up' },
    ]);
    expect(srv.completionRequests).toHaveLength(2);
    const [first, second] = srv.completionRequests.map((q) => q.body.messages[1].content as string);
    // the follow-up is the request answered, the draft, and the sections asked for by name
    expect(second!.startsWith(first!)).toBe(true);
    expect(second).toContain('<draft-checkpoint>\n## Goal\n- model wrote goal');
    expect(second).toContain('lacks these sections: "## Findings", "## Files"');
    expect(srv.completionRequests[1]!.body.messages[0].content).toBe(srv.completionRequests[0]!.body.messages[0].content);
    const t = text(r);
    expect(missingSections(t)).toEqual([]);
    expect(t).toContain('- follow-up found: `src/lexer.py` defines `tokenize_source`');
    // every section in its place: Commands, Findings, Files, In progress
    const order = [...t.matchAll(/^## (.+)$/gm)].map((m) => m[1]!).filter((h) => (CHECKPOINT_HEADINGS as readonly string[]).includes(h));
    expect(order).toEqual([...CHECKPOINT_HEADINGS]);
    const sum = b.log.events().find((e) => e.type === 'compaction/summary') as LogEvent;
    expect((sum.data as CompactionSummaryData).repairedSections).toEqual(r.repairedSections);
  });

  it('fills from the extractive checkpoint of the span what the follow-up does not give', async () => {
    // the follow-up answers only Done; Files then comes from the extractive checkpoint
    const srv = await chat({ script: [replyWithout('Done', 'Files'), 'Here you go:\n## Done\n- follow-up: module 0 to 5 ported'] });
    const b = codingSession(6);
    const r = await engine(srv.v1Url).compactIfNeeded(b.log);
    expect(r.compacted).toBe(true);
    expect(r.repairedSections).toEqual([
      { section: 'Done', by: 'follow-up' },
      { section: 'Files', by: 'extractive' },
    ]);
    const files = splitReply(text(r).replace(/^<compacted-summary>[^\n]*\n[^\n]*\n/, '')).sections.get('Files')!;
    // what the session changed, as the extractive checkpoint lists it
    expect(files).toMatch(/module_0\.rs/);
    expect(files).not.toMatch(/model wrote/);
    expect(srv.completionRequests).toHaveLength(2);
  });

  it('a follow-up that fails (HTTP 500, no retry left) still lands a whole checkpoint, its missing sections from the extractive one', async () => {
    const srv = await chat({ script: [replyWithout('Next step'), { fault: { kind: 'status', status: 500, message: 'upstream down' } }] });
    const s = new OpenAISummarizer({ ...fast, baseURL: srv.v1Url, requestRetries: 0 });
    const out = await s.summarize({ span: codingSession(6).log.surface(), tail: [], maxTokens: 1500, meter });
    expect(out.repairedSections).toEqual([{ section: 'Next step', by: 'extractive' }]);
    expect(splitReply(out.text).sections.get('Next step')).toMatch(/\S/);
    expect(missingSections(out.text)).toEqual([]);
    expect(out.requests).toBe(2);
  });

  it('a whole reply is kept as written, with no follow-up', async () => {
    const srv = await chat({ script: [`Here is the checkpoint.\n\n${replyWithout()}`] });
    const out = await new OpenAISummarizer({ ...fast, baseURL: srv.v1Url }).summarize({ span: codingSession(4).log.surface(), tail: [], maxTokens: 1500, meter });
    expect(out.repairedSections).toBeUndefined();
    expect(out.text).toBe(`Here is the checkpoint.\n\n${replyWithout()}`);
    expect(srv.completionRequests).toHaveLength(1);
  });

  it('the CLI says which sections were repaired and how, in its line and in --json', async () => {
    const srv = await chat({ script: [replyWithout('Findings', 'Decisions'), '## Findings\n- follow-up: the lexer has 12 tests'] });
    const dir = mkdtempSync(join(tmpdir(), 'hm-repair-cli-'));
    try {
      const file = join(dir, 's.json');
      const { toOpenAIMessages } = await import('@hive-mind/transcripts');
      writeFileSync(file, JSON.stringify(toOpenAIMessages(codingSession(6).log.surface())));
      const args = ['compact', file, '--budget', '5000', '--summarizer', 'openai', '--base-url', srv.v1Url, '--out', join(dir, 'o.json')];
      const r = await runCli(args, { env: { OPENAI_API_KEY: 'sk-x' } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('  the openai reply lacked 2 checkpoint sections: asked again for Findings; filled Decisions from the extractive checkpoint\n');
      srv.enqueue(replyWithout('Findings', 'Decisions'), '## Findings\n- follow-up: the lexer has 12 tests');
      const j = await runCli([...args, '--json'], { env: { OPENAI_API_KEY: 'sk-x' } });
      expect(JSON.parse(j.stdout).repairedSections).toEqual([
        { section: 'Decisions', by: 'extractive' },
        { section: 'Findings', by: 'follow-up' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
