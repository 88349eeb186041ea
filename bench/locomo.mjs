#!/usr/bin/env node
// LoCoMo evidence recall (Maharana et al., ACL 2024), printed, never asserted.
//
// One turn per dialog turn (`${speaker}: ${text} ${blip_caption}`), in conversation order, with the
// turn's session date (+ 30 s per turn) as its time and the LoCoMo session as its session, stored two
// ways in the same run: by hand (Mind.saveMany, speaker A's turns as prompts, B's as replies) and
// through the hook runner (A's turns as Claude Code UserPromptSubmit prompts, B's as the Stop reply,
// one host session per LoCoMo session: what a real host's hooks store). For each question of
// categories 1-4 (5, adversarial, has no evidence): the share of its evidence dia_ids among the top k.
//
//   A. Mind.search(question) with the raw question, k = 5 and k = 10;
//   B. Mind.recall({query: question, budgetTokens: 1000}) with the o200k tokenizer: evidence found
//      in the frames recall injects (however many fit);
//   C. baseline in the same run: a plain SQLite FTS5 table (porter unicode61), one row per turn,
//      the question's words minus a short English stop list OR'ed, ordered by bm25.
//
// Usage: node bench/locomo.mjs DIR [--k 10] [--hooks-only] [--keep DIR2]   (DIR: folder of LoCoMo
// conversation JSON files, e.g. ../shared/data/locomo-dev; --keep: the hook-filled minds stay in DIR2
// and a later run with it searches them without filling again). Needs a build (`npm run build`).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { arg, root, parseLocomoDate } from './lib.mjs';
import { existsSync } from 'node:fs';

const argStr = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);

const dir = process.argv[2] && !process.argv[2].startsWith('--') ? resolve(process.argv[2]) : join(root, '..', 'shared', 'data', 'locomo-dev');
const K = arg('--k', 10);
const { Mind } = await import(join(root, 'packages/mind/dist/index.js'));
const { TokenMeter } = await import(join(root, 'packages/compaction/dist/tokens.js'));
const Database = createRequire(join(root, 'packages/mind/package.json'))('better-sqlite3');
const meter = new TokenMeter();

// the baseline's stop list: short, English, as the data README describes it
const BASE_STOP = new Set('a an the is are was were be been being do does did have has had what when where who whom which why how i you he she it we they me him her us them my your his its our their of in on at to for with from by about as into than then that this these those and or but not no yes did will would can could should shall may might must so if there here'.split(' '));

function turnsOf(conv) {
  const c = conv.conversation ?? conv;
  const out = [];
  const sessions = Object.keys(c).filter((k) => /^session_\d+$/.test(k) && Array.isArray(c[k])).sort((a, b) => Number(a.split('_')[1]) - Number(b.split('_')[1]));
  for (const s of sessions) {
    const t0 = parseLocomoDate(c[`${s}_date_time`]) ?? new Date('2023-01-01T00:00:00Z');
    c[s].forEach((t, i) => {
      const text = `${t.speaker}: ${t.text}${t.blip_caption ? ` ${t.blip_caption}` : ''}`;
      out.push({ id: t.dia_id, session: s, speaker: t.speaker, text, createdAt: new Date(t0.getTime() + i * 30_000).toISOString() });
    });
  }
  return out;
}

const cats = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };
const score = () => ({ n: 0, r5: 0, r10: 0, rk: 0, rr: 0, rrTokens: 0 });
const share = (ev, got) => ev.filter((e) => got.includes(e)).length / ev.length;
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
const tmp = mkdtempSync(join(tmpdir(), 'hm-locomo-'));
const { runHook } = await import(join(root, 'packages/hooks/dist/run.js'));
const { workspaceMindPath } = await import(join(root, 'packages/mind/dist/index.js'));
const { Readable } = await import('node:stream');

/**
 * The mind of conversation `f` stored by hand: one `Mind.saveMany` of the turns, speaker A's as
 * prompts and B's as replies, each with its LoCoMo session as sessionId and its dia_id as turn id.
 */
function handStored(f, conv, turns) {
  const mind = Mind.open(join(tmp, `${f}.mind`), { meter, now: () => new Date('2024-01-01T00:00:00Z') });
  const speakerA = (conv.conversation ?? conv).speaker_a;
  const rs = mind.saveMany(turns.map((t) => ({ content: t.text, kind: t.speaker === speakerA ? 'prompt' : 'reply', source: 'import', host: 'locomo', sessionId: `${f}:${t.session}`, turnId: t.id, createdAt: t.createdAt })));
  const idOf = new Map();
  rs.forEach((r, i) => idOf.set(r.id, turns[i].id));
  return { mind, idOf, hooks: 0 };
}

/**
 * The mind of conversation `f` filled by the hook runner (in-process, the same code the host runs):
 * one Claude Code session per LoCoMo session, speaker A's turns as UserPromptSubmit prompts (each
 * with its per-prompt recall), speaker B's as the Stop reply of the prompt before, each hook run at
 * the turn's time; then what the hooks stored is searched. Turns are mapped back to dia_ids by
 * their session and text.
 */
