#!/usr/bin/env node
// The adapters' cost per step (needs `npm run build`).
//
// 1. The prefix cache: one compactMessages check (under the threshold) after a tool round trip
//    is added to a conversation of 100 / 1,000 / 10,000 messages, against reading the whole
//    array afresh (what a call without the cache costs), and with every message cloned between
//    calls (a framework that copies its state: matched by content).
// 2. A real AI SDK generateText tool loop against a loopback Chat Completions server in this
//    process: ms per step without the adapter, with it checking only (budget never reached), and
//    with it compacting (budget 8,000 tokens).
//
//   node bench/adapters.mjs [--steps 40] [--runs 3]
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { arg, percentile } from './lib.mjs';
import { MessageCompactor } from '@hive-mind/adapters';
import { aiSdkCodec, compactionPrepareStep } from '@hive-mind/adapters/ai-sdk';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';

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
console.log('compactMessages check after one new tool round trip (under the threshold), median ms per call');
console.log('messages   cached   no cache (whole array read)   ratio   cloned messages (matched by content)');
for (const n of [100, 1_000, 10_000]) {
  const config = { threshold: 50_000_000 };
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

// --- 2. a real generateText loop -----------------------------------------------------
const SYSTEM = 'You read shards with read_shard, one call per shard, then report.';
let calls = 0;
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    JSON.parse(body);
    const i = calls++;
    const message = i < STEPS
      ? { role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'read_shard', arguments: JSON.stringify({ shard: i }) } }] }
      : { role: 'assistant', content: 'done' };
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ id: `r${i}`, object: 'chat.completion', created: 0, model: 'gpt-test', choices: [{ index: 0, message, finish_reason: i < STEPS ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const provider = createOpenAICompatible({ name: 'bench', baseURL: `http://127.0.0.1:${server.address().port}/v1`, apiKey: 'x' });
const bigResult = (i) => Array.from({ length: 60 }, (_, k) => `export const v${k} = ${(i * 31 + k) % 97}; // shard ${i}`).join('\n');
const tools = { read_shard: tool({ description: 'Read one shard.', inputSchema: jsonSchema({ type: 'object', properties: { shard: { type: 'number' } }, required: ['shard'] }), execute: async ({ shard }) => bigResult(shard) }) };

/** Time spent inside the adapter's prepareStep (ms), summed over a loop. */
let inside = 0;
const timed = (step) => async (opts) => {
  const t0 = performance.now();
  const r = await step(opts);
  inside += ms(t0);
  return r;
};
async function loop(prepareStep) {
  calls = 0;
  inside = 0;
  const t0 = performance.now();
  const r = await generateText({ model: provider('gpt-test'), system: SYSTEM, prompt: 'Read shards 0 to N.', tools, stopWhen: stepCountIs(STEPS + 1), ...(prepareStep ? { prepareStep } : {}) });
  if (r.steps.length !== STEPS + 1) throw new Error(`expected ${STEPS + 1} steps, got ${r.steps.length}`);
  return { step: ms(t0) / r.steps.length, inside: inside / r.steps.length };
}
const variants = {
  'without the adapter': () => undefined,
  'adapter, checking only (budget 10M)': () => timed(compactionPrepareStep({ threshold: 10_000_000, system: SYSTEM, tools })),
  'adapter, compacting (budget 8,000)': () => timed(compactionPrepareStep({ threshold: 8_000, system: SYSTEM, tools })),
};
await loop(undefined); // warm up the SDK and the tokenizer
await loop(variants['adapter, compacting (budget 8,000)']());
const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (let run = 0; run < RUNS; run++) for (const [k, make] of Object.entries(variants)) times[k].push(await loop(make()));
server.close();
console.log(`\nAI SDK generateText, ${STEPS + 1} steps of ~1,000-token tool results against a loopback server, median of ${RUNS} runs`);
const base = percentile(times['without the adapter'].map((x) => x.step), 50);
console.log(`${''.padEnd(40)} ${'ms/step'.padStart(8)}   ${'against the baseline'.padEnd(26)} in prepareStep`);
for (const [k, xs] of Object.entries(times)) {
  const t = percentile(xs.map((x) => x.step), 50);
  const against = k === 'without the adapter' ? 'baseline' : `${t - base >= 0 ? '+' : ''}${fmt(t - base)} ms (${(t / base).toFixed(2)}x)`;
  console.log(`${k.padEnd(40)} ${fmt(t).padStart(8)}   ${against.padEnd(26)} ${k === 'without the adapter' ? '-' : `${fmt(percentile(xs.map((x) => x.inside), 50))} ms/step`}`);
}
