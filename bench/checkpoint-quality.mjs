#!/usr/bin/env node
// Checkpoint quality (printed, never asserted). Needs a build: npm run build
//   node bench/checkpoint-quality.mjs                         # every checkpoint probe file under bench/probes
//   node bench/checkpoint-quality.mjs --file pi-large-session # probe files whose name starts with this
//   node bench/checkpoint-quality.mjs --file PATH [--budget N] [--show] [--show5 NAME]
//                                                            # any transcript, with or without a probe file;
//                                                            # --show prints each checkpoint, --show5 NAME the fifth of section 2
//
// Probe files (bench/probes/*.json with `transcript`, `span`, `probes`) were written from reading
// the transcript, or with the session for bench/sessions/, before looking at any checkpoint of
// it. A check is kept when each of its `keep` groups has one substring in its scope
// (case-insensitive, whitespace, backticks, `*` and `_` ignored) and none of its `absent`
// substrings occurs in `absentSection` (default: the same scope). Scopes: `section` names a
// checkpoint section (`## Heading`, matched by its first word), else the whole checkpoint.
//   probes       facts a colleague needs: whole checkpoint
//   goal         the user's objective as it stands: the Goal section only (the `## Goal` section,
//                else the body's first lines before any heading); `none: true` when the span
//                states no goal: the Goal must then be empty or hold only what `keep` allows
//   rules        a rule as it stands: each `final` group anywhere, no `superseded` form in
//                Constraints and preferences
//   corrections  what is true after the user corrected the agent
//   done         the end state (the last test count, the last commit), snapshots absent from Done
//   next         the Next step section: the step that remains, never finished work
//
// Budget rule: the probe file's `span.budget` when it has one; pi's first compaction span
// (`span.piCompaction`) is summarized at most at the size of pi's own summary; otherwise (the
// built sessions, and --file without a probe file) budget = max(1,500, round(surface tokens /
// 2.5)), which always forces a compaction: the verbatim tail may take half the budget (the CLI's
// default), so the span is about the first 80% of the surface. `--budget N` overrides it.
//
// Per file, one compaction with the extractive summarizer as the CLI runs it; the table shows
// the figures against the targets of issue 22: probes >= 80% of N, the pi span >= 14/15 at
// <= 1,100 tokens, no repeated line, no identifier absent from the session, Findings <= 25% of
// the checkpoint's tokens. A check whose fact only the verbatim tail holds (its `keep` groups
// have no match in the compacted span's text) is left out of the counts: `probes` is k of the N
// the span holds, `tail` the number left out. Repeated lines: a line equal to an earlier one once
// normalized (exact), or equal once numbers and hex ids are blanked, the same words in another
// order, or contained in a longer line (near). Identifier: a code-like token of the checkpoint:
// a backticked span without spaces, a camelCase or PascalCase word with an inner capital, a
// snake_case word, or a dotted name (`a.b`, file names); it is "not in the session" when it occurs
// nowhere in the transcript file's text nor in the text of its events (case-sensitive).
// Then five successive compactions of one growing session (events appended one by one,
// compactIfNeeded after each): probes kept by the first checkpoint and by the fifth.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import * as compaction from '../packages/compaction/dist/index.js';
import { readTranscriptFile } from '../packages/transcripts/dist/index.js';
import { MemorySessionLog, isMessageEvent, blockText } from '../packages/session/dist/index.js';
import { root } from './lib.mjs';

const { BasicCompactionEngine, ExtractiveSummarizer, TokenMeter } = compaction;
const data = join(root, '../shared/data/transcripts/');
const probeDir = join(root, 'bench/probes/');
const meter = new TokenMeter();
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const flag = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

/** The targets of issue 22. */
const TARGET = { probeShare: 0.8, piKept: 14, piTokens: 1100, findingsShare: 0.25 };

// ---------------------------------------------------------------- checkpoint text

