import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_HTTP_BODY_BYTES } from '../src/index.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { pathToFileURL } from 'node:url';
import { callError, callJson, CLI, requireBuilt, tempHome } from './helpers.js';

/** Spawn `hive-mind mcp --http 0 ...args` and read the URL and the bearer token it prints on stderr. */
async function startHttp(home: string, args: string[] = []): Promise<{ child: ChildProcessWithoutNullStreams; url: string; token: string; stderr: () => string }> {
  const child = spawn(process.execPath, [CLI, 'mcp', '--http', '0', ...args], { env: { ...process.env, HIVE_MIND_HOME: home }, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  const [url, token] = await new Promise<[string, string]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL on stderr after 20 s: ${err}`)), 20_000);
    child.stderr.on('data', (c: Buffer) => {
      err += c;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      const k = /--header "Authorization: Bearer ([A-Za-z0-9_-]+)"/.exec(err);
      if (m && k && /Cursor/.test(err) && err.trimEnd().endsWith('}')) {
        clearTimeout(timer);
        resolve([m[1]!, k[1]!]);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  return { child, url, token, stderr: () => err + (out ? `\n[stdout] ${out}` : '') };
}

/** Connect the real SDK client over HTTP, sending the bearer token the way a host config does. */
async function connect(url: string, name: string, token?: string, roots?: string[]): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' }, roots ? { capabilities: { roots: { listChanged: true } } } : undefined);
  if (roots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.map((r) => ({ uri: pathToFileURL(r).href, name: r })) }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : undefined));
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
    const [a, b] = await Promise.all([connect(srv.url, 'http-a', srv.token), connect(srv.url, 'http-b', srv.token)]);
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
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${srv.token}` };
    // DNS rebinding: a page on evil.example resolving to 127.0.0.1 sends its own Host header.
    const evil = await rawPost(u, { ...headers, host: `evil.example:${u.port}` }, JSON.stringify(init));
    expect(evil.status).toBe(403);
    // DNS rebinding with a correct Host but a foreign page: the Origin header gives it away.
    const host = `127.0.0.1:${u.port}`;
    // exact origins only: a page on another localhost port is another program
    for (const origin of ['http://evil.example', `http://evil.example:${u.port}`, 'null', 'http://127.0.0.1.evil.example', 'http://localhost:8080', 'http://localhost:5173', 'http://[::1]:8080', 'http://localhost', `https://127.0.0.1:${u.port}`]) {
      const r = await rawPost(u, { ...headers, host, origin }, JSON.stringify(init));
      expect(r.status, origin).toBe(403);
      expect(r.body).toMatch(/forbidden Origin/);
    }
    for (const origin of [`http://127.0.0.1:${u.port}`, `http://localhost:${u.port}`]) {
      const r = await rawPost(u, { ...headers, host, origin }, JSON.stringify(init));
      expect(r.status, origin).toBe(200);
    }
    const bad = await rawPost(u, headers, '{not json');
    expect(bad.status).toBe(400);
    const noSession = await rawPost(u, headers, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(noSession.status).toBe(400);
    const unknown = await rawPost(u, { ...headers, 'mcp-session-id': 'nope' }, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }));
    expect(unknown.status).toBe(404);
    const other = await fetch(new URL('/elsewhere', u), { headers: { authorization: `Bearer ${srv.token}` } });
    expect(other.status).toBe(404);
  });

  it('exits cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((r) => srv.child.once('exit', (code) => r(code)));
    srv.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

/** POST with full control of the headers (fetch forbids setting Host). */
async function rawPost(u: URL, headers: Record<string, string>, body: string | Buffer): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const http = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: Number(u.port), path: u.pathname, method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
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
      const client = await connect(running.url, 'idle', running.token);
      await client.listTools();
      const sid = (client.transport as StreamableHTTPClientTransport).sessionId!;
      expect(running.sessions()).toBe(1);
      const end = Date.now() + 15_000;
      while (running.sessions() > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      expect(running.sessions()).toBe(0);
      const u = new URL(running.url);
      const r = await rawPost(
        u,
        { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid, authorization: `Bearer ${running.token}` },
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

describe('hive-mind mcp --http lets no one in', () => {
  const t = tempHome();
  let srv: Awaited<ReturnType<typeof startHttp>>;
  const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
  const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const stop = async (s: typeof srv) => {
    if (s.child.exitCode !== null) return;
    const exited = new Promise((r) => s.child.once('exit', r));
    s.child.kill('SIGTERM');
    await exited;
  };

  beforeAll(async () => {
    requireBuilt();
    srv = await startHttp(t.home, ['--allow-origin', 'http://localhost:8080']);
  });
  afterAll(async () => {
    if (srv) await stop(srv);
    t.cleanup();
  });

  it('stores a generated token with mode 0600 under the home and prints configs for Claude Code, Codex and Cursor', () => {
    const file = join(t.home, 'mcp-http.token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(srv.token);
    expect(srv.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const err = srv.stderr();
    expect(err).toContain(`claude mcp add --transport http hive-mind ${srv.url} --header "Authorization: Bearer ${srv.token}"`);
    expect(err).toContain(`[mcp_servers.hive-mind]\n  url = "${srv.url}"\n  bearer_token_env_var = "HIVE_MIND_MCP_TOKEN"`);
    expect(err).toContain(`export HIVE_MIND_MCP_TOKEN="$(cat ${file})"`);
    const cursor = JSON.parse(err.slice(err.indexOf('{', err.indexOf('Cursor'))));
    expect(cursor).toEqual({ mcpServers: { 'hive-mind': { url: srv.url, headers: { Authorization: `Bearer ${srv.token}` } } } });
  });

  it('a request without the token, or with a wrong one, gets 401 and writes nothing; the SDK client without it cannot connect', async () => {
    const u = new URL(srv.url);
    for (const auth of [undefined, 'Bearer wrong-token-wrong-token-wrong-token-xx', `Basic ${srv.token}`, `Bearer ${srv.token}x`]) {
      const r = await rawPost(u, { ...base, ...(auth ? { authorization: auth } : {}) }, init);
      expect(r.status, String(auth)).toBe(401);
      expect(r.headers['www-authenticate']).toBe('Bearer realm="hive-mind"');
      expect(r.body).not.toContain(srv.token);
    }
    await expect(connect(srv.url, 'no-token')).rejects.toThrow();
    const ok = await connect(srv.url, 'with-token', srv.token);
    try {
      const saved = await callJson(ok, 'save_memory', { content: 'The staging database is on port 5433', importance: 'critical' });
      expect(saved.id).toBeTruthy();
    } finally {
      await ok.close();
    }
  });

  it('Origin is compared exactly: http://localhost:8080 only because --allow-origin named it, other local ports refused', async () => {
    const u = new URL(srv.url);
    const headers = { ...base, authorization: `Bearer ${srv.token}` };
    expect((await rawPost(u, { ...headers, origin: 'http://localhost:8080' }, init)).status).toBe(200);
    for (const origin of ['http://localhost:8081', 'http://127.0.0.1:8080', 'https://localhost:8080']) {
      const r = await rawPost(u, { ...headers, origin }, init);
      expect(r.status, origin).toBe(403);
    }
  });

  it('a body over the limit gets a 413 response, not a reset connection', async () => {
    const u = new URL(srv.url);
    const big = Buffer.alloc(MAX_HTTP_BODY_BYTES + 1024, 0x20);
    const r = await rawPost(u, { ...base, authorization: `Bearer ${srv.token}` }, big);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).error.message).toMatch(/over the limit of 4194304 bytes/);
    // unauthenticated senders are refused before their body is read
    expect((await rawPost(u, base, big)).status).toBe(401);
  });

  it('a declared body far over the limit gets a 413, with Expect: 100-continue before the body is sent, without it before the connection closes', async () => {
    const u = new URL(srv.url);
    const declared = 70 * 1024 * 1024;
    const ask = (expect100: boolean) =>
      new Promise<{ status: number; body: string; continued: boolean }>((resolve, reject) => {
        let continued = false;
        const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { ...base, authorization: `Bearer ${srv.token}`, 'content-length': String(declared), ...(expect100 ? { expect: '100-continue' } : {}) } });
        req.on('continue', () => (continued = true));
        req.on('response', (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, continued }));
        });
        req.on('error', reject);
        if (expect100) req.flushHeaders();
        else req.write(Buffer.alloc(64 * 1024, 0x20));
      });
    for (const expect100 of [true, false]) {
      const r = await ask(expect100);
      expect(r.status, `expect100 ${expect100}`).toBe(413);
      expect(r.continued).toBe(false);
      expect(JSON.parse(r.body).error.message).toBe(`request body of ${declared} bytes is over the limit of 4194304 bytes`);
    }
  });

  it('compact_transcript reads only transcript files, under the client roots when it gives them, and never echoes a file', async () => {
    const root = join(t.home, 'project');
    mkdirSync(root);
    const secret = join(root, 'notes.json');
    writeFileSync(secret, '{"root:x:0:0": "SECRET-CONTENTS-42", "list": [1, 2]}');
    const jsonl = join(root, 'data.jsonl');
    writeFileSync(jsonl, 'root:x:0:0:root:/root:/bin/bash SECRET-CONTENTS-42\n');
    const session = join(root, 'session.json');
    writeFileSync(session, JSON.stringify([{ role: 'user', content: 'hello' }, { role: 'assistant', content: 'hi there' }]));
    const outside = join(t.home, 'elsewhere.json');
    writeFileSync(outside, JSON.stringify([{ role: 'user', content: 'outside the roots' }]));
    const c = await connect(srv.url, 'rooted', srv.token, [root]);
    try {
      const passwd = await callError(c, 'compact_transcript', { path: '/etc/passwd', budget: 5_000 });
      expect(passwd).toMatch(/^compact_transcript: path: \/etc\/passwd is not a transcript file: only \.jsonl and \.json session files are read$/);
      expect(passwd).not.toMatch(/root:x/);
      for (const p of [secret, jsonl]) {
        const e = await callError(c, 'compact_transcript', { path: p, budget: 5_000 });
        expect(e).toMatch(/^compact_transcript: path: /);
        expect(e).not.toContain('SECRET');
        expect(e).not.toContain('root:x');
      }
      const out = await callError(c, 'compact_transcript', { path: outside, budget: 5_000 });
      expect(out).toMatch(/is outside this client's roots/);
      expect(out).not.toContain('outside the roots');
      const ok = await callJson(c, 'compact_transcript', { path: session, budget: 5_000 });
      expect(ok.report.format).toBe('openai');
    } finally {
      await c.close();
    }
  });

  it('the token is kept across restarts and a loosened token file is narrowed back to 0600', async () => {
    const file = join(t.home, 'mcp-http.token');
    const before = srv.token;
    await stop(srv);
    chmodSync(file, 0o644);
    srv = await startHttp(t.home);
    expect(srv.token).toBe(before);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(srv.stderr()).toMatch(/was readable by other users; its mode is now 0600/);
  });
});
