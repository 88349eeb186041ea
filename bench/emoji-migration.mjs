#!/usr/bin/env node
// What the v6 -> v7 migration (packages/mind/src/store/schema.ts: emoji indexed, analyze.ts indexText)
// costs on an existing file, printed, never asserted. A 100k-frame .mind (content: words of the shared
// transcripts, lib.mjs loadVocab) is made at v6 with 0, 1% and 10% of its frames holding an emoji
// (🧘‍♀️ 👨‍👩‍👧 🏳️‍🌈 👍🏽 ❤️ in turn), then opened by the current build, which migrates it.
// Baseline in the same run, on a copy of the same file: a migration that re-indexes every frame (each
// FTS row rewritten, as a blanket `UPDATE frames SET search_text = search_text` does through the FTS
// trigger), the storm this one avoids by writing only the frames whose index text changes.
// Printed per file: the open (with migration) in ms, frames re-indexed, the open of the same file
// once migrated (what any open costs), and the baseline's ms.
//
// Needs a build (`npx tsc -b packages/mind`). Usage: node bench/emoji-migration.mjs [--frames N]
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { loadVocab, root } from './lib.mjs';

const { Mind, indexText } = await import(join(root, 'packages/mind/dist/index.js'));
const Database = createRequire(join(root, 'packages/mind/package.json'))('better-sqlite3');
const arg = process.argv.indexOf('--frames');
const N = arg > 0 ? Number(process.argv[arg + 1]) : 100_000;
const { words: VOCAB } = loadVocab();
const EMOJI = ['🧘‍♀️', '👨‍👩‍👧', '🏳️‍🌈', '👍🏽', '❤️'];
let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const sentence = () => Array.from({ length: 12 }, () => VOCAB[Math.floor(rnd() * VOCAB.length)]).join(' ');

const pending = [];
const dir = mkdtempSync(join(tmpdir(), 'hm-emoji-mig-'));
console.log(`v6 -> v7 migration at ${N} frames (node ${process.version})`);
console.log('emoji share | frames re-indexed | open + migration ms | open, already v7 ms | baseline: every frame re-indexed ms');
for (const share of [0, 0.01, 0.1]) {
  const path = join(dir, `m${share}.mind`);
  Mind.open(path).close();
  let db = new Database(path);
  const ins = db.prepare("INSERT INTO frames (content, importance, scope, source, content_hash, created_at, updated_at) VALUES (?, 'normal', 'personal', 'import', ?, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')");
  const every = share ? Math.round(1 / share) : 0;
  db.transaction(() => {
    for (let i = 0; i < N; i++) ins.run(every && i % every === 0 ? `${sentence()} ${EMOJI[(i / every) % EMOJI.length]}` : sentence(), `h${i}`);
  })();
  db.pragma('user_version = 6'); // as v6 left it: search_text NULL for non-CJK frames
  db.close();
  const copy = join(dir, `b${share}.mind`);
  copyFileSync(path, copy);
  let t0 = performance.now();
  const m = Mind.open(path);
  const ms = performance.now() - t0;
  const reindexed = m.database.prepare('SELECT count(*) AS n FROM frames WHERE search_text IS NOT NULL').get().n;
  m.close();
  t0 = performance.now();
  Mind.open(path).close();
  const again = performance.now() - t0;
  // baseline: every frame's FTS row rewritten
  db = new Database(copy);
  t0 = performance.now();
  db.transaction(() => {
    for (const r of db.prepare('SELECT id, content FROM frames').all()) pending.push([indexText(r.content), r.id]);
    const set = db.prepare('UPDATE frames SET search_text = ? WHERE id = ?');
    for (const [x, id] of pending.splice(0)) set.run(x, id);
  })();
  const base = performance.now() - t0;
  db.close();
  console.log(`${(share * 100).toFixed(0)}% | ${reindexed} | ${ms.toFixed(0)} | ${again.toFixed(0)} | ${base.toFixed(0)}`);
}

rmSync(dir, { recursive: true, force: true });