const norm = (s) => s.toLowerCase().replace(/[`*_]/g, '').replace(/\s+/g, ' ');

/** The body of a framed checkpoint (the frame's tags and preamble removed). */
function bodyOf(ck) {
  const b = typeof compaction.unframeCheckpoint === 'function' ? compaction.unframeCheckpoint(ck) : null;
  return (b ?? ck).replace(/<\/?compacted-summary>/g, '').trim();
}

/** The `## ` sections of a checkpoint body: [{heading, text}] in order; text before any heading has heading ''. */
function sections(body) {
  const out = [{ heading: '', text: '' }];
  for (const line of body.split('\n')) {
    const m = /^#{2,3}\s+(.+?)\s*$/.exec(line);
    if (m) out.push({ heading: m[1], text: '' });
    else out[out.length - 1].text += line + '\n';
  }
  return out;
}

/** Text of the section named `name` (matched by its first word, case-insensitive); '' when absent. */
function sectionText(body, name) {
  const first = name.toLowerCase().split(/\s+/)[0];
  return sections(body).filter((s) => s.heading.toLowerCase().split(/\s+/)[0] === first).map((s) => s.text).join('\n');
}

/** The Goal as a reader sees it: the `## Goal` section, else the first lines before any heading. */
function goalText(body) {
  const g = sectionText(body, 'Goal');
  if (g.trim()) return g;
  return sections(body)[0].text.split('\n').filter((l) => l.trim()).slice(0, 3).join('\n');
}

const scope = (body, name) => (name ? sectionText(body, name) : body);
const has = (text, sub) => norm(text).includes(norm(sub));

/** A check (probe, goal, correction, done, next) against a checkpoint body; `section` is the default scope. */
function passes(body, c, section) {
  const where = c.section ?? section;
  const hay = scope(body, where);
  const keepOk = (c.keep ?? []).every((g) => g.some((sub) => has(hay, sub)));
  const absHay = scope(body, c.absentSection ?? where);
  return keepOk && !(c.absent ?? []).some((sub) => has(absHay, sub));
}

/** A rule: each `final` group somewhere, no `superseded` form in Constraints. */
function ruleHolds(body, r) {
  const finalOk = (r.final ?? []).every((g) => g.some((sub) => has(body, sub)));
  const constraints = sectionText(body, 'Constraints');
  return finalOk && !(r.superseded ?? []).some((sub) => has(constraints, sub));
}

/** Probes kept by `text` (a checkpoint, a summary body, or with `raw` any text as it is): ids. */
function score(text, probes, { raw = false } = {}) {
  const body = raw ? text : bodyOf(text);
  return probes.filter((p) => passes(body, p)).map((p) => p.id);
}

/**
 * Lines cut mid-word or mid-sentence: a clip marker (`…` at the end of a line, "chars clipped",
 * "[… N chars"), a quote opened and not closed on its item, or an odd number of code fences.
 */
function cutLines(text) {
  let n = 0;
  for (const line of text.split('\n')) {
    const l = line.trim();
    if (!l) continue;
    if (/…$|chars clipped|\[… \d+ chars/.test(l) || /\w\.\.\.$/.test(l)) n++;
    else if (/^- .*"/.test(l) && (l.match(/(?<!\\)"/g) ?? []).length % 2 === 1) n++;
  }
  if ((text.match(/^\s*```/gm) ?? []).length % 2 === 1) n++;
  return n;
}

const lineKey = (l) => norm(l.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')).replace(/[.,;:!?"'()[\]]+/g, ' ').replace(/\s+/g, ' ').trim();
/** A line's key with its standalone numbers and hex ids blanked: two snapshots of one count or commit line share it (`module_0` and `module_1` do not). */
const numberless = (k) => k.replace(/\b[0-9a-f]{7,40}\b/g, '#').replace(/\b\d+\b/g, '#');
const wordBag = (k) => k.split(' ').filter(Boolean).sort().join(' ');

/**
 * Lines repeating an earlier line of the checkpoint: {exact, near, examples}. Exact: equal once
 * normalized (case, bullets, punctuation, whitespace). Near: equal once numbers and hex ids are
 * blanked (a snapshot of the same count), the same words in another order, or contained in a
 * longer line (the shorter >= 40 characters). Headings, fences and lines under 12 characters are
 * left out.
 */
function repeatedLines(body) {
  const seen = [];
  let exact = 0;
  let near = 0;
  const examples = [];
  for (const line of body.split('\n')) {
    const t = line.trim();
    if (t.length < 12 || /^#{1,6}\s/.test(t) || /^```/.test(t)) continue;
    const k = lineKey(t);
    const cur = { k, n: numberless(k), bag: wordBag(k) };
    let kind = null;
    for (const s of seen) {
      if (s.k === k) { kind = 'exact'; break; }
      const [short, long] = k.length <= s.k.length ? [k, s.k] : [s.k, k];
      if (s.n === cur.n || s.bag === cur.bag || (short.length >= 40 && long.includes(short))) { kind = 'near'; break; }
    }
    if (kind === 'exact') exact++;
    if (kind === 'near') near++;
    if (kind && examples.length < 3) examples.push(t.slice(0, 90));
    seen.push(cur);
  }
  return { exact, near, examples };
}

/** Code-like tokens of a checkpoint (see the header): a Set. */
function identifiers(body) {
  const out = new Set();
  for (const m of body.matchAll(/`([^`\n]+)`/g)) {
    const t = m[1].trim().replace(/[.,:;]+$/, '');
    if (t.length >= 3 && !/\s/.test(t) && !/^[\d.,:%+\-x/]+$/.test(t)) out.add(t);
  }
  const plain = body.replace(/`[^`\n]*`/g, ' ');
  const res = [
    /\b[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b/g, // camelCase
    /\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b/g, // PascalCase with an inner capital
    /\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*[A-Za-z0-9]\b/g, // snake_case
    /\b[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+\b/g, // dotted names, file names
  ];
  for (const re of res) for (const m of plain.matchAll(re)) out.add(m[0]);
  return out;
}

/** The text an identifier must occur in: the transcript file and every event's text and tool input. */
function sessionHaystack(path, log) {
  const parts = [readFileSync(path, 'utf8')];
  for (const e of log.events()) {
    for (const b of e.content ?? []) {
      parts.push(blockText(b));
      if (b.type === 'tool-call') parts.push(typeof b.input === 'string' ? b.input : JSON.stringify(b.input));
    }
  }
  return parts.join('\n');
}

function unknownIdentifiers(body, hay) {
  return [...identifiers(body)].filter((id) => !hay.includes(id));
}

/** Findings' share of the checkpoint's tokens (the section with its heading). */
function findingsShare(ck) {
  const body = bodyOf(ck);
  const f = sectionText(body, 'Findings');
  if (!f.trim()) return 0;
  return meter.countText('## Findings\n' + f) / Math.max(1, meter.countText(ck));
}

/**
 * Whether the span holds what a check asks for: each `keep` group (or a rule's `final` group) has
 * a substring in the span's own text. A check whose fact only the verbatim tail holds is not the
 * checkpoint's to keep: it is left out of the counts (n/a). Checks with only `absent` always count.
 */
function answerable(spanText, c) {
  const groups = c.keep ?? c.final ?? [];
  return groups.every((g) => g.some((sub) => has(spanText, sub)));
}

/** Every figure of one checkpoint against one probe file (spec may be null); `spanText` is the compacted span's text. */
function evaluate(ck, spec, hay, spanText) {
  const body = bodyOf(ck);
  const r = { tokens: meter.countText(ck), repeated: repeatedLines(body), unknown: unknownIdentifiers(body, hay), findings: findingsShare(ck), cut: cutLines(ck) };
  if (!spec) return r;
  const inSpan = spec.probes.filter((p) => answerable(spanText, p));
  r.kept = inSpan.filter((p) => passes(body, p)).map((p) => p.id);
  r.n = inSpan.length;
  r.tailOnly = spec.probes.filter((p) => !answerable(spanText, p)).map((p) => p.id);
  const g = goalText(body);
  r.goalText = g.trim().split('\n')[0]?.slice(0, 100) ?? '';
  if (!spec.goal) r.goal = null;
  // `none`: the span states no goal; the Goal must be empty or hold only what `keep` allows
  else if (spec.goal.none) r.goal = !g.trim() || passes(g, { keep: spec.goal.keep, absent: spec.goal.absent });
  else r.goal = answerable(spanText, spec.goal) ? passes(g, { keep: spec.goal.keep, absent: spec.goal.absent }) : 'n/a';
  const list = (xs, fn) => (xs ?? []).filter((x) => answerable(spanText, x)).map((x) => ({ id: x.id, ok: fn(x) }));
  r.rules = list(spec.rules, (x) => ruleHolds(body, x));
  r.corrections = list(spec.corrections, (x) => passes(body, x));
  r.done = list(spec.done, (x) => passes(body, x));
  r.next = list(spec.next, (x) => passes(body, x, 'Next step'));
  return r;
}

const frac = (xs) => (xs.length ? `${xs.filter((x) => x.ok).length}/${xs.length}` : '-');
const failed = (xs) => xs.filter((x) => !x.ok).map((x) => x.id);

// ---------------------------------------------------------------- which files

const transcriptPath = (spec) => (spec.transcript.startsWith('bench/') ? join(root, spec.transcript) : data + spec.transcript);
const isCheckpointSpec = (f) => {
  const j = JSON.parse(readFileSync(probeDir + f, 'utf8'));
  return typeof j.transcript === 'string' && Array.isArray(j.probes) && j.span !== undefined;
};
const specFiles = readdirSync(probeDir).filter((f) => f.endsWith('.json') && isCheckpointSpec(f)).sort();
const fileArg = flag('--file');
/** [{name, spec|null, path}] */
let jobs;
if (fileArg && existsSync(fileArg)) {
  const path = resolve(fileArg);
  const f = specFiles.find((x) => resolve(transcriptPath(JSON.parse(readFileSync(probeDir + x, 'utf8')))) === path);
  jobs = [{ name: f ? f.replace(/\.json$/, '') : basename(path).slice(0, 33), spec: f ? JSON.parse(readFileSync(probeDir + f, 'utf8')) : null, path }];
} else {
  jobs = specFiles.filter((f) => !fileArg || f.startsWith(fileArg)).map((f) => {
    const spec = JSON.parse(readFileSync(probeDir + f, 'utf8'));
    return { name: f.replace(/\.json$/, ''), spec, path: transcriptPath(spec) };
  });
}

/** Message events of a transcript in seq order, as a host wrote them (host checkpoints and retained copies left out). */
function originalMessages(t) {
  return t.log.events().filter((e) => isMessageEvent(e) && e.kind !== 'checkpoint' && e.meta?.copyOf === undefined);
}

function freshLog(events, id) {
  const log = new MemorySessionLog(id);
  for (const e of events) log.append({ type: e.type, surfaceOp: 'append', content: e.content, ...(e.kind ? { kind: e.kind } : {}), ...(e.meta ? { meta: e.meta } : {}) });
  return log;
}

/** The text of surface nodes or events: their blocks, tool inputs included. */
function nodesText(nodes) {
  return nodes.map((n) => (n.content ?? []).map((b) => blockText(b) + (b.type === 'tool-call' ? '\n' + JSON.stringify(b.input) : '')).join('\n')).join('\n');
}

/** Default budget (see the header): forces a compaction on any surface. */
const defaultBudget = (surfaceTokens) => Math.max(1500, Math.round(surfaceTokens / 2.5));

// ---------------------------------------------------------------- 1

console.log('\n## 1. One compaction per transcript (extractive), against the targets of issue 22\n');
console.log(`targets: probes >= ${TARGET.probeShare * 100}% of N; pi span >= ${TARGET.piKept}/15 at <= ${TARGET.piTokens} tokens; repeated lines 0; identifiers not in the session 0; Findings <= ${TARGET.findingsShare * 100}% of the checkpoint\n`);
const head = `${pad('file', 34)}${lpad('budget', 7)}${lpad('before', 7)}${lpad('after', 7)}${lpad('ckpt', 6)}${lpad('probes', 12)}${lpad('goal', 6)}${lpad('tail', 5)}${lpad('rules', 7)}${lpad('corr', 6)}${lpad('done', 6)}${lpad('next', 6)}${lpad('rep', 6)}${lpad('ids', 5)}${lpad('find%', 7)}  targets`;
console.log(head);
console.log('-'.repeat(head.length));
const details = [];
const loaded = new Map();
let met = 0;
let measured = 0;

function row(name, budget, before, after, ev, { pi = false } = {}) {
  const probes = ev.kept ? `${ev.kept.length}/${ev.n} ${ev.n ? Math.round((100 * ev.kept.length) / ev.n) : 0}%` : '-';
  const miss = [];
  if (ev.kept && ev.kept.length < Math.ceil(TARGET.probeShare * ev.n)) miss.push('probes');
  if (pi && ev.kept && ev.kept.length < TARGET.piKept) miss.push('pi 14/15');
  if (pi && ev.tokens > TARGET.piTokens) miss.push('pi tokens');
  if (ev.repeated.exact + ev.repeated.near > 0) miss.push('repeats');
  if (ev.unknown.length) miss.push('ids');
  if (ev.findings > TARGET.findingsShare) miss.push('findings');
  if (ev.goal === false) miss.push('goal');
  for (const k of ['rules', 'corrections', 'done', 'next']) if (ev[k] && failed(ev[k]).length) miss.push(k);
  const ok = miss.length === 0;
  console.log(
    `${pad(name, 34)}${lpad(budget, 7)}${lpad(before, 7)}${lpad(after, 7)}${lpad(ev.tokens, 6)}${lpad(probes, 12)}${lpad(ev.goal === null || ev.goal === undefined ? '-' : ev.goal === 'n/a' ? 'n/a' : ev.goal ? 'ok' : 'NO', 6)}${lpad(ev.tailOnly ? ev.tailOnly.length : '-', 5)}${lpad(ev.rules ? frac(ev.rules) : '-', 7)}${lpad(ev.corrections ? frac(ev.corrections) : '-', 6)}${lpad(ev.done ? frac(ev.done) : '-', 6)}${lpad(ev.next ? frac(ev.next) : '-', 6)}${lpad(`${ev.repeated.exact}/${ev.repeated.near}`, 6)}${lpad(ev.unknown.length, 5)}${lpad((100 * ev.findings).toFixed(0) + '%', 7)}  ${ok ? 'met' : 'missed: ' + miss.join(', ')}`,
  );
  return ok;
}

function detail(name, ev, extra = '') {
  const parts = [];
  if (ev.kept) {
    const m = (ev.spec?.probes ?? []).filter((p) => !ev.kept.includes(p.id)).map((p) => p.id);
    parts.push(`probes missed: ${m.filter((id) => !ev.tailOnly.includes(id)).join(', ') || 'none'}${ev.tailOnly.length ? ` (only in the verbatim tail, not counted: ${ev.tailOnly.join(', ')})` : ''}`);
  }
  if (ev.goal === false) parts.push(`goal read as: "${ev.goalText}"`);
  for (const k of ['rules', 'corrections', 'done', 'next']) if (ev[k] && failed(ev[k]).length) parts.push(`${k} failed: ${failed(ev[k]).join(', ')}`);
  if (ev.repeated.exact + ev.repeated.near) parts.push(`repeated (exact/near ${ev.repeated.exact}/${ev.repeated.near}), e.g. "${ev.repeated.examples[0]}"`);
  if (ev.unknown.length) parts.push(`identifiers not in the session: ${ev.unknown.slice(0, 8).map((x) => '`' + x + '`').join(', ')}${ev.unknown.length > 8 ? ` (+${ev.unknown.length - 8})` : ''}`);
  if (ev.cut) parts.push(`cut lines ${ev.cut}`);
  if (extra) parts.push(extra);
  details.push(`${name}: ${parts.join('; ')}`);
}

for (const { name, spec, path } of jobs) {
  if (!existsSync(path)) {
    console.log(`${pad(name, 34)} (missing: ${path})`);
    continue;
  }
  const t = await readTranscriptFile(path);
  if (spec) loaded.set(name, { spec, t });
  const hay = sessionHaystack(path, t.log);
  if (spec?.span?.piCompaction) {
    // exactly the span pi's first compaction summarized; ours at most the size of pi's summary
    const lines = readFileSync(path, 'utf8').split('\n');
    const entries = lines.map((l, i) => ({ l, i })).filter(({ l }) => l.includes('"type":"compaction"'));
    const entry = entries[spec.span.piCompaction - 1];
    const rec = JSON.parse(entry.l);
    const msgs = originalMessages(t);
    const spanEvents = msgs.filter((e) => e.meta?.entryIndex < rec.firstKeptEntryIndex);
    const tailEvents = msgs.filter((e) => e.meta?.entryIndex >= rec.firstKeptEntryIndex && e.meta?.entryIndex < entry.i);
    const piTokens = meter.countText(rec.summary);
    const log = freshLog([...spanEvents, ...tailEvents], 'pi-span');
    const surface = log.surface();
    const span = surface.slice(0, spanEvents.length);
    const tail = surface.slice(spanEvents.length);
    const alone = (await new ExtractiveSummarizer().summarize({ span, tail, maxTokens: piTokens, meter })).text;
    const frame = meter.countText('<compacted-summary>\n\n</compacted-summary>') + 120;
    const before = new TokenMeter().countEvents(surface);
    const engine = new BasicCompactionEngine({ budget: before, retainTokens: 1, summaryMaxTokens: piTokens + frame, meter: new TokenMeter() });
    const r = await engine.compactRegion(log, span[0].seq, span[span.length - 1].seq);
    const ck = blockText(r.summary[0]);
    const spanText = nodesText(span);
    const ev = { ...evaluate(ck, spec, hay, spanText), spec };
    measured++;
    if (row(name + ' (pi span)', `<=${piTokens + frame}`, r.tokensBefore, r.tokensAfter, ev, { pi: true })) met++;
    const evPi = { ...evaluate(rec.summary, spec, hay, spanText), spec };
    row("  pi's own LLM summary", '', '', '', evPi);
    detail(name + ' (pi span)', ev, `summary alone ${score(alone, spec.probes).length}/${spec.probes.length} @${meter.countText(alone)} tokens`);
    detail("  pi's own LLM summary", evPi);
    if (process.argv.includes('--show')) console.log(`\n${ck}\n`);
    continue;
  }
  const surfaceTokens = new TokenMeter().countEvents(t.log.surface());
  const budget = Number(flag('--budget') ?? spec?.span?.budget ?? defaultBudget(surfaceTokens));
  // the transcript as read (a host's own checkpoints included), as the CLI compacts it
  const log = t.log;
  // the CLI's defaults: the verbatim tail may grow to about half of the budget
  const engine = new BasicCompactionEngine({ budget: budget, retainTokens: spec?.span?.retain ?? Math.floor(budget / 2), meter: new TokenMeter() });
  let r;
  try {
    r = await engine.compactNow(log);
  } catch (err) {
    console.log(`${pad(name, 34)}${lpad(budget, 7)}  ${err.message.slice(0, 120)}`);
    continue;
  }
  if (!r.compacted) {
    console.log(`${pad(name, 34)}${lpad(budget, 7)}${lpad(r.tokensBefore, 7)}  nothing compacted (${r.noopReason})`);
    continue;
  }
  const ck = blockText(r.summary[0]);
  const spanText = nodesText(r.shadowedSeqs.map((q) => log.get(q)));
  const ev = { ...evaluate(ck, spec, hay, spanText), spec };
  measured++;
  if (row(name, budget, r.tokensBefore, r.tokensAfter, ev)) met++;
  let extra = '';
  if (spec) {
    const sumRec = log.events().filter((e) => e.type === 'compaction/summary').pop();
    const span = r.shadowedSeqs.map((s) => log.get(s));
    const tail = log.surface().slice(log.surfacePosition(r.checkpointSeq) + 1);
    const alone = (await new ExtractiveSummarizer().summarize({ span, tail, maxTokens: sumRec.data.maxTokens, meter })).text;
    const kAll = score(log.surface().map((n) => n.content.map((b) => blockText(b)).join('\n')).join('\n'), spec.probes, { raw: true });
    const inTail = spec.probes.filter((p) => !ev.kept.includes(p.id) && kAll.includes(p.id)).map((p) => p.id);
    extra = `summary alone ${score(alone, spec.probes).length}/${spec.probes.length}; missed but in the verbatim tail: ${inTail.join(', ') || 'none'}`;
  }
  detail(name, ev, extra);
  if (process.argv.includes('--show')) console.log(`\n${ck}\n`);
}
console.log(`\n${met} of ${measured} checkpoints meet every target.`);
console.log('(probes: kept of the N the span holds, in the checkpoint that landed; tail: probes only the verbatim tail holds (not counted); goal: the Goal section holds the goal phrase; rules/corr/done/next: checks passed; rep: repeated lines exact/near; ids: identifiers not in the session; find%: the Findings section\'s share of the checkpoint\'s tokens)');
for (const d of details) console.log('  ' + d);

// ---------------------------------------------------------------- 2
console.log('\n## 2. Five successive compactions of one growing session\n');
console.log(`${pad('transcript', 34)}${lpad('budget', 8)}${lpad('compactions', 13)}  ${pad('checkpoint tokens', 26)}${lpad('kept by 1st', 13)}${lpad('kept by 5th', 13)}${lpad('max surface', 13)}  lost`);
for (const [name, { spec, t }] of loaded) {
  const msgs = originalMessages(t);
  const total = new TokenMeter().countEvents(msgs);
  if (total < 6000) continue;
  // a budget small enough that the session compacts at least five times
  const budget = Number(flag('--budget5') ?? Math.max(4000, Math.floor(total / 8)));
  const engine = new BasicCompactionEngine({ budget: budget, retainTokens: Math.floor(budget / 2), meter: new TokenMeter() });
  const log = new MemorySessionLog('growing');
  const checkpoints = [];
  let maxSurface = 0;
  for (const e of msgs) {
    log.append({ type: e.type, surfaceOp: 'append', content: e.content, ...(e.kind ? { kind: e.kind } : {}) });
    // a tool call waits for its result before the engine looks
    if (e.type === 'assistant/message' && e.content.some((b) => b.type === 'tool-call')) continue;
    try {
      const r = await engine.compactIfNeeded(log);
      if (r.compacted && r.action === 'summarize') checkpoints.push({ text: blockText(r.summary[0]), tokens: r.summaryTokens });
    } catch (err) {
      checkpoints.push({ text: '', tokens: 0, error: err.message });
    }
    maxSurface = Math.max(maxSurface, engine.surfaceTokens(log));
    if (checkpoints.length >= 5) break;
  }
  const first = checkpoints[0] ? score(checkpoints[0].text, spec.probes) : [];
  const last = checkpoints[checkpoints.length - 1];
  const fifth = last ? score(last.text, spec.probes) : [];
  const lost = first.filter((id) => !fifth.includes(id));
  if (flag('--show5') === name) console.log(last?.text);
  console.log(
    `${pad(name, 34)}${lpad(budget, 8)}${lpad(checkpoints.length, 13)}  ${pad(checkpoints.map((c) => c.tokens).join('/'), 26)}${lpad(`${first.length}/${spec.probes.length}`, 13)}${lpad(`${first.filter((id) => fifth.includes(id)).length}/${first.length}`, 13)}${lpad(maxSurface, 13)}  ${lost.join(', ') || '-'}${checkpoints.some((c) => c.error) ? '  errors: ' + checkpoints.filter((c) => c.error).map((c) => c.error.slice(0, 80)).join('; ') : ''}`,
  );
}
console.log('(kept by 5th: probes the first checkpoint kept that the fifth still keeps; lost: first-span probes the later merges dropped)');
