#!/usr/bin/env node
// Checkpoint quality (printed, never asserted). Needs a build: npm run build
//   node bench/checkpoint-quality.mjs                       # every probe file under bench/probes
//   node bench/checkpoint-quality.mjs --file pi-large-session --budget 30000
//
// For each transcript under ../shared/data/transcripts with a probe file in bench/probes/
// (facts a colleague continuing the work needs, written from reading the transcript before
// looking at any output; a probe is kept when, for each of its `keep` groups, one substring
// occurs in the text, case-insensitive, whitespace and backticks ignored):
//   tokens before/after and checkpoint tokens of one compaction (extractive, CLI defaults:
//   verbatim tail up to half the budget); probes kept by the summary alone (the summarizer's
//   output before the engine re-inserts anchors) and by the whole checkpoint; lines cut
//   mid-sentence; duplicate items.
// For pi/before-compaction.jsonl the span is exactly the one pi's first compaction summarized
// (entries before firstKeptEntryIndex), and the same probes are scored on pi's own stored LLM
// summary; ours is given at most pi's summary size.
// Then five successive compactions of one growing session (events appended one by one,
// compactIfNeeded after each): probes kept by the first checkpoint and by the fifth.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BasicCompactionEngine, ExtractiveSummarizer, TokenMeter } from '../packages/compaction/dist/index.js';
import { readTranscriptFile } from '../packages/transcripts/dist/index.js';
import { MemorySessionLog, isMessageEvent, blockText } from '../packages/session/dist/index.js';
import { root } from './lib.mjs';

const data = join(root, '../shared/data/transcripts/');
const probeDir = join(root, 'bench/probes/');
const meter = new TokenMeter();
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const flag = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

