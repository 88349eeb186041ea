/**
 * What an installer says about a config it cannot use: a syntax error in words, located
 * once (`<file>: line L, column C: <problem>; nothing was changed`); a config that cannot be read or written (a directory where the file should be, an
 * immutable or read-only file): one HostConfigError naming the file, and nothing changed,
 * not even a config written before the one that failed (Codex writes two files).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostConfigError, JSON5_FORMAT, JSON_FORMAT, loadInstaller, TOML_FORMAT, YAML_FORMAT, type InstallOptions } from '../src/index.js';
import { runCli, sandbox } from './helpers.js';

const COMMAND = '/usr/bin/node /opt/hive-mind/bin/hive-mind.js';

function setup() {
  const s = sandbox();
  const home = join(s.root, 'home');
  const opts: InstallOptions = { home, env: { ...s.env, HOME: home }, command: COMMAND };
  return { s, home, opts };
}

/** Make `dir` refuse new files: chmod for a normal user, `chattr +i` for root (undone by the returned function); undefined when neither works here. */
function lockDir(dir: string): (() => void) | undefined {
  if (process.getuid?.() !== 0) {
    chmodSync(dir, 0o555);
    return () => chmodSync(dir, 0o755);
  }
  try {
    execFileSync('chattr', ['+i', dir], { stdio: 'ignore' });
    return () => execFileSync('chattr', ['-i', dir], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
}

describe('installer: a config that cannot be read or written', () => {
  it('a directory where settings.json should be: the error names the file, exit 1', async () => {
    const { s, home, opts } = setup();
    const file = join(home, '.claude', 'settings.json');
    mkdirSync(file, { recursive: true });
    const inst = (await loadInstaller('claude-code'))!;
    const err = await inst.install(opts).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostConfigError);
    expect((err as Error).message).toBe(`${file}: cannot read it (EISDIR: illegal operation on a directory); nothing was changed`);
    const r = await runCli(['install', 'claude-code'], '', { ...s.env, HOME: home });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`hive-mind: ${file}: cannot read it (EISDIR: illegal operation on a directory); nothing was changed\n`);
  });

  it('codex: config.toml cannot be written, so hooks.json (written first) is put back, no backups, no install record', async (ctx) => {
    const { home, opts } = setup();
    const codex = join(home, '.codex');
    const locked = join(home, 'dotfiles', 'locked');
    mkdirSync(codex, { recursive: true });
    mkdirSync(locked, { recursive: true });
    const hooks = '{\n  "hooks": {}\n}\n';
    writeFileSync(join(codex, 'hooks.json'), hooks);
    writeFileSync(join(locked, 'config.toml'), 'model = "o3"\n');
    symlinkSync(join(locked, 'config.toml'), join(codex, 'config.toml'));
    const unlock = lockDir(locked);
    if (!unlock) return ctx.skip();
    try {
      const err = await (await loadInstaller('codex'))!.install(opts).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HostConfigError);
      expect((err as Error).message).toMatch(new RegExp(`^${join(codex, 'config.toml').replace(/[.]/g, '\\.')}: cannot write it \\((EACCES|EPERM): [^)]+\\); nothing was changed$`));
    } finally {
      unlock();
    }
    expect(readFileSync(join(codex, 'hooks.json'), 'utf8')).toBe(hooks);
    expect(readFileSync(join(locked, 'config.toml'), 'utf8')).toBe('model = "o3"\n');
    expect(readdirSync(codex).sort()).toEqual(['config.toml', 'hooks.json']);
    expect(readdirSync(locked)).toEqual(['config.toml']);
    expect(existsSync(join(String(opts.env!.HIVE_MIND_HOME), 'installs'))).toBe(false);
  });
});

describe('installer: a syntax error reads as words, with its location given once', () => {
  const cases: Array<[string, () => unknown, string]> = [
    ['JSON, a missing comma', () => JSON_FORMAT.parse('s.json', '{\n  "a": 1\n  "b": 2\n}\n'), 's.json: line 3, column 3: a comma is expected; fix the file or move it aside; nothing was changed'],
    ['JSON, a string not closed', () => JSON_FORMAT.parse('s.json', '{\n  "a": "x\n}\n'), 's.json: line 2, column 8: a string is not closed; fix the file or move it aside; nothing was changed'],
    ['JSON, a stray character', () => JSON_FORMAT.parse('s.json', '{\n  "a": @\n}\n'), 's.json: line 2, column 8: unexpected character; fix the file or move it aside; nothing was changed'],
    ['JSON5, a missing value', () => JSON5_FORMAT.parse('o.json5', '{\n  a: 1,\n  b: ,\n}\n'), "o.json5: line 3, column 6: invalid character ','; nothing was changed"],
    ['YAML, a bad indent', () => YAML_FORMAT.parse('c.yaml', 'model:\n  default: x\n bad: y\n'), 'c.yaml: line 3, column 1: All mapping items must start at the same column; nothing was changed'],
    ['YAML, a duplicate key', () => YAML_FORMAT.parse('c.yaml', 'a: 1\na: 2\n'), 'c.yaml: line 2, column 1: Map keys must be unique; nothing was changed'],
    ['TOML, a header not closed', () => TOML_FORMAT.parse('c.toml', 'model = "o3"\n[features\n'), 'c.toml: line 2, column 10: illegal character in key; nothing was changed'],
  ];
  it.each(cases)('%s', (_name, parse, message) => {
    expect(parse).toThrow(HostConfigError);
    expect(parse).toThrow(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  });
});

describe('installer: a layout an editor cannot handle is refused the same way', () => {
  it('hermes: `hooks:` written as a YAML alias names the file, the line and what to add; nothing changed', async () => {
    const { home, opts } = setup();
    const file = join(home, '.hermes', 'config.yaml');
    mkdirSync(join(home, '.hermes'), { recursive: true });
    const text = 'mine: &h\n  pre_llm_call:\n    - command: ~/a.sh\nhooks: *h\n';
    writeFileSync(file, text);
    const err = await (await loadInstaller('hermes'))!.install(opts).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostConfigError);
    expect((err as Error).message).toMatch(new RegExp(`^${file.replace(/[.]/g, '\\.')}: line 4, column 8: cannot edit this YAML layout safely \\(.+\\); add this yourself and re-run: hooks: .+; nothing was changed$`));
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(readdirSync(join(home, '.hermes'))).toEqual(['config.yaml']);
  });
});
