import { execFile } from 'node:child_process';
import { existsSync, realpathSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { postgresUnavailable } from '../../../test-support/postgres.js';
import { CLI_BIN, cli, ensureBuilt, startTeamServer, type TeamServer } from './helpers.js';
import { setUpTeam, type Member } from './members.js';

const skip = postgresUnavailable();
if (skip) console.warn(`\n*** ${skip} ***\n`);

/** Run the real hook as Claude Code does: `hive-mind hook claude-code EVENT`, payload on stdin. */
function hook(server: TeamServer, home: string, event: string, extra: Record<string, unknown> = {}, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const p = execFile(process.execPath, [CLI_BIN, 'hook', 'claude-code', event], { env: { ...process.env, HIVE_MIND_HOME: home, HOME: home, PGPASSFILE: server.passfile, ...env } }, (err, stdout) =>
      resolve({ code: err ? 1 : 0, stdout: String(stdout) }),
    );
    p.stdin!.end(JSON.stringify({ session_id: 's-start', transcript_path: join(home, 't.jsonl'), cwd: home, hook_event_name: event, source: 'startup', ...extra }));
  });
}
const sessionStart = (server: TeamServer, home: string) => hook(server, home, 'SessionStart');

async function waitFor(cond: () => boolean, ms = 60_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cond();
}

describe.skipIf(!!skip)('SessionStart and the team cache', () => {
  let server: TeamServer;
  let members: Member[];
  beforeAll(async () => {
    ensureBuilt();
    server = await startTeamServer();
    members = await setUpTeam(server, 'hooked', 'hk', 2);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  test('a stale cache starts a detached background sync; the hook returns its recall without it; a fresh cache starts none', async () => {
    const [a, b] = members;
    expect((await cli(server, a!.home, ['mind', 'save', '--scope', 'team', '--importance', 'important', 'the generated API client in src/gen is never edited by hand'])).code).toBe(0);
    expect((await cli(server, a!.home, ['team', 'sync'])).code).toBe(0);
    const stamp = join(b!.home, 'team', 'synced');
    const started = join(b!.home, 'team', 'sync-started');
    expect(existsSync(stamp)).toBe(false);
    // b never synced: this session gets what b has (nothing of the team yet), and a sync starts behind it
    const first = await sessionStart(server, b!.home);
    expect(first.code).toBe(0);
    expect(first.stdout).not.toMatch(/generated API client/);
    expect(existsSync(started)).toBe(true);
    expect(await waitFor(() => existsSync(stamp))).toBe(true);
    // the next session is given the team's frame, labelled with who said it
    const second = await sessionStart(server, b!.home);
    expect(second.stdout).toMatch(/team hooked, hk0@[^ ]+ via cli · [0-9-]+\] the generated API client in src\/gen is never edited by hand/);
    // the block holding it is headed as team memory, never as personal memory
    const context = (JSON.parse(second.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    const block = context.split(/\n(?=## hive-mind )/).find((s) => s.includes('the generated API client in src/gen'))!;
    expect(block.split('\n')[0]).toMatch(/^## hive-mind memory \((personal and )?team\)(: [a-z ]+)?$/);
    expect(context).not.toMatch(/^## hive-mind memory \(personal\)(: [a-z ]+)?$/m);
    // fresh cache: no new background sync
    const mark = statSync(started).mtimeMs;
    await sessionStart(server, b!.home);
    expect(statSync(started).mtimeMs).toBe(mark);
  }, 120_000);

  test('captures of the kinds the user shares (HIVE_MIND_TEAM_KINDS) go to the team outbox, the others stay personal', async () => {
    const [a, b] = members;
    const prompt = 'From now on, run the integration tests with --runInBand. Also remember that my editor font is Iosevka';
    const r = await hook(server, a!.home, 'UserPromptSubmit', { prompt, prompt_id: 'p1' }, { HIVE_MIND_TEAM_KINDS: 'decision,instruction' });
    expect(r.code).toBe(0);
    const st = JSON.parse((await cli(server, a!.home, ['team', 'status', '--json', '--offline'])).stdout);
    expect(st.outbox.pending).toBe(1);
    expect((await cli(server, a!.home, ['team', 'sync'])).code).toBe(0);
    expect((await cli(server, b!.home, ['team', 'sync'])).code).toBe(0);
    const found = await cli(server, b!.home, ['team', 'search', 'integration tests runInBand']);
    expect(found.stdout).toMatch(/run the integration tests with --runInBand/i);
    expect((await cli(server, b!.home, ['mind', 'search', 'editor font Iosevka'])).stdout).toBe('no results\n');
    // the fact stays in a's own workspace mind (the prompt's cwd), as any capture does
    expect((await cli(server, a!.home, ['mind', '--workspace', realpathSync(a!.home), 'search', 'editor font Iosevka'])).stdout).toMatch(/Iosevka/);
  }, 120_000);

  test('with the server down, the hook still answers from the cache and tries the server once per age window', async () => {
    const [, b] = members;
    const stamp = join(b!.home, 'team', 'synced');
    const started = join(b!.home, 'team', 'sync-started');
    const old = new Date(Date.now() - 3600_000);
    utimesSync(stamp, old, old);
    utimesSync(started, old, old);
    await server.pg.stopServer('fast');
    try {
      const r = await sessionStart(server, b!.home);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/the generated API client in src\/gen is never edited by hand/);
      const tried = statSync(started).mtimeMs;
      expect(tried).toBeGreaterThan(old.getTime());
      // the background sync fails (server down) and leaves the stamp old; the next session does not retry yet
      await new Promise((r2) => setTimeout(r2, 1500));
      await sessionStart(server, b!.home);
      expect(statSync(started).mtimeMs).toBe(tried);
      expect(statSync(stamp).mtimeMs).toBeLessThan(old.getTime() + 1000); // never touched by the failed sync
    } finally {
      await server.pg.start();
    }
  }, 120_000);
});
