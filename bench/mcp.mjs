#!/usr/bin/env node
// Benchmark of the hive-mind MCP server (packages/mcp), printed, never asserted.
//
// 1. Start-up: wall time from spawning `hive-mind mcp` to the answer of the first
//    `tools/list` (initialize + initialized + tools/list written at once on stdin), and to
//    the answer of a first `tools/call` sent right after it, with the fast start (answers the
//    build recorded, packages/mcp/src/fast-start.ts) and without it (HIVE_MIND_MCP_FAST_START=0),
//    p50/p95 over RUNS runs, beside spawning `node -e 0` to exit and importing the MCP SDK
//    server and stdio transport, v1 (@modelcontextprotocol/sdk, what the server uses) and the
//    split v2 packages (@modelcontextprotocol/server and its stdio transport), in the same run.
// 2. search_memory over stdio at 10k frames: round-trip p50/p95 through the SDK client,
//    beside the same queries run in-process with Mind.search (the store's own cost).
//
// Needs a build (`npm run build`). Usage: node bench/mcp.mjs [--runs N] [--frames N] [--queries N]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { percentile, arg, root, cli } from './lib.mjs';

const RUNS = arg('--runs', 15);
const FRAMES = arg('--frames', 10_000);
const QUERIES = arg('--queries', 300);

const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
const { Mind } = await import(join(root, 'packages/mind/dist/index.js'));

const pct = percentile;
const ms = (x) => `${x.toFixed(1)} ms`;

function spawnNode(args) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const c = spawn(process.execPath, args, { stdio: 'ignore', cwd: join(root, 'packages/mcp') });
    c.on('error', reject);
    c.on('exit', () => resolve(performance.now() - t0));
  });
}

/** Spawn `hive-mind mcp`; ms to the tools/list answer and, when `call`, to the answer of a tools/call sent after it. */
function startToToolsList(home, { env = {}, call = false } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const c = spawn(process.execPath, [cli, 'mcp'], { env: { ...process.env, HIVE_MIND_HOME: home, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let buf = '';
    let err = '';
    let listed;
    const send = (m) => c.stdin.write(JSON.stringify(m) + '\n');
    const finish = (value) => {
      c.stdin.end();
      c.on('exit', () => resolve(value));
    };
    c.stderr.on('data', (d) => (err += d));
    c.stdout.on('data', (d) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf('\n')) !== -1) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let m;
        try {
          m = JSON.parse(line);
        } catch {
          continue;
        }
        if (m.id === 2) {
          listed = performance.now() - t0;
          if (!m.result?.tools?.length) return reject(new Error(`tools/list failed: ${line}`));
          if (!call) return finish({ listed });
          send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'mind_stats', arguments: {} } });
        }
        if (m.id === 3) {
          if (m.result?.isError !== false && !m.result?.content) return reject(new Error(`tools/call failed: ${line}`));
          return finish({ listed, called: performance.now() - t0 });
        }
      }
    });
    c.on('error', reject);
    c.on('exit', (code) => {
      if (listed === undefined) reject(new Error(`server exited ${code} before tools/list: ${err}`));
    });
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
  });
}

const WORDS = ('alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango ' +
  'uniform victor whiskey xray yankee zulu sqlite postgres redis kafka docker kubernetes terraform react svelte vite webpack eslint prettier ' +
  'typescript python rust golang java kotlin swift deploy staging production migration schema index cache queue worker cron backup restore').split(' ');
let seed = 42;
const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const pick = () => WORDS[Math.floor(rnd() * WORDS.length)];
const sentence = (n) => Array.from({ length: n }, pick).join(' ');

