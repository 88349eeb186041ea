#!/usr/bin/env node
// LoCoMo evidence recall (Maharana et al., ACL 2024), printed, never asserted.
//
// One frame per dialog turn (`${speaker}: ${text} ${blip_caption}`), saved in conversation order
// with the turn's session date as createdAt, the LoCoMo session as sessionId and the dia_id as
// turnId (so the turn's neighbours are known to the mind). For each question of categories 1-4
// (5, adversarial, has no evidence): the share of its evidence dia_ids among the top k turns.
//
//   A. Mind.search(question) with the raw question, k = 5 and k = 10;
//   B. Mind.recall({query: question, budgetTokens: 1000}) with the o200k tokenizer: evidence found
//      in the frames recall injects (however many fit);
//   C. baseline in the same run: a plain SQLite FTS5 table (porter unicode61), one row per turn,
//      the question's words minus a short English stop list OR'ed, ordered by bm25.
//
// Usage: node bench/locomo.mjs DIR [--k 10]     (DIR: folder of LoCoMo conversation JSON files,
// e.g. ../shared/data/locomo-dev). Needs a build (`npm run build`).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { arg, root } from './lib.mjs';

const dir = process.argv[2] && !process.argv[2].startsWith('--') ? resolve(process.argv[2]) : join(root, '..', 'shared', 'data', 'locomo-dev');
const K = arg('--k', 10);
const { Mind } = await import(join(root, 'packages/mind/dist/index.js'));
const { TokenMeter } = await import(join(root, 'packages/compaction/dist/tokens.js'));
const Database = createRequire(join(root, 'packages/mind/package.json'))('better-sqlite3');
const meter = new TokenMeter();

// the baseline's stop list: short, English, as the data README describes it
const BASE_STOP = new Set('a an the is are was were be been being do does did have has had what when where who whom which why how i you he she it we they me him her us them my your his its our their of in on at to for with from by about as into than then that this these those and or but not no yes did will would can could should shall may might must so if there here'.split(' '));

function parseDate(s) {
  // "1:56 pm on 8 May, 2023"
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})/i.exec(s ?? '');
  if (!m) return undefined;
  let h = Number(m[1]) % 12;
  if (m[3].toLowerCase() === 'pm') h += 12;
  const d = new Date(`${m[5]} ${m[4]}, ${m[6]} ${String(h).padStart(2, '0')}:${m[2]}:00 UTC`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

function turnsOf(conv) {
  const c = conv.conversation ?? conv;
  const out = [];
  const sessions = Object.keys(c).filter((k) => /^session_\d+$/.test(k) && Array.isArray(c[k])).sort((a, b) => Number(a.split('_')[1]) - Number(b.split('_')[1]));
  for (const s of sessions) {
    const t0 = parseDate(c[`${s}_date_time`]) ?? new Date('2023-01-01T00:00:00Z');
    c[s].forEach((t, i) => {
      const text = `${t.speaker}: ${t.text}${t.blip_caption ? ` ${t.blip_caption}` : ''}`;
      out.push({ id: t.dia_id, session: s, text, createdAt: new Date(t0.getTime() + i * 30_000).toISOString() });
    });
  }
  return out;
}

const cats = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };
const score = () => ({ n: 0, r5: 0, r10: 0, rk: 0, rr: 0, rrTokens: 0 });
const tot = { mind: score(), base: score() };
const per = {};
for (const c of Object.keys(cats)) per[c] = { mind: score(), base: score() };
const share = (ev, got) => ev.filter((e) => got.includes(e)).length / ev.length;

