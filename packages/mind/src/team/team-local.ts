import { randomUUID } from 'node:crypto';
import type { StoreContext } from '../store/context.js';
import { MindError } from '../errors.js';
import type { FrameInput, FrameSource, Importance, SaveResult } from '../frame.js';
import { IMPORTANCES, SOURCES } from '../frame.js';
import { redactSecrets } from '../safety/redact.js';
import { scanThreats } from '../safety/threats.js';
import { SUPERSEDE_CHAIN } from '../store/sql.js';

/**
 * The local side of the team mind (README "Team mind"): frames of scope `team` are saved to this
 * `.mind` first and queued in its outbox (`team_outbox`), which `@hive-mind/team` pushes to the
 * server; what the server sends back is applied here into the same frames table (scope `team`), so
 * search and recall read the team's frames like any other scope, with or without the network.
 * Nothing here opens a network connection.
 *
 * Tables (schema v6): `team_frames` maps a team frame's stable id (`frame_uid`, a UUID given once by
 * the member who saved it) to the local frame, with its origin (member, machine, host, session) and
 * the server's sequence number once the server has it; a row whose `frame_id` is NULL is a tombstone
 * (the frame was forgotten: a late copy of it is never applied again). `team_state` keeps the pull
 * cursor per team.
 */

/** Who saved a team frame: the server login role (`member`) and the machine's id. */
export interface TeamOrigin {
  member: string;
  machine: string;
}

/** What travels for a saved team frame (the server's `events.payload`). */
export interface TeamFramePayload {
  content: string;
  kind: string;
  importance: Importance;
  source: FrameSource;
  tags: string[];
  host: string;
  sessionId: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  expiresAt: string | null;
  /** `frame_uid` of the version this one replaces. */
  supersedes: string | null;
}

/** One queued change. `state`: `pending` (will be pushed), `rejected` (the server refused it: `reason`), `held` (the threat scan flagged it: never leaves the machine). */
export interface OutboxEntry {
  id: number;
  eventUid: string;
  op: 'save' | 'forget';
  frameUid: string;
  payload: TeamFramePayload | null;
  createdAt: string;
  state: 'pending' | 'rejected' | 'held';
  reason: string | null;
  attempts: number;
  lastAttemptAt: string | null;
}

/** One event as the server returns it to a pull, in server order (`seq`). `payload` is null for a forget, and for a save whose frame was forgotten since. */
export interface PulledEvent {
  seq: number;
  eventUid: string;
  op: 'save' | 'forget';
  frameUid: string;
  member: string;
  machine: string;
  payload: TeamFramePayload | null;
}

/** Counts of one {@link TeamLocal.applyPulled}. */
export interface ApplyReport {
  /** New frames stored. */
  saved: number;
  /** Saves whose content this mind already held as a team frame (mapped to it, not stored twice). */
  duplicates: number;
  /** Stored but quarantined by the threat scan run again on the pull. */
  quarantined: number;
  /** Frames removed by a forget event. */
  forgotten: number;
  /** Events already here (our own, or applied before), or scrubbed by a later forget. */
  skipped: number;
  /** The cursor after this batch (the last event's `seq`). */
  cursor: number;
}

/** What `team status` reports about the local side. */
export interface OutboxStatus {
  pending: number;
  rejected: number;
  held: number;
  /** Distinct reasons with their counts (the last push error of pending entries, the server's refusal, the threat ids). */
  reasons: Array<{ state: OutboxEntry['state']; reason: string; count: number }>;
  oldestPending: string | null;
  /** Team frames in this mind (own and pulled). */
  frames: number;
  cursor: number;
}

type OutboxRow = {
  id: number;
  event_uid: string;
  op: 'save' | 'forget';
  frame_uid: string;
  payload: string | null;
  created_at: string;
  state: OutboxEntry['state'];
  reason: string | null;
  attempts: number;
  last_attempt_at: string | null;
};

