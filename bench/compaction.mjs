#!/usr/bin/env node
// Compaction figures (printed, never asserted). Needs a build: npx tsc -b packages/cli
//   node bench/compaction.mjs
// 1. pi sessions at budget 50000, extractive summarizer: tokens before/after, anchor recall, wall time.
// 2. Pressure check after appending one event to sessions of 1k/10k/100k events: cached running
//    total (engine.surfaceTokens) vs an uncached recount (fresh TokenMeter over the surface), same run.
// 3. pi's own first compaction in before-compaction.jsonl (entries before firstKeptEntryIndex 293):
//    our extractive summary vs the LLM summary pi stored, tokens and anchor recall of each.
// Tokens are o200k_base counts (gpt-tokenizer). Anchor recall = anchors found in the summary / anchors
// extracted from the span (last request, user instructions/corrections, modified files, errors,
// identifiers the retained tail mentions); "with reinsertion" counts what the engine re-inserts.
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { BasicCompactionEngine, ExtractiveSummarizer, TokenMeter, checkAnchors, extractAnchors, frameCheckpoint, reinsertAnchors } from '../packages/compaction/dist/index.js';
import { readTranscriptFile } from '../packages/transcripts/dist/index.js';
import { MemorySessionLog, isMessageEvent } from '../packages/session/dist/index.js';

const data = fileURLToPath(new URL('../../shared/data/transcripts/', import.meta.url));
const meter = new TokenMeter();
meter.countText('warm up the tokenizer');
const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)}%` : 'n/a');
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

// ---------------------------------------------------------------- 1
console.log('\n## 1. hive-mind compaction of real pi sessions, budget 50000, extractive\n');
console.log(`${pad('file', 28)}${lpad('tokens before', 14)}${lpad('after', 8)}${lpad('shadowed', 10)}${lpad('checkpoint', 11)}${lpad('anchors', 9)}${lpad('kept', 6)}${lpad('reins.', 7)}${lpad('recall', 8)}${lpad('read ms', 9)}${lpad('compact ms', 11)}`);
for (const f of ['pi/before-compaction.jsonl', 'pi/large-session.jsonl']) {
  const t0 = performance.now();
  const t = await readTranscriptFile(data + f);
  const t1 = performance.now();
  const engine = new BasicCompactionEngine({ budget: 50000, meter: new TokenMeter() });
  const r = await engine.compactIfNeeded(t.log);
  const t2 = performance.now();
  const a = r.anchors;
  console.log(
    `${pad(f, 28)}${lpad(r.tokensBefore, 14)}${lpad(r.tokensAfter, 8)}${lpad(r.shadowedSeqs.length, 10)}${lpad(r.summaryTokens, 11)}${lpad(a.total, 9)}${lpad(a.kept, 6)}${lpad(a.reinserted, 7)}${lpad(pct(a.kept + a.reinserted, a.total), 8)}${lpad((t1 - t0).toFixed(0), 9)}${lpad((t2 - t1).toFixed(0), 11)}`,
  );
}
console.log('(recall counts anchors kept by the summary plus those re-inserted under "Preserved details"; compact ms includes the first exact count of the surface)');

// ---------------------------------------------------------------- 2
console.log('\n## 2. Pressure check after appending one event (median of 15 appends)\n');
function buildLog(n) {
  const log = new MemorySessionLog(`bench-${n}`);
  let call = 0;
  const batch = [];
  for (let i = 0; i < n; i++) {
    const k = i % 4;
    if (k === 0) batch.push({ type: 'user/message', surfaceOp: 'append', content: [{ type: 'text', text: `Please look at module ${i} and fix the failing check in src/mod_${i}.ts.` }] });
    else if (k === 1) batch.push({ type: 'assistant/message', surfaceOp: 'append', content: [{ type: 'tool-call', id: `c${++call}`, name: 'Read', input: { file_path: `/repo/src/mod_${i}.ts` } }] });
    else if (k === 2) batch.push({ type: 'tool/result', surfaceOp: 'append', content: [{ type: 'tool-result', callId: `c${call}`, isError: false, content: [{ type: 'text', text: `export function f${i}(x: number) {\n  return x * ${i} + ${i % 7};\n}\n// line ${i}` }] }] });
    else batch.push({ type: 'assistant/message', surfaceOp: 'append', content: [{ type: 'text', text: `Module ${i} returns the wrong constant; I changed it to ${i % 7} and the check passes.` }] });
    if (batch.length >= 1000) log.append(batch.splice(0));
  }
  if (batch.length) log.append(batch);
  return log;
}
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`${pad('events', 9)}${lpad('surface tokens', 15)}${lpad('cached check ms', 17)}${lpad('uncached recount ms', 21)}${lpad('ratio', 9)}`);
for (const n of [1_000, 10_000, 100_000]) {
  const log = buildLog(n);
  const engine = new BasicCompactionEngine({ budget: 1_000_000_000, meter: new TokenMeter() });
  engine.surfaceTokens(log); // first measure fills the per-event cache
  const cached = [];
  const uncached = [];
  let total = 0;
  for (let i = 0; i < 15; i++) {
    log.append({ type: 'user/message', surfaceOp: 'append', content: [{ type: 'text', text: `one more request number ${i}` }] });
    let s = performance.now();
    total = engine.surfaceTokens(log);
    cached.push(performance.now() - s);
    if (i < 3) {
      s = performance.now();
      const fresh = new TokenMeter().countEvents(log.surface());
      uncached.push(performance.now() - s);
      if (fresh !== total) throw new Error(`cached total ${total} != recount ${fresh}`);
    }
  }
  const c = median(cached);
  const u = median(uncached);
  console.log(`${pad(n, 9)}${lpad(total, 15)}${lpad(c.toFixed(3), 17)}${lpad(u.toFixed(1), 21)}${lpad(`${(u / c).toFixed(0)}x`, 9)}`);
}
console.log('(cached: BasicCompactionEngine.surfaceTokens, a running total plus per-seq cached counts; uncached: a fresh TokenMeter re-encoding the whole surface; both checked equal)');

