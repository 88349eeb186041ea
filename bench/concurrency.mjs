#!/usr/bin/env node
// Concurrency under load (issue 12, "Concurrency without loss or false alarms"), printed, never asserted.
//
// Phase 1. WRITERS writers x SAVES saves into one workspace mind that does not exist yet (the first
//   saves race to create it, issue 25), all at once, while a large `hive-mind mind import` (a generated
//   Claude Code session of IMPORT_MESSAGES messages) writes to the same file:
//   - hook writers: child processes running the real hook runner (`runHook`, the code `hive-mind hook`
//     runs) for `claude-code UserPromptSubmit`, one payload per save, each opening and closing the mind;
//   - CLI writers: one spawning the real `hive-mind mind save` per save, the others running the CLI's
//     `main(['mind', 'save', …])` in their process per save (the same code without a process start per
//     save, which for all of them would take longer than the machine has);
//   - MCP writers: real `hive-mind mcp` servers over stdio, `save_memory` through the MCP SDK client.
//   Then `hive-mind mind doctor` (replays the pending spool) and a count: every save carries a unique
//   marker; lost = markers not found. Errors: failures reported by writers, plus hook-log lines other
//   than spool notices; NOT_MIND: hook-log lines where a hook took the mind for not a mind (one another
//   process was creating), counted apart. Integrity: `PRAGMA integrity_check`. Spooled: captures the
//   hooks spooled.
// Phase 2. kill -9 during saves: KILL_WORKERS processes save in a loop and print each save the store
//   confirmed; each is killed with SIGKILL at a random time after its first confirmed save; every
//   confirmed save must be present.
//
// Needs a build (`npm run build`). Usage: node bench/concurrency.mjs [--writers 32] [--saves 250] [--import 6000]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { arg, root, cli } from './lib.mjs';

const WRITERS = arg('--writers', 32);
const SAVES = arg('--saves', 250);
const IMPORT_MESSAGES = arg('--import', 6000);
const KILL_WORKERS = arg('--kill', 8);
const mindUrl = pathToFileURL(join(root, 'packages/mind/dist/index.js')).href;
const runUrl = pathToFileURL(join(root, 'packages/hooks/dist/run.js')).href;
const cliMainUrl = pathToFileURL(join(root, 'packages/cli/dist/main.js')).href;
const sdkClient = pathToFileURL(join(root, 'node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js')).href;
const sdkStdio = pathToFileURL(join(root, 'node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js')).href;

const tmp = mkdtempSync(join(tmpdir(), 'hm-bench-conc-'));
const home = join(tmp, 'hm');
const project = join(tmp, 'project');
mkdirSync(join(project, '.git'), { recursive: true });
const env = { ...process.env, HIVE_MIND_HOME: home, HOME: join(tmp, 'user') };
const { Mind, workspaceMindPath, pendingSpooled } = await import(mindUrl);
const { workspaceOf } = await import(pathToFileURL(join(root, 'packages/hooks/dist/index.js')).href);
const mindPath = workspaceMindPath(workspaceOf(project), env);

// the session to import: user instructions and decisions, so that most messages become frames
const lines = [];
for (let i = 0; i < IMPORT_MESSAGES; i += 2) {
  const base = { cwd: project, sessionId: 'import-1', version: '2.1.14', userType: 'external', isSidechain: false, timestamp: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString() };
  lines.push(JSON.stringify({ ...base, type: 'user', uuid: `u${i}`, parentUuid: i ? `a${i - 2}` : null, message: { role: 'user', content: `Always run the integration suite ${i} before merging module m${i}; never skip it.` } }));
  lines.push(JSON.stringify({ ...base, type: 'assistant', uuid: `a${i}`, parentUuid: `u${i}`, message: { role: 'assistant', model: 'claude', content: [{ type: 'text', text: `We decided to use the retry queue q${i} for module m${i} because the old path dropped writes.` }] } }));
}
const transcript = join(tmp, 'session.jsonl');
writeFileSync(transcript, lines.join('\n') + '\n');

function child(code, args = []) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--input-type=module', '-e', code, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (c) => resolve({ code: c, out, err }));
  });
}

const hookWorker = (w) => `
import { Readable } from 'node:stream';
const { runHook } = await import(${JSON.stringify(runUrl)});
let errors = 0;
for (let i = 0; i < ${SAVES}; i++) {
  const body = JSON.stringify({ session_id: 'hook-${w}', transcript_path: '/nonexistent', cwd: ${JSON.stringify(project)}, hook_event_name: 'UserPromptSubmit', prompt: 'remember that marker-h${w}-' + i + ' is stored' });
  const r = await runHook(['claude-code', 'UserPromptSubmit'], { stdin: Readable.from([body]), env: process.env, write: () => {} });
  if (r.error) { errors++; console.error(r.error); }
}
console.log(JSON.stringify({ errors }));`;

