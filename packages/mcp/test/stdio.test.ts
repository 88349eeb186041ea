import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { callError, callJson, CLI, connectStdio, requireBuilt, tempHome, textOf, type Connected } from './helpers.js';

const TOOLS = ['save_memory', 'search_memory', 'get_memory', 'recall', 'forget_memory', 'cleanup_frames', 'mind_stats', 'memory_notes', 'compact_transcript'];

describe('hive-mind mcp over stdio (real process, SDK client)', () => {
  const t = tempHome();
  let c: Connected;

  beforeAll(async () => {
    requireBuilt();
    c = await connectStdio(t.home);
  });
  afterAll(async () => {
    await c?.close();
    t.cleanup();
  });

  it('announces itself and lists every tool with a description and an input schema', async () => {
    expect(c.client.getServerVersion()?.name).toBe('hive-mind');
    expect(c.client.getInstructions()).toMatch(/recall/);
    const { tools } = await c.client.listTools();
    const names = tools.map((x) => x.name);
    expect(names.sort()).toEqual([...TOOLS].sort());
    const { resources } = await c.client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['memory://notes/memory', 'memory://notes/user', 'memory://stats']);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
    }
    const save = tools.find((x) => x.name === 'save_memory')!;
    expect(save.inputSchema.required).toEqual(['content']);
    expect(Object.keys(save.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['content', 'importance', 'kind', 'scope']));
    const search = tools.find((x) => x.name === 'search_memory')!;
    expect(search.annotations?.readOnlyHint).toBe(true);
  });

  it('saves, finds, reads, recalls and forgets a memory', async () => {
    const saved = await callJson(c.client, 'save_memory', {
      content: 'The user prefers pnpm over npm for every JavaScript project',
      importance: 'important',
      kind: 'preference',
    });
    expect(saved.status).toBe('inserted');
    expect(saved.id).toBeGreaterThan(0);

    const again = await callJson(c.client, 'save_memory', { content: 'The user prefers pnpm over npm for every JavaScript project', importance: 'important', kind: 'preference' });
    expect(again.status).toBe('duplicate');
    expect(again.id).toBe(saved.id);

    const found = await callJson(c.client, 'search_memory', { query: 'pnpm' });
    expect(found.results.map((r: any) => r.id)).toContain(saved.id);
    const hit = found.results.find((r: any) => r.id === saved.id);
    expect(hit).toMatchObject({ kind: 'preference', importance: 'important', host: 'hm-test' });

    const got = await callJson(c.client, 'get_memory', { id: saved.id });
    expect(got.content).toBe('The user prefers pnpm over npm for every JavaScript project');

    const rec = await callJson(c.client, 'recall', { query: 'package manager pnpm', budgetTokens: 300 });
    expect(rec.text).toContain('pnpm');
    expect(rec.tokens).toBeLessThanOrEqual(300);
    expect(rec.frameIds.personal).toContain(saved.id);

    const gone = await callJson(c.client, 'forget_memory', { id: saved.id });
    expect(gone).toEqual({ id: saved.id, mind: 'personal', forgotten: true });
    const after = await callJson(c.client, 'search_memory', { query: 'pnpm' });
    expect(after.results.map((r: any) => r.id)).not.toContain(saved.id);
    expect(await callError(c.client, 'forget_memory', { id: saved.id })).toMatch(/^forget_memory: id: no memory with id/);
  });

  it('redacts a secret before it is stored', async () => {
    const key = 'sk-proj-' + 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z'.repeat(2);
    const saved = await callJson(c.client, 'save_memory', { content: `The staging OpenAI key is ${key}` });
    expect(saved.redactions.length).toBeGreaterThan(0);
    const got = await callJson(c.client, 'get_memory', { id: saved.id });
    expect(got.content).not.toContain(key);
    expect(got.content).toContain('[REDACTED');
  });

  it('pages search results with nextOffset', async () => {
    for (let i = 0; i < 25; i++) {
      await callJson(c.client, 'save_memory', { content: `Deployment note ${i}: the zebracorn service runs on port ${8000 + i}` });
    }
    const seen = new Set<number>();
    let offset: number | undefined = 0;
    let pages = 0;
    while (offset !== undefined) {
      const page: any = await callJson(c.client, 'search_memory', { query: 'zebracorn', limit: 10, offset });
      pages++;
      for (const r of page.results) seen.add(r.id);
      offset = page.nextOffset;
      expect(pages).toBeLessThan(10);
    }
    expect(pages).toBe(3);
    expect(seen.size).toBe(25);
  });

  it('cleans up and reports stats', async () => {
    const stats = await callJson(c.client, 'mind_stats');
    expect(stats.personal.path).toBe(`${t.home}/personal.mind`);
    const cleaned = await callJson(c.client, 'cleanup_frames', { mode: 'compact' });
    expect(cleaned.mode).toBe('compact');
    expect(cleaned.personal.mode).toBe('compact');
    const rec = await callJson(c.client, 'cleanup_frames', { mode: 'reconcile' });
    expect(rec.personal.mode).toBe('reconcile');
    const res = await c.client.readResource({ uri: 'memory://stats' });
    const body = JSON.parse((res.contents[0] as { text: string }).text);
    expect(body.personal.path).toBe(stats.personal.path);
    expect(body.personal.live).toBe(stats.personal.live);
  });

  it('answers bad arguments with isError naming the field, and keeps serving', async () => {
    expect(await callError(c.client, 'save_memory', {})).toMatch(/content/);
    expect(await callError(c.client, 'save_memory', { content: '   ' })).toMatch(/content/);
    expect(await callError(c.client, 'save_memory', { content: 'x', importance: 'urgent' })).toMatch(/importance/);
    expect(await callError(c.client, 'save_memory', { content: 'x', kind: 'Has Spaces' })).toMatch(/kind/);
    expect(await callError(c.client, 'save_memory', { content: 'x', importnce: 'critical' })).toMatch(/importnce/);
    expect(await callError(c.client, 'save_memory', { content: 'x'.repeat(20_001) })).toMatch(/content/);
    expect(await callError(c.client, 'search_memory', { query: 'a', limit: 0 })).toMatch(/limit/);
    expect(await callError(c.client, 'search_memory', { query: 'a', limit: '5' })).toMatch(/limit/);
    expect(await callError(c.client, 'search_memory', { limit: 5 })).toMatch(/query/);
    expect(await callError(c.client, 'search_memory', { query: '?!… --' })).toMatch(/^search_memory: query: search query is empty/);
    expect(await callError(c.client, 'recall', { budgetTokens: 10 ** 9 })).toMatch(/budgetTokens/);
    expect(await callError(c.client, 'save_memory', { content: 'thread fact without a thread', scope: 'thread' })).toMatch(/^save_memory: thread: is required/);
    expect(await callError(c.client, 'forget_memory', { id: -1 })).toMatch(/id/);
    expect(await callError(c.client, 'forget_memory', { id: 1.5 })).toMatch(/id/);
    expect(await callError(c.client, 'cleanup_frames', { mode: 'everything' })).toMatch(/mode/);
    expect(await callError(c.client, 'get_memory', { id: 999_999 })).toMatch(/^get_memory: id: no memory/);
    const stats = await callJson(c.client, 'mind_stats');
    expect(stats.personal.path).toBeTruthy();
  });

  it('recall says how many memories matched but did not fit the budget', async () => {
    const long = 'Deploy procedure for the zebrafish cluster: ' + Array.from({ length: 80 }, (_, i) => `step ${i} checks the deploy gate`).join(', ');
    await callJson(c.client, 'save_memory', { content: long, kind: 'fact' });
    const rec = await callJson(c.client, 'recall', { query: 'zebrafish deploy', budgetTokens: 50 });
    expect(rec.omitted).toBeGreaterThan(0);
    expect(rec.note).not.toMatch(/Nothing to recall/);
    expect(rec.note).toMatch(/matching memor(y|ies) did not fit in 50 tokens/);
  });

  it('bounds every result and says how to get the rest', async () => {
    const t2 = tempHome();
    const small = await connectStdio(t2.home, ['--max-result-chars', '3000']);
    try {
      const long = 'quokka ' + 'lorem ipsum dolor sit amet '.repeat(400);
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) ids.push((await callJson(small.client, 'save_memory', { content: `${i} ${long}` })).id);
      const r = await small.client.callTool({ name: 'search_memory', arguments: { query: 'quokka', limit: 6 } });
      const text = textOf(r);
      expect(text.length).toBeLessThanOrEqual(3000);
      const page = JSON.parse(text);
      expect(page.results.length).toBeLessThan(6);
      expect(page.nextOffset).toBe(page.results.length);
      expect(page.results[0].truncated).toBe(true);
      // get_memory pages through one long content
      let offset: number | undefined = 0;
      let whole = '';
      while (offset !== undefined) {
        const g = await small.client.callTool({ name: 'get_memory', arguments: { id: ids[0], offset } });
        expect(textOf(g).length).toBeLessThanOrEqual(3000);
        const p = JSON.parse(textOf(g));
        whole += p.content;
        offset = p.nextOffset;
      }
      // the store splits long content into parts; they read back as saved (trimmed once, as a whole)
      expect(whole).toBe(`0 ${long}`.trim());
    } finally {
      await small.close();
      t2.cleanup();
    }
  });
});

