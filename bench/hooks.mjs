#!/usr/bin/env node
// Benchmark of the hook path (packages/hooks), printed, never asserted.
//
// 1. Wall time per event with FRAMES frames in the workspace mind (default 200), as whole
//    processes fed the recorded Claude Code payloads: `hive-mind hook claude-code EVENT` for
//    SessionStart, UserPromptSubmit and Stop (each run a new prompt id, so every run really
//    writes), PreCompact and SessionEnd, beside `node -e 0`, a bare script (node, better-sqlite3,
//    one FTS5 row inserted into a file of its own: the floor of any hook that writes) and
//    `hive-mind --version`, in the same run, interleaved so machine noise hits all alike.
//    p50/p95 and the ratio to `node -e 0` (issue 23's target: every event at most 1.5x).
// 2. Module import cost of the hook path, in-process: the runner entry
//    (@hive-mind/hooks/run) and the lifecycles (mind + better-sqlite3).
// 3. SessionStart's output with FRAMES frames: size (bytes, estimated tokens =
//    ceil(chars/4), the mind's default meter) and the frames shown.
//
// Needs a build (`npm run build`). Usage: node bench/hooks.mjs [--runs N] [--frames N]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { percentile, arg, root, cli } from './lib.mjs';

const RUNS = arg('--runs', 30);
const FRAMES = arg('--frames', 200);
const data = join(root, '..', 'shared', 'data', 'host-payloads', 'claude-code');

const tmp = mkdtempSync(join(tmpdir(), 'hm-bench-hooks-'));
const project = join(tmp, 'project');
mkdirSync(join(project, '.git'), { recursive: true });
const env = { ...process.env, HIVE_MIND_HOME: join(tmp, 'hm') };
const sample = (event, n = 0) => JSON.parse(readFileSync(join(data, `${event}.jsonl`), 'utf8').split('\n').filter(Boolean)[n].split('/home/user/project').join(project));

function wall(args, input) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { input: input ?? '', env, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}
const pct = percentile;
const fmt = (x) => x.toFixed(1).padStart(7);

// the workspace mind with FRAMES frames, before any event runs
const { Mind, workspaceMindPath } = await import(pathToFileURL(join(root, 'packages/mind/dist/index.js')).href);
const m = Mind.open(workspaceMindPath(project, env));
const kinds = ['fact', 'decision', 'preference', 'outcome', 'error'];
const imps = ['critical', 'important', 'normal', 'normal', 'normal'];
const batch = [];
for (let i = 0; i < FRAMES; i++) {
  batch.push({ content: `Frame ${i}: module m${i % 97} uses setting k${i % 13}=${i} because test t${i % 31} needed it; see src/m${i % 97}.ts line ${i % 400}.`, kind: kinds[i % 5], importance: imps[i % 5], scope: 'workspace' });
  if (batch.length === 1000) m.saveMany(batch.splice(0));
}
if (batch.length) m.saveMany(batch);
const live = m.stats().live;
m.close();

