import type pg from 'pg';

/**
 * The team server's schema (README "Team mind", server side), in the PostgreSQL schema `hive_mind`:
 *
 * - `teams(name)`: the registered teams; each is also a NOLOGIN role, and a member is a login role
 *   granted that role (`hive_mind.create_team(name)` makes both).
 * - `events`: the append-only log of what members pushed, one row per change (`save` or `forget`),
 *   numbered by `seq`; `event_uid` makes a retried push idempotent, `member` is the server's
 *   `session_user` (attested, not claimed). A forget scrubs the payloads of the saves it removes.
 * - `frames`: the live state derived from `events` (what `team search` reads): full-text `tsv`
 *   (GIN, `english`) and trigram (`pg_trgm` GIN) indexes for paths and identifiers.
 *
 * Isolation is the server's: row-level security on `events` and `frames` lets a role see and write
 * only rows of teams it is a member of; `search()` is SECURITY DEFINER (so the GIN indexes serve it:
 * `@@` is not leakproof, and a row-level policy would keep the planner from using them) and checks
 * the membership of `session_user` once.
 */

/** Key of the advisory lock `team migrate` holds (transaction scope): racing members migrate once. */
export const MIGRATE_LOCK_KEY = 0x68697665; // 'hive'

/** The largest frame content the server takes, in characters (a local frame is at most 8,000 characters, mind `chunkChars`). */
export const SERVER_MAX_CONTENT_CHARS = 65_536;

