import type { Hono } from 'hono';
import { IMPORTANCES, SCOPES, SOURCES, mergeRanked, mergeRecent, type Frame, type FrameSource, type Importance, type ListOptions, type Mind, type Scope } from '@hive-mind/mind';
import { highlight, type Marks } from '../highlight.js';
import { VIEW_ID, type MindEntry, type MindRegistry } from '../minds.js';
import type { UndoSlot } from '../undo.js';
import { ApiError, readJson } from './errors.js';

/**
 * The Frames view's API: list and search a mind with filters and paging, one frame with its
 * provenance and supersede history, and the changes a person makes (importance, forget,
 * quarantine), each undoable once (undo.ts).
 *
 * Search is the CLI's (`Mind.search`, the same defaults as `hive-mind mind search`); the
 * filters of the page narrow its hits. Listing without a query pages `Mind.list` by
 * `updatedAt`, newest first, with `Mind.count` for the total. The view of the server's folder
 * (`mind=here`, the page's default: that folder's workspace mind and the personal mind) merges
 * its minds' pages as the CLI does (the mind's `mergeRanked` for a search, `mergeRecent` for a
 * list); every row names its mind (`mind`), which a frame's detail and changes then use.
 */

/** Frames per page at most. */
export const PAGE_MAX = 200;
/** Search hits considered at most (the mind's own cap on one search). */
export const SEARCH_MAX = 1000;
/** Characters of a frame's content sent in a list row (the detail view has the whole text). */
const ROW_CHARS = 1200;

/** One row of a list or search page. `marks` index into `content` (already cut at {@link ROW_CHARS}); `mind` is the id of the mind it is in. */
export type FrameRow = Omit<Frame, 'content'> & { content: string; cut: boolean; marks: Marks; score?: number; expired: boolean; mind: string };

/** The filters of the page (query string of `GET /api/frames`). */
export interface FrameQuery {
  mind: string;
  q?: string;
  kind?: string;
  importance?: Importance;
  host?: string;
  source?: FrameSource;
  scope?: Scope;
  thread?: string;
  /** Only frames in this state. */
  state?: 'quarantined' | 'expired' | 'superseded';
  /** Search also temporary frames (captured prompts). */
  temporary?: boolean;
  offset: number;
  limit: number;
}

function oneOf<T extends string>(name: string, values: readonly T[], v: string | undefined): T | undefined {
  if (v === undefined || v === '') return undefined;
  if (!values.includes(v as T)) throw new ApiError(400, `${name} must be one of ${values.join(', ')}, got ${JSON.stringify(v)}`);
  return v as T;
}

function intParam(name: string, v: string | undefined, def: number, min: number, max: number): number {
  if (v === undefined || v === '') return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new ApiError(400, `${name} must be an integer ${min}-${max}, got ${JSON.stringify(v)}`);
  return n;
}

/** Parse and check the query string of a list/search request. */
export function parseFrameQuery(p: Record<string, string | undefined>): FrameQuery {
  if (!p.mind) throw new ApiError(400, 'mind is required (personal or workspace:<name>)');
  const empty = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);
  return {
    mind: p.mind,
    q: empty(p.q?.trim()),
    kind: empty(p.kind),
    importance: oneOf('importance', IMPORTANCES, p.importance),
    host: p.host === undefined || p.host === '' ? undefined : p.host === '(none)' ? '' : p.host,
    source: oneOf('source', SOURCES, p.source),
    scope: oneOf('scope', SCOPES, p.scope),
    thread: empty(p.thread),
    state: oneOf('state', ['quarantined', 'expired', 'superseded'] as const, p.state),
    temporary: p.temporary === '1' || p.temporary === 'true',
    offset: intParam('offset', p.offset, 0, 0, 10_000_000),
    limit: intParam('limit', p.limit, 50, 1, PAGE_MAX),
  };
}

function isExpired(f: Frame, now: string): boolean {
  return f.expiresAt !== null && f.expiresAt <= now;
}

function row(f: Frame & { score?: number }, q: string | undefined, now: string, mind: string): FrameRow {
  const cut = f.content.length > ROW_CHARS;
  const content = cut ? f.content.slice(0, ROW_CHARS) : f.content;
  return { ...f, content, cut, marks: q ? highlight(content, q) : [], expired: isExpired(f, now), mind };
}

/** A page of frames: `total` matching, `frames` from `offset`. `capped` when a search had more hits than {@link SEARCH_MAX}. */
export interface FramePage {
  total: number;
  offset: number;
  frames: FrameRow[];
  capped: boolean;
  searched: boolean;
}

