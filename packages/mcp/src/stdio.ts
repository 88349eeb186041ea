import { randomBytes } from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ServerContext, type ServerOptions } from './context.js';
import { createMcpServer } from './server.js';

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
 * SIGINT/SIGTERM. Resolves once connected; the returned `closed` promise settles on shutdown.
 */
export async function serveStdio(opts: ServerOptions = {}): Promise<{ closed: Promise<void>; close: () => Promise<void> }> {
  protectStdout();
  const ctx = new ServerContext(opts);
  const server = createMcpServer(ctx, `stdio-${process.pid}-${randomBytes(4).toString('hex')}`);
  const transport = new StdioServerTransport();
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let closing = false;
  const close = async () => {
    if (closing) return closed;
    closing = true;
    try {
      await server.close();
    } catch (err) {
      ctx.log(`close failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    ctx.close();
    resolveClosed();
    return closed;
  };
  process.stdin.once('end', () => void close());
  process.stdin.once('close', () => void close());
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    // The client went away (EPIPE): nothing left to answer.
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') void close();
    else ctx.log(`stdout error: ${err.message}`);
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void close());
  await server.connect(transport);
  return { closed, close };
}
