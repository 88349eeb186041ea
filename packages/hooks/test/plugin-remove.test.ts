/**
 * `hive-mind uninstall HOST --plugin` (the real CLI as a child process) on real files in a temp
 * home, shaped as Claude Code 2.1.332 and Codex 0.171.0 write them (fixtures/plugin-remove/, with
 * a user's comments and another marketplace beside ours): the plugin switch, its install record,
 * the marketplace entry (`extraKnownMarketplaces.hive-mind`, `[marketplaces.hive-mind]`) and the
 * cached copies go; every other byte stays; a second run changes nothing; `--dry-run` writes
 * nothing; an entry in a form the editor does not change is an error naming file and line, and
 * nothing is changed. The hosts' own uninstall followed by this is in the e2e-plugin-* suites.
 */
import { describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, sandbox } from './helpers.js';

const FIXTURES = new URL('./fixtures/plugin-remove/', import.meta.url).pathname;
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

function claudeHome() {
  const s = sandbox();
  const dir = join(s.env.HOME!, '.claude');
  mkdirSync(join(dir, 'plugins', 'cache', 'hive-mind', 'hive-mind', '0.1.0', 'scripts'), { recursive: true });
  writeFileSync(join(dir, 'plugins', 'cache', 'hive-mind', 'hive-mind', '0.1.0', '.orphaned_at'), '1764633000000');
  mkdirSync(join(dir, 'plugins', 'cache', 'team-tools', 'lint', '1.0.0'), { recursive: true });
  mkdirSync(join(dir, 'plugins', 'marketplaces', 'hive-mind'), { recursive: true });
  cpSync(join(FIXTURES, 'claude-settings.json'), join(dir, 'settings.json'));
  cpSync(join(FIXTURES, 'claude-known_marketplaces.json'), join(dir, 'plugins', 'known_marketplaces.json'));
  cpSync(join(FIXTURES, 'claude-installed_plugins.json'), join(dir, 'plugins', 'installed_plugins.json'));
  return { ...s, dir };
}

function codexHome() {
  const s = sandbox();
  const dir = join(s.env.HOME!, '.codex');
  mkdirSync(join(dir, 'plugins', 'cache', 'hive-mind'), { recursive: true });
  mkdirSync(join(dir, 'plugins', 'cache', 'team-tools'), { recursive: true });
  cpSync(join(FIXTURES, 'codex-config.toml'), join(dir, 'config.toml'));
  return { ...s, dir };
}

