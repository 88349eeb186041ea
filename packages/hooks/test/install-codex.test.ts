import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { parse } from 'jsonc-parser';
import { installConfig, installedHooks, loadInstaller, shQuote, uninstallConfig, type InstallOptions } from '../src/index.js';
import { codexSpec } from '../src/hosts/codex-install.js';
import { CLI, sandbox } from './helpers.js';

const tomlSpec = (file = 'config.toml') => ({ ...codexSpec.configs({ home: '/home/user', env: {} }, 'node hive-mind.js')[1]!, file });
const enableHooksFeature = (file: string, text: string) => installConfig(tomlSpec(file), text);
const disableHooksFeature = (file: string, text: string, record: ReturnType<typeof enableHooksFeature>['record']) => uninstallConfig(tomlSpec(file), text, record);

const USER_TOML = `# my codex config
model = "gpt-5-codex"   # the default model
approval_policy = "on-request"

[features]
web_search = true
hooks = false # off for now

[model_providers.local]
name = "local"
base_url = "http://127.0.0.1:8080/v1"
`;

const USER_HOOKS = `{
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "~/.codex/hooks/guard.sh", "timeout": 5 } ] }
    ],
    "Stop": [
      { "hooks": [ { "type": "command", "command": "~/.codex/hooks/notify.sh" } ] }
    ]
  }
}
`;

function setup(files: { toml?: string; hooks?: string }) {
  const s = sandbox();
  const home = join(s.root, 'home');
  const dir = join(home, '.codex');
  mkdirSync(dir, { recursive: true });
  if (files.toml !== undefined) writeFileSync(join(dir, 'config.toml'), files.toml);
  if (files.hooks !== undefined) writeFileSync(join(dir, 'hooks.json'), files.hooks);
  const opts: InstallOptions = { home, env: { ...s.env, HOME: home, CODEX_HOME: undefined }, command: `${shQuote(process.execPath)} ${shQuote(CLI)}` };
  return { dir, opts, toml: join(dir, 'config.toml'), hooks: join(dir, 'hooks.json') };
}

describe('codex config.toml feature flag edits', () => {
  it('replaces hooks = false in [features], inserts into [features], appends a table; each undone exactly', () => {
    const cases = [USER_TOML, USER_TOML.replace('hooks = false # off for now\n', ''), 'model = "o3"\n', '', '[features]\nhooks = true\n'];
    for (const before of [...cases, 'model = "o3"', 'a = 1\r\n\r\n[features]\r\nx = 1\r\n', '[features]\nhooks = false\n# end']) {
      const { text, record } = enableHooksFeature('config.toml', before);
      expect((parseToml(text) as { features: { hooks: boolean } }).features.hooks).toBe(true);
      expect(disableHooksFeature('config.toml', text, record)).toBe(before);
    }
    expect(enableHooksFeature('c.toml', USER_TOML).text).toContain('[features]\nweb_search = true\nhooks = true # added by hive-mind\n\n[model_providers.local]');
  });
  it('refuses dotted-key or inline features and invalid TOML with file and line', () => {
    expect(() => enableHooksFeature('c.toml', 'features.web_search = true\n')).toThrow(/^c\.toml: line 1, column 1: cannot edit this TOML layout safely \("features" is written as dotted keys or an inline table\); add this yourself and re-run: `hooks = true` under `\[features\]`; nothing was changed$/);
    expect(() => enableHooksFeature('c.toml', 'features = { web_search = true }\n')).toThrow(/dotted keys or an inline table/);
    expect(() => enableHooksFeature('c.toml', 'a = 1\nb = = 2\n')).toThrow(/^c\.toml: line 2, column \d+: .*; nothing was changed$/);
    // the location is the line that holds the dotted key or the inline table
    expect(() => enableHooksFeature('c.toml', 'model = "o3"\n\n  features.web_search = true\n')).toThrow(/^c\.toml: line 3, column 3: cannot edit/);
    expect(() => enableHooksFeature('c.toml', 'model = "o3"\nfeatures = { web_search = true }\n')).toThrow(/^c\.toml: line 2, column 1: cannot edit/);
  });
  it.each(['["features"]', "[ 'features' ] # flags"])('a quoted table header %s is the [features] table', (header) => {
    const before = `model = "o3"\n${header}\nweb_search = true\n`;
    const { text, record } = enableHooksFeature('c.toml', before);
    expect(text).toBe(`model = "o3"\n${header}\nweb_search = true\nhooks = true # added by hive-mind\n`);
    expect(disableHooksFeature('c.toml', text, record)).toBe(before);
  });
  it('a user line edited after install is left alone on uninstall', () => {
    const { text, record } = enableHooksFeature('c.toml', USER_TOML);
    const edited = text.replace('hooks = true # added by hive-mind', 'hooks = true # mine now');
    expect(disableHooksFeature('c.toml', edited, record)).toBe(edited);
  });
});

