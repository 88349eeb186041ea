import type { StoreContext } from './context.js';
import { MindError } from '../errors.js';
import { SUPERSEDE_CHAIN } from './sql.js';

/**
 * Taking a copy of a frame's stored rows and putting them back: what an undo of a person's change
 * (importance, quarantine, forget) needs. A snapshot holds the rows as SQLite stores them (every
 * column, `search_text` included), so a restore gives back exactly what was there: ids, times,
 * provenance, the FTS index (rebuilt by the table's triggers).
 */

/** The stored rows of one frame, and with `versions` its older versions, parts and folded history. */
export interface FrameSnapshot {
  /** The frame the snapshot was taken of. */
  id: number;
  /** `frames` rows, every column. */
  frames: Array<Record<string, unknown>>;
  /** `frame_history` rows whose head is `id`. */
  history: Array<Record<string, unknown>>;
}

/**
 * The rows of frame `id` (and its parts); with `versions`, also every older version it superseded
 * (and their parts) and the history folded into it: everything {@link forgetFrame} deletes.
 * Returns undefined when no such frame exists.
 */
export function snapshotFrame(ctx: StoreContext, id: number, opts: { versions?: boolean } = {}): FrameSnapshot | undefined {
  return ctx.guard(() => {
    const own = ctx.stmt('SELECT * FROM frames WHERE id = ? OR part_of = ?').all(id, id) as Array<Record<string, unknown>>;
    if (!own.some((r) => r.id === id)) return undefined;
    if (!opts.versions) return { id, frames: own, history: [] };
    const older = ctx.stmt(`${SUPERSEDE_CHAIN} SELECT f.* FROM frames f JOIN chain c ON f.id = c.id OR f.part_of = c.id`).all(id) as Array<Record<string, unknown>>;
    const history = ctx.stmt('SELECT * FROM frame_history WHERE head_id = ?').all(id) as Array<Record<string, unknown>>;
    return { id, frames: [...own, ...older], history };
  });
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

/**
 * Put a snapshot's rows back in one transaction: a row whose id still exists is overwritten with
 * the stored values, a missing one is inserted with its own id. Returns the number of frame rows
 * written. Throws `INVALID` for a value that is not a snapshot of this schema.
 */
export function restoreSnapshot(ctx: StoreContext, snap: FrameSnapshot): number {
  ctx.writable();
  if (!snap || !Array.isArray(snap.frames) || !Array.isArray(snap.history)) throw new MindError('restore expects a snapshot {id, frames, history}', 'INVALID');
  const put = (table: 'frames' | 'frame_history', row: Record<string, unknown>) => {
    const cols = Object.keys(row);
    if (!cols.includes('id') || !cols.every((c) => IDENT.test(c))) throw new MindError(`snapshot row of ${table} has bad columns`, 'INVALID');
    const exists = ctx.stmt(`SELECT 1 FROM ${table} WHERE id = ?`).get(row.id);
    const values = cols.map((c) => row[c]);
    if (exists) ctx.stmt(`UPDATE ${table} SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`).run(...values, row.id);
    else ctx.stmt(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...values);
  };
  return ctx.guard(() =>
    ctx.tx(() => {
      for (const r of snap.frames) put('frames', r);
      for (const r of snap.history) put('frame_history', r);
      return snap.frames.length;
    }),
  );
}
