import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RECALL_HEADER, RECALL_LIST_LIMIT, estimateTokens, historyRetention, mergeRanked, type FrameInput, type Mind, type RecallResult, type SaveResult, type SearchHit } from '@hive-mind/mind';
import { settingDefault } from '@hive-mind/mind/settings';
import type { ServerContext } from './context.js';
import { clip, jsonResult } from './limits.js';
import { frameView, type FrameView } from './frames.js';
import { FieldError, guarded, type SessionInfo } from './guard.js';
import { embedSavedSoon, queryVector, searchWith } from './embeddings.js';

/** Longest `content` accepted by `save_memory`, in characters. A memory is a fact, not a document. */
export const MAX_SAVE_CHARS = 20_000;
/** Longest search query, in characters. */
export const MAX_QUERY_CHARS = 1_000;
/** Largest `limit` of `search_memory`. */
export const MAX_SEARCH_LIMIT = 50;
/** Largest `offset` of `search_memory` (deeper pages are not useful to a model). */
export const MAX_SEARCH_OFFSET = 1_000;
/** Default (the session-start budget, `HIVE_MIND_RECALL_TOKENS`'s default) and largest `budgetTokens` of `recall`. */
export const DEFAULT_RECALL_TOKENS = settingDefault('HIVE_MIND_RECALL_TOKENS');
export const MAX_RECALL_TOKENS = 8_000;

const importance = z
  .enum(['critical', 'important', 'normal', 'temporary'])
  .describe(
    'How much this matters later. critical: must never be forgotten (hard constraints, safety). important: key decisions and lasting preferences. normal (default; a memory that supersedes another keeps its importance unless given): useful facts. temporary: only relevant for a short while (expires after the TTL, never recalled into new sessions).',
  );
const scope = z
  .enum(['personal', 'workspace', 'thread'])
  .describe('personal: about the user, valid everywhere (default). workspace: about the current project. thread: only this conversation thread.');
const saveScope = z
  .enum(['personal', 'workspace', 'thread', 'team'])
  .describe(
    'personal: about the user, valid everywhere (default). workspace: about the current project. thread: only this conversation thread. team: shared with the whole team (conventions, decisions, where things are), sent to the team server; only when a team is connected (`hive-mind team connect`).',
  );
const kind = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/, 'kind must be a lowercase word of 1-40 characters (a-z, 0-9, _ or -), e.g. fact, decision, preference')
  .describe('What sort of memory: fact (default), decision, preference, instruction, error, file, outcome, note.');
const frameId = z.number().int().positive().describe('The frame id, as shown by search_memory or save_memory.');
const whichMind = z
  .enum(['personal', 'workspace'])
  .describe(
    'Which memory store the id belongs to: "personal" or "workspace" (the current project\'s), as shown in the `mind` field of a search hit or save result. Default: the one store that holds the id (an id both hold is refused: say which).',
  );
const sources = z
  .enum(['all', 'personal', 'workspace'])
  .describe('Which memory stores to use: all (default: the current project\'s workspace memory, then the personal one), personal, or workspace.');

/** A memory store the tools read: the personal mind, or the workspace mind of the session's project. */
interface MindSource {
  name: 'personal' | 'workspace';
  /** Workspace id (its git root directory) for the workspace mind. */
  id?: string;
  path: string;
  mind: Mind;
}

/**
 * The minds to read for `which`: the workspace mind (when the session has a workspace and its
 * file exists) then the personal mind. Reads never create a file.
 */
async function readSources(ctx: ServerContext, session: SessionInfo, which: 'all' | 'personal' | 'workspace' = 'all'): Promise<MindSource[]> {
  await syncTeamCacheOnce(ctx);
  const out: MindSource[] = [];
  if (which !== 'personal') {
    const dir = await session.workspace();
    if (dir) {
      const ws = await ctx.workspaceMind(dir, false);
      if (ws.mind) out.push({ name: 'workspace', id: ws.id, path: ws.path, mind: ws.mind });
    } else if (which === 'workspace') {
      throw new FieldError('mind', 'this session has no workspace (start the server from the project folder or with --workspace DIR)');
    }
  }
  if (which !== 'workspace') out.push({ name: 'personal', path: await ctx.mindPath(), mind: await ctx.mind() });
  return out;
}

