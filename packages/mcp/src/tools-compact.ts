import type { CompactionReport } from '@hive-mind/compaction';
import * as z from 'zod';
import { createHash } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerContext } from './context.js';
import { jsonResult } from './limits.js';
import { FieldError, guarded, type SessionInfo } from './guard.js';

/** Smallest and largest accepted `budget` (tokens). */
export const MIN_COMPACT_BUDGET = 256;
export const MAX_COMPACT_BUDGET = 2_000_000;
/** Most messages accepted inline. */
export const MAX_INLINE_MESSAGES = 20_000;
/** Compaction results kept for paging (`offset` on a repeated call is served from here). */
const CACHE_SIZE = 4;
/** File name endings `path` may have: the hosts' session files are JSONL or JSON. */
const TRANSCRIPT_EXTENSIONS = ['.jsonl', '.json'];

/**
 * Where the hosts keep their own sessions, allowed beside the client's roots (a Claude Code
 * client's root is the project, its sessions live in `~/.claude/projects`): Claude Code
 * (`$CLAUDE_CONFIG_DIR` or `~/.claude`)/projects, Codex (`$CODEX_HOME` or `~/.codex`)/sessions,
 * pi `~/.pi/agent/sessions`, Hermes (`$HERMES_HOME` or `~/.hermes`)/sessions.
 */
export function hostSessionDirs(env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || homedir();
  return [
    join(env.CLAUDE_CONFIG_DIR || join(home, '.claude'), 'projects'),
    join(env.CODEX_HOME || join(home, '.codex'), 'sessions'),
    join(home, '.pi', 'agent', 'sessions'),
    join(env.HERMES_HOME || join(home, '.hermes'), 'sessions'),
  ];
}

function inside(dir: string, file: string): boolean {
  const r = relative(dir, file);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r) && r.split(sep)[0] !== '..');
}

/**
 * An error message about a file with every quoted piece of it removed: JSON parse errors and
 * format detection quote the start of the file (`"root:x:0:0:"...`), which must never reach the
 * client when the path names a file that is not a transcript.
 */
export function withoutFileText(message: string): string {
  // greedy per line: a quoted snippet may itself hold quotes (`"{"a": SECRET}" is not valid JSON`)
  return message.replace(/"[^\n]*"(?:\.\.\.)?/g, '"…"').replace(/'[^'\n]'/g, "'…'");
}

/**
 * Check `path` before reading it: a regular `.jsonl`/`.json` file and, when the client gave
 * roots, inside one of them or a host's session folder (after following symlinks).
 * Returns the real path. @throws FieldError(`path`) saying which rule failed, never file contents.
 */
