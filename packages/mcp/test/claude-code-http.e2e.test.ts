/**
 * Real-host end to end over HTTP: `hive-mind mcp --http 0` prints a ready `claude mcp add
 * --transport http ... --header "Authorization: Bearer <token>"` line; this test runs exactly
 * that line (as printed) with the real Claude Code 2.1.332 in a temp HOME, checks `claude mcp
 * list` reports the server connected, then runs a `-p` turn against a loopback Anthropic server
 * that scripts `ToolSearch` then a `tool_use` of `mcp__hive-mind__save_memory`, and asserts the
 * frame is in the server's `.mind` and the tool's result reached the model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { hostOrSkip, runClaude, expectSuccess, parseClaudeJsonResult } from '../../../test-support/hosts.js';
import { startAnthropicServer, type AnthropicServer } from '../../../test-support/llm-servers.js';
import { CLI, requireBuilt, tempHome, toolResults } from './helpers.js';

const claude = await hostOrSkip('claude');
const TOOL = 'mcp__hive-mind__save_memory';
const FACT = 'The user rotates the staging database credentials every Monday';

/** Split the printed shell line into argv (double-quoted parts kept whole, as a shell would). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

describe.skipIf(!claude)('the printed Claude Code HTTP config works with the real Claude Code', () => {
  const t = tempHome('hm-mcp-cc-http-');
  const mindHome = join(t.home, 'hive-mind');
  const cwd = join(t.home, 'project');
  let model: AnthropicServer;
  let child: ChildProcessWithoutNullStreams;
  let printed = '';

  beforeAll(async () => {
    requireBuilt();
    mkdirSync(cwd, { recursive: true });
    child = spawn(process.execPath, [CLI, 'mcp', '--http', '0'], { env: { ...process.env, HIVE_MIND_HOME: mindHome }, stdio: ['pipe', 'pipe', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no config printed after 20 s: ${printed}`)), 20_000);
      child.stderr.on('data', (c: Buffer) => {
        printed += c;
        if (/Cursor/.test(printed) && printed.trimEnd().endsWith('}')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${printed}`)));
    });
    model = await startAnthropicServer({
      script: (req) => {
        const tools: Array<{ name: string }> = req.body?.tools ?? [];
        if (!tools.some((x) => x.name === 'ToolSearch' || x.name === TOOL)) return 'ok';
        const results = toolResults(req);
        if (results.length === 0 && !tools.some((x) => x.name === TOOL)) {
          return { content: [{ type: 'tool_use', id: 'toolu_hm_http_search', name: 'ToolSearch', input: { query: `select:${TOOL}` } }] };
        }
        if (!results.some((r) => r.tool_use_id === 'toolu_hm_http_1')) {
          return { content: [{ type: 'tool_use', id: 'toolu_hm_http_1', name: TOOL, input: { content: FACT, importance: 'important' } }] };
        }
        return 'Saved.';
      },
    });
  });
  afterAll(async () => {
    child?.kill('SIGTERM');
    await model?.close();
    t.cleanup();
  });

  it('`claude mcp add` as printed, `claude mcp list` connected, a -p turn saves through HTTP', async () => {
    const line = /^\s*claude (mcp add --transport http .*)$/m.exec(printed)?.[1];
    expect(line, printed).toBeTruthy();
    const base = { home: t.home, cwd, baseUrl: model.url, timeoutMs: 120_000 };
    expectSuccess(await runClaude(shellWords(line!), base));
    const list = expectSuccess(await runClaude(['mcp', 'list'], base));
    expect(list.stdout).toMatch(/hive-mind: http:\/\/127\.0\.0\.1:\d+\/mcp \(HTTP\) - ✔ Connected/);

    const run = expectSuccess(await runClaude(['-p', 'Remember when I rotate the staging credentials.', '--output-format', 'json', '--allowedTools', TOOL], base));
    expect(parseClaudeJsonResult(run.stdout).result).toContain('Saved.');
    const back = model.messageRequests.flatMap(toolResults).find((b) => b.tool_use_id === 'toolu_hm_http_1');
    expect(back, 'tool_result for toolu_hm_http_1').toBeTruthy();
    expect(back!.is_error ?? false).toBe(false);

    const { Mind } = await import('@hive-mind/mind');
    const mind = Mind.open(join(mindHome, 'personal.mind'), { readonly: true });
    try {
      const hits = mind.search('staging credentials Monday', { limit: 5 });
      expect(hits.map((h) => h.content)).toContain(FACT);
    } finally {
      mind.close();
    }
  }, 180_000);
});
