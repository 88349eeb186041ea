/**
 * The real Claude Code and Codex binaries (pinned in hosts.package.json),
 * answered by the loopback servers of llm-servers.ts. Under CI=true a missing
 * host fails these tests (hostOrSkip throws); elsewhere they skip with a note.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  hostOrSkip,
  runClaude,
  runCodex,
  expectSuccess,
  claudeSessionPath,
  listClaudeSessions,
  listCodexSessions,
  parseClaudeJsonResult,
  writeCodexConfig,
  CLAUDE_TEST_API_KEY,
  CODEX_PROVIDER_ID,
} from './hosts.js';
import { startAnthropicServer, startResponsesServer, anthropicRequestText, responsesRequestText, type AnthropicServer, type ResponsesServer } from './llm-servers.js';
import { parse as parseToml } from 'smol-toml';

const claude = await hostOrSkip('claude');
const codex = await hostOrSkip('codex');

const tmpRoots: string[] = [];
function tempWorld(): { home: string; cwd: string } {
  const root = mkdtempSync(join(tmpdir(), 'hm-e2e-'));
  tmpRoots.push(root);
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return { home, cwd };
}
afterAll(() => {
  for (const r of tmpRoots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function readJsonl(file: string): any[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

describe.skipIf(!claude)('real Claude Code against the loopback Anthropic server', () => {
  let server: AnthropicServer;
  beforeEach(async () => {
    server = await startAnthropicServer({ logUnknown: false });
  });
  afterEach(async () => {
    await server.close();
  });

  it('answers `claude -p hello`, writes the session JSONL, and `--resume` sends the first turn back', async () => {
    const { home, cwd } = tempWorld();
    server.enqueue('Hi! Loopback reply number one.');
    const first = expectSuccess(await runClaude(['-p', 'hello', '--output-format', 'json'], { home, cwd, baseUrl: server.url, timeoutMs: 90_000 }));
    const r1 = parseClaudeJsonResult(first.stdout);
    expect(r1.result).toBe('Hi! Loopback reply number one.');
    expect(r1.is_error).toBe(false);

    const calls = server.messageRequests;
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/v1/messages?beta=true');
    expect(calls[0]!.headers['x-api-key']).toBe(CLAUDE_TEST_API_KEY);
    expect(calls[0]!.headers['x-claude-code-session-id']).toBe(r1.session_id);
    expect(calls[0]!.body.stream).toBe(true);
    // 2.1.332 sends [user(system-reminder, prompt), system(environment)]: note
    // the `system` role inside `messages` (beta per-turn-control-2026-07-01).
    const userTurns = (calls[0]!.body.messages as any[]).filter((m) => m.role === 'user');
    expect(anthropicRequestText({ messages: userTurns })).toContain('hello');
    // With CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 nothing but /v1/messages is called.
    expect(server.unknownRequests).toEqual([]);

    const jsonl = claudeSessionPath(home, cwd, r1.session_id);
    expect(listClaudeSessions(home)).toEqual([jsonl]);
    const lines = readJsonl(jsonl);
    expect(lines.some((l) => l.type === 'user' && JSON.stringify(l.message).includes('hello'))).toBe(true);
    expect(lines.some((l) => l.type === 'assistant' && JSON.stringify(l.message).includes('Loopback reply number one'))).toBe(true);

    server.enqueue('Second reply.');
    const second = expectSuccess(
      await runClaude(['-p', '--resume', r1.session_id, 'again', '--output-format', 'json'], { home, cwd, baseUrl: server.url, timeoutMs: 90_000 }),
    );
    const r2 = parseClaudeJsonResult(second.stdout);
    expect(r2.result).toBe('Second reply.');
    expect(r2.session_id).toBe(r1.session_id);
    expect(server.messageRequests).toHaveLength(2);
    const resumed = server.messageRequests[1]!.body;
    const text = anthropicRequestText({ messages: resumed.messages });
    expect(text).toContain('hello');
    expect(text).toContain('Hi! Loopback reply number one.');
    expect(text).toContain('again');
    expect(text.indexOf('hello')).toBeLessThan(text.indexOf('again'));
    expect(readJsonl(jsonl).some((l) => l.type === 'assistant' && JSON.stringify(l.message).includes('Second reply.'))).toBe(true);
  });

  it('runs a tool round trip: a scripted Read tool_use comes back as a tool_result', async () => {
    const { home, cwd } = tempWorld();
    const file = join(cwd, 'notes.txt');
    writeFileSync(file, 'the secret word is periwinkle\n');
    server.enqueue(
      { content: [{ type: 'text', text: 'Reading the file.' }, { type: 'tool_use', id: 'toolu_read_1', name: 'Read', input: { file_path: file } }] },
      'The file says periwinkle.',
    );
    const run = expectSuccess(await runClaude(['-p', 'what is in notes.txt?', '--output-format', 'json'], { home, cwd, baseUrl: server.url, timeoutMs: 90_000 }));
    expect(parseClaudeJsonResult(run.stdout).result).toBe('The file says periwinkle.');
    expect(server.messageRequests).toHaveLength(2);
    const msgs = server.messageRequests[1]!.body.messages as any[];
    const toolResult = msgs.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((b: any) => b.type === 'tool_result');
    expect(toolResult.tool_use_id).toBe('toolu_read_1');
    expect(JSON.stringify(toolResult.content)).toContain('periwinkle');
  });

  it('runs command hooks from <home>/.claude/settings.json and sends SessionStart context to the model', async () => {
    const { home, cwd } = tempWorld();
    const out = join(home, 'hook-out');
    mkdirSync(out);
    const hook = join(home, 'hook.mjs');
    writeFileSync(
      hook,
      `import fs from 'node:fs';
const ev = process.argv[2];
const input = fs.readFileSync(0, 'utf8');
fs.writeFileSync(${JSON.stringify(out)} + '/' + ev + '.json', input);
if (ev === 'SessionStart') process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'HOOK-CONTEXT-7731' } }));
`,
    );
    const hooks: Record<string, unknown> = {};
    for (const ev of ['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd']) {
      hooks[ev] = [{ hooks: [{ type: 'command', command: `${JSON.stringify(process.execPath)} ${JSON.stringify(hook)} ${ev}` }] }];
    }
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ hooks }, null, 2));
    server.enqueue('ok');
    const run = expectSuccess(await runClaude(['-p', 'hooked prompt', '--output-format', 'json'], { home, cwd, baseUrl: server.url, timeoutMs: 90_000 }));
    const id = parseClaudeJsonResult(run.stdout).session_id;
    for (const ev of ['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd']) {
      const payload = JSON.parse(readFileSync(join(out, `${ev}.json`), 'utf8'));
      expect(payload).toMatchObject({ hook_event_name: ev, session_id: id, cwd, transcript_path: claudeSessionPath(home, cwd, id) });
    }
    expect(JSON.parse(readFileSync(join(out, 'UserPromptSubmit.json'), 'utf8')).prompt).toBe('hooked prompt');
    expect(server.messageRequests[0]!.rawBody).toContain('HOOK-CONTEXT-7731');
  });
});

describe.skipIf(!codex)('real Codex CLI against the loopback Responses server', () => {
  let server: ResponsesServer;
  beforeEach(async () => {
    server = await startResponsesServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('answers `codex exec` and writes a rollout file', async () => {
    const { home, cwd } = tempWorld();
    server.enqueue('Hello from the loopback Responses server.');
    const run = expectSuccess(await runCodex(['exec', '--skip-git-repo-check', 'say hello please'], { home, cwd, baseUrl: server.url, timeoutMs: 90_000 }));
    expect(run.stdout).toContain('Hello from the loopback Responses server.');
    const calls = server.responseRequests;
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers.authorization).toBe('Bearer sk-loopback-test');
    expect(calls[0]!.body.stream).toBe(true);
    expect(calls[0]!.body.model).toBe('gpt-test');
    expect(responsesRequestText(calls[0]!.body)).toContain('say hello please');
    expect(server.unknownRequests).toEqual([]);

    const rollouts = listCodexSessions(home);
    expect(rollouts).toHaveLength(1);
    const lines = readJsonl(rollouts[0]!);
    expect(lines[0]).toMatchObject({ type: 'session_meta', payload: { cwd, model_provider: CODEX_PROVIDER_ID, cli_version: '0.171.0' } });
    expect(JSON.stringify(lines)).toContain('Hello from the loopback Responses server.');
  });

  it('runs a tool round trip: a scripted exec_command call comes back as function_call_output', async () => {
    const { home, cwd } = tempWorld();
    writeFileSync(join(cwd, 'notes.txt'), 'codex secret: marigold\n');
    server.enqueue({ output: [{ type: 'function_call', name: 'exec_command', call_id: 'call_cat_1', arguments: { cmd: 'cat notes.txt' } }] }, 'It says marigold.');
    const run = expectSuccess(
      await runCodex(['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', 'read notes.txt'], { home, cwd, baseUrl: server.url, timeoutMs: 90_000 }),
    );
    expect(run.stdout).toContain('It says marigold.');
    expect(server.responseRequests).toHaveLength(2);
    const input = server.responseRequests[1]!.body.input as any[];
    const output = input.find((i) => i.type === 'function_call_output' && i.call_id === 'call_cat_1');
    expect(JSON.stringify(output)).toContain('marigold');
  });
});

describe('writeCodexConfig', () => {
  it('merges into an existing config.toml instead of replacing it', () => {
    const { home } = tempWorld();
    mkdirSync(join(home, '.codex'), { recursive: true });
    writeFileSync(join(home, '.codex', 'config.toml'), '# user comment\napproval_policy = "never"\n\n[features]\nhooks = true\n');
    const file = writeCodexConfig(home, 'http://127.0.0.1:9/', { config: { model_context_window: 32000 } });
    const cfg = parseToml(readFileSync(file, 'utf8')) as any;
    expect(cfg.approval_policy).toBe('never');
    expect(cfg.features).toEqual({ hooks: true, plugins: false, apps: false });
    expect(cfg.model_context_window).toBe(32000);
    expect(cfg.model_provider).toBe(CODEX_PROVIDER_ID);
    expect(cfg.model_providers[CODEX_PROVIDER_ID]).toMatchObject({ base_url: 'http://127.0.0.1:9/v1', wire_api: 'responses' });
    expect(existsSync(file)).toBe(true);
  });
});