async function checkTranscriptPath(path: string, session: SessionInfo, env: NodeJS.ProcessEnv): Promise<{ real: string; key: string }> {
  let real: string;
  let st;
  try {
    real = await realpath(path);
    st = await stat(real);
  } catch (err) {
    throw new FieldError('path', `cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (!st.isFile()) throw new FieldError('path', `${path} is not a regular file; give a session transcript file`);
  if (!TRANSCRIPT_EXTENSIONS.includes(extname(real).toLowerCase())) {
    throw new FieldError('path', `${path} is not a transcript file: only ${TRANSCRIPT_EXTENSIONS.join(' and ')} session files are read`);
  }
  const roots = await session.roots();
  if (roots && roots.length) {
    const allowed = [...roots, ...hostSessionDirs(env)];
    const reals = await Promise.all(allowed.map((d) => realpath(d).catch(() => resolve(d))));
    if (!reals.some((d) => inside(d, real))) {
      throw new FieldError('path', `${path} is outside this client's roots (${roots.join(', ')}) and the hosts' session folders; only transcripts there can be read`);
    }
  }
  return { real, key: `${st.size}:${st.mtimeMs}` };
}

/** The report of one compaction: the same fields as `hive-mind compact --json`, plus what the import repaired. */
export interface CompactReport extends CompactionReport {
  compacted: boolean;
  /** Why nothing was done (`under-threshold`: already within the budget). */
  noopReason?: string;
  /** What landed: `summarize` (a checkpoint), `prune` or `mask`. */
  action?: string;
  /** Import repairs: tool calls given a synthetic result, orphan results turned into notes, lines skipped (lenient). */
  repairs: { repairedCalls: number; orphanResults: number; skippedLines: number };
}

interface Done {
  report: CompactReport;
  output: 'openai' | 'anthropic' | 'markdown';
  text: string;
}

/** Register `compact_transcript`. Compaction, transcripts and the tokenizer load on its first call. */
export function registerCompactTool(server: McpServer, ctx: ServerContext, session: SessionInfo): void {
  const max = ctx.limits.maxResultChars;
  const cache = new Map<string, Done>();

  server.registerTool(
    'compact_transcript',
    {
      title: 'Compact a conversation to a token budget',
      description:
        'Shrink a long agent conversation so it fits a token budget: older turns are replaced by a structured checkpoint summary (user requests verbatim, files, commands, errors and fixes, decisions, next step), old tool outputs can be masked, and the recent tail is kept verbatim; tool calls always keep their results. ' +
        'Give either `path` (a session file: Claude Code, Codex, pi, Hermes JSONL/JSON, or an OpenAI/Anthropic messages JSON) or `messages` (an OpenAI or Anthropic messages array). ' +
        'Returns a report (tokens before/after, what was replaced, anchor recall, tool pairing) and the compacted conversation as text (JSON messages, or markdown) in pages: when `nextOffset` is present, call again with the same arguments and `offset: nextOffset`. Runs offline (extractive summarizer); nothing is sent anywhere.',
      inputSchema: z.strictObject({
        path: z
          .string()
          .min(1)
          .max(4096)
          .optional()
          .describe("Session transcript file to read (.jsonl or .json; absolute, or relative to the server working directory). When the client declares roots, the file must be under one of them or in a host's own session folder. The file is never modified."),
        messages: z
          .array(z.record(z.string(), z.unknown()))
          .min(1, 'must hold at least one message')
          .max(MAX_INLINE_MESSAGES)
          .optional()
          .describe('Inline conversation: OpenAI chat messages ({role, content, tool_calls...}) or Anthropic messages ({role, content blocks}).'),
        system: z.string().max(200_000).optional().describe('Anthropic system prompt, with `messages`.'),
        format: z
          .enum(['claude-code', 'codex', 'pi', 'hermes', 'openai', 'anthropic'])
          .optional()
          .describe('Input format; detected from the content when omitted.'),
        budget: z.number().int().min(MIN_COMPACT_BUDGET).max(MAX_COMPACT_BUDGET).describe('Token budget the result must fit (o200k_base tokens).'),
        strategy: z
          .enum(['summarize', 'mask', 'auto'])
          .optional()
          .describe('summarize (default): checkpoint summary. mask: only replace old tool outputs with one-line placeholders. auto: mask first, summarize if still over.'),
        retainTokens: z.number().int().min(1).optional().describe('Recent tail kept verbatim (tokens). Default min(20000, 30% of budget). Must be below the budget.'),
        output: z.enum(['openai', 'anthropic', 'markdown']).optional().describe('Shape of the compacted conversation. Default: anthropic for Anthropic input, else openai.'),
        lenient: z.boolean().optional().describe('Skip unreadable lines of a session file instead of failing (they are counted in the report).'),
        offset: z.number().int().min(0).optional().describe('Character offset into the compacted text (from a previous nextOffset). Default 0.'),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded('compact_transcript', ctx, async (args, extra) => {
      if ((args.path === undefined) === (args.messages === undefined)) {
        throw new FieldError(args.path === undefined ? 'path' : 'messages', 'give exactly one of path or messages');
      }
      if (args.system !== undefined && args.messages === undefined) throw new FieldError('system', 'applies only with messages');
      const given = args.path === undefined ? undefined : isAbsolute(args.path) ? args.path : resolve(args.path);
      let fileKey = '';
      let path: string | undefined;
      if (given) {
        const c = await checkTranscriptPath(given, session, ctx.env);
        path = c.real;
        fileKey = c.key;
      }
      const { offset: _o, ...rest } = args;
      void _o;
      const key = createHash('sha256').update(JSON.stringify([rest, path, fileKey])).digest('hex');
      let done = cache.get(key);
      if (!done) {
        done = await compact(args, path, extra.signal);
        cache.delete(key);
        cache.set(key, done);
        while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      return page(done, args.offset ?? 0, max);
    }),
  );
}

type CompactArgs = {
  messages?: Record<string, unknown>[];
  system?: string;
  format?: 'claude-code' | 'codex' | 'pi' | 'hermes' | 'openai' | 'anthropic';
  budget: number;
  strategy?: 'summarize' | 'mask' | 'auto';
  retainTokens?: number;
  output?: 'openai' | 'anthropic' | 'markdown';
  lenient?: boolean;
};

async function compact(args: CompactArgs, path: string | undefined, signal: AbortSignal): Promise<Done> {
  const started = Date.now();
  const [transcripts, compaction] = await Promise.all([import('@hive-mind/transcripts'), import('@hive-mind/compaction')]);
  const readOpts = { ...(args.format ? { format: args.format } : {}), ...(args.lenient ? { lenient: true } : {}) };
  let t;
  try {
    t = path
      ? await transcripts.readTranscriptFile(path, readOpts)
      : transcripts.parseTranscript(JSON.stringify(args.system !== undefined ? { system: args.system, messages: args.messages } : args.messages), { ...readOpts, path: 'messages' });
  } catch (err) {
    if (err instanceof transcripts.TranscriptError) throw new FieldError(path ? 'path' : 'messages', path ? withoutFileText(err.message) : err.message);
    throw err;
  }
  let engine;
  try {
    // Tool definitions the file records (a Hermes session, a request body) reach the model too: they count against the budget.
    const tools = transcripts.recordedToolDefinitions(t);
    const overheadTokens = tools ? new compaction.TokenMeter().countText(tools) : 0;
    engine = new compaction.BasicCompactionEngine({
      threshold: args.budget,
      strategy: args.strategy ?? 'summarize',
      ...(overheadTokens ? { overheadTokens } : {}),
      ...(args.retainTokens !== undefined ? { retainTokens: args.retainTokens } : {}),
    });
  } catch (err) {
    if (err instanceof compaction.CompactionConfigError) throw new FieldError(err.key === 'threshold' ? 'budget' : err.key, err.message);
    throw err;
  }
  let result;
  try {
    result = await engine.compactIfNeeded(t.log, { signal });
  } catch (err) {
    if (err instanceof compaction.BudgetTooSmallError) throw new FieldError('budget', err.message);
    throw err;
  }
  const surface = t.log.surface();
  const output = args.output ?? (t.format === 'anthropic' ? 'anthropic' : 'openai');
  const text =
    output === 'markdown'
      ? transcripts.toMarkdown(surface)
      : JSON.stringify(output === 'anthropic' ? transcripts.toAnthropicMessages(surface) : transcripts.toOpenAIMessages(surface), null, 1);
  const report: CompactReport = {
    ...compaction.compactionReport(t.format, result, surface, Date.now() - started),
    budget: args.budget,
    compacted: result.compacted,
    ...(result.noopReason ? { noopReason: result.noopReason } : {}),
    ...(result.action ? { action: result.action } : {}),
    repairs: { repairedCalls: t.report.repairedCalls, orphanResults: t.report.orphanResults, skippedLines: t.report.skippedLines },
  };
  return { report, output, text };
}

/** One page of the compacted text, from `offset`, sized so the whole JSON result stays within `max`. */
function page(done: Done, offset: number, max: number) {
  const total = done.text.length;
  if (offset > 0 && offset >= total) throw new FieldError('offset', `offset ${offset} is past the end of the compacted text (${total} characters)`);
  const base = JSON.stringify({ report: done.report }).length + 700;
  let room = Math.max(500, max - base);
  let slice = done.text.slice(offset, offset + room);
  // JSON escaping (quotes, newlines, control characters) grows the text: shrink until it fits
  while (JSON.stringify(slice).length > room && slice.length > 100) {
    const over = JSON.stringify(slice).length - room;
    slice = slice.slice(0, Math.max(100, slice.length - Math.ceil(over / 2) - 16));
  }
  const code = slice.charCodeAt(slice.length - 1);
  if (slice.length < total - offset && code >= 0xd800 && code <= 0xdbff) slice = slice.slice(0, -1);
  room = slice.length;
  const out: Record<string, unknown> = {
    report: done.report,
    output: done.output,
    totalChars: total,
    offset,
    compacted: slice,
  };
  const end = offset + room;
  if (end < total) {
    out.nextOffset = end;
    out.note = `The compacted ${done.output === 'markdown' ? 'markdown' : 'JSON'} continues: call compact_transcript again with the same arguments and offset ${end}, then join the pieces.`;
  } else if (!done.report.compacted && done.report.noopReason === 'under-threshold') {
    out.note = `Already within the budget (${done.report.tokensBefore} <= ${done.report.budget} tokens): nothing was replaced.`;
  }
  return jsonResult(out, max);
}
