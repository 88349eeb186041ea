#!/usr/bin/env node
// Benchmark of the team mind (packages/team) on a real PostgreSQL server, printed, never asserted.
//
// 1. Push and pull throughput (frames/s): `pushOutbox` of FRAMES frames from one member's outbox
//    (batches of 200 through hive_mind.push_events: the event log, the frames row with its tsvector
//    and trigram indexes, row-level security, the per-team lock), then `pullEvents` of the same
//    frames into a second member's .mind (each applied through the mind's write path: redaction,
//    threat scan, dedupe, FTS5). Baselines in the same run, same server, same rows: a plain
//    `INSERT ... ON CONFLICT DO NOTHING` (multi-row, 200 per statement) into a table with the same
//    columns and indexes; for the pull, the bare `SELECT` pages of the same events, and those pages
//    written into SQLite with a plain better-sqlite3 INSERT, and the same frames saved with Mind.save
//    (the local write path alone, no network).
// 2. Team search p50/p95 at SEARCH_FRAMES frames (default 1,000,000, generated on the server from
//    words of the shared transcripts): hive_mind.search as a member, against the raw tsvector query
//    (same OR-ed tsquery, ts_rank_cd, LIMIT 10) as the owner, without RLS; plus a path lookup
//    (trigram) query.
// 3. The SessionStart hook (`hive-mind hook claude-code SessionStart`, whole process) with a team
//    cache (CACHE team frames pulled into the personal mind, a team connection, a fresh sync stamp)
//    against the same home without the team; and with a stale stamp (the hook starts the detached sync).
//
// Needs a build and Debian's postgresql (PG_BIN, default /usr/lib/postgresql/15/bin).
// Usage: node bench/team.mjs [--frames 20000] [--search-frames 1000000] [--queries 60] [--cache 5000] [--runs 15]
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { arg, cli, importTs, loadVocab, percentile, root } from './lib.mjs';

const FRAMES = arg('--frames', 20_000);
const SEARCH_FRAMES = arg('--search-frames', 1_000_000);
const QUERIES = arg('--queries', 60);
const CACHE = arg('--cache', 5_000);
const RUNS = arg('--runs', 15);

const { startPostgres, postgresUnavailable } = await importTs(join(root, 'test-support/postgres.ts'));
const why = postgresUnavailable();
if (why) {
  console.log(why);
  process.exit(0);
}
const { Mind } = await import(pathToFileURL(join(root, 'packages/mind/dist/index.js')).href);
const team = await import(pathToFileURL(join(root, 'packages/team/dist/index.js')).href);
const req = createRequire(join(root, 'packages/team/package.json'));
const pg = req('pg');
const Database = createRequire(join(root, 'packages/mind/package.json'))('better-sqlite3');

const tmp = mkdtempSync(join(tmpdir(), 'hm-bench-team-'));
const cluster = await startPostgres({ settings: { shared_buffers: '256MB', maintenance_work_mem: '256MB', work_mem: '16MB' } });
const passfile = join(tmp, 'pgpass');
writeFileSync(passfile, '', { mode: 0o600 });
process.env.PGPASSFILE = passfile;
const su = async (database = 'postgres') => {
  const c = new pg.Client({ ...cluster.admin, database });
  c.on('error', () => undefined); // a client left open when the server stops
  await c.connect();
  return c;
};
const fmt = (x, d = 1) => x.toFixed(d);

