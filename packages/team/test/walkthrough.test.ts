import { execFile } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { postgresUnavailable } from '../../../test-support/postgres.js';
import { REPO_DIR, cli, ensureBuilt, startTeamServer, type TeamServer } from './helpers.js';

const skip = postgresUnavailable();
if (skip) console.warn(`\n*** ${skip} ***\n`);

const README = join(REPO_DIR, 'packages', 'mind', 'README.md');
const MARKER = '<!-- team walkthrough: run line by line by packages/team/test/walkthrough.test.ts -->';

/** The commands of the README's walkthrough block, as written. */
function walkthrough(): string[] {
  const text = readFileSync(README, 'utf8');
  const at = text.indexOf(MARKER);
  expect(at, `${README} has the walkthrough marker`).toBeGreaterThan(0);
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(at))![1]!;
  return block.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
}

/** Run Debian's `psql` with the test server's PGPASSFILE (the owner's password), quietly. */
function psql(server: TeamServer, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('psql', ['--no-psqlrc', '-v', 'ON_ERROR_STOP=1', ...args], { env: { ...process.env, PGPASSFILE: server.passfile, PGPASSWORD: '' }, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

/** Split a command line into words (double quotes group; no other shell syntax is used in the README). */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2]!);
  return out;
}

describe.skipIf(!!skip)('the README walkthrough', () => {
  let server: TeamServer;
  beforeAll(async () => {
    ensureBuilt();
    // the walkthrough creates the members' roles itself (its psql lines)
    server = await startTeamServer();
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  test('two homes on one machine share a fact through the server with team sync', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hm-walk-'));
    const outputs: string[] = [];
    for (const line of walkthrough()) {
      const w = words(line.replaceAll('db.example:5432', `127.0.0.1:${server.pg.port}`));
      let home = join(root, 'owner');
      if (w[0]!.startsWith('HIVE_MIND_HOME=')) home = join(root, w.shift()!.slice('HIVE_MIND_HOME=~/'.length));
      const program = w.shift();
      if (program === 'psql') {
        const r = await psql(server, w);
        expect(r.stderr, line).toBe('');
        expect(r.code, line).toBe(0);
        // the member keeps the password the owner gave in ~/.pgpass (here: the test's PGPASSFILE)
        const role = /CREATE ROLE (\w+) LOGIN PASSWORD '([^']+)'/.exec(line);
        if (role) appendFileSync(server.passfile, `127.0.0.1:${server.pg.port}:team:${role[1]}:${role[2]}\n`);
        outputs.push(`$ ${line}\n${r.stdout}`);
        continue;
      }
      expect(program).toBe('hive-mind');
      const r = await cli(server, home, w);
      expect(r.stderr, line).toBe('');
      expect(r.code, line).toBe(0);
      outputs.push(`$ ${line}\n${r.stdout}`);
    }
    if (process.env.HIVE_MIND_PRINT_WALKTHROUGH) console.log(outputs.join('\n'));
    const search = outputs.find((o) => o.includes('mind search runInBand'))!;
    expect(search).toMatch(/integration tests must run with --runInBand/);
    const status = outputs.at(-1)!;
    expect(status).toMatch(/outbox: 0 waiting to be pushed/);
    expect(status).toMatch(/server: reachable as bob/);
    // what bob's next session is given: the team frame, labelled with who said it
    const recall = await cli(server, join(root, 'bob'), ['mind', 'recall']);
    expect(recall.stdout).toMatch(/team alpha, alice@[^ ]+ via cli · .*integration tests must run with --runInBand/);
    if (process.env.HIVE_MIND_PRINT_WALKTHROUGH) console.log(recall.stdout);
    // --member grants an existing role; a role nobody created is named
    const missing = await cli(server, join(root, 'owner'), ['team', 'migrate', server.url('hm_admin'), '--create-team', 'beta', '--member', 'carol']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/carol/);
    if (process.env.HIVE_MIND_PRINT_WALKTHROUGH) console.log(missing.stderr);
  }, 180_000);
});
