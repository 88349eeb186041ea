/**
 * The plugin removed as a user does it, with the real Claude Code 2.1.332 and Codex 0.171.0:
 * the marketplace added from the repository path, the plugin installed, the host's own plugin
 * uninstall (which leaves the marketplace entry and the cache), then
 * `hive-mind uninstall HOST --plugin`. Afterwards nothing under the host's folder names hive-mind
 * (but what is the user's: Claude Code's `declinedPlugins`, the loopback provider's name), the
 * host itself lists no hive-mind marketplace, and the user's config is byte for byte what it was
 * before the marketplace was added.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expectSuccess, hostOrSkip, runClaude, runCodex, writeCodexConfig } from '../../../test-support/hosts.js';
import { runCli } from './helpers.js';
import { filesUnder, REPO_ROOT } from './plugin-helpers.js';

const claude = await hostOrSkip('claude');
const codex = await hostOrSkip('codex');

/** Files under `dir` that name hive-mind, in their path or their text (relative paths). */
function mentions(dir: string, skip: (rel: string) => boolean): string[] {
  return filesUnder(dir)
    .map((f) => relative(dir, f))
    .filter((rel) => !skip(rel))
    .filter((rel) => rel.includes('hive-mind') || (statSync(join(dir, rel)).isFile() && readFileSync(join(dir, rel), 'utf8').includes('hive-mind')));
}

function sandbox(prefix: string) {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  mkdirSync(join(cwd, '.git'), { recursive: true });
  return { home, cwd, env: { HOME: home }, cliEnv: { ...process.env, HOME: home, HIVE_MIND_HOME: join(root, 'hm'), CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined } };
}

describe.skipIf(!claude)('Claude Code: claude plugin uninstall, then hive-mind uninstall claude-code --plugin', { timeout: 240_000 }, () => {
  it('leaves no marketplace entry, install record or cached copy', async () => {
    const s = sandbox('hm-e2e-ccremove-');
    const claudeDir = join(s.home, '.claude');
    mkdirSync(claudeDir, { recursive: true });
    const settingsBefore = '{\n  "model": "opus"\n}\n';
    writeFileSync(join(claudeDir, 'settings.json'), settingsBefore);
    const run = (args: string[]) => runClaude(args, { home: s.home, cwd: s.cwd, baseUrl: 'http://127.0.0.1:9', env: s.env });
    expectSuccess(await run(['plugin', 'marketplace', 'add', REPO_ROOT, '--json']));
    expectSuccess(await run(['plugin', 'install', 'hive-mind@hive-mind', '--json']));
    expectSuccess(await run(['plugin', 'uninstall', 'hive-mind@hive-mind', '--json']));
    // what the host's own uninstall leaves
    expect(JSON.parse(readFileSync(join(claudeDir, 'settings.json'), 'utf8'))).toHaveProperty(['extraKnownMarketplaces', 'hive-mind']);
    const r = await runCli(['uninstall', 'claude-code', '--plugin'], '', s.cliEnv);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // .claude.json's declinedPlugins is the user's choice; projects/ holds their sessions
    expect(mentions(claudeDir, (rel) => rel === '.claude.json' || rel.startsWith('projects/') || rel.includes('.hive-mind-backup-'))).toEqual([]);
    expect(JSON.parse(readFileSync(join(claudeDir, 'settings.json'), 'utf8'))).toEqual({ model: 'opus', enabledPlugins: {}, extraKnownMarketplaces: {} });
    const list = expectSuccess(await run(['plugin', 'marketplace', 'list', '--json']));
    expect(list.stdout).not.toContain('hive-mind');
  });
});

describe.skipIf(!codex)('Codex: codex plugin remove, then hive-mind uninstall codex --plugin', { timeout: 240_000 }, () => {
  it('gives config.toml back byte for byte and removes the cache', async () => {
    const s = sandbox('hm-e2e-cxremove-');
    const codexDir = join(s.home, '.codex');
    writeCodexConfig(s.home, 'http://127.0.0.1:9', { config: { features: { plugins: true } } });
    const configBefore = readFileSync(join(codexDir, 'config.toml'), 'utf8');
    const run = (args: string[]) => runCodex(args, { home: s.home, cwd: s.cwd, baseUrl: 'http://127.0.0.1:9', skipConfig: true, env: s.env });
    expectSuccess(await run(['plugin', 'marketplace', 'add', REPO_ROOT]));
    expectSuccess(await run(['plugin', 'add', 'hive-mind@hive-mind']));
    expectSuccess(await run(['plugin', 'remove', 'hive-mind@hive-mind']));
    expect(readFileSync(join(codexDir, 'config.toml'), 'utf8')).toContain('[marketplaces.hive-mind]');
    const r = await runCli(['uninstall', 'codex', '--plugin'], '', s.cliEnv);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(codexDir, 'config.toml'), 'utf8')).toBe(configBefore);
    // config.toml's loopback provider is named hive-mind-test; sessions, logs and state databases are the user's
    expect(mentions(codexDir, (rel) => rel === 'config.toml' || /^(sessions|log|logs)\//.test(rel) || /\.sqlite(-wal|-shm)?$/.test(rel) || rel.includes('.hive-mind-backup-'))).toEqual([]);
    // the marketplace is gone for Codex too: the plugin cannot be added again without it
    const add = await run(['plugin', 'add', 'hive-mind@hive-mind']);
    expect(add.exitCode, add.stdout + add.stderr).not.toBe(0);
    expect(add.exitCode).not.toBeNull();
  });
});
