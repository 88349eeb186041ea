import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseTranscript } from '@hive-mind/transcripts';
import {
  AnthropicSummarizer,
  CHECKPOINT_SECTIONS,
  MAX_TOO_LONG_RETRIES,
  OpenAISummarizer,
  SummarizerError,
  TokenMeter,
  knownModelWindow,
  sectionProblem,
  missingSections,
  type LlmSummarizerOptions,
} from '@hive-mind/compaction';
import { startAnthropicServer, startOpenAIChatServer, type RecordedRequest } from '../../../test-support/llm-servers.js';

const DATA = fileURLToPath(new URL('../../../../shared/data/transcripts/', import.meta.url));
const meter = new TokenMeter();
const fast: LlmSummarizerOptions = { apiKey: 'sk-test', backoffMs: 5, requestTimeoutMs: 5000, deadlineMs: 30000 };
/** A reply carrying every checkpoint heading, as the prompt asks. */
const reply = (tag: string) => CHECKPOINT_SECTIONS.map((s) => `## ${s.heading}\n- ${tag}: ${s.heading.toLowerCase()} item`).join('\n');

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

/** The real pi session (914 messages, ~140k tokens): far larger than a 16k-32k summarizer window. */
const piSpan = () => parseTranscript(readFileSync(DATA + 'pi/large-session.jsonl', 'utf8')).log.surface().filter((n) => n.type !== 'system/message');

/** Size of a Chat Completions request as the engine's meter counts it: the messages plus the output limit. */
function chatRequestTokens(r: RecordedRequest): number {
  const msgs = r.body.messages as Array<{ content: string }>;
  return msgs.reduce((s, m) => s + meter.countText(m.content) + meter.perMessageOverhead, 0) + (r.body.max_tokens as number);
}

describe('the summarizer window rule', () => {
  for (const window of [16_000, 32_000]) {
    it(`never sends a request above a ${window}-token window: the span is summarized in chunks, each reply merged into the next`, async () => {
      const srv = await startOpenAIChatServer({ script: (_req, i) => reply(`part ${i + 1}`) });
      servers.push(srv);
      const s = new OpenAISummarizer({ ...fast, baseURL: srv.v1Url, model: 'local-model', window });
      const span = piSpan();
      expect(meter.countEvents(span)).toBeGreaterThan(4 * window);
      const out = await s.summarize({ span, tail: [], maxTokens: 3000, meter });
      const reqs = srv.completionRequests;
      expect(reqs.length).toBeGreaterThan(4);
      for (const r of reqs) expect(chatRequestTokens(r)).toBeLessThanOrEqual(window);
      expect(out.largestRequestTokens).toBeLessThanOrEqual(window);
      expect(out.requests).toBe(reqs.length);
      // each request after the first merges the previous reply; the last reply is the summary
      for (let i = 1; i < reqs.length; i++) expect(reqs[i]!.body.messages[1].content).toContain(`<previous-summary>\n${reply(`part ${i}`)}`);
      expect(reqs[0]!.body.messages[1].content).toMatch(new RegExp(`<conversation part="1 of ${reqs.length}">`));
      expect(out.text).toBe(reply(`part ${reqs.length}`));
    });
  }

  it('takes the window from the model name where it is known', () => {
    expect(knownModelWindow('gpt-4o-mini')).toBe(128_000);
    expect(knownModelWindow('openai/gpt-4o')).toBe(128_000);
    expect(knownModelWindow('claude-haiku-4-5')).toBe(200_000);
    expect(knownModelWindow('my-local-llama')).toBeUndefined();
    expect(new OpenAISummarizer({ ...fast, model: 'gpt-3.5-turbo' }).window).toBe(16_385);
    expect(new OpenAISummarizer({ ...fast, model: 'qwen2.5-coder' }).window).toBe(32_768);
    expect(new AnthropicSummarizer({ ...fast }).window).toBe(200_000);
  });
});