// 1. per-event wall time
const ups = sample('UserPromptSubmit', 2);
const stop = sample('Stop', 2);
const ss = sample('SessionStart', 0);
const pre = sample('PreCompact', 0);
const end = sample('SessionEnd', 0);
// the floor of a hook that writes: node, better-sqlite3 loaded, a WAL file opened, one FTS5 row inserted
const bareScript = join(tmp, 'bare.mjs');
writeFileSync(
  bareScript,
  `import { createRequire } from 'node:module';\nconst Database = createRequire(${JSON.stringify(join(root, 'packages/mind/package.json'))})('better-sqlite3');\n` +
    `const db = new Database(process.argv[2]);\ndb.pragma('journal_mode = WAL');\ndb.exec('CREATE VIRTUAL TABLE IF NOT EXISTS t USING fts5(content)');\n` +
    `db.prepare('INSERT INTO t (content) VALUES (?)').run('remember that bench fact ' + Date.now());\ndb.close();\n`,
);
const series = {
  'node -e 0': [],
  'bare script (SQLite + 1 FTS5 insert)': [],
  'hive-mind --version': [],
  'hook claude-code SessionStart': [],
  'hook claude-code UserPromptSubmit': [],
  'hook claude-code Stop': [],
  'hook claude-code PreCompact': [],
  'hook claude-code SessionEnd': [],
};
let out = '';
wall(['-e', '0']);
wall([cli, '--version']); // warm the disk cache once
for (let i = 0; i < RUNS; i++) {
  const id = `bench-${i}`;
  series['node -e 0'].push(wall(['-e', '0']).ms);
  series['bare script (SQLite + 1 FTS5 insert)'].push(wall([bareScript, join(tmp, 'bare.db')]).ms);
  series['hive-mind --version'].push(wall([cli, '--version']).ms);
  const r = wall([cli, 'hook', 'claude-code', 'SessionStart'], JSON.stringify(ss));
  series['hook claude-code SessionStart'].push(r.ms);
  out = r.stdout;
  series['hook claude-code UserPromptSubmit'].push(wall([cli, 'hook', 'claude-code', 'UserPromptSubmit'], JSON.stringify({ ...ups, prompt_id: id, prompt: `remember that bench fact ${i} holds; please fix the parser in src/p${i}.ts` })).ms);
  series['hook claude-code Stop'].push(wall([cli, 'hook', 'claude-code', 'Stop'], JSON.stringify({ ...stop, prompt_id: id, last_assistant_message: `Fixed the off-by-one in src/p${i}.ts; all tests pass now. We decided to keep the old API.` })).ms);
  series['hook claude-code PreCompact'].push(wall([cli, 'hook', 'claude-code', 'PreCompact'], JSON.stringify(pre)).ms);
  series['hook claude-code SessionEnd'].push(wall([cli, 'hook', 'claude-code', 'SessionEnd'], JSON.stringify({ ...end, transcript_path: undefined })).ms);
}
const base50 = pct(series['node -e 0'], 50);
console.log(`hook wall time with ${live} live frames in the workspace mind, ${RUNS} runs each, interleaved (ms; ratio = p50 / p50 of node -e 0)`);
console.log(`${'command'.padEnd(36)} ${'p50'.padStart(7)} ${'p95'.padStart(7)}  ratio`);
for (const [k, xs] of Object.entries(series)) console.log(`${k.padEnd(36)} ${fmt(pct(xs, 50))} ${fmt(pct(xs, 95))}  ${(pct(xs, 50) / base50).toFixed(2)}x`);

// 2. import cost (in a fresh process each, so nothing is cached)
const importMs = (spec) => {
  const code = `const t=performance.now(); await import(${JSON.stringify(spec)}); process.stdout.write(String(performance.now()-t));`;
  const xs = [];
  for (let i = 0; i < 5; i++) xs.push(Number(spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' }).stdout));
  return pct(xs, 50);
};
const hooksDist = join(root, 'packages/hooks/dist');
console.log(`\nimport cost, fresh process, p50 of 5 (ms)`);
for (const [name, spec] of [
  ['@hive-mind/hooks/run (runner + registry)', pathToFileURL(join(hooksDist, 'run.js')).href],
  ['hooks/dist/hosts/claude-code.js (adapter)', pathToFileURL(join(hooksDist, 'hosts/claude-code.js')).href],
  ['hooks/dist/lifecycles.js (mind + SQLite)', pathToFileURL(join(hooksDist, 'lifecycles.js')).href],
  ['@hive-mind/mind (index)', pathToFileURL(join(root, 'packages/mind/dist/index.js')).href],
  ...(existsSync(join(root, 'packages/mind/dist/hook.js')) ? [['@hive-mind/mind/hook (what the hooks use)', pathToFileURL(join(root, 'packages/mind/dist/hook.js')).href]] : []),
]) console.log(`${name.padEnd(44)} ${fmt(importMs(spec))}`);

// 3. SessionStart's output (the last run's)
const ctx = out ? JSON.parse(out).hookSpecificOutput.additionalContext : '';
console.log(`\nSessionStart's output with ${live} live frames in the workspace mind (budget ${env.HIVE_MIND_RECALL_TOKENS ?? 1500} tokens)`);
console.log(`stdout ${Buffer.byteLength(out)} bytes; additionalContext ${ctx.length} chars ~ ${Math.ceil(ctx.length / 4)} tokens (chars/4), ${ctx.split('\n').filter((l) => l.startsWith('- ')).length} frames shown`);
rmSync(tmp, { recursive: true, force: true });