const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
const perConv = {};
const tmp = mkdtempSync(join(tmpdir(), 'hm-locomo-'));
let nTurns = 0;
let searchMs = 0;
let nQ = 0;
for (const f of files) {
  const conv = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  const turns = turnsOf(conv);
  nTurns += turns.length;
  const mind = Mind.open(join(tmp, `${f}.mind`), { meter, now: () => new Date('2024-01-01T00:00:00Z') });
  const idOf = new Map();
  const rs = mind.saveMany(turns.map((t) => ({ content: t.text, kind: 'fact', source: 'import', host: 'locomo', sessionId: `${f}:${t.session}`, turnId: t.id, createdAt: t.createdAt })));
  rs.forEach((r, i) => idOf.set(r.id, turns[i].id));
  const base = new Database(':memory:');
  base.exec("CREATE VIRTUAL TABLE t USING fts5(dia, text, tokenize = 'porter unicode61')");
  const ins = base.prepare('INSERT INTO t (dia, text) VALUES (?, ?)');
  for (const t of turns) ins.run(t.id, t.text);
  const q = base.prepare('SELECT dia FROM t WHERE t MATCH ? ORDER BY bm25(t, 0, 1) LIMIT ?');
  const conv10 = (perConv[f] = { n: 0, mind: 0, base: 0 });
  for (const qa of conv.qa) {
    if (!cats[qa.category] || !qa.evidence?.length) continue;
    const ev = qa.evidence.map(String);
    const t0 = performance.now();
    let hits = [];
    try {
      hits = mind.search(qa.question, { limit: Math.max(K, 10) }).map((h) => idOf.get(h.id));
    } catch (e) {
      if (e.code !== 'EMPTY_QUERY') throw e;
    }
    searchMs += performance.now() - t0;
    nQ++;
    let rec = { frames: [], tokens: 0 };
    try {
      rec = mind.recall({ query: qa.question, budgetTokens: 1000 });
    } catch (e) {
      if (e.code !== 'EMPTY_QUERY') throw e;
    }
    const recIds = rec.frames.map((fr) => idOf.get(fr.id));
    const words = [...new Set((qa.question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !BASE_STOP.has(w)))];
    const bhits = words.length ? q.all(words.map((w) => `"${w}"`).join(' OR '), Math.max(K, 10)).map((r) => r.dia) : [];
    conv10.n++;
    conv10.mind += share(ev, hits.slice(0, 10));
    conv10.base += share(ev, bhits.slice(0, 10));
    for (const [name, got] of [['mind', hits], ['base', bhits]]) {
      for (const s of [tot[name], per[qa.category][name]]) {
        s.n++;
        s.r5 += share(ev, got.slice(0, 5));
        s.r10 += share(ev, got.slice(0, 10));
        s.rk += share(ev, got.slice(0, K));
        if (name === 'mind') {
          s.rr += share(ev, recIds);
          s.rrTokens += rec.tokens;
        }
      }
    }
  }
  mind.close();
  base.close();
}
rmSync(tmp, { recursive: true, force: true });

const f3 = (x) => x.toFixed(3);
console.log(`LoCoMo evidence recall: ${files.length} conversations (${files.join(', ')}), ${nTurns} turns, ${tot.mind.n} questions (categories 1-4)`);
console.log(`Mind.search mean ${(searchMs / nQ).toFixed(2)} ms per question\n`);
const kcol = K !== 10 && K !== 5 ? ` | @${K} mind | @${K} FTS5` : '';
console.log(`| category | n | search @5 | search @10 | recall 1000 tok | FTS5 BM25 OR @5 | FTS5 BM25 OR @10${kcol} |`);
console.log(`|---|---|---|---|---|---|---|${kcol ? '---|---|' : ''}`);
const row = (label, s) => {
  const m = s.mind;
  const b = s.base;
  const extra = kcol ? ` | ${f3(m.rk / m.n)} | ${f3(b.rk / b.n)}` : '';
  console.log(`| ${label} | ${m.n} | ${f3(m.r5 / m.n)} | ${f3(m.r10 / m.n)} | ${f3(m.rr / m.n)} (${Math.round(m.rrTokens / m.n)} tok) | ${f3(b.r5 / b.n)} | ${f3(b.r10 / b.n)}${extra} |`);
};
for (const [c, name] of Object.entries(cats)) row(`${c} ${name}`, per[c]);
row('overall', tot);
console.log(`\nper conversation, search @10 (FTS5 BM25 OR @10): ${Object.entries(perConv).map(([f, c]) => `${f} ${f3(c.mind / c.n)} (${f3(c.base / c.n)})`).join(', ')}`);
console.log(`\ntarget: search recall@10 >= 0.75 with the raw question: ${tot.mind.r10 / tot.mind.n >= 0.75 ? 'met' : 'NOT met'} (${f3(tot.mind.r10 / tot.mind.n)})`);
