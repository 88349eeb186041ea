import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callJson, CLI, connectStdio, REPO, requireBuilt, tempHome } from './helpers.js';
import { loadStartManifest, type StartManifest } from '../src/fast-start.js';
import { DEFAULT_LIMITS } from '../src/limits.js';

// The fast start answers initialize, tools/list and ping from the build's record, then hands the
// stream to the SDK server. These pin that a host cannot tell: the bytes on stdout are the SDK
// server's own, and what follows the hand-over behaves as if the SDK had answered everything.
const DIST = join(REPO, 'packages/mcp/dist');
const manifest = JSON.parse(readFileSync(join(DIST, 'start-manifest.json'), 'utf8')) as StartManifest;

/** Write `lines` to a fresh `hive-mind mcp` at once and collect stdout lines until `want` answers came. */
function exchange(lines: unknown[], want: number, env: NodeJS.ProcessEnv): Promise<string[]> {
  const t = tempHome();
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [CLI, 'mcp'], { env: { ...process.env, HIVE_MIND_HOME: t.home, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      c.kill('SIGKILL');
      reject(new Error(`timed out; stdout ${out} stderr ${err}`));
    }, 20_000);
    c.stderr.on('data', (d) => (err += d));
    c.stdout.on('data', (d) => {
      out += d;
      const got = out.split('\n').filter(Boolean);
      if (got.length >= want) {
        clearTimeout(timer);
        c.stdin.end();
        c.on('exit', () => {
          t.cleanup();
          resolve(got);
        });
      }
    });
    c.on('error', reject);
    c.stdin.write(lines.map((l) => JSON.stringify(l) + '\n').join(''));
  });
}

const init = (id: number, protocolVersion: string) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion, capabilities: { roots: {} }, clientInfo: { name: 'fast-start-test', version: '1.0.0' } } });

describe('fast start of hive-mind mcp (stdio)', () => {
  requireBuilt();

  it('the build recorded the SDK server\'s answers for this build', () => {
    expect(loadStartManifest(DEFAULT_LIMITS, {}, () => undefined, DIST)).toBeDefined();
    expect(manifest.supportedProtocolVersions).toContain(manifest.latestProtocolVersion);
  });

  it('answers initialize (every protocol version, and an unknown one), tools/list and ping with the bytes the SDK server sends', async () => {
    for (const version of [...manifest.supportedProtocolVersions, '1999-01-01']) {
      const lines = [init(1, version), { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { jsonrpc: '2.0', id: 'p', method: 'ping' }, { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { progressToken: 1 } } }];
      const [fast, sdk] = await Promise.all([exchange(lines, 4, {}), exchange(lines, 4, { HIVE_MIND_MCP_FAST_START: '0' })]);
      expect(fast, version).toEqual(sdk);
      expect(JSON.parse(fast[0]!).result.protocolVersion).toBe(version === '1999-01-01' ? manifest.latestProtocolVersion : version);
    }
  });

  it('leaves what it does not know to the SDK server: a cursor, a bad initialize, an unknown method, garbage', async () => {
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: manifest.latestProtocolVersion } },
      'not json',
      init(2, manifest.latestProtocolVersion),
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 'x' } },
      { jsonrpc: '2.0', id: 4, method: 'no/such/method' },
      { jsonrpc: '2.0', id: 5, method: 'resources/list' },
    ];
    const [fast, sdk] = await Promise.all([exchange(lines, 5, {}), exchange(lines, 5, { HIVE_MIND_MCP_FAST_START: '0' })]);
    expect(fast).toEqual(sdk);
  });

  it('after the hand-over the SDK server knows the client from the replayed initialize (frames carry its name)', async () => {
    const t = tempHome();
    const c = await connectStdio(t.home, [], 'fast-start-client');
    try {
      const saved = await callJson(c.client, 'save_memory', { content: 'The fast start hands the stream to the SDK server' });
      const found = await callJson(c.client, 'search_memory', { query: 'fast start hands' });
      expect(found.results.find((r: { id: number }) => r.id === saved.id)).toMatchObject({ host: 'fast-start-client' });
      expect(c.stderr()).toBe('');
    } finally {
      await c.close();
      t.cleanup();
    }
  });

  describe('a record from another build', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hm-fast-start-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('is not used when a compiled server file or the limits differ, and says so', () => {
      for (const f of readdirSync(DIST)) if (f.endsWith('.js') || f === 'start-manifest.json') copyFileSync(join(DIST, f), join(dir, f));
      const logged: string[] = [];
      expect(loadStartManifest(DEFAULT_LIMITS, {}, (l) => logged.push(l), dir)).toBeDefined();
      expect(loadStartManifest({ ...DEFAULT_LIMITS, maxResultChars: 20_000 }, {}, (l) => logged.push(l), dir)).toBeUndefined();
      expect(loadStartManifest(DEFAULT_LIMITS, { HIVE_MIND_MCP_FAST_START: '0' }, (l) => logged.push(l), dir)).toBeUndefined();
      expect(logged).toEqual([]);
      writeFileSync(join(dir, 'tools-mind.js'), readFileSync(join(dir, 'tools-mind.js'), 'utf8') + '\n// changed\n');
      expect(loadStartManifest(DEFAULT_LIMITS, {}, (l) => logged.push(l), dir)).toBeUndefined();
      expect(logged).toEqual([`${join(dir, 'start-manifest.json')} was recorded for another build (the server files or the SDK or zod version differ); starting without the fast start (npm run build records it again)`]);
      rmSync(join(dir, 'start-manifest.json'));
      expect(existsSync(join(dir, 'start-manifest.json'))).toBe(false);
      expect(loadStartManifest(DEFAULT_LIMITS, {}, (l) => logged.push(l), dir)).toBeUndefined();
    });
  });
});
