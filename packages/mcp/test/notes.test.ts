import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { callError, callJson, CLI, requireBuilt, tempHome, textOf } from './helpers.js';
import { TurnClock } from '../src/tools-notes.js';

/** Call memory_notes and return {isError, body}. */
async function notes(client: Client, args: Record<string, unknown>): Promise<{ isError: boolean; body: any }> {
  const r = await client.callTool({ name: 'memory_notes', arguments: args });
  const text = textOf(r);
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { isError: Boolean(r.isError), body };
}

describe('memory_notes over stdio', () => {
  const t = tempHome();
  let client: Client;

  beforeAll(async () => {
    requireBuilt();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      env: { ...(process.env as Record<string, string>), HIVE_MIND_HOME: t.home, HIVE_MIND_MEMORY_CHAR_LIMIT: '300', HIVE_MIND_USER_CHAR_LIMIT: '200' },
      stderr: 'pipe',
    });
    client = new SdkClient({ name: 'notes-test', version: '1' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    t.cleanup();
  });

  it('reads, adds, replaces and removes entries', async () => {
    const empty = await notes(client, { action: 'read', target: 'user' });
    expect(empty.body).toMatchObject({ exists: false, entries: [], limit: 200 });

    expect((await notes(client, { action: 'add', target: 'user', content: 'Name: Ada. Prefers short answers.' })).body.ok).toBe(true);
    expect((await notes(client, { action: 'add', target: 'user', content: 'Uses fish shell on Linux.' })).body.ok).toBe(true);
    const read = await notes(client, { action: 'read', target: 'user' });
    expect(read.body.entries.map((e: any) => e.text)).toEqual(['Name: Ada. Prefers short answers.', 'Uses fish shell on Linux.']);
    expect(read.body.usage.entries).toBe(2);

    const rep = await notes(client, { action: 'replace', target: 'user', old: 'fish shell', content: 'Uses zsh on macOS.' });
    expect(rep.isError).toBe(false);
    expect(readFileSync(join(t.home, 'memories', 'USER.md'), 'utf8')).toContain('Uses zsh on macOS.');
    const rem = await notes(client, { action: 'remove', target: 'user', old: 'Uses zsh on macOS.' });
    expect(rem.body.usage.entries).toBe(1);

    const res = await client.readResource({ uri: 'memory://notes/user' });
    expect((res.contents[0] as { text: string }).text).toContain('Name: Ada.');
  });

  it('reports an ambiguous match with candidates, as a tool error', async () => {
    await notes(client, { action: 'add', target: 'memory', thread: 'proj-a', content: 'Build with make release' });
    await notes(client, { action: 'add', target: 'memory', thread: 'proj-a', content: 'Build docs with make docs' });
    const amb = await notes(client, { action: 'remove', target: 'memory', thread: 'proj-a', old: 'make', turnId: 'amb-turn' });
    expect(amb.isError).toBe(true);
    expect(amb.body.reason).toBe('ambiguous');
    expect(amb.body.candidates).toHaveLength(2);
  });

  it('answers over_limit with sizes and overflow, keeps the fact, then done: true at the per-turn cap', async () => {
    const thread = 'over-limit-thread';
    const fill = 'Fact: ' + 'x'.repeat(120);
    expect((await notes(client, { action: 'add', target: 'memory', thread, content: `${fill} one` })).body.ok).toBe(true);
    expect((await notes(client, { action: 'add', target: 'memory', thread, content: `${fill} two` })).body.ok).toBe(true);
    const big = 'The deploy key rotates every 30 days and lives in the team vault under ops/deploy';
    const r1 = await notes(client, { action: 'add', target: 'memory', thread, content: big, turnId: 'turn-1' });
    expect(r1.isError).toBe(true);
    expect(r1.body).toMatchObject({ ok: false, reason: 'over_limit', limit: 300 });
    expect(r1.body.overflowBy).toBeGreaterThan(0);
    expect(r1.body.entries.map((e: any) => e.index)).toEqual([0, 1]);
    expect(r1.body.entries[0].chars).toBe(`${fill} one`.length);
    expect(r1.body.pendingFrameId).toBeGreaterThan(0);
    const pending = await callJson(client, 'get_memory', { id: r1.body.pendingFrameId });
    expect(pending.kind).toBe('pending-note');
    expect(pending.content).toContain('deploy key rotates');

    const r2 = await notes(client, { action: 'add', target: 'memory', thread, content: big, turnId: 'turn-1' });
    expect(r2.body.reason).toBe('over_limit');
    const r3 = await notes(client, { action: 'add', target: 'memory', thread, content: big, turnId: 'turn-1' });
    expect(r3.isError).toBe(false); // done is not an error: it tells the agent to stop and answer
    expect(r3.body).toMatchObject({ ok: false, done: true, reason: 'failure_cap' });
    expect(r3.body.message).toMatch(/answer the user/);
    const r4 = await notes(client, { action: 'remove', target: 'memory', thread, old: 'two', turnId: 'turn-1' });
    expect(r4.body.done).toBe(true);
    // a new turn may write again, and the file was never corrupted
    const ok = await notes(client, { action: 'batch', target: 'memory', thread, turnId: 'turn-2', operations: [{ op: 'remove', old: 'two' }, { op: 'add', content: big }] });
    expect(ok.isError).toBe(false);
    expect(ok.body.ok).toBe(true);
    const read = await notes(client, { action: 'read', target: 'memory', thread });
    expect(read.body.entries.map((e: any) => e.text)).toEqual([`${fill} one`, big]);
  });

  it('counts consecutive calls without turnId as one turn', async () => {
    const thread = 'implicit-turn';
    const results = [] as any[];
    for (let i = 0; i < 3; i++) results.push(await notes(client, { action: 'remove', target: 'memory', thread, old: `missing ${i}` }));
    expect(results[0].body.reason).toBe('not_found');
    expect(results[1].body.reason).toBe('not_found');
    expect(results[2].body.done).toBe(true);
    // still the same turn (calls close together): even a valid write answers done
    const more = await notes(client, { action: 'add', target: 'memory', thread, content: 'a fact' });
    expect(more.body.done).toBe(true);
  });

  it('refuses a batch as a whole when its final state is over the limit', async () => {
    const thread = 'batch-thread';
    expect((await notes(client, { action: 'add', target: 'memory', thread, content: 'short entry A', turnId: 'batch-setup' })).body.ok).toBe(true);
    const before = await notes(client, { action: 'read', target: 'memory', thread });
    const r = await notes(client, {
      action: 'batch',
      target: 'memory',
      thread,
      turnId: 'batch-turn',
      operations: [{ op: 'add', content: 'y'.repeat(200) }, { op: 'add', content: 'z'.repeat(200) }],
    });
    expect(r.body.reason).toBe('over_limit');
    const after = await notes(client, { action: 'read', target: 'memory', thread });
    expect(after.body.version).toBe(before.body.version);
    const stale = await notes(client, { action: 'add', target: 'memory', thread, content: 'entry B', expectedVersion: 'not-the-version', turnId: 'stale-turn' });
    expect(stale.body.reason).toBe('stale');
    expect(stale.body.current.entries[0].preview).toContain('short entry A');
  });

  it('keeps a hostile thread key inside the memories folder and serves it as a resource', async () => {
    const key = '../../../etc/passwd\u0000x';
    const r = await notes(client, { action: 'add', target: 'memory', thread: key, content: 'thread-scoped fact', turnId: 'hostile' });
    expect(r.body.ok).toBe(true);
    const read = await notes(client, { action: 'read', target: 'memory', thread: key });
    expect(read.body.path.startsWith(join(t.home, 'memories', 'threads') + '/')).toBe(true);
    expect(existsSync(read.body.path)).toBe(true);
    const res = await client.readResource({ uri: `memory://notes/thread/${encodeURIComponent(key)}` });
    expect((res.contents[0] as { text: string }).text).toContain('thread-scoped fact');
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((x) => x.uriTemplate)).toContain('memory://notes/thread/{key}');
  });

  it('names the field on bad arguments', async () => {
    expect(await callError(client, 'memory_notes', { action: 'add', target: 'memory' })).toMatch(/content: is required/);
    expect(await callError(client, 'memory_notes', { action: 'replace', target: 'memory', content: 'x' })).toMatch(/old: is required/);
    expect(await callError(client, 'memory_notes', { action: 'read', target: 'user', thread: 't' })).toMatch(/thread/);
    expect(await callError(client, 'memory_notes', { action: 'add', target: 'user', content: 'x', old: 'y' })).toMatch(/old: is not used/);
    expect(await callError(client, 'memory_notes', { action: 'write', target: 'user' })).toMatch(/action/);
    expect(await callError(client, 'memory_notes', { action: 'read', target: 'notes' })).toMatch(/target/);
    expect(await callError(client, 'memory_notes', { action: 'batch', target: 'memory', operations: [{ op: 'move', old: 'a' }] })).toMatch(/operations/);
    expect(await callError(client, 'memory_notes', { action: 'batch', target: 'memory', operations: [] })).toMatch(/operations/);
  });
});

describe('TurnClock', () => {
  it('starts a new turn after a gap, and honours a client turn id', () => {
    let now = 1_000;
    const c = new TurnClock('s1', 60_000, () => now);
    const a = c.turnId();
    now += 59_000;
    expect(c.turnId()).toBe(a);
    now += 61_000;
    const b = c.turnId();
    expect(b).not.toBe(a);
    expect(c.turnId('T9')).toBe('mcp:s1:client:T9');
    expect(new TurnClock('s2', 60_000, () => now).turnId()).not.toBe(b);
  });
});
