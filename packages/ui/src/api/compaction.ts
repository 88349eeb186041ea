import type { Hono } from 'hono';
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { BasicCompactionEngine, DEFAULT_BUDGET_RATIO, TokenMeter, compactionReport, checkAnchors, extractAnchors, knownModelWindow, unframeCheckpoint, type CompactionResult } from '@hive-mind/compaction';
import { blocksText, type SurfaceNode } from '@hive-mind/session';
import { listSessions, readTranscriptFile, recordedModel, recordedToolDefinitions, writeTranscript, TranscriptError, type Transcript } from '@hive-mind/transcripts';
import { ApiError, readJson } from './errors.js';

/**
 * The Compaction view's API: open a session file (one of the hosts' own, listed by
 * `listSessions`, or any path), measure it against a context window, run the real engine on it
 * in memory (the CLI's `compact` defaults: extractive checkpoint, budget 80% of the window, the
 * CLI's retained tail), and show where it would cut, the checkpoint beside the span it replaces,
 * and each anchor kept by the summary or re-inserted under "Preserved details". Writing the
 * compacted file uses the CLI's own output rule (injected, {@link CompactionIO}): a new
 * `<name>.compacted.<ext>` beside it, or in place with `<file>.hive-mind-backup-<stamp>` kept first.
 */

/** A host's session, as the CLI's `compact --session` sees it (cli/src/commands/compact-session.ts). */
interface HostSession {
  host: string;
  id: string;
  /** Set when compacting it in place is refused now: a host writing it (its lock, a write in the last seconds that was not hive-mind's; `forcible`), or a host version whose format is unknown (not forcible). */
  refusal?: { message: string; forcible: boolean };
  /** The shell line that resumes it in its host. */
  resume: string;
}

/** What an in-place compaction recorded (cli compact-undo.ts `CompactionRecord`, compact-backups.ts `PruneResult`). */
interface CompactionWritten {
  path: string;
  /** The copy of the file kept before an in-place write (`<file>.hive-mind-backup-<stamp>`). */
  backup?: string;
  /** The line appended to `<file>.hive-mind-compactions`: time, backup, sha256 and size before and after, tokens before and after, summarizer. */
  record?: { at: string; backup: string; before: { sha256: string; size: number }; after: { sha256: string; size: number }; tokensBefore: number; tokensAfter: number; summarizer: string; action?: string };
  /** Why the record could not be appended (the compaction is done; an undo then needs --force). */
  recordProblem?: string;
  /** What the backup retention rule did once the compaction was recorded. */
  pruned?: { keep: number; removed: Array<{ path: string; bytes: number; at: string }>; spared: Array<{ path: string; reason: string }> };
}

/**
 * What the CLI lends the server so both compact alike (cli/src/commands/compact-output.ts,
 * compact-session.ts, ui.ts): one implementation of the output, the backup, the compaction
 * record, the retention rule and the check of a session a host is writing.
 */
export interface CompactionIO {
  /** The retained tail the CLI gives `compact` for a surface budget (tokens). */
  retainDefault(surfaceBudget: number): number;
  /** Plan and check the output of compacting `file` (`out` = the input itself for in place); throws with a readable message. */
  planOutput(file: string, out: string | undefined): { path: string; inPlace: boolean };
  /** The host session `file` is (listed in the hosts' folders), with the refusal `compact --session` would give now unless `force`; undefined for another file. */
  session(file: string, force: boolean): HostSession | undefined;
  /**
   * Write `text` to the planned output. In place: the backup first, then the compaction record
   * (`compaction`: the tokens before and after, the summarizer as the compaction report names it, the action) and the backup
   * retention rule (`HIVE_MIND_COMPACT_KEEP_BACKUPS`, default 5), as `hive-mind compact` does.
   * Throws with a readable message (nothing written when the backup or the write fails, or the
   * retention setting is bad).
   */
  writeOutput(plan: { path: string; inPlace: boolean }, file: string, text: string, compaction: { tokensBefore: number; tokensAfter: number; summarizer: string | null; action?: string }): CompactionWritten;
  /** The command that undoes the newest compaction of `file` (by its session when it is a host's). */
  undoCommand(file: string, session?: { id: string; host: string }): string;
}

