import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkInvariants, isFullyPaired, type CompactionSummaryData, type LogEvent, type MemorySessionLog } from '@hive-mind/session';
import {
  BasicCompactionEngine,
  CHECKPOINT_SECTIONS,
  CompactionConfigError,
  CompactionFailedError,
  OpenAISummarizer,
  TokenMeter,
  type CompactionResult,
  type LlmSummarizerOptions,
} from '@hive-mind/compaction';
import { parseTranscript, toAnthropicMessages } from '@hive-mind/transcripts';
import { startOpenAIChatServer, type OpenAIChatServer } from '../../../test-support/llm-servers.js';
import { bigOutput, codingSession, runCli, type LogBuilder } from './helpers.js';

const meter = new TokenMeter();
const fast: LlmSummarizerOptions = { apiKey: 'sk-test', backoffMs: 5, requestTimeoutMs: 3000, deadlineMs: 20000, requestRetries: 0 };
const servers: OpenAIChatServer[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});
async function chat(opts: Parameters<typeof startOpenAIChatServer>[0]): Promise<OpenAIChatServer> {
  const s = await startOpenAIChatServer(opts);
  servers.push(s);
  return s;
}

/** One step of an agent's tool loop: the assistant reads a file, the tool answers with its listing. */
function step(b: LogBuilder, i: number): void {
  b.tool('Read', { file_path: `/repo/src/feature_${i}.ts` }, bigOutput(25, `f${i}`), false, `Reading feature_${i}.ts to check the handler.`);
}

describe('fallback to the extractive summarizer', () => {
  it('a summarizer that keeps answering without the checkpoint sections: the extractive checkpoint lands and the result and record say why', async () => {
    const srv = await chat({ fallback: 'Sure! The user is porting a lexer; the tests pass now.' });
    const b = codingSession(6);
    const e = new BasicCompactionEngine({ budget: 5000, retainTokens: 1200, summaryMaxTokens: 1500, compactionRetries: 2, summarizer: new OpenAISummarizer({ ...fast, baseURL: srv.v1Url }), meter });
    const r = await e.compactIfNeeded(b.log);
    expect(r.compacted).toBe(true);
    expect(r.summarizer).toBe('extractive');
    expect(r.fallback?.from).toBe('openai');
    expect(r.fallback?.reason).toMatch(/openai failed after 3 attempt\(s\): attempt 1: openai reply: the reply holds none of the checkpoint sections/);
    expect(r.attempts).toBe(4); // three openai attempts, then the extractive one
    expect(srv.completionRequests.length).toBe(3);
    const sum = b.log.events().find((x) => x.type === 'compaction/summary') as LogEvent;
    expect((sum.data as CompactionSummaryData).fallback?.from).toBe('openai');
    expect(checkInvariants(b.log.events()).ok).toBe(true);
  });

  it('while the summarizer is backed off, later compactions go straight to the extractive one (no request)', async () => {
    const srv = await chat({ fallback: { fault: { kind: 'status', status: 500, message: 'upstream down' } } });
    const b = codingSession(6);
    const e = new BasicCompactionEngine({ budget: 5000, retainTokens: 1200, summaryMaxTokens: 1500, summarizer: new OpenAISummarizer({ ...fast, baseURL: srv.v1Url }), meter });
    const results: CompactionResult[] = [];
    for (let i = 0; i < 60; i++) {
      step(b, i);
      results.push(await e.compactIfNeeded(b.log));
    }
    const landed = results.filter((r) => r.compacted);
    expect(landed.length).toBeGreaterThan(3);
    expect(landed.every((r) => r.summarizer === 'extractive' && r.fallback?.from === 'openai')).toBe(true);
    expect(landed.slice(1).every((r) => /backing off after 1 failure/.test(r.fallback!.reason))).toBe(true);
    // a 500 after the summarizer's own request retries (0 here) is final for that attempt: one request, then none within the backoff
    expect(srv.completionRequests.length).toBe(1);
  });
});