describe('two clients on one .mind at once', () => {
  it('both write concurrently and each sees the other', async () => {
    requireBuilt();
    const t = tempHome();
    const [a, b] = await Promise.all([connectStdio(t.home, [], 'client-a'), connectStdio(t.home, [], 'client-b')]);
    try {
      const N = 40;
      const writes = [] as Promise<any>[];
      for (let i = 0; i < N; i++) {
        writes.push(callJson(a.client, 'save_memory', { content: `alpha fact number ${i} about the marmoset cluster` }));
        writes.push(callJson(b.client, 'save_memory', { content: `beta fact number ${i} about the marmoset cluster` }));
      }
      const results = await Promise.all(writes);
      expect(results.every((r) => r.status === 'inserted')).toBe(true);
      expect(new Set(results.map((r) => r.id)).size).toBe(2 * N);
      const fromA = await callJson(a.client, 'search_memory', { query: 'beta marmoset', limit: 50 });
      expect(fromA.results.filter((r: any) => r.host === 'client-b').length).toBeGreaterThan(0);
      const fromB = await callJson(b.client, 'search_memory', { query: 'alpha marmoset', limit: 50 });
      expect(fromB.results.filter((r: any) => r.host === 'client-a').length).toBeGreaterThan(0);
      const stats = await callJson(b.client, 'mind_stats');
      expect(stats.personal.live).toBe(2 * N);
    } finally {
      await Promise.all([a.close(), b.close()]);
      t.cleanup();
    }
  });
});

