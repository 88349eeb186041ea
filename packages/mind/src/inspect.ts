import { statSync } from 'node:fs';
import type { StoreContext } from './context.js';
import { MindError } from './errors.js';
import { IMPORTANCES, toFrame, type Frame, type Importance, type MindStats, type Row } from './frame.js';
import { wrapSqliteError } from './open.js';
import { SUPERSEDE_CHAIN } from './sql.js';

/** Reading frames and the file itself: by id, version history, listing, quarantine flag, counts, integrity. */

/** One frame by id (including retired and quarantined ones), or undefined. */
export function getFrame(ctx: StoreContext, id: number): Frame | undefined {
  return ctx.guard(() => {
    const r = ctx.stmt('SELECT * FROM frames WHERE id = ?').get(id) as Row | undefined;
    return r ? toFrame(r) : undefined;
  });
}

/**
 * Older versions of frame `id`: frames still in the table whose `supersededBy` chain leads to
 * `id`, plus versions folded into the history table by cleanup. Oldest first.
 */
export function frameHistory(ctx: StoreContext, id: number): Frame[] {
  return ctx.guard(() => {
    const live = ctx.stmt(
      `${SUPERSEDE_CHAIN} SELECT f.* FROM frames f JOIN chain c ON f.id = c.id`,
    ).all(id) as Row[];
    const folded = (ctx.stmt('SELECT frame_json FROM frame_history WHERE head_id = ?').all(id) as Array<{ frame_json: string }>).map((r) => JSON.parse(r.frame_json) as Frame);
    return [...folded, ...live.map(toFrame)].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id));
  });
}

/** Frames, most recently updated first. */
export function listFrames(ctx: StoreContext, opts: { limit?: number; offset?: number; importance?: Importance; kind?: string; quarantinedOnly?: boolean; includeRetired?: boolean } = {}): Frame[] {
  const limit = opts.limit ?? 50;
  const offset = opts.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100_000) throw new MindError(`list option \`limit\` must be an integer 1-100000, got ${opts.limit}`, 'INVALID');
  if (!Number.isInteger(offset) || offset < 0) throw new MindError(`list option \`offset\` must be a non-negative integer`, 'INVALID');
  const where: string[] = ['1 = 1'];
  const params: unknown[] = [];
  if (opts.importance) {
    if (!IMPORTANCES.includes(opts.importance)) throw new MindError(`list option \`importance\` must be one of ${IMPORTANCES.join(', ')}`, 'INVALID');
    where.push('importance = ?');
    params.push(opts.importance);
  }
  if (opts.kind) {
    where.push('kind = ?');
    params.push(opts.kind);
  }
  if (opts.quarantinedOnly) where.push('quarantined <> 0');
  if (!opts.includeRetired && !opts.quarantinedOnly) where.push('superseded_by IS NULL');
  return ctx.guard(() =>
    (ctx.stmt(`SELECT * FROM frames WHERE ${where.join(' AND ')} ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?`).all(...params, limit, offset) as Row[]).map(toFrame),
  );
}

/** Clear or set the quarantine flag of a frame (after a human reviewed it). Returns false when missing. */
export function setQuarantined(ctx: StoreContext, id: number, quarantined: boolean): boolean {
  ctx.writable();
  return ctx.guard(() => ctx.stmt('UPDATE frames SET quarantined = ?, updated_at = ? WHERE id = ?').run(quarantined ? 1 : 0, ctx.now().toISOString(), id).changes > 0);
}

/** Counts and sizes. */
export function mindStats(ctx: StoreContext): MindStats {
  return ctx.guard(() => {
    const one = (sql: string, ...p: unknown[]) => (ctx.stmt(sql).get(...p) as { n: number }).n;
    const byImportance = { critical: 0, important: 0, normal: 0, temporary: 0, deprecated: 0 } as Record<Importance, number>;
    for (const r of ctx.stmt('SELECT importance, count(*) AS n FROM frames WHERE superseded_by IS NULL GROUP BY importance').all() as Array<{ importance: Importance; n: number }>)
      byImportance[r.importance] = r.n;
    const byKind: Record<string, number> = {};
    for (const r of ctx.stmt('SELECT kind, count(*) AS n FROM frames WHERE superseded_by IS NULL GROUP BY kind ORDER BY n DESC').all() as Array<{ kind: string; n: number }>) byKind[r.kind] = r.n;
    const range = ctx.stmt('SELECT min(created_at) AS oldest, max(created_at) AS newest FROM frames').get() as { oldest: string | null; newest: string | null };
    let fileBytes = 0;
    let walBytes = 0;
    try {
      fileBytes = statSync(ctx.path).size;
    } catch {
      /* ignore */
    }
    try {
      walBytes = statSync(`${ctx.path}-wal`).size;
    } catch {
      /* ignore */
    }
    return {
      path: ctx.path,
      schemaVersion: ctx.db.pragma('user_version', { simple: true }) as number,
      frames: one('SELECT count(*) AS n FROM frames'),
      live: one("SELECT count(*) AS n FROM frames WHERE superseded_by IS NULL AND quarantined = 0 AND importance NOT IN ('deprecated')"),
      byImportance,
      byKind,
      quarantined: one('SELECT count(*) AS n FROM frames WHERE quarantined <> 0'),
      superseded: one('SELECT count(*) AS n FROM frames WHERE superseded_by IS NOT NULL'),
      history: one('SELECT count(*) AS n FROM frame_history'),
      ftsRows: one('SELECT count(*) AS n FROM frames_fts'),
      fileBytes,
      walBytes,
      oldest: range.oldest,
      newest: range.newest,
    };
  });
}

/**
 * SQLite's `PRAGMA quick_check(1)` over the whole file (reads every page once: O(file size),
 * a few ms per MB). A query that never touches a damaged page returns its rows silently, so
 * read commands that list or recall run this first. Throws `CORRUPT` (the same one-line error as
 * any corrupt read, naming the file and pointing at `hive-mind mind doctor --repair`).
 */
export function quickCheck(ctx: StoreContext): void {
  const rows = ctx.guard(() => ctx.db.pragma('quick_check(1)') as Array<{ quick_check: string }>);
  const first = rows[0]?.quick_check;
  if (first !== 'ok') {
    const detail = (first ?? 'quick_check returned nothing').replace(/^\*\*\* in database \w+ \*\*\*\s*/, '').split('\n')[0];
    const e = Object.assign(new Error(`database disk image is malformed: ${detail}`), { code: 'SQLITE_CORRUPT' });
    throw wrapSqliteError(e, ctx.path, ctx.config.busyTimeoutMs);
  }
}

/** `PRAGMA integrity_check` result lines (`['ok']` when healthy), plus the FTS5 integrity check. */
export function integrityCheck(ctx: StoreContext): string[] {
  return ctx.guard(() => {
    const rows = (ctx.db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check);
    try {
      ctx.db.prepare("INSERT INTO frames_fts(frames_fts) VALUES('integrity-check')").run();
    } catch (err) {
      if (!ctx.config.readonly) rows.push(`fts: ${(err as Error).message}`);
    }
    return rows;
  });
}