/** The default context window when neither the request nor the file names one (the CLI's). */
export const DEFAULT_WINDOW = 200_000;
/** Characters of one surface node sent to the page. */
const NODE_CHARS = 1500;

interface NodeView {
  seq: number;
  role: string;
  tokens: number;
  text: string;
  cut: boolean;
  zone: 'head' | 'span' | 'tail' | 'checkpoint';
}

function nodeView(n: SurfaceNode, meter: TokenMeter, zone: NodeView['zone']): NodeView {
  const text = n.content.map((b) => (b.type === 'tool-call' ? `→ ${(b as { name?: string }).name ?? 'tool'}(${JSON.stringify((b as { input?: unknown }).input ?? {}).slice(0, 300)})` : blocksText([b]))).join('\n');
  return { seq: n.seq, role: n.type.replace('/message', '').replace('/result', ' result'), tokens: meter.countEvent(n), text: text.slice(0, NODE_CHARS), cut: text.length > NODE_CHARS, zone };
}

async function load(path: string): Promise<Transcript> {
  if (!isAbsolute(path)) throw new ApiError(400, `path must be absolute, got ${JSON.stringify(path)}`);
  if (!existsSync(path) || !statSync(path).isFile()) throw new ApiError(404, `${path}: no such file`);
  try {
    return await readTranscriptFile(path);
  } catch (e) {
    if (e instanceof TranscriptError) throw new ApiError(400, e.message);
    throw e;
  }
}

/** Run the engine on `path` in memory; the transcript is left compacted (for a write). */
export async function compactInMemory(path: string, window: number | undefined, io: CompactionIO) {
  const t = await load(path);
  const meter = new TokenMeter();
  const before = t.log.surface();
  const recorded = recordedModel(t);
  const win = window ?? recorded.window ?? (recorded.model ? knownModelWindow(recorded.model) : undefined) ?? DEFAULT_WINDOW;
  if (!Number.isInteger(win) || win < 1000) throw new ApiError(400, `window must be an integer of at least 1000 tokens, got ${window}`);
  const tools = recordedToolDefinitions(t);
  const toolTokens = tools ? meter.countText(tools) : 0;
  const budget = Math.floor(win * DEFAULT_BUDGET_RATIO);
  let engine: BasicCompactionEngine;
  try {
    engine = new BasicCompactionEngine({ meter, contextWindow: win, ...(toolTokens ? { overheadTokens: toolTokens } : {}), retainTokens: io.retainDefault(budget - toolTokens) });
  } catch (e) {
    throw new ApiError(400, (e as Error).message);
  }
  let result: CompactionResult;
  try {
    result = await engine.compactIfNeeded(t.log);
  } catch (e) {
    throw new ApiError(400, `compaction failed: ${(e as Error).message}`);
  }
  return { t, meter, before, win, budget, toolTokens, result, model: recorded.model, summarizer: engine.config.summarizer?.name ?? 'extractive' };
}

/** The preview the page shows (see the module comment). */
export async function compactionPreview(path: string, window: number | undefined, io: CompactionIO) {
  const { t, meter, before, win, budget, toolTokens, result, model } = await compactInMemory(path, window, io);
  const shadowed = new Set(result.shadowedSeqs);
  const firstSpan = before.findIndex((n) => shadowed.has(n.seq));
  const lastSpan = before.length - 1 - [...before].reverse().findIndex((n) => shadowed.has(n.seq));
  const zone = (i: number): NodeView['zone'] => (firstSpan < 0 || i < firstSpan ? (firstSpan < 0 ? 'tail' : 'head') : i <= lastSpan ? 'span' : 'tail');
  const nodes = before.map((n, i) => nodeView(n, meter, zone(i)));
  let checkpoint = '';
  let anchors: Array<{ kind: string; text: string; state: 'kept' | 'reinserted' | 'lost' }> = [];
  if (result.compacted && result.action === 'summarize') {
    const framed = blocksText(result.summary);
    checkpoint = framed;
    const body = unframeCheckpoint(framed) ?? framed;
    const at = body.indexOf('## Preserved details');
    const main = at >= 0 ? body.slice(0, at) : body;
    const preserved = at >= 0 ? body.slice(at) : '';
    const span = before.slice(firstSpan, lastSpan + 1);
    const tail = before.slice(lastSpan + 1);
    anchors = extractAnchors(span, tail).map((a) => ({
      kind: a.kind,
      text: a.text,
      state: checkAnchors(main, [a]).kept.length ? 'kept' : preserved && checkAnchors(preserved, [a]).kept.length ? 'reinserted' : 'lost',
    }));
  }
  return {
    path,
    format: t.format,
    model: model ?? null,
    window: win,
    budget,
    toolTokens,
    tokensBefore: result.tokensBefore,
    tokensAfter: result.tokensAfter,
    compacted: result.compacted,
    noopReason: result.noopReason ?? null,
    action: result.action ?? null,
    shadowedTokens: result.shadowedTokens,
    summaryTokens: result.summaryTokens,
    anchorCounts: result.anchors,
    nodes,
    checkpoint,
    anchors,
    defaultOut: io.planOutput(path, undefined).path,
    session: sessionView(io.session(path, false)),
  };
}

