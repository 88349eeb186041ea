/**
 * install / verify / uninstall through the REAL built CLI (needs `npx tsc -b packages/cli`).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, sandbox } from './helpers.js';

const HOSTS = ['claude-code', 'codex', 'cursor', 'openclaw', 'hermes'];

describe('hive-mind verify/install through the CLI', { timeout: 60_000 }, () => {
  for (const host of HOSTS) {
    it(`verify ${host} before install says plainly "not installed", exit 1`, async () => {
      const s = sandbox();
      const r = await runCli(['verify', host], '', s.env);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      const dir = { 'claude-code': '.claude (default; CLAUDE_CONFIG_DIR is not set)', codex: '.codex (default; CODEX_HOME is not set)', cursor: '.cursor (the only place it reads)', hermes: '.hermes (default; HERMES_HOME is not set)', openclaw: '.openclaw (default; OPENCLAW_STATE_DIR is not set)' }[host]!;
      expect(r.stderr).toBe(`hive-mind: ${host}: not installed in ${join(s.env.HOME!, dir)} (run hive-mind install ${host})\n`);
    });
  }

  it('install prints a warning once, without a "note: " prefix', async () => {
    const s = sandbox();
    mkdirSync(join(s.env.HOME!, '.claude'), { recursive: true });
    writeFileSync(join(s.env.HOME!, '.claude', 'settings.json'), '// mine\n{}\n');
    const r = await runCli(['install', 'claude-code'], '', s.env);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/note: warning/);
    expect(r.stdout).toMatch(/^warning: .*settings\.json: line 1/m);
    expect(r.stdout).toMatch(/^note: Claude Code loads hooks at session start/m);
  });
});

/** Every path under `dir`, relative, sorted. */
function tree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).sort();
}

describe('install + uninstall on an empty HOME leaves nothing behind', { timeout: 120_000 }, () => {
  it('every host: no directories, backups or install records of ours remain', async () => {
    const s = sandbox();
    mkdirSync(s.env.HOME!, { recursive: true });
    for (const host of HOSTS) {
      const i = await runCli(['install', host], '', s.env);
      expect(i.code, i.stderr).toBe(0);
      expect(i.stdout).not.toMatch(/backup:/); // nothing existed, so nothing was backed up
      expect(tree(s.env.HOME!).length).toBeGreaterThan(0);
      const u = await runCli(['uninstall', host], '', s.env);
      expect(u.code, u.stderr).toBe(0);
      expect(u.stdout).not.toMatch(/backup:/);
      expect([host, tree(s.env.HOME!)]).toEqual([host, []]);
      expect([host, tree(s.home)]).toEqual([host, []]);
    }
  });

  it("directories that existed before install stay, even when empty; the user's files stay", async () => {
    const s = sandbox();
    const home = s.env.HOME!;
    for (const d of ['.claude', '.codex', '.cursor', '.hermes', '.openclaw']) mkdirSync(join(home, d), { recursive: true });
    writeFileSync(join(home, '.codex', 'config.toml'), 'model = "o3"\n');
    for (const host of HOSTS) {
      expect((await runCli(['install', host], '', s.env)).code).toBe(0);
      expect((await runCli(['uninstall', host], '', s.env)).code).toBe(0);
    }
    const left = tree(home).filter((p) => !p.includes('hive-mind-backup'));
    expect(left).toEqual(['.claude', '.codex', '.codex/config.toml', '.cursor', '.hermes', '.openclaw']);
  });
});
