/**
 * Issue 25: processes of every kind opening a workspace mind that does not exist yet, at the same
 * moment. Hook runner processes (Claude Code and Codex UserPromptSubmit, some after a
 * SessionStart: readonly recall, then the capture), CLI `mind save`, MCP servers' `save_memory`
 * and a spawned `hive-mind hook` process, round after round, each round in a new project (so a new
 * workspace mind). No hook may log the file as not a mind (NOT_MIND) and every capture must be
 * stored. Needs the CLI built (`npx tsc -b packages/cli`; `npm ci` builds it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Mind, replaySpool, workspaceMindPath } from '@hive-mind/mind';
import { workspaceOf } from '../src/workspace.js';
import { startWorker, type Worker } from '../../../test-support/workers.js';
import { CLI, logLines, payload, runCli, sandbox } from './helpers.js';

/** Rounds, each in a new project; each round starts every process below at once. */
const ROUNDS = 10;
/** Hook runner processes (Claude Code and Codex alternately); the even ones run SessionStart first. */
const HOOKS = 6;
/** Processes running the CLI's `mind save`. */
const CLIS = 2;
/** `hive-mind mcp` servers, each saving through the MCP client. */
const MCPS = 2;

const dist = (pkg: string, file: string) => pathToFileURL(fileURLToPath(new URL(`../../${pkg}/dist/${file}`, import.meta.url))).href;

describe('a new workspace mind opened by many processes at the same moment (issue 25)', { timeout: 240_000 }, () => {
  const s = sandbox();
  const log = join(s.home, 'logs', 'hooks.log');
  const hooks: Worker[] = [];
  const clis: Worker[] = [];
  const mcps: Array<{ client: Client; roots: string[] }> = [];

  beforeAll(async () => {
    // each worker loads what it runs once; a round only sends it the go
    const hookPrelude = `import { Readable } from 'node:stream'; const { runHook } = await import(${JSON.stringify(dist('hooks', 'run.js'))});`;
    const hookHandler = `
      const errors = [];
      for (const [host, event, body] of cmd.runs) {
        const r = await runHook([host, event], { stdin: Readable.from([JSON.stringify(body)]), env: process.env, write: () => {} });
        if (r.error) errors.push(host + ' ' + event + ': ' + r.error);
      }
      return { errors };`;
    const cliPrelude = `const { main } = await import(${JSON.stringify(dist('cli', 'main.js'))});`;
    const cliHandler = `process.exitCode = 0; await main(cmd.argv); const code = process.exitCode ?? 0; process.exitCode = 0; return { code };`;
    const started = await Promise.all([
      ...Array.from({ length: HOOKS }, () => startWorker(hookPrelude, hookHandler, s.env)),
      ...Array.from({ length: CLIS }, () => startWorker(cliPrelude, cliHandler, s.env)),
    ]);
    hooks.push(...started.slice(0, HOOKS));
    clis.push(...started.slice(HOOKS));
    for (let i = 0; i < MCPS; i++) {
      const entry = { client: new Client({ name: `race-${i}`, version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } }), roots: [] as string[] };
      entry.client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: entry.roots.map((r) => ({ uri: pathToFileURL(r).href })) }));
      await entry.client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], env: s.env as Record<string, string>, stderr: 'ignore' }));
      mcps.push(entry);
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...hooks, ...clis].map((w) => w.close()));
    await Promise.all(mcps.map((m) => m.client.close()));
    rmSync(s.root, { recursive: true, force: true });
  });

  it(`${ROUNDS} rounds of ${HOOKS} hook runners, ${CLIS} CLI saves, ${MCPS} MCP saves and a hook process on a mind not there yet: no NOT_MIND, every capture stored`, async () => {
    const failures: string[] = [];
    const rounds: Array<{ path: string; markers: string[] }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const project = join(s.root, `project-${round}`);
      mkdirSync(join(project, '.git'), { recursive: true });
      const id = workspaceOf(project)!;
      const path = workspaceMindPath(id, s.env);
      const markers: string[] = [];
      const prompt = (who: string) => {
        markers.push(`marker-${who}-r${round}`);
        return `the build of marker-${who}-r${round} runs on port 80${round}`;
      };
      for (const m of mcps) {
        m.roots = [project];
        await m.client.sendRootsListChanged(); // the server finds the workspace again on its next call
      }
      const hookRuns = hooks.map((w, i) => {
        const host = i % 2 ? 'codex' : 'claude-code';
        const session = { session_id: `hook-${i}-r${round}`, turn_id: `turn-${i}-r${round}`, prompt_id: `prompt-${i}-r${round}` };
        const runs: Array<[string, string, Record<string, unknown>]> = [];
        if (i % 4 < 2) runs.push([host, 'SessionStart', { ...payload(host as 'claude-code' | 'codex', 'SessionStart', 0, project), ...session }]);
        runs.push([host, 'UserPromptSubmit', { ...payload(host as 'claude-code' | 'codex', 'UserPromptSubmit', 0, project), ...session, prompt: prompt(`h${i}`) }]);
        return w.send({ runs });
      });
      // everything below is started in this one tick
      const answers = await Promise.all([
        ...hookRuns,
        ...clis.map((w, i) => w.send({ argv: ['mind', 'save', prompt(`c${i}`), '--workspace', id, '--scope', 'workspace'] })),
        ...mcps.map((m, i) => m.client.callTool({ name: 'save_memory', arguments: { content: prompt(`m${i}`), scope: 'workspace' } })),
        runCli(['hook', 'claude-code', 'UserPromptSubmit'], JSON.stringify({ ...payload('claude-code', 'UserPromptSubmit', 0, project), session_id: `proc-r${round}`, prompt: prompt('p0') }), s.env),
      ]);
      answers.forEach((a, i) => {
        const who = i < HOOKS ? `hook ${i}` : i < HOOKS + CLIS ? `cli ${i - HOOKS}` : i < HOOKS + CLIS + MCPS ? `mcp ${i - HOOKS - CLIS}` : 'hook process';
        if (a.error || a.errors?.length || a.code || (a as CallToolResult).isError) failures.push(`round ${round} ${who}: ${JSON.stringify(a).slice(0, 400)}`);
      });
      rounds.push({ path, markers });
    }
    const lines = logLines(log);
    expect(lines.filter((l) => l.includes('NOT_MIND'))).toEqual([]);
    // the only line a hook may write here: captures it spooled while the mind was busy (replayed below)
    expect(lines.filter((l) => !/captures? spooled to/.test(l))).toEqual([]);
    expect(failures).toEqual([]);
    for (const [round, r] of rounds.entries()) {
      const m = Mind.open(r.path);
      replaySpool(r.path, (inputs) => m.saveMany(inputs));
      const stored = m.database.prepare('SELECT content FROM frames').all() as Array<{ content: string }>;
      m.close();
      const missing = r.markers.filter((k) => !stored.some((f) => f.content.includes(k)));
      expect({ round, missing }).toEqual({ round, missing: [] });
      expect(r.markers).toHaveLength(HOOKS + CLIS + MCPS + 1);
    }
    // what a creation leaves beside the minds: nothing (no temporary file); the MCP servers still hold theirs open
    expect(readdirSync(join(s.home, 'workspaces')).filter((f) => !/\.mind(-wal|-shm)?$/.test(f))).toEqual([]);
  });
});
