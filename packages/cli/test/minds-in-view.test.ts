/**
 * The CLI sees what a session in this folder sees: the real hook runner (`hive-mind hook
 * claude-code ...`, a child process fed the host's payload on stdin) saves into the project's
 * workspace mind, `mind save` into the personal one; then `hive-mind mind ...` run from the project
 * (a sub-folder of it) finds both, labelled, with no option; the options narrow it; an id resolves
 * to the mind it came from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { CLI, type Run } from './helpers.js';

let root: string;
let home: string;
let proj: string;
let sub: string;
let elsewhere: string;

/** The built CLI in `cwd` with HOME in the test's temp folder (no HIVE_MIND_HOME: the default home under it), `input` on stdin. */
function hm(args: string[], cwd: string, input = ''): Promise<Run> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('HIVE_MIND_')) env[k] = v;
  env.HOME = home;
  return new Promise((res, rej) => {
    const p = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('error', rej);
    p.on('close', (code) => res({ code, stdout, stderr }));
    p.stdin.end(input);
  });
}

async function ok(args: string[], cwd = sub): Promise<string> {
  const r = await hm(args, cwd);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}
const json = async (args: string[], cwd = sub) => JSON.parse(await ok([...args, '--json'], cwd));

/** One Claude Code hook event through the real runner, as the host runs it from the project's sub-folder. */
async function hook(event: string, payload: Record<string, unknown>): Promise<void> {
  const r = await hm(['hook', 'claude-code', event], sub, JSON.stringify({ session_id: 'sess-1', transcript_path: join(proj, 'none.jsonl'), cwd: sub, hook_event_name: event, ...payload }));
  expect(r.code).toBe(0);
}

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'hm-view-')));
  home = join(root, 'home');
  proj = join(root, 'billing-app');
  sub = join(proj, 'src', 'api');
  elsewhere = join(root, 'other-folder');
  for (const d of [home, join(proj, '.git'), sub, elsewhere]) mkdirSync(d, { recursive: true });
  await hook('UserPromptSubmit', { prompt: 'We decided to use PostgreSQL 16 for the billing database, on port 5433.' });
  await hook('Stop', { last_assistant_message: 'The staging API is served at https://staging.billing.example:8443 now.' });
  // a save without an option goes to the personal mind, as before
  expect(await ok(['mind', 'save', 'PostgreSQL dumps of every project are kept for 30 days'])).toMatch(/^inserted #1\n$/);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('hive-mind mind in a project folder', () => {
  it('search and list with no option see the workspace mind the hooks saved to and the personal mind, each frame labelled', async () => {
    const s = await json(['mind', 'search', 'PostgreSQL']);
    const minds = s.results.map((r: { mind: string }) => r.mind);
    expect(minds).toContain('workspace');
    expect(minds).toContain('personal');
    expect(s.results.find((r: { mind: string }) => r.mind === 'workspace').content).toMatch(/PostgreSQL 16/);
    expect(s.minds.map((m: { mind: string; exists: boolean }) => [m.mind, m.exists])).toEqual([
      ['workspace', true],
      ['personal', true],
    ]);
    expect(s.minds[0].workspace).toBe(proj); // the git root above the folder, as the hooks compute it
    // one ranking: scores never rise down the list
    const scores = s.results.map((r: { score: number }) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);

    const text = await ok(['mind', 'search', 'PostgreSQL']);
    expect(text).toMatch(/^workspace:\d+ \[.*PostgreSQL 16/m);
    expect(text).toMatch(/^personal:1 \[normal fact · user_stated · cli · .*PostgreSQL dumps/m);

    const list = await json(['mind', 'list']);
    expect(new Set(list.frames.map((f: { mind: string }) => f.mind))).toEqual(new Set(['workspace', 'personal']));
    expect(list.frames.some((f: { content: string }) => /8443/.test(f.content))).toBe(true);
    const times = list.frames.map((f: { updatedAt: string }) => f.updatedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(await ok(['mind', 'list'])).toMatch(/^workspace:\d+ \[/m);
  });

  it('--personal, --workspace (bare, a folder path, the hashed id) narrow the view to one mind', async () => {
    const only = async (args: string[]) => new Set((await json(['mind', 'search', 'PostgreSQL', ...args])).results.map((r: { mind: string }) => r.mind));
    expect(await only(['--personal'])).toEqual(new Set(['personal']));
    expect(await only(['--workspace'])).toEqual(new Set(['workspace']));
    expect(await only(['--workspace', proj])).toEqual(new Set(['workspace']));
    expect(await only(['--workspace', '../..'])).toEqual(new Set(['workspace']));
    const st = await json(['status']);
    const file = st.view.minds[0].path as string;
    expect(await only(['--workspace', basename(file, '.mind')])).toEqual(new Set(['workspace']));
    expect(await only(['--workspace', '--personal'])).toEqual(new Set(['workspace', 'personal']));
    // one mind in view: plain #ids, as before
    expect(await ok(['mind', 'search', 'PostgreSQL', '--personal'])).toMatch(/^#1 \[/);
    const bad = await hm(['mind', 'search', 'PostgreSQL', '--workspace', join(root, 'no-such-folder')], sub);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^hive-mind: --workspace .*no-such-folder: no such folder/);
  });

  it('from another folder the project is out of view: only the personal mind', async () => {
    const s = await json(['mind', 'search', 'PostgreSQL'], elsewhere);
    expect(s.results.map((r: { mind: string }) => r.mind)).toEqual(['personal']);
    expect(s.minds[0]).toMatchObject({ mind: 'workspace', workspace: elsewhere, exists: false });
    const none = await hm(['mind', 'search', 'staging'], elsewhere);
    expect(none.stdout).toBe('no results\n');
    expect(none.stderr).toMatch(/^searched: workspace .*other-folder \(no file yet\), personal\n$/);
  });

  it('show and forget resolve an id to its mind; a bare id held by both minds is refused, naming both', async () => {
    const ws = (await json(['mind', 'search', 'PostgreSQL'])).results.find((r: { mind: string }) => r.mind === 'workspace');
    const shown = await json(['mind', 'show', `workspace:${ws.id}`]);
    expect(shown).toMatchObject({ mind: 'workspace', frame: { id: ws.id } });
    expect(shown.frame.content).toMatch(/PostgreSQL 16/);
    // #1 exists in both minds (the workspace's first frame, and the personal save)
    const both = await hm(['mind', 'show', '1'], sub);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^hive-mind: #1 is a frame of more than one mind in view \(workspace .*billing-app, personal\): say which, as workspace:1 or personal:1\n$/);
    expect((await hm(['mind', 'forget', '1'], sub)).code).toBe(2);
    expect((await json(['mind', 'show', 'personal:1'])).frame.content).toMatch(/dumps of every project/);
    const text = await ok(['mind', 'show', `workspace:${ws.id}`]);
    expect(text).toMatch(new RegExp(`^workspace:${ws.id} .*\\n  mind       workspace ${proj.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`));
    // an id only the workspace mind holds needs no prefix
    const max = Math.max(...(await json(['mind', 'list', '--workspace'])).frames.map((f: { id: number }) => f.id));
    if (max > 1) expect((await json(['mind', 'show', String(max)])).mind).toBe('workspace');
    // superseding a workspace frame writes the new version into the workspace mind
    const v2 = await json(['mind', 'save', 'We use PostgreSQL 17 for the billing database, on port 5433.', '--supersedes', `workspace:${ws.id}`]);
    expect(v2).toMatchObject({ status: 'inserted', mind: 'workspace' });
    expect((await json(['mind', 'show', `workspace:${v2.id}`])).frame).toMatchObject({ supersedes: ws.id, scope: 'workspace', workspace: proj });
    expect(await json(['mind', 'forget', 'personal:1'])).toEqual({ id: 1, mind: 'personal', forgotten: true });
    expect((await json(['mind', 'show', `workspace:${v2.id}`])).frame.content).toMatch(/PostgreSQL 17/);
    expect((await json(['mind', 'list', '--personal'])).frames).toEqual([]);
  });

  it('writes go to the personal mind unless told: --scope workspace needs --workspace, and bare --workspace is this folder', async () => {
    const refused = await hm(['mind', 'save', 'The billing repo uses pnpm', '--scope', 'workspace'], sub);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--scope workspace needs --workspace \(this folder's workspace, .*billing-app\)/);
    const w = await json(['mind', 'save', 'The billing repo uses pnpm', '--workspace']);
    expect(w).toMatchObject({ status: 'inserted', mind: 'workspace' });
    expect((await json(['mind', 'show', `workspace:${w.id}`])).frame).toMatchObject({ scope: 'workspace', workspace: proj });
  });

  it('recall gives both minds as the SessionStart hook does, workspace first; stats and status name the minds in view', async () => {
    const r = await hm(['mind', 'recall'], sub);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/## hive-mind memory \(workspace .*billing-app\)/);
    expect(r.stderr).toMatch(/; from workspace .*billing-app, personal\n$/);
    const rec = await json(['mind', 'recall']);
    expect(rec.frames.every((f: { mind: string }) => f.mind === 'workspace' || f.mind === 'personal')).toBe(true);
    expect(rec.frames.some((f: { mind: string }) => f.mind === 'workspace')).toBe(true);
    expect(rec.tokens).toBeLessThanOrEqual(1500);
    // what a session started here is given holds every frame the CLI's recall lists
    const start = await hm(['hook', 'claude-code', 'SessionStart'], sub, JSON.stringify({ session_id: 'sess-2', cwd: sub, hook_event_name: 'SessionStart', source: 'startup' }));
    const injected = JSON.parse(start.stdout).hookSpecificOutput.additionalContext as string;
    for (const f of rec.frames as Array<{ content: string }>) expect(injected).toContain(f.content.slice(0, 40));
    const stats = await json(['mind', 'stats']);
    expect(stats.minds.map((m: { mind: string }) => m.mind)).toEqual(['workspace', 'personal']);
    const status = await ok(['status']);
    expect(status).toMatch(/in view here \(.*billing-app\/src\/api\): workspace .*billing-app, personal; `hive-mind mind search\|list\|show\|recall` read these/);
    expect(status).toMatch(/folder .*billing-app \(in view here\)/);
    expect(await ok(['mind', '--help'])).toMatch(/this folder's workspace mind and the personal mind, merged/);
  });
});