/** `SERVER_MIGRATIONS[i]` brings the server schema from version i to i + 1, inside the migrate transaction. */
export const SERVER_MIGRATIONS: readonly string[] = [
  `
  CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
  DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'hive_mind_member') THEN CREATE ROLE hive_mind_member NOLOGIN; END IF;
  END $$;
  CREATE TABLE hive_mind.teams (
    name text PRIMARY KEY CHECK (name ~ '^[A-Za-z_][A-Za-z0-9_-]{0,62}$'),
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE hive_mind.events (
    seq bigserial PRIMARY KEY,
    team text NOT NULL REFERENCES hive_mind.teams(name),
    event_uid uuid NOT NULL UNIQUE,
    op text NOT NULL CHECK (op IN ('save', 'forget')),
    frame_uid uuid NOT NULL,
    member text NOT NULL DEFAULT session_user,
    machine text NOT NULL CHECK (length(machine) BETWEEN 1 AND 200),
    payload jsonb,
    received_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX events_team_seq ON hive_mind.events (team, seq);
  CREATE INDEX events_frame ON hive_mind.events (frame_uid);
  CREATE TABLE hive_mind.frames (
    uid uuid PRIMARY KEY,
    team text NOT NULL REFERENCES hive_mind.teams(name),
    seq bigint NOT NULL,
    content text NOT NULL CHECK (length(content) BETWEEN 1 AND ${SERVER_MAX_CONTENT_CHARS}),
    kind text NOT NULL CHECK (kind ~ '^[A-Za-z0-9_.:-]{1,64}$'),
    importance text NOT NULL CHECK (importance IN ('critical', 'important', 'normal', 'temporary', 'deprecated')),
    source text NOT NULL CHECK (source IN ('user_stated', 'tool_verified', 'agent_inferred', 'import')),
    tags text[] NOT NULL DEFAULT '{}',
    member text NOT NULL,
    machine text NOT NULL,
    host text NOT NULL DEFAULT '',
    session_id text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL,
    expires_at timestamptz,
    received_at timestamptz NOT NULL DEFAULT now(),
    supersedes uuid,
    superseded_by uuid,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, content)) STORED
  );
  CREATE INDEX frames_tsv ON hive_mind.frames USING gin (tsv);
  CREATE INDEX frames_trgm ON hive_mind.frames USING gin (content public.gin_trgm_ops);
  CREATE INDEX frames_team_live ON hive_mind.frames (team, created_at DESC) WHERE superseded_by IS NULL;
  CREATE INDEX frames_supersedes ON hive_mind.frames (supersedes) WHERE supersedes IS NOT NULL;
  CREATE INDEX frames_superseded_by ON hive_mind.frames (superseded_by) WHERE superseded_by IS NOT NULL;

  ALTER TABLE hive_mind.events ENABLE ROW LEVEL SECURITY;
  ALTER TABLE hive_mind.frames ENABLE ROW LEVEL SECURITY;
  CREATE FUNCTION hive_mind.my_teams() RETURNS SETOF text LANGUAGE sql STABLE SECURITY INVOKER AS $f$
    SELECT t.name FROM hive_mind.teams t JOIN pg_catalog.pg_roles r ON r.rolname = t.name WHERE pg_catalog.pg_has_role(r.oid, 'MEMBER')
  $f$;
  CREATE POLICY team_events ON hive_mind.events USING (team IN (SELECT hive_mind.my_teams())) WITH CHECK (team IN (SELECT hive_mind.my_teams()));
  CREATE POLICY team_frames ON hive_mind.frames USING (team IN (SELECT hive_mind.my_teams())) WITH CHECK (team IN (SELECT hive_mind.my_teams()));

  CREATE FUNCTION hive_mind.push_events(p_team text, p_machine text, p_events jsonb)
  RETURNS TABLE (event_uid uuid, seq bigint, status text, reason text)
  LANGUAGE plpgsql SECURITY INVOKER AS $f$
  DECLARE
    e jsonb; p jsonb; v_uid uuid; v_frame uuid; v_sup uuid; v_seq bigint; v_chain uuid[];
  BEGIN
    -- one pusher per team at a time: seq order is commit order within a team, so a pull that
    -- moves its cursor past seq n can never miss a smaller seq committed later
    PERFORM pg_advisory_xact_lock(hashtext('hive_mind.team:' || p_team));
    FOR e IN SELECT * FROM jsonb_array_elements(p_events) LOOP
      v_uid := (e->>'eventUid')::uuid;
      v_frame := (e->>'frameUid')::uuid;
      p := e->'payload';
      SELECT ev.seq INTO v_seq FROM hive_mind.events ev WHERE ev.event_uid = v_uid;
      IF FOUND THEN
        event_uid := v_uid; seq := v_seq; status := 'known'; reason := NULL; RETURN NEXT; CONTINUE;
      END IF;
      BEGIN
        INSERT INTO hive_mind.events AS ev (team, event_uid, op, frame_uid, machine, payload)
          VALUES (p_team, v_uid, e->>'op', v_frame, p_machine, p) RETURNING ev.seq INTO v_seq;
        IF e->>'op' = 'save' THEN
          v_sup := (p->>'supersedes')::uuid;
          INSERT INTO hive_mind.frames (uid, team, seq, content, kind, importance, source, tags, member, machine, host, session_id, created_at, expires_at, supersedes)
          VALUES (v_frame, p_team, v_seq, p->>'content', p->>'kind', p->>'importance', p->>'source',
                  ARRAY(SELECT jsonb_array_elements_text(coalesce(p->'tags', '[]'::jsonb))), session_user, p_machine,
                  coalesce(p->>'host', ''), coalesce(p->>'sessionId', ''), (p->>'createdAt')::timestamptz, (p->>'expiresAt')::timestamptz, v_sup)
          ON CONFLICT (uid) DO NOTHING;
          IF v_sup IS NOT NULL THEN
            -- concurrent versions: the later one (this event, the highest seq) is the live head
            UPDATE hive_mind.frames f SET superseded_by = v_frame
              WHERE f.team = p_team AND f.uid <> v_frame AND f.superseded_by IS NULL AND (f.uid = v_sup OR f.supersedes = v_sup);
          END IF;
        ELSE
          WITH RECURSIVE chain(uid) AS (
            SELECT v_frame UNION SELECT f.uid FROM hive_mind.frames f JOIN chain c ON f.superseded_by = c.uid WHERE f.team = p_team)
          SELECT array_agg(chain.uid) INTO v_chain FROM chain;
          DELETE FROM hive_mind.frames f WHERE f.team = p_team AND f.uid = ANY (v_chain);
          UPDATE hive_mind.events ev SET payload = NULL WHERE ev.team = p_team AND ev.op = 'save' AND ev.frame_uid = ANY (v_chain);
        END IF;
        event_uid := v_uid; seq := v_seq; status := 'stored'; reason := NULL; RETURN NEXT;
      EXCEPTION
        WHEN integrity_constraint_violation OR data_exception OR insufficient_privilege OR raise_exception THEN
          event_uid := v_uid; seq := NULL; status := 'rejected'; reason := SQLERRM; RETURN NEXT;
      END;
    END LOOP;
  END
  $f$;

  CREATE FUNCTION hive_mind.search(p_team text, p_words text[], p_exact text[], p_limit int)
  RETURNS TABLE (uid uuid, content text, kind text, importance text, source text, tags text[], member text, machine text,
                 host text, session_id text, created_at timestamptz, seq bigint, rank real)
  LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $f$
  DECLARE
    tsq tsquery; w text; cond text := 'false';
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM hive_mind.teams t JOIN pg_roles r ON r.rolname = t.name
                   WHERE t.name = p_team AND pg_has_role(session_user, r.oid, 'MEMBER')) THEN
      RAISE EXCEPTION 'permission denied: % is not a member of team %', session_user, p_team USING ERRCODE = 'insufficient_privilege';
    END IF;
    FOREACH w IN ARRAY coalesce(p_words, '{}') LOOP
      IF tsq IS NULL THEN tsq := plainto_tsquery('english', w); ELSE tsq := tsq || plainto_tsquery('english', w); END IF;
    END LOOP;
    IF tsq IS NOT NULL AND numnode(tsq) > 0 THEN cond := 'f.tsv @@ $2'; END IF;
    FOREACH w IN ARRAY coalesce(p_exact, '{}') LOOP
      IF length(w) >= 3 THEN cond := cond || format(' OR f.content ILIKE %L', '%' || replace(replace(replace(w, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'); END IF;
    END LOOP;
    RETURN QUERY EXECUTE format(
      'SELECT f.uid, f.content, f.kind, f.importance, f.source, f.tags, f.member, f.machine, f.host, f.session_id, f.created_at, f.seq,
              (coalesce(ts_rank_cd(f.tsv, $2), 0) + coalesce((SELECT sum(word_similarity(x, f.content)) FROM unnest($3) x), 0))::real AS rank
         FROM hive_mind.frames f
        WHERE f.team = $1 AND f.superseded_by IS NULL AND (f.expires_at IS NULL OR f.expires_at > now()) AND (%s)
        ORDER BY rank DESC, f.seq DESC LIMIT $4', cond)
      USING p_team, coalesce(tsq, ''::tsquery), coalesce(p_exact, '{}'), p_limit;
  END
  $f$;

  CREATE FUNCTION hive_mind.create_team(p_name text) RETURNS void LANGUAGE plpgsql AS $f$
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = p_name) THEN EXECUTE format('CREATE ROLE %I NOLOGIN', p_name); END IF;
    EXECUTE format('GRANT hive_mind_member TO %I', p_name);
    INSERT INTO hive_mind.teams (name) VALUES (p_name) ON CONFLICT DO NOTHING;
  END
  $f$;
  REVOKE ALL ON FUNCTION hive_mind.create_team(text) FROM PUBLIC;

  GRANT USAGE ON SCHEMA hive_mind TO hive_mind_member;
  GRANT SELECT ON hive_mind.teams, hive_mind.schema_migrations TO hive_mind_member;
  GRANT SELECT, INSERT, UPDATE ON hive_mind.events TO hive_mind_member;
  GRANT SELECT, INSERT, UPDATE, DELETE ON hive_mind.frames TO hive_mind_member;
  GRANT USAGE ON SEQUENCE hive_mind.events_seq_seq TO hive_mind_member;
  GRANT EXECUTE ON FUNCTION hive_mind.push_events(text, text, jsonb), hive_mind.search(text, text[], text[], int), hive_mind.my_teams() TO hive_mind_member;
  `,
];

