#!/usr/bin/env node
// kill -9 during an in-place compaction (figures printed, never asserted). Needs a build: npm run build
//   node bench/compact-kill.mjs [--trials 100]
// Each trial copies pi/large-session.jsonl (2.4 MB) into a fresh folder, starts
// `hive-mind compact F --budget 50000 --out F` (in place, so a backup is kept) and sends SIGKILL
// after a random delay between 0 and 1.2x the duration of an undisturbed run (measured first, in
// the same run). Then it checks what is on disk:
//   - the session: the original bytes, or a complete compacted file (reads back, holds the checkpoint);
//   - the backup, when there is one: exactly the original bytes (never a partial copy);
//   - leftovers: temp files (`.<name>.tmp-*`, `.<name>.hive-mind-backup-tmp-*`) a kill left behind.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readTranscriptFile } from '../packages/transcripts/dist/index.js';
import { arg, cli, root } from './lib.mjs';

const trials = arg('--trials', 100);
const src = join(root, '../shared/data/transcripts/pi/large-session.jsonl');
const original = readFileSync(src);
const args = (f) => [cli, 'compact', f, '--budget', '50000', '--out', f];

function run(f, killAfterMs) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args(f), { stdio: 'ignore' });
    let timer;
    if (killAfterMs !== undefined) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, ms: performance.now() - t0 });
    });
  });
}

async function state(dir, f) {
  const bytes = readFileSync(f);
  let session;
  if (bytes.equals(original)) session = 'original';
  else {
    try {
      const t = await readTranscriptFile(f);
      const ok = t.log.surface().some((n) => n.content.some((b) => b.type === 'text' && b.text.includes('<compacted-summary>')));
      session = ok ? 'compacted' : 'BROKEN';
    } catch {
      session = 'BROKEN';
    }
  }
  const names = readdirSync(dir);
  const backups = names.filter((n) => /\.hive-mind-backup-\d/.test(n));
  const badBackups = backups.filter((n) => !readFileSync(join(dir, n)).equals(original)).length;
  const leftovers = names.filter((n) => n.startsWith('.')).length;
  return { session, backups: backups.length, badBackups, leftovers };
}

const base = mkdtempSync(join(tmpdir(), 'hm-kill-'));
try {
  // an undisturbed run, same machine, same run: the kill window
  const d0 = join(base, 'ref');
  mkdirSync(d0);
  copyFileSync(src, join(d0, 's.jsonl'));
  const ref = await run(join(d0, 's.jsonl'));
  const refState = await state(d0, join(d0, 's.jsonl'));
  console.log(`undisturbed in-place run: exit ${ref.code}, ${ref.ms.toFixed(0)} ms, session ${refState.session}, backups ${refState.backups}`);
  const counts = { original: 0, compacted: 0, BROKEN: 0, killed: 0, finished: 0, withBackup: 0, badBackups: 0, leftovers: 0 };
  for (let i = 0; i < trials; i++) {
    const d = join(base, `t${i}`);
    mkdirSync(d);
    const f = join(d, 's.jsonl');
    copyFileSync(src, f);
    const r = await run(f, Math.random() * ref.ms * 1.2);
    if (r.signal === 'SIGKILL') counts.killed++;
    else counts.finished++;
    const s = await state(d, f);
    counts[s.session]++;
    if (s.backups) counts.withBackup++;
    counts.badBackups += s.badBackups;
    if (s.leftovers) counts.leftovers++;
    rmSync(d, { recursive: true, force: true });
  }
  console.log(`trials: ${trials} (killed ${counts.killed}, finished before the kill ${counts.finished})`);
  console.log(`session afterwards: original ${counts.original}, complete compacted ${counts.compacted}, broken ${counts.BROKEN}`);
  console.log(`backups: trials with one ${counts.withBackup}, backups not equal to the original ${counts.badBackups}`);
  console.log(`trials that left a temp file behind: ${counts.leftovers}`);
} finally {
  rmSync(base, { recursive: true, force: true });
}
