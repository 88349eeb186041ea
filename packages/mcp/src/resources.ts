import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerContext } from './context.js';
import { clip, toJson } from './limits.js';
import { statsObject } from './tools-mind.js';

/** Register `memory://stats` (and, once the notes API is wired, the notes resources). */
export function registerResources(server: McpServer, ctx: ServerContext): void {
  const max = ctx.limits.maxResultChars;
  server.registerResource(
    'mind-stats',
    'memory://stats',
    { title: 'Memory statistics', description: 'Counts of the .mind store (JSON).', mimeType: 'application/json' },
    async (uri) => {
      const text = clip(toJson(await statsObject(ctx)), max).text;
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] };
    },
  );
}
