import { userHome } from '@hive-mind/transcripts/host-dirs';
import type { CompactionReport } from '@hive-mind/compaction';
// the summarizers the tool takes: the offline one (default), the API ones (keys from the server's environment), the host CLIs (the user's own login)
import { SUMMARIZER_NAMES, type SummarizerName } from '@hive-mind/compaction/summarizers';
import { EXPORT_FORMATS, FORMATS, SESSION_HOSTS, type ExportFormat, type SessionHost, type TranscriptFormat } from '@hive-mind/transcripts/hosts';
import * as z from 'zod';
import { createHash } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerContext } from './context.js';
import { jsonResult } from './limits.js';
import { FieldError, guarded, type SessionInfo } from './guard.js';

/** The tool field of a compaction config option where the two differ (the others are named alike: `budget`, `strategy`, `retainTokens`, `model`). */
const FIELD_OF_OPTION: Readonly<Record<string, string>> = { apiKeyEnv: 'summarizer' };

/** Smallest and largest accepted `budget` (tokens). */
export const MIN_COMPACT_BUDGET = 256;
export const MAX_COMPACT_BUDGET = 2_000_000;
/** Most messages accepted inline. */
export const MAX_INLINE_MESSAGES = 20_000;
/** Compaction results kept for paging (`offset` on a repeated call is served from here). */
const CACHE_SIZE = 4;
/** Default and largest deadline of a model summarizer in one call (seconds). */
const DEFAULT_SUMMARIZER_DEADLINE_S = 180;
const MAX_SUMMARIZER_DEADLINE_S = 600;
/** File name endings `path` may have: the hosts' session files are JSONL or JSON. */
const TRANSCRIPT_EXTENSIONS = ['.jsonl', '.json'];

/**
 * Where the hosts keep their own sessions, allowed beside the client's roots (a Claude Code
 * client's root is the project, its sessions live in `~/.claude/projects`): the session folder
 * of each host as the transcripts package finds it (`sessionRoots`: `$CLAUDE_CONFIG_DIR`,
 * `$CODEX_HOME`, `$PI_CODING_AGENT_DIR`, `$HERMES_HOME`, else their defaults under `HOME`).
 */
async function hostSessionDirs(env: NodeJS.ProcessEnv): Promise<string[]> {
  const { sessionRoots } = await import('@hive-mind/transcripts');
  return sessionRoots({ ...env, HOME: userHome(env) });
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
function withoutFileText(message: string): string {
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
    const allowed = [...roots, ...(await hostSessionDirs(env))];
    const reals = await Promise.all(allowed.map((d) => realpath(d).catch(() => resolve(d))));
    if (!reals.some((d) => inside(d, real))) {
      throw new FieldError('path', `${path} is outside this client's roots (${roots.join(', ')}) and the hosts' session folders; only transcripts there can be read`);
    }
  }
  return { real, key: `${st.size}:${st.mtimeMs}` };
}

/** The report of one compaction: the same fields as `hive-mind compact --json`, plus what the import repaired. */
export interface CompactReport extends CompactionReport {
  /** Set when the model summarizer failed and the extractive checkpoint landed instead: which failed, and why (one line). */
  fallback?: { from: string; reason: string };
  compacted: boolean;
  /** Why nothing was done (`under-budget`: already within the budget). */
  noopReason?: string;
  /** What landed: `summarize` (a checkpoint), `prune` or `mask`. */
  action?: string;
  /** Import repairs: tool calls given a synthetic result, orphan results turned into notes, lines skipped (lenient). */
  repairs: { repairedCalls: number; orphanResults: number; skippedLines: number };
  /** Set when a checkpoint landed well under the budget: one line saying why (the verbatim tail's size, `retainTokens`). */
  why?: string;
}

/** The host session a `session` argument named, with how to compact it in place and resume it. */
interface FoundSession {
  host: string;
  id: string;
  path: string;
  /** The shell line that resumes it in its host. */
  resume: string;
  /** The shell line that compacts the file in place (after the host is quit). */
  compactInPlace: string;
}

interface Done {
  report: CompactReport;
  output: ExportFormat;
  text: string;
  session?: FoundSession;
}

/**
 * Resolve `session` ("latest" or an id) to a host's session file inside the client's roots
 * (the server's working directory when the client declares none): "latest" is the newest
 * session whose recorded folder is one of those directories or below one; an id is found in
 * every host's folders, then must belong to such a folder.
 * @throws FieldError(`session`) when nothing matches, the id is ambiguous, or the session is
 * outside the roots.
 */
