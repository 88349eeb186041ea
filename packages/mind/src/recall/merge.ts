/**
 * Several minds read as one (README "The minds in view"): what a session in a folder sees is that
 * folder's workspace mind and the personal mind, and the CLI, the MCP server and the web page show
 * them merged. Pure functions over what each mind returned; the callers open the minds.
 */

/** A frame (or search hit) labelled with the mind it came from (`workspace`, `personal`, or a caller's id). */
export type FromMind<T, M extends string = string> = T & { mind: M };

/**
 * The hits of several minds' searches for one query as one ranking: by the blended score (the same
 * formula, weights and query in every mind, so the scores compare), ties by the order of `lists`
 * (the workspace mind first, as the hooks recall it), then by id. Each hit is labelled with its list's `mind`. At most `limit` hits
 * (default: all).
 */
export function mergeRanked<T extends { score: number; id: number }, M extends string>(lists: ReadonlyArray<{ mind: M; hits: readonly T[] }>, limit = Infinity): Array<FromMind<T, M>> {
  const all = lists.flatMap((l, order) => l.hits.map((h) => ({ h: { ...h, mind: l.mind } as FromMind<T, M>, order })));
  all.sort((a, b) => b.h.score - a.h.score || a.order - b.order || a.h.id - b.h.id);
  return all.slice(0, limit).map((x) => x.h);
}

/**
 * The frames of several minds' listings as one list, most recently updated first (`updatedAt`, an
 * ISO 8601 UTC time; ties by the order of `lists`, then the newer id), each labelled with its
 * list's `mind`. At most `limit` frames (default: all).
 */
export function mergeRecent<T extends { updatedAt: string; id: number }, M extends string>(lists: ReadonlyArray<{ mind: M; frames: readonly T[] }>, limit = Infinity): Array<FromMind<T, M>> {
  const all = lists.flatMap((l, order) => l.frames.map((f) => ({ f: { ...f, mind: l.mind } as FromMind<T, M>, order })));
  all.sort((a, b) => (a.f.updatedAt < b.f.updatedAt ? 1 : a.f.updatedAt > b.f.updatedAt ? -1 : 0) || a.order - b.order || b.f.id - a.f.id);
  return all.slice(0, limit).map((x) => x.f);
}
