/**
 * The host's own model as the summarizer, with the pinned real binaries (test-support/hosts.ts)
 * against the loopback model servers: `hive-mind compact --summarizer claude-code` runs the real
 * `claude -p` (ANTHROPIC_BASE_URL at the Anthropic server, any ANTHROPIC_API_KEY standing in for
 * the user's login), `--summarizer codex` the real `codex exec` (a `[model_providers]` entry at the
 * Responses server), found on PATH as a user has them. The model server must receive our system
 * prompt and the span, with no tool the host could run; the checkpoint must land; the nested run
 * must write no session of the host's and start none of hive-mind's hooks (installed in the same
 * home, and shown to run for an ordinary `claude -p`) or the user's MCP servers. Then `mind import
 * --summarizer claude-code` (the MCP tool with the real Codex: packages/mcp/test/compact-hosts.e2e.test.ts).
 * Needs the built CLI (`npx tsc -b packages/cli`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHECKPOINT_HEADINGS } from '@hive-mind/compaction';
import { Mind } from '@hive-mind/mind';
import { claudeEnv, codexEnv, expectSuccess, hostOrSkip, listClaudeSessions, listCodexSessions, runClaude, writeCodexConfig } from '../../../test-support/hosts.js';
import { startAnthropicServer, startResponsesServer, type AnthropicServer, type ResponsesServer } from '../../../test-support/llm-servers.js';
import { runCli } from './helpers.js';

const claude = await hostOrSkip('claude');
const codex = await hostOrSkip('codex');
const DATA = fileURLToPath(new URL('../../../../shared/data/transcripts/', import.meta.url));
const PORT = join(DATA, 'claude-code/python-to-rust-port.jsonl');

/** A reply as a model following our prompt writes it. */
const GOOD = CHECKPOINT_HEADINGS.map((h) => `## ${h}\n- ${h === 'Goal' ? 'HOST-MODEL-CHECKPOINT: port the Python utils to a standalone Rust library with 100% coverage' : 'none'}`).join('\n\n');
/** A line of the span (the user's first request in the shared session). */
const SPAN_TEXT = 'Port this Python project to Rust';
/** The first line of our system prompt (llm-prompt.ts). */
const PROMPT_START = 'You write a checkpoint: the hand-over note from which another model will resume a coding-agent session';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots.splice(0)) if (!process.env.HM_KEEP_E2E) rmSync(r, { recursive: true, force: true });
});
function tempRoot(prefix: string): string {
  const r = mkdtempSync(join(tmpdir(), prefix));
  roots.push(r);
  return r;
}
/** A folder holding `name` as a link to the pinned binary: the host as a user has it on PATH. */
function binDir(root: string, name: string, target: string): string {
  const d = join(root, 'bin');
  mkdirSync(d, { recursive: true });
  symlinkSync(target, join(d, name));
  return d;
}
/** Every file below `dir`, relative. */
function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
}
function frameCount(hmHome: string): number {
  let n = 0;
  for (const f of files(hmHome).filter((p) => p.endsWith('.mind'))) {
    const m = Mind.open(join(hmHome, f), { readonly: true });
    n += m.list({}).length;
    m.close();
  }
  return n;
}
/** The text of every `system` block and message of an Anthropic request. */
const systemText = (body: { system?: Array<{ text: string }> | string }) => (typeof body.system === 'string' ? body.system : (body.system ?? []).map((b) => b.text).join('\n'));

