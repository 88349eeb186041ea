import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { ServerContext, type ServerOptions } from './context.js';
import type { SessionInfo } from './guard.js';
import { registerMindTools } from './tools-mind.js';
import { registerResources } from './resources.js';
import { registerNotesTool } from './tools-notes.js';
import { registerCompactTool } from './tools-compact.js';

const pkg = createRequire(import.meta.url)('../package.json') as { version: string };

/** Name the server announces in `initialize` (and the usual key in host configs). */
export const SERVER_NAME = 'hive-mind';

const INSTRUCTIONS =
  'hive-mind gives you a long-term memory that lasts across sessions. ' +
  'Use recall at the start of a task, search_memory to look something up, save_memory for durable facts, decisions and user preferences (one self-contained statement per call), ' +
  'and memory_notes for the small curated MEMORY.md/USER.md notes. When a notes write answers done: true, stop retrying and answer the user. ' +
  'compact_transcript shrinks a long conversation to a token budget. Every result is bounded; follow nextOffset to read more.';

/**
 * Build one MCP server (one per client session) over a shared {@link ServerContext}.
 * Tools and resources are registered here; nothing heavy is loaded until a tool runs.
 */
export function createMcpServer(ctx: ServerContext, sessionId: string = randomUUID()): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, title: 'hive-mind memory and compaction', version: pkg.version },
    { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {} } },
  );
  const session: SessionInfo = {
    id: sessionId,
    host: () => {
      const name = server.server.getClientVersion()?.name;
      return name ? name.slice(0, 64) : 'mcp';
    },
  };
  server.server.onerror = (err) => ctx.log(`protocol error: ${err.message}`);
  registerMindTools(server, ctx, session);
  registerNotesTool(server, ctx, session);
  registerCompactTool(server, ctx);
  registerResources(server, ctx);
  return server;
}

export { ServerContext, type ServerOptions };