/** The one mind `which` names, for get/forget/supersedes (`create` for writes). */
async function oneSource(ctx: ServerContext, session: SessionInfo, which: 'personal' | 'workspace', create: boolean): Promise<MindSource | undefined> {
  if (which === 'personal') return { name: 'personal', path: await ctx.mindPath(), mind: await ctx.mind() };
  const dir = await session.workspace();
  if (!dir) throw new FieldError(create ? 'scope' : 'mind', 'this session has no workspace (start the server from the project folder or with --workspace DIR)');
  const ws = await ctx.workspaceMind(dir, create);
  return ws.mind ? { name: 'workspace', id: ws.id, path: ws.path, mind: ws.mind } : undefined;
}

/**
 * The mind of a frame id when the call names none: of the minds in view (readSources), the one that
 * holds it. @throws FieldError on `id` (`supersedes` for a save) when none does, on `field` when both
 * do (the ids of the two stores are counted apart, so #12 of one is not #12 of the other).
 */
async function holderOf(ctx: ServerContext, session: SessionInfo, id: number, field: 'mind' | 'scope' = 'mind'): Promise<MindSource> {
  const sources = await readSources(ctx, session, 'all');
  const holding = sources.filter((s) => s.mind.get(id) !== undefined);
  if (holding.length === 1) return holding[0]!;
  if (!holding.length) throw new FieldError(field === 'mind' ? 'id' : 'supersedes', `no memory with id ${id} in the ${sources.map((s) => s.name).join(' or the ')} memory`);
  throw new FieldError(field, `id ${id} is a memory of both the ${holding.map((s) => s.name).join(' and the ')} memory: pass ${field} "${holding[0]!.name}" or "${holding[1]!.name}" (the \`mind\` of the search hit)`);
}

/**
 * `save_memory` with scope `team`: into the local mind of the team connection serving the session's
 * workspace (else the one for every workspace) and its outbox, then a background sync of this
 * process (bounded; the answer never waits for the network).
 */
async function saveTeam(
  ctx: ServerContext,
  dir: string | undefined,
  args: { content: string; kind?: string; importance?: FrameInput['importance']; tags?: string[]; supersedes?: number; thread?: string },
  host: string,
  max: number,
) {
  if (args.thread !== undefined) throw new FieldError('thread', 'applies only to scope "thread"');
  const team = await import('@hive-mind/team');
  const wsId = dir ? (await ctx.workspaceMind(dir, false)).id : undefined;
  const input: FrameInput = {
    content: args.content,
    kind: args.kind ?? 'fact',
    ...(args.importance !== undefined ? { importance: args.importance } : {}),
    source: 'agent_inferred',
    host,
    ...(args.tags ? { tags: args.tags } : {}),
    ...(args.supersedes !== undefined ? { supersedes: args.supersedes } : {}),
  };
  let r: import('@hive-mind/team').TeamSaveResult;
  try {
    r = team.saveTeamFrame(input, wsId, ctx.env);
  } catch (e) {
    if ((e as { code?: string }).code === 'NOT_CONNECTED') throw new FieldError('scope', `${(e as Error).message}; use scope "workspace" or "personal"`);
    throw e;
  }
  void team.syncSoon({ env: ctx.env, deadlineMs: TEAM_SYNC_DEADLINE_MS });
  const note =
    r.status === 'quarantined'
      ? 'Stored but quarantined (it looked like an instruction injection or hid invisible characters); it stays on this machine and is never sent to the team.'
      : r.frameUids.length
        ? `Saved, and queued for team ${r.team}; it reaches the other members at their next sync.`
        : 'The team already has this; nothing new was written.';
  return jsonResult({ id: r.id, mind: 'team', team: r.team, status: r.status, redactions: r.redactions, threats: r.threats, note }, max);
}

/** Time budget of the MCP server's background team sync, ms. */
const TEAM_SYNC_DEADLINE_MS = 20_000;

