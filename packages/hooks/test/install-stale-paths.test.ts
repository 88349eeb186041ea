/**
 * `hive-mind install HOST` after the world moved: hooks written through the launcher
 * (`<hive-mind home>/bin/run-hive-mind`) keep working after a Node upgrade or a moved checkout
 * when a node / hive-mind is still reachable, exit 0 with one line when none is, and `verify`
 * names what broke and the command that fixes it. Also an install from before the launcher
 * (absolute `<node> <bin>` in the host config). Real files, real `sh` processes.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadInstaller, shQuote } from '../src/index.js';
import { launcherRecord } from '../src/install/launcher.js';
import { CLI, logLines, sandbox } from './helpers.js';

type Settings = { hooks: Record<string, { hooks: { command: string }[] }[]> };

/** A PATH with the tools the launcher needs (sh builtins aside) but no node and no hive-mind. */
function toolsOnlyPath(root: string): string {
  const bin = join(root, 'tools-bin');
  mkdirSync(bin, { recursive: true });
  for (const t of ['mkdir', 'date', 'cat', 'sed', 'dirname']) {
    const p = ['/bin', '/usr/bin'].map((d) => join(d, t)).find((f) => existsSync(f));
    if (p) symlinkSync(p, join(bin, t));
  }
  return bin;
}

function setup() {
  const s = sandbox();
  const home = join(s.root, 'home');
  const hmHome = join(home, '.hive-mind');
  // an "old node" (a Node version manager's path) and a checkout, both links to the real ones
  const oldNode = join(s.root, 'nodes', 'v20.1.0', 'bin', 'node');
  mkdirSync(dirname(oldNode), { recursive: true });
  symlinkSync(process.execPath, oldNode);
  const checkout = join(s.root, 'src', 'hive-mind');
  const bin = join(checkout, 'packages', 'cli', 'bin', 'hive-mind.js');
  mkdirSync(dirname(bin), { recursive: true });
  symlinkSync(CLI, bin);
  const globalBin = join(s.root, 'global-bin');
  mkdirSync(globalBin, { recursive: true });
  symlinkSync(CLI, join(globalBin, 'hive-mind'));
  const nodeDir = dirname(process.execPath);
  const basePath = `/usr/bin:/bin`;
  const env = (path: string) => ({ ...process.env, HOME: home, HIVE_MIND_HOME: undefined, PATH: path });
  const opts = (path = `${nodeDir}:${basePath}`) => ({ home, env: env(path) });
  return { ...s, home, hmHome, oldNode, checkout, bin, globalBin, nodeDir, basePath, env, opts };
}

const settingsOf = (home: string) => JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')) as Settings;

