import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RecordedRequest } from '../../../test-support/llm-servers.js';

/** Repository root, computed from this file. */
export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
/** The built CLI launcher. */
export const CLI = join(REPO, 'packages/cli/bin/hive-mind.js');

/** Throw a clear error when the CLI has not been built (these tests spawn the real process). */
export function requireBuilt(): void {
  const entry = join(REPO, 'packages/cli/dist/bin.js');
  const mcp = join(REPO, 'packages/mcp/dist/index.js');
  if (!existsSync(entry) || !existsSync(mcp)) throw new Error(`the CLI is not built (${entry}); run \`npx tsc -b packages/cli\` first`);
}

/** A fresh HIVE_MIND_HOME in the OS temp dir; `cleanup()` removes it. */
export function tempHome(prefix = 'hm-mcp-'): { home: string; cleanup: () => void } {
  const home = mkdtempSync(join(tmpdir(), prefix));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

export interface Connected {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  close: () => Promise<void>;
}

/** Spawn `hive-mind mcp ...args` with HIVE_MIND_HOME=home (and `env` beside it) and connect the SDK client over stdio. */
export async function connectStdio(home: string, args: string[] = [], clientName = 'hm-test', env: Record<string, string> = {}): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    env: { ...(process.env as Record<string, string>), HIVE_MIND_HOME: home, ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => err, close: () => client.close() };
}

/** Text of a tool result's first text part. */
export function textOf(r: unknown): string {
  const c = (r as CallToolResult).content?.[0];
  if (!c || c.type !== 'text') throw new Error(`no text content in ${JSON.stringify(r)}`);
  return c.text;
}

/** Call a tool and parse its JSON result; throws when the result is an error. */
export async function callJson(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name} failed: ${textOf(r)}`);
  return JSON.parse(textOf(r));
}

/** Call a tool expecting `isError: true`; returns the message. */
export async function callError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = await client.callTool({ name, arguments: args });
  if (!r.isError) throw new Error(`${name} unexpectedly succeeded: ${textOf(r)}`);
  return textOf(r);
}

/** The `tool_result` blocks of a recorded Anthropic Messages request, in order. */
export function toolResults(req: RecordedRequest): Array<{ tool_use_id: string; content: unknown; is_error?: boolean }> {
  const out: Array<{ tool_use_id: string; content: unknown; is_error?: boolean }> = [];
  for (const m of req.body?.messages ?? []) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) if (b?.type === 'tool_result') out.push(b);
  }
  return out;
}
