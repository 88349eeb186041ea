import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { postgresUnavailable } from '../../../test-support/postgres.js';
import { cli, ensureBuilt, startTeamServer, type TeamServer } from './helpers.js';
import { expectConverged, runMembers, setUpTeam, type Member } from './members.js';

const skip = postgresUnavailable();
if (skip) console.warn(`\n*** ${skip} ***\n`);

describe.skipIf(!!skip)('two members on a real PostgreSQL server', () => {
  let server: TeamServer;
  let members: Member[];
  beforeAll(async () => {
    ensureBuilt();
    server = await startTeamServer();
    members = await setUpTeam(server, 'alpha', 'mate', 2);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  test('saving, syncing, forgetting and superseding at once: every frame once on both members, with provenance', async () => {
    // a frame both members will supersede concurrently
    const seed = await cli(server, members[0]!.home, ['mind', 'save', '--scope', 'team', 'the staging database lives on db1.internal:5432']);
    expect(seed.stdout).toMatch(/queued for the server/);
    expect((await cli(server, members[0]!.home, ['team', 'sync'])).code).toBe(0);
    const results = await runMembers(server, members, (_m, i) => ({
      tag: 'two',
      saves: 30,
      syncEvery: 7,
      forgetOwnFirst: true,
      supersede: [{ content: `the staging database moved to db2.internal:5433 (said by member ${i})`, of: 'the staging database lives on db1.internal:5432' }],
    }));
    for (const r of results) expect(r.errors).toEqual([]);
    // two more rounds so each member sees the other's last events
    for (let round = 0; round < 2; round++) for (const m of members) expect((await cli(server, m.home, ['team', 'sync'])).code).toBe(0);
    const frames = await expectConverged(server, 'alpha', members);
    // 1 seed + 2 x 30 saves - 2 forgotten + 2 versions of the seed
    expect(frames).toHaveLength(1 + 60 - 2 + 2);
    for (const r of results) {
      for (const uid of r.forgot) expect(frames.find((f) => f.uid === uid)).toBeUndefined();
      for (const s of r.saved.slice(1)) expect(frames.find((f) => f.uid === s.uid)).toMatchObject({ content: s.content, live: true, host: 'cli' });
    }
    // provenance: the member is the server's login role of whoever saved it
    for (const [i, r] of results.entries()) for (const s of r.saved.slice(1)) expect(frames.find((f) => f.uid === s.uid)!.member).toBe(members[i]!.role);
    // the concurrent supersedes of one frame: one live head everywhere, the later one on the server
    const versions = frames.filter((f) => f.content.startsWith('the staging database'));
    expect(versions).toHaveLength(3);
    expect(versions.filter((f) => f.live)).toHaveLength(1);
    const c = await server.admin();
    const last = (await c.query("SELECT content FROM hive_mind.frames WHERE team = 'alpha' AND content LIKE 'the staging database moved%' ORDER BY seq DESC LIMIT 1")).rows[0].content;
    await c.end();
    expect(versions.find((f) => f.live)!.content).toBe(last);
    // status: nothing waits
    const st = await cli(server, members[1]!.home, ['team', 'status', '--json']);
    const s = JSON.parse(st.stdout);
    expect(s.outbox).toMatchObject({ pending: 0, rejected: 0, held: 0 });
    expect(s.server).toMatchObject({ reachable: true, toPull: 0, member: members[1]!.role });
  }, 300_000);
});