describe('hive-mind uninstall claude-code --plugin', () => {
  it('removes the switch, the install record, the marketplace entry and the cache; comments and the other marketplace stay', async () => {
    const h = claudeHome();
    const r = await runCli(['uninstall', 'claude-code', '--plugin'], '', h.env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(h.dir, 'settings.json'), 'utf8')).toBe(
      [
        '{',
        '  // the model I use',
        '  "model": "opus",',
        '  "extraKnownMarketplaces": {',
        '    "team-tools": {',
        '      "source": {',
        '        "source": "github",',
        '        "repo": "acme/team-tools"',
        '      }',
        '    }',
        '  },',
        '  "enabledPlugins": {',
        '    "lint@team-tools": true',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    const known = JSON.parse(readFileSync(join(h.dir, 'plugins', 'known_marketplaces.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(known)).toEqual(['team-tools']);
    expect(known['team-tools']).toEqual(JSON.parse(fixture('claude-known_marketplaces.json'))['team-tools']);
    const installed = JSON.parse(readFileSync(join(h.dir, 'plugins', 'installed_plugins.json'), 'utf8')) as { version: number; plugins: Record<string, unknown> };
    expect(installed.version).toBe(2);
    expect(Object.keys(installed.plugins)).toEqual(['lint@team-tools']);
    expect(readdirSync(join(h.dir, 'plugins', 'cache'))).toEqual(['team-tools']);
    expect(readdirSync(join(h.dir, 'plugins', 'marketplaces'))).toEqual([]);
    // each changed file has its backup, byte for byte the file before
    const backups = r.stdout.match(/\(backup: ([^)]+)\)/g)!.map((m) => m.slice(9, -1));
    expect(backups).toHaveLength(3);
    expect(backups.map((b) => readFileSync(b, 'utf8')).sort()).toEqual(['claude-installed_plugins.json', 'claude-known_marketplaces.json', 'claude-settings.json'].map(fixture).sort());
    expect(r.stdout).toContain(`removed: ${join(h.dir, 'plugins', 'cache', 'hive-mind')}`);
    expect(r.stdout).toContain('note: the hive-mind plugin, its marketplace entry and cached copy are removed from claude-code');
    expect(r.stdout).not.toContain('is still installed');

    const again = await runCli(['uninstall', 'claude-code', '--plugin', '--json'], '', h.env);
    expect(again.code).toBe(0);
    const report = JSON.parse(again.stdout) as { plugin: { files: Array<{ changed: boolean }>; removed: string[] } };
    expect(report.plugin.files.every((f) => !f.changed)).toBe(true);
    expect(report.plugin.removed).toEqual([]);
  });

  it('--dry-run prints the diff and changes nothing', async () => {
    const h = claudeHome();
    const r = await runCli(['uninstall', 'claude-code', '--plugin', '--dry-run'], '', h.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`would change: ${join(h.dir, 'settings.json')}`);
    expect(r.stdout).toContain('   "extraKnownMarketplaces": {\n-    "hive-mind": {');
    expect(r.stdout).toContain(`would remove: ${join(h.dir, 'plugins', 'cache', 'hive-mind')}`);
    expect(readFileSync(join(h.dir, 'settings.json'), 'utf8')).toBe(fixture('claude-settings.json'));
    expect(existsSync(join(h.dir, 'plugins', 'cache', 'hive-mind', 'hive-mind', '0.1.0', '.orphaned_at'))).toBe(true);
  });

  it('a host without a plugin format refuses --plugin (exit 2)', async () => {
    const r = await runCli(['uninstall', 'cursor', '--plugin'], '', sandbox().env);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('hive-mind: --plugin: cursor has no hive-mind plugin (only claude-code and codex do)\n');
  });
});

describe('hive-mind uninstall codex --plugin', () => {
  it('removes [plugins."hive-mind@hive-mind"] and [marketplaces.hive-mind] as Codex wrote them, and the cache; comments and other tables stay', async () => {
    const h = codexHome();
    const r = await runCli(['uninstall', 'codex', '--plugin'], '', h.env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(h.dir, 'config.toml'), 'utf8')).toBe(
      [
        'model = "gpt-5.5" # the default model',
        '',
        '[features]',
        'plugins = true',
        '',
        "# the team's marketplace",
        '[marketplaces.team-tools]',
        'source_type = "git"',
        'source = "https://github.com/acme/team-tools"',
        '',
        '[plugins."lint@team-tools"]',
        'enabled = true',
        '',
      ].join('\n'),
    );
    expect(readdirSync(join(h.dir, 'plugins', 'cache'))).toEqual(['team-tools']);
    const again = await runCli(['uninstall', 'codex', '--plugin'], '', h.env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`unchanged: ${join(h.dir, 'config.toml')}`);
    expect(again.stdout).toContain('note: no hive-mind plugin or marketplace entry was left in codex.');
  });

  it('an entry written as an inline table is an error naming file, line and column; nothing is changed', async () => {
    const h = codexHome();
    const text = 'model = "gpt-5.5"\nmarketplaces = { hive-mind = { source_type = "local", source = "/src/hive-mind" } }\n';
    writeFileSync(join(h.dir, 'config.toml'), text);
    const r = await runCli(['uninstall', 'codex', '--plugin'], '', h.env);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^hive-mind: ${join(h.dir, 'config.toml').replace(/[.]/g, '\\.')}: line 2, column 1: cannot remove \\[marketplaces\\.hive-mind\\] \\(written in a form hive-mind does not edit\\); remove it by hand`));
    expect(readFileSync(join(h.dir, 'config.toml'), 'utf8')).toBe(text);
    expect(existsSync(join(h.dir, 'plugins', 'cache', 'hive-mind'))).toBe(true);
  });
});
