import { mkdtempSync } from 'node:fs';
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Mind } from '@hive-mind/mind';
import { postgresUnavailable } from '../../../test-support/postgres.js';
import { connectionFor, readTeamFile, syncTeam, type TeamConnection } from '../src/index.js';
import { cli, ensureBuilt, runNode, CLI_BIN, startTeamServer, type TeamServer } from './helpers.js';
import { setUpTeam, type Member } from './members.js';

const skip = postgresUnavailable();
if (skip) console.warn(`\n*** ${skip} ***\n`);

/** Save `n` team frames in a member's home without any network (the library path of `mind save --scope team`). */
function saveMany(m: Member, n: number, tag: string): string[] {
  const env = { ...process.env, HIVE_MIND_HOME: m.home };
  const conn = connectionFor(readTeamFile(env))!;
  const machine = readTeamFile(env).machine;
  const mind = Mind.open(join(m.home, 'personal.mind'));
  try {
    const t = mind.team(conn.team);
    return Array.from({ length: n }, (_, i) => t.save({ content: `${tag} frame ${i}: the ${tag} cache lives in /var/cache/${tag}/${i}`, host: 'cli' }, { member: conn.member, machine }).frameUids[0]!);
  } finally {
    mind.close();
  }
}

const envOf = (m: Member) => ({ ...process.env, HIVE_MIND_HOME: m.home });
const connOf = (m: Member) => connectionFor(readTeamFile(envOf(m)))!;

async function serverCounts(server: TeamServer, uids: string[]) {
  const c = await server.admin();
  try {
    const ev = (await c.query("SELECT frame_uid::text AS u, count(*)::int AS n FROM hive_mind.events WHERE op = 'save' AND frame_uid::text = ANY($1) GROUP BY 1", [uids])).rows as Array<{ u: string; n: number }>;
    const fr = Number((await c.query('SELECT count(*) FROM hive_mind.frames WHERE uid::text = ANY($1)', [uids])).rows[0].count);
    return { events: ev, frames: fr };
  } finally {
    await c.end();
  }
}

