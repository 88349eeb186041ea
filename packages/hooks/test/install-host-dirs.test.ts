/**
 * Every installer acts on the folder the host reads: its variable (CLAUDE_CONFIG_DIR,
 * CODEX_HOME, HERMES_HOME, OPENCLAW_STATE_DIR) when set, else its default under HOME (Cursor:
 * always ~/.cursor). Install/uninstall/verify report that folder and why, and verify flags
 * hooks left in a folder the host no longer reads. Temp homes, the real installers, real files.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadInstaller, shQuote } from '../src/index.js';
import type { InstallOptions } from '../src/types.js';
import { CLI, NO_HOST_DIRS, runCli, sandbox } from './helpers.js';

/** Per host: its variable, its default folder under HOME, and the config file our hooks go in. */
const CASES = [
  { host: 'claude-code', variable: 'CLAUDE_CONFIG_DIR', base: '.claude', file: 'settings.json' },
  { host: 'codex', variable: 'CODEX_HOME', base: '.codex', file: 'hooks.json' },
  { host: 'hermes', variable: 'HERMES_HOME', base: '.hermes', file: 'config.yaml' },
  { host: 'openclaw', variable: 'OPENCLAW_STATE_DIR', base: '.openclaw', file: 'openclaw.json' },
] as const;

function setup() {
  const s = sandbox();
  const home = join(s.root, 'home');
  const moved = join(s.root, 'moved-config');
  mkdirSync(home, { recursive: true });
  mkdirSync(moved, { recursive: true });
  const opts = (extra: Record<string, string | undefined> = {}): InstallOptions => ({
    home,
    env: { ...s.env, ...NO_HOST_DIRS, HOME: home, ...extra },
    command: `${shQuote(process.execPath)} ${shQuote(CLI)}`,
  });
  return { s, home, moved, opts };
}

