import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { NotesTarget } from '@hive-mind/mind';
import type { ServerContext } from './context.js';
import type { SessionInfo } from './guard.js';
import { clip, toJson } from './limits.js';
import { statsObject } from './tools-mind.js';

/**
 * Register the resources:
 * - `memory://stats`: counts of the .mind (JSON);
 * - `memory://notes/user`: USER.md as injected (markdown);
 * - `memory://notes/memory`: the global MEMORY.md as injected;
 * - `memory://notes/thread/{key}`: a thread's MEMORY.md (the global one when the thread has none).
 * Notes are rendered as a session would see them: secrets redacted, entries flagged by the threat
 * scan left out. Every body is cut at `maxResultChars` with a closing note naming the tool that pages.
 */
export function registerResources(server: McpServer, ctx: ServerContext, session: SessionInfo): void {
  const max = ctx.limits.maxResultChars;
  server.registerResource(
    'mind-stats',
    'memory://stats',
    { title: 'Memory statistics', description: 'Counts of the personal and workspace .mind stores: frames by importance and kind, quarantined, file size (JSON).', mimeType: 'application/json' },
    async (uri) => {
      const text = clip(toJson(await statsObject(ctx, session)), max).text;
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] };
    },
  );

  const notesBody = async (target: NotesTarget): Promise<string> => {
    const notes = await ctx.notes();
    const r = notes.render(target);
    const head = `<!-- ${r.path}: ${r.usage.chars}/${notes.limitFor(target)} characters, ${r.usage.entries} entries${r.dropped ? `, ${r.dropped} flagged entries left out` : ''} -->\n`;
    const c = clip(r.text, max - head.length - 200);
    return head + c.text + (c.truncated ? `\n<!-- cut at ${c.text.length} of ${c.totalChars} characters: use the memory_notes tool (action read, offset) for the rest -->` : '');
  };

  server.registerResource(
    'notes-user',
    'memory://notes/user',
    { title: 'USER.md', description: 'The curated notes about the user (global), as injected into sessions.', mimeType: 'text/markdown' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await notesBody({ file: 'user' }) }] }),
  );
  server.registerResource(
    'notes-memory',
    'memory://notes/memory',
    { title: 'MEMORY.md (global)', description: 'The global curated MEMORY.md, as injected into sessions without a thread file.', mimeType: 'text/markdown' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await notesBody({ file: 'memory' }) }] }),
  );
  server.registerResource(
    'notes-thread',
    new ResourceTemplate('memory://notes/thread/{key}', { list: undefined }),
    {
      title: 'MEMORY.md of a thread',
      description: "A thread's curated MEMORY.md (the global MEMORY.md when the thread has none). The key is URL-encoded.",
      mimeType: 'text/markdown',
    },
    async (uri, vars) => {
      const raw = Array.isArray(vars.key) ? vars.key.join('/') : (vars.key ?? '');
      let key: string;
      try {
        key = decodeURIComponent(raw);
      } catch {
        throw new Error(`memory://notes/thread/{key}: key ${JSON.stringify(raw)} is not valid URL encoding`);
      }
      if (!key) throw new Error('memory://notes/thread/{key}: key is empty');
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await notesBody({ file: 'memory', thread: key }) }] };
    },
  );
}