const toEntry = (r: OutboxRow): OutboxEntry => ({
  id: r.id,
  eventUid: r.event_uid,
  op: r.op,
  frameUid: r.frame_uid,
  payload: r.payload ? (JSON.parse(r.payload) as TeamFramePayload) : null,
  createdAt: r.created_at,
  state: r.state,
  reason: r.reason,
  attempts: r.attempts,
  lastAttemptAt: r.last_attempt_at,
});

/** A team name: 1-63 characters of `[A-Za-z0-9_-]`, which is also the server role that owns the team's rows. */
export function checkTeamName(team: string): string {
  if (typeof team !== 'string' || !/^[A-Za-z_][A-Za-z0-9_-]{0,62}$/.test(team))
    throw new MindError(`team name must be 1-63 characters of [A-Za-z0-9_-] starting with a letter or _, got ${JSON.stringify(team)}`, 'INVALID');
  return team;
}

/**
 * The outbox and the pulled cache of one team in one `.mind` (from {@link Mind.team}). Every method
 * is one short `BEGIN IMMEDIATE` transaction; saves go through the mind's own pipeline (redaction,
 * threat scan, dedupe) both for a member's own frames and for pulled ones.
 */
export class TeamLocal {
  constructor(
    private readonly ctx: StoreContext,
    private readonly saveFrame: (input: FrameInput) => SaveResult,
    readonly team: string,
  ) {
    checkTeamName(team);
  }

  /**
   * Save a frame of scope `team` locally and queue it for the server, in one transaction. A
   * quarantined frame is queued `held` (never pushed). `supersedes` must name a team frame of
   * this mind. Returns the mind's {@link SaveResult} plus the stable ids of the frames it queued.
   * Throws what {@link Mind.save} throws, and `INVALID` when `supersedes` is not a team frame.
   */
  save(input: FrameInput, origin: TeamOrigin): SaveResult & { frameUids: string[] } {
    this.ctx.writable();
    const ctx = this.ctx;
    return ctx.guard(() =>
      ctx.tx(() => {
        let supersedesUid: string | null = null;
        if (input.supersedes != null) {
          supersedesUid = this.uidOf(input.supersedes) ?? null;
          if (!supersedesUid) throw new MindError(`frame input: field \`supersedes\`: frame #${input.supersedes} is not a frame of team ${this.team} in ${ctx.path}`, 'INVALID', ctx.path);
        }
        const r = this.saveFrame({ ...input, scope: 'team', workspace: '', threadKey: '' });
        const frameUids: string[] = [];
        const nowIso = ctx.now().toISOString();
        for (const id of r.ids) {
          if (ctx.stmt('SELECT 1 FROM team_frames WHERE frame_id = ?').get(id)) continue; // a duplicate of a team frame: the server has it
          const row = ctx.stmt('SELECT * FROM frames WHERE id = ?').get(id) as Record<string, unknown>;
          const uid = randomUUID();
          const payload: TeamFramePayload = {
            content: String(row.content),
            kind: String(row.kind),
            importance: row.importance as Importance,
            source: row.source as FrameSource,
            tags: JSON.parse(String(row.tags)) as string[],
            host: String(row.host),
            sessionId: String(row.session_id),
            createdAt: String(row.created_at),
            expiresAt: (row.expires_at as string | null) ?? null,
            supersedes: id === r.id ? supersedesUid : null,
          };
          ctx.stmt('INSERT INTO team_frames (frame_uid, team, frame_id, member, machine, host, session_id, server_seq) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)').run(
            uid, this.team, id, origin.member, origin.machine, payload.host, payload.sessionId,
          );
          const held = Number(row.quarantined) !== 0;
          ctx.stmt('INSERT INTO team_outbox (team, event_uid, op, frame_uid, payload, created_at, state, reason) VALUES (?, ?, \'save\', ?, ?, ?, ?, ?)').run(
            this.team, randomUUID(), uid, JSON.stringify(payload), nowIso, held ? 'held' : 'pending', held ? `threat scan flagged it (${String(row.threats)}); it stays on this machine` : null,
          );
          frameUids.push(uid);
        }
        if (r.ids[0] !== undefined && input.supersedes != null) resolveHeads(ctx, input.supersedes, r.ids[0], Number.POSITIVE_INFINITY);
        return { ...r, frameUids };
      }),
    );
  }

