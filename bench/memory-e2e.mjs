#!/usr/bin/env node
// What a session said comes back in the next one (issue 21), measured through the product's own
// path, printed, never asserted. Every conversation and session is lived through Claude Code's hook
// runner (`hive-mind hook claude-code EVENT` reading the stdin JSON Claude Code 2.1.332 sends; see
// memory-e2e/driver.mjs and replay.mjs), each in a fresh HIVE_MIND home with a fresh git project as cwd;
// then each question is asked in a NEW session (SessionStart, then UserPromptSubmit with the raw
// question), the home restored to the state the replay left before every question, and what the two
// hooks injected (their `additionalContext`) is scored.
//
//   (a) LoCoMo (../shared/data/locomo-dev): one host session per LoCoMo session, in order, with the
//       session's date as the clock (each turn 30 s after the previous); speaker A's turns are the
//       prompts, speaker B's the Stop replies (a session B opens starts with a Stop and no prompt; an
//       image is `[image: <caption>]` after the text). Questions of categories 1-4 asked the day after
//       the last session. *Evidence delivered*: the share of a question's evidence turns whose text is
//       in what the two hooks injected (score.mjs `turnIn`: the whole text as words, or sentences of 3+
//       words holding at least half of its words), overall, per category, per conversation; tokens
//       injected per question (o200k, gpt-tokenizer), p50 and p90. Targets: >= 0.70, p50 <= 2,000.
//       Beside it, in the same run: recall@10 of Mind.search over the turns the hooks stored (the
//       workspace mind the replay left, its turns mapped back to dia_ids by text; target >= 0.78) and
//       the hand-stored figure of bench/locomo.mjs (one prompt or reply frame per turn saved with its
//       session id, turn id and date).
//   (b) coding sessions: the shared transcripts of bench/probes/memory-e2e/transcripts (prompts as
//       UserPromptSubmit, each stop's final assistant message as Stop, a copy of the transcript as
//       transcript_path growing as the session did, SessionEnd at the end) and the hand-written sets
//       of bench/probes/memory-e2e/handwritten (English, German, Japanese; two sessions each); then
//       each question of the set in a new session. Delivered: every `must` group in the injection
//       (target >= 80% per set). Remarks made in passing: any `not` substring in a new session's
//       SessionStart, in a question's prompt recall, or in that of the unrelated prompts (target 0).
//   (c) SessionStart precision after (a) and (b): the items (list lines, notes entries) of a new
//       session's SessionStart that match the set's gold list (target >= 0.8); the others are printed.
//
// Usage: node bench/memory-e2e.mjs [--part a,b,c] [--locomo DIR] [--conv 26,30] [--questions N]
//          [--sets en,pi-large-session,...] [--processes] [--clock session|wall] [--show]
//   --questions N   at most N questions per LoCoMo conversation (a quick run)
//   --processes     hooks as child processes (`node packages/cli/bin/hive-mind.js hook claude-code EVENT`);
//                   their clock is the wall clock (nothing can set it); default: the in-process runner
//   --clock wall    in process, leave the clock alone (every event "now")
//   --show          print each (b) question's verdict with what was injected for it
// Needs a build (`npm run build`).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { arg, root, parseLocomoDate } from './lib.mjs';
import { freshUser, hookStats, setClock, snapshots } from './memory-e2e/driver.mjs';
import { ask, claudeCodePlan, piPlan, replay, turnsPlan } from './memory-e2e/replay.mjs';
import { delivered, foundAny, goldOf, injectionItems, norm, pct, turnIn, words } from './memory-e2e/score.mjs';

/** The share of `evidence` (dia ids) among the top 10 of `mind.search(question)`, frame ids mapped by `idOf`; 0 for a query of stop words only. */
function searchShare(mind, idOf, question, evidence) {
  let hits = [];
  try {
    hits = mind.search(question, { limit: 10 }).map((h) => idOf.get(h.id));
  } catch (e) {
    if (e.code !== 'EMPTY_QUERY') throw e;
  }
  return evidence.filter((e) => hits.includes(e)).length / evidence.length;
}