describe('"prompt is too long"', () => {
  it('is answered with smaller requests, never the same one again (Anthropic wording, real window smaller than configured)', async () => {
    // The server's model really has 20k tokens; the summarizer was told 64k.
    const REAL = 20_000;
    const srv = await startAnthropicServer({
      script: (req) => {
        const n = Math.ceil(JSON.stringify(req.body.messages).length / 3.2);
        if (n + (req.body.max_tokens as number) > REAL) return { fault: { kind: 'status', status: 400, errorType: 'invalid_request_error', message: `prompt is too long: ${n} tokens > ${REAL} maximum` } };
        return reply('fits');
      },
    });
    servers.push(srv);
    const s = new AnthropicSummarizer({ ...fast, baseURL: srv.url, window: 64_000 });
    const out = await s.summarize({ span: piSpan(), tail: [], maxTokens: 2000, meter });
    const reqs = srv.messageRequests;
    const bodies = reqs.map((r) => r.rawBody);
    expect(new Set(bodies).size).toBe(bodies.length); // never the same request twice
    const rejected = reqs.filter((r) => r.outcome.status === 400);
    expect(rejected.length).toBeGreaterThan(0);
    expect(rejected.length).toBeLessThanOrEqual(MAX_TOO_LONG_RETRIES);
    // after the first "too long", every request is smaller than the rejected one
    const first400 = reqs.findIndex((r) => r.outcome.status === 400);
    for (const r of reqs.slice(first400 + 1)) expect(r.rawBody.length).toBeLessThan(reqs[first400]!.rawBody.length);
    expect(reqs.at(-1)!.outcome.status).toBe(200);
    expect(out.text).toContain('fits');
    // the learned window stays: a second summary sends no request that gets rejected
    const before = reqs.length;
    await s.summarize({ span: piSpan().slice(0, 200), tail: [], maxTokens: 2000, meter });
    expect(srv.messageRequests.slice(before).every((r) => r.outcome.status === 200)).toBe(true);
  });

  it('is answered with smaller requests when Anthropic says the input and max_tokens exceed the context limit', async () => {
    // Anthropic's other wording, when input + max_tokens is above the window:
    // "input length and `max_tokens` exceed context limit: 178959 + 64000 > 200000, decrease input length or `max_tokens` and try again"
    const REAL = 20_000;
    const srv = await startAnthropicServer({
      script: (req) => {
        const n = Math.ceil(JSON.stringify(req.body.messages).length / 3.2);
        const max = req.body.max_tokens as number;
        if (n + max > REAL) {
          return { fault: { kind: 'status', status: 400, errorType: 'invalid_request_error', message: `input length and \`max_tokens\` exceed context limit: ${n} + ${max} > ${REAL}, decrease input length or \`max_tokens\` and try again` } };
        }
        return reply('fits');
      },
    });
    servers.push(srv);
    const s = new AnthropicSummarizer({ ...fast, baseURL: srv.url, window: 64_000 });
    const out = await s.summarize({ span: piSpan(), tail: [], maxTokens: 2000, meter });
    const reqs = srv.messageRequests;
    const bodies = reqs.map((r) => r.rawBody);
    expect(new Set(bodies).size).toBe(bodies.length);
    const rejected = reqs.filter((r) => r.outcome.status === 400);
    expect(rejected.length).toBeGreaterThan(0);
    expect(rejected.length).toBeLessThanOrEqual(MAX_TOO_LONG_RETRIES);
    expect(reqs.at(-1)!.outcome.status).toBe(200);
    expect(out.text).toContain('fits');
  });

  it('lowers the output limit too when the stated window is small (a local model with 6k of context behind a 32k default)', async () => {
    // vLLM / OpenAI wording: "maximum context length is M tokens. However, you requested N tokens (X in the messages, Y in the completion)"
    const REAL = 6000;
    const srv = await startOpenAIChatServer({
      script: (req) => {
        const n = Math.ceil(JSON.stringify(req.body.messages).length / 3.2);
        const max = req.body.max_tokens as number;
        if (n + max > REAL) {
          return { fault: { kind: 'status', status: 400, code: 'context_length_exceeded', message: `This model's maximum context length is ${REAL} tokens. However, you requested ${n + max} tokens (${n} in the messages, ${max} in the completion). Please reduce the length of the messages or completion.` } };
        }
        return reply('fits');
      },
    });
    servers.push(srv);
    const s = new OpenAISummarizer({ ...fast, baseURL: srv.v1Url, model: 'qwen2.5-coder' });
    const out = await s.summarize({ span: piSpan().slice(0, 120), tail: [], maxTokens: 2800, meter });
    const reqs = srv.completionRequests;
    const bodies = reqs.map((r) => r.rawBody);
    expect(new Set(bodies).size).toBe(bodies.length);
    expect(reqs.filter((r) => r.outcome.status === 400).length).toBeLessThanOrEqual(MAX_TOO_LONG_RETRIES);
    expect(reqs.at(-1)!.outcome.status).toBe(200);
    expect(reqs.at(-1)!.body.max_tokens).toBeLessThanOrEqual(REAL / 4);
    expect(out.text).toContain('fits');
  });

  it('gives up with a clear error when even small requests are too long (OpenAI wording), after at most the re-plans', async () => {
    const srv = await startOpenAIChatServer({
      fallback: { fault: { kind: 'status', status: 400, code: 'context_length_exceeded', message: "This model's maximum context length is 1000 tokens. However, your messages resulted in 5000 tokens." } },
    });
    servers.push(srv);
    const err = await new OpenAISummarizer({ ...fast, baseURL: srv.v1Url, window: 16_000 }).summarize({ span: piSpan().slice(0, 60), tail: [], maxTokens: 1000, meter }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SummarizerError);
    expect((err as SummarizerError).retryable).toBe(false);
    expect((err as Error).message).toMatch(/too long|window leaves/);
    expect(srv.completionRequests.length).toBeLessThanOrEqual(MAX_TOO_LONG_RETRIES + 1);
    const bodies = srv.completionRequests.map((r) => r.rawBody);
    expect(new Set(bodies).size).toBe(bodies.length);
  });
});

