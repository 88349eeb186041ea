import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { expect } from 'vitest';
import { Mind } from '@hive-mind/mind';
import { MEMBER_SCRIPT, cli, runNode, type TeamServer } from './helpers.js';

/** Shared steps of the multi-member tests: homes, connecting, and comparing every member with the server. */

export interface Member {
  role: string;
  home: string;
}

/** Make `n` members (roles `<prefix>0..n-1`, separate homes), migrate, create `team` for them, and connect each with the real CLI. */
export async function setUpTeam(server: TeamServer, team: string, prefix: string, n: number): Promise<Member[]> {
  const roles = Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  await server.addRoles(...roles);
  const adminHome = mkdtempSync(join(tmpdir(), 'hm-admin-'));
  const mig = await cli(server, adminHome, ['team', 'migrate', server.url('hm_admin'), '--create-team', team, '--member', ...roles]);
  expect(mig.stderr).toBe('');
  expect(mig.code).toBe(0);
  const members = roles.map((role) => ({ role, home: join(server.dir, `home-${role}`) }));
  await Promise.all(
    members.map(async (m) => {
      const r = await cli(server, m.home, ['team', 'connect', server.url(m.role)]);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain(`to team ${team} as ${m.role}`);
    }),
  );
  return members;
}

/** Run the member script in each home at once (one process each). */
export async function runMembers(server: TeamServer, members: Member[], plan: (m: Member, i: number) => Record<string, unknown>) {
  const results = await Promise.all(members.map((m, i) => runNode(MEMBER_SCRIPT, [JSON.stringify({ member: m.role, ...plan(m, i) })], { HIVE_MIND_HOME: m.home, PGPASSFILE: server.passfile, HOME: m.home })));
  return results.map((r, i) => {
    expect(r.stderr, `member ${members[i]!.role}`).toBe('');
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout.trim().split('\n').pop()!) as {
      saved: Array<{ uid: string; content: string }>;
      superseded: Array<{ uid: string; of: string; content: string }>;
      forgot: string[];
      errors: string[];
    };
  });
}

export interface FrameView {
  uid: string;
  content: string;
  live: boolean;
  member: string;
  machine: string;
  host: string;
  sessionId: string;
}

/** The team frames of one home, by stable id. */
function localFrames(home: string): FrameView[] {
  const m = Mind.open(join(home, 'personal.mind'), { readonly: true });
  try {
    return (
      m.database
        .prepare(
          `SELECT t.frame_uid AS uid, f.content, f.superseded_by IS NULL AS live, t.member, t.machine, t.host, t.session_id AS sessionId
           FROM frames f JOIN team_frames t ON t.frame_id = f.id WHERE f.scope = 'team' ORDER BY t.frame_uid`,
        )
        .all() as Array<Omit<FrameView, 'live'> & { live: number }>
    ).map((r) => ({ ...r, live: !!r.live }));
  } finally {
    m.close();
  }
}

/** The team's frames on the server (as the superuser), by stable id. */
async function serverFrames(server: TeamServer, team: string): Promise<FrameView[]> {
  const c = await server.admin();
  try {
    const rows = (
      await c.query(
        'SELECT uid::text AS uid, content, superseded_by IS NULL AS live, member, machine, host, session_id AS "sessionId" FROM hive_mind.frames WHERE team = $1 ORDER BY uid::text',
        [team],
      )
    ).rows;
    return rows as FrameView[];
  } finally {
    await c.end();
  }
}

/** Every member holds exactly the server's frames: each once, same live/superseded state, same provenance. */
export async function expectConverged(server: TeamServer, team: string, members: Member[]): Promise<FrameView[]> {
  const onServer = await serverFrames(server, team);
  for (const m of members) {
    const local = localFrames(m.home);
    expect(local.map((f) => f.uid), `stable ids of ${m.role}`).toEqual(onServer.map((f) => f.uid));
    expect(local, `frames of ${m.role}`).toEqual(onServer);
    const liveContents = local.filter((f) => f.live).map((f) => f.content);
    expect(new Set(liveContents).size, `no duplicate live frames in ${m.role}`).toBe(liveContents.length);
  }
  return onServer;
}
