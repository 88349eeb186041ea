#!/usr/bin/env node
// Benchmark of secret redaction on the hook path (packages/mind/src/safety/redact.ts), printed, never asserted.
//
// 1. Load cost, as whole processes: `node -e 0` (the floor), importing the context rules alone is not
//    separable, so the comparison is node start vs `import('@hive-mind/mind/redact')` (the context rules,
//    the maintained preset and the entropy rule), interleaved, p50/p95 of RUNS each.
// 2. In-process time of redactSecrets on texts of a hook's sizes (a 200-character prompt, a 4 KB
//    assistant message, a 100 KB tool output, an env dump), p50/p95 per call, beside a baseline in the
//    same run: one pass of a single simple regex over the same text (what any redaction must at least cost).
// 3. redactJson on a Hermes post_llm_call payload grown to 1 MB of conversation history.
// 0. First, quality: precision and recall on the probe sets of bench/probes/redact.json (secrets in
//    the formats people paste, near misses that must stay unchanged; the main set, then the held-out
//    set written after the rules were fixed), with every miss, false positive and lost context named.
//    `--quality` prints only that part.
//
// Needs a build (`npm run build`). Usage: node bench/redact.mjs [--runs N] [--quality]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { percentile, arg, root } from './lib.mjs';
import { scoreRedaction } from './probes/redact.mjs';

const RUNS = arg('--runs', 20);
const redactUrl = pathToFileURL(join(root, 'packages/mind/dist/safety/redact.js')).href;
const { redactSecrets, redactJson, secretRuleSet } = await import(redactUrl);
const ms = (f) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};
const fmt = (xs) => `p50 ${percentile(xs, 50).toFixed(2)} ms, p95 ${percentile(xs, 95).toFixed(2)} ms`;

const set = secretRuleSet();
console.log(`rule set: ${set.name}@${set.version} (${set.rules.length} rules) + context rules + entropy`);

// 0. quality on the probe sets
const short = (s) => JSON.stringify(s.length > 160 ? `${s.slice(0, 157)}...` : s);
for (const set of ['main', 'held-out']) {
  const q = scoreRedaction((t) => redactSecrets(t).text, set);
  console.log(`probes (${set}): ${q.secrets} secrets, ${q.nearMisses} near misses`);
  console.log(`  precision ${q.precision.toFixed(3)} (${q.caught} caught, ${q.falsePositives.length} near misses changed); recall ${q.recall.toFixed(3)} (${q.caught}/${q.secrets}); context lost in ${q.lostContext.length}`);
  for (const m of q.missed) console.log(`  missed         ${m.id}: ${short(m.out)}`);
  for (const f of q.falsePositives) console.log(`  false positive ${f.id}: ${short(f.out)}`);
  for (const l of q.lostContext) console.log(`  context lost   ${l.id}: ${l.lost.map(short).join(', ')}`);
}
if (process.argv.includes('--quality')) process.exit(0);

// 1. process load
const bare = [];
const load = [];
for (let i = 0; i < RUNS; i++) {
  bare.push(ms(() => spawnSync(process.execPath, ['-e', '0'])));
  load.push(ms(() => spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(redactUrl)})`])));
}
console.log(`process: node -e 0 ${fmt(bare)}; + import redact ${fmt(load)}; extra p50 ${(percentile(load, 50) - percentile(bare, 50)).toFixed(1)} ms`);

// 2. per text size
const prose = readFileSync(join(root, 'packages/mind/README.md'), 'utf8');
const texts = {
  'prompt 200 chars': prose.slice(0, 200),
  'message 4 KB': prose.slice(0, 4096),
  'tool output 100 KB': prose.repeat(Math.ceil(100_000 / prose.length)).slice(0, 100_000),
  'env dump 60 lines': Array.from({ length: 60 }, (_, i) => `VAR_${i}=${i % 3 ? '/usr/local/bin:/usr/bin' : 'x' + (i * 7919).toString(36).repeat(4)}`).join('\n'),
};
for (const [name, text] of Object.entries(texts)) {
  const n = text.length > 50_000 ? 30 : 300;
  const base = [];
  const red = [];
  for (let i = 0; i < n; i++) {
    base.push(ms(() => text.replace(/\bAKIA[0-9A-Z]{16}\b/g, '[x]')));
    red.push(ms(() => redactSecrets(text)));
  }
  console.log(`${name.padEnd(20)} redactSecrets ${fmt(red)}   one-regex baseline ${fmt(base)}   ratio p50 ${(percentile(red, 50) / Math.max(percentile(base, 50), 1e-3)).toFixed(1)}x`);
}

// 3. a large hook payload
const hp = JSON.parse(readFileSync(join(root, 'packages/hooks/test/fixtures/hermes/post_llm_call.json'), 'utf8'));
const turn = { role: 'assistant', content: prose.slice(0, 2000) };
hp.extra.conversation_history = Array.from({ length: 500 }, () => turn);
const big = [];
for (let i = 0; i < 5; i++) big.push(ms(() => redactJson(hp)));
console.log(`redactJson Hermes payload ${(JSON.stringify(hp).length / 1e6).toFixed(2)} MB: ${fmt(big)}`);
