/**
 * Record the SDK server's answers to `initialize` and `tools/list` into
 * `dist/start-manifest.json` for the fast start (fast-start.ts). Run by `npm run build` after
 * `tsc -b` (`node packages/mcp/dist/write-start-manifest.js`): it starts the real server over
 * in-memory streams with the default limits, asks both, and writes what the SDK sent.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { ServerContext } from './context.js';
import { START_MANIFEST_FILE, serverFingerprint, type StartManifest } from './fast-start.js';
import { createMcpServer } from './server.js';

/** Ask the real server `initialize` (latest protocol version) and `tools/list`; returns the manifest. */
export async function recordStartManifest(): Promise<StartManifest> {
  const home = mkdtempSync(join(tmpdir(), 'hive-mind-start-manifest-'));
  const ctx = new ServerContext({ env: { HIVE_MIND_HOME: home }, workspace: false, log: () => undefined });
  const input = new PassThrough();
  const output = new PassThrough();
  const server = createMcpServer(ctx, 'start-manifest');
  try {
    await server.connect(new StdioServerTransport(input, output));
    const answers = new Map<number, Record<string, unknown>>();
    let text = '';
    const done = new Promise<void>((resolve) => {
      output.on('data', (d: Buffer) => {
        text += d.toString('utf8');
        let nl: number;
        while ((nl = text.indexOf('\n')) !== -1) {
          const msg = JSON.parse(text.slice(0, nl)) as Record<string, unknown>;
          text = text.slice(nl + 1);
          if (typeof msg.id === 'number') answers.set(msg.id, msg);
          if (answers.size === 2) resolve();
        }
      });
    });
    const send = (m: unknown) => input.write(JSON.stringify(m) + '\n');
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'hive-mind-build', version: '0' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await done;
    const initialize = answers.get(1) as StartManifest['initialize'];
    const toolsList = answers.get(2)!;
    if (!initialize.result || !toolsList.result) throw new Error(`the server did not answer initialize and tools/list: ${JSON.stringify([...answers.values()])}`);
    return {
      format: 1,
      fingerprint: serverFingerprint(),
      limits: ctx.limits,
      latestProtocolVersion: LATEST_PROTOCOL_VERSION,
      supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      initialize,
      toolsList,
    };
  } finally {
    await server.close();
    ctx.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const out = join(dirname(fileURLToPath(import.meta.url)), START_MANIFEST_FILE);
writeFileSync(out, JSON.stringify(await recordStartManifest()) + '\n');