describe('a failing agent loop (the README loop, catching CompactionFailedError and carrying on)', () => {
  it('never calls the summarizer more than its retries for one surface state, and says when it backs off', async () => {
    const srv = await chat({ fallback: { fault: { kind: 'status', status: 503, message: 'overloaded' } } });
    const b = codingSession(6);
    const e = new BasicCompactionEngine({ budget: 5000, retainTokens: 1200, summaryMaxTokens: 1500, compactionRetries: 2, fallback: false, summarizer: new OpenAISummarizer({ ...fast, baseURL: srv.v1Url }), meter });
    const callsAt = new Map<string, number>();
    let failures = 0;
    let backingOff = 0;
    for (let i = 0; i < 100; i++) {
      step(b, i);
      // a careless caller: two tries per step, whatever happened
      for (let k = 0; k < 2; k++) {
        const stateKey = `${b.log.generation}:${b.log.lastSeq}`;
        const before = srv.completionRequests.length;
        try {
          const r = await e.compactIfNeeded(b.log);
          if (r.noopReason === 'backing-off') {
            backingOff++;
            expect(r.backoff!.failures).toBeGreaterThan(0);
            expect(r.backoff!.lastError).toMatch(/503/);
            expect(r.backoff!.retryAtTokens).toBeGreaterThan(r.tokensBefore);
          }
        } catch (err) {
          expect(err).toBeInstanceOf(CompactionFailedError);
          failures++;
        }
        callsAt.set(stateKey, (callsAt.get(stateKey) ?? 0) + srv.completionRequests.length - before);
      }
    }
    for (const n of callsAt.values()) expect(n).toBeLessThanOrEqual(3);
    expect(backingOff).toBeGreaterThan(150);
    // the first state's attempt, then one probe each time the surface has grown enough (a quarter of the budget, doubling)
    expect(srv.completionRequests.length).toBeLessThan(12);
    // a 503 after the summarizer's own request retries is not retried by the engine: each failure is one request
    expect(failures).toBe(srv.completionRequests.length);
    expect(checkInvariants(b.log.events()).orphanedCompactionStarts).toEqual([]);
  });
});

describe('headroom', () => {
  it('a prune pass that would land just under the budget does not land alone: the engine summarizes', async () => {
    const session = () => {
      const b = codingSession(2);
      b.tool('Bash', { command: 'npm test' }, bigOutput(400, 'test'));
      for (let i = 0; i < 6; i++) step(b, 100 + i);
      return b;
    };
    const s0 = session().log;
    const tokens = meter.countEvents(s0.surface());
    // what pruning the one big old result alone leaves, with no headroom asked
    const probe = await new BasicCompactionEngine({ budget: tokens - 1, retainTokens: 1500, summaryMaxTokens: 1500, targetRatio: 1, meter }).compactIfNeeded(session().log);
    expect(probe.action).toBe('prune');
    // a budget that this pruning reaches at 96% of it: before, it landed alone and the next compaction came steps later
    const budget = Math.ceil(probe.tokensAfter / 0.96);
    const e = new BasicCompactionEngine({ budget, retainTokens: 1500, summaryMaxTokens: 1500, meter });
    const r = await e.compactIfNeeded(session().log);
    expect(r.compacted).toBe(true);
    expect(r.action).toBe('summarize');
    expect(r.tokensAfter).toBeLessThanOrEqual(e.surfaceTarget());
  });

  it('in a 400-step growing tool loop every landed pass leaves the headroom target, under every strategy', async () => {
    for (const strategy of ['summarize', 'mask', 'auto'] as const) {
      const b = codingSession(1);
      const e = new BasicCompactionEngine({ budget: 12_000, strategy, maskKeepRecent: 3, meter });
      let landed = 0;
      for (let i = 0; i < 400; i++) {
        step(b, i);
        const r = await e.compactIfNeeded(b.log).catch((err: unknown) => {
          // masking alone cannot keep a growing loop under the budget forever: it fails closed, and backs off
          expect(strategy === 'mask' && err instanceof CompactionFailedError).toBe(true);
          return undefined;
        });
        if (!r?.compacted) continue;
        landed++;
        if (r.action !== 'mask' || strategy !== 'mask') expect(r.tokensAfter, `${strategy} ${r.action} at step ${i}`).toBeLessThanOrEqual(e.surfaceTarget());
      }
      expect(landed, strategy).toBeGreaterThan(0);
      expect(checkInvariants(b.log.events()).ok).toBe(true);
    }
  });
});

