/** SQL shared by several jobs of the store, written once. */

/**
 * The ids of every older version of a frame: a recursive CTE `chain(id)` over `superseded_by`,
 * starting from the frames the bound parameter (the head's id) superseded directly.
 * Use as `${SUPERSEDE_CHAIN} SELECT ... FROM chain`.
 */
export const SUPERSEDE_CHAIN =
  'WITH RECURSIVE chain(id) AS (SELECT id FROM frames WHERE superseded_by = ? UNION SELECT f.id FROM frames f JOIN chain c ON f.superseded_by = c.id)';