describe('stdio hygiene', () => {
  it('writes only JSON-RPC on stdout, survives a garbage line, and exits when stdin ends', async () => {
    requireBuilt();
    const t = tempHome();
    const child = spawn(process.execPath, [CLI, 'mcp'], { env: { ...process.env, HIVE_MIND_HOME: t.home }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    const send = (m: unknown) => child.stdin.write(JSON.stringify(m) + '\n');
    child.stdin.write('this is not json\n');
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'save_memory', arguments: { content: 'raw protocol check' } } });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } });
    await waitFor(() => out.split('\n').filter(Boolean).length >= 3, 20_000);
    child.stdin.end();
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    t.cleanup();
    const lines = out.split('\n').filter(Boolean);
    const msgs = lines.map((l) => JSON.parse(l));
    expect(msgs.every((m) => m.jsonrpc === '2.0')).toBe(true);
    expect(msgs.find((m) => m.id === 1).result.serverInfo.name).toBe('hive-mind');
    expect(JSON.parse(msgs.find((m) => m.id === 2).result.content[0].text).status).toBe('inserted');
    const unknown = msgs.find((m) => m.id === 3);
    expect(unknown.result?.isError ?? Boolean(unknown.error)).toBe(true);
    expect(code).toBe(0);
    expect(err).not.toMatch(/at .*\.js:\d+/); // no stack traces
  });
});

