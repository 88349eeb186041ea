import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { StatusReport } from '../src/commands/status-report.js';

const execFileP = promisify(execFile);
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CLI = join(REPO, 'packages/cli/bin/hive-mind.js');
const DATA = join(REPO, '../shared/data');

/** A user's machine in a temp folder: HOME, the hive-mind home, and a PATH of system tools (no hive-mind on it unless `bin` is added). */
const root = mkdtempSync(join(tmpdir(), 'hm-status-'));
const home = join(root, 'home');
const hmHome = join(home, '.hive-mind');
const bin = join(root, 'bin');
const claudeDir = join(home, '.claude');
const baseEnv = { HOME: home, PATH: '/usr/bin:/bin', NO_COLOR: '1' };

async function cli(args: string[], opts: { env?: Record<string, string>; input?: string } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const p = execFileP(process.execPath, [CLI, ...args], { env: { ...baseEnv, ...opts.env }, cwd: root, encoding: 'utf8', timeout: 60_000 });
  if (opts.input !== undefined) p.child.stdin!.end(opts.input);
  try {
    const { stdout, stderr } = await p;
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

async function status(env: Record<string, string> = {}): Promise<StatusReport> {
  const r = await cli(['status', '--json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as StatusReport;
}

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('hive-mind status on an empty machine', () => {
  it('names the default home, installs nothing, and says every section is empty', async () => {
    const r = await cli(['status']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`home ~/.hive-mind (default; set HIVE_MIND_HOME to move it), not created yet`);
    expect(r.stdout).toMatch(/claude-code\s+not installed/);
    expect(r.stdout).toContain('none yet (the first hook run');
    expect(r.stdout).toContain('none logged');
    const j = await status();
    expect(j.home).toEqual({ path: hmHome, from: 'default', exists: false });
    expect(j.hosts.map((h) => h.host)).toEqual(['claude-code', 'codex', 'cursor', 'openclaw', 'hermes']);
    expect(j.hosts.every((h) => h.via.length === 0)).toBe(true);
    // read only: nothing was created
    expect(j.minds).toEqual([]);
  });
});

describe('hive-mind status on a machine in use', () => {
  beforeAll(async () => {
    expect((await cli(['install', 'claude-code'])).code).toBe(0);
    expect((await cli(['mind', 'save', 'The staging database is reached through bastion host jump-7', '--importance', 'important'])).code).toBe(0);
    expect((await cli(['mind', 'save', 'Deploys go out on Tuesdays'])).code).toBe(0);
    expect((await cli(['notes', 'add', 'The user prefers short answers', '--user'])).code).toBe(0);
    // a hook that fails (payload not JSON): exits 0 and logs the failure
    expect((await cli(['hook', 'claude-code', 'Stop'], { input: '{not json' })).code).toBe(0);
    // a Claude Code session with the host's own compaction, where Claude Code keeps it
    const sessionDir = join(claudeDir, 'projects', '-home-user-project');
    mkdirSync(sessionDir, { recursive: true });
    copyFileSync(join(DATA, 'transcripts/claude-code/native-compact-2.1.332.jsonl'), join(sessionDir, 'a2b615cc-9538-4ed7-9c03-f8c09fd3dfd2.jsonl'));
  }, 120_000);

  it('shows the hooks install, each mind with its frames, notes against their limit, the hook failure and the session\'s last compaction', async () => {
    const j = await status();
    const cc = j.hosts.find((h) => h.host === 'claude-code')!;
    expect(cc.via).toEqual(['hooks']);
    expect(cc.hooks.map((h) => h.event)).toEqual(['SessionStart', 'UserPromptSubmit', 'Stop', 'PreCompact', 'SessionEnd']);
    expect(cc.problems).toEqual([]);
    expect(j.minds).toHaveLength(1);
    expect(j.minds[0]).toMatchObject({ name: 'personal', stats: { frames: 2, live: 2, byImportance: { important: 1, normal: 1 } } });
    expect(j.minds[0]!.bytes).toBeGreaterThan(0);
    expect(j.notes).toEqual([expect.objectContaining({ target: { file: 'user' }, chars: 'The user prefers short answers'.length, limit: 1375, entries: 1, overLimit: false })]);
    expect(j.hookLog.entries).toBe(1);
    expect(j.hookLog.latest[0]).toMatch(/claude-code Stop: /);
    expect(j.sessions).toHaveLength(1);
    expect(j.sessions[0]).toMatchObject({ host: 'claude-code', id: 'a2b615cc-9538-4ed7-9c03-f8c09fd3dfd2', compactions: { ours: 0, host: 1 } });
    expect(j.sessions[0]!.lastCompaction?.by).toMatch(/host/);

    const text = (await cli(['status'])).stdout;
    expect(text).toMatch(/claude-code\s+ok: hooks \(5 events\) in ~\/\.claude\/settings\.json/);
    expect(text).toMatch(/personal\s+\S+ KB\s+2 frames, 2 live \(1 important, 1 normal\)/);
    expect(text).toMatch(/USER\.md\s+30 \/ 1,375 chars \(2%\), 1 entry/);
    expect(text).toContain('1 in the log\'s last 256 KiB; the latest:');
    expect(text).toMatch(/claude-code\s+a2b615cc-9538-4ed7-9c03-f8c09fd3dfd2 .* by host/);
  });

  it('says when an installed hook command no longer resolves, and how to fix it', async () => {
    // an install whose node is gone (a Node upgrade), written by the installer itself
    const { loadInstaller } = await import('@hive-mind/hooks');
    await (await loadInstaller('codex'))!.install({ home, env: { ...baseEnv, HIVE_MIND_HOME: hmHome }, command: `'${join(root, 'old-node/bin/node')}' '${CLI}'` });
    const j = await status();
    const codex = j.hosts.find((h) => h.host === 'codex')!;
    expect(codex.via).toEqual(['hooks']);
    expect(codex.problems.join('\n')).toContain(join(root, 'old-node/bin/node'));
    expect(codex.problems.join('\n')).toContain('hive-mind install codex');
    expect((await cli(['status'])).stdout).toMatch(/codex\s+BROKEN: hooks/);
  });

  it('shows a Claude Code plugin as the host records it, and whether its launcher finds the CLI', async () => {
    // what `claude plugin install hive-mind@hive-mind` writes (recorded from Claude Code 2.1.332)
    const copy = join(claudeDir, 'plugins', 'cache', 'hive-mind', 'hive-mind', '0.1.0');
    cpSync(join(REPO, 'plugins/claude-code'), copy, { recursive: true });
    writeFileSync(
      join(claudeDir, 'plugins', 'installed_plugins.json'),
      JSON.stringify({ version: 2, plugins: { 'hive-mind@hive-mind': [{ scope: 'user', installPath: copy, version: '0.1.0', installedAt: '2026-12-01T10:54:51.886Z', lastUpdated: '2026-12-01T10:54:51.886Z' }] } }, null, 2),
    );
    const settingsPath = join(claudeDir, 'settings.json');
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(settingsPath, JSON.stringify({ ...settings, enabledPlugins: { 'hive-mind@hive-mind': true } }, null, 2));
    let j = await status();
    let cc = j.hosts.find((h) => h.host === 'claude-code')!;
    expect(cc.via).toEqual(['plugin', 'hooks']);
    expect(cc.plugins).toEqual([expect.objectContaining({ id: 'hive-mind@hive-mind', version: '0.1.0', root: copy })]);
    expect(cc.problems.join('\n')).toContain('each session would recall twice');
    expect(cc.problems.join('\n')).toContain('finds no hive-mind CLI');
    // with hive-mind on PATH the plugin's launcher finds it
    mkdirSync(bin, { recursive: true });
    symlinkSync(CLI, join(bin, 'hive-mind'));
    j = await status({ PATH: `${bin}:/usr/bin:/bin` });
    cc = j.hosts.find((h) => h.host === 'claude-code')!;
    expect(cc.problems.join('\n')).not.toContain('finds no hive-mind CLI');
  });

  it('takes the home from HIVE_MIND_HOME', async () => {
    const other = join(root, 'other-home');
    const j = await status({ HIVE_MIND_HOME: other });
    expect(j.home).toEqual({ path: other, from: 'HIVE_MIND_HOME', exists: false });
    expect(j.minds).toEqual([]);
  });

  it('hive-mind with no arguments prints a short usage, then the status', async () => {
    const r = await cli([]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^usage: hive-mind COMMAND/);
    expect(r.stdout).toContain('\nhosts\n');
    expect(r.stdout).toContain('\nminds\n');
  });
});
