/**
 * compact_transcript with `session: "latest" | ID`: the host's own session of a project inside
 * the client's MCP roots, found where the host keeps it (a fake HOME holding real Claude Code
 * and Codex session files), compacted read-only, with the commands that compact it in place
 * and resume it. Spawns the built CLI (`npx tsc -b packages/cli`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CC_ID, CODEX_ID, homeWithSessions } from '../../transcripts/test/session-homes.js';
import { CLI, requireBuilt, textOf } from './helpers.js';

const roots: string[] = [];
const clients: Client[] = [];
afterAll(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

/** The MCP server as a host would start it, with HOME at `home`; a client declaring `clientRoots` (none: no roots capability). */
async function connect(home: string, hmHome: string, clientRoots: string[] | undefined, cwd?: string): Promise<Client> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'PI_CODING_AGENT_DIR', 'PI_CODING_AGENT_SESSION_DIR', 'HERMES_HOME'].includes(k)) env[k] = v;
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], env: { ...env, HOME: home, HIVE_MIND_HOME: hmHome }, stderr: 'pipe', ...(cwd ? { cwd } : {}) });
  const client = new Client({ name: 'session-client', version: '1' }, clientRoots ? { capabilities: { roots: { listChanged: true } } } : undefined);
  if (clientRoots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: clientRoots.map((r) => ({ uri: pathToFileURL(r).href, name: r })) }));
  await client.connect(transport);
  clients.push(client);
  return client;
}

describe('compact_transcript { session }', () => {
  it('latest: the newest session started in the client root, compacted without touching the file, with the in-place and resume commands', async () => {
    requireBuilt();
    const h = homeWithSessions(roots);
    const c = await connect(h.home, `${h.root}/hm`, [h.cwd]);
    const before = sha(h.cc);
    const r = await c.callTool({ name: 'compact_transcript', arguments: { session: 'latest', budget: 6000 } });
    expect(r.isError, textOf(r)).toBeFalsy();
    const out = JSON.parse(textOf(r));
    expect(out.report).toMatchObject({ format: 'claude-code', compacted: true, toolPairing: 'balanced' });
    expect(out.report.tokensAfter).toBeLessThanOrEqual(6000);
    expect(out.session).toEqual({
      host: 'claude-code',
      id: CC_ID,
      path: h.cc,
      resume: `cd '${h.cwd}' && claude --resume ${CC_ID}`,
      compactInPlace: `hive-mind compact --session ${CC_ID} --host claude-code`,
    });
    expect(sha(h.cc)).toBe(before);
    // the whole text arrives in pages; the last page carries the note for the user
    let page = out;
    while (page.nextOffset !== undefined) page = JSON.parse(textOf(await c.callTool({ name: 'compact_transcript', arguments: { session: 'latest', budget: 6000, offset: page.nextOffset } })));
    expect(page.note).toBe(`This tool did not change ${h.cc}. To compact the session itself, the user quits the host, runs \`hive-mind compact --session ${CC_ID} --host claude-code --budget 6000\` (a backup is kept), then resumes with \`cd '${h.cwd}' && claude --resume ${CC_ID}\`.`);
    // an id and a host
    const x = JSON.parse(textOf(await c.callTool({ name: 'compact_transcript', arguments: { session: CODEX_ID, host: 'codex', budget: 100000 } })));
    expect(x.session).toMatchObject({ host: 'codex', id: CODEX_ID, resume: `codex resume ${CODEX_ID}` });
  });

  it('a session outside the client roots, or none there, is refused naming the field', async () => {
    requireBuilt();
    const h = homeWithSessions(roots);
    const c = await connect(h.home, `${h.root}/hm`, [h.root + '/elsewhere']);
    const none = await c.callTool({ name: 'compact_transcript', arguments: { session: 'latest', budget: 6000 } });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toContain(`no Claude Code, Codex or pi session started in ${h.root}/elsewhere`);
    const out = await c.callTool({ name: 'compact_transcript', arguments: { session: CC_ID, budget: 6000 } });
    expect(out.isError).toBe(true);
    expect(textOf(out)).toContain(`session ${CC_ID} was started in ${h.cwd}, outside this client's roots (${h.root}/elsewhere)`);
    const both = await c.callTool({ name: 'compact_transcript', arguments: { session: 'latest', path: h.cc, budget: 6000 } });
    expect(textOf(both)).toContain('give exactly one of path, session or messages');
  });

  it('without roots, the server working directory is the project', async () => {
    requireBuilt();
    const h = homeWithSessions(roots);
    const c = await connect(h.home, `${h.root}/hm`, undefined, h.cwd);
    const out = JSON.parse(textOf(await c.callTool({ name: 'compact_transcript', arguments: { session: 'latest', host: 'codex', budget: 100000 } })));
    expect(out.session.path).toBe(h.codex);
  });
});
