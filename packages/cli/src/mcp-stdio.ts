import type { ServerOptions } from '@hive-mind/mcp/stdio';

/** `--max-result-chars` when not given (the server's own default, DEFAULT_LIMITS in @hive-mind/mcp). */
export const DEFAULT_MAX_RESULT_CHARS = 16_000;

/**
 * Serve MCP over stdio with `opts` until stdin closes. Loads only `@hive-mind/mcp/stdio`, which
 * answers the handshake before the SDK loads (its fast start): `hive-mind mcp` without flags
 * comes here straight from bin.ts, without commander.
 */
export async function serveStdioUntilClosed(opts: ServerOptions): Promise<void> {
  const { serveStdio } = await import('@hive-mind/mcp/stdio');
  const { closed } = await serveStdio({ ...opts, limits: { maxResultChars: DEFAULT_MAX_RESULT_CHARS, ...opts.limits } });
  await closed;
}
