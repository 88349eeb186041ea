#!/usr/bin/env node
// Harvest quality of `hive-mind mind import`, printed, never asserted.
//
// For each transcript under ../shared/data/transcripts (or DIR): import it with the built CLI into a
// fresh .mind, then compare the frames kept with the gold list bench/harvest-gold/<same path>.json
// (the lasting facts a person would keep, written from reading the transcript; see its README).
// A frame is correct when it matches a gold fact (holds all of its keys and none of its `not`
// patterns, each a case-insensitive regular expression); precision = correct frames / frames kept, recall = gold facts matched / gold facts.
// Targets: precision >= 0.8, recall >= 0.6 (over all files).
// Then the cost of the standing-memory rules the hooks run on each message (promptStanding on every
// user text, replyStanding on every assistant text of the same transcripts): the first call in a fresh
// process (what one hook pays) and the p50/p95 per message after it; printed, never asserted.
//
// Usage: node bench/harvest.mjs [DIR] [--show]   (--show prints every kept frame with its verdict)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cli, percentile, root } from './lib.mjs';

const dir = process.argv[2] && !process.argv[2].startsWith('--') ? resolve(process.argv[2]) : join(root, '..', 'shared', 'data', 'transcripts');
const show = process.argv.includes('--show');
const goldDir = join(root, 'bench', 'harvest-gold');
const { Mind } = await import(join(root, 'packages/mind/dist/index.js'));

const files = [];
const walk = (d) => {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.jsonl') || e.name.endsWith('.json')) files.push(p);
  }
};
walk(dir);
files.sort();

const matches = (content, fact) => fact.keys.every((k) => new RegExp(k, 'i').test(content)) && !(fact.not ?? []).some((k) => new RegExp(k, 'i').test(content));
const tmp = mkdtempSync(join(tmpdir(), 'hm-harvest-'));
let kept = 0;
let correct = 0;
let gold = 0;
let found = 0;
console.log('| transcript | gold facts | frames kept | correct | precision | recall |');
console.log('|---|---|---|---|---|---|');
for (const f of files) {
  const rel = relative(dir, f);
  const goldPath = join(goldDir, rel.replace(/\.jsonl?$/, '.json'));
  if (!existsSync(goldPath)) {
    console.log(`| ${rel} | (no gold list) | | | | |`);
    continue;
  }
  const facts = JSON.parse(readFileSync(goldPath, 'utf8'));
  const mindPath = join(tmp, rel.replace(/[\\/]/g, '_') + '.mind');
  execFileSync(process.execPath, [cli, 'mind', 'import', f, '--mind', mindPath, '--json'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HIVE_MIND_HOME: tmp } });
  const m = Mind.open(mindPath, { readonly: true });
  const frames = m.list({ limit: 100_000 });
  m.close();
  const ok = frames.filter((fr) => facts.some((fact) => matches(fr.content, fact)));
  const hit = facts.filter((fact) => frames.some((fr) => matches(fr.content, fact)));
  kept += frames.length;
  correct += ok.length;
  gold += facts.length;
  found += hit.length;
  const p = frames.length ? (ok.length / frames.length).toFixed(2) : '-';
  const r = facts.length ? (hit.length / facts.length).toFixed(2) : '-';
  console.log(`| ${rel} | ${facts.length} | ${frames.length} | ${ok.length} | ${p} | ${r} |`);
  if (show) for (const fr of frames) console.log(`    ${ok.includes(fr) ? '+' : '-'} [${fr.kind}] ${fr.content.slice(0, 160).replace(/\s+/g, ' ')}`);
}
rmSync(tmp, { recursive: true, force: true });
const P = kept ? correct / kept : 0;
const R = gold ? found / gold : 0;
console.log(`| overall | ${gold} | ${kept} | ${correct} | ${P.toFixed(2)} | ${R.toFixed(2)} |`);
console.log(`\ntargets: precision >= 0.8 ${P >= 0.8 ? 'met' : 'NOT met'}, recall >= 0.6 ${R >= 0.6 ? 'met' : 'NOT met'}`);

// the cost of the rules per message, on the same transcripts' texts
const { readTranscriptFile } = await import(join(root, 'packages/transcripts/dist/index.js'));
const { promptStanding, replyStanding } = await import(join(root, 'packages/mind/dist/index.js'));
const texts = { user: [], assistant: [] };
for (const f of files) {
  const t = await readTranscriptFile(f, { lenient: true });
  for (const e of t.log.events()) {
    if (e.type !== 'user/message' && e.type !== 'assistant/message') continue;
    const text = e.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n').trim();
    if (text) texts[e.type === 'user/message' ? 'user' : 'assistant'].push(text);
  }
}
const first = JSON.parse(
  execFileSync(process.execPath, ['--input-type=module', '-e', `
    const s = await import(${JSON.stringify(pathToFileURL(join(root, 'packages/mind/dist/harvest/standing.js')).href)});
    let t = performance.now(); s.promptStanding('From now on, always use pnpm in this repo, never npm.'); const p = performance.now() - t;
    t = performance.now(); s.replyStanding('The staging API is served at https://staging.example.com:8443.'); const r = performance.now() - t;
    console.log(JSON.stringify({ p, r }));`], { encoding: 'utf8' }),
);
const per = (fn, list) => list.map((x) => { const t = performance.now(); fn(x); return performance.now() - t; });
const up = per(promptStanding, texts.user);
const ar = per(replyStanding, texts.assistant);
console.log(`\nrules' cost: first call in a fresh process ${first.p.toFixed(1)} ms (prompt), ${first.r.toFixed(1)} ms (reply after it); then per message ` +
  `promptStanding p50 ${percentile(up, 50).toFixed(2)} / p95 ${percentile(up, 95).toFixed(2)} ms over ${up.length} user texts, ` +
  `replyStanding p50 ${percentile(ar, 50).toFixed(2)} / p95 ${percentile(ar, 95).toFixed(2)} ms over ${ar.length} assistant texts`);