describe('budgets of what the model receives', () => {
  it('overheadTokens counts against the budget; a config whose overhead leaves nothing is refused', async () => {
    const b = codingSession(6);
    const tokens = meter.countEvents(b.log.surface());
    const plain = new BasicCompactionEngine({ budget: tokens + 100, meter });
    expect((await plain.compactIfNeeded(b.log)).noopReason).toBe('under-budget');
    const e = new BasicCompactionEngine({ budget: tokens + 100, overheadTokens: 3000, meter });
    expect(e.surfaceBudget()).toBe(tokens + 100 - 3000);
    const r = await e.compactIfNeeded(b.log);
    expect(r.compacted).toBe(true);
    expect(r.overheadTokens).toBe(3000);
    expect(r.tokensAfter + 3000).toBeLessThanOrEqual(tokens + 100);
    expect(() => new BasicCompactionEngine({ budget: 5000, overheadTokens: 5000 })).toThrow(CompactionConfigError);
    expect(() => new BasicCompactionEngine({ budget: 5000, overheadTokens: 4000, retainTokens: 2000 })).toThrow(/retainTokens \(2000\) must be below the budget less overheadTokens \(5000 - 4000 = 1000\)/);
  });

  it('with an overhead, the smallest workable budget the error names does work', async () => {
    const session = () => {
      const b = codingSession(3);
      b.tool('Bash', { command: 'cargo test' }, bigOutput(120, 'test'));
      return b;
    };
    const err = await new BasicCompactionEngine({ budget: 3000, overheadTokens: 1500, meter }).compactIfNeeded(session().log).catch((x: unknown) => x);
    expect((err as Error).name).toBe('BudgetTooSmallError');
    expect((err as Error).message).toMatch(/beside 1500 of overheadTokens\) must stay verbatim/);
    const smallest = (err as { smallestBudget: number }).smallestBudget;
    const r = await new BasicCompactionEngine({ budget: smallest, overheadTokens: 1500, meter }).compactIfNeeded(session().log);
    expect(r.compacted).toBe(true);
    expect(r.tokensAfter + 1500).toBeLessThanOrEqual(smallest);
  });

  it('the CLI counts the tool definitions a Hermes session records, adds --overhead, and shows them apart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hm-overhead-'));
    try {
      const file = writeHermesResearchSession(dir, 6);
      const r = await runCli(['compact', file, '--budget', '15000', '--overhead', '1000', '--json', '--out', join(dir, 'out.json')]);
      expect(r.code).toBe(0);
      const j = JSON.parse(r.stdout);
      expect(j.overhead.toolDefinitions).toBeGreaterThan(2000);
      expect(j.overhead.fixed).toBe(1000);
      expect(j.overhead.systemPrompt).toBeGreaterThan(5);
      expect(j.tokensAfter + j.overhead.toolDefinitions + j.overhead.fixed).toBeLessThanOrEqual(15000);
      const text = await runCli(['compact', file, '--budget', '15000', '--overhead', '1000', '--out', join(dir, 'out2.json')]);
      expect(text.stdout).toMatch(new RegExp(`the model also receives ${j.overhead.toolDefinitions} of tool definitions recorded in the file and 1000 given by --overhead: the transcript may take ${15000 - j.overhead.toolDefinitions - 1000} of the budget 15000`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the CLI default --retain leaves room for the tool definitions a Hermes session records (a small window, no --retain)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hm-overhead-'));
    try {
      const file = writeHermesResearchSession(dir, 12);
      const r = await runCli(['compact', file, '--window', '16000', '--json', '--out', join(dir, 'out.json')]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const j = JSON.parse(r.stdout);
      expect(j.overhead.toolDefinitions).toBeGreaterThan(12800 / 2);
      expect(j.tokensAfter).toBeLessThan(j.tokensBefore);
      expect(j.tokensAfter + j.overhead.toolDefinitions).toBeLessThanOrEqual(12800);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the CLI says when it fell back, and --no-fallback fails instead', async () => {
    const srv = await chat({ fallback: { fault: { kind: 'status', status: 500, message: 'upstream down' } } });
    const dir = mkdtempSync(join(tmpdir(), 'hm-fallback-'));
    try {
      const file = join(dir, 's.json');
      const { toOpenAIMessages } = await import('@hive-mind/transcripts');
      writeFileSync(file, JSON.stringify(toOpenAIMessages(codingSession(6).log.surface())));
      const args = ['compact', file, '--budget', '5000', '--summarizer', 'openai', '--base-url', srv.v1Url, '--out', join(dir, 'out.json')];
      const ok = await runCli(args, { env: { OPENAI_API_KEY: 'sk-x' } });
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toMatch(/the openai summarizer failed, so the checkpoint is extractive \(--no-fallback fails instead\): openai failed after 1 attempt\(s\): attempt 1: openai summarizer gave up after 3 tries of one request \(requestRetries 2\): openai endpoint answered HTTP 500/);
      const no = await runCli([...args, '--no-fallback'], { env: { OPENAI_API_KEY: 'sk-x' } });
      expect(no.code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('blocks paired by id under repeated compaction', () => {
  /** A Claude Code research session: each turn writes one API message over several lines (text, server_tool_use, web_search_tool_result, a Bash tool_use), then the Bash result. */
  function researchSession(turns: number): MemorySessionLog {
    const base = { sessionId: 's1', version: '2.1.14', cwd: '/w', userType: 'external', isSidechain: false };
    let parent: string | null = null;
    let n = 0;
    const lines: string[] = [];
    const line = (type: 'user' | 'assistant', message: Record<string, unknown>) => {
      const uuid = `u${++n}`;
      lines.push(JSON.stringify({ ...base, type, uuid, parentUuid: parent, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(), message }));
      parent = uuid;
    };
    for (let t = 0; t < turns; t++) {
      line('user', { role: 'user', content: `Question ${t}: what changed in release ${t} of the SDK? Check the changelog and the repo.` });
      const id = `msg_${t}`;
      const am = (content: unknown[]) => line('assistant', { id, role: 'assistant', model: 'claude-sonnet-4-5', content });
      am([{ type: 'text', text: `Searching for release ${t}.` }]);
      am([{ type: 'server_tool_use', id: `srvtoolu_${t}`, name: 'web_search', input: { query: `sdk release ${t} changelog` } }]);
      am([{ type: 'web_search_tool_result', tool_use_id: `srvtoolu_${t}`, content: [{ type: 'web_search_result', url: `https://example.com/r${t}`, title: `Release ${t}`, encrypted_content: 'x'.repeat(1500) }] }]);
      am([{ type: 'tool_use', id: `toolu_${t}`, name: 'Bash', input: { command: `git log --oneline v${t}..v${t + 1}` } }]);
      line('user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${t}`, content: bigOutput(30, `log${t}`) }] });
      line('assistant', { id: `msg_${t}b`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: `Release ${t} added paging and fixed the retry bug.` }] });
    }
    return parseTranscript(lines.join('\n') + '\n').log;
  }

  it('no compaction at any budget keeps a web search result without its server tool use, or splits one message', async () => {
    let compactions = 0;
    for (let budget = 3000; budget <= 24_000; budget += 200) {
      const log = researchSession(16);
      const e = new BasicCompactionEngine({ budget: budget, meter });
      const r = await e.compactIfNeeded(log).catch((err: unknown) => err);
      if (r instanceof Error) {
        expect(r.name).toBe('BudgetTooSmallError');
        continue;
      }
      if (!(r as CompactionResult).compacted) continue;
      compactions++;
      const inv = checkInvariants(log.events());
      expect(inv.violations, `budget ${budget}`).toEqual([]);
      // a message id is either wholly visible or wholly shadowed
      const visible = new Set(log.surface().map((x) => x.seq));
      const parts = new Map<string, boolean[]>();
      for (const ev of log.events()) if ('messageId' in ev && ev.messageId && !('kind' in ev && ev.kind)) parts.set(ev.messageId, [...(parts.get(ev.messageId) ?? []), visible.has(ev.seq)]);
      for (const [id, seen] of parts) expect(new Set(seen).size, `${id} at budget ${budget}`).toBe(1);
      // and what the model is sent pairs every web search result with its server tool use
      const sent = JSON.stringify(toAnthropicMessages(log.surface()).messages);
      for (const m of sent.matchAll(/"tool_use_id":"(srvtoolu_\d+)"/g)) expect(sent).toContain(`"id":"${m[1]}"`);
    }
    expect(compactions).toBeGreaterThan(80);
    // 106 compactions of a growing session: about 20 s alone, 40 s on a loaded machine (a guard, not a timing)
  }, 120_000);
});

describe('one agent turn whose every tool result is huge', () => {
  it('compacts under the budget (the pruned results fit the tail; it used to be a silent no-op)', async () => {
    // one user task, then 30 tool calls each reading a one-line 240k-character file (minified JSON, a log)
    const messages: unknown[] = [{ role: 'user', content: 'grep every log for the failing job id' }];
    for (let i = 0; i < 30; i++) {
      messages.push({ role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ cmd: `cat big${i}.log` }) } }] });
      messages.push({ role: 'tool', tool_call_id: `call_${i}`, content: `line ${i} of a very large file with data; `.repeat(6000) });
    }
    messages.push({ role: 'assistant', content: 'All files read: job 4711 failed in big17.log.' });
    const t = parseTranscript(JSON.stringify({ model: 'gpt-4o', messages }));
    expect(meter.countEvents(t.log.surface())).toBeGreaterThan(1_000_000);
    const engine = new BasicCompactionEngine({ budget: 25_600, meter });
    const r = await engine.compactIfNeeded(t.log);
    expect(r.compacted).toBe(true);
    expect(meter.countEvents(t.log.surface())).toBeLessThanOrEqual(25_600);
    expect(checkInvariants(t.log.events()).ok).toBe(true);
    expect(isFullyPaired(t.log.surface())).toBe(true);
  });
});

/**
 * A Hermes session file in `dir` that records 30 tool definitions (each description repeated
 * `descriptionRepeats` times) and 12 web searches with 40-line results; returns its path.
 */
function writeHermesResearchSession(dir: string, descriptionRepeats: number): string {
  const tools = Array.from({ length: 30 }, (_, i) => ({
    type: 'function',
    function: { name: `tool_${i}`, description: `Runs step ${i} of the research workflow and returns its findings as markdown. `.repeat(descriptionRepeats), parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
  }));
  const messages: unknown[] = [{ role: 'user', content: 'Research context compaction for coding agents and write notes to notes.md.' }];
  for (let i = 0; i < 12; i++) {
    messages.push({ role: 'assistant', content: `Searching part ${i}.`, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'web_search', arguments: JSON.stringify({ query: `compaction ${i}` }) } }] });
    messages.push({ role: 'tool', tool_call_id: `call_${i}`, content: bigOutput(40, `result${i}`) });
  }
  const file = join(dir, 'session_20260101_120000_abcd.json');
  writeFileSync(file, JSON.stringify({ session_id: '20260101_120000_abcd', model: 'anthropic/claude-sonnet-4', platform: 'cli', system_prompt: 'You are Hermes, a research agent.', tools, messages }));
  return file;
}