// ---------------------------------------------------------------- 3
console.log("\n## 3. pi's first compaction in before-compaction.jsonl: extractive vs pi's stored LLM summary\n");
const file = data + 'pi/before-compaction.jsonl';
const lines = readFileSync(file, 'utf8').split('\n');
const piEntry = lines.map((l, i) => ({ l, i })).find(({ l }) => l.includes('"type":"compaction"'));
const piRec = JSON.parse(piEntry.l);
const first = piRec.firstKeptEntryIndex;
const t = await readTranscriptFile(file);
const msgs = t.log.events().filter(isMessageEvent).filter((e) => e.kind === undefined || e.kind === 'repair');
const idx = (e) => e.meta?.entryIndex;
const span = msgs.filter((e) => idx(e) < first);
const tail = msgs.filter((e) => idx(e) >= first && idx(e) < piEntry.i);
const spanTokens = meter.countEvents(span);
const anchors = extractAnchors(span, tail);
const kinds = {};
for (const a of anchors) kinds[a.kind] = (kinds[a.kind] ?? 0) + 1;
const piSummary = piRec.summary;
const piTokens = meter.countText(piSummary);
console.log(`span: entries 1..${first - 1} (${span.length} messages, ${spanTokens} tokens; pi recorded tokensBefore ${piRec.tokensBefore}); retained tail before pi's compaction entry: ${tail.length} messages`);
console.log(`anchors extracted: ${anchors.length} (${Object.entries(kinds).map(([k, v]) => `${k} ${v}`).join(', ')})\n`);
const rows = [];
const piCheck = checkAnchors(piSummary, anchors);
rows.push(['pi LLM summary (stored in the file)', piTokens, piCheck.kept.length, null]);
const ex = new ExtractiveSummarizer();
for (const max of [piTokens, 4096]) {
  const s0 = performance.now();
  const out = await ex.summarize({ span, tail, maxTokens: max, meter });
  const ms = performance.now() - s0;
  const k = checkAnchors(out.text, anchors);
  rows.push([`extractive, maxTokens ${max}`, meter.countText(out.text), k.kept.length, ms]);
  const re = reinsertAnchors(out.text, k.missing, max + 1024, meter);
  rows.push([`  + engine re-insertion (<= ${max + 1024})`, meter.countText(re.body), k.kept.length + re.reinserted.length, null]);
}
const reP = reinsertAnchors(piSummary, piCheck.missing, piTokens + 1024, meter);
rows.push([`pi summary + engine re-insertion (<= ${piTokens + 1024})`, meter.countText(reP.body), piCheck.kept.length + reP.reinserted.length, null]);
console.log(`${pad('summary', 48)}${lpad('tokens', 8)}${lpad('anchors kept', 14)}${lpad('recall', 9)}${lpad('ms', 8)}`);
for (const [name, tok, kept, ms] of rows) console.log(`${pad(name, 48)}${lpad(tok, 8)}${lpad(`${kept}/${anchors.length}`, 14)}${lpad(pct(kept, anchors.length), 9)}${lpad(ms === null ? '' : ms.toFixed(0), 8)}`);
const byKind = (sum) => {
  const k = checkAnchors(sum, anchors).kept;
  return Object.keys(kinds).map((kind) => `${kind} ${k.filter((a) => a.kind === kind).length}/${kinds[kind]}`).join(', ');
};
const exText = (await ex.summarize({ span, tail, maxTokens: piTokens, meter })).text;
console.log(`\nby kind, pi:         ${byKind(piSummary)}`);
console.log(`by kind, extractive: ${byKind(exText)}  (same token size as pi's)`);
console.log(`framed checkpoint overhead: ${meter.countText(frameCheckpoint('')) } tokens`);
