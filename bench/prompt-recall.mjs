#!/usr/bin/env node
// The relevance floor of the per-prompt recall (UserPromptSubmit), measured on the probe set
// bench/probes/prompt-recall.json (written before any output was looked at). Printed, never asserted.
//
// For each rule: of the frames injected, the share that are relevant (precision); of the prompts
// that have a relevant frame, the share that got one (answered); of the prompts that have none,
// the share that still got an injection (noise). At most `--items` frames per prompt (default 3).
//
// With --vectors: the same probes and the cross-language ones (bench/probes/prompt-recall-xlang.json,
// German, Spanish and French prompts about the English frames) through Mind.promptHits with the
// embeddings plug-in, for several cosine floors, against a loopback /v1/embeddings server whose
// vectors come from a stand-in (test-support glossaryEmbedding: the probe file's glossary, the mind's
// stop words left out, then a hashed bag of words): NOT a model. Those rows say how the pipeline and
// the floor behave when translations land near each other; a real model's cosines differ, so calibrate
// HIVE_MIND_PROMPT_MIN_COSINE with --url URL --model NAME against your own endpoint.
//
// Usage: node bench/prompt-recall.mjs [--items 3] [--vectors [--url http://host/v1 --model NAME] [--dims 512]]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, importTs, root } from './lib.mjs';

const { Mind, analyzeQuery, TASK_WORDS, PROMPT_MIN_COSINE, STOP_WORDS } = await import(join(root, 'packages/mind/dist/index.js'));
const set = JSON.parse(readFileSync(join(root, 'bench/probes/prompt-recall.json'), 'utf8'));
const items = arg('--items', 3);
const tmp = mkdtempSync(join(tmpdir(), 'hm-prompt-'));
const m = Mind.open(join(tmp, 'probe.mind'));
const ids = set.frames.map((content) => m.save({ content }).id);
const db = m.database;
const N = set.frames.length;
const holds = db.prepare("SELECT rowid AS id FROM frames_fts WHERE frames_fts MATCH ?");
const quote = (w) => `"${w.replace(/"/g, '')}"`;

// words that say what to do, not what about: the shipped list (prompt-floor.ts), tried here as a rule ingredient
const GENERIC = TASK_WORDS;

/** Each candidate's share of the prompt's content words it holds (FTS porter match), plain and IDF-weighted. */
function shares(prompt, generic = false) {
  let hits;
  try {
    hits = m.search(prompt, { limit: 40 });
  } catch {
    return [];
  }
  const all = analyzeQuery(prompt).words;
  const words = generic ? all.filter((w) => !GENERIC.has(w)) : all;
  const sets = words.map((w) => new Set(holds.all(quote(w)).map((r) => r.id)));
  const idf = sets.map((s) => Math.log(1 + N / Math.max(1, s.size)));
  const total = idf.reduce((a, b) => a + b, 0) || 1;
  const out = hits.map((h) => {
    const held = sets.map((s) => s.has(h.id));
    return {
      bm25: -h.bm25,
      id: h.id,
      matched: h.matched,
      share: words.length ? held.filter(Boolean).length / words.length : 0,
      idfShare: words.length ? held.reduce((a, x, i) => a + (x ? idf[i] : 0), 0) / total : 0,
    };
  });
  const best = Math.max(0, ...out.map((c) => c.bm25));
  return out.map((c) => ({ ...c, relBm25: best ? c.bm25 / best : 0 }));
}

const rules = {
  'today: matched >= 0.5 (prefix match, every word)': [(c) => c.matched >= 0.5],
  'stemmed share >= 0.5': [(c) => c.share >= 0.5],
  'IDF-weighted share >= 0.5': [(c) => c.idfShare >= 0.5],
  'IDF-weighted share >= 0.6': [(c) => c.idfShare >= 0.6],
  'no task words, stemmed share >= 0.5': [(c) => c.share >= 0.5, true],
  'no task words, IDF-weighted share >= 0.4': [(c) => c.idfShare >= 0.4, true],
  'no task words, IDF-weighted share >= 0.5': [(c) => c.idfShare >= 0.5, true],
  'no task words, IDF share >= 0.5, BM25 >= 0.7 x best': [(c) => c.idfShare >= 0.5 && c.relBm25 >= 0.7, true],
  'no task words, share >= 0.5, BM25 >= 0.7 x best': [(c) => c.share >= 0.5 && c.relBm25 >= 0.7, true],
  'no task words, share >= 0.5, BM25 >= 0.5 x best': [(c) => c.share >= 0.5 && c.relBm25 >= 0.5, true],
};
// the rule as shipped, through Mind.recall as the UserPromptSubmit hook calls it
rules['shipped: Mind.recall({ promptFloor: true }) (prompt-floor.ts)'] = [null];