const flag = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const parts = new Set((flag('--part') ?? 'a,b,c').split(','));
const locomoDir = resolve(flag('--locomo') ?? join(root, '..', 'shared', 'data', 'locomo-dev'));
const convFilter = flag('--conv')?.split(',');
const maxQuestions = arg('--questions', Infinity);
const setFilter = flag('--sets')?.split(',');
const processes = process.argv.includes('--processes');
const clockMode = flag('--clock') ?? 'session';
const show = process.argv.includes('--show');
const probeDir = join(root, 'bench', 'probes', 'memory-e2e');
const dataDir = join(root, '..', 'shared', 'data', 'transcripts');
const DAY = 86_400_000;
const at = (d) => (clockMode === 'wall' || processes ? new Date() : d);

const { Mind, workspaceMindPath } = await import(join(root, 'packages/mind/dist/index.js'));
const { TokenMeter } = await import(join(root, 'packages/compaction/dist/tokens.js'));
const meter = new TokenMeter();
const tokens = (s) => (s ? meter.countText(s) : 0);
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');
const f3 = (x) => (Number.isFinite(x) ? x.toFixed(3) : '-');
const cut = (s, n = 160) => {
  const t = s.replace(/\s+/g, ' ');
  return t.length > n ? t.slice(0, n - 1) + '…' : t;
};

/** Frames the replay left, summed over the user's minds (workspace and personal): `{frames, byImportance}`. */
function mindCounts(user) {
  const out = { frames: 0, byImportance: {} };
  const paths = [];
  try {
    for (const f of readdirSync(join(user.home, 'workspaces'))) if (f.endsWith('.mind')) paths.push(join(user.home, 'workspaces', f));
  } catch {
    /* no workspace mind */
  }
  paths.push(join(user.home, 'personal.mind'));
  for (const p of paths) {
    let m;
    try {
      m = Mind.open(p, { readonly: true });
    } catch {
      continue;
    }
    try {
      const s = m.stats();
      out.frames += s.live ?? s.frames ?? 0;
      for (const [k, v] of Object.entries(s.byImportance ?? {})) out.byImportance[k] = (out.byImportance[k] ?? 0) + v;
    } finally {
      m.close();
    }
  }
  return out;
}
const countsLine = (c) => `${c.frames} live frames (${Object.entries(c.byImportance).filter(([, v]) => v).map(([k, v]) => `${k} ${v}`).join(', ')})`;

/** SessionStart results of every set, for (c): `{part, set, start, gold}`. */
const starts = [];

// ---------------------------------------------------------------- (a) LoCoMo


/**
 * The dia_id of each turn frame the hooks stored in `mind` (Map frame id -> dia_id): a prompt or
 * reply whose text is a LoCoMo turn's `said` text, the turns of the same text taken in their order.
 */
function storedTurnIds(mind, hand) {
  const key = (t) => t.replace(/\s+/g, ' ').trim();
  const byText = new Map();
  for (const t of hand) byText.set(key(t.said), [...(byText.get(key(t.said)) ?? []), t.id]);
  const out = new Map();
  const frames = mind.list({ limit: 100_000, history: true }).filter((fr) => fr.kind === 'prompt' || fr.kind === 'reply');
  for (const fr of frames.sort((a, b) => a.id - b.id)) {
    const dias = byText.get(key(fr.content));
    if (dias?.length) out.set(fr.id, dias.shift());
  }
  return out;
}

const CATS = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

