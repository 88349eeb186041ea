/**
 * The MCP server sees what a session in its folder sees: the real hook runner (`hive-mind hook
 * claude-code ...`, a child process) saves into the project's workspace mind; the server, started
 * in a sub-folder of the project with no option (the SDK's real client over stdio, no roots),
 * searches that mind and the personal one as one ranking, each hit naming its mind; an id given
 * without `mind` resolves to the one store holding it, and one both hold is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, callError, callJson, requireBuilt } from './helpers.js';

let root: string;
let home: string;
let proj: string;
let sub: string;
let client: Client;

/** The test's environment with HOME in its temp folder and no HIVE_MIND_* setting (the default home under HOME). */
function env(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('HIVE_MIND_')) out[k] = v;
  out.HOME = home;
  return out;
}

function hook(event: string, payload: Record<string, unknown>): string {
  const r = spawnSync(process.execPath, [CLI, 'hook', 'claude-code', event], { cwd: sub, env: env(), input: JSON.stringify({ session_id: 'sess-1', cwd: sub, hook_event_name: event, ...payload }), encoding: 'utf8' });
  expect(r.status).toBe(0);
  return r.stdout;
}

beforeAll(async () => {
  requireBuilt();
  root = realpathSync(mkdtempSync(join(tmpdir(), 'hm-mcp-view-')));
  home = join(root, 'home');
  proj = join(root, 'otter-api');
  sub = join(proj, 'services', 'billing');
  for (const d of [home, join(proj, '.git'), sub]) mkdirSync(d, { recursive: true });
  hook('UserPromptSubmit', { prompt: 'We decided to run the otter billing database on PostgreSQL 16, port 5433.' });
  hook('Stop', { last_assistant_message: 'The otter staging API is served at https://staging.otter.example:8443 now.' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: sub, env: env(), stderr: 'pipe' });
  client = new Client({ name: 'hm-view-test', version: '1.0.0' });
  await client.connect(transport);
}, 120_000);
afterAll(async () => {
  await client?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the MCP server in a project folder', () => {
  it('search_memory with no option: the workspace mind the hooks saved to and the personal mind, one ranking, each hit naming its mind', async () => {
    const p = await callJson(client, 'save_memory', { content: 'The user keeps PostgreSQL dumps of every otter project for 30 days' });
    expect(p).toMatchObject({ mind: 'personal', status: 'inserted' });
    const s = await callJson(client, 'search_memory', { query: 'otter PostgreSQL' });
    const minds = s.results.map((r: { mind: string }) => r.mind);
    expect(minds).toContain('workspace');
    expect(minds).toContain('personal');
    expect(s.results.find((r: { mind: string }) => r.mind === 'workspace').content).toMatch(/PostgreSQL 16, port 5433/);
    const scores = s.results.map((r: { score: number }) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const stats = await callJson(client, 'mind_stats');
    expect(stats.workspace).toMatchObject({ id: proj });
  });

  it('get_memory and forget_memory without `mind`: the one store holding the id; an id both hold is refused and nothing is deleted', async () => {
    const s = await callJson(client, 'search_memory', { query: 'otter', includeTemporary: true, limit: 20 });
    const ws = s.results.filter((r: { mind: string }) => r.mind === 'workspace').map((r: { id: number }) => r.id);
    const only = Math.max(...ws);
    expect(only).toBeGreaterThan(1); // the workspace holds more frames than the personal mind's one
    expect(await callJson(client, 'get_memory', { id: only })).toMatchObject({ id: only, mind: 'workspace' });
    // #1 is a frame of both stores
    expect(await callError(client, 'get_memory', { id: 1 })).toMatch(/^get_memory: mind: id 1 is a memory of both the workspace and the personal memory: pass mind "workspace" or "personal"/);
    expect(await callError(client, 'forget_memory', { id: 1 })).toMatch(/^forget_memory: mind: id 1 is a memory of both/);
    expect(await callError(client, 'save_memory', { content: 'A correction of #1', supersedes: 1 })).toMatch(/^save_memory: scope: id 1 is a memory of both/);
    expect(await callJson(client, 'get_memory', { id: 1, mind: 'personal' })).toMatchObject({ mind: 'personal' });
    expect(await callJson(client, 'get_memory', { id: 1, mind: 'workspace' })).toMatchObject({ mind: 'workspace' });
    expect(await callError(client, 'get_memory', { id: 999 })).toMatch(/^get_memory: id: no memory with id 999 in the workspace or the personal memory/);
    expect(await callJson(client, 'forget_memory', { id: 1, mind: 'personal' })).toEqual({ id: 1, mind: 'personal', forgotten: true });
    // now only the workspace holds #1: no `mind` needed
    expect(await callJson(client, 'get_memory', { id: 1 })).toMatchObject({ id: 1, mind: 'workspace' });
    // a correction of a workspace memory goes to the workspace store
    const fixed = await callJson(client, 'save_memory', { content: 'The otter staging API moved to https://staging2.otter.example:8443.', supersedes: only });
    expect(fixed).toMatchObject({ mind: 'workspace', status: 'inserted' });
    expect(await callJson(client, 'get_memory', { id: fixed.id, mind: 'workspace' })).toMatchObject({ supersedes: only, scope: 'workspace' });
  });

  it('--workspace takes the id `hive-mind status` lists as well as the folder; a value that is neither is refused', async () => {
    const status = JSON.parse(spawnSync(process.execPath, [CLI, 'status', '--json'], { cwd: sub, env: env(), encoding: 'utf8' }).stdout);
    const id = (status.view.minds[0].path as string).split('/').pop()!.replace(/\.mind$/, '');
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--workspace', id], cwd: root, env: env(), stderr: 'pipe' });
    const other = new Client({ name: 'hm-view-test-id', version: '1.0.0' });
    await other.connect(transport);
    try {
      expect((await callJson(other, 'mind_stats')).workspace).toMatchObject({ id: proj });
      const s = await callJson(other, 'search_memory', { query: 'otter staging', mind: 'workspace' });
      expect(s.results[0].content).toMatch(/8443/);
    } finally {
      await other.close();
    }
    const bad = spawnSync(process.execPath, [CLI, 'mcp', '--workspace', 'no-such-workspace'], { cwd: root, env: env(), input: '', encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^hive-mind: --workspace no-such-workspace: no such folder .* and no workspace mind of that id/);
  });

  it('recall is the session-start merge of the two minds, workspace first, holding what the SessionStart hook gives', async () => {
    await callJson(client, 'save_memory', { content: 'The user prefers short answers about the otter project', kind: 'preference' });
    const rec = await callJson(client, 'recall', { budgetTokens: 1500 });
    expect(rec.text).toMatch(/## hive-mind memory \(workspace .*otter-api\)/);
    expect(rec.text).toContain('## hive-mind memory (personal)');
    expect(rec.text.indexOf('(workspace')).toBeLessThan(rec.text.indexOf('(personal)'));
    expect(rec.frameIds.workspace.length).toBeGreaterThan(0);
    expect(rec.tokens).toBeLessThanOrEqual(1500);
    const start = JSON.parse(hook('SessionStart', { source: 'startup', session_id: 'sess-2' })).hookSpecificOutput.additionalContext as string;
    const items = (rec.text as string).split('\n').filter((l) => l.startsWith('- ['));
    expect(items.length).toBeGreaterThanOrEqual(2);
    for (const line of items) expect(start).toContain(line.slice(line.indexOf(']') + 2, line.indexOf(']') + 42));
  });
});
