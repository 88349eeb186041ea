import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type pg from 'pg';
import { Mind, analyzeQuery, MindError, teamSyncStampPath, type ApplyReport, type OutboxStatus, type PulledEvent, type TeamLocal } from '@hive-mind/mind';
import { connect, describeError, isUnreachable } from './client.js';
import { cacheMindPath, readTeamFile, type TeamConnection } from './config.js';
import { TeamError } from './errors.js';
import { SERVER_SCHEMA_VERSION, serverSchemaVersion } from './server-schema.js';

/**
 * Sync of one team connection (README "Team mind"): push the outbox in order, then pull what the
 * server has past the local cursor, in batches, until done or the deadline. Every step is
 * resumable: a push the network cut is retried with the same event ids (the server answers
 * `known`), a pull moves the cursor only with the frames it applied.
 */

/** Events per push or pull round trip. */
export const SYNC_BATCH = 200;
/** Default time budget of one sync, ms. */
export const DEFAULT_SYNC_DEADLINE_MS = 30_000;

/** Options of {@link syncTeam}. */
export interface SyncOptions {
  /** Stop starting new batches after this many ms (a batch under way finishes). Default 30,000. */
  deadlineMs?: number;
  /** Events per round trip. Default {@link SYNC_BATCH}. */
  batch?: number;
  /** Skip the pull (push only). */
  pushOnly?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** What one sync did. `complete` is false when it stopped at the deadline or on an error (`error`). */
export interface SyncReport {
  team: string;
  pushed: number;
  /** Pushed before (a retry after a cut): the server already had them. */
  alreadyOnServer: number;
  rejected: Array<{ frameUid: string; op: string; reason: string }>;
  pulled: Omit<ApplyReport, 'cursor'>;
  cursor: number;
  outbox: OutboxStatus;
  complete: boolean;
  error?: string;
}

/** Open the local mind of a connection and its team side; the caller closes the mind. */
export function openLocal(conn: TeamConnection, env: NodeJS.ProcessEnv = process.env): { mind: Mind; local: TeamLocal } {
  const mind = Mind.open(cacheMindPath(conn, env));
  try {
    return { mind, local: mind.team(conn.team) };
  } catch (e) {
    mind.close();
    throw e;
  }
}

/** Throws `TeamError` `SERVER` unless the server schema is at the version this build writes. */
async function requireSchema(client: pg.ClientBase): Promise<void> {
  const v = await serverSchemaVersion(client);
  if (v < SERVER_SCHEMA_VERSION) throw new TeamError(`the team server's schema is at version ${v}, this hive-mind needs ${SERVER_SCHEMA_VERSION}: run \`hive-mind team migrate\` (as the server's owner)`, 'SERVER');
}

/** Push the pending outbox of `local` over `client`, in order. Returns counts; throws `TeamError` on a connection or server failure (the entries stay pending; {@link syncTeam} records the reason on them). */
export async function pushOutbox(client: pg.ClientBase, local: TeamLocal, machine: string, opts: { batch?: number; until?: number } = {}) {
  const batch = opts.batch ?? SYNC_BATCH;
  const out = { pushed: 0, alreadyOnServer: 0, rejected: [] as SyncReport['rejected'], complete: true };
  for (let first = true; ; first = false) {
    // at least one batch per sync, so a short budget still makes progress
    if (!first && opts.until !== undefined && Date.now() > opts.until) return { ...out, complete: false };
    const entries = local.pending(batch);
    if (!entries.length) return out;
    const events = entries.map((e) => ({ eventUid: e.eventUid, op: e.op, frameUid: e.frameUid, payload: e.payload }));
    let rows: Array<{ event_uid: string; seq: string | null; status: string; reason: string | null }>;
    try {
      rows = (await client.query('SELECT * FROM hive_mind.push_events($1, $2, $3::jsonb)', [local.team, machine, JSON.stringify(events)])).rows;
    } catch (e) {
      const reason = describeError(e);
      if (isUnreachable(e)) throw new TeamError(`push stopped: ${reason}; the frames wait in the outbox and are sent by the next sync`, 'UNREACHABLE');
      throw Object.assign(new TeamError(`push failed: ${reason}`, 'SERVER'), { cause: e });
    }
    const byUid = new Map(rows.map((r) => [r.event_uid, r]));
    const done: Array<{ id: number; frameUid: string; seq: number }> = [];
    for (const e of entries) {
      const r = byUid.get(e.eventUid);
      if (!r) continue;
      if (r.status === 'rejected') {
        local.reject(e.id, `the server refused it: ${r.reason ?? 'no reason given'}`);
        out.rejected.push({ frameUid: e.frameUid, op: e.op, reason: r.reason ?? '' });
      } else {
        done.push({ id: e.id, frameUid: e.frameUid, seq: Number(r.seq) });
        if (r.status === 'known') out.alreadyOnServer++;
        else out.pushed++;
      }
    }
    local.markPushed(done);
  }
}

/** Pull events past the local cursor into `local`, in batches. Returns the summed counts. */
export async function pullEvents(client: pg.ClientBase, local: TeamLocal, opts: { batch?: number; until?: number } = {}) {
  const batch = opts.batch ?? SYNC_BATCH;
  const sum: Omit<ApplyReport, 'cursor'> = { saved: 0, duplicates: 0, quarantined: 0, forgotten: 0, skipped: 0 };
  let complete = true;
  for (let first = true; ; first = false) {
    if (!first && opts.until !== undefined && Date.now() > opts.until) {
      complete = false;
      break;
    }
    const rows = (
      await client.query(
        'SELECT seq, event_uid, op, frame_uid, member, machine, payload FROM hive_mind.events WHERE team = $1 AND seq > $2 ORDER BY seq LIMIT $3',
        [local.team, local.cursor(), batch],
      )
    ).rows as Array<{ seq: string; event_uid: string; op: 'save' | 'forget'; frame_uid: string; member: string; machine: string; payload: PulledEvent['payload'] }>;
    if (!rows.length) break;
    const r = local.applyPulled(rows.map((x) => ({ seq: Number(x.seq), eventUid: x.event_uid, op: x.op, frameUid: x.frame_uid, member: x.member, machine: x.machine, payload: x.payload })));
    for (const k of Object.keys(sum) as Array<keyof typeof sum>) sum[k] += r[k];
    if (rows.length < batch) break;
  }
  return { ...sum, complete };
}

/** Touch the home's sync stamp (`<home>/team/synced`: its mtime is what the SessionStart hook compares). */
export function touchSyncStamp(env: NodeJS.ProcessEnv = process.env): void {
  const p = teamSyncStampPath(env);
  mkdirSync(dirname(p), { recursive: true, mode: 0o700 });
  writeFileSync(p, new Date().toISOString() + '\n', { mode: 0o600 });
  const now = new Date();
  utimesSync(p, now, now);
}

/**
 * Push, then pull, one connection within `deadlineMs`. Never throws for the server being down or
 * the network failing: the report says so (`complete: false`, `error`) and the outbox keeps
 * everything. Throws `TeamError` for a bad configuration and `MindError` for a local store failure.
 */
export async function syncTeam(conn: TeamConnection, opts: SyncOptions = {}): Promise<SyncReport> {
  const env = opts.env ?? process.env;
  const until = Date.now() + (opts.deadlineMs ?? DEFAULT_SYNC_DEADLINE_MS);
  const machine = readTeamFile(env).machine;
  const { mind, local } = openLocal(conn, env);
  const report: SyncReport = {
    team: conn.team,
    pushed: 0,
    alreadyOnServer: 0,
    rejected: [],
    pulled: { saved: 0, duplicates: 0, quarantined: 0, forgotten: 0, skipped: 0 },
    cursor: local.cursor(),
    outbox: local.status(),
    complete: false,
  };
  let client: pg.Client | undefined;
  try {
    client = await connect(conn, env);
    await requireSchema(client);
    const pushed = await pushOutbox(client, local, machine, { batch: opts.batch, until });
    Object.assign(report, { pushed: pushed.pushed, alreadyOnServer: pushed.alreadyOnServer, rejected: pushed.rejected });
    let complete = pushed.complete;
    if (!opts.pushOnly && complete) {
      const pulled = await pullEvents(client, local, { batch: opts.batch, until });
      const { complete: c, ...counts } = pulled;
      report.pulled = counts;
      complete = c;
    }
    report.complete = complete;
    local.setState('last_sync', new Date().toISOString());
    local.setState('last_error', '');
    if (complete) touchSyncStamp(env);
  } catch (e) {
    if (e instanceof MindError) throw e;
    if (e instanceof TeamError && e.code === 'CONFIG') throw e;
    const unreachable = isUnreachable(e) || (e instanceof TeamError && e.code === 'UNREACHABLE');
    report.error = e instanceof TeamError ? e.message : describeError(e);
    const code = (e as { code?: string }).code ?? ((e as { cause?: { code?: string } }).cause?.code);
    if (code === '42501')
      report.error += ` (is ${conn.member} a member of team ${conn.team}? the server's owner runs \`hive-mind team migrate --create-team ${conn.team} --member ${conn.member}\`)`;
    local.setState('last_error', `${new Date().toISOString()} ${report.error}`);
    local.markAttempt(local.pending(100_000).map((x) => x.id), `${unreachable ? 'server unreachable' : 'server error'}: ${report.error}`);
  } finally {
    report.cursor = local.cursor();
    report.outbox = local.status();
    mind.close();
    await client?.end().catch(() => undefined);
  }
  return report;
}

/** A team search hit, as the server ranks it. */
export interface TeamSearchHit {
  frameUid: string;
  content: string;
  kind: string;
  importance: string;
  source: string;
  tags: string[];
  member: string;
  machine: string;
  host: string;
  sessionId: string;
  createdAt: string;
  seq: number;
  rank: number;
}

/**
 * `team search`: asks the server directly (full-text `tsvector` for words, `pg_trgm` for exact
 * lookups such as paths and identifiers, the query analysed like the mind's own search). Throws
 * `TeamError` `UNREACHABLE` / `SERVER` (e.g. not a member), `MindError` `EMPTY_QUERY`.
 */
export async function searchTeam(conn: TeamConnection, query: string, opts: { limit?: number; env?: NodeJS.ProcessEnv } = {}): Promise<TeamSearchHit[]> {
  const q = analyzeQuery(query);
  const words = [...q.words, ...q.phrases.flat()];
  if (!words.length && !q.exact.length) throw new MindError('the query has no words to search for', 'EMPTY_QUERY');
  const client = await connect(conn, opts.env);
  try {
    await requireSchema(client);
    const rows = (await client.query('SELECT * FROM hive_mind.search($1, $2, $3, $4)', [conn.team, words, q.exact, opts.limit ?? 10])).rows;
    return rows.map((r) => ({
      frameUid: r.uid,
      content: r.content,
      kind: r.kind,
      importance: r.importance,
      source: r.source,
      tags: r.tags,
      member: r.member,
      machine: r.machine,
      host: r.host,
      sessionId: r.session_id,
      createdAt: new Date(r.created_at).toISOString(),
      seq: Number(r.seq),
      rank: Number(r.rank),
    }));
  } catch (e) {
    if (e instanceof TeamError) throw e;
    throw new TeamError(`team search: ${describeError(e)}`, isUnreachable(e) ? 'UNREACHABLE' : 'SERVER');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The server side of `team status`: reachable, schema version, login role, events waiting to be pulled. */
export interface ServerStatus {
  reachable: boolean;
  error?: string;
  schemaVersion?: number;
  member?: string;
  /** Events on the server past the local cursor (what the next pull brings). */
  toPull?: number;
  frames?: number;
}

/** Ask the server how things stand for `conn` (never throws: an unreachable server is a status). */
export async function serverStatus(conn: TeamConnection, cursor: number, env: NodeJS.ProcessEnv = process.env): Promise<ServerStatus> {
  let client: pg.Client | undefined;
  try {
    client = await connect(conn, env);
    const schemaVersion = await serverSchemaVersion(client);
    const member = (await client.query('SELECT session_user AS u')).rows[0].u as string;
    if (schemaVersion < 1) return { reachable: true, schemaVersion, member };
    const toPull = Number((await client.query('SELECT count(*) AS n FROM hive_mind.events WHERE team = $1 AND seq > $2', [conn.team, cursor])).rows[0].n);
    const frames = Number((await client.query('SELECT count(*) AS n FROM hive_mind.frames WHERE team = $1 AND superseded_by IS NULL', [conn.team])).rows[0].n);
    return { reachable: true, schemaVersion, member, toPull, frames };
  } catch (e) {
    return { reachable: false, error: describeError(e) };
  } finally {
    await client?.end().catch(() => undefined);
  }
}
