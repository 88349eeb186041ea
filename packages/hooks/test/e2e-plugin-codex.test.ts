/**
 * The hive-mind Codex plugin (plugins/codex, listed by .agents/plugins/marketplace.json) installed
 * into the real Codex CLI 0.171.0 the way a user does it: `codex plugin marketplace add <repository
 * root>`, `codex plugin add hive-mind@hive-mind`, then `codex exec` sessions against a loopback
 * Responses server (with `--dangerously-bypass-hook-trust`, the documented unattended form of the
 * hook review), then `codex plugin remove` and `codex plugin marketplace remove`.
 * Needs the built CLI (`npx tsc -b packages/cli`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { Mind, workspaceMindPath } from '@hive-mind/mind';
import { startResponsesServer, type ResponsesServer } from '../../../test-support/llm-servers.js';
import { expectSuccess, hostOrSkip, runCodex, writeCodexConfig } from '../../../test-support/hosts.js';
import { CLI, logLines, runCli } from './helpers.js';
import { filesUnder, pathWithout, REPO_ROOT } from './plugin-helpers.js';

const codex = await hostOrSkip('codex');

describe.skipIf(!codex)('the hive-mind plugin in the real Codex CLI (marketplace from the local path)', { timeout: 300_000 }, () => {
  let server: ResponsesServer;
  const root = mkdtempSync(join(tmpdir(), 'hm-e2e-cxplugin-'));
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  const bin = join(root, 'bin');
  const codexDir = join(home, '.codex');
  const hmHome = join(home, '.hive-mind');
  // `hive-mind` on PATH, as `npm install -g --prefix ~/.local ./packages/cli` links it; node beside it for its shebang
  const env = { HOME: home, PATH: `${bin}:${dirname(process.execPath)}:${pathWithout('hive-mind')}` };
  const codexRun = (args: string[]) => runCodex(args, { home, cwd, baseUrl: server.url, skipConfig: true, env });
  const exec = (prompt: string) => codexRun(['exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', prompt]);

  beforeAll(async () => {
    server = await startResponsesServer({ fallback: { output: 'Noted.', usage: { input_tokens: 50, output_tokens: 5, total_tokens: 55 } } });
    mkdirSync(join(cwd, '.git'), { recursive: true });
    mkdirSync(bin, { recursive: true });
    symlinkSync(CLI, join(bin, 'hive-mind'));
    // the loopback provider; plugins on (writeCodexConfig turns them off for other tests)
    writeCodexConfig(home, server.url, { config: { features: { plugins: true } } });
  });
  afterAll(async () => {
    await server?.close();
  });

  let configBefore = '';

  it('adds the marketplace from the repository path and installs the plugin', async () => {
    configBefore = readFileSync(join(codexDir, 'config.toml'), 'utf8');
    const add = expectSuccess(await codexRun(['plugin', 'marketplace', 'add', REPO_ROOT]));
    expect(add.stdout).toContain('Added marketplace `hive-mind`');
    const inst = expectSuccess(await codexRun(['plugin', 'add', 'hive-mind@hive-mind', '--json']));
    const result = JSON.parse(inst.stdout) as { pluginId: string; version: string; installedPath: string };
    expect(result).toMatchObject({ pluginId: 'hive-mind@hive-mind', version: '0.1.0' });
    expect(result.installedPath).toBe(join(codexDir, 'plugins', 'cache', 'hive-mind', 'hive-mind', '0.1.0'));
    expect(existsSync(join(result.installedPath, 'scripts', 'run-hive-mind'))).toBe(true);
    // config.toml gets the marketplace and the plugin switch, no hook command and no path of this CLI
    const toml = readFileSync(join(codexDir, 'config.toml'), 'utf8');
    expect(toml).toContain('[plugins."hive-mind@hive-mind"]');
    expect(toml).not.toContain('run-hive-mind');
    expect(toml).not.toContain(CLI);
    expect(existsSync(join(codexDir, 'hooks.json'))).toBe(false);
  });

  it("`hive-mind verify codex` runs the plugin's hooks from Codex's copy", async () => {
    const r = await runCli(['verify', 'codex'], '', { ...process.env, ...env, HIVE_MIND_HOME: undefined, CODEX_HOME: undefined });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^codex config folder: /);
    expect(r.stdout.split('\n')[1]).toBe(`plugin hive-mind@hive-mind 0.1.0 (${join(codexDir, 'plugins', 'cache', 'hive-mind', 'hive-mind', '0.1.0')})`);
    expect(r.stdout.match(/^ok {3}\w+/gm)).toEqual(['ok   UserPromptSubmit', 'ok   Stop', 'ok   PreCompact', 'ok   SessionStart']);
    const toml = readFileSync(join(codexDir, 'config.toml'), 'utf8');
    const u = await runCli(['uninstall', 'codex'], '', { ...process.env, ...env, HIVE_MIND_HOME: undefined, CODEX_HOME: undefined });
    expect(u.code).toBe(0);
    expect(u.stdout).toContain('note: the hive-mind plugin (hive-mind@hive-mind) is still installed in Codex; remove it with its marketplace entry and cached copy: `hive-mind uninstall codex --plugin`');
    expect(readFileSync(join(codexDir, 'config.toml'), 'utf8')).toBe(toml);
  });

  it('session 1: the plugin hooks store the fact the user states', async () => {
    expectSuccess(await exec('remember that the build uses pnpm'));
    const m = Mind.open(workspaceMindPath(cwd, { HIVE_MIND_HOME: hmHome }), { readonly: true });
    const frames = m.list({ history: true });
    m.close();
    expect(frames.map((f) => f.content)).toContain('The build uses pnpm');
    // the reply is a turn of the history
    expect(frames.find((f) => f.kind === 'reply')?.content).toBe('Noted.');
    expect(frames.every((f) => f.host === 'codex')).toBe(true);
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });

  it("session 2: the fact is in the model request, and the plugin's MCP server offers its tools", async () => {
    const before = server.responseRequests.length;
    expectSuccess(await exec('which package manager does the build use?'));
    const reqs = server.responseRequests.slice(before);
    expect(reqs.some((q) => q.rawBody.includes('The build uses pnpm') && q.rawBody.includes('hive-mind memory'))).toBe(true);
    expect(reqs.some((q) => q.rawBody.includes('search_memory'))).toBe(true);
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });

  it('plugin remove and marketplace remove give config.toml back byte for byte and delete the cached copy', async () => {
    expectSuccess(await codexRun(['plugin', 'remove', 'hive-mind@hive-mind']));
    expectSuccess(await codexRun(['plugin', 'marketplace', 'remove', 'hive-mind']));
    expect(readFileSync(join(codexDir, 'config.toml'), 'utf8')).toBe(configBefore);
    const mentions = (f: string) => f.includes('hive-mind') || (statSync(f).isFile() && readFileSync(f, 'utf8').includes('hive-mind'));
    // config.toml is compared above (its loopback provider is named hive-mind-test); the session
    // rollouts (sessions/), Codex's logs and state databases are the user's history, not ours
    const ours = filesUnder(codexDir).filter((f) => f !== join(codexDir, 'config.toml') && mentions(f) && !/^(sessions|log|logs)\//.test(relative(codexDir, f)) && !/\.sqlite(-wal|-shm)?$/.test(f));
    // what 0.171.0 leaves: the marketplace's folder in its plugin cache, emptied
    expect(ours.map((f) => relative(codexDir, f))).toEqual([join('plugins', 'cache', 'hive-mind')]);
    expect(readdirSync(join(codexDir, 'plugins', 'cache', 'hive-mind'))).toEqual([]);
    const before = server.responseRequests.length;
    expectSuccess(await exec('which package manager does the build use?'));
    expect(server.responseRequests.slice(before).some((q) => q.rawBody.includes('The build uses pnpm'))).toBe(false);
  });
});

describe.skipIf(!codex)('the hive-mind plugin in the real Codex CLI with no hive-mind CLI installed', { timeout: 240_000 }, () => {
  let server: ResponsesServer;
  const root = mkdtempSync(join(tmpdir(), 'hm-e2e-cxplugin-nocli-'));
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  const hmHome = join(home, '.hive-mind');
  const env = { HOME: home, PATH: pathWithout('hive-mind') };
  const codexRun = (args: string[]) => runCodex(args, { home, cwd, baseUrl: server.url, skipConfig: true, env });

  beforeAll(async () => {
    server = await startResponsesServer({ fallback: 'Noted.' });
    mkdirSync(join(cwd, '.git'), { recursive: true });
    writeCodexConfig(home, server.url, { config: { features: { plugins: true } } });
    expectSuccess(await codexRun(['plugin', 'marketplace', 'add', REPO_ROOT]));
    expectSuccess(await codexRun(['plugin', 'add', 'hive-mind@hive-mind']));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('untrusted, the plugin hooks do not run (0.171.0 skips them until trusted under /hooks)', async () => {
    const r = expectSuccess(await codexRun(['exec', '--skip-git-repo-check', 'hello']));
    expect(r.stdout).toContain('Noted.');
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });

  it('the session runs; each hook exits 0 and logs one line saying how to install the CLI', async () => {
    const r = expectSuccess(await codexRun(['exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', 'remember that the build uses pnpm']));
    expect(r.stdout).toContain('Noted.');
    const lines = logLines(join(hmHome, 'logs', 'hooks.log'));
    expect(lines.map((l) => l.split(' ')[2])).toEqual(['SessionStart:', 'UserPromptSubmit:', 'Stop:']);
    for (const l of lines) expect(l).toMatch(/^\S+Z codex \w+: hive-mind: the hive-mind CLI is not on PATH, in ~\/.local\/bin nor in the project's node_modules; install it from a hive-mind checkout with `npm ci && npm install -g --prefix ~\/.local .\/packages\/cli`/);
    expect(existsSync(workspaceMindPath(cwd, { HIVE_MIND_HOME: hmHome }))).toBe(false);
    expect(server.responseRequests.some((q) => q.rawBody.includes('not on PATH'))).toBe(false); // for the user, not the model
  });
});
