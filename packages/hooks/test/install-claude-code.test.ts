import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { installedHooks, loadInstaller, shQuote, type InstallOptions } from '../src/index.js';
import { claudeCodeSpec } from '../src/hosts/claude-code-install.js';
import { CLI, runCli, sandbox } from './helpers.js';

const USER_SETTINGS = `// my Claude Code settings
{
  "model": "opus", // keep this
  /* permissions first */
  "permissions": { "allow": ["Bash(npm test)"] },
  "hooks": {
    "Stop": [
      { "hooks": [ { "type": "command", "command": "notify-send done" } ] }
    ],
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "~/bin/guard.sh" } ] }
    ]
  },
  "theme": "dark"
}
`;

// The same without comments: what Claude Code 2.1.332 actually loads (it refuses comments).
const STRICT_SETTINGS = `{
  "model": "opus",
  "hooks": {
    "Stop": [
      { "hooks": [ { "type": "command", "command": "notify-send done" } ] }
    ]
  }
}
`;

function setup(text?: string) {
  const s = sandbox();
  const home = join(s.root, 'home');
  mkdirSync(join(home, '.claude'), { recursive: true });
  const file = join(home, '.claude', 'settings.json');
  if (text !== undefined) writeFileSync(file, text);
  const opts: InstallOptions = { home, env: { ...s.env, HOME: home }, command: `${shQuote(process.execPath)} ${shQuote(CLI)}` };
  return { s, home, file, opts };
}