  /** The stable id of local frame `id` in this team, or undefined. */
  uidOf(id: number): string | undefined {
    const r = this.ctx.stmt('SELECT frame_uid FROM team_frames WHERE frame_id = ? AND team = ? ORDER BY server_seq IS NULL, server_seq LIMIT 1').get(id, this.team) as { frame_uid: string } | undefined;
    return r?.frame_uid;
  }

  /** Origin of local frame `id` when it is a team frame: its stable id, member, machine, host, session and server seq. */
  originOf(id: number): { frameUid: string; member: string; machine: string; host: string; sessionId: string; serverSeq: number | null } | undefined {
    const r = this.ctx.stmt('SELECT * FROM team_frames WHERE frame_id = ? AND team = ? ORDER BY server_seq IS NULL, server_seq LIMIT 1').get(id, this.team) as
      | { frame_uid: string; member: string; machine: string; host: string; session_id: string; server_seq: number | null }
      | undefined;
    return r && { frameUid: r.frame_uid, member: r.member, machine: r.machine, host: r.host, sessionId: r.session_id, serverSeq: r.server_seq };
  }

  /**
   * Queued entries in push order (oldest first), at most `limit`; `states` defaults to pending.
   * Before returning a save it is redacted and threat-scanned again (rules may have changed since
   * it was saved): a save now flagged is moved to `held` and not returned.
   */
  pending(limit = 500, states: ReadonlyArray<OutboxEntry['state']> = ['pending']): OutboxEntry[] {
    const ctx = this.ctx;
    return ctx.guard(() => {
      const rows = ctx
        .stmt(`SELECT * FROM team_outbox WHERE team = ? AND state IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT ?`)
        .all(this.team, JSON.stringify(states), limit) as OutboxRow[];
      const out: OutboxEntry[] = [];
      for (const r of rows) {
        const e = toEntry(r);
        if (e.payload) {
          const red = redactSecrets(e.payload.content);
          const threats = scanThreats(red.text);
          if (threats.length) {
            if (!ctx.config.readonly) this.hold(e.id, `threat scan flagged it (${threats.join(', ')}); it stays on this machine`);
            continue;
          }
          e.payload = { ...e.payload, content: red.text };
        }
        out.push(e);
      }
      return out;
    });
  }

  /** The server has these entries (its `seq` for each): drop them from the outbox and record the seqs. */
  markPushed(done: ReadonlyArray<{ id: number; frameUid: string; seq: number }>): void {
    const ctx = this.ctx;
    ctx.guard(() =>
      ctx.tx(() => {
        for (const d of done) {
          ctx.stmt('DELETE FROM team_outbox WHERE id = ?').run(d.id);
          ctx.stmt('UPDATE team_frames SET server_seq = ? WHERE frame_uid = ? AND server_seq IS NULL').run(d.seq, d.frameUid);
        }
      }),
    );
  }

  /** A push attempt of these entries failed for `reason` (server down, network cut...): they stay pending. */
  markAttempt(ids: readonly number[], reason: string): void {
    const ctx = this.ctx;
    const nowIso = ctx.now().toISOString();
    ctx.guard(() => ctx.tx(() => {
      for (const id of ids) ctx.stmt('UPDATE team_outbox SET attempts = attempts + 1, last_attempt_at = ?, reason = ? WHERE id = ? AND state = \'pending\'').run(nowIso, reason, id);
    }));
  }

  /** The server refused entry `id` for `reason`: kept as `rejected` (never dropped) until {@link retryRejected}. */
  reject(id: number, reason: string): void {
    const ctx = this.ctx;
    ctx.guard(() => ctx.stmt("UPDATE team_outbox SET state = 'rejected', reason = ?, attempts = attempts + 1, last_attempt_at = ? WHERE id = ?").run(reason, ctx.now().toISOString(), id));
  }

