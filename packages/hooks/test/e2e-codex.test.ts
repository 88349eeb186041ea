/**
 * The real Codex CLI 0.171.0 (test-support/hosts.ts) against a loopback Responses-API
 * server, in a temp HOME with hive-mind's hooks installed by our installer, run with
 * `codex exec --dangerously-bypass-hook-trust` (the documented way to skip the trust
 * review in automation). Needs the built CLI (`npx tsc -b packages/cli`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mind, workspaceMindPath } from '@hive-mind/mind';
import { startResponsesServer, type ResponsesServer } from '../../../test-support/llm-servers.js';
import { expectSuccess, hostOrSkip, runCodex, writeCodexConfig } from '../../../test-support/hosts.js';
import { loadInstaller, shQuote } from '../src/index.js';
import { CLI, logLines, runCli } from './helpers.js';

const codex = await hostOrSkip('codex');

describe.skipIf(!codex)('real Codex CLI with hive-mind hooks', { timeout: 240_000 }, () => {
  let server: ResponsesServer;
  const root = mkdtempSync(join(tmpdir(), 'hm-e2e-codex-'));
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  const dir = join(home, '.codex');
  const hooksFile = join(dir, 'hooks.json');
  const tomlFile = join(dir, 'config.toml');
  const opts = { home, env: { ...process.env, HOME: home, HIVE_MIND_HOME: undefined, CODEX_HOME: undefined }, command: `${shQuote(process.execPath)} ${shQuote(CLI)}` };
  const hmHome = join(home, '.hive-mind');
  const mindPath = () => workspaceMindPath(cwd, { HIVE_MIND_HOME: hmHome });
  let userToml = '';
  // the user's own hooks: one records every PreCompact payload Codex sends; a compact
  // one-line UserPromptSubmit hook (our entry goes next to it on the same line)
  const USER_HOOKS = `{
  "hooks": {
    "PreCompact": [
      { "hooks": [ { "type": "command", "command": "cat >> \\"$HOME/precompact-payloads.jsonl\\"; echo >> \\"$HOME/precompact-payloads.jsonl\\"" } ] }
    ],
    "UserPromptSubmit": [{"hooks":[{"type":"command","command":"echo user-prompt-hook >> \\"$HOME/user-hook.log\\""}]}]
  }
}
`;
  const exec = (args: string[], extra: string[] = []) =>
    runCodex(['exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', ...extra, ...args], { home, cwd, baseUrl: server.url, skipConfig: true, env: { HOME: home } });

  beforeAll(async () => {
    server = await startResponsesServer({ fallback: { output: 'Noted.', usage: { input_tokens: 50, output_tokens: 5, total_tokens: 55 } } });
    mkdirSync(join(cwd, '.git'), { recursive: true });
    writeCodexConfig(home, server.url);
    userToml = '# my codex settings (kept by hive-mind)\n' + readFileSync(tomlFile, 'utf8');
    writeFileSync(tomlFile, userToml);
    writeFileSync(hooksFile, USER_HOOKS);
    const r = await (await loadInstaller('codex'))!.install(opts);
    expect(r.files.map((f) => f.changed)).toEqual([true, true]);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('session 1: the user states a fact; UserPromptSubmit and Stop store it', async () => {
    expectSuccess(await exec(['remember that the build uses pnpm']));
    const m = Mind.open(mindPath(), { readonly: true });
    const frames = m.list({ history: true });
    m.close();
    expect(frames.map((f) => f.content)).toContain('The build uses pnpm');
    // the reply is a turn of the history
    expect(frames.find((f) => f.kind === 'reply')?.content).toBe('Noted.');
    expect(frames.every((f) => f.host === 'codex')).toBe(true);
    expect(readFileSync(join(home, 'user-hook.log'), 'utf8')).toContain('user-prompt-hook');
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });

  it('session 2: SessionStart injects the fact into the model request', async () => {
    const before = server.requests.length;
    expectSuccess(await exec(['which package manager does the build use?']));
    const bodies = server.requests.slice(before).map((q) => q.rawBody);
    expect(bodies.some((b) => b.includes('The build uses pnpm') && b.includes('hive-mind memory'))).toBe(true);
  });

  it('a note added with `hive-mind notes add` reaches the next session\'s model request', async () => {
    const cliEnv = { ...process.env, HOME: home, HIVE_MIND_HOME: hmHome };
    expect((await runCli(['notes', 'add', '--user', 'Prefers terse answers in British English'], '', cliEnv)).code).toBe(0);
    const before = server.requests.length;
    expectSuccess(await exec(['hello again']));
    const bodies = server.requests.slice(before).map((q) => q.rawBody);
    expect(bodies.some((b) => b.includes('Prefers terse answers in British English') && b.includes('hive-mind notes: USER.md'))).toBe(true);
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });

  it('UserPromptSubmit adds the frames about the prompt that the session was not given yet', async () => {
    const m = Mind.open(mindPath());
    for (let i = 0; i < 60; i++) m.save({ content: `filler fact number ${i} about unrelated module m${i} and its many configuration options`, importance: 'important', kind: 'fact' });
    m.save({ content: 'The release checklist lives in docs/RELEASING.md', kind: 'fact', createdAt: new Date(Date.now() - 86_400_000 * 40).toISOString() });
    m.close();
    const before = server.requests.length;
    const r = await runCodex(['exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', 'where is the release checklist?'], {
      home, cwd, baseUrl: server.url, skipConfig: true, env: { HOME: home, HIVE_MIND_RECALL_TOKENS: '400' },
    });
    expectSuccess(r);
    const bodies = server.requests.slice(before).map((q) => q.rawBody);
    expect(bodies.some((b) => b.includes('docs/RELEASING.md'))).toBe(true);
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });

  it('auto-compaction (a tiny model_auto_compact_token_limit) runs our PreCompact cleanup', async () => {
    const m = Mind.open(mindPath());
    const expired = m.save({ content: 'an expired scratch note', importance: 'temporary', expiresAt: new Date(Date.now() - 60_000).toISOString() }).id;
    m.close();
    const r = await exec(['resume', '--last', 'keep going'], ['-c', 'model_auto_compact_token_limit=20']);
    const payloads = existsSync(join(home, 'precompact-payloads.jsonl')) ? readFileSync(join(home, 'precompact-payloads.jsonl'), 'utf8').trim() : '';
    if (!payloads) process.stderr.write(`[codex e2e] no PreCompact payload; exit ${r.exitCode}\n${r.stderr.slice(-3000)}\n`);
    expectSuccess(r);
    expect(payloads).toContain('"hook_event_name":"PreCompact"');
    const m2 = Mind.open(mindPath(), { readonly: true });
    expect(m2.get(expired)).toBeUndefined();
    m2.close();
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });

  it('uninstall leaves hooks.json and config.toml as the user had them', async () => {
    await (await loadInstaller('codex'))!.uninstall(opts);
    expect(readFileSync(hooksFile, 'utf8')).toBe(USER_HOOKS);
    // our [features] line goes although the user's own PreCompact hook remains (keeping it
    // would switch on their dormant hooks); the notes tell them the hook needs the flag
    expect(readFileSync(tomlFile, 'utf8')).toBe(userToml);
  });
});
