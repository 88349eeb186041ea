#!/usr/bin/env node
// What a checkpoint says the tool calls found, and what it says to do next (printed, never
// asserted). Needs a build: npm run build
//   node bench/checkpoint-findings.mjs
//
// Probe files under bench/probes/findings/ were written from reading each transcript's span
// (tool call/result pairs and the last request) before looking at any checkpoint of it: a
// `finding` probe is a fact one tool call established (the test count, the file:line a grep
// found, the value a read showed), a `next` probe what the resuming agent should do next. A
// probe is kept when each of its `keep` groups has one substring in the text (the section it
// names, else the whole checkpoint; case-insensitive, whitespace and backticks ignored) and
// none of its `absent` substrings occurs there. One compaction per file with the CLI's
// defaults (`hive-mind compact FILE --budget N`: budget N, verbatim tail up to half of it).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BasicCompactionEngine, TokenMeter } from '../packages/compaction/dist/index.js';
import { readTranscriptFile } from '../packages/transcripts/dist/index.js';
import { blockText } from '../packages/session/dist/index.js';
import { cliRetainDefault } from '../packages/cli/dist/commands/compact.js';
import { root } from './lib.mjs';

const probeDir = join(root, 'bench/probes/findings/');
const norm = (s) => s.toLowerCase().replace(/[`*_]/g, '').replace(/\s+/g, ' ');

/** The text of `## heading` in a checkpoint body (to the next heading), or the whole text. */
function section(text, heading) {
  if (!heading) return text;
  const m = new RegExp(`^## ${heading}\\n([\\s\\S]*?)(?=^## |</compacted-summary>|$(?![\\s\\S]))`, 'm').exec(text);
  return m ? m[1] : '';
}

function kept(text, p) {
  const hay = norm(section(text, p.section));
  return p.keep.every((g) => g.some((s) => hay.includes(norm(s)))) && !(p.absent ?? []).some((s) => hay.includes(norm(s)));
}

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
console.log(`${pad('transcript', 44)}${lpad('budget', 8)}${lpad('before', 8)}${lpad('after', 8)}${lpad('ckpt', 6)}${lpad('findings', 10)}${lpad('next', 6)}  missed`);
let totF = 0, keptF = 0, totN = 0, keptN = 0;
for (const f of readdirSync(probeDir).filter((x) => x.endsWith('.json')).sort()) {
  const spec = JSON.parse(readFileSync(probeDir + f, 'utf8'));
  const path = spec.transcript.startsWith('packages/') ? join(root, spec.transcript) : join(root, '../shared/data/transcripts', spec.transcript);
  const t = await readTranscriptFile(path);
  const engine = new BasicCompactionEngine({ budget: spec.budget, retainTokens: cliRetainDefault(spec.budget, undefined), meter: new TokenMeter() });
  const r = await engine.compactIfNeeded(t.log);
  if (!r.compacted) {
    console.log(`${pad(spec.transcript, 44)}${lpad(spec.budget, 8)}${lpad(r.tokensBefore, 8)}  nothing compacted (${r.noopReason})`);
    continue;
  }
  const ck = r.summary.map((b) => blockText(b)).join('\n');
  const fs = spec.probes.filter((p) => p.kind === 'finding');
  const ns = spec.probes.filter((p) => p.kind === 'next');
  const kf = fs.filter((p) => kept(ck, p));
  const kn = ns.filter((p) => kept(ck, p));
  totF += fs.length; keptF += kf.length; totN += ns.length; keptN += kn.length;
  const missed = spec.probes.filter((p) => !kept(ck, p)).map((p) => p.id).join(', ') || '-';
  console.log(`${pad(spec.transcript.replace(/^packages\/compaction\/test\/fixtures\//, 'fixtures/'), 44)}${lpad(spec.budget, 8)}${lpad(r.tokensBefore, 8)}${lpad(r.tokensAfter, 8)}${lpad(r.summaryTokens, 6)}${lpad(`${kf.length}/${fs.length}`, 10)}${lpad(`${kn.length}/${ns.length}`, 6)}  ${missed}`);
  if (process.argv.includes('--show')) console.log(section(ck, 'Findings') + '\n--- next: ' + section(ck, 'Next step').trim() + '\n');
}
console.log(`\nall: findings ${keptF}/${totF}, next step ${keptN}/${totN}`);