describe('codex installer', () => {
  it('install/verify/uninstall round trip keeps the user hooks, comments and TOML', async () => {
    const f = setup({ toml: USER_TOML, hooks: USER_HOOKS });
    const inst = (await loadInstaller('codex'))!;
    const r = await inst.install(f.opts);
    expect(r.files.map((x) => x.changed)).toEqual([true, true]);
    expect(r.notes.join(' ')).toMatch(/trust/);
    const doc = parse(readFileSync(f.hooks, 'utf8')) as { hooks: Record<string, unknown[]> };
    expect(Object.keys(doc.hooks)).toEqual(['PreToolUse', 'Stop', 'SessionStart', 'UserPromptSubmit', 'PreCompact']);
    expect(installedHooks(codexSpec, f.opts).map((h) => h.event)).toEqual(['Stop', 'SessionStart', 'UserPromptSubmit', 'PreCompact']);
    const t = readFileSync(f.toml, 'utf8');
    expect(t).toBe(USER_TOML.replace('hooks = false # off for now', 'hooks = true # added by hive-mind'));
    expect(existsSync(r.files[1]!.backup!)).toBe(true);
    // idempotent
    const again = await inst.install(f.opts);
    expect(again.files.map((x) => x.changed)).toEqual([false, false]);
    // verify
    const v = await inst.verify(f.opts);
    expect(v.hooks.map((h) => [h.event, h.ok])).toEqual([
      ['UserPromptSubmit', true],
      ['Stop', true],
      ['PreCompact', true],
      ['SessionStart', true],
    ]);
    expect(v.hooks[3]!.stdout).toContain('Hive-mind verify ran here');
    // the user removes their own hooks after install, then uninstalls: feature flag goes back to theirs
    writeFileSync(f.hooks, readFileSync(f.hooks, 'utf8'));
    const u = await inst.uninstall(f.opts);
    expect(u.files[0]!.changed).toBe(true);
    expect(readFileSync(f.hooks, 'utf8')).toBe(USER_HOOKS);
    // our flag line goes even though user hooks remain (keeping it would switch on their
    // dormant hooks): config.toml is back to the user's bytes, `hooks = false` included,
    // and the notes tell the user their hooks need the flag
    expect(readFileSync(f.toml, 'utf8')).toBe(USER_TOML);
    expect(u.files[1]!.changed).toBe(true);
    expect(u.notes.join(' ')).toMatch(/removed the \[features\] hooks = true line hive-mind added .*still has \d+ hook\(s\) of yours, which Codex runs only with that flag on/);
  }, 120_000);

  it('without user hooks, uninstall restores config.toml byte for byte; files our install created are removed again', async () => {
    const f = setup({ toml: USER_TOML });
    const inst = (await loadInstaller('codex'))!;
    await inst.install(f.opts);
    await inst.uninstall(f.opts);
    expect(readFileSync(f.toml, 'utf8')).toBe(USER_TOML);
    expect(existsSync(f.hooks)).toBe(false);
    const g = setup({});
    await inst.install(g.opts);
    expect(readFileSync(g.toml, 'utf8')).toBe('[features]\nhooks = true # added by hive-mind\n');
    await inst.uninstall(g.opts);
    expect([existsSync(g.toml), existsSync(g.hooks)]).toEqual([false, false]);
  });

  it('a hooks.json with comments is kept, with a warning that Codex will not load it', async () => {
    const f = setup({ hooks: '// mine\n' + USER_HOOKS });
    const r = await (await loadInstaller('codex'))!.install(f.opts);
    expect(r.notes[0]).toMatch(/^warning: .*hooks\.json: line 1, column 1: a comment \(strict JSON has none\): Codex 0\.171\.0 refuses/);
    expect(readFileSync(f.hooks, 'utf8').startsWith('// mine\n{')).toBe(true);
  });

  it('a hooks.json with a byte order mark is kept, with a warning that Codex will not load it', async () => {
    // Codex 0.171.0: "failed to parse hooks config …: expected value at line 1 column 1" (seen with the real binary)
    const f = setup({ hooks: '\uFEFF' + USER_HOOKS });
    const r = await (await loadInstaller('codex'))!.install(f.opts);
    expect(r.notes[0]).toMatch(/^warning: .*hooks\.json: line 1, column 1: starts with a byte order mark \(U\+FEFF\): Codex 0\.171\.0 refuses/);
    expect(readFileSync(f.hooks, 'utf8').startsWith('\uFEFF{')).toBe(true);
    expect((await (await loadInstaller('codex'))!.verify(f.opts)).hooks[0]!.event).toBe('(config)');
  });

  it.each([
    ['our line after the last key', '[features]\nweb_search = true', 'web_search = true', 'web_search = false'],
    ['our [features] table appended', 'model = "o3"', 'model = "o3"', 'model = "o4"'],
    ['our [features] table appended, a final newline', 'model = "o3"\n', 'model = "o3"', 'model = "o4"'],
  ])('config.toml with or without a final newline: the user edits the line beside ours, uninstall removes ours exactly (%s)', (_n, text, from, to) => {
    const { text: installed, record } = enableHooksFeature('c.toml', text);
    const edited = installed.replace(from, to);
    // the edited line is beside our edit, so the recorded undo does not apply: structural removal
    expect(disableHooksFeature('c.toml', edited, record)).toBe(text.replace(from, to));
  });

  it('verify fails when config.toml switches hooks off after install (Codex 0.171.0 then runs none; seen with the real binary)', async () => {
    const f = setup({ toml: 'model = "o3"\n', hooks: USER_HOOKS });
    const inst = (await loadInstaller('codex'))!;
    await inst.install(f.opts);
    writeFileSync(f.toml, readFileSync(f.toml, 'utf8').replace('hooks = true # added by hive-mind', 'hooks = false'));
    const v = await inst.verify(f.opts);
    expect(v.ok).toBe(false);
    expect(v.hooks[0]!.event).toBe('(config)');
    expect(v.hooks[0]!.error).toBe(`${f.toml}: line 4, column 1: [features] hooks = false: Codex 0.171.0 runs no hooks at all; set it to true (or re-run hive-mind install codex)`);
  });

  it('dry-run shows both diffs and writes nothing', async () => {
    const f = setup({ toml: USER_TOML, hooks: USER_HOOKS });
    const inst = (await loadInstaller('codex'))!;
    const r = await inst.install({ ...f.opts, dryRun: true });
    expect(r.files[1]!.diff).toContain('-hooks = false # off for now\n+hooks = true # added by hive-mind');
    expect(r.files[0]!.diff).toContain('hook codex SessionStart');
    expect(readFileSync(f.toml, 'utf8')).toBe(USER_TOML);
    expect(readFileSync(f.hooks, 'utf8')).toBe(USER_HOOKS);
  });
});