/** List or search one mind (see the module comment). Throws the mind's `MindError` for a bad query. */
export function framePage(m: Mind, fq: FrameQuery): FramePage {
  const now = new Date().toISOString();
  if (fq.q) {
    const hits = m.search(fq.q, {
      limit: SEARCH_MAX,
      includeTemporary: fq.temporary || fq.importance === 'temporary',
      includeQuarantined: fq.state === 'quarantined',
      includeRetired: fq.state === 'expired' || fq.state === 'superseded' || fq.importance === 'deprecated',
    });
    const keep = hits.filter(
      (h) =>
        (fq.kind === undefined || h.kind === fq.kind) &&
        (fq.importance === undefined || h.importance === fq.importance) &&
        (fq.host === undefined || h.host === fq.host) &&
        (fq.source === undefined || h.source === fq.source) &&
        (fq.scope === undefined || h.scope === fq.scope) &&
        (fq.thread === undefined || h.threadKey === fq.thread) &&
        (fq.state !== 'quarantined' || h.quarantined) &&
        (fq.state !== 'expired' || isExpired(h, now)) &&
        (fq.state !== 'superseded' || h.supersededBy !== null),
    );
    return { total: keep.length, offset: fq.offset, frames: keep.slice(fq.offset, fq.offset + fq.limit).map((h) => row(h, fq.q, now, fq.mind)), capped: hits.length >= SEARCH_MAX, searched: true };
  }
  const filters: ListOptions = {
    ...(fq.kind ? { kind: fq.kind } : {}),
    ...(fq.importance ? { importance: fq.importance } : {}),
    ...(fq.host !== undefined ? { host: fq.host } : {}),
    ...(fq.source ? { source: fq.source } : {}),
    ...(fq.scope ? { scope: fq.scope } : {}),
    ...(fq.thread ? { threadKey: fq.thread } : {}),
    ...(fq.state === 'quarantined' ? { quarantinedOnly: true } : {}),
    ...(fq.state === 'expired' ? { expiredOnly: true, includeRetired: true } : {}),
    ...(fq.state === 'superseded' ? { supersededOnly: true } : {}),
  };
  const total = m.count(filters);
  const frames = total > fq.offset ? m.list({ ...filters, limit: fq.limit, offset: fq.offset }) : [];
  return { total, offset: fq.offset, frames: frames.map((f) => row(f, undefined, now, fq.mind)), capped: false, searched: false };
}

/**
 * A page of the view (`members`: the ids and open minds it merges, the workspace mind first): each
 * mind's first `offset + limit` rows, merged as one ranking (a search) or newest first (a list),
 * then the page cut from it; `total` is the sum of the minds' totals.
 */
function viewPage(members: ReadonlyArray<{ id: string; mind: Mind }>, fq: FrameQuery): FramePage {
  const pages = members.map((m) => ({ id: m.id, page: framePage(m.mind, { ...fq, mind: m.id, offset: 0, limit: fq.offset + fq.limit }) }));
  const merged = fq.q
    ? mergeRanked(pages.map((p) => ({ mind: p.id, hits: p.page.frames.map((f) => ({ ...f, score: f.score ?? 0 })) })))
    : mergeRecent(pages.map((p) => ({ mind: p.id, frames: p.page.frames })));
  return {
    total: pages.reduce((n, p) => n + p.page.total, 0),
    offset: fq.offset,
    frames: merged.slice(fq.offset, fq.offset + fq.limit),
    capped: pages.some((p) => p.page.capped),
    searched: !!fq.q,
  };
}

/** The values the filters offer for one mind: kinds, hosts and threads with their counts. */
export function facets(m: Mind): { kinds: Array<[string, number]>; hosts: Array<[string, number]>; threads: Array<[string, number]>; total: number } {
  const db = m.database;
  const pairs = (sql: string) => (db.prepare(sql).all() as Array<{ v: string; n: number }>).map((r) => [r.v, r.n] as [string, number]);
  return {
    kinds: pairs('SELECT kind AS v, count(*) AS n FROM frames GROUP BY kind ORDER BY n DESC LIMIT 200'),
    hosts: pairs("SELECT host AS v, count(*) AS n FROM frames GROUP BY host ORDER BY n DESC LIMIT 200"),
    threads: pairs("SELECT thread_key AS v, count(*) AS n FROM frames WHERE thread_key <> '' GROUP BY thread_key ORDER BY n DESC LIMIT 500"),
    total: m.count({ includeRetired: true }),
  };
}

/** The facets of several minds as one: the counts of a value added up, the largest first. */
function mergeFacets(all: Array<ReturnType<typeof facets>>): ReturnType<typeof facets> {
  const add = (key: 'kinds' | 'hosts' | 'threads') => {
    const n = new Map<string, number>();
    for (const f of all) for (const [v, c] of f[key]) n.set(v, (n.get(v) ?? 0) + c);
    return [...n].sort((a, b) => b[1] - a[1]);
  };
  return { kinds: add('kinds'), hosts: add('hosts'), threads: add('threads'), total: all.reduce((n, f) => n + f.total, 0) };
}

function frameId(v: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n <= 0) throw new ApiError(400, `frame id must be a positive integer, got ${JSON.stringify(v)}`);
  return n;
}

