/**
 * The real Claude Code 2.1.332 (test-support/hosts.ts) run with CLAUDE_CONFIG_DIR pointing to
 * a temp folder, against a loopback Anthropic Messages server. Hooks installed into `~/.claude`
 * (what `hive-mind install` did before it read CLAUDE_CONFIG_DIR) never run there, and
 * `hive-mind verify` says so; after `hive-mind install claude-code` with the variable set, the
 * SessionStart hook recalls a fact saved in an earlier session into the model request.
 * Needs the built CLI (`npx tsc -b packages/cli`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mind, workspaceMindPath } from '@hive-mind/mind';
import { startAnthropicServer, type AnthropicServer } from '../../../test-support/llm-servers.js';
import { expectSuccess, hostOrSkip, runClaude } from '../../../test-support/hosts.js';
import { NO_HOST_DIRS, logLines, runCli } from './helpers.js';

const claude = await hostOrSkip('claude');

describe.skipIf(!claude)('real Claude Code with CLAUDE_CONFIG_DIR set', { timeout: 300_000 }, () => {
  let server: AnthropicServer;
  const root = mkdtempSync(join(tmpdir(), 'hm-e2e-claude-cfg-'));
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  const configDir = join(root, 'claude-config');
  const hmHome = join(home, '.hive-mind');
  const cliEnv = { ...process.env, ...NO_HOST_DIRS, HOME: home, HIVE_MIND_HOME: hmHome };
  const withDir = { ...cliEnv, CLAUDE_CONFIG_DIR: configDir };
  const session = (prompt: string) => runClaude(['-p', prompt, '--output-format', 'json'], { home, cwd, baseUrl: server.url, env: { HOME: home, CLAUDE_CONFIG_DIR: configDir } });
  const frames = (): string[] => {
    const file = workspaceMindPath(cwd, { HIVE_MIND_HOME: hmHome });
    if (!existsSync(file)) return [];
    const m = Mind.open(file, { readonly: true });
    try {
      return m.list({}).map((f) => f.content);
    } finally {
      m.close();
    }
  };

  beforeAll(async () => {
    server = await startAnthropicServer({ fallback: 'Noted.' });
    mkdirSync(join(cwd, '.git'), { recursive: true });
    mkdirSync(configDir, { recursive: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('hooks installed into ~/.claude do not run when Claude Code reads CLAUDE_CONFIG_DIR, and verify says where they are', async () => {
    const i = await runCli(['install', 'claude-code'], '', cliEnv);
    expect(i.code).toBe(0);
    expect(i.stdout.split('\n')[0]).toBe(`claude-code config folder: ${join(home, '.claude')} (default; CLAUDE_CONFIG_DIR is not set)`);
    expectSuccess(await session('remember that the build uses pnpm'));
    expect(frames()).toEqual([]);
    const v = await runCli(['verify', 'claude-code'], '', withDir);
    expect(v.code).toBe(1);
    expect(v.stdout.split('\n')[0]).toBe(`claude-code config folder: ${configDir} (from CLAUDE_CONFIG_DIR)`);
    expect(v.stdout).toContain(`FAIL (config)`);
    expect(v.stdout).toContain(`${join(home, '.claude', 'settings.json')}: 5 hive-mind hook(s) installed here, but Claude Code reads its config from ${configDir} (from CLAUDE_CONFIG_DIR) in this environment, so they do not run; if you no longer start Claude Code with that folder, remove them with \`env -u CLAUDE_CONFIG_DIR hive-mind uninstall claude-code\``);
    expect((await runCli(['uninstall', 'claude-code'], '', cliEnv)).code).toBe(0);
    expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(false);
  });

  it('after `hive-mind install claude-code` with CLAUDE_CONFIG_DIR set, a fact saved in one session reaches the next session\'s model request through SessionStart', async () => {
    const i = await runCli(['install', 'claude-code'], '', withDir);
    expect(i.code).toBe(0);
    expect(i.stdout.split('\n')[0]).toBe(`claude-code config folder: ${configDir} (from CLAUDE_CONFIG_DIR)`);
    expect(readFileSync(join(configDir, 'settings.json'), 'utf8')).toContain('hook claude-code SessionStart');
    expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(false);
    expectSuccess(await session('remember that the build uses pnpm'));
    expect(frames()).toContain('The build uses pnpm');
    const before = server.messageRequests.length;
    expectSuccess(await session('which package manager does the build use?'));
    const bodies = server.messageRequests.slice(before).map((q) => q.rawBody);
    expect(bodies.some((b) => b.includes('The build uses pnpm') && b.includes('hive-mind memory'))).toBe(true);
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
    const v = await runCli(['verify', 'claude-code'], '', withDir);
    expect(v.stdout).not.toContain('FAIL');
    expect(v.code).toBe(0);
  });
});