const shipped = (prompt) => {
  try {
    return m.recall({ query: prompt, budgetTokens: 300, promptFloor: true, itemChars: 300, maxPending: 0 }).frames.map((f) => f.id);
  } catch {
    return []; // a prompt with no searchable word
  }
};
console.log(`probe set: ${N} frames, ${set.probes.length} prompts (${set.probes.filter((p) => p.relevant.length).length} with a relevant frame); at most ${items} frames per prompt\n`);
console.log('| rule | frames injected | precision | answered | noise (prompts with nothing relevant that got an injection) |');
console.log('|---|---|---|---|---|');
for (const [name, [rule, generic]] of Object.entries(rules)) {
  let injected = 0, good = 0, answered = 0, noisy = 0;
  const withRel = set.probes.filter((p) => p.relevant.length).length;
  const without = set.probes.length - withRel;
  for (const p of set.probes) {
    const rel = new Set(p.relevant.map((i) => ids[i - 1]));
    const got = rule ? shares(p.prompt, generic).filter(rule).slice(0, items).map((c) => c.id) : shipped(p.prompt);
    injected += got.length;
    good += got.filter((id) => rel.has(id)).length;
    if (rel.size && got.some((id) => rel.has(id))) answered++;
    if (!rel.size && got.length) noisy++;
  }
  console.log(`| ${name} | ${injected} | ${injected ? (good / injected).toFixed(2) : '-'} | ${answered}/${withRel} (${(answered / withRel).toFixed(2)}) | ${noisy}/${without} (${(noisy / without).toFixed(2)}) |`);
}
m.close();

await history();
if (process.argv.includes('--vectors')) await vectors();
rmSync(tmp, { recursive: true, force: true });

/**
 * The evidence floor of the per-prompt recall over the history (Mind.promptEvidence, what the
 * UserPromptSubmit hook injects): (1) the probe frames as turns of sessions (each the user's words in
 * its own session, answered "Noted."), beside every turn of the shared coding transcripts (mind
 * import's history: their prompts and the agent's messages), so the probes compete with a real
 * history; (2) the probes with nothing relevant, against that history alone: what they still get is
 * listed, to read (a turn of the transcripts can be relevant to them).
 */
async function history() {
  const { historyTurnsOf, evidenceBudget } = await import(join(root, 'packages/mind/dist/index.js'));
  const { readTranscriptFile } = await import(join(root, 'packages/transcripts/dist/index.js'));
  const data = join(root, '..', 'shared', 'data', 'transcripts');
  const transcripts = ['claude-code/coverage-test-fix.jsonl', 'claude-code/python-to-rust-port.jsonl', 'pi/before-compaction.jsonl', 'pi/large-session.jsonl'];
  const build = async (withProbes) => {
    const hm = Mind.open(join(tmp, `history-${withProbes ? 'probes' : 'only'}.mind`));
    let turns = 0;
    for (const t of transcripts) {
      const tr = await readTranscriptFile(join(data, t), { lenient: true });
      const frames = historyTurnsOf(tr.log.events(), { host: tr.format, sessionId: t });
      turns += frames.length;
      for (let i = 0; i < frames.length; i += 200) hm.saveMany(frames.slice(i, i + 200));
    }
    const ids = [];
    if (withProbes)
      set.frames.forEach((content, i) => {
        const at = new Date(Date.UTC(2026, 0, 1, 9, i)).toISOString();
        ids.push(hm.save({ content, kind: 'prompt', importance: 'normal', source: 'user_stated', host: 'bench', sessionId: `probe-${i}`, turnId: 'p', createdAt: at }).id);
        hm.save({ content: 'Noted.', kind: 'reply', importance: 'normal', host: 'bench', sessionId: `probe-${i}`, turnId: 'p', createdAt: at.replace('00.000Z', '05.000Z') });
      });
    return { hm, ids, turns };
  };
  const { hm, ids: hids, turns } = await build(true);
  let injected = 0, good = 0, answered = 0, noisy = 0, tokens = [];
  const withRel = set.probes.filter((p) => p.relevant.length).length;
  const without = set.probes.length - withRel;
  const noise = [];
  for (const p of set.probes) {
    const rel = new Set(p.relevant.map((i) => hids[i - 1]));
    const items = hm.promptEvidence(p.prompt);
    const budget = evidenceBudget(Math.max(0, ...items.map((i) => i.strength)), 940);
    let used = 0;
    const shown = items.filter((i) => (used += Math.ceil(i.line.length / 4)) <= budget);
    const got = shown.flatMap((i) => i.ids);
    injected += shown.length;
    good += shown.filter((i) => i.ids.some((id) => rel.has(id))).length;
    if (rel.size && got.some((id) => rel.has(id))) answered++;
    if (!rel.size && shown.length) {
      noisy++;
      noise.push(`  "${p.prompt}" -> ${shown.map((i) => i.line.slice(0, 140)).join(' || ')}`);
    }
    if (shown.length) tokens.push(used);
  }
  hm.close();
  console.log(`\nhistory: the ${set.frames.length} probe frames as turns of their sessions beside ${turns} turns of ${transcripts.length} shared transcripts; Mind.promptEvidence within evidenceBudget (cap 940 tokens)\n`);
  console.log('| items injected | precision (items holding a relevant frame) | answered | noise | tokens when injected, p50 |');
  console.log('|---|---|---|---|---|');
  const p50 = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : 0);
  console.log(`| ${injected} | ${injected ? (good / injected).toFixed(2) : '-'} | ${answered}/${withRel} (${(answered / withRel).toFixed(2)}) | ${noisy}/${without} (${(noisy / without).toFixed(2)}) | ${p50(tokens)} |`);
  if (noise.length) console.log(`\nwhat the prompts with nothing relevant among the probe frames got (from the transcripts' history):\n${noise.join('\n')}`);
}

