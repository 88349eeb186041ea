#!/usr/bin/env node
// Transcript import benchmark (issue #2): prints figures, asserts nothing.
//
//   npx tsc -b packages/transcripts packages/compaction && node bench/transcripts.mjs [--mb 300] [--runs 5]
//
// 1. pi/before-compaction.jsonl (2.4 MB): import MB/s (readTranscriptFile: stream, parse,
//    build the session log, repair pairing) against the same run's baseline: reading the
//    file and JSON.parse of every line, nothing kept. Median of --runs after one warm-up.
// 2. TokenMeter (o200k_base, exact) tokens/s over every message event of that log, with a
//    fresh meter (no cache), after the tokenizer is loaded (its load time is printed apart).
// 3. Peak RSS (process.resourceUsage().maxRSS) of a child process importing a generated
//    pi session of --mb MB (default 300) written to os.tmpdir() and deleted afterwards,
//    against a child that only streams and JSON.parses the same file.
import { spawnSync } from 'node:child_process';
import { createWriteStream, readFileSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = (pkg) => pathToFileURL(join(root, 'packages', pkg, 'dist', 'index.js')).href;
const { readTranscriptFile } = await import(dist('transcripts')).catch(() => {
  console.error('bench: build first: npx tsc -b packages/transcripts packages/compaction');
  process.exit(2);
});
const { TokenMeter } = await import(dist('compaction'));
const { isMessageEvent } = await import(dist('session'));

const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const RUNS = arg('runs', 5);
const TARGET_MB = arg('mb', 300);
const PI = join(root, '..', 'shared', 'data', 'transcripts', 'pi', 'before-compaction.jsonl');
const size = statSync(PI).size;
const MB = size / 1e6;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(fn) {
  await fn();
  const ms = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

function baseline() {
  const text = readFileSync(PI, 'utf8');
  let n = 0;
  for (const line of text.split('\n')) if (line.trim()) n += JSON.parse(line) ? 1 : 0;
  return n;
}

const rows = [];
const importMs = await time(() => readTranscriptFile(PI));
const baseMs = await time(async () => baseline());
rows.push(['import pi 2.4 MB (readTranscriptFile)', `${(MB / (importMs / 1000)).toFixed(1)} MB/s`, `${importMs.toFixed(1)} ms`]);
rows.push(['baseline: read + JSON.parse every line', `${(MB / (baseMs / 1000)).toFixed(1)} MB/s`, `${baseMs.toFixed(1)} ms`]);
rows.push(['ratio import / baseline (time)', `${(importMs / baseMs).toFixed(2)}x`, '']);

const t = await readTranscriptFile(PI);
const events = t.log.events().filter(isMessageEvent);
let t0 = performance.now();
new TokenMeter().countText('warm up the tokenizer');
const loadMs = performance.now() - t0;
const meterMs = await time(async () => {
  const m = new TokenMeter();
  m.countEvents(events);
});
const tokens = new TokenMeter().countEvents(events);
rows.push(['TokenMeter o200k load (first use)', '', `${loadMs.toFixed(0)} ms`]);
rows.push([`TokenMeter exact, ${events.length} message events`, `${Math.round(tokens / (meterMs / 1000)).toLocaleString('en-US')} tokens/s`, `${meterMs.toFixed(1)} ms for ${tokens.toLocaleString('en-US')} tokens`]);
t0 = performance.now();
const est = new TokenMeter({ mode: 'estimate' });
est.countEvents(events);
const estMs = performance.now() - t0;
rows.push(['TokenMeter estimate mode (chars/4)', `${Math.round(tokens / (estMs / 1000)).toLocaleString('en-US')} tokens/s`, `${estMs.toFixed(1)} ms`]);

// ---- 300 MB generated session, imported in a child process
const big = join(tmpdir(), `hive-mind-bench-${process.pid}.jsonl`);
try {
  const lines = readFileSync(PI, 'utf8').split('\n').filter((l) => l.trim());
  const header = lines[0];
  const body = lines.slice(1).filter((l) => !l.startsWith('{"type":"compaction"'));
  const out = createWriteStream(big);
  out.write(header + '\n');
  let written = header.length + 1;
  let cycle = 0;
  while (written < TARGET_MB * 1e6) {
    cycle++;
    for (const l of body) {
      // unique tool-call ids per cycle, as in one long session
      const s = l.replaceAll('"toolu_', `"toolu_c${cycle}_`) + '\n';
      written += Buffer.byteLength(s);
      if (!out.write(s)) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  const bigMB = statSync(big).size / 1e6;
  const child = (code) => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code, big], { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  const imp = child(`
    const { readTranscriptFile } = await import(${JSON.stringify(dist('transcripts'))});
    const t0 = performance.now();
    const t = await readTranscriptFile(process.argv[1]);
    const ms = performance.now() - t0;
    console.log(JSON.stringify({ ms, events: t.log.size, maxRSS: process.resourceUsage().maxRSS, heap: process.memoryUsage().heapUsed }));
  `);
  const base = child(`
    import { createReadStream } from 'node:fs';
    import { createInterface } from 'node:readline';
    const t0 = performance.now();
    let n = 0;
    for await (const line of createInterface({ input: createReadStream(process.argv[1]), crlfDelay: Infinity })) if (line) { JSON.parse(line); n++; }
    console.log(JSON.stringify({ ms: performance.now() - t0, events: n, maxRSS: process.resourceUsage().maxRSS }));
  `);
  rows.push([`import generated ${bigMB.toFixed(0)} MB pi session (child)`, `${(bigMB / (imp.ms / 1000)).toFixed(1)} MB/s`, `${imp.events.toLocaleString('en-US')} events, peak RSS ${(imp.maxRSS / 1024).toFixed(0)} MB, heap ${(imp.heap / 2 ** 20).toFixed(0)} MB`]);
  rows.push([`baseline: readline + JSON.parse, nothing kept (child)`, `${(bigMB / (base.ms / 1000)).toFixed(1)} MB/s`, `peak RSS ${(base.maxRSS / 1024).toFixed(0)} MB`]);
  rows.push(['peak RSS / file size (import)', `${(imp.maxRSS / 1024 / bigMB).toFixed(2)}x`, `baseline ${(base.maxRSS / 1024 / bigMB).toFixed(2)}x`]);
} finally {
  rmSync(big, { force: true });
}

const w = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
console.log(`transcripts bench (node ${process.version}, ${RUNS} runs, median)`);
for (const r of rows) console.log(`  ${r[0].padEnd(w[0])}  ${r[1].padStart(w[1])}  ${r[2]}`);