describe('replies that are not a checkpoint', () => {
  it('a reply with none of the checkpoint sections is a retryable SummarizerError saying so; one request, no loop', async () => {
    const srv = await startOpenAIChatServer({ fallback: 'Sure! Here is a summary: the user ported a lexer and tests pass.' });
    servers.push(srv);
    const err = await new OpenAISummarizer({ ...fast, baseURL: srv.v1Url }).summarize({ span: piSpan().slice(0, 40), tail: [], maxTokens: 1000, meter }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SummarizerError);
    expect((err as SummarizerError).retryable).toBe(true);
    expect((err as Error).message).toMatch(/the reply holds none of the checkpoint sections \(11 asked for; it starts "Sure! Here is a summary/);
    expect(srv.completionRequests.length).toBe(1);
  });

  it('an empty reply is a retryable SummarizerError after one request, not a retry loop until the deadline', async () => {
    const srv = await startOpenAIChatServer({ fallback: '' });
    servers.push(srv);
    const err = await new OpenAISummarizer({ ...fast, baseURL: srv.v1Url }).summarize({ span: piSpan().slice(0, 40), tail: [], maxTokens: 1000, meter }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/empty summary/);
    expect(srv.completionRequests.length).toBe(1);
  });

  it('a stream cut mid-reply is retried at most requestRetries times', async () => {
    const srv = await startOpenAIChatServer({ fallback: { content: reply('cut'), fault: { kind: 'truncate', afterEvents: 3, mode: 'destroy' } } });
    servers.push(srv);
    const err = await new OpenAISummarizer({ ...fast, baseURL: srv.v1Url, stream: true, requestRetries: 2 }).summarize({ span: piSpan().slice(0, 40), tail: [], maxTokens: 1000, meter }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SummarizerError);
    expect((err as Error).message).toMatch(/gave up after 3 tries of one request/);
    expect(srv.completionRequests.length).toBe(3);
  });

  it('sectionProblem refuses only a reply with no checkpoint heading; missingSections names what a partial one lacks', () => {
    expect(sectionProblem(reply('x'))).toBeNull();
    expect(missingSections(reply('x'))).toEqual([]);
    const noDecisions = reply('x').replace(/## Decisions\n[^\n]*\n/, '');
    expect(sectionProblem(noDecisions)).toBeNull();
    expect(missingSections(noDecisions)).toEqual(['Decisions']);
    expect(missingSections(reply('x').replace('## Next step', 'Next:'))).toEqual(['Next step']);
    // one heading is a (partial) checkpoint: it is repaired, not thrown away
    expect(sectionProblem('# goal\nfix it\n# NEXT STEP\nrun tests')).toBeNull();
    expect(missingSections('# goal\nfix it\n# NEXT STEP\nrun tests')).toHaveLength(9);
    expect(sectionProblem('Sure! the tests pass.')).toMatch(/none of the checkpoint sections/);
    // headings carrying text after a colon, numbered or in bold still count
    const styled = CHECKPOINT_SECTIONS.map((s, i) => `### ${i + 1}. **${s.heading}**: item`).join('\n');
    expect(sectionProblem(styled)).toBeNull();
    expect(missingSections(styled)).toEqual([]);
  });
});