  /** Keep entry `id` on this machine (`held`) for `reason`. */
  hold(id: number, reason: string): void {
    this.ctx.guard(() => this.ctx.stmt("UPDATE team_outbox SET state = 'held', reason = ? WHERE id = ?").run(reason, id));
  }

  /** Put rejected entries back in the queue (after the cause was fixed). Returns how many. */
  retryRejected(): number {
    return this.ctx.guard(() => this.ctx.stmt("UPDATE team_outbox SET state = 'pending', reason = NULL WHERE team = ? AND state = 'rejected'").run(this.team).changes);
  }

  /** The `seq` of the last event applied by a pull (0 before the first pull). */
  cursor(): number {
    return Number(this.state('cursor') ?? 0);
  }

  /** A value of `team_state` for this team. */
  state(key: string): string | undefined {
    return (this.ctx.stmt('SELECT value FROM team_state WHERE team = ? AND key = ?').get(this.team, key) as { value: string } | undefined)?.value;
  }

  /** Set a value of `team_state` for this team. */
  setState(key: string, value: string): void {
    this.ctx.guard(() => this.ctx.stmt('INSERT INTO team_state (team, key, value) VALUES (?, ?, ?) ON CONFLICT (team, key) DO UPDATE SET value = excluded.value').run(this.team, key, value));
  }

  /**
   * Apply pulled events in server order, in one transaction, and move the cursor to the last one.
   * A save already known here (own, applied before, or tombstoned) is skipped; a new one goes
   * through the mind's save pipeline (redacted and threat-scanned again; a duplicate of a team
   * frame held here is mapped to it). A save that supersedes a version resolves concurrent
   * versions by the server's order: the later `seq` is the live head (an own version not yet
   * pushed counts as latest). A forget removes the frame and its older versions and leaves
   * tombstones. Throws `INVALID` for a malformed payload (the cursor does not move).
   */
  applyPulled(events: readonly PulledEvent[]): ApplyReport {
    this.ctx.writable();
    const ctx = this.ctx;
    const report: ApplyReport = { saved: 0, duplicates: 0, quarantined: 0, forgotten: 0, skipped: 0, cursor: 0 };
    return ctx.guard(() =>
      ctx.tx(() => {
        // read under the write lock: a concurrent sync of the same mind may have applied some of these
        report.cursor = this.cursor();
        for (const ev of events) {
          if (ev.seq <= report.cursor) {
            report.skipped++;
            continue;
          }
          if (ev.op === 'save') this.applySave(ev, report);
          else if (ev.op === 'forget') this.applyForget(ev, report);
          else throw new MindError(`pulled event ${ev.seq}: field \`op\` must be save or forget, got ${JSON.stringify(ev.op)}`, 'INVALID');
          report.cursor = ev.seq;
        }
        this.setState('cursor', String(report.cursor));
        return report;
      }),
    );
  }

  private applySave(ev: PulledEvent, report: ApplyReport): void {
    const ctx = this.ctx;
    const known = ctx.stmt('SELECT frame_id FROM team_frames WHERE frame_uid = ?').get(ev.frameUid) as { frame_id: number | null } | undefined;
    if (known || !ev.payload) {
      if (known) ctx.stmt('UPDATE team_frames SET server_seq = ? WHERE frame_uid = ? AND server_seq IS NULL').run(ev.seq, ev.frameUid);
      report.skipped++;
      return;
    }
    const p = checkPayload(ev);
    const target = p.supersedes ? (ctx.stmt('SELECT frame_id FROM team_frames WHERE frame_uid = ? AND frame_id IN (SELECT id FROM frames)').get(p.supersedes) as { frame_id: number } | undefined)?.frame_id : undefined;
    const r = this.saveFrame({
      content: p.content,
      kind: p.kind,
      importance: p.importance,
      source: p.source,
      tags: p.tags,
      host: p.host,
      sessionId: p.sessionId,
      createdAt: p.createdAt,
      expiresAt: p.expiresAt,
      scope: 'team',
      ...(target !== undefined ? { supersedes: target } : {}),
    });
    // one stable id maps to one local frame: a long payload split again here maps to its first part
    ctx.stmt('INSERT INTO team_frames (frame_uid, team, frame_id, member, machine, host, session_id, server_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
      ev.frameUid, this.team, r.id, ev.member, ev.machine, p.host, p.sessionId, ev.seq,
    );
    if (r.status === 'duplicate') report.duplicates++;
    else if (r.status === 'quarantined') report.quarantined++;
    else report.saved++;
    if (target !== undefined) resolveHeads(ctx, target, r.id, ev.seq);
  }

