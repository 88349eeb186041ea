import { randomBytes } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ServerContext, type ServerOptions } from './context.js';
import { loadStartManifest, startFast } from './fast-start.js';

export type { ServerOptions } from './context.js';

/**
 * Keep stdout for the protocol only: anything a dependency prints with `console.log`,
 * `console.info` or `console.debug` goes to stderr instead.
 */
export function protectStdout(): void {
  const toErr = (...args: unknown[]) => console.error(...args);
  console.log = toErr;
  console.info = toErr;
  console.debug = toErr;
}

/**
 * Serve MCP over this process's stdin/stdout until stdin ends or the process gets
 * SIGINT/SIGTERM. Resolves once it reads stdin; the returned `closed` promise settles on
 * shutdown. The SDK is imported here, not by this module: with the build's start manifest
 * (fast-start.ts) `initialize` and `tools/list` are answered before it loads.
 */
export async function serveStdio(opts: ServerOptions = {}): Promise<{ closed: Promise<void>; close: () => Promise<void> }> {
  protectStdout();
  const ctx = new ServerContext(opts);
  const sessionId = `stdio-${process.pid}-${randomBytes(4).toString('hex')}`;
  let server: McpServer | undefined;
  let fast: { stop: () => void } | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let closing = false;
  const close = async () => {
    if (closing) return closed;
    closing = true;
    fast?.stop();
    try {
      await server?.close();
    } catch (err) {
      ctx.log(`close failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    ctx.close();
    resolveClosed();
    return closed;
  };
  const connect = async (input: Readable, output: Writable) => {
    const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([import('@modelcontextprotocol/sdk/server/stdio.js'), import('./server.js')]);
    if (closing) return;
    server = createMcpServer(ctx, sessionId);
    await server.connect(new StdioServerTransport(input, output));
  };
  process.stdin.once('end', () => void close());
  process.stdin.once('close', () => void close());
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    // The client went away (EPIPE): nothing left to answer.
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') void close();
    else ctx.log(`stdout error: ${err.message}`);
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void close());
  const manifest = loadStartManifest(ctx.limits, ctx.env, ctx.log);
  if (!manifest) await connect(process.stdin, process.stdout);
  else
    fast = startFast(manifest, {
      connect,
      onFailure: (err) => {
        ctx.log(`cannot start the server: ${err instanceof Error ? err.message : String(err)}`);
        process.exitCode = 1;
        void close();
      },
    });
  return { closed, close };
}
