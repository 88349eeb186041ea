import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { postgresUnavailable } from '../../../test-support/postgres.js';
import { cli, ensureBuilt, startTeamServer, type TeamServer } from './helpers.js';
import { expectConverged, runMembers, setUpTeam, type Member } from './members.js';

const skip = postgresUnavailable();
if (skip) console.warn(`\n*** ${skip} ***\n`);

describe.skipIf(!!skip)('eight members on a real PostgreSQL server', () => {
  let server: TeamServer;
  let members: Member[];
  beforeAll(async () => {
    ensureBuilt();
    server = await startTeamServer();
    members = await setUpTeam(server, 'octo', 'crew', 8);
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  test('eight processes save, sync, forget and supersede at once: every frame once on every member, provenance intact', async () => {
    // every member supersedes the first frame of the next member, which it pulled in its first sync
    const SAVES = 12;
    const results = await runMembers(server, members, (_m, i) => ({
      tag: 'eight',
      saves: SAVES,
      syncEvery: 4,
      forgetOwnFirst: true,
      waitSyncs: 40,
      supersede: [{ content: `member ${members[(i + 1) % 8]!.role} fact 1 corrected by ${members[i]!.role}`, of: `eight member ${members[(i + 1) % 8]!.role} fact 1: the build of service-${members[(i + 1) % 8]!.role}-1 runs on port 4001` }],
    }));
    const superseded = results.flatMap((r) => r.superseded);
    for (const r of results) expect(r.errors).toEqual([]);
    expect(superseded).toHaveLength(8);
    for (let round = 0; round < 2; round++) for (const m of members) expect((await cli(server, m.home, ['team', 'sync'])).code).toBe(0);
    const frames = await expectConverged(server, 'octo', members);
    expect(frames).toHaveLength(8 * SAVES - 8 + superseded.length);
    for (const [i, r] of results.entries()) {
      for (const uid of r.forgot) expect(frames.find((f) => f.uid === uid)).toBeUndefined();
      for (const s of r.saved.slice(1)) expect(frames.find((f) => f.uid === s.uid)).toMatchObject({ content: s.content, member: members[i]!.role, host: 'cli', sessionId: `s-${members[i]!.role}` });
      for (const s of r.superseded) {
        expect(frames.find((f) => f.uid === s.uid)).toMatchObject({ live: true, member: members[i]!.role });
        expect(frames.find((f) => f.uid === s.of)).toMatchObject({ live: false });
      }
    }
    // the machine is each home's own id, the same on the server and in every member's cache
    const machines = new Set(frames.map((f) => f.machine));
    expect(machines.size).toBe(8);
  }, 600_000);
});