async function partA() {
  const files = readdirSync(locomoDir)
    .filter((f) => f.endsWith('.json') && (!convFilter || convFilter.includes(f.replace(/\.json$/, ''))))
    .sort();
  const rows = [];
  const perCat = {};
  for (const c of Object.keys(CATS)) perCat[c] = { n: 0, ev: 0, whole: 0, hand: 0, hooks: 0 };
  const allTok = [];
  let unknownIds = 0;
  console.log(`\n## (a) LoCoMo through the hooks: ${files.join(', ')} (${locomoDir})\n`);
  for (const f of files) {
    const conv = JSON.parse(readFileSync(join(locomoDir, f), 'utf8'));
    const c = conv.conversation ?? conv;
    const user = freshUser(`locomo-${f}`);
    const sessions = Object.keys(c)
      .filter((k) => /^session_\d+$/.test(k) && Array.isArray(c[k]))
      .sort((x, y) => Number(x.split('_')[1]) - Number(y.split('_')[1]));
    const textOf = new Map();
    const hand = [];
    let last = new Date('2023-01-01T00:00:00Z');
    let nTurns = 0;
    const t0 = performance.now();
    const ev0 = hookStats.events;
    for (const s of sessions) {
      const d0 = parseLocomoDate(c[`${s}_date_time`]) ?? new Date(last.getTime() + DAY);
      const turns = [];
      c[s].forEach((t, i) => {
        const time = new Date(d0.getTime() + i * 30_000);
        const said = `${t.text}${t.blip_caption ? ` [image: ${t.blip_caption}]` : ''}`;
        textOf.set(t.dia_id, t.text);
        hand.push({ id: t.dia_id, session: s, speaker: t.speaker, said, text: `${t.speaker}: ${t.text}${t.blip_caption ? ` ${t.blip_caption}` : ''}`, createdAt: time.toISOString() });
        const prev = turns[turns.length - 1];
        if (t.speaker === c.speaker_a) turns.push({ prompt: said, time });
        else if (prev && prev.prompt !== undefined && prev.reply === undefined) prev.reply = said;
        else turns.push({ reply: said, time });
        last = time;
      });
      nTurns += c[s].length;
      const plan = turnsPlan(turns, { key: `${f}:${s}`, cwd: user.project, start: at(new Date(d0.getTime() - 60_000)), end: at(new Date(last.getTime() + 60_000)) });
      for (const st of plan.steps) st.time = at(st.time);
      await replay(user, plan, { processes });
    }
    const replayMs = performance.now() - t0;
    const counts = mindCounts(user);
    const snap = snapshots(user);
    snap.snapshot();
    // the hand-stored figure of bench/locomo.mjs, on the same turns
    setClock(undefined);
    const handMind = Mind.open(join(user.dir, 'hand-stored.mind'), { meter, now: () => new Date('2024-01-01T00:00:00Z') });
    const idOf = new Map();
    handMind
      .saveMany(hand.map((t) => ({ content: t.text, kind: t.speaker === c.speaker_a ? 'prompt' : 'reply', source: 'import', host: 'locomo', sessionId: `${f}:${t.session}`, turnId: t.id, createdAt: t.createdAt })))
      .forEach((r, i) => idOf.set(r.id, hand[i].id));
    // the same search over the turns THE HOOKS stored (the workspace mind the replay left), mapped back to dia_ids by text
    const hooksMind = Mind.open(workspaceMindPath(user.project, user.env), { meter, readonly: true, now: () => new Date('2024-01-01T00:00:00Z') });
    const hookIdOf = storedTurnIds(hooksMind, hand);
    const askedAt = at(new Date(last.getTime() + DAY));
    const row = { f, speakers: `${c.speaker_a}/${c.speaker_b}`, sessions: sessions.length, turns: nTurns, events: hookStats.events - ev0, replayMs, counts, n: 0, ev: 0, whole: 0, hand: 0, hooks: 0, tok: [], startTok: [], promptTok: [], noPrompt: 0 };
    let qi = 0;
    let firstStart;
    for (const qa of conv.qa ?? []) {
      if (!CATS[qa.category] || !qa.evidence?.length) continue;
      if (row.n >= maxQuestions) break;
      const ev = qa.evidence.flatMap((e) => String(e).split(/[;,\s]+/)).filter((e) => /^D\d+:\d+$/.test(e));
      if (!ev.length) continue;
      snap.restore();
      const got = await ask(user, qa.question, { key: `${f}:${qi++}`, time: askedAt, processes });
      firstStart ??= got.start;
      const hay = words(`${got.start}\n${got.prompt}`);
      let inN = 0;
      let wholeN = 0;
      for (const id of ev) {
        const text = textOf.get(id);
        if (text === undefined) {
          unknownIds++;
          continue;
        }
        const r = turnIn(text, hay);
        if (r.in) inN++;
        if (r.whole) wholeN++;
      }
      const handShare = searchShare(handMind, idOf, qa.question, ev);
      const hookShare = searchShare(hooksMind, hookIdOf, qa.question, ev);
      const tk = tokens(got.start) + tokens(got.prompt);
      row.n++;
      row.ev += inN / ev.length;
      row.whole += wholeN / ev.length;
      row.hand += handShare;
      row.hooks += hookShare;
      row.tok.push(tk);
      row.startTok.push(tokens(got.start));
      row.promptTok.push(tokens(got.prompt));
      if (!got.prompt) row.noPrompt++;
      allTok.push(tk);
      const pc = perCat[qa.category];
      pc.n++;
      pc.ev += inN / ev.length;
      pc.whole += wholeN / ev.length;
      pc.hand += handShare;
      pc.hooks += hookShare;
    }
    handMind.close();
    hooksMind.close();
    starts.push({ part: 'a', set: `locomo ${f}`, start: firstStart ?? '', gold: JSON.parse(readFileSync(join(probeDir, 'locomo-gold', f), 'utf8')).gold });
    rows.push(row);
    user.dispose();
  }
  const tot = rows.reduce((a, r) => ({ n: a.n + r.n, ev: a.ev + r.ev, whole: a.whole + r.whole, hand: a.hand + r.hand, hooks: a.hooks + r.hooks }), { n: 0, ev: 0, whole: 0, hand: 0, hooks: 0 });
  console.log('| conversation | speakers (A prompts / B replies) | sessions | turns | hook events | replay s | left in the minds | questions | evidence delivered | whole turn | search @10 hooks-stored / hand-stored | tokens p50 / p90 (start + prompt) | questions with no prompt recall |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.f} | ${r.speakers} | ${r.sessions} | ${r.turns} | ${r.events} | ${(r.replayMs / 1000).toFixed(1)} | ${countsLine(r.counts)} | ${r.n} | ${f3(r.ev / r.n)} | ${f3(r.whole / r.n)} | ${f3(r.hooks / r.n)} / ${f3(r.hand / r.n)} | ${pct(r.tok, 50)} / ${pct(r.tok, 90)} (${pct(r.startTok, 50)} + ${pct(r.promptTok, 50)}) | ${r.noPrompt} |`);
  }
  console.log(`| overall | | | | | | | ${tot.n} | ${f3(tot.ev / tot.n)} | ${f3(tot.whole / tot.n)} | ${f3(tot.hooks / tot.n)} / ${f3(tot.hand / tot.n)} | ${pct(allTok, 50)} / ${pct(allTok, 90)} | |`);
  console.log('\n| category | questions | evidence delivered | whole turn | search @10 hooks-stored / hand-stored |');
  console.log('|---|---|---|---|---|');
  for (const [k, name] of Object.entries(CATS)) {
    const p = perCat[k];
    if (p.n) console.log(`| ${k} ${name} | ${p.n} | ${f3(p.ev / p.n)} | ${f3(p.whole / p.n)} | ${f3(p.hooks / p.n)} / ${f3(p.hand / p.n)} |`);
  }
  if (unknownIds) console.log(`\n${unknownIds} evidence ids name no turn of their conversation (counted as not delivered, as bench/locomo.mjs does)`);
  const ev = tot.ev / tot.n;
  const p50 = pct(allTok, 50);
  console.log(`\ntargets: evidence delivered >= 0.70 ${ev >= 0.7 ? 'met' : 'NOT met'} (${f3(ev)}); injected tokens p50 <= 2,000 ${p50 <= 2000 ? 'met' : 'NOT met'} (${p50}); search @10 over the turns the hooks stored >= 0.78 ${tot.hooks / tot.n >= 0.78 ? 'met' : 'NOT met'} (${f3(tot.hooks / tot.n)}; hand-stored in the same run ${f3(tot.hand / tot.n)})`);
}