  private applyForget(ev: PulledEvent, report: ApplyReport): void {
    const ctx = this.ctx;
    const row = ctx.stmt('SELECT frame_id FROM team_frames WHERE frame_uid = ?').get(ev.frameUid) as { frame_id: number | null } | undefined;
    if (!row) {
      // forgotten before we ever saw it: a tombstone keeps a late copy out
      ctx.stmt('INSERT INTO team_frames (frame_uid, team, frame_id, member, machine, host, session_id, server_seq) VALUES (?, ?, NULL, ?, ?, \'\', \'\', ?)').run(ev.frameUid, this.team, ev.member, ev.machine, ev.seq);
      report.skipped++;
      return;
    }
    ctx.stmt('UPDATE team_frames SET frame_id = NULL WHERE frame_uid = ?').run(ev.frameUid);
    if (row.frame_id == null) return void report.skipped++;
    // another live stable id shares the frame (two members saved the same text): keep it for that one
    if (ctx.stmt('SELECT 1 FROM team_frames WHERE frame_id = ?').get(row.frame_id)) return void report.skipped++;
    const ids = forgetIds(ctx, row.frame_id);
    const del = ctx.stmt('DELETE FROM frames WHERE id = ? OR part_of = ?');
    for (const id of ids) del.run(id, id);
    ctx.stmt('DELETE FROM frame_history WHERE head_id = ?').run(row.frame_id);
    tombstone(ctx, ids);
    report.forgotten++;
  }

  /** Counts of the outbox and of this team's frames, with the reasons entries wait. */
  status(): OutboxStatus {
    const ctx = this.ctx;
    return ctx.guard(() => {
      const counts = ctx.stmt('SELECT state, count(*) AS n FROM team_outbox WHERE team = ? GROUP BY state').all(this.team) as Array<{ state: OutboxEntry['state']; n: number }>;
      const by = Object.fromEntries(counts.map((c) => [c.state, c.n])) as Partial<Record<OutboxEntry['state'], number>>;
      const reasons = ctx
        .stmt('SELECT state, reason, count(*) AS count FROM team_outbox WHERE team = ? AND reason IS NOT NULL GROUP BY state, reason ORDER BY count DESC LIMIT 20')
        .all(this.team) as OutboxStatus['reasons'];
      const oldest = ctx.stmt("SELECT min(created_at) AS t FROM team_outbox WHERE team = ? AND state = 'pending'").get(this.team) as { t: string | null };
      const frames = ctx.stmt('SELECT count(DISTINCT frame_id) AS n FROM team_frames WHERE team = ? AND frame_id IN (SELECT id FROM frames)').get(this.team) as { n: number };
      return { pending: by.pending ?? 0, rejected: by.rejected ?? 0, held: by.held ?? 0, reasons, oldestPending: oldest.t, frames: frames.n, cursor: this.cursor() };
    });
  }
}

function checkPayload(ev: PulledEvent): TeamFramePayload {
  const p = ev.payload as Partial<TeamFramePayload> | null;
  const bad = (field: string) => new MindError(`pulled event ${ev.seq} (frame ${ev.frameUid}): field \`payload.${field}\` is missing or malformed`, 'INVALID');
  if (!p || typeof p.content !== 'string') throw bad('content');
  if (typeof p.kind !== 'string') throw bad('kind');
  if (!IMPORTANCES.includes(p.importance as Importance)) throw bad('importance');
  if (!SOURCES.includes(p.source as FrameSource)) throw bad('source');
  if (!Array.isArray(p.tags)) throw bad('tags');
  if (typeof p.createdAt !== 'string') throw bad('createdAt');
  return {
    content: p.content,
    kind: p.kind,
    importance: p.importance!,
    source: p.source!,
    tags: p.tags.map(String),
    host: typeof p.host === 'string' ? p.host : '',
    sessionId: typeof p.sessionId === 'string' ? p.sessionId : '',
    createdAt: p.createdAt,
    expiresAt: typeof p.expiresAt === 'string' ? p.expiresAt : null,
    supersedes: typeof p.supersedes === 'string' ? p.supersedes : null,
  };
}