async function waitFor(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('bad input around the server', () => {
  it('reports a corrupt .mind as a tool error naming the file, never overwrites it, and keeps serving', async () => {
    requireBuilt();
    const t = tempHome();
    const path = `${t.home}/personal.mind`;
    const junk = 'this is not an SQLite database\n'.repeat(64);
    const { writeFileSync, readFileSync } = await import('node:fs');
    writeFileSync(path, junk);
    const c = await connectStdio(t.home);
    try {
      expect(await callError(c.client, 'mind_stats', {})).toContain(path);
      expect(await callError(c.client, 'save_memory', { content: 'a fact that must not clobber the file' })).toContain(path);
      expect(readFileSync(path, 'utf8')).toBe(junk);
      // notes do not need the .mind: they still work
      const r = await c.client.callTool({ name: 'memory_notes', arguments: { action: 'add', target: 'user', content: 'Prefers tabs.' } });
      expect(r.isError).toBeFalsy();
    } finally {
      await c.close();
      t.cleanup();
    }
  });

  it('a .mind with random bytes over its pages: recall and search fail naming the file (not "nothing to recall")', async () => {
    requireBuilt();
    const t = tempHome();
    const path = `${t.home}/personal.mind`;
    const { Mind } = await import('@hive-mind/mind');
    const m = Mind.open(path);
    m.saveMany(Array.from({ length: 100 }, (_, i) => ({ content: `deploy note ${i} about topic ${i % 7} ${'padding '.repeat(40)}` })));
    m.database.pragma('wal_checkpoint(TRUNCATE)');
    m.close();
    const { openSync, writeSync, closeSync } = await import('node:fs');
    const { randomBytes } = await import('node:crypto');
    const fd = openSync(path, 'r+');
    writeSync(fd, randomBytes(20480), 0, 20480, 40960);
    closeSync(fd);
    const c = await connectStdio(t.home);
    try {
      for (const [tool, args] of [['recall', {}], ['recall', { query: 'deploy' }], ['search_memory', { query: 'deploy' }]] as const) {
        const e = await callError(c.client, tool, args);
        expect(e, tool).toContain(path);
        expect(e).toMatch(/malformed.*doctor --repair/);
      }
    } finally {
      await c.close();
      t.cleanup();
    }
  });

  it('rejects a bad --http port or --max-result-chars with exit 2 and one line on stderr', async () => {
    requireBuilt();
    const { spawnSync } = await import('node:child_process');
    for (const args of [['--http', '99999'], ['--http', 'abc'], ['--max-result-chars', '10']]) {
      const r = spawnSync(process.execPath, [CLI, 'mcp', ...args], { encoding: 'utf8', timeout: 30_000 });
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(new RegExp(args[0]!));
    }
  });

  it('exits 1 with a clear message when the HTTP port is taken', async () => {
    requireBuilt();
    const net = await import('node:net');
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as import('node:net').AddressInfo).port;
    try {
      const { spawnSync } = await import('node:child_process');
      const r = spawnSync(process.execPath, [CLI, 'mcp', '--http', String(port)], { encoding: 'utf8', timeout: 30_000 });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`port ${port} on 127.0.0.1 is already in use`));
    } finally {
      blocker.close();
    }
  });
});
