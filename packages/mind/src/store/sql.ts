import { HISTORY_KINDS_SQL } from '../history/history.js';

/** SQL shared by several jobs of the store, written once. */

/**
 * The ids of every older version of a frame: a recursive CTE `chain(id)` over `superseded_by`,
 * starting from the frames the bound parameter (the head's id) superseded directly.
 * Use as `${SUPERSEDE_CHAIN} SELECT ... FROM chain`.
 */
export const SUPERSEDE_CHAIN =
  'WITH RECURSIVE chain(id) AS (SELECT id FROM frames WHERE superseded_by = ? UNION SELECT f.id FROM frames f JOIN chain c ON f.superseded_by = c.id)';

/** Turns before a history turn whose text is its conversation context (README "Ranking"). */
const CONTEXT_BEFORE = 2;
/** Turns after a history turn whose text is its conversation context. */
const CONTEXT_AFTER = 1;
/** Characters of each neighbouring turn taken into a turn's context (a long turn lends its start only). */
const CONTEXT_CHARS = 1000;

/** The text a frame is indexed by: the segmented `search_text` when it has one (analyze.ts), else `content`. */
const indexed = (a: string) => `coalesce(${a}.search_text, ${a}.content)`;

/**
 * SQL condition: frame alias `a` is a turn of a conversation (a history turn with a session,
 * history.ts). Written as the partial index `frames_turn_order` states it, so the planner uses it.
 */
export function isTurn(a: string): string {
  return `${a}.kind IN (${HISTORY_KINDS_SQL}) AND ${a}.session_id <> ''`;
}

/**
 * SQL of the ids of the turns of `a`'s session just before (`side` 'before': the `n` latest before
 * it) or just after (`'after'`: the `n` first after it), past the first `offset`, in the session's
 * order: `createdAt`, then id (a turn imported or replayed later still sits where it was said).
 */
export function turnsBeside(a: string, side: 'before' | 'after', n: number, select = 'c.id', offset = 0): string {
  const cmp = side === 'before' ? '<' : '>';
  const order = side === 'before' ? 'DESC' : 'ASC';
  return `SELECT ${select} FROM frames c WHERE ${isTurn('c')} AND c.session_id = ${a}.session_id AND (c.created_at, c.id) ${cmp} (${a}.created_at, ${a}.id) ORDER BY c.created_at ${order}, c.id ${order} LIMIT ${n}${offset ? ` OFFSET ${offset}` : ''}`;
}

/**
 * SQL expression of a frame's conversation context (frame row alias `a`): for a history turn, the
 * indexed text of the {@link CONTEXT_BEFORE} turns before it and the {@link CONTEXT_AFTER} after it
 * in its session, each cut to {@link CONTEXT_CHARS}; '' for any other frame (standing memory is no
 * conversation: a fact lends its words to no neighbour, and borrows none).
 */
function contextOf(a: string): string {
  const side = (s: 'before' | 'after', n: number) => `SELECT t FROM (${turnsBeside(a, s, n, `substr(${indexed('c')}, 1, ${CONTEXT_CHARS}) AS t`)})`;
  return `(CASE WHEN NOT (${isTurn(a)}) THEN '' ELSE (SELECT coalesce(group_concat(t, ' '), '') FROM (${side('before', CONTEXT_BEFORE)} UNION ALL ${side('after', CONTEXT_AFTER)})) END)`;
}

/** The FTS5 row of frame alias `a`: `(rowid, content, tags, context)` values for `INSERT INTO frames_fts`. */
export function ftsRowOf(a: string): string {
  return `${a}.id, ${indexed(a)}, (SELECT coalesce(group_concat(value, ' '), '') FROM json_each(${a}.tags)), ${contextOf(a)}`;
}

/**
 * SQL of the ids whose context holds turn alias `a` (its neighbours in the session: the
 * {@link CONTEXT_AFTER} turns before it and the {@link CONTEXT_BEFORE} after it), to re-index when
 * `a` is added, changed or deleted; none when `a` is not a turn.
 */
function contextHoldersOf(a: string): string {
  return `SELECT id FROM (${turnsBeside(a, 'before', CONTEXT_AFTER)}) WHERE ${isTurn(a)}
    UNION ALL SELECT id FROM (${turnsBeside(a, 'after', CONTEXT_BEFORE)}) WHERE ${isTurn(a)}`;
}

/**
 * The triggers that keep `frames_fts` in step with `frames`: a frame's own row, and the rows of the
 * turns whose context holds it (README "Ranking"). AFTER triggers: the changed row is already in
 * (or out of) `frames` when the neighbours' context is recomputed. `frames_fts` is contentless
 * (schema v8): it holds the index, not a second copy of the text, so a row is deleted by rowid
 * (`contentless_delete`).
 */
export function ftsTriggers(): string {
  const reindexHolders = (a: string) => `
    DELETE FROM frames_fts WHERE rowid IN (${contextHoldersOf(a)});
    INSERT INTO frames_fts(rowid, content, tags, context) SELECT ${ftsRowOf('p')} FROM frames p WHERE p.id IN (${contextHoldersOf(a)});`;
  return `
    CREATE TRIGGER frames_ai AFTER INSERT ON frames BEGIN
      INSERT INTO frames_fts(rowid, content, tags, context) SELECT ${ftsRowOf('n')} FROM frames n WHERE n.id = new.id;${reindexHolders('new')}
    END;
    CREATE TRIGGER frames_ad AFTER DELETE ON frames BEGIN
      DELETE FROM frames_fts WHERE rowid = old.id;${reindexHolders('old')}
    END;
    CREATE TRIGGER frames_au AFTER UPDATE OF content, tags, search_text ON frames BEGIN
      DELETE FROM frames_fts WHERE rowid = old.id;
      INSERT INTO frames_fts(rowid, content, tags, context) SELECT ${ftsRowOf('n')} FROM frames n WHERE n.id = new.id;${reindexHolders('new')}
    END;`;
}
