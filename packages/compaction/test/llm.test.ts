import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkInvariants, type LogEvent } from '@hive-mind/session';
import {
  AnthropicSummarizer,
  BasicCompactionEngine,
  CompactionFailedError,
  OpenAISummarizer,
  SummarizerError,
  TokenMeter,
  type LlmSummarizerOptions,
} from '@hive-mind/compaction';
import { startAnthropicServer, startOpenAIChatServer, type AnthropicServer, type OpenAIChatServer } from '../../../test-support/llm-servers.js';
import { codingSession, runCli } from './helpers.js';

const meter = new TokenMeter();
/** A reply as a model following the prompt writes it: every checkpoint heading, in order. */
const GOOD = [
  '## Goal',
  '- Port the tokenizer in src/lexer.py to Rust; keep `tokenize_source`.',
  '## Constraints and preferences',
  "- No unwrap() in library code.",
  '## Done',
  '- none',
  '## Decisions',
  '- none',
  '## Rejected or reverted',
  '- none',
  '## Errors and fixes',
  '- none',
  '## Commands',
  '- none',
  '## Findings',
  '- none',
  '## Files',
  '- `/repo/rust/src/lexer_1.rs`',
  '## In progress',
  '- Porting lexer_1.rs.',
  '## Next step',
  '- Wire tokenize_source into main.rs.',
].join('\n');

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

async function chat(script: Parameters<typeof startOpenAIChatServer>[0]): Promise<OpenAIChatServer> {
  const s = await startOpenAIChatServer(script);
  servers.push(s);
  return s;
}
async function anth(script: Parameters<typeof startAnthropicServer>[0]): Promise<AnthropicServer> {
  const s = await startAnthropicServer(script);
  servers.push(s);
  return s;
}

const fast: LlmSummarizerOptions = { apiKey: 'sk-test', backoffMs: 5, requestTimeoutMs: 5000, deadlineMs: 20000 };

/** An engine over `summarizer` that fails closed (no extractive fallback), so a test sees the summarizer's own failure. */
function engineWith(summarizer: OpenAISummarizer | AnthropicSummarizer, retries = 0) {
  return new BasicCompactionEngine({ budget: 5000, retainTokens: 1200, summaryMaxTokens: 1500, compactionRetries: retries, summarizer, meter, fallback: false });
}