const cliMainWorker = (w) => `
const { main } = await import(${JSON.stringify(cliMainUrl)});
let errors = 0;
for (let i = 0; i < ${SAVES}; i++) {
  process.exitCode = 0;
  try { await main(['mind', 'save', 'cli fact marker-c${w}-' + i, '--mind', ${JSON.stringify(mindPath)}]); } catch (e) { errors++; console.error(e.message); }
  if (process.exitCode) { errors++; process.exitCode = 0; }
}
console.log(JSON.stringify({ errors }));`;

const cliSpawnWorker = (w) => `
import { spawnSync } from 'node:child_process';
let errors = 0;
for (let i = 0; i < ${SAVES}; i++) {
  const r = spawnSync(process.execPath, [${JSON.stringify(cli)}, 'mind', 'save', 'cli fact marker-c${w}-' + i, '--mind', ${JSON.stringify(mindPath)}], { env: process.env, encoding: 'utf8' });
  if (r.status !== 0) { errors++; console.error(r.stderr.trim()); }
}
console.log(JSON.stringify({ errors }));`;

const mcpWorker = (w) => `
const { Client } = await import(${JSON.stringify(sdkClient)});
const { StdioClientTransport } = await import(${JSON.stringify(sdkStdio)});
const transport = new StdioClientTransport({ command: process.execPath, args: [${JSON.stringify(cli)}, 'mcp', '--workspace', ${JSON.stringify(project)}], env: process.env, stderr: 'ignore' });
const client = new Client({ name: 'bench-${w}', version: '1' });
await client.connect(transport);
let errors = 0;
for (let i = 0; i < ${SAVES}; i++) {
  const r = await client.callTool({ name: 'save_memory', arguments: { content: 'mcp fact marker-m${w}-' + i, scope: 'workspace' } });
  if (r.isError) { errors++; console.error(r.content?.[0]?.text); }
  else if (r.content?.[0]?.text?.includes('"status": "spooled"') || r.content?.[0]?.text?.includes('"status":"spooled"')) console.log('memory was queued');
}
await client.close();
console.log(JSON.stringify({ errors }));`;

const hooks = Math.round(WRITERS / 2);
const mcps = Math.round(WRITERS / 4);
const clis = WRITERS - hooks - mcps;
const kinds = [];
for (let w = 0; w < hooks; w++) kinds.push(['h', w, hookWorker(w)]);
for (let w = 0; w < clis; w++) kinds.push(['c', w, w === 0 ? cliSpawnWorker(w) : cliMainWorker(w)]);
for (let w = 0; w < mcps; w++) kinds.push(['m', w, mcpWorker(w)]);

