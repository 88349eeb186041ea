import type { StoreContext } from './context.js';
import { MindError } from '../errors.js';
import { DAY_MS, toFrame, type CleanupReport, type Row } from '../frame.js';
import { SUPERSEDE_CHAIN, ftsRowOf } from './sql.js';
import { queueTeamForgets } from '../team/team-local.js';
import { DEFAULT_HISTORY_RETENTION, HISTORY_KINDS_SQL, type HistoryRetention } from '../history/history.js';

/** Removing frames: `forget` one frame with its versions and parts, and the `cleanup` maintenance passes. */

/**
 * Delete frame `id`, every older version it superseded (still in the table or folded into
 * history), and its parts when it was chunked. Returns false when no such frame exists. A team
 * frame's forget is queued for the team server in the same transaction (team-local.ts).
 */
export function forgetFrame(ctx: StoreContext, id: number): boolean {
  ctx.writable();
  return ctx.guard(() =>
    ctx.tx(() => {
        const exists = ctx.stmt('SELECT id FROM frames WHERE id = ?').get(id);
        if (!exists) return false;
        const older = ctx.stmt(
          `${SUPERSEDE_CHAIN} SELECT id FROM chain`,
        ).all(id) as Array<{ id: number }>;
        // a team frame's forget travels: queued for the server, a tombstone here (team-local.ts)
        queueTeamForgets(ctx, [...older.map((o) => o.id), id]);
        const del = ctx.stmt('DELETE FROM frames WHERE id = ? OR part_of = ?');
        for (const o of older) del.run(o.id, o.id);
        del.run(id, id);
        ctx.stmt('DELETE FROM frame_history WHERE head_id = ?').run(id);
        return true;
      }),
  );
}

/**
 * Maintenance, safe while other processes write (work is done in short transactions of at most
 * 500 rows) and idempotent (a second run reports zeros).
 * - `compact` (default): delete temporary frames older than `temporaryTtlDays` (by `createdAt`)
 *   and any frame past its `expiresAt`; delete deprecated frames not updated for `deprecatedDays`;
 *   delete the history turns past `history` (default {@link DEFAULT_HISTORY_RETENTION}: stated more
 *   than `maxAgeDays` ago, then the oldest beyond the newest `maxTurns`; a turn's parts go with it);
 *   fold superseded frames into the history table of their live head; then `reconcile`.
 * Throws `INVALID` for a bad mode or retention.
 * - `reconcile`: index frames missing from FTS, remove FTS rows without a frame.
 */
