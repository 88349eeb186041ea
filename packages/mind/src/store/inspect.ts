import { statSync } from 'node:fs';
import type { StoreContext } from './context.js';
import { MindError } from '../errors.js';
import { IMPORTANCES, SCOPES, SOURCES, toFrame, type Frame, type FrameSource, type Importance, type MindStats, type Row, type Scope } from '../frame.js';
import { wrapSqliteError } from './open.js';
import { SUPERSEDE_CHAIN } from './sql.js';
import { HISTORY_KINDS_SQL } from '../history/history.js';

/** Reading frames and the file itself: by id, version history, listing and counting, importance and quarantine flag, counts, integrity. */

/**
 * One frame by id (including retired and quarantined ones), or undefined. For part 0 of a long save
 * stored in several parts, `content` is the whole memory: every part's content in part order,
 * concatenated (the parts split it losslessly, see `chunkText`). A later part (id of part 2..N) is
 * returned as that part alone.
 */
export function getFrame(ctx: StoreContext, id: number): Frame | undefined {
  return ctx.guard(() => {
    const r = ctx.stmt('SELECT * FROM frames WHERE id = ?').get(id) as Row | undefined;
    if (!r) return undefined;
    const f = toFrame(r);
    if (f.parts > 1 && f.part === 0) {
      const rest = ctx.stmt('SELECT content FROM frames WHERE part_of = ? ORDER BY part').all(id) as Array<{ content: string }>;
      f.content += rest.map((p) => p.content).join('');
    }
    return f;
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

/** Filters of {@link listFrames} and {@link countFrames} (every one optional; they combine with AND). */
export interface ListOptions {
  /** Frames at most, 1-100000. Default 50 (ignored by count). */
  limit?: number;
  /** Frames skipped first (paging). Default 0 (ignored by count). */
  offset?: number;
  importance?: Importance;
  kind?: string;
  /** Only frames saved by this host (`claude-code`, `cli`, `mcp`, ...; '' for none recorded). */
  host?: string;
  source?: FrameSource;
  scope?: Scope;
  /** Only frames of this thread key. */
  threadKey?: string;
  /** Only quarantined frames (superseded ones included). */
  quarantinedOnly?: boolean;
  /** Only frames past their `expiresAt` (still stored until cleanup deletes them). */
  expiredOnly?: boolean;
  /** Only superseded frames (retired versions still in the table). */
  supersededOnly?: boolean;
  /** Include superseded frames. Default false. */
  includeRetired?: boolean;
  /**
   * Include the turns of the history (kinds `prompt`, `reply`; history.ts). Default false: a list is
   * the standing memory, unless `kind` names a history kind.
   */
  history?: boolean;
}

function listWhere(ctx: StoreContext, opts: ListOptions): { sql: string; params: unknown[] } {
  const where: string[] = ['1 = 1'];
  const params: unknown[] = [];
  const eq = (col: string, v: unknown) => {
    where.push(`${col} = ?`);
    params.push(v);
  };
  if (opts.importance) {
    if (!IMPORTANCES.includes(opts.importance)) throw new MindError(`list option \`importance\` must be one of ${IMPORTANCES.join(', ')}`, 'INVALID');
    eq('importance', opts.importance);
  }
  if (opts.source !== undefined) {
    if (!SOURCES.includes(opts.source)) throw new MindError(`list option \`source\` must be one of ${SOURCES.join(', ')}`, 'INVALID');
    eq('source', opts.source);
  }
  if (opts.scope !== undefined) {
    if (!SCOPES.includes(opts.scope)) throw new MindError(`list option \`scope\` must be one of ${SCOPES.join(', ')}`, 'INVALID');
    eq('scope', opts.scope);
  }
  if (opts.kind) eq('kind', opts.kind);
  else if (!opts.history) where.push(`kind NOT IN (${HISTORY_KINDS_SQL})`);
  if (opts.host !== undefined) eq('host', opts.host);
  if (opts.threadKey !== undefined) eq('thread_key', opts.threadKey);
  if (opts.quarantinedOnly) where.push('quarantined <> 0');
  if (opts.expiredOnly) {
    where.push('expires_at IS NOT NULL AND expires_at <= ?');
    params.push(ctx.now().toISOString());
  }
  if (opts.supersededOnly) where.push('superseded_by IS NOT NULL');
  else if (!opts.includeRetired && !opts.quarantinedOnly) where.push('superseded_by IS NULL');
  return { sql: where.join(' AND '), params };
}

/** Frames, most recently updated first. Throws `INVALID` for a bad option. */
export function listFrames(ctx: StoreContext, opts: ListOptions = {}): Frame[] {
  const limit = opts.limit ?? 50;
  const offset = opts.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100_000) throw new MindError(`list option \`limit\` must be an integer 1-100000, got ${opts.limit}`, 'INVALID');
  if (!Number.isInteger(offset) || offset < 0) throw new MindError(`list option \`offset\` must be a non-negative integer`, 'INVALID');
  const w = listWhere(ctx, opts);
  return ctx.guard(() =>
    (ctx.stmt(`SELECT * FROM frames WHERE ${w.sql} ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?`).all(...w.params, limit, offset) as Row[]).map(toFrame),
  );
}

/** How many frames {@link listFrames} would page through with these filters. Throws `INVALID` for a bad option. */
export function countFrames(ctx: StoreContext, opts: ListOptions = {}): number {
  const w = listWhere(ctx, opts);
  return ctx.guard(() => (ctx.stmt(`SELECT count(*) AS n FROM frames WHERE ${w.sql}`).get(...w.params) as { n: number }).n);
}

/**
 * Set the importance of frame `id` (a person's correction; `updatedAt` becomes now). Returns the
 * previous importance, or undefined when no such frame exists. Throws `INVALID` for an unknown level.
 */
export function setImportance(ctx: StoreContext, id: number, importance: Importance): Importance | undefined {
  ctx.writable();
  if (!IMPORTANCES.includes(importance)) throw new MindError(`importance must be one of ${IMPORTANCES.join(', ')}, got ${JSON.stringify(importance)}`, 'INVALID');
  return ctx.guard(() =>
    ctx.tx(() => {
      const r = ctx.stmt('SELECT importance FROM frames WHERE id = ?').get(id) as { importance: Importance } | undefined;
      if (!r) return undefined;
      ctx.stmt('UPDATE frames SET importance = ?, updated_at = ? WHERE id = ?').run(importance, ctx.now().toISOString(), id);
      return r.importance;
    }),
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
