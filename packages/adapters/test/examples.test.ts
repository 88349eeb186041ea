/**
 * Every example under examples/ runs with its real framework from npm against a loopback model
 * server, through a 30-file tool loop at a 6,000-token budget (uncompacted, the last request
 * would carry ~48k tokens of tool results). Every request the server recorded is checked:
 * under the budget (the engine's meter over the request, tool definitions included) and no
 * orphaned or unanswered tool call. Needs `npm run build` (the examples import the built package).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TokenMeter, CHECKPOINT_OPEN } from '@hive-mind/compaction';
import {
  startAnthropicServer,
  startOpenAIChatServer,
  startResponsesServer,
  type AnthropicReply,
  type ChatReply,
  type RecordedRequest,
  type ResponsesReply,
  type ScriptedServer,
} from '../../../test-support/llm-servers.js';
import { pairingProblems, requestTokens, runExample, type Wire } from './wire.js';
import { ensureFrameworks, FRAMEWORK_VERSIONS, runFrameworkExample, runFrameworkScript } from '../../../test-support/frameworks.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error: a plain .mjs module without types
import { readFile } from '../../../examples/lib/task.mjs';

const FILES = 30;
const BUDGET = 6000;
const ANSWER = `Found ${FILES} TODO markers.`;

const todo = (i: number): string => (readFile(`src/module-${i}.ts`) as string).split('\n').find((l) => l.includes('TODO'))!.trim();
const path = (i: number) => `src/module-${i + 1}.ts`;
/** Like a real model, each step reports the previous file's TODO before reading the next. */
const note = (i: number) => (i ? `src/module-${i}.ts: ${todo(i)}. Next file.` : '');

const chatScript = (_req: RecordedRequest, i: number): ChatReply =>
  i < FILES ? { content: note(i) || null, tool_calls: [{ id: `call_${i + 1}`, name: 'read_file', arguments: { path: path(i) } }] } : ANSWER;
const responsesScript = (_req: RecordedRequest, i: number): ResponsesReply =>
  i < FILES ? { output: [...(i ? [{ type: 'message' as const, text: note(i) }] : []), { type: 'function_call', call_id: `call_${i + 1}`, name: 'read_file', arguments: { path: path(i) } }] } : ANSWER;
const anthropicScript = (_req: RecordedRequest, i: number): AnthropicReply =>
  i < FILES ? { content: [...(i ? [{ type: 'text' as const, text: note(i) }] : []), { type: 'tool_use', id: `toolu_${i + 1}`, name: 'read_file', input: { path: path(i) } }] } : ANSWER;

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The ids of the newest call and its result in a request, per wire format. */
function lastResult(wire: Wire, body: any): { id: string; text: string } {
  if (wire === 'chat') {
    const m = body.messages.at(-1);
    return { id: m.tool_call_id, text: m.content };
  }
  if (wire === 'responses') {
    const it = body.input.at(-1);
    return { id: it.call_id, text: it.output };
  }
  const b = body.messages.at(-1).content.find((c: any) => c.type === 'tool_result');
  return { id: b.tool_use_id, text: typeof b.content === 'string' ? b.content : b.content.map((p: any) => p.text).join('') };
}

/**
 * pi-ai 0.74.2's bundled openai client adds an abort listener to the run's signal per request
 * (`fetchWithTimeout`) and Node warns at the 11th; the trace shows pi's stack, not ours.
 */
const PI_LISTENER_WARNING = /^\(node:\d+\) MaxListenersExceededWarning: Possible EventTarget memory leak detected\. \d+ abort listeners added to \[AbortSignal\]\. MaxListeners is 10\. Use events\.setMaxListeners\(\) to increase limit\n\(Use `node --trace-warnings \.\.\.` to show where the warning was created\)\n/;

async function check(example: string, wire: Wire, recorded: () => RecordedRequest[], args: string[], run = runExample) {
  const r = await run(example, args);
  const requests = recorded();
  expect(example === 'pi.mjs' ? r.stderr.replace(PI_LISTENER_WARNING, '') : r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`answer: ${ANSWER}`);
  expect(requests).toHaveLength(FILES + 1);
  const meter = new TokenMeter();
  for (const [i, q] of requests.entries()) {
    expect(pairingProblems(wire, q.body), `request ${i}`).toEqual([]);
    expect(requestTokens(wire, q.body, meter), `request ${i}`).toBeLessThanOrEqual(BUDGET);
  }
  expect(requests.filter((q) => JSON.stringify(q.body).includes(CHECKPOINT_OPEN)).length).toBeGreaterThan(0);
  expect(Number(r.stdout.match(/compactions: (\d+)/)?.[1])).toBeGreaterThan(1);
  // The newest result always reaches the model verbatim, with its call; the user's request is never lost.
  const last = lastResult(wire, requests[FILES]!.body);
  expect(last.id).toMatch(new RegExp(`_${FILES}$`));
  expect(last.text).toContain(`// src/module-${FILES}.ts`);
  expect(JSON.stringify(requests[FILES]!.body)).toContain('Review these files and list their TODO markers: src/module-1.ts');
  return r;
}

