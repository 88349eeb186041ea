/**
 * The real Claude Code 2.1.332 (test-support/hosts.ts) against a loopback Anthropic
 * Messages server, in a temp HOME with hive-mind's hooks installed by our installer.
 * Needs the built CLI (`npx tsc -b packages/cli`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mind, workspaceMindPath } from '@hive-mind/mind';
import { startAnthropicServer, type AnthropicServer } from '../../../test-support/llm-servers.js';
import { expectSuccess, hostOrSkip, parseClaudeJsonResult, runClaude } from '../../../test-support/hosts.js';
import { loadInstaller, shQuote } from '../src/index.js';
import { CLI, logLines, runCli } from './helpers.js';

const claude = await hostOrSkip('claude');

// What the user had before installing hive-mind: their own Stop hook, a compact one-line
// UserPromptSubmit hook (our entry goes next to it on the same line), and other settings.
const USER_SETTINGS = `{
  "env": { "DISABLE_AUTOUPDATER": "1" },
  "hooks": {
    "Stop": [
      { "hooks": [ { "type": "command", "command": "echo user-stop-hook >> \\"$HOME/user-hook.log\\"" } ] }
    ],
    "UserPromptSubmit": [{"hooks":[{"type":"command","command":"echo user-prompt-hook >> \\"$HOME/user-hook.log\\""}]}]
  }
}
`;

describe.skipIf(!claude)('real Claude Code with hive-mind hooks', { timeout: 240_000 }, () => {
  let server: AnthropicServer;
  const root = mkdtempSync(join(tmpdir(), 'hm-e2e-claude-'));
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  const settings = join(home, '.claude', 'settings.json');
  const env = { HOME: home };
  const opts = { home, env: { ...process.env, HOME: home, HIVE_MIND_HOME: undefined }, command: `${shQuote(process.execPath)} ${shQuote(CLI)}` };
  const hmHome = join(home, '.hive-mind');

  beforeAll(async () => {
    server = await startAnthropicServer({ fallback: 'Noted.' });
    mkdirSync(join(home, '.claude'), { recursive: true });
    mkdirSync(join(cwd, '.git'), { recursive: true });
    writeFileSync(settings, USER_SETTINGS);
    const r = await (await loadInstaller('claude-code'))!.install(opts);
    expect(r.files[0]!.changed).toBe(true);
  });
  afterAll(async () => {
    await server?.close();
  });

  let sessionOne = '';

  it('session 1: the user states a fact; UserPromptSubmit and Stop store it', async () => {
    const r = expectSuccess(await runClaude(['-p', 'remember that the build uses pnpm', '--output-format', 'json'], { home, cwd, baseUrl: server.url, env }));
    sessionOne = parseClaudeJsonResult(r.stdout).session_id;
    const m = Mind.open(workspaceMindPath(cwd, { HIVE_MIND_HOME: hmHome }), { readonly: true });
    const frames = m.list({ history: true });
    m.close();
    expect(frames.map((f) => f.content)).toContain('The build uses pnpm');
    expect(frames.find((f) => f.kind === 'prompt')?.sessionId).toBe(sessionOne);
    // the reply is a turn of the history
    expect(frames.find((f) => f.kind === 'reply')?.content).toBe('Noted.');
    expect(readFileSync(join(home, 'user-hook.log'), 'utf8')).toContain('user-stop-hook');
    expect(readFileSync(join(home, 'user-hook.log'), 'utf8')).toContain('user-prompt-hook');
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });

  it('session 2: SessionStart injects the fact into the model request', async () => {
    const before = server.messageRequests.length;
    expectSuccess(await runClaude(['-p', 'which package manager does the build use?', '--output-format', 'json'], { home, cwd, baseUrl: server.url, env }));
    const bodies = server.messageRequests.slice(before).map((q) => q.rawBody);
    expect(bodies.some((b) => b.includes('The build uses pnpm') && b.includes('hive-mind memory'))).toBe(true);
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });

  it('a note added with `hive-mind notes add` reaches the next session\'s model request, before the recalled frames', async () => {
    const cliEnv = { ...process.env, HOME: home, HIVE_MIND_HOME: hmHome };
    expect((await runCli(['notes', 'add', '--user', 'Prefers terse answers in British English'], '', cliEnv)).code).toBe(0);
    expect((await runCli(['notes', 'add', 'The staging API listens on port 8443'], '', cliEnv)).code).toBe(0);
    const before = server.messageRequests.length;
    expectSuccess(await runClaude(['-p', 'hello again', '--output-format', 'json'], { home, cwd, baseUrl: server.url, env }));
    const bodies = server.messageRequests.slice(before).map((q) => q.rawBody);
    const body = bodies.find((b) => b.includes('Prefers terse answers in British English'));
    expect(body).toBeDefined();
    expect(body).toContain('The staging API listens on port 8443');
    expect(body!.indexOf('hive-mind notes: USER.md')).toBeLessThan(body!.indexOf('hive-mind memory ('));
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });

  it('UserPromptSubmit adds the frames about the prompt that the session was not given yet', async () => {
    const m = Mind.open(workspaceMindPath(cwd, { HIVE_MIND_HOME: hmHome }));
    // many newer facts push this one out of the session-start budget; the prompt brings it back
    for (let i = 0; i < 60; i++) m.save({ content: `filler fact number ${i} about unrelated module m${i} and its many configuration options`, importance: 'important', kind: 'fact' });
    m.save({ content: 'The release checklist lives in docs/RELEASING.md', kind: 'fact', createdAt: new Date(Date.now() - 86_400_000 * 40).toISOString() });
    m.close();
    const before = server.messageRequests.length;
    expectSuccess(await runClaude(['-p', 'where is the release checklist?', '--output-format', 'json'], { home, cwd, baseUrl: server.url, env: { ...env, HIVE_MIND_RECALL_TOKENS: '400' } }));
    const bodies = server.messageRequests.slice(before).map((q) => q.rawBody);
    expect(bodies.some((b) => b.includes('docs/RELEASING.md'))).toBe(true);
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });

  it('/compact (driven with -p --resume) runs our PreCompact cleanup', async () => {
    const path = workspaceMindPath(cwd, { HIVE_MIND_HOME: hmHome });
    const m = Mind.open(path);
    const expired = m.save({ content: 'an expired scratch note', importance: 'temporary', expiresAt: new Date(Date.now() - 60_000).toISOString() }).id;
    m.close();
    const r = expectSuccess(await runClaude(['-p', '--resume', sessionOne, '/compact focus on build tools', '--output-format', 'json'], { home, cwd, baseUrl: server.url, env }));
    void r;
    const m2 = Mind.open(path, { readonly: true });
    const still = m2.get(expired);
    const kept = m2.list({ limit: 1000 }).map((f) => f.content);
    m2.close();
    expect(still).toBeUndefined();
    expect(kept).toContain('The build uses pnpm');
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });

  it('uninstall leaves settings.json as the user had it', async () => {
    await (await loadInstaller('claude-code'))!.uninstall(opts);
    expect(readFileSync(settings, 'utf8')).toBe(USER_SETTINGS);
  });
});