/**
 * Concurrent versions of frame `old`: `fresh` (server seq `seq`, +Infinity for an own version not
 * yet pushed) now supersedes it; any other live version of `old` competes. The one with the higher
 * server seq is the live head, the others and `old` are superseded by it.
 */
function resolveHeads(ctx: StoreContext, old: number, fresh: number, seq: number): void {
  const rivals = ctx
    .stmt(
      `SELECT f.id AS id, (SELECT max(coalesce(t.server_seq, 9e18)) FROM team_frames t WHERE t.frame_id = f.id) AS seq
       FROM frames f WHERE f.supersedes = ? AND f.id <> ? AND f.superseded_by IS NULL AND f.scope = 'team'`,
    )
    .all(old, fresh) as Array<{ id: number; seq: number | null }>;
  if (!rivals.length) return;
  const all = [{ id: fresh, seq: seq === Number.POSITIVE_INFINITY ? 1e19 : seq }, ...rivals.map((r) => ({ id: r.id, seq: r.seq ?? 9e18 }))];
  const winner = all.reduce((a, b) => (b.seq > a.seq ? b : a));
  const nowIso = ctx.now().toISOString();
  const set = ctx.stmt('UPDATE frames SET superseded_by = ?, updated_at = ? WHERE id = ?');
  for (const v of all) if (v.id !== winner.id) set.run(winner.id, nowIso, v.id);
  set.run(winner.id, nowIso, old);
}

/** Frame `id` and every older version of it still in the table (the supersede chain). */
function forgetIds(ctx: StoreContext, id: number): number[] {
  const older = ctx
    .stmt(`${SUPERSEDE_CHAIN} SELECT id FROM chain`)
    .all(id) as Array<{ id: number }>;
  return [...older.map((o) => o.id), id];
}

/** The team frames among `ids` become tombstones (their stable ids are never applied again). */
function tombstone(ctx: StoreContext, ids: readonly number[]): void {
  const s = ctx.stmt('UPDATE team_frames SET frame_id = NULL WHERE frame_id = ?');
  for (const id of ids) s.run(id);
}

/**
 * Called by `forget` inside its transaction, before the frames are deleted: every team frame among
 * `ids` gets a `forget` event queued for its stable id (so the forget travels to the server and to
 * every member) and becomes a tombstone here. No-op on a mind without team frames.
 */
export function queueTeamForgets(ctx: StoreContext, ids: readonly number[]): void {
  if (!ids.length) return;
  const rows = ctx
    .stmt('SELECT frame_uid, team FROM team_frames WHERE frame_id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(ids)) as Array<{ frame_uid: string; team: string }>;
  const nowIso = ctx.now().toISOString();
  for (const r of rows) {
    ctx.stmt("INSERT INTO team_outbox (team, event_uid, op, frame_uid, payload, created_at, state) VALUES (?, ?, 'forget', ?, NULL, ?, 'pending')").run(r.team, randomUUID(), r.frame_uid, nowIso);
  }
  tombstone(ctx, ids);
}

/** How recall names the origin of team frame `id`: `team alpha, alice@laptop-1a2b3c4d` (undefined when it is not a team frame). */
export function teamOriginLabel(ctx: StoreContext, id: number): string | undefined {
  const r = ctx.stmt('SELECT team, member, machine FROM team_frames WHERE frame_id = ? ORDER BY server_seq IS NULL, server_seq LIMIT 1').get(id) as
    | { team: string; member: string; machine: string }
    | undefined;
  return r && `team ${r.team}, ${r.member}@${r.machine}`;
}
