import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { NotesOp, NotesResult, NotesState, NotesTarget } from '@hive-mind/mind';
import type { ServerContext } from './context.js';
import { clip, jsonResult, toJson } from './limits.js';
import { FieldError, guarded, type SessionInfo } from './guard.js';

/** Longest entry accepted by `memory_notes`, in characters (the files themselves hold 1,375-2,200 by default). */
export const MAX_NOTE_CHARS = 4_000;
/** Most operations in one `batch`. */
export const MAX_BATCH_OPS = 20;
/** Longest thread key. */
export const MAX_THREAD_CHARS = 300;

/**
 * Turn ids for the failure cap. MCP does not say where an agent turn starts, so a turn is a run
 * of `memory_notes` calls from one client session with gaps shorter than `gapMs`; a client that
 * knows its turn passes `turnId` instead. Ids are namespaced per MCP session.
 */
export class TurnClock {
  private seq = 0;
  private lastAt = -Infinity;
  constructor(
    private readonly sessionId: string,
    private readonly gapMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The turn id of a call made now (an explicit client turn id wins). */
  turnId(explicit?: string): string {
    const t = this.now();
    if (explicit) {
      this.lastAt = t;
      return `mcp:${this.sessionId}:client:${explicit}`;
    }
    if (t - this.lastAt > this.gapMs) this.seq++;
    this.lastAt = t;
    return `mcp:${this.sessionId}:${this.seq}`;
  }
}

const entryText = z.string().min(1, 'must not be empty').max(MAX_NOTE_CHARS, `must be at most ${MAX_NOTE_CHARS} characters`);
const oldText = z.string().min(1, 'must not be empty').max(MAX_NOTE_CHARS).describe('The entry to change: its exact text, or a substring that only this entry contains.');

const operation = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('add'), content: entryText }),
  z.strictObject({ op: z.literal('replace'), old: oldText, content: entryText }),
  z.strictObject({ op: z.literal('remove'), old: oldText }),
]);