describe('installers use the folder the host reads', { timeout: 60_000 }, () => {
  for (const c of CASES) {
    it(`${c.host}: ${c.variable} unset: the default folder, and the report says so`, async () => {
      const { home, moved, opts } = setup();
      const inst = (await loadInstaller(c.host))!;
      const r = await inst.install(opts());
      expect(r.configDir).toEqual({ dir: join(home, c.base), source: 'default', variable: c.variable, why: `${join(home, c.base)} (default; ${c.variable} is not set)` });
      expect(r.files.map((f) => f.path)).toContain(join(home, c.base, c.file));
      expect(existsSync(join(moved, c.file))).toBe(false);
    });

    it(`${c.host}: ${c.variable} set: install, installed and uninstall act on that folder only`, async () => {
      const { home, moved, opts } = setup();
      const inst = (await loadInstaller(c.host))!;
      const o = opts({ [c.variable]: moved });
      const r = await inst.install(o);
      expect(r.configDir).toEqual({ dir: moved, source: 'env', variable: c.variable, why: `${moved} (from ${c.variable})` });
      expect(r.files.map((f) => f.path)).toContain(join(moved, c.file));
      expect(readFileSync(join(moved, c.file), 'utf8')).toMatch(/hive-mind|hooks/);
      expect(existsSync(join(home, c.base))).toBe(false);
      expect(r.notes.filter((n) => n.startsWith('warning:'))).toEqual([]);
      if (c.host !== 'openclaw') expect(inst.installed(o).every((h) => h.file === join(moved, c.file))).toBe(true);
      const u = await inst.uninstall(o);
      expect(u.configDir.dir).toBe(moved);
      expect(existsSync(join(moved, c.file))).toBe(false);
    });
  }

  for (const c of CASES.filter((x) => x.host !== 'openclaw')) {
    it(`${c.host}: hooks in the default folder while ${c.variable} points elsewhere are flagged by install and verify, and removed by the command given`, async () => {
      const { home, moved, opts } = setup();
      const inst = (await loadInstaller(c.host))!;
      await inst.install(opts());
      const stray = join(home, c.base, c.file);
      const o = opts({ [c.variable]: moved });
      const v = await inst.verify(o);
      expect(v.installed).toBe(true);
      expect(v.ok).toBe(false);
      expect(v.configDir?.why).toBe(`${moved} (from ${c.variable})`);
      const problems = v.hooks.filter((h) => h.event === '(config)').map((h) => h.error);
      expect(problems[0]).toMatch(new RegExp(`^${stray.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\d+ hive-mind hook\\(s\\) installed here, but .* reads its config from ${moved.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(from ${c.variable}\\) in this environment, so they do not run; if you no longer start .* with that folder, remove them with \`env -u ${c.variable} hive-mind uninstall ${c.host}\`$`));
      expect(problems[1]).toBe(`no hive-mind hooks in ${join(moved, c.file)}, the file ${inst.host === 'claude-code' ? 'Claude Code' : inst.host === 'codex' ? 'Codex' : 'Hermes'} reads; run \`hive-mind install ${c.host}\``);
      // installing where the host reads: the other copy (another profile's, or left over) is said, not failed
      const r = await inst.install(o);
      expect(r.notes.at(-1)).toBe(problems[0]);
      const v2 = await inst.verify(o);
      expect(v2.hooks.filter((h) => !h.ok)).toEqual([]);
      expect(v2.ok).toBe(true);
      expect(v2.notes).toContain(problems[0]);
      // the command given (the variable unset) removes the stray copy; verify is then clean
      await inst.uninstall(opts());
      expect(existsSync(stray)).toBe(false);
      const v3 = await inst.verify(o);
      expect(v3.hooks.filter((h) => !h.ok)).toEqual([]);
      expect(v3.ok).toBe(true);
    });

    it(`${c.host}: an install made with ${c.variable} set is flagged once the variable is gone`, async () => {
      const { home, moved, opts } = setup();
      const inst = (await loadInstaller(c.host))!;
      await inst.install(opts({ [c.variable]: moved }));
      const v = await inst.verify(opts());
      expect(v.installed).toBe(true);
      expect(v.ok).toBe(false);
      expect(v.hooks[0]!.error).toContain(`${join(moved, c.file)}: `);
      expect(v.hooks[0]!.error).toContain(`reads its config from ${join(home, c.base)} (default; ${c.variable} is not set) in this environment, so they do not run`);
      expect(v.hooks[0]!.error).toContain(`remove them with \`${c.variable}=${moved} hive-mind uninstall ${c.host}\``);
    });
  }

  it('cursor: always ~/.cursor, whatever the other hosts\' variables say', async () => {
    const { home, moved, opts } = setup();
    const inst = (await loadInstaller('cursor'))!;
    const r = await inst.install(opts({ CLAUDE_CONFIG_DIR: moved, CODEX_HOME: moved }));
    expect(r.configDir).toEqual({ dir: join(home, '.cursor'), source: 'default', why: `${join(home, '.cursor')} (the only place it reads)` });
    expect(r.files.map((f) => f.path)).toContain(join(home, '.cursor', 'hooks.json'));
  });

  it('the CLI prints the folder and why on install, verify and uninstall', async () => {
    const { s, moved } = setup();
    const env = { ...s.env, CLAUDE_CONFIG_DIR: moved };
    const i = await runCli(['install', 'claude-code'], '', env);
    expect(i.code).toBe(0);
    expect(i.stdout.split('\n')[0]).toBe(`claude-code config folder: ${moved} (from CLAUDE_CONFIG_DIR)`);
    expect(i.stdout).toContain(`changed: ${join(moved, 'settings.json')}`);
    const v = await runCli(['verify', 'claude-code'], '', env);
    expect(v.stdout.split('\n')[0]).toBe(`claude-code config folder: ${moved} (from CLAUDE_CONFIG_DIR)`);
    expect(v.code).toBe(0);
    const u = await runCli(['uninstall', 'claude-code'], '', env);
    expect(u.code).toBe(0);
    expect(u.stdout.split('\n')[0]).toBe(`claude-code config folder: ${moved} (from CLAUDE_CONFIG_DIR)`);
    expect(existsSync(join(moved, 'settings.json'))).toBe(false);
  });
});