async function findSession(ref: string, host: string | undefined, info: SessionInfo, env: NodeJS.ProcessEnv): Promise<FoundSession> {
  const t = await import('@hive-mind/transcripts');
  const roots = (await info.roots()) ?? [process.cwd()];
  const reals = await Promise.all(roots.map((d) => realpath(d).catch(() => resolve(d))));
  const within = async (cwd: string | undefined) => {
    if (!cwd) return false;
    const r = await realpath(cwd).catch(() => resolve(cwd));
    return reals.some((d) => inside(d, r));
  };
  const opts = { ...(host ? { host: host as SessionHost } : {}), env: { ...env, HOME: userHome(env) } };
  let s;
  try {
    if (ref === 'latest') {
      for (const c of t.listSessions(opts)) {
        if (await within(c.cwd)) {
          s = c;
          break;
        }
      }
      if (!s) throw new FieldError('session', `no ${host ?? 'Claude Code, Codex or pi'} session started in ${roots.join(', ')}`);
    } else {
      s = t.resolveSession(ref, opts);
      if (!(await within(s.cwd))) throw new FieldError('session', `session ${ref} was started ${s.cwd ? `in ${s.cwd}` : 'in no recorded folder'}, outside this client's roots (${roots.join(', ')})`);
    }
  } catch (err) {
    if (err instanceof t.SessionLookupError) throw new FieldError('session', err.message);
    throw err;
  }
  const resume = t.HOST_TABLE[s.host].resume(s);
  return { host: s.host, id: s.id, path: s.path, resume: resume.shell, compactInPlace: `hive-mind compact --session ${t.shellQuote(s.id)} --host ${s.host}` };
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
        'Give one of `path` (a session file: Claude Code, Codex, pi, Hermes JSONL/JSON, or an OpenAI/Anthropic messages JSON), `session` ("latest" or an id: a host\'s own session of this project, found where the host keeps it) or `messages` (an OpenAI or Anthropic messages array). ' +
        'Returns a report (tokens before/after, what was replaced, anchor recall, tool pairing) and the compacted conversation as text (JSON messages, or markdown) in pages: when `nextOffset` is present, call again with the same arguments and `offset: nextOffset`. ' +
          'By default it runs offline (extractive summarizer) and nothing is sent anywhere; `summarizer: "claude-code"` or `"codex"` has the user\'s own Claude Code (`claude -p`) or Codex (`codex exec`) write the checkpoint with the login the user already has (the older turns go to that host\'s model), `"openai"`/`"anthropic"` use the API key in the server\'s environment; a model summarizer that fails lands the extractive checkpoint and the report says why.',
      inputSchema: z.strictObject({
        path: z
          .string()
          .min(1)
          .max(4096)
          .optional()
          .describe("Session transcript file to read (.jsonl or .json; absolute, or relative to the server working directory). When the client declares roots, the file must be under one of them or in a host's own session folder. The file is never modified."),
        session: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe(
            "A host's own session instead of a path: \"latest\" (the newest Claude Code, Codex or pi session started in one of the client's roots, or in the server's working directory when the client gives none) or a session id. Read only: the file is not modified; the result names the file and the commands that compact it in place and resume it.",
          ),
        host: z.enum(SESSION_HOSTS).optional().describe('With `session`: only this host.'),
        messages: z
          .array(z.record(z.string(), z.unknown()))
          .min(1, 'must hold at least one message')
          .max(MAX_INLINE_MESSAGES)
          .optional()
          .describe('Inline conversation: OpenAI chat messages ({role, content, tool_calls...}) or Anthropic messages ({role, content blocks}).'),
        system: z.string().max(200_000).optional().describe('Anthropic system prompt, with `messages`.'),
        format: z
          .enum(FORMATS)
          .optional()
          .describe('Input format; detected from the content when omitted.'),
        budget: z.number().int().min(MIN_COMPACT_BUDGET).max(MAX_COMPACT_BUDGET).describe('Token budget the result must fit (o200k_base tokens).'),
        strategy: z
          .enum(['summarize', 'mask', 'auto'])
          .optional()
          .describe('summarize (default): checkpoint summary. mask: only replace old tool outputs with one-line placeholders. auto: mask first, summarize if still over.'),
        retainTokens: z.number().int().min(1).optional().describe('Recent tail kept verbatim (tokens). Default min(20000, 30% of budget). Must be below the budget.'),
        output: z.enum(EXPORT_FORMATS).optional().describe('Shape of the compacted conversation. Default: anthropic for Anthropic input, else openai.'),
        lenient: z.boolean().optional().describe('Skip unreadable lines of a session file instead of failing (they are counted in the report).'),
        offset: z.number().int().min(0).optional().describe('Character offset into the compacted text (from a previous nextOffset). Default 0.'),
        summarizer: z
          .enum(SUMMARIZER_NAMES)
          .optional()
          .describe("Who writes the checkpoint: extractive (default, offline), claude-code or codex (the user's own host CLI and login, no API key), openai or anthropic (the API key in the server's environment)."),
        model: z.string().min(1).max(200).optional().describe('Model for a model summarizer (default: the API default, or the host CLI\'s own, e.g. "haiku").'),
        deadlineSeconds: z
          .number()
          .int()
          .min(5)
          .max(MAX_SUMMARIZER_DEADLINE_S)
          .optional()
          .describe(`Time a model summarizer may take, chunks included (seconds). Default ${DEFAULT_SUMMARIZER_DEADLINE_S}; past it the extractive checkpoint lands.`),
      }),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    guarded('compact_transcript', ctx, async (args, extra) => {
      const sources = (['path', 'session', 'messages'] as const).filter((k) => args[k] !== undefined);
      // none: the error names path (the usual one); several: the last of them
      if (sources.length !== 1) throw new FieldError(sources.at(-1) ?? 'path', 'give exactly one of path, session or messages');
      if (args.system !== undefined && args.messages === undefined) throw new FieldError('system', 'applies only with messages');
      if (args.host !== undefined && args.session === undefined) throw new FieldError('host', 'applies only with session');
      const found = args.session === undefined ? undefined : await findSession(args.session, args.host, session, ctx.env);
      const given = found ? found.path : args.path === undefined ? undefined : isAbsolute(args.path) ? args.path : resolve(args.path);
      let fileKey = '';
      let path: string | undefined;
      if (given) {
        const c = await checkTranscriptPath(given, session, ctx.env);
        path = c.real;
        fileKey = c.key;
      }
      const { offset: _o, ...rest } = args;
      const key = createHash('sha256').update(JSON.stringify([rest, path, fileKey])).digest('hex');
      let done = cache.get(key);
      if (!done) {
        done = await compact(args, path, extra.signal);
        if (found) done.session = found;
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
  format?: TranscriptFormat;
  budget: number;
  strategy?: 'summarize' | 'mask' | 'auto';
  retainTokens?: number;
  output?: ExportFormat;
  lenient?: boolean;
  summarizer?: SummarizerName;
  model?: string;
  deadlineSeconds?: number;
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
    if (args.model !== undefined && (args.summarizer ?? 'extractive') === 'extractive') throw new FieldError('model', 'applies only with a model summarizer (claude-code, codex, openai, anthropic)');
    const deadlineMs = (args.deadlineSeconds ?? DEFAULT_SUMMARIZER_DEADLINE_S) * 1000;
    const summarizer =
      args.summarizer && args.summarizer !== 'extractive' && args.strategy !== 'mask'
        ? compaction.createSummarizer(args.summarizer, { ...(args.model ? { model: args.model } : {}), deadlineMs, requestTimeoutMs: deadlineMs })
        : undefined;
    engine = new compaction.BasicCompactionEngine({
      budget: args.budget,
      strategy: args.strategy ?? 'summarize',
      ...(summarizer ? { summarizer } : {}),
      ...(overheadTokens ? { overheadTokens } : {}),
      ...(args.retainTokens !== undefined ? { retainTokens: args.retainTokens } : {}),
    });
  } catch (err) {
    if (err instanceof compaction.CompactionConfigError) throw new FieldError(FIELD_OF_OPTION[err.option] ?? err.option, err.message);
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
    ...(result.fallback ? { fallback: result.fallback } : {}),
    repairs: { repairedCalls: t.report.repairedCalls, orphanResults: t.report.orphanResults, skippedLines: t.report.skippedLines },
  };
  const landing = compaction.compactionLanding(result, surface, engine, args.budget);
  if (landing) {
    const rule = args.retainTokens !== undefined ? `retainTokens ${landing.retainTokens}` : `the default retainTokens of ${landing.retainTokens}, min(20000, 30% of the budget)`;
    report.why = compaction.landingSentence(landing, rule, 'a larger retainTokens keeps more of the conversation verbatim');
  }
  return { report, output, text };
}

/** One page of the compacted text, from `offset`, sized so the whole JSON result stays within `max`. */
function page(done: Done, offset: number, max: number) {
  const total = done.text.length;
  if (offset > 0 && offset >= total) throw new FieldError('offset', `offset ${offset} is past the end of the compacted text (${total} characters)`);
  // room for the report, the session and its note beside the text
  const base = JSON.stringify({ report: done.report }).length + 700 + (done.session ? 2 * JSON.stringify(done.session).length + 300 : 0);
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
  if (done.session) out.session = done.session;
  const end = offset + room;
  if (end < total) {
    out.nextOffset = end;
    out.note = `The compacted ${done.output === 'markdown' ? 'markdown' : 'JSON'} continues: call compact_transcript again with the same arguments and offset ${end}, then join the pieces.`;
  } else if (!done.report.compacted && done.report.noopReason === 'under-budget') {
    out.note = `Already within the budget (${done.report.tokensBefore} <= ${done.report.budget} tokens): nothing was replaced.`;
  } else if (done.session) {
    out.note = `This tool did not change ${done.session.path}. To compact the session itself, the user quits the host, runs \`${done.session.compactInPlace} --budget ${done.report.budget}\` (a backup is kept), then resumes with \`${done.session.resume}\`.`;
  }
  return jsonResult(out, max);
}
