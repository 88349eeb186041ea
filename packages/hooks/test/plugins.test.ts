/**
 * The host plugin folders (plugins/claude-code, plugins/codex) against the code they call:
 * their hook lists name every event our adapters handle, with the installer's timeout, and
 * their launcher (scripts/run-hive-mind, run as a real `sh` process) finds the CLI at run
 * time or, when it cannot, makes a hook exit 0 with one line saying how to install it.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CLAUDE_CODE_EVENTS } from '../src/hosts/claude-code.js';
import { CODEX_EVENTS } from '../src/hosts/codex.js';
import { launcherScript } from '../src/install/launcher.js';
import { HOST_HOOK_TIMEOUT_S } from '../src/install/installer.js';
import { CLI, logLines } from './helpers.js';
import { loadInstaller, pluginCli, shQuote } from '../src/index.js';
import { pathWithout, REPO_ROOT } from './plugin-helpers.js';

const json = (p: string) => JSON.parse(readFileSync(join(REPO_ROOT, p), 'utf8')) as Record<string, unknown>;
const CLI_VERSION = (json('packages/cli/package.json') as { version: string }).version;

type HookFile = { hooks: Record<string, { hooks: { type: string; command: string; timeout: number }[] }[]> };

describe('plugins/claude-code', () => {
  it('hooks/hooks.json runs the launcher for every Claude Code event our adapter handles, with the installer timeout', () => {
    const { hooks } = json('plugins/claude-code/hooks/hooks.json') as HookFile;
    expect(Object.keys(hooks)).toEqual(CLAUDE_CODE_EVENTS);
    for (const [event, groups] of Object.entries(hooks)) {
      expect(groups).toEqual([{ hooks: [{ type: 'command', command: `"\${CLAUDE_PLUGIN_ROOT}/scripts/run-hive-mind" hook claude-code ${event}`, timeout: HOST_HOOK_TIMEOUT_S }] }]);
    }
  });

  it('.mcp.json starts `hive-mind mcp` through the launcher; nothing absolute', () => {
    expect(json('plugins/claude-code/.mcp.json')).toEqual({ mcpServers: { 'hive-mind': { command: '${CLAUDE_PLUGIN_ROOT}/scripts/run-hive-mind', args: ['mcp'] } } });
  });

  it('plugin.json carries the CLI version; the marketplace lists the folder by a relative path', () => {
    expect(json('plugins/claude-code/.claude-plugin/plugin.json')).toMatchObject({ name: 'hive-mind', version: CLI_VERSION, license: 'MIT' });
    expect((json('.claude-plugin/marketplace.json') as { plugins: unknown[] }).plugins).toEqual([expect.objectContaining({ name: 'hive-mind', source: './plugins/claude-code' })]);
  });
});

describe('plugins/codex', () => {
  it('hooks/hooks.json runs the launcher for every Codex event our adapter handles, with the installer timeout', () => {
    const { hooks } = json('plugins/codex/hooks/hooks.json') as HookFile;
    expect(Object.keys(hooks)).toEqual(CODEX_EVENTS);
    for (const [event, groups] of Object.entries(hooks)) {
      expect(groups).toEqual([{ hooks: [{ type: 'command', command: `"\${PLUGIN_ROOT}/scripts/run-hive-mind" hook codex ${event}`, timeout: HOST_HOOK_TIMEOUT_S }] }]);
    }
  });

  it('.mcp.json runs `hive-mind mcp` from PATH (Codex 0.171.0 substitutes no plugin root in MCP commands)', () => {
    expect(json('plugins/codex/.mcp.json')).toEqual({ mcpServers: { 'hive-mind': { command: 'hive-mind', args: ['mcp'], env_vars: ['HIVE_MIND_HOME'] } } });
  });

  it('plugin.json carries the CLI version and names its parts; .agents/plugins/marketplace.json lists the folder', () => {
    expect(json('plugins/codex/.codex-plugin/plugin.json')).toMatchObject({ name: 'hive-mind', version: CLI_VERSION, hooks: './hooks/hooks.json', mcpServers: './.mcp.json' });
    expect((json('.agents/plugins/marketplace.json') as { plugins: unknown[] }).plugins).toEqual([expect.objectContaining({ name: 'hive-mind', source: { source: 'local', path: './plugins/codex' } })]);
  });

  it("ships the launcher install writes, with nothing recorded (both plugins' copies are launcherScript())", () => {
    for (const p of ['claude-code', 'codex']) {
      const file = join(REPO_ROOT, 'plugins', p, 'scripts', 'run-hive-mind');
      expect(readFileSync(file, 'utf8'), `${file}: regenerate it from launcherScript()`).toBe(launcherScript());
      expect(statSync(file).mode & 0o111).toBe(0o111);
    }
  });
});

describe('the plugin launcher (scripts/run-hive-mind)', () => {
  // a copy of the plugin folder alone, as a host's cache holds it: no node_modules anywhere above
  const root = mkdtempSync(join(tmpdir(), 'hm-launcher-'));
  const plugin = join(root, 'cache', 'hive-mind');
  cpSync(join(REPO_ROOT, 'plugins', 'claude-code'), plugin, { recursive: true });
  const launcher = join(plugin, 'scripts', 'run-hive-mind');
  const project = join(root, 'project');
  mkdirSync(project, { recursive: true });
  const home = join(root, 'home');
  const noCli = pathWithout('hive-mind');
  const run = (args: string[], env: Record<string, string>, input = '{}') =>
    spawnSync('/bin/sh', ['-c', `"${launcher}" "$@"`, 'sh', ...args], { cwd: project, input, encoding: 'utf8', env: { HOME: home, PATH: noCli, ...env }, timeout: 60_000 });

  it('runs HIVE_MIND_CLI when it names the bin .js (with node from PATH)', () => {
    const r = run(['--version'], { HIVE_MIND_CLI: CLI, PATH: `${dirname(process.execPath)}:${noCli}` });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(CLI_VERSION);
  });

  it('runs `hive-mind` from PATH', () => {
    const bin = join(root, 'global-bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(CLI, join(bin, 'hive-mind'));
    const r = run(['--version'], { PATH: `${bin}:${dirname(process.execPath)}:${noCli}` });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(CLI_VERSION);
  });

  it('runs ~/.local/bin/hive-mind (where the documented install puts it) when PATH lacks it, as a host started outside a login shell has', () => {
    const localHome = join(root, 'home-local');
    mkdirSync(join(localHome, '.local', 'bin'), { recursive: true });
    symlinkSync(CLI, join(localHome, '.local', 'bin', 'hive-mind'));
    const r = run(['--version'], { HOME: localHome, PATH: `${dirname(process.execPath)}:${noCli}` });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(CLI_VERSION);
    expect(pluginCli({ HOME: localHome, PATH: noCli })).toEqual({ found: true, cli: join(localHome, '.local', 'bin', 'hive-mind') });
    expect(pluginCli({ HOME: home, PATH: noCli })).toMatchObject({ found: false, fix: expect.stringContaining('npm ci && npm install -g --prefix ~/.local ./packages/cli') });
  });

  it("runs the project's node_modules/.bin/hive-mind, found from CLAUDE_PROJECT_DIR upwards", () => {
    const proj = join(root, 'with-dep');
    const nested = join(proj, 'packages', 'app');
    mkdirSync(join(proj, 'node_modules', '.bin'), { recursive: true });
    mkdirSync(nested, { recursive: true });
    const fake = join(proj, 'node_modules', '.bin', 'hive-mind');
    writeFileSync(fake, '#!/bin/sh\necho "project hive-mind $*"\n');
    chmodSync(fake, 0o755);
    const r = run(['hook', 'claude-code', 'Stop'], { CLAUDE_PROJECT_DIR: nested });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('project hive-mind hook claude-code Stop\n');
  });

  it('no CLI anywhere: a hook drains stdin, exits 0, logs one line; SessionStart also tells the user', () => {
    const hmHome = join(root, 'hm-missing');
    const stop = run(['hook', 'claude-code', 'Stop'], { HIVE_MIND_HOME: hmHome }, 'x'.repeat(1 << 20));
    expect(stop.status).toBe(0);
    expect(stop.stdout).toBe('');
    expect(stop.stderr).toBe("hive-mind: the hive-mind CLI is not on PATH, in ~/.local/bin nor in the project's node_modules; install it from a hive-mind checkout with `npm ci && npm install -g --prefix ~/.local ./packages/cli` (the command lands in ~/.local/bin), or set HIVE_MIND_CLI to its bin/hive-mind.js\n");
    const start = run(['hook', 'claude-code', 'SessionStart'], { HIVE_MIND_HOME: hmHome });
    expect(start.status).toBe(0);
    expect(JSON.parse(start.stdout)).toEqual({ systemMessage: stop.stderr.trim() });
    const lines = logLines(join(hmHome, 'logs', 'hooks.log'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ claude-code Stop: hive-mind: the hive-mind CLI is not on PATH/);
    expect(lines[1]).toMatch(/ claude-code SessionStart: /);
  });

  it('a HIVE_MIND_CLI that does not exist is named; any other command exits 127', () => {
    const r = run(['hook', 'codex', 'Stop'], { HIVE_MIND_CLI: '/gone/bin/hive-mind.js', HIVE_MIND_HOME: join(root, 'hm-gone') });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('HIVE_MIND_CLI=/gone/bin/hive-mind.js does not exist');
    const mcp = run(['mcp'], {});
    expect(mcp.status).toBe(127);
    expect(mcp.stderr).toContain('install it from a hive-mind checkout with `npm ci && npm install -g --prefix ~/.local ./packages/cli`');
  });
});

describe('the plugin and `hive-mind install` both active', () => {
  it('Claude Code: install warns and verify fails naming both ways out', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hm-both-cc-'));
    const home = join(root, 'home');
    mkdirSync(join(home, '.claude'), { recursive: true });
    const file = join(home, '.claude', 'settings.json');
    writeFileSync(file, '{\n  "enabledPlugins": { "hive-mind@hive-mind": true }\n}\n');
    const opts = { home, env: { ...process.env, HOME: home, HIVE_MIND_HOME: undefined }, command: `${shQuote(process.execPath)} ${shQuote(CLI)}` };
    const inst = (await loadInstaller('claude-code'))!;
    const warning = `${file}: the hive-mind plugin (hive-mind@hive-mind) is enabled too, so each session would recall twice; keep one: \`claude plugin uninstall hive-mind@hive-mind\` or \`hive-mind uninstall claude-code\``;
    expect((await inst.install(opts)).notes).toContain(`warning: ${warning}`);
    const v = await inst.verify(opts);
    expect(v.ok).toBe(false);
    expect(v.hooks.filter((h) => h.event === '(config)').map((h) => h.error)).toEqual([warning]);
  });

  it('Codex: install warns and verify fails naming both ways out', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hm-both-cx-'));
    const home = join(root, 'home');
    mkdirSync(join(home, '.codex'), { recursive: true });
    const file = join(home, '.codex', 'config.toml');
    writeFileSync(file, '[plugins."hive-mind@hive-mind"]\nenabled = true\n');
    const opts = { home, env: { ...process.env, HOME: home, HIVE_MIND_HOME: undefined, CODEX_HOME: undefined }, command: `${shQuote(process.execPath)} ${shQuote(CLI)}` };
    const inst = (await loadInstaller('codex'))!;
    const warning = `${file}: the hive-mind plugin (hive-mind@hive-mind) is enabled too, so each session would recall twice; keep one: \`codex plugin remove hive-mind@hive-mind\` or \`hive-mind uninstall codex\``;
    expect((await inst.install(opts)).notes).toContain(`warning: ${warning}`);
    const v = await inst.verify(opts);
    expect(v.ok).toBe(false);
    expect(v.hooks.filter((h) => h.event === '(config)').map((h) => h.error)).toEqual([warning]);
  });
});
