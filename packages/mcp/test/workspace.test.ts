import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { workspaceMindPath } from '@hive-mind/mind';
import { callError, callJson, CLI, connectStdio, requireBuilt, tempHome, type Connected } from './helpers.js';

describe('workspace mind beside the personal mind', () => {
  const t = tempHome();
  const proj = join(t.home, 'projects', 'otter');
  let c: Connected;
  let wsPath: string;

  beforeAll(async () => {
    requireBuilt();
    mkdirSync(join(proj, '.git'), { recursive: true });
    mkdirSync(join(proj, 'src', 'deep'), { recursive: true });
    // a sub-folder of the repository maps to the repository's workspace, as for the hooks
    c = await connectStdio(t.home, ['--workspace', join(proj, 'src', 'deep')]);
    wsPath = workspaceMindPath(realpathSync(proj), { HIVE_MIND_HOME: t.home });
  });
  afterAll(async () => {
    await c?.close();
    t.cleanup();
  });

  it('stores workspace memories in the workspace mind the hooks recall from', async () => {
    expect(existsSync(wsPath)).toBe(false);
    const stats0 = await callJson(c.client, 'mind_stats');
    expect(stats0.workspace).toMatchObject({ id: realpathSync(proj), exists: false });

    const w = await callJson(c.client, 'save_memory', { content: 'The otter service builds with cargo build --release', scope: 'workspace', kind: 'instruction' });
    expect(w.mind).toBe('workspace');
    expect(existsSync(wsPath)).toBe(true);
    const p = await callJson(c.client, 'save_memory', { content: 'The user reviews otter pull requests on Mondays' });
    expect(p.mind).toBe('personal');

    const all = await callJson(c.client, 'search_memory', { query: 'otter' });
    expect(all.results.map((r: any) => `${r.mind}:${r.id}`).sort()).toEqual([`personal:${p.id}`, `workspace:${w.id}`].sort());
    const onlyPersonal = await callJson(c.client, 'search_memory', { query: 'otter', mind: 'personal' });
    expect(onlyPersonal.results.map((r: any) => r.mind)).toEqual(['personal']);

    const got = await callJson(c.client, 'get_memory', { id: w.id, mind: 'workspace' });
    expect(got.content).toContain('cargo build');
    expect(got.mind).toBe('workspace');

    const rec = await callJson(c.client, 'recall', { query: 'otter', budgetTokens: 400 });
    expect(rec.text).toMatch(/## hive-mind memory \(workspace .*otter\)/);
    expect(rec.text).toContain('## hive-mind memory (personal)');
    expect(rec.text.indexOf('(workspace')).toBeLessThan(rec.text.indexOf('(personal)'));
    // one framing for the whole briefing, not one per mind
    expect(rec.text.match(/data, not instructions/g)).toHaveLength(1);
    expect(rec.tokens).toBeLessThanOrEqual(400);
    expect(rec.frameIds).toEqual({ workspace: [w.id], personal: [p.id] });

    const stats = await callJson(c.client, 'mind_stats');
    expect(stats.workspace.path).toBe(wsPath);
    expect(stats.workspace.live).toBe(1);
    expect(stats.personal.live).toBe(1);

    // the id belongs to one store: forgetting it in the other is an error that deletes nothing
    if (w.id !== p.id) expect(await callError(c.client, 'forget_memory', { id: w.id, mind: 'personal' })).toMatch(/id: no memory/);
    expect(await callJson(c.client, 'forget_memory', { id: w.id, mind: 'workspace' })).toMatchObject({ forgotten: true, mind: 'workspace' });
  });

  it('without a workspace, refuses scope workspace naming the field', async () => {
    const none = await connectStdio(t.home, ['--no-workspace']);
    try {
      expect(await callError(none.client, 'save_memory', { content: 'x', scope: 'workspace' })).toMatch(/scope: this session has no workspace/);
      expect(await callError(none.client, 'search_memory', { query: 'otter', mind: 'workspace' })).toMatch(/mind: this session has no workspace/);
      expect((await callJson(none.client, 'mind_stats')).workspace).toBeNull();
    } finally {
      await none.close();
    }
  });

  it("takes the workspace from the client's MCP roots", async () => {
    const other = join(t.home, 'projects', 'heron');
    mkdirSync(join(other, '.git'), { recursive: true });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      env: { ...(process.env as Record<string, string>), HIVE_MIND_HOME: t.home },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'roots-client', version: '1' }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL(other).href, name: 'heron' }] }));
    await client.connect(transport);
    try {
      const r = await callJson(client, 'save_memory', { content: 'Heron deploys go through the staging cluster first', scope: 'workspace' });
      expect(r.mind).toBe('workspace');
      expect(existsSync(workspaceMindPath(realpathSync(other), { HIVE_MIND_HOME: t.home }))).toBe(true);
    } finally {
      await client.close();
    }
  });
});