describe('openai summarizer against a loopback Chat Completions server', () => {
  for (const stream of [false, true]) {
    it(`summarizes (${stream ? 'streaming' : 'not streaming'}), strips reasoning, sends the span and the key from the named env var`, async () => {
      const srv = await chat({ script: [{ content: `<think>secret chain of thought</think>${GOOD}`, reasoning: 'hidden reasoning tokens' }] });
      process.env.HM_TEST_OPENAI_KEY = 'sk-from-env';
      try {
        const s = new OpenAISummarizer({ ...fast, apiKey: undefined, apiKeyEnv: 'HM_TEST_OPENAI_KEY', baseURL: srv.v1Url, model: 'gpt-test', stream });
        const b = codingSession(6);
        const r = await engineWith(s).compactIfNeeded(b.log);
        expect(r.compacted).toBe(true);
        expect(r.summarizer).toBe('openai');
        expect(r.model).toBe('gpt-test');
        const text = (r.summary[0] as { text: string }).text;
        expect(text).toContain('Port the tokenizer in src/lexer.py to Rust');
        expect(text).not.toMatch(/secret chain of thought|hidden reasoning/);
        // anchors the LLM lost are re-inserted
        expect(text).toContain('## Preserved details');
        expect(r.anchors.reinserted).toBeGreaterThan(0);
        const [req] = srv.completionRequests;
        expect(req!.headers.authorization).toBe('Bearer sk-from-env');
        expect(req!.body.model).toBe('gpt-test');
        expect(req!.body.stream ?? false).toBe(stream);
        expect(req!.body.max_tokens).toBeGreaterThan(100);
        expect(req!.body.messages[0].role).toBe('system');
        expect(req!.body.messages[0].content).toContain('## ');
        expect(req!.body.messages[0].content).toContain('## Constraints and preferences');
        expect(req!.body.messages[1].content).toContain("No, don't use unwrap() in library code");
        const sum = b.log.events().find((e) => e.type === 'compaction/summary') as LogEvent;
        expect(sum.data).toMatchObject({ summarizer: 'openai', model: 'gpt-test' });
      } finally {
        delete process.env.HM_TEST_OPENAI_KEY;
      }
    });
  }

  it('merges a prior checkpoint: the model gets it as <previous-summary>, not nested', async () => {
    const srv = await chat({ script: [GOOD, GOOD] });
    const s = new OpenAISummarizer({ ...fast, baseURL: srv.v1Url });
    const b = codingSession(6);
    const e = engineWith(s);
    await e.compactIfNeeded(b.log);
    for (let i = 0; i < 8; i++) b.tool('Read', { file_path: `/repo/more_${i}.rs` }, 'x\n'.repeat(300));
    const r2 = await e.compactIfNeeded(b.log);
    expect(r2.compacted).toBe(true);
    const prompt = srv.completionRequests[1]!.body.messages[1].content as string;
    expect(prompt).toMatch(/^<previous-summary>\n## Goal/);
    expect(prompt).not.toContain('<compacted-summary>');
  });

  it('retries 429 and 5xx with backoff, then succeeds', async () => {
    const srv = await chat({
      script: [{ fault: { kind: 'status', status: 429, retryAfter: 0 } }, { fault: { kind: 'status', status: 503 } }, { fault: { kind: 'reset' } }, GOOD],
    });
    const s = new OpenAISummarizer({ ...fast, baseURL: srv.v1Url, requestRetries: 3 });
    const r = await engineWith(s).compactIfNeeded(codingSession(6).log);
    expect(r.compacted).toBe(true);
    expect(srv.completionRequests.length).toBe(4);
  });

  it('a finish_reason length summary is a failure; the surface stays untouched', async () => {
    const srv = await chat({ script: [{ content: GOOD, finish_reason: 'length' }] });
    const b = codingSession(6);
    const surface = b.log.surface();
    const err = await engineWith(new OpenAISummarizer({ ...fast, baseURL: srv.v1Url })).compactIfNeeded(b.log).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(CompactionFailedError);
    expect((err as Error).message).toMatch(/finish_reason length/);
    expect(b.log.surface()).toEqual(surface);
  });

  it('a hanging endpoint times out within the deadline and fails closed', async () => {
    const srv = await chat({ fallback: { fault: { kind: 'hang' } } });
    const b = codingSession(6);
    const surface = b.log.surface();
    const s = new OpenAISummarizer({ ...fast, baseURL: srv.v1Url, requestTimeoutMs: 300, deadlineMs: 1000 });
    const err = await engineWith(s, 2).compactIfNeeded(b.log).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(CompactionFailedError);
    expect((err as Error).message).toMatch(/gave up after (\d+ request\(s\) within its 1000 ms deadline|3 tries of one request \(requestRetries 2\)): openai endpoint did not answer within \d+ ms \(timed out\)/);
    // the summarizer's deadline is final: the engine does not start it again
    expect((err as CompactionFailedError).attempts).toBe(1);
    expect(b.log.surface()).toEqual(surface);
    const end = b.log.events().filter((x) => x.type === 'compaction/end').pop() as LogEvent;
    expect((end.data as { error: string }).error).toMatch(/timed out/);
    expect(checkInvariants(b.log.events()).orphanedCompactionStarts).toEqual([]);
  });

  it('garbage and 401 are not retried', async () => {
    const g = await chat({ script: [{ fault: { kind: 'garbage', body: '<html>proxy error</html>', status: 200, contentType: 'application/json' } }, GOOD] });
    const e1 = await new OpenAISummarizer({ ...fast, baseURL: g.v1Url }).summarize({ span: codingSession(2).log.surface(), tail: [], maxTokens: 500, meter }).catch((x: unknown) => x);
    expect(e1).toBeInstanceOf(SummarizerError);
    expect((e1 as SummarizerError).retryable).toBe(false);
    expect(g.completionRequests.length).toBe(1);
    const a = await chat({ script: [{ fault: { kind: 'status', status: 401, message: 'bad key' } }, GOOD] });
    const e2 = await new OpenAISummarizer({ ...fast, baseURL: a.v1Url }).summarize({ span: codingSession(2).log.surface(), tail: [], maxTokens: 500, meter }).catch((x: unknown) => x);
    expect((e2 as Error).message).toMatch(/openai endpoint answered HTTP 401: .*bad key/);
    expect(a.completionRequests.length).toBe(1);
  });

  it('a broken stream (mid-stream error, truncation) is retried', async () => {
    const srv = await chat({ script: [{ content: GOOD, fault: { kind: 'stream-error', afterEvents: 2 } }, { content: GOOD, fault: { kind: 'truncate', afterEvents: 3 } }, GOOD] });
    const out = await new OpenAISummarizer({ ...fast, baseURL: srv.v1Url, stream: true }).summarize({ span: codingSession(2).log.surface(), tail: [], maxTokens: 800, meter });
    expect(out.text).toBe(GOOD);
    expect(srv.completionRequests.length).toBe(3);
  });

  it('a summary that does not shrink its source is rejected', async () => {
    const srv = await chat({ fallback: `${GOOD}\n${'word '.repeat(3500)}` });
    const b = codingSession(2);
    const surf = b.log.surface();
    const e = new BasicCompactionEngine({ budget: 50_000, summaryMaxTokens: 4000, compactionRetries: 1, anchors: false, summarizer: new OpenAISummarizer({ ...fast, baseURL: srv.v1Url }), meter, fallback: false });
    const err = await e.compactRegion(b.log, surf[1]!.seq, surf[2]!.seq + 1).catch((x: unknown) => x);
    expect((err as Error).message).toMatch(/does not shrink its source/);
    expect(b.log.surface()).toEqual(surf);
  });
});

describe('anthropic summarizer against a loopback Messages server', () => {
  for (const stream of [false, true]) {
    it(`summarizes (${stream ? 'streaming' : 'not streaming'}) and keeps only text blocks`, async () => {
      const srv = await anth({ script: [{ content: [{ type: 'thinking', thinking: 'private thoughts', signature: 'sig' }, { type: 'text', text: GOOD }] }] });
      process.env.ANTHROPIC_API_KEY_HM_TEST = 'ak-test';
      const s = new AnthropicSummarizer({ ...fast, apiKey: undefined, apiKeyEnv: 'ANTHROPIC_API_KEY_HM_TEST', baseURL: srv.url, model: 'claude-haiku-4-5', stream });
      const r = await engineWith(s).compactIfNeeded(codingSession(6).log);
      delete process.env.ANTHROPIC_API_KEY_HM_TEST;
      expect(r.compacted).toBe(true);
      const text = (r.summary[0] as { text: string }).text;
      expect(text).toContain('Wire tokenize_source into main.rs.');
      expect(text).not.toContain('private thoughts');
      const [req] = srv.messageRequests;
      expect(req!.headers['x-api-key']).toBe('ak-test');
      expect(req!.body.system).toContain('## Goal');
      expect(req!.body.max_tokens).toBeGreaterThan(100);
      expect(req!.body.stream ?? false).toBe(stream);
    });
  }

  it('stop_reason max_tokens fails; 529 is retried; a hang times out', async () => {
    const mx = await anth({ script: [{ content: GOOD, stop_reason: 'max_tokens' }] });
    const e1 = await new AnthropicSummarizer({ ...fast, baseURL: mx.url }).summarize({ span: codingSession(2).log.surface(), tail: [], maxTokens: 500, meter }).catch((x: unknown) => x);
    expect((e1 as Error).message).toMatch(/stop_reason max_tokens/);
    const ov = await anth({ script: [{ fault: { kind: 'status', status: 529 } }, { fault: { kind: 'status', status: 500 } }, GOOD] });
    const ok = await new AnthropicSummarizer({ ...fast, baseURL: ov.url, stream: true }).summarize({ span: codingSession(2).log.surface(), tail: [], maxTokens: 500, meter });
    expect(ok.text).toBe(GOOD);
    expect(ov.messageRequests.length).toBe(3);
    const hang = await anth({ fallback: { fault: { kind: 'hang' } } });
    const e3 = await new AnthropicSummarizer({ ...fast, baseURL: hang.url, requestTimeoutMs: 200, deadlineMs: 700 }).summarize({ span: codingSession(2).log.surface(), tail: [], maxTokens: 500, meter }).catch((x: unknown) => x);
    expect((e3 as Error).message).toMatch(/anthropic summarizer gave up .* did not answer within \d+ ms \(timed out\)/);
    const garbage = await anth({ script: [{ fault: { kind: 'garbage', body: 'not json at all', status: 200, contentType: 'application/json' } }] });
    const e4 = await new AnthropicSummarizer({ ...fast, baseURL: garbage.url }).summarize({ span: codingSession(2).log.surface(), tail: [], maxTokens: 500, meter }).catch((x: unknown) => x);
    expect(e4).toBeInstanceOf(SummarizerError);
    expect(garbage.messageRequests.length).toBe(1);
  });
});

describe('hive-mind compact with an LLM summarizer (real CLI process)', () => {
  it('a hanging endpoint: times out, nothing written, exit 1 with the reason', async () => {
    const srv = await chat({ fallback: { fault: { kind: 'hang' } } });
    const dir = mkdtempSync(join(tmpdir(), 'hm-llm-cli-'));
    try {
      const file = join(dir, 's.json');
      const b = codingSession(6);
      const { toOpenAIMessages } = await import('@hive-mind/transcripts');
      writeFileSync(file, JSON.stringify(toOpenAIMessages(b.log.surface())));
      const r = await runCli(['compact', file, '--budget', '5000', '--summarizer', 'openai', '--base-url', srv.v1Url, '--timeout', '1', '--deadline', '2', '--no-fallback'], { env: { OPENAI_API_KEY: 'sk-x' } });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/(^|\n)hive-mind: compaction failed after 1 attempt\(s\); the surface is unchanged: attempt 1: openai summarizer gave up .* \(timed out\)\n$/);
      expect(readdirSync(dir)).toEqual(['s.json']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Ctrl-C mid-run leaves no partial output', async () => {
    const srv = await chat({ fallback: { fault: { kind: 'hang' } } });
    const dir = mkdtempSync(join(tmpdir(), 'hm-llm-cli-'));
    try {
      const file = join(dir, 's.json');
      const { toOpenAIMessages } = await import('@hive-mind/transcripts');
      writeFileSync(file, JSON.stringify(toOpenAIMessages(codingSession(6).log.surface())));
      const r = await runCli(['compact', file, '--budget', '5000', '--summarizer', 'openai', '--base-url', srv.v1Url, '--out', join(dir, 'out.json')], {
        env: { OPENAI_API_KEY: 'sk-x' },
        onSpawn: (p) => {
          void srv.waitForRequests(1, { timeoutMs: 20_000 }).then(() => p.kill('SIGINT'));
        },
      });
      expect(r.code).toBe(130);
      expect(r.stderr).toMatch(/(^|\n)hive-mind: interrupted; nothing written\n$/);
      expect(existsSync(join(dir, 'out.json'))).toBe(false);
      expect(readdirSync(dir)).toEqual(['s.json']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
