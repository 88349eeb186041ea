import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callError, callJson, CLI, requireBuilt, tempHome } from './helpers.js';

/** Spawn `hive-mind mcp --http 0` and read the URL it prints on stderr. */
async function startHttp(home: string): Promise<{ child: ChildProcessWithoutNullStreams; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [CLI, 'mcp', '--http', '0'], { env: { ...process.env, HIVE_MIND_HOME: home }, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL on stderr after 20 s: ${err}`)), 20_000);
    child.stderr.on('data', (c: Buffer) => {
      err += c;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  return { child, url, stderr: () => err + (out ? `\n[stdout] ${out}` : '') };
}

async function connect(url: string, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('hive-mind mcp --http (streamable HTTP on 127.0.0.1)', () => {
  const t = tempHome();
  let srv: Awaited<ReturnType<typeof startHttp>>;

  beforeAll(async () => {
    requireBuilt();
    srv = await startHttp(t.home);
  });
  afterAll(async () => {
    if (srv && srv.child.exitCode === null) {
      const exited = new Promise((r) => srv.child.once('exit', r));
      srv.child.kill('SIGTERM');
      await exited;
    }
    t.cleanup();
  });

  it('serves two sessions at once over one mind', async () => {
    const [a, b] = await Promise.all([connect(srv.url, 'http-a'), connect(srv.url, 'http-b')]);
    try {
      const { tools } = await a.listTools();
      expect(tools.map((x) => x.name)).toContain('save_memory');
      const saves = await Promise.all(
        Array.from({ length: 20 }, (_, i) => callJson(i % 2 ? a : b, 'save_memory', { content: `HTTP fact ${i}: the capybara gateway listens on ${9000 + i}` })),
      );
      expect(new Set(saves.map((s) => s.id)).size).toBe(20);
      const found = await callJson(b, 'search_memory', { query: 'capybara gateway', limit: 50 });
      expect(found.results.length).toBe(20);
      expect(new Set(found.results.map((r: any) => r.host))).toEqual(new Set(['http-a', 'http-b']));
      expect(await callError(a, 'search_memory', { query: 'x', limit: 'ten' })).toMatch(/limit/);
      const res = await a.readResource({ uri: 'memory://stats' });
      expect(JSON.parse((res.contents[0] as { text: string }).text).personal.live).toBe(20);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('binds only 127.0.0.1 and refuses foreign Host headers', async () => {
    const u = new URL(srv.url);
    expect(u.hostname).toBe('127.0.0.1');
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    // DNS rebinding: a page on evil.example resolving to 127.0.0.1 sends its own Host header.
    const evil = await rawPost(u, { ...headers, host: `evil.example:${u.port}` }, JSON.stringify(init));
    expect(evil.status).toBe(403);
    // DNS rebinding with a correct Host but a foreign page: the Origin header gives it away.
    const host = `127.0.0.1:${u.port}`;
    for (const origin of ['http://evil.example', `http://evil.example:${u.port}`, 'null', 'http://127.0.0.1.evil.example']) {
      const r = await rawPost(u, { ...headers, host, origin }, JSON.stringify(init));
      expect(r.status, origin).toBe(403);
      expect(r.body).toMatch(/forbidden Origin/);
    }
    for (const origin of [`http://127.0.0.1:${u.port}`, 'http://localhost:5173', 'http://[::1]:8080', 'http://localhost']) {
      const r = await rawPost(u, { ...headers, host, origin }, JSON.stringify(init));
      expect(r.status, origin).toBe(200);
    }
    const bad = await rawPost(u, headers, '{not json');
    expect(bad.status).toBe(400);
    const noSession = await rawPost(u, headers, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(noSession.status).toBe(400);
    const unknown = await rawPost(u, { ...headers, 'mcp-session-id': 'nope' }, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }));
    expect(unknown.status).toBe(404);
    const other = await fetch(new URL('/elsewhere', u));
    expect(other.status).toBe(404);
  });

  it('exits cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((r) => srv.child.once('exit', (code) => r(code)));
    srv.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

/** POST with full control of the headers (fetch forbids setting Host). */
async function rawPost(u: URL, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  const http = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: Number(u.port), path: u.pathname, method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('serveHttp (library)', () => {
  it('closes sessions a client abandoned, and the client gets 404 for them', async () => {
    const { serveHttp } = await import('../src/index.js');
    const t = tempHome();
    const running = await serveHttp({ port: 0, sessionIdleMs: 1_000, env: { HIVE_MIND_HOME: t.home }, workspace: false, log: () => {} });
    try {
      const client = await connect(running.url, 'idle');
      await client.listTools();
      const sid = (client.transport as StreamableHTTPClientTransport).sessionId!;
      expect(running.sessions()).toBe(1);
      const end = Date.now() + 15_000;
      while (running.sessions() > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      expect(running.sessions()).toBe(0);
      const u = new URL(running.url);
      const r = await rawPost(
        u,
        { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid },
        JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      );
      expect(r.status).toBe(404);
      await client.close().catch(() => undefined);
    } finally {
      await running.close();
      t.cleanup();
    }
  });
});