/** Mount the routes of the Frames view on `app`. */
export function mountFrames(app: Hono, minds: MindRegistry, undo: UndoSlot): void {
  const mindOf = (id: string | undefined, mustExist = true): Mind => {
    if (!id) throw new ApiError(400, 'mind is required (personal or workspace:<name>)');
    if (id === VIEW_ID) throw new ApiError(400, `a frame is read and changed in its own mind: give the \`mind\` of its row (personal or workspace:<name>), not ${JSON.stringify(VIEW_ID)}`);
    if (!minds.entry(id)) throw new ApiError(404, `no mind ${JSON.stringify(id)}`);
    const m = minds.get(id, mustExist);
    if (!m) throw new ApiError(404, `mind ${JSON.stringify(id)} has no file yet`);
    return m;
  };

  app.get('/api/minds', (c) => c.json({ minds: minds.list() }));

  // the minds of the view entry that exist, opened
  const membersOf = (e: MindEntry) => (e.members ?? []).map((id) => ({ id, mind: mindOf(id) }));

  app.get('/api/facets', (c) => {
    const id = c.req.query('mind');
    const e = id ? minds.entry(id) : undefined;
    if (!e) throw new ApiError(404, `no mind ${JSON.stringify(id ?? '')}`);
    if (!e.exists) return c.json({ kinds: [], hosts: [], threads: [], total: 0 });
    if (e.kind === 'view') return c.json(mergeFacets(membersOf(e).map((m) => facets(m.mind))));
    return c.json(facets(mindOf(id)));
  });

  app.get('/api/frames', (c) => {
    const fq = parseFrameQuery(c.req.query());
    const e = minds.entry(fq.mind);
    if (!e) throw new ApiError(404, `no mind ${JSON.stringify(fq.mind)}`);
    if (!e.exists) return c.json({ total: 0, offset: 0, frames: [], capped: false, searched: !!fq.q } satisfies FramePage);
    if (e.kind === 'view') return c.json(viewPage(membersOf(e), fq));
    return c.json(framePage(mindOf(fq.mind), fq));
  });

  app.get('/api/frames/:id', (c) => {
    const m = mindOf(c.req.query('mind'));
    const id = frameId(c.req.param('id'));
    const frame = m.get(id);
    if (!frame) throw new ApiError(404, `no frame #${id} in ${m.path}`);
    // the live head this version leads to, when it was superseded
    const heads: Frame[] = [];
    for (let cur = frame, i = 0; cur.supersededBy !== null && i < 100; i++) {
      const next = m.get(cur.supersededBy);
      if (!next) break;
      heads.push(next);
      cur = next;
    }
    return c.json({ frame, history: m.history(id), newer: heads, expired: isExpired(frame, new Date().toISOString()), path: m.path });
  });

  // the three changes, each recorded for one undo before it is made
  const change = (path: string, apply: (m: Mind, id: number, body: Record<string, unknown>) => { label: string; versions?: boolean; ok: boolean }, versions = false) =>
    app.post(path, async (c) => {
      const body = await readJson(c);
      const mindId = typeof body.mind === 'string' ? body.mind : undefined;
      const m = mindOf(mindId);
      const id = frameId(c.req.param('id') ?? '');
      const snap = m.snapshot(id, { versions });
      if (!snap) throw new ApiError(404, `no frame #${id} in ${m.path}`);
      const r = apply(m, id, body);
      if (r.ok) undo.record({ label: r.label, mind: mindId!, frameId: id }, snap);
      return c.json({ ok: r.ok, label: r.label, frame: m.get(id) ?? null, undo: undo.peek() ?? null });
    });

  change('/api/frames/:id/importance', (m, id, body) => {
    const level = oneOf('importance', IMPORTANCES, typeof body.importance === 'string' ? body.importance : undefined);
    if (!level) throw new ApiError(400, `importance is required: one of ${IMPORTANCES.join(', ')}`);
    const before = m.setImportance(id, level);
    return { ok: before !== undefined, label: `importance of #${id}: ${before} → ${level}` };
  });
  change('/api/frames/:id/quarantine', (m, id, body) => {
    if (typeof body.quarantined !== 'boolean') throw new ApiError(400, 'quarantined must be true (send to quarantine) or false (release)');
    const ok = m.setQuarantined(id, body.quarantined);
    return { ok, label: body.quarantined ? `send #${id} to quarantine` : `release #${id} from quarantine` };
  });
  change(
    '/api/frames/:id/forget',
    (m, id) => ({ ok: m.forget(id), label: `forget #${id}` }),
    true,
  );

  app.get('/api/undo', (c) => c.json({ undo: undo.peek() ?? null }));
  app.post('/api/undo', (c) => {
    const done = undo.undo();
    if (!done) throw new ApiError(409, 'nothing to undo');
    return c.json({ undone: done });
  });
}