export function cleanupFrames(ctx: StoreContext, opts: { mode?: 'compact' | 'reconcile'; now?: Date; history?: HistoryRetention } = {}): CleanupReport {
  ctx.writable();
  const mode = opts.mode ?? 'compact';
  if (mode !== 'compact' && mode !== 'reconcile') throw new MindError(`cleanup option \`mode\` must be compact or reconcile, got ${JSON.stringify(mode)}`, 'INVALID');
  const keep = opts.history ?? DEFAULT_HISTORY_RETENTION;
  for (const k of ['maxAgeDays', 'maxTurns'] as const)
    if (!Number.isInteger(keep[k]) || keep[k] < 1) throw new MindError(`cleanup option \`history.${k}\` must be a positive integer, got ${JSON.stringify(keep[k])}`, 'INVALID');
  const t0 = Date.now();
  const now = opts.now ?? ctx.now();
  const report: CleanupReport = { mode, expired: 0, deprecatedDeleted: 0, historyDeleted: 0, folded: 0, reindexed: 0, orphansRemoved: 0, durationMs: 0 };
  const batch = (selectSql: string, params: unknown[], apply: (ids: number[]) => number): number => {
    let total = 0;
    for (;;) {
      const n = ctx.guard(() =>
        ctx.tx(() => {
          const ids = (ctx.stmt(`${selectSql} LIMIT 500`).all(...params) as Array<{ id: number }>).map((r) => r.id);
          return ids.length ? apply(ids) : 0;
        }),
      );
      total += n;
      if (n === 0) break;
    }
    return total;
  };
  const del = (ids: number[]) => {
    let n = 0;
    const s = ctx.stmt('DELETE FROM frames WHERE id = ?');
    for (const id of ids) n += s.run(id).changes;
    return n;
  };
  if (mode === 'compact') {
    const ttlCut = new Date(now.getTime() - ctx.config.ttlDays * DAY_MS).toISOString();
    const nowIso = now.toISOString();
    report.expired = batch(
      "SELECT id FROM frames WHERE (importance = 'temporary' AND expires_at IS NULL AND created_at <= ?) OR (expires_at IS NOT NULL AND expires_at <= ?)",
      [ttlCut, nowIso],
      del,
    );
    const depCut = new Date(now.getTime() - ctx.config.deprecatedDays * DAY_MS).toISOString();
    report.deprecatedDeleted = batch("SELECT id FROM frames WHERE importance = 'deprecated' AND updated_at <= ?", [depCut], del);
    // the history's retention: by age, then by count (the newest maxTurns turns stay)
    const delTurns = (ids: number[]) => {
      let n = 0;
      const s = ctx.stmt('DELETE FROM frames WHERE id = ? OR part_of = ?');
      for (const id of ids) if (s.run(id, id).changes) n++;
      return n;
    };
    const ageCut = new Date(now.getTime() - keep.maxAgeDays * DAY_MS).toISOString();
    report.historyDeleted = batch(`SELECT id FROM frames WHERE kind IN (${HISTORY_KINDS_SQL}) AND part = 0 AND created_at < ?`, [ageCut], delTurns);
    const nth = ctx.guard(
      () =>
        ctx.stmt(`SELECT created_at AS t, id FROM frames WHERE kind IN (${HISTORY_KINDS_SQL}) AND part = 0 ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?`).get(keep.maxTurns) as
          | { t: string; id: number }
          | undefined,
    );
    if (nth) report.historyDeleted += batch(`SELECT id FROM frames WHERE kind IN (${HISTORY_KINDS_SQL}) AND part = 0 AND (created_at, id) <= (?, ?)`, [nth.t, nth.id], delTurns);
    // fold: a retired frame moves into the history of the live head of its chain
    report.folded = batch('SELECT id FROM frames WHERE superseded_by IS NOT NULL', [], (ids) => {
      let n = 0;
      const get = ctx.stmt('SELECT * FROM frames WHERE id = ?');
      const next = ctx.stmt('SELECT superseded_by FROM frames WHERE id = ?');
      const ins = ctx.stmt('INSERT INTO frame_history (head_id, frame_id, frame_json, folded_at) VALUES (?, ?, ?, ?)');
      const rem = ctx.stmt('DELETE FROM frames WHERE id = ?');
      for (const id of ids) {
        const row = get.get(id) as Row | undefined;
        if (!row || row.superseded_by == null) continue;
        let head = row.superseded_by;
        const visited = new Set<number>([id]);
        for (;;) {
          const r = next.get(head) as { superseded_by: number | null } | undefined;
          if (!r || r.superseded_by == null || visited.has(r.superseded_by)) break;
          visited.add(head);
          head = r.superseded_by;
        }
        ins.run(head, id, JSON.stringify(toFrame(row)), now.toISOString());
        rem.run(id);
        n++;
      }
      return n;
    });
    // deleting frames whose history belonged to them: history of a deleted head is kept only while the head exists
    ctx.guard(() => ctx.stmt('DELETE FROM frame_history WHERE head_id NOT IN (SELECT id FROM frames)').run());
  }
  report.reindexed = batch('SELECT f.id FROM frames f WHERE NOT EXISTS (SELECT 1 FROM frames_fts WHERE frames_fts.rowid = f.id)', [], (ids) => {
    const s = ctx.stmt(`INSERT INTO frames_fts(rowid, content, tags, context) SELECT ${ftsRowOf('f')} FROM frames f WHERE f.id = ?`);
    for (const id of ids) s.run(id);
    return ids.length;
  });
  report.orphansRemoved = batch('SELECT rowid AS id FROM frames_fts WHERE rowid NOT IN (SELECT id FROM frames)', [], (ids) => {
    const s = ctx.stmt('DELETE FROM frames_fts WHERE rowid = ?');
    for (const id of ids) s.run(id);
    return ids.length;
  });
  if (mode === 'compact') {
    ctx.guard(() => ctx.db.pragma('wal_checkpoint(PASSIVE)'));
  }
  report.durationMs = Date.now() - t0;
  return report;
}