describe('hooks installed through the launcher', () => {
  it('the host config names only the launcher; the launcher records the node and CLI of the install', async () => {
    const t = setup();
    const inst = (await loadInstaller('claude-code'))!;
    const r = await inst.install({ ...t.opts(), cli: { node: t.oldNode, cli: t.bin } });
    const launcher = join(t.hmHome, 'bin', 'run-hive-mind');
    expect(r.files.map((f) => f.path)).toEqual([launcher, join(t.home, '.claude', 'settings.json')]);
    const commands = Object.values(settingsOf(t.home).hooks).map((g) => g[0]!.hooks[0]!.command);
    expect(commands).toContain(`${shQuote(launcher)} hook claude-code Stop`);
    expect(commands.join('\n')).not.toContain(t.oldNode);
    expect(commands.join('\n')).not.toContain(t.checkout);
    expect(statSync(launcher).mode & 0o777).toBe(0o755);
    expect(launcherRecord(readFileSync(launcher, 'utf8'))).toEqual({ node: t.oldNode, cli: t.bin });
    const v = await inst.verify(t.opts());
    expect(v.ok).toBe(true);
    expect(v.notes ?? []).toEqual([]);
  });

  it('a Node upgrade (the recorded node is gone): the hooks run with node from PATH, verify says so; with no node at all verify names it and the fix', async () => {
    const t = setup();
    const inst = (await loadInstaller('claude-code'))!;
    await inst.install({ ...t.opts(), cli: { node: t.oldNode, cli: t.bin } });
    rmSync(join(t.root, 'nodes'), { recursive: true });
    const v = await inst.verify(t.opts());
    expect(v.ok).toBe(true);
    expect(v.notes).toEqual([
      `node ${t.oldNode}, recorded at install, no longer exists (a Node upgrade?); the hooks run the CLI with ${join(t.nodeDir, 'node')} from PATH instead; run \`hive-mind install claude-code\` with the hive-mind you use now to record it`,
    ]);
    // no node anywhere: every hook exits 0 and logs one line; verify fails naming the path and the fix
    const bare = await inst.verify(t.opts(toolsOnlyPath(t.root)));
    expect(bare.ok).toBe(false);
    const paths = bare.hooks.filter((h) => h.event === '(paths)');
    expect(paths.map((h) => h.error)).toEqual([`node ${t.oldNode}, recorded at install, no longer exists (a Node upgrade?) and no node is on PATH: the hooks do nothing but log it; run \`hive-mind install claude-code\` with the hive-mind you use now`]);
    for (const h of bare.hooks.filter((x) => x.event !== '(paths)')) {
      expect(h.exitCode).toBe(0);
      expect(h.error).toMatch(/hook logged a failure: .* hive-mind: node .* \(recorded by hive-mind install\) is gone and no node is on PATH/);
    }
    // installing again from the node in use records it; verify is clean
    await inst.install({ ...t.opts(), cli: { node: process.execPath, cli: t.bin } });
    const again = await inst.verify(t.opts());
    expect(again.ok).toBe(true);
    expect(again.notes ?? []).toEqual([]);
  });

  it('a moved checkout: the hooks exit 0 with one line, verify names the missing CLI and the fix; hive-mind on PATH takes over; re-install changes only the launcher', async () => {
    const t = setup();
    const inst = (await loadInstaller('claude-code'))!;
    await inst.install({ ...t.opts(), cli: { node: process.execPath, cli: t.bin } });
    const settingsBefore = readFileSync(join(t.home, '.claude', 'settings.json'), 'utf8');
    const moved = join(t.root, 'src', 'hive-mind-moved');
    renameSync(t.checkout, moved);
    // what the host runs, as the host runs it
    const stop = settingsOf(t.home).hooks.Stop![0]!.hooks[0]!.command;
    const run = spawnSync('/bin/sh', ['-c', stop], { input: JSON.stringify({ session_id: 's', hook_event_name: 'Stop', cwd: t.project }), encoding: 'utf8', env: t.env(`${t.nodeDir}:${t.basePath}`), cwd: t.project });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`hive-mind: the hive-mind CLI recorded by hive-mind install (${t.bin}) is gone, and the hive-mind CLI is not on PATH, in ~/.local/bin nor in the project's node_modules; install it from a hive-mind checkout with \`npm ci && npm install -g --prefix ~/.local ./packages/cli\` (the command lands in ~/.local/bin), or set HIVE_MIND_CLI to its bin/hive-mind.js, then run \`hive-mind install claude-code\` again\n`);
    expect(logLines(join(t.hmHome, 'logs', 'hooks.log'))).toEqual([expect.stringMatching(/Z claude-code Stop: hive-mind: the hive-mind CLI recorded by hive-mind install/)]);
    const v = await inst.verify(t.opts());
    expect(v.ok).toBe(false);
    expect(v.hooks.filter((h) => h.event === '(paths)').map((h) => h.error)).toEqual([
      `the hive-mind CLI recorded at install, ${t.bin}, no longer exists (a moved checkout or a removed package) and no hive-mind is on PATH: the hooks do nothing but log it; run \`hive-mind install claude-code\` with the hive-mind you use now (or \`npm ci && npm install -g --prefix ~/.local ./packages/cli\` in a hive-mind checkout)`,
    ]);
    // a global hive-mind takes over at run time
    const withGlobal = await inst.verify(t.opts(`${t.globalBin}:${t.nodeDir}:${t.basePath}`));
    expect(withGlobal.ok).toBe(true);
    expect(withGlobal.notes).toEqual([expect.stringContaining(`the hooks run ${join(t.globalBin, 'hive-mind')} instead`)]);
    // install from the new place: the host config is byte for byte the same, the launcher records the new CLI
    const r = await inst.install({ ...t.opts(), cli: { node: process.execPath, cli: join(moved, 'packages', 'cli', 'bin', 'hive-mind.js') } });
    expect(r.files.map((f) => f.changed)).toEqual([true, false]);
    expect(readFileSync(join(t.home, '.claude', 'settings.json'), 'utf8')).toBe(settingsBefore);
    const again = await inst.verify(t.opts());
    expect(again.ok).toBe(true);
    expect(again.notes ?? []).toEqual([]);
  });

  it('an install from before the launcher (absolute node and CLI in the config): verify names the stale path and the fix; install rewrites the hooks in place', async () => {
    const t = setup();
    const inst = (await loadInstaller('codex'))!;
    await inst.install({ ...t.opts(), command: `${shQuote(t.oldNode)} ${shQuote(t.bin)}` });
    rmSync(join(t.root, 'nodes'), { recursive: true });
    const v = await inst.verify(t.opts());
    expect(v.ok).toBe(false);
    const launcher = join(t.hmHome, 'bin', 'run-hive-mind');
    expect(v.hooks.filter((h) => h.event === '(paths)').map((h) => h.error)).toEqual([
      `${t.oldNode}, the node these hooks run, no longer exists (a Node upgrade?), so they fail; run \`hive-mind install codex\` with the hive-mind you use now: it writes the hooks through the launcher ${launcher}, which survives the next Node upgrade or move`,
    ]);
    const r = await inst.install({ ...t.opts(), cli: { node: process.execPath, cli: t.bin } });
    expect(r.files.map((f) => f.changed)).toEqual([true, true, false]);
    const hooks = JSON.parse(readFileSync(join(t.home, '.codex', 'hooks.json'), 'utf8')) as Settings;
    expect(Object.values(hooks.hooks).map((g) => g.length)).toEqual([1, 1, 1, 1]);
    expect(hooks.hooks.Stop![0]!.hooks[0]!.command).toBe(`${shQuote(launcher)} hook codex Stop`);
    expect((await inst.verify(t.opts())).ok).toBe(true);
  });

  it('the launcher is shared: it stays while another host uses it and goes with the last uninstall', async () => {
    const t = setup();
    const cc = (await loadInstaller('claude-code'))!;
    const cx = (await loadInstaller('codex'))!;
    await cc.install({ ...t.opts(), cli: { node: process.execPath, cli: t.bin } });
    await cx.install({ ...t.opts(), cli: { node: process.execPath, cli: t.bin } });
    const launcher = join(t.hmHome, 'bin', 'run-hive-mind');
    await cc.uninstall(t.opts());
    expect(existsSync(launcher)).toBe(true);
    await cx.uninstall(t.opts());
    expect(existsSync(launcher)).toBe(false);
    expect(existsSync(t.hmHome)).toBe(false);
  });
});
