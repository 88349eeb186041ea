/**
 * The hive-mind Claude Code plugin (plugins/claude-code, listed by .claude-plugin/marketplace.json)
 * installed into the real Claude Code 2.1.332 the way a user does it: `claude plugin marketplace add
 * <repository root>`, `claude plugin install hive-mind@hive-mind`, then sessions against a loopback
 * Anthropic server, then `claude plugin uninstall` and `claude plugin marketplace remove`.
 * The CLI is found by the plugin's launcher at run time: here a `hive-mind` on PATH (what
 * `npm install -g --prefix ~/.local ./packages/cli` gives); a second suite runs the plugin with no CLI anywhere.
 * Needs the built CLI (`npx tsc -b packages/cli`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { Mind, workspaceMindPath } from '@hive-mind/mind';
import { startAnthropicServer, type AnthropicServer } from '../../../test-support/llm-servers.js';
import { expectSuccess, hostOrSkip, parseClaudeJsonResult, runClaude } from '../../../test-support/hosts.js';
import { CLI, logLines, runCli } from './helpers.js';
import { pathWithout, REPO_ROOT, filesUnder } from './plugin-helpers.js';

const claude = await hostOrSkip('claude');

/** `claude plugin … --json`: the last stdout line, parsed. */
function jsonResult(stdout: string): { outcome?: string; [k: string]: unknown } {
  const last = stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as { outcome?: string };
}

