#!/usr/bin/env node
// The adapters' cost per step (needs `npm run build`).
//
// 1. The prefix cache: one compactMessages check (under the budget) after a tool round trip
//    is added to a conversation of 100 / 1,000 / 10,000 messages, against reading the whole
//    array afresh (what a call without the cache costs), and with every message cloned between
//    calls (a framework that copies its state: matched by content).
// 2. Each framework's real tool loop (AI SDK generateText, Agents SDK run, LangChain createAgent,
//    a pi SDK session) against a loopback model server in this process: ms per model call
//    without the adapter, with it checking only (budget never reached), and with it compacting
//    (budget 8,000 tokens), and the time spent inside the adapter's hook.
//
//   node bench/adapters.mjs [--steps 40] [--runs 3]
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { arg, percentile } from './lib.mjs';
import { MessageCompactor } from '@hive-mind/adapters';
import { aiSdkCodec } from '@hive-mind/adapters/ai-sdk';

const STEPS = arg('--steps', 40);
const RUNS = arg('--runs', 3);

const result = (i) => Array.from({ length: 12 }, (_, k) => `row ${k} of shard ${i}: total=${(i * 37 + k) % 1009}`).join('\n');
function roundTrip(i) {
  return [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: `c${i}`, toolName: 'read_shard', input: { shard: i } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: `c${i}`, toolName: 'read_shard', output: { type: 'text', value: result(i) } }] },
  ];
}
function conversation(n) {
  const out = [{ role: 'user', content: 'Read every shard and report the totals.' }];
  for (let i = 0; out.length < n; i++) out.push(...roundTrip(i));
  return out;
}
const ms = (t0) => performance.now() - t0;
const fmt = (x) => (x < 1 ? x.toFixed(3) : x < 100 ? x.toFixed(2) : x.toFixed(0));

// --- 1. the prefix cache -----------------------------------------------------------
console.log('compactMessages check after one new tool round trip (under the budget), median ms per call');
console.log('messages   cached   no cache (whole array read)   ratio   cloned messages (matched by content)');
for (const n of [100, 1_000, 10_000]) {
  const config = { budget: 50_000_000 };
  let messages = conversation(n);
  const c = new MessageCompactor(aiSdkCodec, config);
  await c.compact(messages); // first read: O(n), once
  const cached = [];
  for (let k = 0; k < 30; k++) {
    messages = [...messages, ...roundTrip(n + k)];
    const t0 = performance.now();
    const r = await c.compact(messages);
    cached.push(ms(t0));
    if (r.report.newMessages !== 2) throw new Error(`expected 2 new messages, read ${r.report.newMessages}`);
  }
  const fresh = [];
  for (let k = 0; k < (n >= 10_000 ? 3 : 10); k++) {
    const t0 = performance.now();
    await new MessageCompactor(aiSdkCodec, config).compact(messages);
    fresh.push(ms(t0));
  }
  const cloned = [];
  for (let k = 0; k < 5; k++) {
    messages = [...structuredClone(messages), ...roundTrip(n + 100 + k)];
    const t0 = performance.now();
    const r = await c.compact(messages);
    cloned.push(ms(t0));
    if (r.report.newMessages !== 2) throw new Error(`expected 2 new messages after cloning, read ${r.report.newMessages}`);
  }
  const a = percentile(cached, 50);
  const b = percentile(fresh, 50);
  console.log(`${String(n).padStart(8)}   ${fmt(a).padStart(6)}   ${fmt(b).padStart(27)}   ${(b / a).toFixed(0).padStart(4)}x   ${fmt(percentile(cloned, 50)).padStart(8)}`);
}