async function throughHooks(f, conv, turns) {
  const keep = argStr('--keep');
  const home = join(keep ?? tmp, `${f}-home`);
  const project = join(keep ?? tmp, `${f}-project`);
  // --keep DIR: the minds the hooks filled stay in DIR, and a later run with the same DIR searches them again
  const filled = keep && existsSync(join(home, 'workspaces'));
  mkdirSync(join(project, '.git'), { recursive: true });
  const env = { ...process.env, HIVE_MIND_HOME: home };
  const speakerA = (conv.conversation ?? conv).speaker_a;
  const sessionOf = (t) => `locomo-${f.replace(/\W/g, '')}-${t.session}`;
  let promptId = '';
  let hooks = 0;
  const byKey = new Map();
  for (const t of turns) {
    const key = `${sessionOf(t)}\u0000${t.text.replace(/\s+/g, ' ').trim()}`;
    byKey.set(key, [...(byKey.get(key) ?? []), t.id]);
    if (filled) continue;
    const session_id = sessionOf(t);
    const base = { session_id, cwd: project, transcript_path: join(home, 'none.jsonl') };
    let event;
    let body;
    if (t.speaker === speakerA) {
      promptId = `${session_id}-${t.id}`;
      event = 'UserPromptSubmit';
      body = { ...base, hook_event_name: event, prompt_id: promptId, prompt: t.text };
    } else {
      event = 'Stop';
      body = { ...base, hook_event_name: event, prompt_id: promptId || `${session_id}-start`, stop_hook_active: false, last_assistant_message: t.text };
    }
    const r = await runHook(['claude-code', event], { stdin: Readable.from([JSON.stringify(body)]), env, now: () => new Date(t.createdAt), write: () => undefined });
    if (r.error) throw new Error(`${f} ${t.id} ${event}: ${r.error}`);
    hooks++;
  }
  const mind = Mind.open(workspaceMindPath(project, env), { meter, now: () => new Date('2024-01-01T00:00:00Z') });
  const idOf = new Map();
  for (const fr of mind.list({ limit: 100000, history: true })) {
    if (fr.kind !== 'prompt' && fr.kind !== 'reply') continue;
    const dias = byKey.get(`${fr.sessionId}\u0000${fr.content.replace(/\s+/g, ' ').trim()}`);
    if (dias?.length) idOf.set(fr.id, dias.shift());
  }
  return { mind, idOf, hooks };
}

/** Evidence recall of one way of storing the conversations: search @5/@10/@K, recall at 1,000 tokens, per category and conversation; plain FTS5 beside it. */
async function measure(store) {
  const tot = { mind: score(), base: score() };
  const per = {};
  for (const c of Object.keys(cats)) per[c] = { mind: score(), base: score() };
  const perConv = {};
  let nTurns = 0;
  let searchMs = 0;
  let nQ = 0;
  let frames = 0;
  let hooks = 0;
  for (const f of files) {
    const conv = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    const turns = turnsOf(conv);
    nTurns += turns.length;
    const { mind, idOf, hooks: h } = await store(f, conv, turns);
    hooks += h;
    frames += mind.stats().frames;
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
        hits = (process.env.HM_TURNS_ONLY ? mind.search(qa.question, { limit: 40 }).filter((h) => idOf.has(h.id)) : mind.search(qa.question, { limit: Math.max(K, 10) })).map((h) => idOf.get(h.id));
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
  return { tot, per, perConv, nTurns, searchMs, nQ, frames, hooks };
}

const f3 = (x) => x.toFixed(3);
const kcol = K !== 10 && K !== 5 ? ` | @${K} mind | @${K} FTS5` : '';
function report(title, r) {
  console.log(`\n## ${title}`);
  console.log(`${files.length} conversations (${files.join(', ')}), ${r.nTurns} turns, ${r.frames} frames stored${r.hooks ? ` by ${r.hooks} hook runs` : ''}, ${r.tot.mind.n} questions (categories 1-4); Mind.search mean ${(r.searchMs / r.nQ).toFixed(2)} ms per question\n`);
  console.log(`| category | n | search @5 | search @10 | recall 1000 tok | FTS5 BM25 OR @5 | FTS5 BM25 OR @10${kcol} |`);
  console.log(`|---|---|---|---|---|---|---|${kcol ? '---|---|' : ''}`);
  const row = (label, s) => {
    const m = s.mind;
    const b = s.base;
    const extra = kcol ? ` | ${f3(m.rk / m.n)} | ${f3(b.rk / b.n)}` : '';
    console.log(`| ${label} | ${m.n} | ${f3(m.r5 / m.n)} | ${f3(m.r10 / m.n)} | ${f3(m.rr / m.n)} (${Math.round(m.rrTokens / m.n)} tok) | ${f3(b.r5 / b.n)} | ${f3(b.r10 / b.n)}${extra} |`);
  };
  for (const [c, name] of Object.entries(cats)) row(`${c} ${name}`, r.per[c]);
  row('overall', r.tot);
  console.log(`\nper conversation, search @10 (FTS5 BM25 OR @10): ${Object.entries(r.perConv).map(([f, c]) => `${f} ${f3(c.mind / c.n)} (${f3(c.base / c.n)})`).join(', ')}`);
}

const only = process.argv.includes('--hooks-only');
console.log('LoCoMo evidence recall: the share of each question\'s evidence turns among the top k the mind returns for the raw question');
if (!only) report('stored by hand (Mind.saveMany, one turn frame per dialog turn)', await measure(handStored));
const viaHooks = await measure(throughHooks);
report('through the hooks (the hook runner: A as UserPromptSubmit, B as Stop, one Claude Code session per LoCoMo session)', viaHooks);
console.log(`\ntarget: recall@10 >= 0.78 through the turns the hooks store: ${viaHooks.tot.mind.r10 / viaHooks.tot.mind.n >= 0.78 ? 'met' : 'NOT met'} (${f3(viaHooks.tot.mind.r10 / viaHooks.tot.mind.n)})`);
rmSync(tmp, { recursive: true, force: true });
