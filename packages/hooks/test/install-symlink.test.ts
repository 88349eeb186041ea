import { describe, expect, it } from 'vitest';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadInstaller, shQuote, type InstallOptions } from '../src/index.js';
import { CLI, sandbox } from './helpers.js';

/** A HOME whose host config is a symlink into ~/dotfiles (a common dotfiles setup). */
function linked(rel: string, text: string) {
  const s = sandbox();
  const home = join(s.root, 'home');
  const dots = join(home, 'dotfiles');
  mkdirSync(dots, { recursive: true });
  const real = join(dots, rel.split('/').pop()!);
  writeFileSync(real, text);
  const link = join(home, rel);
  mkdirSync(join(link, '..'), { recursive: true });
  // a relative link, as dotfile managers (stow) write them
  symlinkSync(join('..', 'dotfiles', rel.split('/').pop()!), link);
  const opts: InstallOptions = { home, env: { ...s.env, HOME: home }, command: `${shQuote(process.execPath)} ${shQuote(CLI)}` };
  return { home, dots, real, link, opts };
}

describe('installers keep a symlinked config a symlink', () => {
  it('claude-code: hooks land in the link target, backup beside it, link intact after install and uninstall', async () => {
    const before = '{\n  "model": "opus"\n}\n';
    const { dots, real, link, opts } = linked('.claude/settings.json', before);
    const inst = (await loadInstaller('claude-code'))!;
    const r = await inst.install(opts);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('../dotfiles/settings.json');
    expect(readFileSync(real, 'utf8')).toContain('hook claude-code UserPromptSubmit');
    expect(r.files[0]!.backup!.startsWith(dots)).toBe(true);
    expect(readFileSync(r.files[0]!.backup!, 'utf8')).toBe(before);
    // no temp file left next to the link or the target
    expect(readdirSync(join(link, '..')).filter((f) => f.includes('hive-mind-tmp'))).toEqual([]);
    expect(readdirSync(dots).filter((f) => f.includes('hive-mind-tmp'))).toEqual([]);
    await inst.uninstall(opts);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toBe(before);
  });

  it('codex: hooks.json and config.toml as links are edited through the links', async () => {
    const { home, dots, real, link, opts } = linked('.codex/hooks.json', '{}\n');
    const toml = join(dots, 'config.toml');
    writeFileSync(toml, 'model = "gpt-5"\n');
    symlinkSync(toml, join(home, '.codex', 'config.toml')); // an absolute link
    const inst = (await loadInstaller('codex'))!;
    await inst.install(opts);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(home, '.codex', 'config.toml')).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toContain('hook codex Stop');
    expect(readFileSync(toml, 'utf8')).toContain('hooks = true # added by hive-mind');
    await inst.uninstall(opts);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(home, '.codex', 'config.toml')).isSymbolicLink()).toBe(true);
    expect(readFileSync(toml, 'utf8')).toBe('model = "gpt-5"\n');
  });

  it('cursor: ~/.cursor/hooks.json as a link stays a link', async () => {
    const before = '{\n  "version": 1,\n  "hooks": {}\n}\n';
    const { real, link, opts } = linked('.cursor/hooks.json', before);
    const inst = (await loadInstaller('cursor'))!;
    await inst.install(opts);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toContain('hook cursor');
    await inst.uninstall(opts);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toBe(before);
  });

  it('a link to a file not created yet: install creates the target, uninstall deletes the target and keeps the link', async () => {
    const s = sandbox();
    const home = join(s.root, 'home');
    mkdirSync(join(home, '.cursor'), { recursive: true });
    const link = join(home, '.cursor', 'hooks.json');
    symlinkSync(join('..', 'dotfiles', 'cursor', 'hooks.json'), link); // dangling: the dotfiles checkout has no such file yet
    const real = join(home, 'dotfiles', 'cursor', 'hooks.json');
    const opts: InstallOptions = { home, env: { ...s.env, HOME: home }, command: `${shQuote(process.execPath)} ${shQuote(CLI)}` };
    const inst = (await loadInstaller('cursor'))!;
    await inst.install(opts);
    expect(readFileSync(real, 'utf8')).toContain('hook cursor');
    await inst.uninstall(opts);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(join('..', 'dotfiles', 'cursor', 'hooks.json'));
    expect(existsSync(real)).toBe(false);
    // the directories install made for the target go again
    expect(existsSync(join(home, 'dotfiles'))).toBe(false);
  });
});
