/**
 * What session 1 said comes back in session 2 (issue 21, "Real parts"): the real Claude Code
 * 2.1.332 and Codex CLI 0.171.0 (test-support/hosts.ts) against loopback model servers, hive-mind's
 * hooks installed by our installer in a temp HOME. In session 1 the user states a fact in a prompt
 * (the billing database's port and version), the model's reply states another (the switch from jest
 * to vitest), and the user then makes a remark in passing ("run the tests again"). Session 2 asks
 * for each fact in other words, in a new session of its own: the fact is in that session's model
 * request (the SessionStart or the UserPromptSubmit injection); the remark is in none of them.
 * Needs the built CLI (`npx tsc -b packages/cli`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mind, workspaceMindPath } from '@hive-mind/mind';
import { startAnthropicServer, startResponsesServer, type AnthropicServer, type RecordedRequest, type ResponsesServer } from '../../../test-support/llm-servers.js';
import { expectSuccess, hostOrSkip, parseClaudeJsonResult, runClaude, runCodex, writeCodexConfig } from '../../../test-support/hosts.js';
import { loadInstaller, shQuote } from '../src/index.js';
import { CLI, logLines } from './helpers.js';

const claude = await hostOrSkip('claude');
const codex = await hostOrSkip('codex');

/** Session 1's prompt: a fact stated by the user. */
const FACT_PROMPT = 'The billing database runs on port 5433 with PostgreSQL 15. Please wire its health check into the status page.';
/** The model's reply to it: a fact the agent reports. */
const FACT_REPLY = 'Done: the status page now pings the billing database. I also switched the test runner from jest to vitest, and the whole suite passes under vitest.';
/** A remark made in passing in session 1. */
const REMARK = 'run the tests again';
/** Session 2's questions, in other words than session 1's. */
const ASK_PORT = 'which port is the billing db on?';
const ASK_RUNNER = 'what test runner do we use now?';

/** The model's reply for a request: the fact when the request carries session 1's prompt as its last user turn, else "Noted.". */
const replyFor = (raw: string): string => (raw.includes('wire its health check') && !raw.includes(REMARK) ? FACT_REPLY : 'Noted.');

const sinceOf = (reqs: RecordedRequest[], from: number) => reqs.slice(from).map((q) => q.rawBody);

describe.skipIf(!claude)('real Claude Code: a fact from a prompt and one from a reply reach the next session, a remark does not', { timeout: 300_000 }, () => {
  let server: AnthropicServer;
  const root = mkdtempSync(join(tmpdir(), 'hm-e2e-history-claude-'));
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  const env = { HOME: home };
  const hmHome = join(home, '.hive-mind');
  const run = (args: string[]) => runClaude([...args, '--output-format', 'json'], { home, cwd, baseUrl: server.url, env });

  beforeAll(async () => {
    server = await startAnthropicServer({ script: (req) => replyFor(req.rawBody) });
    mkdirSync(join(home, '.claude'), { recursive: true });
    mkdirSync(join(cwd, '.git'), { recursive: true });
    await (await loadInstaller('claude-code'))!.install({ home, env: { ...process.env, HOME: home, HIVE_MIND_HOME: undefined }, command: `${shQuote(process.execPath)} ${shQuote(CLI)}` });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('session 1: the prompt, the reply and the remark are turns of its history', async () => {
    const one = parseClaudeJsonResult(expectSuccess(await run(['-p', FACT_PROMPT])).stdout).session_id;
    expectSuccess(await run(['-p', '--resume', one, REMARK]));
    const m = Mind.open(workspaceMindPath(cwd, { HIVE_MIND_HOME: hmHome }), { readonly: true });
    const turns = m.list({ history: true, limit: 100 }).filter((f) => f.kind === 'prompt' || f.kind === 'reply');
    m.close();
    expect(turns.filter((t) => t.sessionId === one).map((t) => [t.kind, t.content]).sort()).toEqual(
      [
        ['prompt', FACT_PROMPT],
        ['prompt', REMARK],
        ['reply', FACT_REPLY],
        ['reply', 'Noted.'],
      ].sort(),
    );
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });

  it('session 2, asked in other words: the port (said by the user) and the runner (said by the agent) are in its model request; the remark is not', async () => {
    for (const [ask, want] of [
      [ASK_PORT, '5433'],
      [ASK_RUNNER, 'vitest'],
    ] as const) {
      const before = server.messageRequests.length;
      expectSuccess(await run(['-p', ask]));
      const bodies = sinceOf(server.messageRequests, before);
      const asked = bodies.filter((b) => b.includes(ask.slice(0, 20)));
      expect(asked.length, ask).toBeGreaterThan(0);
      expect(asked.some((b) => b.includes(want) && b.includes('hive-mind memory')), ask).toBe(true);
      expect(bodies.some((b) => b.includes(REMARK)), ask).toBe(false);
    }
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });
});

describe.skipIf(!codex)('real Codex CLI: a fact from a prompt and one from a reply reach the next session, a remark does not', { timeout: 300_000 }, () => {
  let server: ResponsesServer;
  const root = mkdtempSync(join(tmpdir(), 'hm-e2e-history-codex-'));
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  const hmHome = join(home, '.hive-mind');
  const exec = (args: string[]) => runCodex(['exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', ...args], { home, cwd, baseUrl: server.url, skipConfig: true, env: { HOME: home } });
  const usage = { input_tokens: 50, output_tokens: 5, total_tokens: 55 };

  beforeAll(async () => {
    server = await startResponsesServer({ script: (req) => ({ output: replyFor(req.rawBody), usage }) });
    mkdirSync(join(cwd, '.git'), { recursive: true });
    writeCodexConfig(home, server.url);
    await (await loadInstaller('codex'))!.install({ home, env: { ...process.env, HOME: home, HIVE_MIND_HOME: undefined, CODEX_HOME: undefined }, command: `${shQuote(process.execPath)} ${shQuote(CLI)}` });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('session 1: the prompt, the reply and the remark are turns of its history', async () => {
    expectSuccess(await exec([FACT_PROMPT]));
    expectSuccess(await exec(['resume', '--last', REMARK]));
    const m = Mind.open(workspaceMindPath(cwd, { HIVE_MIND_HOME: hmHome }), { readonly: true });
    const turns = m.list({ history: true, limit: 100 }).filter((f) => f.kind === 'prompt' || f.kind === 'reply');
    m.close();
    expect(turns.map((t) => [t.kind, t.content]).sort()).toEqual(
      [
        ['prompt', FACT_PROMPT],
        ['prompt', REMARK],
        ['reply', FACT_REPLY],
        ['reply', 'Noted.'],
      ].sort(),
    );
    expect(new Set(turns.map((t) => t.sessionId)).size).toBe(1);
    expect(turns.every((t) => t.host === 'codex' && t.cwd === cwd)).toBe(true);
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });

  it('session 2, asked in other words: the port (said by the user) and the runner (said by the agent) are in its model request; the remark is not', async () => {
    for (const [ask, want] of [
      [ASK_PORT, '5433'],
      [ASK_RUNNER, 'vitest'],
    ] as const) {
      const before = server.requests.length;
      expectSuccess(await exec([ask]));
      const bodies = sinceOf(server.requests, before);
      const asked = bodies.filter((b) => b.includes(ask.slice(0, 20)));
      expect(asked.length, ask).toBeGreaterThan(0);
      expect(asked.some((b) => b.includes(want) && b.includes('hive-mind memory')), ask).toBe(true);
      expect(bodies.some((b) => b.includes(REMARK)), ask).toBe(false);
    }
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });
});
