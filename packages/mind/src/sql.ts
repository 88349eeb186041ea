/** SQL shared by several jobs of the store, written once. */

/**
 * The ids of every older version of a frame: a recursive CTE `chain(id)` over `superseded_by`,
 * starting from the frames the bound parameter (the head's id) superseded directly.
 * Use as `${SUPERSEDE_CHAIN} SELECT ... FROM chain`.
 */
export const SUPERSEDE_CHAIN =
  'WITH RECURSIVE chain(id) AS (SELECT id FROM frames WHERE superseded_by = ? UNION SELECT f.id FROM frames f JOIN chain c ON f.superseded_by = c.id)';

/** Turns before a frame whose text is its conversation context (README "Ranking"). */
export const CONTEXT_BEFORE = 2;
/** Turns after a frame whose text is its conversation context. */
export const CONTEXT_AFTER = 1;
/** Characters of each neighbouring turn taken into a frame's context (a long frame lends its start only). */
export const CONTEXT_CHARS = 1000;

/** The text a frame is indexed by: the segmented `search_text` when it has one (analyze.ts), else `content`. */
const indexed = (a: string) => `coalesce(${a}.search_text, ${a}.content)`;

/**
 * SQL expression of a frame's conversation context (frame row alias `a`): the indexed text of the
 * {@link CONTEXT_BEFORE} frames before it and the {@link CONTEXT_AFTER} after it in the same
 * session (by id, the order they were stated), each cut to {@link CONTEXT_CHARS}; '' for a frame
 * without a session.
 */
export function contextOf(a: string): string {
  const side = (cmp: string, order: string, n: number) =>
    `SELECT t FROM (SELECT substr(${indexed('c')}, 1, ${CONTEXT_CHARS}) AS t FROM frames c WHERE c.session_id <> '' AND c.session_id = ${a}.session_id AND c.id ${cmp} ${a}.id ORDER BY c.id ${order} LIMIT ${n})`;
  return `(CASE WHEN ${a}.session_id = '' THEN '' ELSE (SELECT coalesce(group_concat(t, ' '), '') FROM (${side('<', 'DESC', CONTEXT_BEFORE)} UNION ALL ${side('>', 'ASC', CONTEXT_AFTER)})) END)`;
}

/** The FTS5 row of frame alias `a`: `(rowid, content, tags, context)` values for `INSERT INTO frames_fts`. */
export function ftsRowOf(a: string): string {
  return `${a}.id, ${indexed(a)}, (SELECT coalesce(group_concat(value, ' '), '') FROM json_each(${a}.tags)), ${contextOf(a)}`;
}

/**
 * SQL of the ids whose context holds frame alias `a` (its neighbours in the session: the
 * {@link CONTEXT_AFTER} before it and the {@link CONTEXT_BEFORE} after it), to re-index when `a`
 * is added, changed or deleted.
 */
export function contextHoldersOf(a: string): string {
  return `SELECT id FROM (SELECT h.id FROM frames h WHERE ${a}.session_id <> '' AND h.session_id <> '' AND h.session_id = ${a}.session_id AND h.id < ${a}.id ORDER BY h.id DESC LIMIT ${CONTEXT_AFTER})
    UNION ALL SELECT id FROM (SELECT h.id FROM frames h WHERE ${a}.session_id <> '' AND h.session_id <> '' AND h.session_id = ${a}.session_id AND h.id > ${a}.id ORDER BY h.id ASC LIMIT ${CONTEXT_BEFORE})`;
}

/**
 * The triggers that keep `frames_fts` in step with `frames`: a frame's own row, and the rows of the
 * neighbours whose context holds it (README "Ranking"). AFTER triggers: the changed row is already
 * in (or out of) `frames` when the neighbours' context is recomputed.
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