// ---------------------------------------------------------------- (b) coding sessions

/** The sets of (b): every probe file of transcripts/ and handwritten/, as `{key, file, probe}`. */
function bSets() {
  const out = [];
  for (const sub of ['transcripts', 'handwritten']) {
    for (const f of readdirSync(join(probeDir, sub)).filter((x) => x.endsWith('.json')).sort()) {
      const key = sub === 'handwritten' ? f.replace(/\.json$/, '') : f.replace(/\.json$/, '');
      if (setFilter && !setFilter.includes(key)) continue;
      out.push({ key, file: join(sub, f), probe: JSON.parse(readFileSync(join(probeDir, sub, f), 'utf8')) });
    }
  }
  return out;
}

/** The plans of one set and the text a probe may be checked against (prompts, replies, the whole transcript). */
function plansOf(set, user) {
  const p = set.probe;
  if (p.transcript) {
    const lines = readFileSync(join(dataDir, p.transcript), 'utf8').split('\n').filter((l) => l.trim());
    const isPi = JSON.parse(lines[0]).type === 'session';
    const plan = (isPi ? piPlan : claudeCodePlan)(lines, set.key);
    const strings = [];
    const walk = (v) => {
      if (typeof v === 'string') strings.push(v);
      else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
    };
    for (const l of lines) walk(JSON.parse(l));
    return { plans: [plan], source: strings.join('\n'), askedAt: new Date(plan.steps[plan.steps.length - 1].time.getTime() + DAY) };
  }
  const plans = p.sessions.map((s, si) => {
    const d0 = new Date(s.date);
    const turns = s.turns.map((t, i) => ({ ...t, time: new Date(d0.getTime() + i * 180_000) }));
    return turnsPlan(turns, { key: `${set.key}:${si}`, cwd: user.project, start: new Date(d0.getTime() - 60_000), end: new Date(d0.getTime() + turns.length * 180_000) });
  });
  return { plans, source: p.sessions.flatMap((s) => s.turns.flatMap((t) => [t.prompt, t.reply])).join('\n'), askedAt: new Date(p.askedAt) };
}