const args = (url: string) => ['--base-url', url, '--budget', String(BUDGET), '--files', String(FILES)];

describe('examples/ (each framework from npm, against the loopback model servers)', () => {
  it('ai-sdk.mjs: ai 6.x generateText + @ai-sdk/openai-compatible over Chat Completions', async () => {
    const s = await startOpenAIChatServer({ script: chatScript });
    server = s;
    await check('ai-sdk.mjs', 'chat', () => s.completionRequests, args(s.v1Url));
    expect(s.completionRequests[FILES]!.body.messages[0].role).toBe('system');
  });

  it('openai-agents.mjs: @openai/agents 0.14 run() over the Responses API', async () => {
    const s = await startResponsesServer({ script: responsesScript });
    server = s;
    await check('openai-agents.mjs', 'responses', () => s.responseRequests, args(s.v1Url));
  });

  it('langchain.mjs: langchain 1.x createAgent + @langchain/anthropic over the Messages API', async () => {
    const s = await startAnthropicServer({ script: anthropicScript });
    server = s;
    await check('langchain.mjs', 'anthropic', () => s.messageRequests, args(s.url));
  });

  it("pi.mjs: pi's SDK session with the extension over Chat Completions; pi's own compaction written by hive-mind", async () => {
    const s = await startOpenAIChatServer({ script: chatScript });
    server = s;
    const r = await check('pi.mjs', 'chat', () => s.completionRequests, args(s.v1Url));
    // session.compact() went through session_before_compact: our summary, no model call (31 requests, no 32nd).
    expect(r.stdout).toMatch(/pi compaction: \d+ tokens summarized by hive-mind:extractive; summary starts: ## Goal/);
  });
});

describe(`examples/ on the newest lines, installed beside the repository's (ai ${FRAMEWORK_VERSIONS.ai}, @openai/agents ${FRAMEWORK_VERSIONS['@openai/agents']}; engines >=22, run on this Node)`, () => {
  // first run: npm installs test-support/frameworks.package.json into .e2e-frameworks/
  const frameworks = ensureFrameworks();
  const run = async (example: string, a: string[]) => runFrameworkExample(await frameworks, example, a);

  it(`ai-sdk.mjs: ai ${FRAMEWORK_VERSIONS.ai} generateText + @ai-sdk/openai-compatible ${FRAMEWORK_VERSIONS['@ai-sdk/openai-compatible']} over Chat Completions`, { timeout: 600_000 }, async () => {
    await frameworks;
    const s = await startOpenAIChatServer({ script: chatScript });
    server = s;
    await check('ai-sdk.mjs', 'chat', () => s.completionRequests, args(s.v1Url), run);
    expect(s.completionRequests[FILES]!.body.messages[0].role).toBe('system');
  });

  it(`openai-agents.mjs: @openai/agents ${FRAMEWORK_VERSIONS['@openai/agents']} run() over the Responses API`, { timeout: 600_000 }, async () => {
    await frameworks;
    const s = await startResponsesServer({ script: responsesScript });
    server = s;
    await check('openai-agents.mjs', 'responses', () => s.responseRequests, args(s.v1Url), run);
  });

  it("compaction's openai summarizer on the openai 7 that @openai/agents 0.20 brings (its optional peer accepts 6 and 7)", { timeout: 600_000 }, async () => {
    const dir = await frameworks;
    const openai = (JSON.parse(readFileSync(join(dir, 'node_modules', 'openai', 'package.json'), 'utf8')) as { version: string }).version;
    expect(openai).toMatch(/^7\./);
    writeFileSync(
      join(dir, 'openai-summarizer.mjs'),
      [
        "import { createSummarizer } from '@hive-mind/compaction';",
        "const s = createSummarizer('openai', { apiKey: 'sk-test', baseURL: process.argv[2], model: 'gpt-test', backoffMs: 5, requestTimeoutMs: 5000, deadlineMs: 20000 });",
        "const out = await s.complete('Summarize.', 'The user asked for a Rust port.', { maxTokens: 200 });",
        'console.log(JSON.stringify(out));',
      ].join('\n'),
    );
    const s = await startOpenAIChatServer({ script: ['## Goal\n- Port the library to Rust.'] });
    server = s;
    const r = await runFrameworkScript(dir, 'openai-summarizer.mjs', [s.v1Url]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ text: expect.stringContaining('Port the library to Rust') });
    expect(s.completionRequests).toHaveLength(1);
    expect(s.completionRequests[0]!.headers['user-agent']).toMatch(/OpenAI\/JS 7\./);
  });
});