describe.skipIf(!claude)('compact --summarizer claude-code with the real Claude Code', { timeout: 240_000 }, () => {
  let server: AnthropicServer;
  beforeAll(async () => {
    server = await startAnthropicServer({ fallback: GOOD });
  });
  afterAll(async () => server?.close());

  it("claude -p writes the checkpoint: our system prompt and the span reach the model, no tools, no session written, hive-mind's hooks not run", async () => {
    const root = tempRoot('hm-sum-claude-');
    const home = join(root, 'home');
    const cwd = join(root, 'project');
    const hmHome = join(root, 'hm');
    mkdirSync(join(home, '.claude'), { recursive: true });
    mkdirSync(join(cwd, '.git'), { recursive: true });
    const env = { ...claudeEnv({ home, baseUrl: server.url }), HIVE_MIND_HOME: hmHome, PATH: `${binDir(root, 'claude', claude!)}:${process.env.PATH}` };
    // hive-mind's hooks in the same Claude Code home, as a user who installed them has
    const inst = await runCli(['install', 'claude-code'], { cwd, env });
    expect(inst.code, inst.stderr).toBe(0);
    // control: an ordinary claude -p runs them (the prompt is captured into the mind)
    expectSuccess(await runClaude(['-p', 'remember that the build uses pnpm', '--output-format', 'json'], { home, cwd, baseUrl: server.url, env: { HIVE_MIND_HOME: hmHome } }));
    const framesBefore = frameCount(hmHome);
    expect(framesBefore).toBeGreaterThan(0);
    const sessionsBefore = listClaudeSessions(home);
    const hmFilesBefore = files(hmHome).filter((f) => !f.endsWith('-wal') && !f.endsWith('-shm'));
    const requestsBefore = server.messageRequests.length;

    const out = join(root, 'compacted.jsonl');
    const r = await runCli(['compact', PORT, '--budget', '8000', '--summarizer', 'claude-code', '--out', out], { cwd, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/summarizer failed/);
    expect(r.stdout).toMatch(/with a \d+-token checkpoint \(claude-code, claude-[\w-]+\)/);
    const reqs = server.messageRequests.slice(requestsBefore);
    expect(reqs.length).toBe(1);
    const body = reqs[0]!.body;
    expect(systemText(body)).toContain(PROMPT_START);
    expect(systemText(body)).toContain('"## Next step"');
    const user = JSON.stringify(body.messages[0].content);
    expect(user).toContain('<conversation>');
    expect(user).toContain(SPAN_TEXT);
    expect(body.tools).toEqual([]);
    // CLAUDE_CODE_MAX_OUTPUT_TOKENS: the output limit follows the summary budget, not the host's 128000
    expect(body.max_tokens).toBeLessThan(20_000);
    // the checkpoint landed in the written session
    expect(readFileSync(out, 'utf8')).toContain('HOST-MODEL-CHECKPOINT: port the Python utils');
    // the nested run wrote no session and ran no hook of ours
    expect(listClaudeSessions(home)).toEqual(sessionsBefore);
    expect(frameCount(hmHome)).toBe(framesBefore);
    expect(files(hmHome).filter((f) => !f.endsWith('-wal') && !f.endsWith('-shm'))).toEqual(hmFilesBefore);
  });

  it('a span above the window goes in chunks: several claude -p runs, each a part, each within --summarizer-window', async () => {
    server.fallback = GOOD;
    const root = tempRoot('hm-sum-chunks-');
    const home = join(root, 'home');
    mkdirSync(join(home, '.claude'), { recursive: true });
    const env = { ...claudeEnv({ home, baseUrl: server.url }), HIVE_MIND_HOME: join(root, 'hm'), PATH: `${binDir(root, 'claude', claude!)}:${process.env.PATH}` };
    const before = server.messageRequests.length;
    // 10,000 tokens of window, less the 4,000 kept for Claude Code's own prompt: the 10k-token span needs several requests
    const r = await runCli(['compact', PORT, '--budget', '8000', '--summarizer', 'claude-code', '--summarizer-window', '10000', '--out', join(root, 'o.jsonl'), '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).summarizer).toBe('claude-code');
    const reqs = server.messageRequests.slice(before);
    expect(reqs.length).toBeGreaterThan(1);
    reqs.forEach((q, i) => {
      const user = JSON.stringify(q.body.messages[0].content);
      expect(user).toContain(`<conversation part=\\"${i + 1} of ${reqs.length}\\">`);
      if (i > 0) expect(user).toContain('<previous-summary>');
      // what Claude Code sent, counted roughly (4 characters a token): within the window
      expect(JSON.stringify(q.body.messages).length / 4 + JSON.stringify(q.body.system).length / 4).toBeLessThan(10_000);
    });
  });

  it('mind import --summarizer claude-code: the model answers the facts through claude -p', async () => {
    const facts = ['{"kind": "instruction", "content": "Keep the Justfile and make it run the Rust tests.", "importance": "important"}', '{"kind": "outcome", "content": "The Rust port passes 29 unit tests and 5 doctests."}'].join('\n');
    server.fallback = facts;
    const root = tempRoot('hm-sum-import-');
    const home = join(root, 'home');
    mkdirSync(join(home, '.claude'), { recursive: true });
    const env = { ...claudeEnv({ home, baseUrl: server.url }), HIVE_MIND_HOME: join(root, 'hm'), PATH: `${binDir(root, 'claude', claude!)}:${process.env.PATH}` };
    const before = server.messageRequests.length;
    const mind = join(root, 'import.mind');
    const r = await runCli(['mind', 'import', PORT, '--summarizer', 'claude-code', '--mind', mind, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.extractor).toBe('llm');
    expect(report.fallback).toBeUndefined();
    const m = Mind.open(mind, { readonly: true });
    const contents = m.list({}).map((f) => f.content);
    m.close();
    expect(contents).toContain('Keep the Justfile and make it run the Rust tests.');
    const req = server.messageRequests[before]!.body;
    expect(systemText(req)).toContain('You extract the lasting facts of a coding-agent session');
    expect(JSON.stringify(req.messages[0].content)).toContain(SPAN_TEXT);
    expect(listClaudeSessions(home)).toEqual([]);
  });
});

describe.skipIf(!codex)('compact --summarizer codex with the real Codex CLI', { timeout: 240_000 }, () => {
  let server: ResponsesServer;
  beforeAll(async () => {
    server = await startResponsesServer({ fallback: GOOD });
  });
  afterAll(async () => server?.close());

  /** A Codex home whose config.toml points at the loopback server and names an MCP server that leaves a marker when started. */
  function codexHome(root: string): { home: string; env: Record<string, string>; marker: string } {
    const home = join(root, 'home');
    const marker = join(root, 'mcp-started');
    writeCodexConfig(home, server.url, { config: { features: { hooks: true }, mcp_servers: { probe: { command: 'sh', args: ['-c', `touch ${marker}; sleep 30`] } } } });
    const env = { ...codexEnv({ home }), HIVE_MIND_HOME: join(root, 'hm'), PATH: `${binDir(root, 'codex', codex!)}:${process.env.PATH}` };
    return { home, env, marker };
  }

  it('codex exec writes the checkpoint: our system prompt and the span reach the model, no shell tool, no rollout, no MCP server started', async () => {
    const root = tempRoot('hm-sum-codex-');
    const { home, env, marker } = codexHome(root);
    const out = join(root, 'compacted.jsonl');
    const r = await runCli(['compact', PORT, '--budget', '8000', '--summarizer', 'codex', '--out', out, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.summarizer).toBe('codex');
    expect(j.fallback).toBeNull();
    expect(server.responseRequests.length).toBeGreaterThanOrEqual(1);
    const inputs = server.responseRequests.map((q) => q.body.input as Array<{ role?: string; content?: Array<{ text?: string }> }>);
    const text = (items: typeof inputs[number], role: string) => items.filter((i) => i.role === role).flatMap((i) => (i.content ?? []).map((c) => c.text ?? '')).join('\n');
    for (const items of inputs) expect(text(items, 'developer')).toContain(PROMPT_START);
    expect(text(inputs[0]!, 'user')).toContain('<conversation');
    expect(inputs.map((items) => text(items, 'user')).join('\n')).toContain(SPAN_TEXT);
    const tools = server.responseRequests[0]!.body.tools.map((t: { name?: string; type?: string }) => t.name ?? t.type);
    expect(tools).not.toContain('exec_command');
    expect(tools).not.toContain('shell');
    expect(readFileSync(out, 'utf8')).toContain('HOST-MODEL-CHECKPOINT: port the Python utils');
    expect(listCodexSessions(home)).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });
});