const home = mkdtempSync(join(tmpdir(), 'hm-bench-mcp-'));
try {
  console.log(`# hive-mind MCP server bench  (node ${process.version}, ${new Date().toISOString()})`);
  console.log(`\n## start-up: spawn -> first tools/list answer (${RUNS} runs each, interleaved)`);
  const noop = [];
  const sdk = [];
  const v2 = [];
  const fast = [];
  const slow = [];
  const SDK_ONLY = "await import('@modelcontextprotocol/sdk/server/mcp.js'); await import('@modelcontextprotocol/sdk/server/stdio.js')";
  const V2_ONLY = "await import('@modelcontextprotocol/server'); await import('@modelcontextprotocol/server/stdio')";
  let hasV2 = true;
  try {
    await import('@modelcontextprotocol/server');
  } catch {
    hasV2 = false;
  }
  await startToToolsList(home, { call: true }); // warm the file cache once
  await spawnNode(['--input-type=module', '-e', SDK_ONLY]);
  for (let i = 0; i < RUNS; i++) {
    noop.push(await spawnNode(['-e', '0']));
    sdk.push(await spawnNode(['--input-type=module', '-e', SDK_ONLY]));
    if (hasV2) v2.push(await spawnNode(['--input-type=module', '-e', V2_ONLY]));
    fast.push(await startToToolsList(home, { call: true }));
    slow.push(await startToToolsList(home, { call: true, env: { HIVE_MIND_MCP_FAST_START: '0' } }));
  }
  const row = (label, xs) => console.log(`${label.padEnd(58)} p50 ${ms(pct(xs, 50))}  p95 ${ms(pct(xs, 95))}`);
  const ratio = (xs) => `${(pct(xs, 50) / pct(noop, 50)).toFixed(2)}x`;
  row('node -e 0 (spawn to exit)', noop);
  row('node importing the v1 SDK server + stdio (exit)', sdk);
  if (hasV2) row('node importing the v2 SDK server + stdio (exit)', v2);
  else console.log('(v2 not installed: npm install @modelcontextprotocol/server to compare)');
  row('hive-mind mcp: spawn to tools/list, fast start', fast.map((r) => r.listed));
  row('hive-mind mcp: spawn to tools/list, fast start off', slow.map((r) => r.listed));
  row('hive-mind mcp: spawn to first tools/call, fast start', fast.map((r) => r.called));
  row('hive-mind mcp: spawn to first tools/call, fast start off', slow.map((r) => r.called));
  console.log(
    `ratios (p50) to node -e 0: tools/list ${ratio(fast.map((r) => r.listed))} with the fast start (target <= 1.5x), ${ratio(slow.map((r) => r.listed))} without; ` +
      `SDK import v1 ${ratio(sdk)}${hasV2 ? `, v2 ${ratio(v2)}` : ''}`,
  );

  console.log(`\n## search_memory at ${FRAMES} frames (${QUERIES} queries)`);
  const path = join(home, 'personal.mind');
  const mind = Mind.open(path);
  const t0 = performance.now();
  const BATCH = 1000;
  for (let i = 0; i < FRAMES; i += BATCH) {
    const batch = [];
    for (let j = i; j < Math.min(FRAMES, i + BATCH); j++) batch.push({ content: `${j} ${sentence(12 + Math.floor(rnd() * 20))}`, kind: 'fact', importance: 'normal', source: 'import', host: 'bench' });
    mind.saveMany(batch);
  }
  console.log(`seeded ${FRAMES} frames in ${ms(performance.now() - t0)}`);
  const queries = Array.from({ length: QUERIES }, () => sentence(1 + Math.floor(rnd() * 3)));
  for (const q of queries) mind.search(q, { limit: 10 }); // warm-up (page cache, JIT), untimed
  const direct = [];
  for (const q of queries) {
    const s = performance.now();
    mind.search(q, { limit: 10 });
    direct.push(performance.now() - s);
  }
  mind.close();

  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], env: { ...process.env, HIVE_MIND_HOME: home }, stderr: 'inherit' });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  for (const q of queries.slice(0, 50)) await client.callTool({ name: 'search_memory', arguments: { query: q, limit: 10 } }); // warm-up, untimed
  const over = [];
  let hits = 0;
  for (const q of queries) {
    const s = performance.now();
    const r = await client.callTool({ name: 'search_memory', arguments: { query: q, limit: 10 } });
    over.push(performance.now() - s);
    if (r.isError) throw new Error(`search failed: ${r.content[0].text}`);
    hits += JSON.parse(r.content[0].text).results.length;
  }
  await client.close();
  console.log(`Mind.search in-process (limit 10)    p50 ${ms(pct(direct, 50))}  p95 ${ms(pct(direct, 95))}`);
  console.log(`search_memory over stdio (limit 10)  p50 ${ms(pct(over, 50))}  p95 ${ms(pct(over, 95))}  (avg hits/query ${(hits / QUERIES).toFixed(1)})`);
  console.log(`ratio (p50)                          ${(pct(over, 50) / pct(direct, 50)).toFixed(2)}x in-process`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