// --- 2. real framework loops ------------------------------------------------------------
// One loopback server in this process answers the three wire formats the frameworks speak
// (Chat Completions JSON or SSE, Responses JSON, Anthropic Messages JSON): a tool call until
// STEPS calls were made in the current loop, then a final text.
const SYSTEM = 'You read shards with read_shard, one call per shard, then report.';
const bigResult = (i) => Array.from({ length: 60 }, (_, k) => `export const v${k} = ${(i * 31 + k) % 97}; // shard ${i}`).join('\n');
const SHARD_SCHEMA = { type: 'object', properties: { shard: { type: 'number' } }, required: ['shard'], additionalProperties: false };
let calls = 0;
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    const b = JSON.parse(body);
    const i = calls++;
    const more = i < STEPS;
    const args = JSON.stringify({ shard: i });
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
    if (req.url.endsWith('/chat/completions')) {
      const message = more ? { role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'read_shard', arguments: args } }] } : { role: 'assistant', content: 'done' };
      const finish = more ? 'tool_calls' : 'stop';
      if (!b.stream) {
        res.setHeader('content-type', 'application/json');
        return res.end(JSON.stringify({ id: `r${i}`, object: 'chat.completion', created: 0, model: b.model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
      }
      res.setHeader('content-type', 'text/event-stream');
      const chunk = (delta, finish_reason = null) => `data: ${JSON.stringify({ id: `r${i}`, object: 'chat.completion.chunk', created: 0, model: b.model, choices: [{ index: 0, delta, finish_reason }] })}\n\n`;
      const delta = more ? { role: 'assistant', tool_calls: [{ index: 0, ...message.tool_calls[0] }] } : { role: 'assistant', content: 'done' };
      return res.end(chunk(delta) + chunk({}, finish) + `data: ${JSON.stringify({ id: `r${i}`, object: 'chat.completion.chunk', created: 0, model: b.model, choices: [], usage })}\n\ndata: [DONE]\n\n`);
    }
    res.setHeader('content-type', 'application/json');
    if (req.url.endsWith('/responses')) {
      const output = more
        ? [{ type: 'function_call', id: `fc_${i}`, call_id: `call_${i}`, name: 'read_shard', arguments: args, status: 'completed' }]
        : [{ type: 'message', id: `msg_${i}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done', annotations: [] }] }];
      return res.end(JSON.stringify({ id: `resp_${i}`, object: 'response', created_at: 0, status: 'completed', model: b.model, output, usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } } }));
    }
    const content = more ? [{ type: 'tool_use', id: `toolu_${i}`, name: 'read_shard', input: { shard: i } }] : [{ type: 'text', text: 'done' }];
    res.end(JSON.stringify({ id: `msg_${i}`, type: 'message', role: 'assistant', model: b.model, content, stop_reason: more ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } }));
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

/** Time spent inside the adapter's hook (ms), summed over a loop. */
let inside = 0;
const timed = (fn) => async (...a) => {
  const t0 = performance.now();
  try {
    return await fn(...a);
  } finally {
    inside += ms(t0);
  }
};

/** Each framework: `loop(adapter)` runs STEPS + 1 model calls, with `adapter(budget)` as its hook or none. */
const frameworks = {
  'AI SDK 6 generateText': async () => {
    const { generateText, jsonSchema, stepCountIs, tool } = await import('ai');
    const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
    const { compactionPrepareStep } = await import('@hive-mind/adapters/ai-sdk');
    const provider = createOpenAICompatible({ name: 'bench', baseURL: `${base}/v1`, apiKey: 'x' });
    const tools = { read_shard: tool({ description: 'Read one shard.', inputSchema: jsonSchema(SHARD_SCHEMA), execute: async ({ shard }) => bigResult(shard) }) };
    return async (budget) => {
      const prepareStep = budget && timed(compactionPrepareStep({ budget, system: SYSTEM, tools }));
      await generateText({ model: provider('gpt-test'), system: SYSTEM, prompt: 'Read the shards.', tools, stopWhen: stepCountIs(STEPS + 1), ...(prepareStep ? { prepareStep } : {}) });
    };
  },
  'Agents SDK 0.14 run': async () => {
    const { Agent, run, setDefaultOpenAIKey, setOpenAIAPI, setTracingDisabled, tool } = await import('@openai/agents');
    const { compactionInputFilter } = await import('@hive-mind/adapters/openai-agents');
    process.env.OPENAI_BASE_URL = `${base}/v1`;
    setTracingDisabled(true);
    setDefaultOpenAIKey('x');
    setOpenAIAPI('responses');
    const agent = new Agent({ name: 'bench', instructions: SYSTEM, model: 'gpt-test', tools: [tool({ name: 'read_shard', description: 'Read one shard.', parameters: SHARD_SCHEMA, strict: true, execute: async ({ shard }) => bigResult(shard) })] });
    return async (budget) => {
      const filter = budget && timed(compactionInputFilter({ budget }));
      await run(agent, 'Read the shards.', { maxTurns: STEPS + 2, ...(filter ? { callModelInputFilter: filter } : {}) });
    };
  },
  'LangChain 1.x createAgent': async () => {
    const { createAgent, tool } = await import('langchain');
    const { ChatAnthropic } = await import('@langchain/anthropic');
    const { compactionMiddleware } = await import('@hive-mind/adapters/langchain');
    const model = new ChatAnthropic({ model: 'claude-test', anthropicApiUrl: base, apiKey: 'x', maxRetries: 0 });
    const tools = [tool(async ({ shard }) => bigResult(shard), { name: 'read_shard', description: 'Read one shard.', schema: SHARD_SCHEMA })];
    return async (budget) => {
      const middleware = [];
      if (budget) {
        // The middleware's wrapModelCall wraps the model call itself: time it less the handler's time.
        const m = compactionMiddleware({ budget });
        const wrapModelCall = async (request, handler) => {
          const t0 = performance.now();
          let model = 0;
          const timedHandler = async (r) => {
            const t1 = performance.now();
            try {
              return await handler(r);
            } finally {
              model += ms(t1);
            }
          };
          try {
            return await m.wrapModelCall(request, timedHandler);
          } finally {
            inside += ms(t0) - model;
          }
        };
        middleware.push({ ...m, wrapModelCall });
      }
      const agent = createAgent({ model, tools, systemPrompt: SYSTEM, middleware });
      await agent.invoke({ messages: [{ role: 'user', content: 'Read the shards.' }] }, { recursionLimit: 2 * STEPS + 10 });
    };
  },
  'pi 0.74 SDK session': async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { Type } = await import('@earendil-works/pi-ai');
    const pi = await import('@earendil-works/pi-coding-agent');
    const { hiveMindCompaction } = await import('@hive-mind/adapters/pi');
    const dir = mkdtempSync(join(tmpdir(), 'hm-bench-pi-'));
    const model = { id: 'gpt-test', name: 'gpt-test', api: 'openai-completions', provider: 'bench', baseUrl: `${base}/v1`, reasoning: false, input: ['text'], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128_000, maxTokens: 4096 };
    const readShard = pi.defineTool({ name: 'read_shard', label: 'Read shard', description: 'Read one shard.', parameters: Type.Object({ shard: Type.Number() }), execute: async (_id, { shard }) => ({ content: [{ type: 'text', text: bigResult(shard) }], details: {} }) });
    return async (budget) => {
      const factories = [];
      if (budget) {
        const ext = hiveMindCompaction({ budget });
        // The same extension, its context handler timed.
        const on = (api) => (event, handler) => api.on(event, event === 'context' ? timed(handler) : handler);
        factories.push((api) => ext(new Proxy(api, { get: (t, k) => (k === 'on' ? on(t) : typeof t[k] === 'function' ? t[k].bind(t) : t[k]) })));
      }
      const authStorage = pi.AuthStorage.inMemory();
      authStorage.setRuntimeApiKey('bench', 'x');
      const resourceLoader = new pi.DefaultResourceLoader({ cwd: dir, agentDir: dir, noSkills: true, noPromptTemplates: true, noThemes: true, noContextFiles: true, systemPrompt: SYSTEM, extensionFactories: factories });
      await resourceLoader.reload();
      const { session } = await pi.createAgentSession({ cwd: dir, agentDir: dir, model, thinkingLevel: 'off', authStorage, modelRegistry: pi.ModelRegistry.inMemory(authStorage), resourceLoader, tools: ['read_shard'], customTools: [readShard], sessionManager: pi.SessionManager.inMemory(dir), settingsManager: pi.SettingsManager.inMemory({ retry: { enabled: false }, compaction: { enabled: false } }) });
      try {
        await session.prompt('Read the shards.');
      } finally {
        session.dispose();
      }
    };
  },
};

const variants = [
  ['without the adapter', 0],
  ['adapter, checking only (budget 10M)', 10_000_000],
  ['adapter, compacting (budget 8,000)', 8_000],
];
console.log(`\nReal framework loops: ${STEPS + 1} model calls with ~1,000-token tool results against a loopback server in this process, median of ${RUNS} runs`);
console.log(`${'framework'.padEnd(28)} ${'variant'.padEnd(38)} ${'ms/step'.padStart(8)}   ${'against the baseline'.padEnd(22)} in the adapter`);
for (const [name, setup] of Object.entries(frameworks)) {
  const loop = await setup();
  const once = async (budget) => {
    calls = 0;
    inside = 0;
    const t0 = performance.now();
    await loop(budget);
    if (calls !== STEPS + 1) throw new Error(`${name}: expected ${STEPS + 1} model calls, got ${calls}`);
    return { step: ms(t0) / calls, inside: inside / calls };
  };
  await once(0); // warm up the framework
  await once(8_000);
  const times = variants.map(() => []);
  for (let run = 0; run < RUNS; run++) for (const [k, [, budget]] of variants.entries()) times[k].push(await once(budget));
  const baseline = percentile(times[0].map((x) => x.step), 50);
  for (const [k, [label, budget]] of variants.entries()) {
    const t = percentile(times[k].map((x) => x.step), 50);
    const against = budget ? `${t - baseline >= 0 ? '+' : ''}${fmt(t - baseline)} ms (${(t / baseline).toFixed(2)}x)` : 'baseline';
    console.log(`${(k ? '' : name).padEnd(28)} ${label.padEnd(38)} ${fmt(t).padStart(8)}   ${against.padEnd(22)} ${budget ? `${fmt(percentile(times[k].map((x) => x.inside), 50))} ms/step` : '-'}`);
  }
}
server.close();