let startupSync = false;

/** The first read of a session's memories in this process starts one background team sync, when a team is connected. */
async function syncTeamCacheOnce(ctx: ServerContext): Promise<void> {
  if (startupSync) return;
  startupSync = true;
  const { mindHome } = await ctx.mindModule();
  if (!existsSync(join(mindHome(ctx.env), 'team.json'))) return;
  void import('@hive-mind/team').then((t) => t.syncSoon({ env: ctx.env, deadlineMs: TEAM_SYNC_DEADLINE_MS })).catch(() => undefined);
}

/** Register save_memory, search_memory, get_memory, recall, forget_memory, cleanup_frames, mind_stats. */
export function registerMindTools(server: McpServer, ctx: ServerContext, session: SessionInfo): void {
  registerSaveMemory(server, ctx, session);
  registerSearchMemory(server, ctx, session);
  registerGetMemory(server, ctx, session);
  registerRecall(server, ctx, session);
  registerForgetMemory(server, ctx, session);
  registerCleanupFrames(server, ctx, session);
  registerMindStats(server, ctx, session);
}

/** The `save_memory` tool. */
function registerSaveMemory(server: McpServer, ctx: ServerContext, session: SessionInfo): void {
  const max = ctx.limits.maxResultChars;
  server.registerTool(
    'save_memory',
    {
      title: 'Save a memory',
      description:
        'Store one lasting fact, decision or preference in the long-term memory (the .mind), so it can be found in later sessions. ' +
        'Save self-contained statements ("The user prefers pnpm over npm", "We chose SQLite FTS5 for search because ..."), one per call, not transcripts. ' +
        'Secrets (API keys, tokens, passwords) are redacted before storage; text that looks like a prompt injection is stored but quarantined. ' +
        'Saving the same content twice returns the existing id (status "duplicate"). To correct an older memory, pass its id in `supersedes`. ' +
        'scope "workspace" (and "thread") memories go to the current project\'s workspace memory, which the session-start hooks of every host recall in that project; "personal" ones to the personal memory.',
      inputSchema: z.strictObject({
        content: z
          .string()
          .trim()
          .min(1, 'content must not be empty')
          .max(MAX_SAVE_CHARS, `content is longer than ${MAX_SAVE_CHARS} characters; save a concise statement`)
          .describe('The memory itself, self-contained and concise.'),
        importance: importance.optional(),
        kind: kind.optional(),
        scope: saveScope.optional(),
        thread: z.string().min(1).max(300).optional().describe('Thread key (conversation or task id) for scope "thread".'),
        tags: z.array(z.string().min(1).max(40)).max(10).optional().describe('Up to 10 short labels.'),
        supersedes: frameId
          .optional()
          .describe('Id of an older memory this one corrects or replaces; the older one is retired but kept in history. Without a scope, the new memory goes to the store of the one it replaces.'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    guarded('save_memory', ctx, async (args) => {
      // a correction without a scope goes to the store of the memory it replaces (ids are per store)
      const replaced = args.supersedes !== undefined && args.scope === undefined ? await holderOf(ctx, session, args.supersedes, 'scope') : undefined;
      const scopeOf = args.scope ?? (replaced?.name === 'workspace' ? 'workspace' : 'personal');
      if (args.thread !== undefined && scopeOf !== 'thread') throw new FieldError('thread', 'applies only to scope "thread"');
      if (scopeOf === 'thread' && args.thread === undefined) throw new FieldError('thread', 'is required with scope "thread" (the conversation or task id the memory belongs to)');
      // workspace and thread memories belong to the project when there is one (as the hooks store them)
      const dir = scopeOf === 'personal' ? undefined : await session.workspace();
      if (scopeOf === 'workspace' && !dir) throw new FieldError('scope', 'this session has no workspace (start the server from the project folder or with --workspace DIR); use scope "personal"');
      if (scopeOf === 'team') return saveTeam(ctx, dir, args, session.host(), max);
      const target = (await oneSource(ctx, session, dir ? 'workspace' : 'personal', true))!;
      const input: FrameInput = {
        content: args.content,
        kind: args.kind ?? 'fact',
        ...(args.importance !== undefined ? { importance: args.importance } : {}), // unspecified: normal, or what a superseded memory had
        scope: scopeOf,
        source: 'agent_inferred',
        host: session.host(),
        ...(target.id ? { workspace: target.id } : {}),
        ...(args.thread !== undefined ? { threadKey: args.thread } : {}),
        ...(args.tags ? { tags: args.tags } : {}),
        ...(args.supersedes !== undefined ? { supersedes: args.supersedes } : {}),
      };
      let r: SaveResult;
      try {
        r = target.mind.save(input);
      } catch (e) {
        // another writer held the store past the busy timeout: queued, not lost, and not the agent's problem
        if ((e as { code?: string }).code !== 'BUSY') throw e;
        const { spoolFrames } = await ctx.mindModule();
        spoolFrames(target.path, [input]);
        return jsonResult({ mind: target.name, status: 'spooled', note: 'The memory store was busy, so this memory was queued; it is written by the next write. Do not save it again.' }, max);
      }
      const note =
        r.status === 'quarantined'
          ? 'Stored but quarantined (it looked like an instruction injection or hid invisible characters); it will not be recalled automatically.'
          : r.status === 'duplicate'
            ? 'Already stored; nothing new was written.'
            : r.status === 'idempotent'
              ? 'This write was already applied.'
              : 'Saved.';
      if (r.status === 'inserted') embedSavedSoon(ctx, target.mind, r.ids);
      const out: Record<string, unknown> = { id: r.id, mind: target.name, status: r.status, redactions: r.redactions, threats: r.threats, note };
      if (r.ids.length > 1) out.ids = r.ids;
      if (r.notices.length) out.notices = r.notices;
      return jsonResult(out, max);
    }),
  );
}
/** The `search_memory` tool. */
function registerSearchMemory(server: McpServer, ctx: ServerContext, session: SessionInfo): void {
  const max = ctx.limits.maxResultChars;
  server.registerTool(
    'search_memory',
    {
      title: 'Search memories',
      description:
        'Full-text search (BM25, blended with importance and recency) over the long-term memory: the current project\'s workspace memory and the personal one, as one ranking, each hit naming its `mind` (give it to get_memory and forget_memory); with the embeddings plug-in configured, fused with vector similarity (`ranking: "hybrid"`), so a query in other words or another language can find a memory. Use keywords, not questions. ' +
        'Returns at most `limit` hits with their ids; long contents are cut (see `truncated`, then call get_memory {id}). ' +
        'When `nextOffset` is present, call again with `offset: nextOffset` for more.',
      inputSchema: z.strictObject({
        query: z.string().trim().min(1, 'query must not be empty').max(MAX_QUERY_CHARS).describe('Keywords to look for.'),
        limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional().describe(`Hits per page, 1-${MAX_SEARCH_LIMIT}. Default 10.`),
        offset: z.number().int().min(0).max(MAX_SEARCH_OFFSET).optional().describe('Hits to skip (from a previous nextOffset). Default 0.'),
        scope: scope.optional().describe('Only memories of this scope. Default: all scopes.'),
        mind: sources.optional(),
        includeTemporary: z.boolean().optional().describe('Also search temporary frames (captured prompts and the like). Default false.'),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded('search_memory', ctx, async (args) => {
      const limit = args.limit ?? 10;
      const offset = args.offset ?? 0;
      const sources = await readSources(ctx, session, args.mind ?? 'all');
      // with the embeddings plug-in: the query embedded once for every store (or BM25 and why)
      const ranked = await queryVector(ctx, sources, args.query);
      const lists: Array<{ mind: MindSource['name']; hits: SearchHit[] }> = [];
      for (const src of sources) {
        const found = await searchWith(src.mind, args.query, ranked.vector, {
          limit: offset + limit + 1,
          ...(args.scope ? { scopes: [args.scope] } : {}),
          ...(args.includeTemporary ? { includeTemporary: true } : {}),
        });
        lists.push({ mind: src.name, hits: found });
      }
      // one ranking across stores (the mind's mergeRanked, as the CLI and the web page rank): the
      // score is comparable (same formula, same weights, the same query vector)
      const hits = mergeRanked(lists);
      const page = hits.slice(offset, offset + limit);
      const results: Array<FrameView & { mind: string }> = [];
      let used = 400;
      for (const hit of page) {
        const v = { ...frameView(hit, ctx.limits.previewChars), mind: hit.mind };
        const size = JSON.stringify(v).length + 8;
        if (used + size > max && results.length > 0) break;
        used += size;
        results.push(v);
      }
      const more = hits.length > offset + results.length;
      const out: Record<string, unknown> = { query: args.query, offset, count: results.length, results, ranking: ranked.ranking };
      if (ranked.notice) out.notice = ranked.notice;
      if (more) {
        out.nextOffset = offset + results.length;
        out.note = `More hits exist: call search_memory again with offset ${offset + results.length}.`;
      } else if (results.length === 0) {
        out.note = offset > 0 ? 'No more hits.' : 'No memory matches these keywords. Try fewer or different words.';
      }
      return jsonResult(out, max);
    }),
  );
}
/** The `get_memory` tool. */
function registerGetMemory(server: McpServer, ctx: ServerContext, session: SessionInfo): void {
  const max = ctx.limits.maxResultChars;
  server.registerTool(
    'get_memory',
    {
      title: 'Read one memory in full',
      description:
        'Read one memory by id (with the `mind` of its search hit), including its full content and history links (supersedes/supersededBy). ' +
        'Content longer than one page is returned in pieces: call again with `offset: nextOffset`.',
      inputSchema: z.strictObject({
        id: frameId,
        mind: whichMind.optional(),
        offset: z.number().int().min(0).optional().describe('Character offset into the content. Default 0.'),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded('get_memory', ctx, async (args) => {
      const src = args.mind ? await oneSource(ctx, session, args.mind, false) : await holderOf(ctx, session, args.id);
      const mind = src?.mind;
      const f = mind?.get(args.id);
      if (!src || !mind || !f) throw new FieldError('id', `no memory with id ${args.id} in the ${args.mind ?? 'personal'} memory`);
      // A long save is stored as linked parts: Mind.get of its first part gives the whole content.
      const head = f.partOf !== null && f.partOf !== undefined ? (mind.get(f.partOf) ?? f) : f;
      const content = head.content;
      const offset = args.offset ?? 0;
      if (offset > 0 && offset >= content.length) throw new FieldError('offset', `offset ${offset} is past the end of the content (${content.length} characters)`);
      const room = max - 1_200;
      const view = frameView({ ...head, content: content.slice(offset) }, room);
      const out: Record<string, unknown> = { ...view, mind: src.name, offset, contentChars: content.length };
      delete out.truncated;
      delete out.part;
      const end = offset + clip(content.slice(offset), room).text.length; // the view's content is neutralized: its length may differ
      if (end < content.length) {
        out.nextOffset = end;
        out.note = `Content continues: call get_memory with id ${head.id}${src.name === 'workspace' ? ', mind "workspace"' : ''} and offset ${end}.`;
      }
      return jsonResult(out, max);
    }),
  );
}
/** The `recall` tool. */
function registerRecall(server: McpServer, ctx: ServerContext, session: SessionInfo): void {
  const max = ctx.limits.maxResultChars;
  server.registerTool(
    'recall',
    {
      title: 'Recall relevant memories',
      description:
        'Get a ready-to-read briefing of what the memory knows, within a token budget, each line labelled with its provenance (source, host, date, importance). ' +
        'With a `query`: the memories most relevant to it (ranked as search_memory ranks them). Without: critical and important memories, then recent facts and decisions. ' +
        'Use at the start of a task; use search_memory to look for something specific.',
      inputSchema: z.strictObject({
        query: z.string().trim().min(1, 'query must not be empty when given').max(MAX_QUERY_CHARS).optional().describe('What the task is about.'),
        budgetTokens: z
          .number()
          .int()
          .min(50)
          .max(MAX_RECALL_TOKENS)
          .optional()
          .describe(`Largest size of the briefing in tokens, 50-${MAX_RECALL_TOKENS}. Default ${DEFAULT_RECALL_TOKENS}.`),
        scope: scope.optional().describe('Only memories of this scope. Default: all scopes.'),
        mind: sources.optional(),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded('recall', ctx, async (args) => {
      const budgetTokens = args.budgetTokens ?? DEFAULT_RECALL_TOKENS;
      // one line says what the briefing is (data, not instructions) for all the minds together
      const framing = estimateTokens(RECALL_HEADER) + 1;
      const sources = await readSources(ctx, session, args.mind ?? 'all');
      const scopes = args.scope ? { scopes: [args.scope] } : {};
      // with a query and the embeddings plug-in: the hits of the hybrid search, as search_memory ranks them
      const ranked = args.query ? await queryVector(ctx, sources, args.query) : undefined;
      const hitsOf = new Map<string, SearchHit[]>();
      for (const src of sources) if (ranked?.vector && src.mind.embeddingsConfigured) hitsOf.set(src.name, await searchWith(src.mind, args.query!, ranked.vector, { limit: 40, ...scopes }));
      const recallOf = (m: Mind, budget: number, exclude: number[], key: string) =>
        m.recall({ budgetTokens: budget, header: false, exclude, mindName: key as MindSource['name'], ...(args.query ? { query: args.query } : {}), ...scopes, ...(hitsOf.has(key) ? { hits: hitsOf.get(key)! } : {}) });
      const [{ recallBlocks }, { Mind: MindFile }, { TokenMeter }] = await Promise.all([import('@hive-mind/hooks'), ctx.mindModule(), import('@hive-mind/compaction/tokens')]);
      const meter = new TokenMeter();
      const last = new Map<string, RecallResult>();
      // the session-start hooks' own merge: the workspace memory first, then the personal one, in one
      // budget, a near-duplicate of an earlier item left out
      const r = recallBlocks(
        sources.map((src) => ({ key: src.name, label: src.name === 'workspace' ? `workspace ${src.id}` : 'personal', path: src.path })),
        Math.max(0, budgetTokens - framing),
        { workspace: [], personal: [] },
        (m, budget, exclude, src) => {
          const res = recallOf(m, budget, exclude, src.key);
          last.set(src.key, res);
          return res;
        },
        (path) => MindFile.open(path, { readonly: true, meter, ...(ctx.busyTimeoutMs !== undefined ? { busyTimeoutMs: ctx.busyTimeoutMs } : {}) }),
      );
      // a mind the budget left no room for still counts what matched, so the answer can say what did not fit
      for (const src of sources) if (!last.has(src.name)) last.set(src.name, recallOf(src.mind, 0, [], src.name));
      const frameIds: Record<string, number[]> = {};
      for (const [key, id] of r.ids) {
        const ids = (frameIds[key] ??= []);
        if (ids.length < 200) ids.push(id);
      }
      const results = [...last.values()];
      const omitted = results.reduce((n, x) => n + x.omitted, 0);
      const pastListLimit = results.reduce((n, x) => n + x.pastListLimit, 0);
      const dropped = results.flatMap((x) => x.droppedByScan);
      const any = r.ids.length > 0;
      const c = clip(r.text ? `${RECALL_HEADER}\n\n${r.text}` : '', max - 600);
      const out: Record<string, unknown> = {
        text: c.text,
        tokens: r.text ? Math.min(r.tokens + framing, budgetTokens) : 0,
        budgetTokens,
        frameIds,
      };
      if (ranked) out.ranking = ranked.ranking;
      if (ranked?.notice) out.notice = ranked.notice;
      if (omitted) out.omitted = omitted;
      if (dropped.length) out.droppedByScan = dropped;
      if (r.skipped.length) out.skipped = r.skipped.map((k) => ({ mind: k.key, path: k.path, code: k.code }));
      if (c.truncated) out.note = `Cut at ${c.text.length} of ${c.totalChars} characters; ask for a smaller budgetTokens or use search_memory.`;
      else if (omitted) out.note = `${omitted} more matching memories did not fit in ${budgetTokens} tokens${pastListLimit ? ` or were past the ${RECALL_LIST_LIMIT} a recall list holds` : ''}; raise budgetTokens or use search_memory.`;
      if (!any) out.note = omitted ? `${omitted} matching memor${omitted === 1 ? 'y' : 'ies'} did not fit in ${budgetTokens} tokens${pastListLimit ? ` or were past the ${RECALL_LIST_LIMIT} a recall list holds` : ''}; raise budgetTokens or use search_memory.` : 'Nothing to recall yet.';
      return jsonResult(out, max);
    }),
  );
}
/** The `forget_memory` tool. */
function registerForgetMemory(server: McpServer, ctx: ServerContext, session: SessionInfo): void {
  const max = ctx.limits.maxResultChars;
  server.registerTool(
    'forget_memory',
    {
      title: 'Forget a memory',
      description:
        'Delete one memory by id (from search_memory, with the hit\'s `mind`). Use it when the user asks to forget something or a memory is wrong and should not be corrected (to correct, save_memory with `supersedes`).',
      inputSchema: z.strictObject({ id: frameId, mind: whichMind.optional() }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    guarded('forget_memory', ctx, async (args) => {
      // no mind named: the one store holding the id (both holding it: refused, nothing deleted)
      const src = args.mind ? await oneSource(ctx, session, args.mind, false) : await holderOf(ctx, session, args.id);
      const ok = src ? src.mind.forget(args.id) : false;
      if (!ok) throw new FieldError('id', `no memory with id ${args.id} in the ${args.mind ?? src?.name ?? 'personal'} memory; nothing was deleted`);
      return jsonResult({ id: args.id, mind: src!.name, forgotten: true }, max);
    }),
  );
}
/** The `cleanup_frames` tool. */
function registerCleanupFrames(server: McpServer, ctx: ServerContext, session: SessionInfo): void {
  const max = ctx.limits.maxResultChars;
  server.registerTool(
    'cleanup_frames',
    {
      title: 'Maintain the memory store',
      description:
        'Run maintenance on the memory store and report counts. compact (default): expire temporary memories past their time to live, delete long-deprecated ones and the conversation history past its retention, fold superseded chains, re-index what is missing. ' +
        'reconcile: only repair the search index. Safe to run at any time, idempotent.',
      inputSchema: z.strictObject({
        mode: z.enum(['compact', 'reconcile']).optional().describe('compact (default) or reconcile.'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    guarded('cleanup_frames', ctx, async (args) => {
      const out: Record<string, unknown> = { mode: args.mode ?? 'compact' };
      for (const src of await readSources(ctx, session, 'all')) {
        out[src.name] = { path: src.path, ...src.mind.cleanup({ mode: args.mode ?? 'compact', history: historyRetention(process.env) }) };
      }
      return jsonResult(out, max);
    }),
  );
}
/** The `mind_stats` tool. */
function registerMindStats(server: McpServer, ctx: ServerContext, session: SessionInfo): void {
  const max = ctx.limits.maxResultChars;
  server.registerTool(
    'mind_stats',
    {
      title: 'Memory statistics',
      description: 'Counts of the memory stores (personal, and the current project\'s workspace memory): frames by importance and kind, quarantined frames, file size and path.',
      inputSchema: z.strictObject({}),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded('mind_stats', ctx, async () => {
      return jsonResult(await statsObject(ctx, session), max);
    }),
  );
}

/** The stats of every mind this session uses, as a plain object (shared by the tool and the resource). */
export async function statsObject(ctx: ServerContext, session: SessionInfo): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = { personal: { ...(await ctx.mind()).stats() } };
  const dir = await session.workspace();
  if (dir) {
    const ws = await ctx.workspaceMind(dir, false);
    out.workspace = ws.mind ? { id: ws.id, ...ws.mind.stats() } : { id: ws.id, path: ws.path, exists: false };
  } else out.workspace = null;
  return out;
}
