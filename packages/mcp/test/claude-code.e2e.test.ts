/**
 * Real-host end to end: the real Claude Code 2.1.332 binary, in a temp HOME, with our
 * server registered by `claude mcp add`, talking to a loopback Anthropic server that
 * answers with a `tool_use` of `mcp__hive-mind__save_memory`. Asserts that our server ran
 * the tool (the frame is in the .mind) and that its result came back to the model as a
 * `tool_result` in Claude Code's next request.
 *
 * Claude Code 2.1.332 defers MCP tools behind its ToolSearch tool (the first request lists
 * only `DeferredToolPlaceholder`), so the scripted model first calls
 * `ToolSearch {query: "select:mcp__hive-mind__save_memory"}`, as a real model does, and
 * `--allowedTools mcp__hive-mind__save_memory` lets the tool run under `-p` without a prompt.
 * A second call with `scope: "workspace"` must land in the workspace mind of the project folder
 * Claude Code runs in (the mind its session-start hook recalls from).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { hostOrSkip, runClaude, expectSuccess, parseClaudeJsonResult } from '../../../test-support/hosts.js';
import { startAnthropicServer, type AnthropicServer } from '../../../test-support/llm-servers.js';
import { CLI, requireBuilt, tempHome, toolResults } from './helpers.js';

const claude = await hostOrSkip('claude');
const TOOL = 'mcp__hive-mind__save_memory';
const FACT = 'The user deploys the marmot service with blue-green releases on Fridays';
const WS_FACT = 'This project pins Node 20 and builds with tsc -b';

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c: any) => (typeof c?.text === 'string' ? c.text : '')).join('');
  return '';
}

describe.skipIf(!claude)('Claude Code 2.1.332 calls our MCP tool', () => {
  const t = tempHome('hm-mcp-cc-');
  const mindHome = join(t.home, 'hive-mind');
  const cwd = join(t.home, 'project');
  let server: AnthropicServer;

  beforeAll(async () => {
    requireBuilt();
    mkdirSync(cwd, { recursive: true });
    server = await startAnthropicServer({
      script: (req) => {
        const tools: Array<{ name: string }> = req.body?.tools ?? [];
        if (!tools.some((x) => x.name === 'ToolSearch' || x.name === TOOL)) return 'ok'; // side requests (titles, probes)
        const results = toolResults(req);
        // Claude Code 2.1.332 defers MCP tools behind ToolSearch: load our tool's schema first (as a model would).
        if (results.length === 0 && !tools.some((x) => x.name === TOOL)) {
          return { content: [{ type: 'tool_use', id: 'toolu_hm_search', name: 'ToolSearch', input: { query: `select:${TOOL}` } }] };
        }
        if (!results.some((r) => r.tool_use_id === 'toolu_hm_e2e_1')) {
          return { content: [{ type: 'text', text: 'Saving that.' }, { type: 'tool_use', id: 'toolu_hm_e2e_1', name: TOOL, input: { content: FACT, importance: 'important', kind: 'decision' } }] };
        }
        if (!results.some((r) => r.tool_use_id === 'toolu_hm_e2e_2')) {
          return { content: [{ type: 'tool_use', id: 'toolu_hm_e2e_2', name: TOOL, input: { content: WS_FACT, scope: 'workspace' } }] };
        }
        return 'Saved it to memory.';
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    t.cleanup();
  });

  it('registers with `claude mcp add`, runs save_memory (personal and workspace), and returns its results to the model', async () => {
    const base = { home: t.home, cwd, baseUrl: server.url, timeoutMs: 120_000 };
    expectSuccess(await runClaude(['mcp', 'add', '-s', 'user', 'hive-mind', '-e', `HIVE_MIND_HOME=${mindHome}`, '--', process.execPath, CLI, 'mcp'], base));

    const run = await runClaude(['-p', 'Remember how I deploy the marmot service.', '--output-format', 'json', '--allowedTools', TOOL], base);
    expectSuccess(run);
    const result = parseClaudeJsonResult(run.stdout);
    expect(result.is_error).toBe(false);
    expect(result.result).toContain('Saved it to memory.');

    // The tool was offered to the model with our schema.
    const withTool = server.messageRequests.filter((r) => (r.body?.tools ?? []).some((x: any) => x.name === TOOL));
    expect(withTool.length).toBeGreaterThanOrEqual(2);
    const offered = withTool[0]!.body.tools.find((x: any) => x.name === TOOL);
    expect(offered.input_schema.required).toEqual(['content']);

    // Its result came back in the next request as a tool_result for our tool_use id.
    const back = withTool.flatMap(toolResults).find((b) => b.tool_use_id === 'toolu_hm_e2e_1');
    expect(back, 'tool_result for toolu_hm_e2e_1 in a later request').toBeTruthy();
    expect(back!.is_error ?? false).toBe(false);
    const payload = JSON.parse(resultText(back!.content));
    expect(payload.status).toBe('inserted');
    expect(payload.id).toBeGreaterThan(0);

    // Our server executed it: the frame is in the .mind, with the host's client name as provenance.
    const { Mind, workspaceMindPath } = await import('@hive-mind/mind');
    const mind = Mind.open(join(mindHome, 'personal.mind'), { readonly: true });
    try {
      const f = mind.get(payload.id);
      expect(f?.content).toBe(FACT);
      expect(f?.kind).toBe('decision');
      expect(f?.importance).toBe('important');
      expect(f?.host).toBe('claude-code'); // the clientInfo name Claude Code sends in initialize
    } finally {
      mind.close();
    }

    // A workspace memory lands in the project's workspace mind (Claude Code starts the server in the project folder).
    const ws = withTool.flatMap(toolResults).find((b) => b.tool_use_id === 'toolu_hm_e2e_2');
    const wsPayload = JSON.parse(resultText(ws!.content));
    expect(wsPayload.mind).toBe('workspace');
    const wsMind = Mind.open(workspaceMindPath(realpathSync(cwd), { HIVE_MIND_HOME: mindHome }), { readonly: true });
    try {
      expect(wsMind.get(wsPayload.id)?.content).toBe(WS_FACT);
    } finally {
      wsMind.close();
    }
  }, 180_000);
});