const norm = (s) => s.toLowerCase().replace(/[`*_]/g, '').replace(/\s+/g, ' ');
/** Probes kept by `text`: ids. */
function score(text, probes) {
  const hay = norm(text);
  return probes.filter((p) => p.keep.every((group) => group.some((sub) => hay.includes(norm(sub))))).map((p) => p.id);
}

/**
 * Lines cut mid-word or mid-sentence: a clip marker (`…` at the end of a line, "chars clipped",
 * "[… N chars"), a quote opened and not closed on its item, or an odd number of code fences
 * (a block cut in two).
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

/** Items (bullets) that repeat another item of the checkpoint, exactly or contained in a longer one (>= 40 chars). */
function duplicateItems(text) {
  const items = text
    .split('\n')
    .filter((l) => /^\s*- /.test(l))
    .map((l) => norm(l.replace(/^\s*- /, '')).replace(/[."]+$/, '').trim())
    .filter((s) => s.length >= 12);
  let d = 0;
  for (let i = 0; i < items.length; i++) {
    for (let j = 0; j < i; j++) {
      const a = items[i];
      const b = items[j];
      if (a === b || (a.length >= 40 && b.includes(a)) || (b.length >= 40 && a.includes(b))) {
        d++;
        break;
      }
    }
  }
  return d;
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

// checkpoint probe files name a transcript and a span; bench/probes also holds other benches' probe sets (prompt-recall, redact)
const isCheckpointSpec = (f) => {
  const j = JSON.parse(readFileSync(probeDir + f, 'utf8'));
  return typeof j.transcript === 'string' && Array.isArray(j.probes) && j.span !== undefined;
};
const files = readdirSync(probeDir).filter((f) => f.endsWith('.json') && isCheckpointSpec(f)).filter((f) => !flag('--file') || f.startsWith(flag('--file')));
console.log('\n## 1. One compaction per transcript (extractive)\n');
console.log(
  `${pad('transcript', 40)}${lpad('budget', 8)}${lpad('before', 8)}${lpad('after', 8)}${lpad('ckpt', 7)}${lpad('summary alone', 15)}${lpad('checkpoint', 12)}${lpad('cut lines', 11)}${lpad('dup items', 11)}`,
);
const details = [];
const loaded = new Map();
for (const f of files) {
  const spec = JSON.parse(readFileSync(probeDir + f, 'utf8'));
  const path = data + spec.transcript;
  if (!existsSync(path)) {
    console.log(`${pad(spec.transcript, 40)} (missing)`);
    continue;
  }
  const t = await readTranscriptFile(path);
  loaded.set(f, { spec, t });
  const probes = spec.probes;
  const n = probes.length;
  if (spec.span.piCompaction) {
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
    const engine = new BasicCompactionEngine({ threshold: before, retainTokens: 1, summaryMaxTokens: piTokens + frame, meter: new TokenMeter() });
    const r = await engine.compactRegion(log, span[0].seq, span[span.length - 1].seq);
    const ck = blockText(r.summary[0]);
    const kAlone = score(alone, probes);
    const kCk = score(ck, probes);
    const kPi = score(rec.summary, probes);
    console.log(
      `${pad(spec.transcript + ' (pi span)', 40)}${lpad('-', 8)}${lpad(r.tokensBefore, 8)}${lpad(r.tokensAfter, 8)}${lpad(r.summaryTokens, 7)}${lpad(`${kAlone.length}/${n} @${meter.countText(alone)}`, 15)}${lpad(`${kCk.length}/${n}`, 12)}${lpad(cutLines(ck), 11)}${lpad(duplicateItems(ck), 11)}`,
    );
    console.log(`${pad("  pi's own LLM summary of that span", 40)}${lpad('', 8)}${lpad('', 8)}${lpad('', 8)}${lpad(piTokens, 7)}${lpad(`${kPi.length}/${n}`, 15)}${lpad('', 12)}${lpad(cutLines(rec.summary), 11)}${lpad(duplicateItems(rec.summary), 11)}`);
    details.push(`${spec.transcript} (pi span): summary alone missed ${probes.filter((p) => !kAlone.includes(p.id)).map((p) => p.id).join(', ') || 'none'}; checkpoint missed ${probes.filter((p) => !kCk.includes(p.id)).map((p) => p.id).join(', ') || 'none'}; pi missed ${probes.filter((p) => !kPi.includes(p.id)).map((p) => p.id).join(', ') || 'none'}`);
    continue;
  }
  const budget = Number(flag('--budget') ?? spec.span.budget);
  // the transcript as read (a host's own checkpoints included), as the CLI compacts it
  const log = t.log;
  // the CLI's defaults: the verbatim tail may grow to about half of the budget
  const engine = new BasicCompactionEngine({ threshold: budget, retainTokens: spec.span.retain ?? Math.floor(budget / 2), meter: new TokenMeter() });
  let r;
  try {
    r = await engine.compactNow(log);
  } catch (err) {
    console.log(`${pad(spec.transcript, 40)}${lpad(budget, 8)}  ${err.message.slice(0, 120)}`);
    continue;
  }
  if (!r.compacted) {
    console.log(`${pad(spec.transcript, 40)}${lpad(budget, 8)}${lpad(r.tokensBefore, 8)}  nothing compacted (${r.noopReason})`);
    continue;
  }
  const ck = blockText(r.summary[0]);
  const sumRec = log.events().filter((e) => e.type === 'compaction/summary').pop();
  const span = r.shadowedSeqs.map((s) => log.get(s));
  const tail = log.surface().slice(log.surfacePosition(r.checkpointSeq) + 1);
  const alone = (await new ExtractiveSummarizer().summarize({ span, tail, maxTokens: sumRec.data.maxTokens, meter })).text;
  const kAlone = score(alone, probes);
  const kCk = score(ck, probes);
  const kAll = score(log.surface().map((n) => n.content.map((b) => blockText(b)).join('\n')).join('\n'), probes);
  console.log(
    `${pad(spec.transcript, 40)}${lpad(budget, 8)}${lpad(r.tokensBefore, 8)}${lpad(r.tokensAfter, 8)}${lpad(r.summaryTokens, 7)}${lpad(`${kAlone.length}/${n}`, 15)}${lpad(`${kCk.length}/${n}`, 12)}${lpad(cutLines(ck), 11)}${lpad(duplicateItems(ck), 11)}`,
  );
  details.push(`${spec.transcript}: checkpoint missed ${probes.filter((p) => !kCk.includes(p.id)).map((p) => p.id).join(', ') || 'none'}; of those, in the verbatim tail: ${probes.filter((p) => !kCk.includes(p.id) && kAll.includes(p.id)).map((p) => p.id).join(', ') || 'none'}`);
}
console.log('\n(summary alone: the extractive summarizer at the body budget the engine gave it, before anchor re-insertion; checkpoint: the framed node that landed)');
for (const d of details) console.log('  ' + d);

// ---------------------------------------------------------------- 2
console.log('\n## 2. Five successive compactions of one growing session\n');
console.log(`${pad('transcript', 34)}${lpad('budget', 8)}${lpad('compactions', 13)}  ${pad('checkpoint tokens', 26)}${lpad('kept by 1st', 13)}${lpad('kept by 5th', 13)}${lpad('max surface', 13)}  lost`);
for (const [f, { spec, t }] of loaded) {
  const msgs = originalMessages(t);
  const total = new TokenMeter().countEvents(msgs);
  if (total < 6000) continue;
  // a budget small enough that the session compacts at least five times
  const budget = Number(flag('--budget5') ?? Math.max(4000, Math.floor(total / 8)));
  const engine = new BasicCompactionEngine({ threshold: budget, retainTokens: Math.floor(budget / 2), meter: new TokenMeter() });
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
  if (flag('--show') === spec.transcript) console.log(last?.text);
  console.log(
    `${pad(spec.transcript, 34)}${lpad(budget, 8)}${lpad(checkpoints.length, 13)}  ${pad(checkpoints.map((c) => c.tokens).join('/'), 26)}${lpad(`${first.length}/${spec.probes.length}`, 13)}${lpad(`${first.filter((id) => fifth.includes(id)).length}/${first.length}`, 13)}${lpad(maxSurface, 13)}  ${lost.join(', ') || '-'}${checkpoints.some((c) => c.error) ? '  errors: ' + checkpoints.filter((c) => c.error).map((c) => c.error.slice(0, 80)).join('; ') : ''}`,
  );
}
console.log('(kept by 5th: probes the first checkpoint kept that the fifth still keeps; lost: first-span probes the later merges dropped)');