/** A TCP proxy to the server that can drop every connection the moment the server answers a push (the push committed, the member never hears it). */
function cuttingProxy(target: number): Promise<{ port: number; cutNextPushReply: () => void; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let armed = false;
  const srv: Server = createServer((client) => {
    const upstream = tcpConnect(target, '127.0.0.1');
    sockets.add(client).add(upstream);
    let pushSent = false;
    client.on('data', (d) => {
      if (d.includes('push_events')) pushSent = true;
      upstream.write(d);
    });
    upstream.on('data', (d) => {
      if (armed && pushSent) {
        armed = false;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(d);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  return new Promise((resolve) =>
    srv.listen(0, '127.0.0.1', () =>
      resolve({
        port: (srv.address() as { port: number }).port,
        cutNextPushReply: () => {
          armed = true;
        },
        close: () => new Promise((r) => {
          for (const s of sockets) s.destroy();
          srv.close(() => r());
        }),
      }),
    ),
  );
}

describe.skipIf(!!skip)('faults, on a real PostgreSQL server', () => {
  let server: TeamServer;
  let members: Member[];
  beforeAll(async () => {
    ensureBuilt();
    server = await startTeamServer();
    members = await setUpTeam(server, 'ops', 'op', 3);
    process.env.PGPASSFILE = server.passfile; // the in-process syncs read the same password file
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  test('server down: the outbox keeps everything, status says how many wait and why, sync resumes', async () => {
    const [a] = members;
    await server.pg.stopServer('fast');
    try {
      const saved = await cli(server, a!.home, ['mind', 'save', '--scope', 'team', 'the release branch is cut on Thursdays']);
      expect(saved.code).toBe(0); // the save never needs the server
      const sync = await cli(server, a!.home, ['team', 'sync']);
      expect(sync.code).toBe(1);
      expect(sync.stderr).toMatch(/team ops: .*(ECONNREFUSED|connect)/);
      const st = await cli(server, a!.home, ['team', 'status']);
      expect(st.stdout).toMatch(/outbox: 1 waiting to be pushed/);
      expect(st.stdout).toMatch(/1 pending: server unreachable: .*ECONNREFUSED/);
      expect(st.stdout).toMatch(/server: unreachable/);
      // the member's own agents still find it
      expect((await cli(server, a!.home, ['mind', 'search', 'release branch Thursdays'])).stdout).toMatch(/cut on Thursdays/);
    } finally {
      await server.pg.start();
    }
    const sync = await cli(server, a!.home, ['team', 'sync']);
    expect(sync.stdout).toMatch(/pushed 1,.* 0 waiting/);
    expect((await cli(server, a!.home, ['team', 'status'])).stdout).toMatch(/outbox: 0 waiting/);
  }, 120_000);

  test('the server killed in the middle of a push and restarted: nothing lost, nothing duplicated', async () => {
    const [, b] = members;
    const uids = saveMany(b!, 1500, 'crash');
    const c = await server.admin();
    const running = syncTeam(connOf(b!), { env: envOf(b!), batch: 10, deadlineMs: 120_000 });
    // wait until part of the outbox reached the server, then crash it (immediate: no clean shutdown)
    for (let i = 0; i < 2000; i++) {
      const n = Number((await c.query("SELECT count(*) FROM hive_mind.events WHERE member = $1 AND payload->>'content' LIKE 'crash frame%'", [b!.role])).rows[0].count);
      if (n >= 100) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    await c.end();
    await server.pg.stopServer('immediate');
    const first = await running;
    expect(first.error).toBeDefined();
    expect(first.complete).toBe(false);
    expect(first.outbox.pending).toBeGreaterThan(0);
    expect(first.outbox.pending).toBeLessThan(1500);
    await server.pg.start();
    const again = await syncTeam(connOf(b!), { env: envOf(b!) });
    expect(again.error).toBeUndefined();
    expect(again.outbox.pending).toBe(0);
    const counts = await serverCounts(server, uids);
    expect(counts.frames).toBe(1500);
    expect(counts.events).toHaveLength(1500);
    expect(counts.events.every((e) => e.n === 1)).toBe(true);
  }, 300_000);

  test('the network cut after the server committed a push: the retry is answered "known", nothing twice', async () => {
    const [a] = members;
    const proxy = await cuttingProxy(server.pg.port);
    try {
      const direct = connOf(a!);
      const viaProxy: TeamConnection = { ...direct, url: direct.url!.replace(`:${server.pg.port}/`, `:${proxy.port}/`) };
      const uids = saveMany(a!, 30, 'cut');
      proxy.cutNextPushReply();
      // pgpass is keyed by port: the proxy's port needs its own line
      const { appendFileSync } = await import('node:fs');
      appendFileSync(server.passfile, `127.0.0.1:${proxy.port}:*:${a!.role}:${a!.role}-pw\n`);
      const cut = await syncTeam(viaProxy, { env: envOf(a!) });
      expect(cut.error).toBeDefined();
      expect(cut.outbox.pending).toBe(30);
      const retry = await syncTeam(viaProxy, { env: envOf(a!) });
      expect(retry.error).toBeUndefined();
      expect(retry.alreadyOnServer).toBe(30);
      expect(retry.pushed).toBe(0);
      const counts = await serverCounts(server, uids);
      expect(counts.events.every((e) => e.n === 1) && counts.events.length === 30).toBe(true);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  test('a member offline for a week catches up in bounded syncs that resume where they stopped', async () => {
    const [a, , c] = members;
    // c saves a week of frames without the network while a keeps pushing
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const mind = Mind.open(join(c!.home, 'personal.mind'));
    const conn = connOf(c!);
    const machine = readTeamFile(envOf(c!)).machine;
    try {
      for (let i = 0; i < 60; i++) mind.team('ops').save({ content: `offline note ${i}: the week-old finding number ${i}`, createdAt: weekAgo }, { member: conn.member, machine });
    } finally {
      mind.close();
    }
    saveMany(a!, 120, 'online');
    expect((await syncTeam(connOf(a!), { env: envOf(a!) })).error).toBeUndefined();
    // deadline 0: each sync does one batch and stops; the next one resumes
    let rounds = 0;
    for (;;) {
      const r = await syncTeam(conn, { env: envOf(c!), batch: 25, deadlineMs: 0 });
      expect(r.error).toBeUndefined();
      rounds++;
      if (r.complete) break;
      expect(rounds).toBeLessThan(200);
    }
    expect(rounds).toBeGreaterThan(2);
    const m = Mind.open(join(c!.home, 'personal.mind'), { readonly: true });
    try {
      expect(m.search('online cache lives', { scopes: ['team'], limit: 1000 }).filter((h) => h.content.startsWith('online frame'))).toHaveLength(120);
    } finally {
      m.close();
    }
    expect((await syncTeam(connOf(a!), { env: envOf(a!) })).pulled.saved).toBeGreaterThanOrEqual(60);
  }, 300_000);

  test('team migrate racing other members: all succeed, each version applied once', async () => {
    const su = await server.admin();
    await su.query('CREATE DATABASE race OWNER hm_admin');
    await su.end();
    const home = mkdtempSync(join(tmpdir(), 'hm-race-'));
    const url = `postgresql://hm_admin@127.0.0.1:${server.pg.port}/race`;
    const runs = await Promise.all(Array.from({ length: 4 }, () => runNode(CLI_BIN, ['team', 'migrate', url, '--create-team', 'racers'], { HIVE_MIND_HOME: home, PGPASSFILE: server.passfile })));
    for (const r of runs) {
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    expect(runs.filter((r) => /v0 -> v1/.test(r.stdout))).toHaveLength(1);
    expect(runs.filter((r) => /already at v1/.test(r.stdout))).toHaveLength(3);
    const again = await runNode(CLI_BIN, ['team', 'migrate', url], { HIVE_MIND_HOME: home, PGPASSFILE: server.passfile });
    expect(again.stdout).toMatch(/already at v1/);
  }, 120_000);

  test('a frame the server rejects is kept with its reason, the others go through, and it can be retried', async () => {
    const [, b] = members;
    const su = await server.admin();
    await su.query("ALTER TABLE hive_mind.frames ADD CONSTRAINT no_internal_only CHECK (content NOT LIKE '%internal-only%')");
    try {
      for (const text of ['the public docs build with mkdocs', 'the internal-only dashboard is at /ops/secret-panel', 'the public API is versioned by date'])
        expect((await cli(server, b!.home, ['mind', 'save', '--scope', 'team', text])).code).toBe(0);
      const sync = await cli(server, b!.home, ['team', 'sync']);
      expect(sync.stdout).toMatch(/pushed 2,.*1 refused/);
      expect(sync.stdout).toMatch(/refused save .*no_internal_only/);
      const st = await cli(server, b!.home, ['team', 'status']);
      expect(st.stdout).toMatch(/1 refused by the server/);
      expect(st.stdout).toMatch(/1 rejected: the server refused it: .*no_internal_only/);
      // a later sync does not resend it, and does not lose it
      expect((await cli(server, b!.home, ['team', 'sync'])).stdout).toMatch(/pushed 0,.*1 refused/);
    } finally {
      await su.query('ALTER TABLE hive_mind.frames DROP CONSTRAINT no_internal_only');
      await su.end();
    }
    expect((await cli(server, b!.home, ['team', 'sync', '--retry-rejected'])).stdout).toMatch(/pushed 1,.*0 waiting, 0 refused/);
  }, 120_000);
});