try {
  // ---- server: database, schema, team, two members
  {
    const c = await su();
    await c.query("CREATE ROLE hm_admin LOGIN CREATEROLE PASSWORD 'a'");
    await c.query('CREATE DATABASE team OWNER hm_admin');
    for (const r of ['m0', 'm1']) await c.query(`CREATE ROLE ${r} LOGIN PASSWORD 'p-${r}'`);
    await c.end();
    appendFileSync(passfile, ['hm_admin:a', 'm0:p-m0', 'm1:p-m1'].map((x) => `127.0.0.1:${cluster.port}:*:${x}`).join('\n') + '\n');
    const a = new pg.Client({ host: '127.0.0.1', port: cluster.port, user: 'hm_admin', password: 'a', database: 'team' });
    await a.connect();
    await team.migrateServer(a);
    await team.createTeam(a, 'bench', ['m0', 'm1']);
    await a.end();
  }
  const home = (name) => {
    const h = join(tmp, name);
    const env = { ...process.env, HIVE_MIND_HOME: h, HOME: h };
    team.addConnection({ team: 'bench', url: `postgresql://${name}@127.0.0.1:${cluster.port}/team`, member: name }, env);
    return env;
  };
  const env0 = home('m0');
  const env1 = home('m1');
  const conn0 = team.connectionFor(team.readTeamFile(env0));
  const conn1 = team.connectionFor(team.readTeamFile(env1));

  // ---- 1. push / pull throughput
  // distinct sentences of transcript words (Zipf-like), so the mind's near-duplicate check sees realistic text
  const { words: vocab, source: vocabSource } = loadVocab();
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const texts = Array.from({ length: FRAMES }, (_, i) => `${Array.from({ length: 12 }, () => vocab[Math.floor(vocab.length * rnd() ** 3)]).join(' ')} (decision ${i}, config/${i % 97}.toml)`);
  const text = (i) => texts[i];
  {
    const m = Mind.open(join(env0.HIVE_MIND_HOME, 'personal.mind'));
    const t = m.team('bench');
    const machine = team.readTeamFile(env0).machine;
    m.database.transaction(() => {
      for (let i = 0; i < FRAMES; i++) t.save({ content: text(i), kind: 'decision', host: 'bench', sessionId: `s${i % 50}` }, { member: 'm0', machine });
    })();
    const client = await team.connect(conn0, env0);
    const t0 = performance.now();
    const pushed = await team.pushOutbox(client, t, machine);
    const pushMs = performance.now() - t0;
    await client.end();
    m.close();

    // baseline: the same rows, plain INSERT ... ON CONFLICT, same columns and indexes, 200 per statement
    const a = await su('team');
    await a.query('CREATE TABLE plain_frames (LIKE hive_mind.frames INCLUDING DEFAULTS INCLUDING GENERATED)');
    await a.query('ALTER TABLE plain_frames ADD PRIMARY KEY (uid)');
    await a.query('CREATE INDEX ON plain_frames USING gin (tsv)');
    await a.query('CREATE INDEX ON plain_frames USING gin (content public.gin_trgm_ops)');
    const rows = (await a.query("SELECT uid, team, seq, content, kind, importance, source, member, machine, host, session_id, created_at FROM hive_mind.frames WHERE team = 'bench' ORDER BY seq")).rows;
    const b0 = performance.now();
    for (let i = 0; i < rows.length; i += 200) {
      const page = rows.slice(i, i + 200);
      const cols = ['uid', 'team', 'seq', 'content', 'kind', 'importance', 'source', 'member', 'machine', 'host', 'session_id', 'created_at'];
      const params = page.flatMap((r) => cols.map((c) => r[c]));
      const values = page.map((_, j) => `(${cols.map((__, k) => `$${j * cols.length + k + 1}`).join(', ')})`).join(', ');
      await a.query(`INSERT INTO plain_frames (${cols.join(', ')}) VALUES ${values} ON CONFLICT (uid) DO NOTHING`, params);
    }
    const plainMs = performance.now() - b0;

    // pull into m1 (every frame through the mind's write path)
    const m1 = Mind.open(join(env1.HIVE_MIND_HOME, 'personal.mind'));
    const t1 = m1.team('bench');
    const c1 = await team.connect(conn1, env1);
    const p0 = performance.now();
    const pulled = await team.pullEvents(c1, t1);
    const pullMs = performance.now() - p0;
    // baselines: the bare pages, and the pages into a plain SQLite table
    const r0 = performance.now();
    let got = 0;
    for (let cur = 0; ; ) {
      const page = (await c1.query('SELECT seq, event_uid, op, frame_uid, member, machine, payload FROM hive_mind.events WHERE team = $1 AND seq > $2 ORDER BY seq LIMIT 200', ['bench', cur])).rows;
      if (!page.length) break;
      got += page.length;
      cur = Number(page[page.length - 1].seq);
    }
    const selectMs = performance.now() - r0;
    const raw = new Database(join(tmp, 'raw.sqlite'));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    raw.exec('CREATE TABLE f (uid TEXT PRIMARY KEY, content TEXT, member TEXT, machine TEXT, seq INTEGER)');
    const ins = raw.prepare('INSERT OR IGNORE INTO f VALUES (?, ?, ?, ?, ?)');
    const s0 = performance.now();
    for (let cur = 0; ; ) {
      const page = (await c1.query('SELECT seq, frame_uid, member, machine, payload FROM hive_mind.events WHERE team = $1 AND seq > $2 ORDER BY seq LIMIT 200', ['bench', cur])).rows;
      if (!page.length) break;
      raw.transaction(() => {
        for (const e of page) ins.run(e.frame_uid, e.payload.content, e.member, e.machine, Number(e.seq));
      })();
      cur = Number(page[page.length - 1].seq);
    }
    const sqliteMs = performance.now() - s0;
    raw.close();
    // and the same frames saved locally through Mind.save (the write path a pull runs for each frame)
    const local = Mind.open(join(tmp, 'local.mind'));
    const l0 = performance.now();
    local.database.transaction(() => {
      for (let i = 0; i < FRAMES; i++) local.save({ content: text(i), kind: 'decision', host: 'bench', sessionId: `s${i % 50}`, scope: 'team' });
    })();
    const localMs = performance.now() - l0;
    local.close();
    await c1.end();
    m1.close();
    await a.end();
    const rate = (n, ms) => `${Math.round((n / ms) * 1000).toLocaleString('en-US')} frames/s`;
    console.log(`1. push / pull of ${FRAMES.toLocaleString('en-US')} frames (batches of 200)`);
    console.log(`   push (pushOutbox: events + frames + RLS + lock)   ${rate(pushed.pushed, pushMs).padStart(16)}  (${fmt(pushMs / 1000, 2)} s)`);
    console.log(`   plain INSERT ... ON CONFLICT, same rows/indexes    ${rate(rows.length, plainMs).padStart(16)}  (${fmt(pushMs / plainMs, 2)}x the time)`);
    console.log(`   pull (pullEvents: pages + mind write path)         ${rate(pulled.saved + pulled.duplicates, pullMs).padStart(16)}  (${pulled.saved} saved, ${pulled.duplicates} duplicates)`);
    console.log(`   bare SELECT pages of the same events               ${rate(got, selectMs).padStart(16)}  (pull ${fmt(pullMs / selectMs, 1)}x the time)`);
    console.log(`   SELECT pages + plain SQLite INSERT                 ${rate(got, sqliteMs).padStart(16)}  (pull ${fmt(pullMs / sqliteMs, 1)}x the time)`);
    console.log(`   the same frames through Mind.save, no network      ${rate(FRAMES, localMs).padStart(16)}  (pull ${fmt(pullMs / localMs, 2)}x the time)`);
  }

  // ---- 2. team search at SEARCH_FRAMES frames
  {
    const a = await su('team');
    const t0 = performance.now();
    // generated on the server: 10-16 words per frame, Zipf-like (rank ~ u^3), a path in one frame of 20
    await a.query('DROP INDEX hive_mind.frames_tsv, hive_mind.frames_trgm');
    const n = vocab.length;
    const CHUNK = 100_000;
    for (let done = 0; done < SEARCH_FRAMES; done += CHUNK) {
      await a.query(
        `INSERT INTO hive_mind.frames (uid, team, seq, content, kind, importance, source, member, machine, created_at)
         SELECT gen_random_uuid(), 'bench', 1000000 + g,
                (SELECT string_agg(($3::text[])[1 + floor(${n} * power(random(), 3))::int], ' ') FROM generate_series(1, 10 + (g % 7)))
                  || CASE WHEN g % 20 = 0 THEN ' see src/mod' || (g % 5000) || '/handler_' || (g % 977) || '.ts' ELSE '' END,
                'fact', 'normal', 'user_stated', 'm0', 'bench-gen', now() - (g % 1000) * interval '1 hour'
         FROM generate_series($1::int, $2::int) g`,
        [done + 1, Math.min(SEARCH_FRAMES, done + CHUNK), vocab],
      );
    }
    const loadMs = performance.now() - t0;
    const i0 = performance.now();
    await a.query('CREATE INDEX frames_tsv ON hive_mind.frames USING gin (tsv)');
    await a.query('CREATE INDEX frames_trgm ON hive_mind.frames USING gin (content public.gin_trgm_ops)');
    await a.query('ANALYZE hive_mind.frames');
    const indexMs = performance.now() - i0;
    const total = Number((await a.query("SELECT count(*) FROM hive_mind.frames WHERE team = 'bench'")).rows[0].count);
    // queries: two or three words of the middle of the vocabulary (frequent enough to match, rare enough to rank)
    const mid = vocab.slice(50, 3000);
    const queries = Array.from({ length: QUERIES }, () => Array.from({ length: 2 + Math.floor(rnd() * 2) }, () => mid[Math.floor(rnd() * mid.length)]));
    const member = await team.connect(conn0, env0);
    const ours = [];
    const rawT = [];
    const paths = [];
    for (const words of queries) {
      let s = performance.now();
      await member.query('SELECT * FROM hive_mind.search($1, $2, $3, 10)', ['bench', words, []]);
      ours.push(performance.now() - s);
      s = performance.now();
      await a.query(
        `WITH q AS (SELECT (SELECT string_agg(plainto_tsquery('english', w)::text, ' | ') FILTER (WHERE numnode(plainto_tsquery('english', w)) > 0) FROM unnest($1::text[]) w)::tsquery AS tsq)
         SELECT f.uid FROM hive_mind.frames f, q WHERE f.tsv @@ q.tsq ORDER BY ts_rank_cd(f.tsv, q.tsq) DESC LIMIT 10`,
        [words],
      );
      rawT.push(performance.now() - s);
    }
    for (let i = 0; i < 20; i++) {
      const s = performance.now();
      await member.query('SELECT * FROM hive_mind.search($1, $2, $3, 10)', ['bench', ['handler'], [`src/mod${(i * 37) % 5000}/handler_`]]);
      paths.push(performance.now() - s);
    }
    await member.end();
    await a.end();
    console.log(`\n2. team search at ${total.toLocaleString('en-US')} frames (generated in ${fmt(loadMs / 1000, 0)} s, GIN tsvector + trigram indexes built in ${fmt(indexMs / 1000, 0)} s; vocabulary: ${vocabSource})`);
    console.log(`   hive_mind.search as a member, ${QUERIES} queries of 2-3 words   p50 ${fmt(percentile(ours, 50))} ms   p95 ${fmt(percentile(ours, 95))} ms`);
    console.log(`   raw tsvector query (owner, no RLS), same queries         p50 ${fmt(percentile(rawT, 50))} ms   p95 ${fmt(percentile(rawT, 95))} ms   (ours ${fmt(percentile(ours, 95) / percentile(rawT, 95), 2)}x at p95)`);
    console.log(`   path lookup (trigram ILIKE + word), 20 queries           p50 ${fmt(percentile(paths, 50))} ms   p95 ${fmt(percentile(paths, 95))} ms`);
  }

  // ---- 3. SessionStart with a team cache vs without
  {
    const payload = JSON.stringify({ session_id: 'bench', transcript_path: join(tmp, 't.jsonl'), cwd: tmp, hook_event_name: 'SessionStart', source: 'startup' });
    const plain = { ...process.env, HIVE_MIND_HOME: join(tmp, 'plain'), HOME: join(tmp, 'plain') };
    const withTeam = env1; // m1 pulled FRAMES team frames above; trim to CACHE
    const personal = (e) => {
      const m = Mind.open(join(e.HIVE_MIND_HOME, 'personal.mind'));
      const batch = [];
      for (let i = 0; i < 2000; i++) batch.push({ content: `personal note ${i}: prefers ${i % 9} spaces in file${i % 40}.py`, kind: 'preference' });
      m.saveMany(batch);
      if (e === withTeam) m.database.prepare("DELETE FROM frames WHERE scope = 'team' AND id NOT IN (SELECT id FROM frames WHERE scope = 'team' ORDER BY id LIMIT ?)").run(CACHE);
      const st = m.database.prepare("SELECT count(*) AS n FROM frames WHERE scope = 'team'").get().n;
      m.close();
      return st;
    };
    mkdirSync(plain.HIVE_MIND_HOME, { recursive: true });
    personal(plain);
    const teamFrames = personal(withTeam);
    const stamp = join(withTeam.HIVE_MIND_HOME, 'team', 'synced');
    mkdirSync(join(withTeam.HIVE_MIND_HOME, 'team'), { recursive: true });
    const run = (env) => {
      const s = performance.now();
      const r = spawnSync(process.execPath, [cli, 'hook', 'claude-code', 'SessionStart'], { input: payload, env, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
      return performance.now() - s;
    };
    const noTeam = [];
    const fresh = [];
    const stale = [];
    for (let i = 0; i < RUNS; i++) {
      noTeam.push(run(plain));
      writeFileSync(stamp, 'x');
      fresh.push(run(withTeam));
      const old = new Date(Date.now() - 86_400_000);
      utimesSync(stamp, old, old);
      rmSync(join(withTeam.HIVE_MIND_HOME, 'team', 'sync-started'), { force: true });
      stale.push(run(withTeam));
    }
    console.log(`\n3. SessionStart hook (whole process, ${RUNS} runs each, interleaved; 2,000 personal frames)`);
    console.log(`   without a team                                   p50 ${fmt(percentile(noTeam, 50))} ms   p95 ${fmt(percentile(noTeam, 95))} ms`);
    console.log(`   with a team cache of ${teamFrames} frames, fresh        p50 ${fmt(percentile(fresh, 50))} ms   p95 ${fmt(percentile(fresh, 95))} ms   (${fmt(percentile(fresh, 50) / percentile(noTeam, 50), 2)}x)`);
    console.log(`   same, stale: starts the detached team sync       p50 ${fmt(percentile(stale, 50))} ms   p95 ${fmt(percentile(stale, 95))} ms   (${fmt(percentile(stale, 50) / percentile(noTeam, 50), 2)}x)`);
    // let the last detached syncs finish before the server goes away
    await new Promise((r) => setTimeout(r, 3000));
  }
} catch (e) {
  // the server's own account of a failure
  const { readFileSync: read } = await import('node:fs');
  console.error(`bench failed: ${e.message}\n--- server log (tail) ---\n${read(join(cluster.socketDir, '..', 'server.log'), 'utf8').split('\n').slice(-30).join('\n')}`);
  process.exitCode = 1;
} finally {
  await cluster.stop();
  rmSync(tmp, { recursive: true, force: true });
}