/** Register `memory_notes` (read/add/replace/remove/batch on MEMORY.md and USER.md). */
export function registerNotesTool(server: McpServer, ctx: ServerContext, session: SessionInfo): void {
  const max = ctx.limits.maxResultChars;
  const clock = new TurnClock(session.id, ctx.notesTurnGapMs);

  server.registerTool(
    'memory_notes',
    {
      title: 'Curated memory notes (MEMORY.md / USER.md)',
      description:
        'Small curated notes that are injected into every session: target "memory" is MEMORY.md (facts about the work: per `thread`, or the global one), target "user" is USER.md (who the user is, their preferences). ' +
        'Each file has a character limit (MEMORY.md 2,200, USER.md 1,375 by default); keep entries short and distinct. ' +
        'Actions: read (see entries with their index and size), add {content}, replace {old, content}, remove {old}, batch {operations: [{op, content?, old?}]} (all-or-nothing, limit checked on the final state). ' +
        '`old` is the exact entry or a substring only that entry contains. ' +
        'When a write would exceed the limit the answer is reason "over_limit" with every entry and its size and the exact overflow: remove or merge entries (one batch) and retry once. ' +
        'When the answer says done: true, stop calling this tool and answer the user; the fact was kept in the long-term memory and is not lost.',
      inputSchema: z.strictObject({
        action: z.enum(['read', 'add', 'replace', 'remove', 'batch']).describe('What to do.'),
        target: z.enum(['memory', 'user']).describe('memory: MEMORY.md (per thread or global); user: USER.md (global).'),
        thread: z
          .string()
          .min(1, 'must not be empty when given')
          .max(MAX_THREAD_CHARS)
          .optional()
          .describe('Thread key for target "memory" (e.g. the project or conversation id). Omit for the global MEMORY.md.'),
        content: entryText.optional().describe('The new entry (add, replace).'),
        old: oldText.optional(),
        operations: z.array(operation).min(1).max(MAX_BATCH_OPS).optional().describe(`For batch: 1-${MAX_BATCH_OPS} operations applied in order, all or nothing.`),
        expectedVersion: z.string().min(1).max(80).optional().describe('The version from an earlier read: the write is refused (reason "stale", with the current entries) if the file changed since.'),
        offset: z.number().int().min(0).optional().describe('read: first entry index to show (from a previous nextOffset). Default 0.'),
        turnId: z.string().min(1).max(200).optional().describe('Optional id of the current agent turn, for the per-turn failure cap. Omit it: calls close together count as one turn.'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    guarded('memory_notes', ctx, async (args) => {
      if (args.target === 'user' && args.thread !== undefined) throw new FieldError('thread', 'applies only to target "memory" (USER.md is global)');
      const target: NotesTarget = args.target === 'user' ? { file: 'user' } : args.thread !== undefined ? { file: 'memory', thread: args.thread } : { file: 'memory' };
      const allowed: Record<typeof args.action, string[]> = {
        read: ['offset'],
        add: ['content'],
        replace: ['old', 'content'],
        remove: ['old'],
        batch: ['operations'],
      };
      for (const field of ['content', 'old', 'operations', 'offset'] as const) {
        if (args[field] !== undefined && !allowed[args.action].includes(field)) throw new FieldError(field, `is not used by action "${args.action}" (it takes: ${allowed[args.action].join(', ') || 'nothing else'})`);
      }
      for (const field of allowed[args.action]) {
        if (field !== 'offset' && args[field as keyof typeof args] === undefined) throw new FieldError(field, `is required for action "${args.action}"`);
      }
      const notes = await ctx.notes();
      if (args.action === 'read') return readResult(notes.read(target), args.offset ?? 0, max, ctx);

      const opts = { turnId: clock.turnId(args.turnId), origin: { host: session.host(), source: 'agent_inferred' as const }, ...(args.expectedVersion ? { expectedVersion: args.expectedVersion } : {}) };
      let r: NotesResult;
      switch (args.action) {
        case 'add':
          r = notes.add(target, args.content!, opts);
          break;
        case 'replace':
          r = notes.replace(target, args.old!, args.content!, opts);
          break;
        case 'remove':
          r = notes.remove(target, args.old!, opts);
          break;
        case 'batch':
          r = notes.batch(target, args.operations as NotesOp[], opts);
          break;
      }
      return writeResult(r, max, ctx);
    }),
  );
}

/** A page of entries of a notes file, from `offset`, within `max` characters. */
function readResult(state: NotesState, offset: number, max: number, ctx: ServerContext): Promise<CallToolResult> {
  return (async () => {
    const { scanThreats } = await ctx.mindModule();
    if (offset > 0 && offset >= state.entries.length) throw new FieldError('offset', `offset ${offset} is past the last entry (the file has ${state.entries.length})`);
    const entries: Array<{ index: number; chars: number; text: string; truncated?: true; flagged?: string[] }> = [];
    let used = 600 + (state.warning?.length ?? 0);
    for (let i = offset; i < state.entries.length; i++) {
      const text = state.entries[i]!;
      const threats = scanThreats(text);
      const c = clip(text, Math.max(200, max - used - 200));
      const e = { index: i, chars: text.length, text: c.text, ...(c.truncated ? { truncated: true as const } : {}), ...(threats.length ? { flagged: threats } : {}) };
      const size = toJson(e).length + 4;
      if (used + size > max && entries.length > 0) break;
      used += size;
      entries.push(e);
    }
    const out: Record<string, unknown> = {
      path: state.path,
      exists: state.exists,
      usage: state.usage,
      limit: state.limit,
      version: state.version,
      offset,
      entries,
    };
    if (state.warning) out.warning = state.warning;
    const next = offset + entries.length;
    if (next < state.entries.length) {
      out.nextOffset = next;
      out.note = `${state.entries.length - next} more entries: call memory_notes read again with offset ${next}.`;
    }
    if (!state.exists) out.note = 'The file does not exist yet; add creates it.';
    return jsonResult(out, max);
  })();
}

/**
 * A notes write result for the model. A refused write (`ok: false`) is a tool error the model can act
 * on; `done: true` is NOT an error: it is the instruction to stop retrying and answer the user.
 */
function writeResult(r: NotesResult, max: number, ctx: ServerContext): CallToolResult {
  const body: Record<string, unknown> = { ...r };
  if (!r.ok && !r.done && r.reason === 'stale' && r.current) {
    // the current state can be large (a hand-edited file): show sizes, and point to read for the text
    const cur = r.current;
    body.current = {
      version: cur.version,
      usage: cur.usage,
      limit: cur.limit,
      entries: cur.entries.map((e, index) => ({ index, chars: e.length, preview: clip(e, 60).text })).slice(0, 50),
    };
    body.note = 'Re-read with memory_notes read, then retry with the new version.';
  }
  if (!r.ok && !r.done && r.reason === 'over_limit' && r.entries.length > 50) {
    body.entries = r.entries.slice(0, 50);
    body.note = `Showing 50 of ${r.entries.length} entries; memory_notes read lists them all.`;
  }
  if (r.done) ctx.log(`memory_notes: failure cap reached (${r.failures} failed writes in one turn)`);
  const res = jsonResult(body, max);
  if (!r.ok && !r.done) res.isError = true;
  return res;
}
