import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { postgresUnavailable } from '../../../test-support/postgres.js';
import { cli, ensureBuilt, startTeamServer, type TeamServer } from './helpers.js';
import { setUpTeam, type Member } from './members.js';

const skip = postgresUnavailable();
if (skip) console.warn(`\n*** ${skip} ***\n`);

describe.skipIf(!!skip)('one team cannot read another team\'s frames (enforced by the server)', () => {
  let server: TeamServer;
  let alpha: Member[];
  let beta: Member[];
  const SECRET_PLAN = 'alpha plans to migrate the billing service to /srv/billing-v2 in March';
  beforeAll(async () => {
    ensureBuilt();
    server = await startTeamServer();
    alpha = await setUpTeam(server, 'alpha', 'al', 1);
    beta = await setUpTeam(server, 'beta', 'be', 1);
    expect((await cli(server, alpha[0]!.home, ['mind', 'save', '--scope', 'team', SECRET_PLAN])).code).toBe(0);
    expect((await cli(server, alpha[0]!.home, ['team', 'sync'])).code).toBe(0);
    expect((await cli(server, beta[0]!.home, ['mind', 'save', '--scope', 'team', 'beta keeps its runbooks in /docs/runbooks'])).code).toBe(0);
    expect((await cli(server, beta[0]!.home, ['team', 'sync'])).code).toBe(0);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  test("a beta member's sync and team search never see alpha's frames", async () => {
    const b = beta[0]!;
    expect((await cli(server, b.home, ['team', 'sync'])).code).toBe(0);
    expect((await cli(server, b.home, ['mind', 'search', 'billing service migrate'])).stdout).toBe('no results\n');
    expect((await cli(server, b.home, ['team', 'search', 'billing /srv/billing-v2'])).stdout).toBe('no results\n');
    expect((await cli(server, b.home, ['team', 'search', 'runbooks'])).stdout).toMatch(/beta keeps its runbooks/);
    // and alpha's member finds its own, by words and by path (trigram)
    expect((await cli(server, alpha[0]!.home, ['team', 'search', '/srv/billing-v2'])).stdout).toMatch(/alpha plans to migrate/);
  }, 60_000);

  test("hand-written SQL under a beta member's own role: alpha's rows are invisible, and cannot be written", async () => {
    const c = await server.as(beta[0]!.role);
    try {
      expect(Number((await c.query('SELECT count(*) FROM hive_mind.frames')).rows[0].count)).toBe(1);
      expect((await c.query("SELECT * FROM hive_mind.frames WHERE team = 'alpha' OR content LIKE '%billing%'")).rows).toEqual([]);
      expect((await c.query("SELECT * FROM hive_mind.events WHERE team = 'alpha'")).rows).toEqual([]);
      expect((await c.query("UPDATE hive_mind.frames SET content = 'defaced' WHERE team = 'alpha'")).rowCount).toBe(0);
      await expect(c.query("DELETE FROM hive_mind.events WHERE team = 'alpha'")).rejects.toThrow(/permission denied for table events/);
      await expect(
        c.query(
          "INSERT INTO hive_mind.frames (uid, team, seq, content, kind, importance, source, member, machine, created_at) VALUES (gen_random_uuid(), 'alpha', 1, 'planted', 'fact', 'normal', 'user_stated', 'x', 'y', now())",
        ),
      ).rejects.toThrow(/row-level security/);
      await expect(c.query("SELECT * FROM hive_mind.search('alpha', ARRAY['billing'], '{}', 10)")).rejects.toThrow(/not a member of team alpha/);
      await expect(c.query('SET ROLE alpha')).rejects.toThrow(/permission denied/);
      // a push into alpha through the server function: refused per event, nothing stored
      const r = await c.query(
        `SELECT * FROM hive_mind.push_events('alpha', 'm', '[{"eventUid": "7d3c1b4a-0000-4000-8000-000000000001", "op": "save", "frameUid": "7d3c1b4a-0000-4000-8000-000000000002", "payload": {"content": "planted", "kind": "fact", "importance": "normal", "source": "user_stated", "createdAt": "2026-12-01T00:00:00Z"}}]'::jsonb)`,
      );
      expect(r.rows[0]).toMatchObject({ status: 'rejected' });
      expect(r.rows[0].reason).toMatch(/row-level security/);
    } finally {
      await c.end();
    }
    const su = await server.admin();
    try {
      expect((await su.query("SELECT content FROM hive_mind.frames WHERE team = 'alpha'")).rows).toEqual([{ content: SECRET_PLAN }]);
    } finally {
      await su.end();
    }
  }, 60_000);

  test('a role in no team: its pushes are refused and stay in its outbox with the reason', async () => {
    await server.addRoles('loner');
    const home = `${server.dir}/home-loner`;
    const c = await cli(server, home, ['team', 'connect', server.url('loner'), '--name', 'alpha']);
    expect(c.stdout).toMatch(/note: the server refused loner: permission denied for schema hive_mind/);
    expect((await cli(server, home, ['mind', 'save', '--scope', 'team', 'loner says hello'])).code).toBe(0);
    const s = await cli(server, home, ['team', 'sync']);
    expect(s.code).toBe(1);
    expect(s.stderr).toMatch(/permission denied for schema hive_mind .*--create-team alpha --member loner/);
    expect((await cli(server, home, ['team', 'status'])).stdout).toMatch(/outbox: 1 waiting to be pushed.*\n  1 pending: server error: .*permission denied/);
  }, 60_000);
});
