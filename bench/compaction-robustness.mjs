#!/usr/bin/env node
// Compaction on real sessions' failure shapes (issue 10). Prints, each beside a baseline
// measured in the same run:
//   1. the largest summarizer request against the summarizer's window, at 16k/32k/64k/128k,
//      over every shared transcript (target: never above the window); baseline: the one
//      request the old prompt builder made (the whole span, capped at 400,000 characters);
//   2. summarizer calls per 100 steps of a failing agent loop (replies without the checkpoint
//      sections, which the engine retries) that catches
//      CompactionFailedError and carries on (target: the retries once, then backoff);
//      baseline: an engine with no memory of the failure (a new engine each step);
//   3. compactions per 400 steps of a growing tool loop under each strategy and the headroom
//      each landed pass leaves; baseline: no headroom target (targetRatio 1);
//   4. token counting time of a 2 MB run of one character against 2 MB of real transcript
//      text (target: within 2x); baseline: the unsliced encoder on a 40k-character run.
//   npm run build && node bench/compaction-robustness.mjs [--steps 100] [--loop 400]
import { createServer } from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { arg, root } from './lib.mjs';

const req = createRequire(join(root, 'packages/compaction/package.json'));
const { BasicCompactionEngine, CHECKPOINT_SECTIONS, CompactionFailedError, OpenAISummarizer, TokenMeter, planSummaryRequests } = await import(join(root, 'packages/compaction/dist/index.js'));
const { parseTranscript } = await import(join(root, 'packages/transcripts/dist/index.js'));
const { MemorySessionLog } = await import(join(root, 'packages/session/dist/index.js'));

const meter = new TokenMeter();
const DATA = join(root, '..', 'shared', 'data', 'transcripts');
const files = readdirSync(DATA).flatMap((d) => readdirSync(join(DATA, d)).map((f) => `${d}/${f}`));
const reply = CHECKPOINT_SECTIONS.map((s) => `## ${s.heading}\n- ${s.heading.toLowerCase()}: noted`).join('\n');

/**
 * A loopback Chat Completions server: `mode` 'ok' answers a checkpoint, 'chatty' answers text without the checkpoint sections (a failure the engine retries).
 * Records each request's size (tokens of the meter: messages + max_tokens).
 */