/** The vector side of the floor (Mind.promptHits with the prompt's vector), English and cross-language probes. */
async function vectors() {
  const xlang = JSON.parse(readFileSync(join(root, 'bench/probes/prompt-recall-xlang.json'), 'utf8'));
  const urlArg = process.argv.indexOf('--url');
  let server;
  let baseUrl;
  let model = 'embed-test';
  if (urlArg > 0) {
    baseUrl = process.argv[urlArg + 1];
    const mi = process.argv.indexOf('--model');
    if (mi < 0) throw new Error('--url needs --model NAME');
    model = process.argv[mi + 1];
  } else {
    const { startEmbeddingsServer, glossaryEmbedding } = await importTs(join(root, 'test-support/llm-servers.ts'));
    server = await startEmbeddingsServer({ dimensions: arg('--dims', 512), embed: glossaryEmbedding(xlang.glossary, STOP_WORDS) });
    baseUrl = `${server.url}/v1`;
  }
  const vm = Mind.open(join(tmp, 'vectors.mind'), { embeddings: { baseUrl, model } });
  const vids = set.frames.map((content) => vm.save({ content }).id);
  const rep = await vm.embedPending();
  if (rep.error) throw new Error(rep.error);
  const sets = [
    ['English (prompt-recall.json)', set.probes],
    ['cross-language (prompt-recall-xlang.json)', xlang.probes],
  ];
  const qv = new Map();
  for (const [, probes] of sets) for (const p of probes) if (!qv.has(p.prompt)) qv.set(p.prompt, (await vm.embedQuery(p.prompt, { backfill: 0 })).vector);
  const floors = [null, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7];
  console.log(`\nvector side: ${urlArg > 0 ? `${model} at ${baseUrl}` : `loopback stand-in (glossary, stop words dropped, hashed bag of words, ${arg('--dims', 512)} dimensions; not a model)`}; shipped floor PROMPT_MIN_COSINE ${PROMPT_MIN_COSINE}\n`);
  console.log('| probes | floor | frames injected | precision | answered | noise |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, probes] of sets) {
    for (const floor of floors) {
      let injected = 0, good = 0, answered = 0, noisy = 0;
      const withRel = probes.filter((p) => p.relevant.length).length;
      const without = probes.length - withRel;
      for (const p of probes) {
        const rel = new Set(p.relevant.map((i) => vids[i - 1]));
        const got = floor === null ? vm.promptHits(p.prompt).map((h) => h.id) : vm.promptHits(p.prompt, { queryVector: qv.get(p.prompt), minCosine: floor }).map((h) => h.id);
        injected += got.length;
        good += got.filter((id) => rel.has(id)).length;
        if (rel.size && got.some((id) => rel.has(id))) answered++;
        if (!rel.size && got.length) noisy++;
      }
      const label = floor === null ? 'offline (no vector)' : `cosine >= ${floor}${floor === PROMPT_MIN_COSINE ? ' (shipped)' : ''}`;
      console.log(`| ${name} | ${label} | ${injected} | ${injected ? (good / injected).toFixed(2) : '-'} | ${answered}/${withRel} (${(answered / withRel).toFixed(2)}) | ${noisy}/${without} (${(noisy / without).toFixed(2)}) |`);
    }
  }
  vm.close();
  await server?.close();
}
