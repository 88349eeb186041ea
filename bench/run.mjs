#!/usr/bin/env node
// Runs every benchmark in this folder in turn (each prints its own table).
//   npm run build && npm run bench            # all
//   npm run bench -- transcripts compaction    # some, by file name
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const wanted = process.argv.slice(2);
const all = readdirSync(dir).filter((f) => f.endsWith('.mjs') && f !== 'run.mjs' && f !== 'lib.mjs').sort();
const chosen = wanted.length ? all.filter((f) => wanted.includes(f.replace(/\.mjs$/, ''))) : all;
let failed = 0;
for (const f of chosen) {
  console.log(`\n=== bench/${f} ===`);
  const r = spawnSync(process.execPath, [`${dir}${f}`], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