/** A host session as the page gets it: who, whether compacting it in place is refused now and why. */
function sessionView(s: HostSession | undefined) {
  return s ? { host: s.host, id: s.id, resume: s.resume, refusal: s.refusal ?? null } : null;
}

/** Mount the routes of the Compaction view. */
export function mountCompaction(app: Hono, env: NodeJS.ProcessEnv, io: CompactionIO): void {
  app.get('/api/sessions', (c) =>
    c.json({ sessions: listSessions({ env }).slice(0, 200).map((s) => ({ host: s.host, id: s.id, path: s.path, cwd: s.cwd ?? null, size: s.size, mtime: new Date(s.mtimeMs).toISOString(), problem: s.problem ?? null })) }),
  );
  const windowOf = (v: unknown): number | undefined => {
    if (v === undefined || v === null || v === '') return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1000 || n > 10_000_000) throw new ApiError(400, `window must be an integer 1000-10000000 (tokens), got ${JSON.stringify(v)}`);
    return n;
  };
  app.post('/api/compaction/preview', async (c) => {
    const b = await readJson(c);
    if (typeof b.path !== 'string' || !b.path) throw new ApiError(400, 'path is required: the session file to open');
    return c.json(await compactionPreview(resolve(b.path), windowOf(b.window), io));
  });
  app.post('/api/compaction/write', async (c) => {
    const b = await readJson(c);
    if (typeof b.path !== 'string' || !b.path) throw new ApiError(400, 'path is required: the session file to compact');
    const path = resolve(b.path);
    let plan: { path: string; inPlace: boolean };
    try {
      plan = io.planOutput(path, b.inPlace === true ? path : undefined);
    } catch (e) {
      throw new ApiError(400, (e as Error).message);
    }
    // in place, a host's session is checked as `compact --session` checks it (a host writing it: refused unless forced)
    const session = plan.inPlace ? io.session(path, b.force === true) : undefined;
    if (session?.refusal) throw new ApiError(409, session.refusal.message, { refusal: session.refusal });
    const { t, result, summarizer } = await compactInMemory(path, windowOf(b.window), io);
    if (!result.compacted) throw new ApiError(409, `${path} is already under the budget (${result.tokensBefore} tokens): nothing to compact, nothing written`);
    let written: CompactionWritten;
    try {
      written = io.writeOutput(plan, path, writeTranscript(t, 'same'), { tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter, summarizer: compactionReport(t.format, result, t.log.surface(), 0, summarizer).summarizer, ...(result.action ? { action: result.action } : {}) });
    } catch (e) {
      throw new ApiError(500, (e as Error).message);
    }
    return c.json({
      written: written.path,
      backup: written.backup ?? null,
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
      record: written.record ?? null,
      recordProblem: written.recordProblem ?? null,
      pruned: written.pruned ? { keep: written.pruned.keep, removed: written.pruned.removed, spared: written.pruned.spared } : null,
      session: sessionView(session),
      undo: written.backup ? io.undoCommand(path, session) : null,
    });
  });
}