describe.skipIf(!claude)('the hive-mind plugin in the real Claude Code (marketplace from the local path)', { timeout: 300_000 }, () => {
  let server: AnthropicServer;
  const root = mkdtempSync(join(tmpdir(), 'hm-e2e-ccplugin-'));
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  const bin = join(root, 'bin');
  const claudeDir = join(home, '.claude');
  const hmHome = join(home, '.hive-mind');
  // `hive-mind` on PATH, as `npm install -g --prefix ~/.local ./packages/cli` links it; node beside it for its shebang
  const env = { HOME: home, PATH: `${bin}:${dirname(process.execPath)}:${pathWithout('hive-mind')}` };
  const run = (args: string[]) => runClaude(args, { home, cwd, baseUrl: server.url, env });

  beforeAll(async () => {
    server = await startAnthropicServer({ fallback: 'Noted.' });
    mkdirSync(join(cwd, '.git'), { recursive: true });
    mkdirSync(bin, { recursive: true });
    symlinkSync(CLI, join(bin, 'hive-mind'));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('`claude plugin validate --strict` passes the marketplace and the plugin', async () => {
    for (const target of [REPO_ROOT, join(REPO_ROOT, 'plugins', 'claude-code')]) {
      const r = expectSuccess(await run(['plugin', 'validate', target, '--strict', '--json']));
      const report = JSON.parse(r.stdout) as { success: boolean; manifest: { errors: unknown[]; warnings: unknown[] } };
      expect(report).toMatchObject({ success: true, manifest: { errors: [], warnings: [] } });
    }
  });

  it('adds the marketplace from the repository path and installs the plugin non-interactively', async () => {
    const add = expectSuccess(await run(['plugin', 'marketplace', 'add', REPO_ROOT, '--json']));
    expect(jsonResult(add.stdout)).toMatchObject({ outcome: 'ok', marketplace: 'hive-mind' });
    const inst = expectSuccess(await run(['plugin', 'install', 'hive-mind@hive-mind', '--json']));
    expect(jsonResult(inst.stdout)).toMatchObject({ outcome: 'ok', pluginId: 'hive-mind@hive-mind' });
    // nothing absolute of ours in the user's settings: no hooks, no MCP server, only the plugin switch
    const settings = JSON.parse(readFileSync(join(claudeDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(settings.hooks).toBeUndefined();
    expect(settings.mcpServers).toBeUndefined();
    expect(settings.enabledPlugins).toEqual({ 'hive-mind@hive-mind': true });
    expect(JSON.stringify(settings)).not.toContain('run-hive-mind');
    expect(JSON.stringify(settings)).not.toContain(CLI);
    // the copy Claude Code runs is in its plugin cache, away from this checkout's node_modules
    const cached = join(claudeDir, 'plugins', 'cache', 'hive-mind', 'hive-mind', '0.1.0');
    expect(existsSync(join(cached, 'scripts', 'run-hive-mind'))).toBe(true);
    expect(existsSync(join(cached, 'node_modules'))).toBe(false);
  });

  it("`hive-mind verify claude-code` runs the plugin's hooks from Claude Code's copy", async () => {
    const r = await runCli(['verify', 'claude-code'], '', { ...process.env, ...env, HIVE_MIND_HOME: undefined });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^claude-code config folder: /);
    expect(r.stdout.split('\n')[1]).toBe(`plugin hive-mind@hive-mind 0.1.0 (${join(claudeDir, 'plugins', 'cache', 'hive-mind', 'hive-mind', '0.1.0')})`);
    expect(r.stdout.match(/^ok {3}\w+/gm)).toEqual(['ok   UserPromptSubmit', 'ok   Stop', 'ok   PreCompact', 'ok   SessionEnd', 'ok   SessionStart']);
    // `hive-mind uninstall` touches nothing of the plugin's and says how to remove it
    const settings = readFileSync(join(claudeDir, 'settings.json'), 'utf8');
    const u = await runCli(['uninstall', 'claude-code'], '', { ...process.env, ...env, HIVE_MIND_HOME: undefined });
    expect(u.code).toBe(0);
    expect(u.stdout).toContain('note: the hive-mind plugin (hive-mind@hive-mind) is still installed in Claude Code; remove it with its marketplace entry and cached copy: `hive-mind uninstall claude-code --plugin`');
    expect(readFileSync(join(claudeDir, 'settings.json'), 'utf8')).toBe(settings);
  });

  let sessionOne = '';

  it('session 1: the plugin hooks store the fact the user states', async () => {
    const r = expectSuccess(await run(['-p', 'remember that the build uses pnpm', '--output-format', 'json']));
    sessionOne = parseClaudeJsonResult(r.stdout).session_id;
    const m = Mind.open(workspaceMindPath(cwd, { HIVE_MIND_HOME: hmHome }), { readonly: true });
    const frames = m.list({ history: true });
    m.close();
    expect(frames.map((f) => f.content)).toContain('The build uses pnpm');
    expect(frames.find((f) => f.kind === 'prompt')?.sessionId).toBe(sessionOne);
    // the reply is a turn of the history
    expect(frames.find((f) => f.kind === 'reply')?.content).toBe('Noted.');
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });

  it("session 2: the fact is in the model request, and the plugin's MCP server offers its tools", async () => {
    const before = server.messageRequests.length;
    const r = expectSuccess(await run(['-p', 'which package manager does the build use?', '--output-format', 'stream-json', '--verbose']));
    const reqs = server.messageRequests.slice(before);
    expect(reqs.some((q) => q.rawBody.includes('The build uses pnpm') && q.rawBody.includes('hive-mind memory'))).toBe(true);
    // the MCP tools are deferred behind ToolSearch, so the init line is where the server shows
    const init = r.stdout.split('\n').map((l) => (l.trim() ? (JSON.parse(l) as { type?: string; subtype?: string; mcp_servers?: { name: string; status: string }[] }) : {})).find((l) => l.type === 'system' && l.subtype === 'init');
    expect(init?.mcp_servers).toContainEqual({ name: 'plugin:hive-mind:hive-mind', source: 'plugin', status: 'connected' });
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });

  it('uninstall and marketplace remove leave nothing of ours in the settings; the cached copy is marked for Claude Code\'s sweep', async () => {
    expect(jsonResult(expectSuccess(await run(['plugin', 'uninstall', 'hive-mind@hive-mind', '--json'])).stdout)).toMatchObject({ outcome: 'ok' });
    expect(jsonResult(expectSuccess(await run(['plugin', 'marketplace', 'remove', 'hive-mind', '--json'])).stdout)).toMatchObject({ outcome: 'ok' });
    for (const f of ['settings.json', join('plugins', 'installed_plugins.json'), join('plugins', 'known_marketplaces.json')]) {
      expect(readFileSync(join(claudeDir, f), 'utf8'), f).not.toContain('hive-mind');
    }
    // Claude Code keeps an uninstalled version's folder, marked `.orphaned_at`, and deletes it
    // 14 days later (plugins reference, "plugin caching"); .claude.json records the user's choice
    // (`declinedPlugins`); the session transcripts (projects/) are the user's conversation. Nothing
    // else under ~/.claude names us.
    const cached = join(claudeDir, 'plugins', 'cache', 'hive-mind');
    const mentions = (f: string) => f.includes('hive-mind') || (statSync(f).isFile() && readFileSync(f, 'utf8').includes('hive-mind'));
    const ours = filesUnder(claudeDir).filter((f) => mentions(f) && f !== cached && !f.startsWith(cached + '/') && !f.startsWith(join(claudeDir, 'projects') + '/'));
    expect(ours.map((f) => relative(claudeDir, f))).toEqual(['.claude.json']);
    const state = JSON.parse(readFileSync(join(claudeDir, '.claude.json'), 'utf8')) as { declinedPlugins?: string[] };
    expect(state.declinedPlugins).toEqual(['hive-mind@hive-mind']);
    expect(JSON.stringify({ ...state, declinedPlugins: [] })).not.toContain('hive-mind');
    expect(readdirSync(join(cached, 'hive-mind'))).toEqual(['0.1.0']);
    expect(existsSync(join(cached, 'hive-mind', '0.1.0', '.orphaned_at'))).toBe(true);
    // and a new session runs no hook of ours
    const before = server.messageRequests.length;
    expectSuccess(await run(['-p', 'which package manager does the build use?', '--output-format', 'json']));
    expect(server.messageRequests.slice(before).some((q) => q.rawBody.includes('The build uses pnpm'))).toBe(false);
  });
});

describe.skipIf(!claude)('the hive-mind plugin in the real Claude Code with no hive-mind CLI installed', { timeout: 240_000 }, () => {
  let server: AnthropicServer;
  const root = mkdtempSync(join(tmpdir(), 'hm-e2e-ccplugin-nocli-'));
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  const hmHome = join(home, '.hive-mind');
  const env = { HOME: home, PATH: pathWithout('hive-mind') };
  const run = (args: string[]) => runClaude(args, { home, cwd, baseUrl: server.url, env });

  beforeAll(async () => {
    server = await startAnthropicServer({ fallback: 'Noted.' });
    mkdirSync(join(cwd, '.git'), { recursive: true });
    expectSuccess(await run(['plugin', 'install', 'hive-mind', '--marketplace', REPO_ROOT, '--json']));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the session runs; each hook exits 0 and logs one line saying how to install the CLI', async () => {
    const r = expectSuccess(await run(['-p', 'remember that the build uses pnpm', '--output-format', 'stream-json', '--verbose']));
    expect(parseClaudeJsonResult(r.stdout).is_error).toBe(false);
    expect(server.messageRequests.length).toBeGreaterThan(0);
    // SessionStart (the hook stream-json reports) succeeded with a `systemMessage` for the user
    type HookLine = { type?: string; subtype?: string; hook_event?: string; exit_code?: number; stdout?: string };
    const responses = r.stdout.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as HookLine).filter((l) => l.subtype === 'hook_response');
    const startHook = responses.find((h) => h.hook_event === 'SessionStart')!;
    expect(startHook.exit_code).toBe(0);
    const start = JSON.parse(startHook.stdout!) as { systemMessage: string };
    expect(start.systemMessage).toMatch(/^hive-mind: the hive-mind CLI is not on PATH.*`npm ci && npm install -g --prefix ~\/.local .\/packages\/cli`/);
    expect(server.messageRequests.some((q) => q.rawBody.includes('not on PATH'))).toBe(false); // for the user, not the model
    const lines = logLines(join(hmHome, 'logs', 'hooks.log'));
    expect(lines.length).toBeGreaterThanOrEqual(3); // SessionStart, UserPromptSubmit, Stop (SessionEnd may be cut short by -p's exit)
    for (const l of lines) expect(l).toMatch(/^\S+Z claude-code (SessionStart|UserPromptSubmit|Stop|SessionEnd): hive-mind: the hive-mind CLI is not on PATH, in ~\/.local\/bin nor in the project's node_modules; install it from a hive-mind checkout with `npm ci && npm install -g --prefix ~\/.local .\/packages\/cli`/);
    expect(existsSync(workspaceMindPath(cwd, { HIVE_MIND_HOME: hmHome }))).toBe(false);
  });
});