async function partB() {
  const unrelated = JSON.parse(readFileSync(join(probeDir, 'unrelated.json'), 'utf8')).prompts;
  const sets = bSets();
  console.log(`\n## (b) coding sessions through the hooks: ${sets.length} sets\n`);
  const rows = [];
  const missed = [];
  const injectedRemarks = [];
  // prompt recall given to the prompts no set is about: nothing, or very little, is right
  const unrelatedTok = [];
  const unrelatedGiven = [];
  for (const set of sets) {
    const p = set.probe;
    const user = freshUser(set.key);
    const { plans, source, askedAt: asked } = plansOf(set, user);
    // probes whose answer or remark is not in the data at all are flagged, never silently scored
    const src = norm(source);
    const flags = [];
    for (const q of p.questions) for (const g of q.must) if (!g.some((a) => src.includes(norm(a)))) flags.push(`question ${q.id}: ${JSON.stringify(g)} is not in the session`);
    for (const r of p.remarks) if (!src.includes(norm(r.said))) flags.push(`remark ${r.id} is not in the session`);
    const t0 = performance.now();
    const ev0 = hookStats.events;
    let prompts = 0;
    let stops = 0;
    for (const plan of plans) {
      for (const st of plan.steps) st.time = at(st.time);
      prompts += plan.steps.filter((s) => s.event === 'UserPromptSubmit').length;
      stops += plan.steps.filter((s) => s.event === 'Stop').length;
      await replay(user, plan, { processes });
    }
    const replayMs = performance.now() - t0;
    const events = hookStats.events - ev0;
    const counts = mindCounts(user);
    const snap = snapshots(user);
    snap.snapshot();
    const askedAt = at(asked);
    const where = new Map(p.remarks.map((r) => [r.id, []]));
    const check = (label, text) => {
      for (const r of p.remarks) {
        const hit = foundAny(text, r.not);
        if (hit) where.get(r.id).push(`${label}: "${hit}"`);
      }
    };
    let ok = 0;
    const tok = [];
    let firstStart;
    for (const [i, q] of p.questions.entries()) {
      snap.restore();
      const got = await ask(user, q.ask, { key: `${set.key}:q${i}`, time: askedAt, processes });
      firstStart ??= got.start;
      const hit = delivered(`${got.start}\n${got.prompt}`, q.must);
      if (hit) ok++;
      else missed.push(`${set.key} ${q.id}: "${q.ask}" (${q.fact})${got.prompt ? '' : ' [no prompt recall]'}`);
      tok.push(tokens(got.start) + tokens(got.prompt));
      if (i === 0) check('SessionStart', got.start);
      check(`recall of "${cut(q.ask, 50)}"`, got.prompt);
      if (show) {
        console.log(`  ${hit ? '+' : '-'} ${set.key} ${q.id}: ${q.ask}`);
        console.log(`      prompt recall: ${got.prompt ? cut(got.prompt, 600) : '(nothing)'}`);
      }
    }
    for (const [i, u] of unrelated.entries()) {
      snap.restore();
      const got = await ask(user, u, { key: `${set.key}:u${i}`, time: askedAt, processes });
      check(`recall of unrelated "${cut(u, 40)}"`, got.prompt);
      unrelatedTok.push(tokens(got.prompt));
      if (got.prompt) unrelatedGiven.push(`${set.key}: "${cut(u, 60)}" (${tokens(got.prompt)} tokens)`);
    }
    const hits = [...where.entries()].filter(([, w]) => w.length);
    for (const [id, w] of hits) injectedRemarks.push(`${set.key} ${id} (${p.remarks.find((r) => r.id === id).by}: "${cut(p.remarks.find((r) => r.id === id).said, 60)}"): ${w.slice(0, 3).join('; ')}${w.length > 3 ? `; +${w.length - 3} more` : ''}`);
    starts.push({ part: 'b', set: set.key, start: firstStart ?? '', gold: p.gold });
    rows.push({ key: set.key, sessions: plans.length, prompts, stops, events, replayMs, counts, n: p.questions.length, ok, remarks: p.remarks.length, injected: hits.length, tok, flags });
    user.dispose();
  }
  console.log('| set | sessions | prompts / stops | hook events | replay s | left in the minds | questions delivered | share | remarks injected | tokens p50 / p90 |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.key} | ${r.sessions} | ${r.prompts} / ${r.stops} | ${r.events} | ${(r.replayMs / 1000).toFixed(1)} | ${countsLine(r.counts)} | ${r.ok}/${r.n} | ${f2(r.ok / r.n)} | ${r.injected}/${r.remarks} | ${pct(r.tok, 50)} / ${pct(r.tok, 90)} |`);
  const n = rows.reduce((a, r) => a + r.n, 0);
  const ok = rows.reduce((a, r) => a + r.ok, 0);
  const inj = rows.reduce((a, r) => a + r.injected, 0);
  const rem = rows.reduce((a, r) => a + r.remarks, 0);
  console.log(`| overall | | | | | | ${ok}/${n} | ${f2(ok / n)} | ${inj}/${rem} | ${pct(rows.flatMap((r) => r.tok), 50)} / ${pct(rows.flatMap((r) => r.tok), 90)} |`);
  const given = unrelatedTok.filter((t) => t > 0);
  console.log(`\nunrelated prompts (${unrelated.length} per set, after each set): ${given.length}/${unrelatedTok.length} given prompt recall${given.length ? `, ${pct(given, 50)} / ${Math.max(...given)} tokens p50 / max of those` : ''}`);
  for (const u of unrelatedGiven) console.log(`  - ${u}`);
  for (const r of rows) for (const fl of r.flags) console.log(`probe flag: ${r.key} ${fl}`);
  if (missed.length) console.log(`\nnot delivered (${missed.length}):\n${missed.map((m) => `  - ${m}`).join('\n')}`);
  if (injectedRemarks.length) console.log(`\nremarks injected (${injectedRemarks.length}):\n${injectedRemarks.map((m) => `  - ${m}`).join('\n')}`);
  const low = rows.filter((r) => r.ok / r.n < 0.8).map((r) => r.key);
  console.log(`\ntargets: delivered >= 80% per set ${low.length ? `NOT met (${low.join(', ')})` : 'met'}; remarks injected 0 ${inj ? `NOT met (${inj})` : 'met'}`);
}

// ---------------------------------------------------------------- (c) SessionStart precision

function partC() {
  if (!starts.length) return;
  console.log('\n## (c) SessionStart precision: the items of a new session\'s SessionStart on the set\'s gold list\n');
  console.log('| part | set | SessionStart tokens | items | on the gold list | precision | gold facts shown |');
  console.log('|---|---|---|---|---|---|---|');
  const off = [];
  const sum = { a: { items: 0, on: 0 }, b: { items: 0, on: 0 } };
  for (const s of starts) {
    const items = injectionItems(s.start);
    const on = items.filter((it) => goldOf(it, s.gold));
    const facts = new Set(on.map((it) => goldOf(it, s.gold).fact));
    sum[s.part].items += items.length;
    sum[s.part].on += on.length;
    console.log(`| ${s.part} | ${s.set} | ${tokens(s.start)} | ${items.length} | ${on.length} | ${items.length ? f2(on.length / items.length) : '-'} | ${facts.size}/${s.gold.length} |`);
    for (const it of items) if (!goldOf(it, s.gold)) off.push(`${s.set}: ${cut(it.text, 200)}`);
  }
  const all = { items: sum.a.items + sum.b.items, on: sum.a.on + sum.b.on };
  for (const [k, v] of [['(a)', sum.a], ['(b)', sum.b], ['all', all]]) if (v.items || k === 'all') console.log(`| ${k} | overall | | ${v.items} | ${v.on} | ${v.items ? f2(v.on / v.items) : '-'} | |`);
  if (off.length) console.log(`\nnot on the gold list (${off.length}):\n${off.map((o) => `  - ${o}`).join('\n')}`);
  const p = all.items ? all.on / all.items : NaN;
  console.log(`\ntarget: SessionStart precision >= 0.8 ${p >= 0.8 ? 'met' : 'NOT met'} (${f2(p)} over ${all.items} items)`);
}

// ----------------------------------------------------------------

console.log(`memory end to end (issue 21): hooks ${processes ? 'as child processes (hive-mind hook claude-code EVENT; wall clock)' : 'in process (@hive-mind/hooks/run runHook, what `hive-mind hook claude-code EVENT` runs)'}; clock ${processes || clockMode === 'wall' ? 'wall' : 'each event at its session time'}; tokens o200k`);
const t0 = performance.now();
if (parts.has('a')) await partA();
if (parts.has('b')) await partB();
setClock(undefined);
if (parts.has('c')) partC();
console.log(`\nhook events ${hookStats.events}, failures ${hookStats.errors}${hookStats.timeouts ? `, timeouts ${hookStats.timeouts}` : ''}, mean ${(hookStats.ms / Math.max(1, hookStats.events)).toFixed(1)} ms per event; ${((performance.now() - t0) / 1000).toFixed(0)} s in all`);
for (const e of hookStats.firstErrors) console.log(`  failure: ${e}`);
