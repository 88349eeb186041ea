import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
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
  let workspace: Promise<string | undefined> | undefined;
  let roots: Promise<string[] | undefined> | undefined;
  const session: SessionInfo = {
    id: sessionId,
    host: () => {
      const name = server.server.getClientVersion()?.name;
      return name ? name.slice(0, 64) : 'mcp';
    },
    workspace: () => (workspace ??= findWorkspace(session, ctx)),
    roots: () => (roots ??= listRoots(server, ctx)),
  };
  // the client's roots changed: find the workspace again on the next call
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    workspace = undefined;
    roots = undefined;
  });
  server.server.onerror = (err) => ctx.log(`protocol error: ${err.message}`);
  registerMindTools(server, ctx, session);
  registerNotesTool(server, ctx, session);
  registerCompactTool(server, ctx, session);
  registerResources(server, ctx, session);
  return server;
}

/** See {@link SessionInfo.roots}. 2 s timeout; a failure is logged and counts as no roots. */
async function listRoots(server: McpServer, ctx: ServerContext): Promise<string[] | undefined> {
  if (!server.server.getClientCapabilities()?.roots) return undefined;
  try {
    const { roots } = await server.server.listRoots(undefined, { timeout: 2_000 });
    return roots.filter((r) => r.uri.startsWith('file://')).map((r) => fileURLToPath(r.uri));
  } catch (err) {
    ctx.log(`roots/list failed (${err instanceof Error ? err.message : String(err)}); using the working directory as the workspace`);
    return undefined;
  }
}

/** See {@link SessionInfo.workspace}: the option, else the first root, else the working directory (not home or `/`). */
async function findWorkspace(session: SessionInfo, ctx: ServerContext): Promise<string | undefined> {
  const opt = ctx.workspaceOption;
  if (opt === false) return undefined;
  if (typeof opt === 'string') return resolve(opt);
  const first = (await session.roots())?.[0];
  if (first) return first;
  const cwd = process.cwd();
  if (cwd === '/' || cwd === resolve(homedir()) || (ctx.env.HOME && cwd === resolve(ctx.env.HOME))) return undefined;
  return cwd;
}

export { ServerContext };