/** The server schema version this build writes (`hive_mind.schema_migrations`). */
export const SERVER_SCHEMA_VERSION = SERVER_MIGRATIONS.length;

/** What {@link migrateServer} did. */
export interface MigrateReport {
  from: number;
  to: number;
  applied: number[];
}

/**
 * Bring the server schema to {@link SERVER_SCHEMA_VERSION} in one transaction under an advisory
 * lock, so a second run (or a member migrating at the same moment) applies nothing twice. Needs a
 * role that may create the schema, roles and the `pg_trgm` extension (the database owner with
 * CREATEROLE, or a superuser). Throws the server's error (e.g. permission denied) unchanged;
 * throws an `Error` when the server is at a newer version than this build knows.
 */
export async function migrateServer(client: pg.ClientBase): Promise<MigrateReport> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATE_LOCK_KEY]);
    await client.query('CREATE SCHEMA IF NOT EXISTS hive_mind');
    await client.query(
      'CREATE TABLE IF NOT EXISTS hive_mind.schema_migrations (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now(), applied_by text NOT NULL DEFAULT session_user)',
    );
    const from = Number((await client.query('SELECT coalesce(max(version), 0) AS v FROM hive_mind.schema_migrations')).rows[0].v);
    if (from > SERVER_SCHEMA_VERSION) throw new Error(`the team server's schema is at version ${from}, newer than this hive-mind knows (${SERVER_SCHEMA_VERSION}); upgrade hive-mind`);
    const applied: number[] = [];
    for (let v = from; v < SERVER_SCHEMA_VERSION; v++) {
      await client.query(SERVER_MIGRATIONS[v]!);
      await client.query('INSERT INTO hive_mind.schema_migrations (version) VALUES ($1)', [v + 1]);
      applied.push(v + 1);
    }
    await client.query('COMMIT');
    return { from, to: SERVER_SCHEMA_VERSION, applied };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/** The server's schema version (0 when `team migrate` never ran). */
export async function serverSchemaVersion(client: pg.ClientBase): Promise<number> {
  const r = await client.query("SELECT to_regclass('hive_mind.schema_migrations') IS NOT NULL AS ok");
  if (!r.rows[0].ok) return 0;
  return Number((await client.query('SELECT coalesce(max(version), 0) AS v FROM hive_mind.schema_migrations')).rows[0].v);
}