console.log(`# ${WRITERS} writers x ${SAVES} saves (${hooks} hook runners, ${clis} CLI (1 spawning \`mind save\`, the others its main()), ${mcps} MCP servers) + mind import of ${IMPORT_MESSAGES} messages, one workspace mind`);
const t0 = performance.now();
const importRun = new Promise((resolve) => {
  const p = spawn(process.execPath, [cli, 'mind', 'import', transcript, '--mind', mindPath], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  p.stdout.on('data', (d) => (out += d));
  p.stderr.on('data', (d) => (err += d));
  p.on('close', (c) => resolve({ code: c, out, err, ms: performance.now() - t0 }));
});
const results = await Promise.all(kinds.map(([k, w, code]) => child(code).then((r) => ({ k, w, ...r }))));
const imp = await importRun;
const wall = performance.now() - t0;
const doctorRun = spawnSync(process.execPath, [cli, 'mind', 'doctor', '--mind', mindPath], { env, encoding: 'utf8' });

let workerErrors = 0;
for (const r of results) {
  let e = r.code === 0 ? 0 : 1;
  try {
    e += JSON.parse(r.out.trim().split('\n').pop()).errors;
  } catch {
    e += 1;
  }
  if (e) console.log(`  writer ${r.k}${r.w}: exit ${r.code}, ${e} error(s): ${r.err.trim().split('\n')[0]}`);
  workerErrors += e;
}
const logPath = join(home, 'logs', 'hooks.log');
const logLines = existsSync(logPath) ? readFileSync(logPath, 'utf8').split('\n').filter(Boolean) : [];
const spooledLines = logLines.filter((l) => /captures? spooled to/.test(l));
const queuedByCliMcp = results.reduce((n, r) => n + (r.out.match(/memory was queued|"status":"spooled"/g) ?? []).length, 0);
const spooled = spooledLines.reduce((n, l) => n + Number(/; (\d+) captures?/.exec(l)?.[1] ?? 0), 0);
const otherLog = logLines.filter((l) => !/captures? spooled to/.test(l));
const notMind = logLines.filter((l) => l.includes('(NOT_MIND)'));

const m = Mind.open(mindPath, { readonly: true });
const db = m.database;
const have = new Set(db.prepare("SELECT content FROM frames WHERE content LIKE '%marker-%'").all().flatMap((r) => [...r.content.matchAll(/marker-[hcm]\d+-\d+/g)].map((x) => x[0])));
let lost = 0;
const lostSample = [];
for (const [k, w] of kinds) for (let i = 0; i < SAVES; i++) if (!have.has(`marker-${k}${w}-${i}`)) (lost++, lostSample.length < 5 && lostSample.push(`marker-${k}${w}-${i}`));
const integrity = db.pragma('integrity_check', { simple: true });
const total = db.prepare('SELECT count(*) n FROM frames').get().n;
m.close();
console.log(`wall ${(wall / 1000).toFixed(1)} s; import exit ${imp.code} after ${(imp.ms / 1000).toFixed(1)} s (${(imp.out.trim().split('\n').pop() ?? '').slice(0, 120)})`);
console.log(`saves expected ${WRITERS * SAVES}, found ${WRITERS * SAVES - lost}, lost ${lost}${lost ? ` (e.g. ${lostSample.join(', ')})` : ''}`);
console.log(`errors: writers ${workerErrors}, hook-log lines other than spool notices ${otherLog.length}${otherLog.length ? ` (e.g. ${otherLog[0].slice(0, 160)})` : ''}`);
console.log(`NOT_MIND lines in the hook log: ${notMind.length}${notMind.length ? ` (e.g. ${notMind[0].slice(0, 200)})` : ''}`);
console.log(`spooled by hooks while busy: ${spooled} captures in ${spooledLines.length} runs, replayed (doctor exit ${doctorRun.status}; left in the spool: ${pendingSpooled(mindPath).frames} captures)`);
console.log(`queued (pending spool) by CLI main() and MCP saves while busy: ${queuedByCliMcp}`);
console.log(`integrity_check: ${integrity}; frames in the mind: ${total}`);

// Phase 2: kill -9 during saves
console.log(`\n# kill -9 during saves: ${KILL_WORKERS} processes saving in a loop, each killed with SIGKILL at a random time after its first confirmed save`);
const killPath = join(tmp, 'kill.mind');
Mind.open(killPath).close();
const confirmed = [];
await Promise.all(
  Array.from({ length: KILL_WORKERS }, (_, w) =>
    new Promise((resolve) => {
      const code = `const { Mind } = await import(${JSON.stringify(mindUrl)}); const m = Mind.open(${JSON.stringify(killPath)}); for (let i = 0; ; i++) { m.save({ content: 'kill fact marker-k${w}-' + i }); process.stdout.write('ok marker-k${w}-' + i + '\\n'); }`;
      const p = spawn(process.execPath, ['--input-type=module', '-e', code], { env, stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      let timer;
      const stuck = setTimeout(() => p.kill('SIGKILL'), 60_000); // one that never saves does not hang the bench
      p.stdout.on('data', (d) => {
        out += d;
        // from its first confirmed save on: a process still loading (a loaded machine) is not killed before it saved anything
        timer ??= setTimeout(() => p.kill('SIGKILL'), 50 + Math.random() * 1200);
      });
      p.on('close', () => {
        clearTimeout(stuck);
        for (const l of out.split('\n')) if (l.startsWith('ok ')) confirmed.push(l.slice(3));
        resolve();
      });
    }),
  ),
);
const km = Mind.open(killPath, { readonly: true });
const kept = new Set(km.database.prepare('SELECT content FROM frames').all().map((r) => r.content.replace('kill fact ', '')));
const kIntegrity = km.database.pragma('integrity_check', { simple: true });
km.close();
const missing = confirmed.filter((c) => !kept.has(c));
console.log(`confirmed saves ${confirmed.length}, present ${confirmed.length - missing.length}, missing ${missing.length}; integrity_check: ${kIntegrity}`);
rmSync(tmp, { recursive: true, force: true });