describe('claude-code installer', () => {
  it('"disableAllHooks": true: install warns and verify fails, naming the line (Claude Code 2.1.332 then runs no hook; seen with the real binary)', async () => {
    const { file, opts } = setup('{\n  "model": "opus",\n  "disableAllHooks": true\n}\n');
    const inst = (await loadInstaller('claude-code'))!;
    const r = await inst.install(opts);
    const problem = `${file}: line 3, column 3: "disableAllHooks": true: Claude Code 2.1.332 runs no hooks at all, hive-mind's included; remove it (or set it to false) to use them`;
    expect(r.notes).toContain(`warning: ${problem}`);
    const v = await inst.verify(opts);
    expect(v.ok).toBe(false);
    expect(v.hooks[0]).toMatchObject({ event: '(config)', error: problem });
  });

  it('a settings.json with a byte order mark is edited after it, without a warning (Claude Code 2.1.332 loads it)', async () => {
    const text = '\uFEFF{\n  "model": "opus"\n}\n';
    const { file, opts } = setup(text);
    const inst = (await loadInstaller('claude-code'))!;
    const r = await inst.install(opts);
    expect(r.notes.filter((n) => n.startsWith('warning:'))).toEqual([]);
    expect(readFileSync(file, 'utf8').startsWith('\uFEFF{\n  "model": "opus",\n  "hooks": {')).toBe(true);
    expect(installedHooks(claudeCodeSpec, opts)).toHaveLength(5);
    await inst.uninstall(opts);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('install keeps comments, order and the user hooks; is idempotent; uninstall keeps later user edits', async () => {
    const { file, opts } = setup(USER_SETTINGS);
    const inst = (await loadInstaller('claude-code'))!;
    const r1 = await inst.install(opts);
    expect(r1.files[0]!.changed).toBe(true);
    expect(r1.notes[0]).toMatch(/^warning: .*settings\.json: line 1, column 1: a comment \(strict JSON has none\): Claude Code 2\.1\.332 refuses/);
    expect(readFileSync(r1.files[0]!.backup!, 'utf8')).toBe(USER_SETTINGS);
    const t1 = readFileSync(file, 'utf8');
    expect(t1.startsWith('// my Claude Code settings\n{\n  "model": "opus", // keep this\n  /* permissions first */')).toBe(true);
    const doc = parse(t1) as { hooks: Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>>; theme: string };
    expect(Object.keys(doc.hooks)).toEqual(['Stop', 'PreToolUse', 'SessionStart', 'UserPromptSubmit', 'PreCompact', 'SessionEnd']);
    expect(doc.hooks.Stop![0]!.hooks[0]!.command).toBe('notify-send done');
    expect(doc.hooks.Stop![1]!.hooks[0]!.command).toMatch(/hive-mind\.js' hook claude-code Stop$|hive-mind\.js hook claude-code Stop$/);
    expect(doc.theme).toBe('dark');
    expect(installedHooks(claudeCodeSpec, opts).map((h) => h.event).sort()).toEqual(['PreCompact', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit']);

    // idempotent: nothing changes, no new backup
    const backups = () => readdirSync(join(file, '..')).filter((f) => f.includes('hive-mind-backup')).length;
    const r2 = await inst.install(opts);
    expect(r2.files[0]!.changed).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe(t1);
    expect(backups()).toBe(1);

    // the user edits after install: a new key and a hook of their own in our Stop group's event
    const edited = t1.replace('"theme": "dark"', '"theme": "light",\n  "verbose": true').replace('"notify-send done"', '"notify-send finished"');
    writeFileSync(file, edited);
    const r3 = await inst.uninstall(opts);
    expect(r3.files[0]!.changed).toBe(true);
    const expected = USER_SETTINGS.replace('"theme": "dark"', '"theme": "light",\n  "verbose": true').replace('"notify-send done"', '"notify-send finished"');
    expect(readFileSync(file, 'utf8')).toBe(expected);
    // uninstall again: nothing to do
    expect((await inst.uninstall(opts)).files[0]!.changed).toBe(false);
  });

  it('dry-run prints the diff and writes nothing', async () => {
    const { file, opts } = setup(USER_SETTINGS);
    const inst = (await loadInstaller('claude-code'))!;
    const r = await inst.install({ ...opts, dryRun: true });
    expect(r.dryRun).toBe(true);
    expect(r.files[0]!.changed).toBe(true);
    expect(r.files[0]!.diff).toMatch(/^--- .*settings\.json\n\+\+\+ .*settings\.json\n@@ /);
    expect(r.files[0]!.diff).toContain('+            "command": ');
    expect(readFileSync(file, 'utf8')).toBe(USER_SETTINGS);
    expect(r.files[0]!.backup).toBeUndefined();
  });

  it('a missing settings file: install creates it, uninstall removes it again (unless the user added to it)', async () => {
    const { file, opts } = setup();
    const inst = (await loadInstaller('claude-code'))!;
    await inst.install(opts);
    expect(Object.keys((parse(readFileSync(file, 'utf8')) as { hooks: object }).hooks)).toHaveLength(5);
    await inst.uninstall(opts);
    expect(existsSync(file)).toBe(false);
    await inst.install(opts);
    writeFileSync(file, readFileSync(file, 'utf8').replace('{\n', '{\n  "model": "sonnet",\n'));
    await inst.uninstall(opts);
    expect(parse(readFileSync(file, 'utf8'))).toEqual({ model: 'sonnet' });
  });

  it('a moved CLI: reinstall updates our command in place, no duplicates', async () => {
    const { file, opts } = setup(USER_SETTINGS);
    const inst = (await loadInstaller('claude-code'))!;
    await inst.install({ ...opts, command: '/old/node /old/lib/hive-mind/bin/hive-mind.js' });
    await inst.install(opts);
    const hooks = installedHooks(claudeCodeSpec, opts);
    expect(hooks).toHaveLength(5);
    expect(hooks.every((h) => h.command.startsWith(opts.command!))).toBe(true);
  });

  it('broken JSON: a clear error naming file and line, nothing written', async () => {
    const bad = '{\n  "model": "opus",\n  "hooks": { "Stop": [ }\n}\n';
    const { file, opts } = setup(bad);
    const inst = (await loadInstaller('claude-code'))!;
    await expect(inst.install(opts)).rejects.toThrow(/settings\.json: line 3, column \d+: a value is expected/);
    expect(readFileSync(file, 'utf8')).toBe(bad);
    expect(readdirSync(join(file, '..'))).toEqual(['settings.json']);
  });

  it('verify fails on a settings file Claude Code will not load (comments), naming the line', async () => {
    const { opts } = setup(USER_SETTINGS);
    const inst = (await loadInstaller('claude-code'))!;
    await inst.install(opts);
    const v = await inst.verify(opts);
    expect(v.ok).toBe(false);
    expect(v.hooks[0]).toMatchObject({ event: '(config)', ok: false });
    expect(v.hooks[0]!.error).toMatch(/line 1, column 1: a comment \(strict JSON has none\)/);
    expect(v.hooks.slice(1).every((h) => h.ok)).toBe(true);
  }, 120_000);

  it('verify runs every installed hook with a sample payload, in a throw-away memory', async () => {
    const { opts, home } = setup(STRICT_SETTINGS);
    const inst = (await loadInstaller('claude-code'))!;
    expect((await inst.verify(opts)).ok).toBe(false);
    await inst.install(opts);
    const v = await inst.verify(opts);
    expect(v.hooks.map((h) => [h.event, h.exitCode, h.ok])).toEqual([
      ['UserPromptSubmit', 0, true],
      ['Stop', 0, true],
      ['PreCompact', 0, true],
      ['SessionEnd', 0, true],
      ['SessionStart', 0, true],
    ]);
    expect(v.ok).toBe(true);
    const ctx = JSON.parse(v.hooks[4]!.stdout).hookSpecificOutput.additionalContext as string;
    expect(ctx).toContain('Hive-mind verify ran here');
    expect(existsSync(join(home, '.hive-mind', 'workspaces'))).toBe(false);
  }, 120_000);

  it('CLI: install --dry-run, install --json, verify, uninstall', async () => {
    const { s, home, file } = setup(STRICT_SETTINGS);
    const env = { ...s.env, HOME: home };
    const dry = await runCli(['install', 'claude-code', '--dry-run'], '', env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('would change: ' + file);
    expect(readFileSync(file, 'utf8')).toBe(STRICT_SETTINGS);
    const ins = await runCli(['install', 'claude-code', '--json'], '', env);
    expect(ins.code).toBe(0);
    expect(JSON.parse(ins.stdout).files[0].changed).toBe(true);
    const ver = await runCli(['verify', 'claude-code'], '', env);
    expect(ver.stdout).toMatch(/^ok +SessionStart .*stdout \d+ chars$/m);
    expect(ver.code).toBe(0);
    const un = await runCli(['uninstall', 'claude-code'], '', env);
    expect(un.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(STRICT_SETTINGS);
    const bad = await runCli(['install', 'emacs'], '', env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^hive-mind: unknown host "emacs"/);
  }, 180_000);
});