async function server(mode) {
  const sizes = [];
  const srv = createServer((rq, rs) => {
    let body = '';
    rq.on('data', (c) => (body += c));
    rq.on('end', () => {
      const b = JSON.parse(body);
      sizes.push(b.messages.reduce((s, m) => s + meter.countText(m.content) + meter.perMessageOverhead, 0) + b.max_tokens);
      const content = mode === 'chatty' ? 'Sure! The user is reviewing feature modules; all good so far.' : reply;
      rs.writeHead(200, { 'content-type': 'application/json' });
      rs.end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 0, model: b.model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1 } }));
    });
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${srv.address().port}/v1`, sizes, close: () => new Promise((r) => srv.close(r)) };
}

const spanOf = (rel) => parseTranscript(readFileSync(join(DATA, rel), 'utf8')).log.surface().filter((n) => n.type !== 'system/message');

// 1. the window rule ------------------------------------------------------------------------
console.log('1. largest summarizer request (tokens: input + output limit) vs the summarizer window, summary budget 4096');
console.log('   file                                   span  | old: 1 request | 16k: largest (requests) | 32k | 64k | 128k');
for (const rel of files) {
  const span = spanOf(rel);
  const spanTokens = meter.countEvents(span);
  // the old builder: the whole span rendered, clipped to 400,000 characters, in one request
  const whole = planSummaryRequests(span, { meter, promptTokens: 1e9, summaryTokens: 4096 }).chunks.join('\n\n');
  const old = meter.countText(whole.length > 400_000 ? whole.slice(0, 200_000) + whole.slice(-200_000) : whole) + 4096 + 700;
  const cells = [];
  for (const window of [16_000, 32_000, 64_000, 128_000]) {
    const srv = await server('ok');
    const s = new OpenAISummarizer({ apiKey: '<none>', baseURL: srv.url, model: 'bench-model', window, backoffMs: 1 });
    await s.summarize({ span, tail: [], maxTokens: 4096, meter });
    const largest = Math.max(...srv.sizes);
    cells.push(`${largest}${largest > window ? ' OVER' : ''} (${srv.sizes.length})`);
    await srv.close();
  }
  console.log(`   ${rel.padEnd(38)} ${String(spanTokens).padStart(6)} | ${String(old).padStart(14)} | ${cells.join(' | ')}`);
}

// 2. a failing loop -------------------------------------------------------------------------
const STEPS = arg('--steps', 100);
function toolStep(log, i) {
  const id = `call_${i}`;
  const out = Array.from({ length: 25 }, (_, k) => `src/feature_${i}.ts:${k + 1}: export const handler${k} = () => ok(${(i * 31 + k) % 97});`).join('\n');
  log.append([
    { type: 'assistant/message', surfaceOp: 'append', content: [{ type: 'text', text: `Reading feature_${i}.ts.` }, { type: 'tool-call', id, name: 'Read', input: { file_path: `/repo/src/feature_${i}.ts` } }] },
    { type: 'tool/result', surfaceOp: 'append', content: [{ type: 'tool-result', callId: id, isError: false, content: [{ type: 'text', text: out }] }] },
  ]);
}
function newSession() {
  const log = new MemorySessionLog('bench');
  log.append({ type: 'user/message', surfaceOp: 'append', content: [{ type: 'text', text: 'Review every feature module under src/ and list the handlers that return errors.' }] });
  return log;
}
async function failingLoop(fresh, fallback) {
  const srv = await server('chatty');
  const make = () => new BasicCompactionEngine({ budget: 6000, compactionRetries: 2, fallback, meter, summarizer: new OpenAISummarizer({ apiKey: '<none>', baseURL: srv.url, requestRetries: 0, backoffMs: 1 }) });
  const log = newSession();
  let engine = make();
  let backingOff = 0;
  let landed = 0;
  for (let i = 0; i < STEPS; i++) {
    toolStep(log, i);
    if (fresh) engine = make();
    try {
      const r = await engine.compactIfNeeded(log);
      if (r.noopReason === 'backing-off') backingOff++;
      if (r.compacted) landed++;
    } catch (err) {
      if (!(err instanceof CompactionFailedError)) throw err;
    }
  }
  await srv.close();
  return { calls: srv.sizes.length, backingOff, landed };
}
console.log(`\n2. summarizer calls per ${STEPS} steps of a failing loop (every reply lacks the checkpoint sections, compactionRetries 2, budget 6000)`);
const base2 = await failingLoop(true, false);
const ours2 = await failingLoop(false, false);
const fb2 = await failingLoop(false, true);
console.log(`   baseline, no memory of the failure:  ${base2.calls} calls`);
console.log(`   fail closed (--no-fallback):         ${ours2.calls} calls, ${ours2.backingOff} steps answered backing-off`);
console.log(`   with the extractive fallback:        ${fb2.calls} calls, ${fb2.landed} extractive checkpoints landed`);

// 3. headroom -------------------------------------------------------------------------------
const LOOP = arg('--loop', 400);
console.log(`\n3. compactions per ${LOOP} steps of a growing tool loop (budget 12000) and the headroom left by each landed pass (% of the budget)`);
console.log('   strategy   | targetRatio 1 (baseline): passes, min / median headroom | targetRatio 0.8 (default)');
for (const strategy of ['summarize', 'mask', 'auto']) {
  const cells = [];
  for (const targetRatio of [1, 0.8]) {
    const log = newSession();
    const e = new BasicCompactionEngine({ budget: 12_000, strategy, targetRatio, maskKeepRecent: 3, meter });
    const room = [];
    let failed = 0;
    for (let i = 0; i < LOOP; i++) {
      toolStep(log, i);
      try {
        const r = await e.compactIfNeeded(log);
        if (r.compacted) room.push((100 * (e.surfaceBudget() - r.tokensAfter)) / e.surfaceBudget());
      } catch (err) {
        if (!(err instanceof CompactionFailedError)) throw err;
        failed++;
      }
    }
    room.sort((a, b) => a - b);
    const med = room.length ? room[Math.floor(room.length / 2)] : NaN;
    cells.push(`${String(room.length).padStart(4)} passes, ${room.length ? room[0].toFixed(1) : '-'}% / ${med.toFixed(1)}%${failed ? `, ${failed} failed` : ''}`);
  }
  console.log(`   ${strategy.padEnd(10)} | ${cells[0].padEnd(40)} | ${cells[1]}`);
}

// 4. token counting -------------------------------------------------------------------------
console.log('\n4. token counting, 2 MB of one character vs 2 MB of real transcript text (same run)');
let prose = '';
for (const rel of files) for (const n of spanOf(rel)) for (const b of n.content) if (b.type === 'text') prose += b.text + '\n';
while (prose.length < 2_000_000) prose += prose;
prose = prose.slice(0, 2_000_000);
const run = 'a'.repeat(2_000_000);
meter.countText('warm up');
const time = (t) => {
  const s = performance.now();
  const n = meter.countText(t);
  return { ms: performance.now() - s, n };
};
const p = time(prose);
const r1 = time(run);
console.log(`   2 MB transcript text: ${p.ms.toFixed(0)} ms (${p.n} tokens); 2 MB of "a": ${r1.ms.toFixed(0)} ms (${r1.n} tokens); ratio ${(r1.ms / p.ms).toFixed(2)}x`);
const enc = req('gpt-tokenizer/encoding/o200k_base');
const s40 = performance.now();
enc.countTokens('a'.repeat(40_000));
console.log(`   baseline: the unsliced encoder on 40k characters of "a": ${(performance.now() - s40).toFixed(0)} ms (quadratic: 2 MB would take hours)`);
