import type { Command } from 'commander';
import {
  BasicCompactionEngine,
  BudgetTooSmallError,
  CompactionAbortedError,
  CompactionConfigError,
  CompactionFailedError,
  DEFAULT_BUDGET_RATIO,
  compactionLanding,
  compactionReport,
  type CompactionReport,
  landingSentence,
  createSummarizer,
  SUMMARIZER_NAMES,
  TokenMeter,
  type CompactionConfig,
  type CompactionResult,
  type CompactionStrategy,
} from '@hive-mind/compaction';
import {
  EXPORT_FORMATS,
  HOST_TABLE,
  readTranscriptFile,
  recordedToolDefinitions,
  resolveSession,
  SessionLookupError,
  SESSION_HOSTS,
  writeTranscript,
  TranscriptError,
  type ResumeCommand,
  type SessionFile,
  type SessionHost,
  type Transcript,
} from '@hive-mind/transcripts';
import { resolve } from 'node:path';
import { CliError, printJson } from '../errors.js';
import { addSummarizerFlags, checkBaseUrl, checkHostFlags, int, summarizerName } from '../summarizer-flags.js';
import { backupName, planOutput, restoreCommand, undoShell, writeCompaction, type Target, type WrittenCompaction } from './compact-output.js';
import { undoCompaction } from './compact-undo.js';
import { KEEP_BACKUPS_ENV, keepBackups, type PruneResult } from './compact-backups.js';
import { sessionRefusal } from './compact-session.js';
import { parseHost, sessionWindow } from './sessions.js';

interface CompactCliOptions {
  window?: string;
  budget?: string;
  retain?: string;
  summaryMax?: string;
  strategy: string;
  summarizer: string;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  stream?: boolean;
  timeout: string;
  deadline: string;
  out?: string;
  to: string;
  dryRun?: boolean;
  json?: boolean;
  lenient?: boolean;
  summarizerWindow?: string;
  fallback: boolean;
  overhead?: string;
  session?: string;
  host?: string;
  cwd?: string;
  force?: boolean;
  undo?: boolean;
  keepBackups?: string;
}

/**
 * The `--json` object (exactly these keys): the compaction package's report, then what was
 * written where. `output` is null when nothing is (or, in a dry run, would be) written;
 * `backup` is the copy of the input kept before an in-place write (a dry run names the one it
 * would make), else null.
 */
type CompactJson = CompactionReport & {
  /**
   * What the model receives beside the surface, counted against the budget (tokens): tool
   * definitions the file records, the fixed `--overhead`, and (already on the surface, shown
   * apart) the leading system messages.
   */
  overhead: { toolDefinitions: number; fixed: number; systemPrompt: number };
  /** Set when the configured summarizer failed and the extractive checkpoint landed instead. */
  fallback: { from: string; reason: string } | null;
  dryRun: boolean;
  output: { path: string; format: string; written: boolean; kind: 'compacted' | 'export' } | null;
  backup: string | null;
  /** With `--session`: the host's session that was compacted and the command that resumes it; else null. */
  session: { host: SessionHost; id: string; path: string; resume: ResumeCommand } | null;
};

const DEFAULT_WINDOW = 200_000;
/** What `--to` takes: the transcript's own format, or an export (transcripts' EXPORT_FORMATS). */
const TO = ['same', ...EXPORT_FORMATS] as const;

/**
 * The CLI's verbatim tail: about half of what the transcript may take (the budget less the overhead and recorded tool definitions; the library default, min(20000, 30%), suits
 * an agent loop that compacts often; a one-off `compact` should use the budget it is given), and
 * always below what the checkpoint leaves (`--summary-max`, default min(4096, 15%)).
 */
export function cliRetainDefault(surfaceBudget: number, summaryMax: number | undefined): number {
  // the budget less the overhead (what the transcript may take); below 1 the config names --overhead
  const budget = Math.max(1, surfaceBudget);
  const ck = summaryMax ?? Math.min(4096, Math.floor(budget * 0.15));
  return Math.max(1, Math.min(Math.floor(budget / 2), budget - ck - 1));
}

/** CLI flag of each compaction/summarizer config option (a {@link CompactionConfigError}'s `option`), for error messages. */
const FLAG_OF: Readonly<Record<string, string>> = {
  budget: '--budget',
  contextWindow: '--window',
  retainTokens: '--retain',
  summaryMaxTokens: '--summary-max',
  strategy: '--strategy',
  summarizer: '--summarizer',
  model: '--model',
  baseURL: '--base-url',
  apiKeyEnv: '--api-key-env',
  stream: '--stream',
  requestTimeoutMs: '--timeout',
  deadlineMs: '--deadline',
  window: '--summarizer-window',
  overheadTokens: '--overhead',
  fallback: '--no-fallback',
};

/**
 * A {@link CompactionConfigError} in CLI terms: the error words its message with our names for the
 * options (`retainTokens` -> `--retain`; an option that is a plain word, such as `budget`,
 * `summarizer` or `model`, stays a word), and the flag of the failing option is appended when the
 * message does not already name it.
 */
function cliConfigMessage(err: CompactionConfigError): string {
  const m = err.messageWith((k) => (k === k.toLowerCase() ? k : (FLAG_OF[k] ?? k)));
  const flag = FLAG_OF[err.option];
  return flag && !m.includes(flag) ? `${m} (${flag})` : m;
}

/** How the budget is shared between what the model receives beside the surface and the surface (tokens). */
function overheadLine(o: CompactJson['overhead'], surfaceBudget: number, budget: number): string {
  const parts = [o.toolDefinitions ? `${o.toolDefinitions} of tool definitions recorded in the file` : '', o.fixed ? `${o.fixed} given by --overhead` : ''].filter(Boolean);
  const sys = o.systemPrompt ? ` (its leading system messages: ${o.systemPrompt})` : '';
  return `the model also receives ${parts.join(' and ')}: the transcript may take ${surfaceBudget} of the budget ${budget}${sys}`;
}

/**
 * Progress lines on stderr, prefixed `hive-mind: `: always on a TTY; otherwise only once the
 * run is past 2 s, and never with --json (`quiet`) unless stderr is a TTY.
 */
function progressReporter(start: number, quiet: boolean) {
  const tty = process.stderr.isTTY === true;
  let last = '';
  return {
    say(msg: string) {
      if (quiet && !tty) return;
      if (!tty && Date.now() - start < 2000) return;
      if (msg === last) return;
      last = msg;
      if (tty) process.stderr.write(`\r\x1b[2Khive-mind: ${msg}`);
      else process.stderr.write(`hive-mind: ${msg}\n`);
    },
    done() {
      if (tty && last) process.stderr.write('\r\x1b[2K');
    },
  };
}

/**
 * `hive-mind compact FILE`: read a session transcript (format detected), compact its
 * surface to a token budget and write the result (host format, OpenAI/Anthropic message
 * JSON or markdown) atomically (temp file, fsync, rename, directory fsync). The output is
 * checked before any work: another format over the input is refused, an in-place `--to same`
 * keeps a backup of the input beside it. Under budget, a conversion (`--to` another format)
 * is still written, as an export of the whole session. A dry run writes nothing and predicts
 * the real run: with no model call involved (mask, or the extractive summarizer) it runs the
 * whole pipeline in memory, failures included; with a model summarizer it plans only.
 * Exit codes: 0 done or already under budget, 1 compaction or write failed (summarizer error
 * or timeout; nothing written), 2 bad input (unreadable transcript, bad flags or output path,
 * budget below the newest indivisible unit), 130 interrupted.
 */
export function register(program: Command): void {
  addSummarizerFlags(
    program
    .command('compact')
    .description('compact an agent session file to a token budget (checkpoint summary, observation masking), written back in its own format or as messages')
    .argument('[file]', 'transcript file (Claude Code, Codex, pi, Hermes JSONL/JSON, OpenAI or Anthropic messages); or give --session')
    .option('--session <id>', "a host's session instead of a file: latest (the newest of this folder) or its id; compacted in place with a backup, then the command that resumes it is printed")
    .option('--host <host>', `with --session: only this host's sessions (${SESSION_HOSTS.join(' | ')})`)
    .option('--cwd <dir>', 'with --session latest: the project folder (default: the current directory)')
    .option('--force', 'with --session: compact even though a host seems to be writing the session (its lock, or a write in the last seconds); with --undo: restore even though the file changed since')
    .option('--undo', 'put back the file as it was before the newest compaction hive-mind made of it (byte for byte; say which one)')
    .option('--keep-backups <n>', `in place: keep the backups of the newest n compactions of the file, removing older ones (default ${'$'}${KEEP_BACKUPS_ENV} or 5; the newest is always kept)`)
    .option('--window <tokens>', `model context window; the budget is ${DEFAULT_BUDGET_RATIO * 100}% of it (default ${DEFAULT_WINDOW})`)
    .option('--budget <tokens>', 'absolute token budget; exclusive with --window')
    .option('--retain <tokens>', 'recent tail kept verbatim (default: half of the budget less the overhead, less what --summary-max takes)')
    .option('--summary-max <tokens>', 'upper bound of the checkpoint (default min(4096, 15% of the budget))')
    .option('--strategy <name>', 'summarize | mask | auto', 'summarize'),
    { summarizer: `${SUMMARIZER_NAMES.join(' | ')} (claude-code, codex: the host's own CLI with your login, no API key)`, use: 'summarizer', parts: 'spans' },
  )
    .option('--no-fallback', 'fail when the model summarizer (openai, anthropic, claude-code, codex) fails, instead of landing the extractive checkpoint')
    .option('--overhead <tokens>', 'tokens the model receives beside the transcript (tool definitions, a system prompt the file does not record), counted against the budget', '0')
    .option('--out <path>', 'output file (default <file>.compacted.<ext>); naming the input compacts it in place with --to same only, keeping <file>.hive-mind-backup-<stamp>')
    .option('--to <format>', TO.join(' | '), 'same')
    .option('--dry-run', 'run everything but the write (a model summarizer is not called: its figures are an estimate); write nothing')
    .option('--json', 'print one JSON object')
    .option('--lenient', 'skip bad transcript lines (counted) instead of failing')
    .action(async (file: string | undefined, o: CompactCliOptions) => {
      // One SIGINT/SIGTERM handler for the whole run: a signal arriving while synchronous work
      // runs (the extractive summarizer, the write) is seen at the next check instead of being
      // lost (a listener removed before its event is dispatched drops the signal) or killing the
      // process halfway through the write (leaving a temp file).
      const ac = new AbortController();
      const onSignal = (sig: NodeJS.Signals) => {
        if (!ac.signal.aborted) ac.abort(new Error(`interrupted (${sig})`));
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      try {
        const target = pickTarget(file, o);
        if (o.undo) return undoCommand(target, o);
        await compactCommand(target.file, o, ac, target.session);
      } finally {
        process.removeListener('SIGINT', onSignal);
        process.removeListener('SIGTERM', onSignal);
      }
    });
}

/**
 * The file to work on: FILE, or the host session `--session` names (resolved with `--host`
 * and `--cwd`), refused when its host version is unknown or (unless `--force`) a host is
 * writing it now.
 * @throws CliError (exit 2) for a missing or doubled target, a lookup that fails (no session
 * for this folder, an unknown or ambiguous id), an unknown host version, a session in use.
 */
function pickTarget(file: string | undefined, o: CompactCliOptions): { file: string; session?: SessionFile } {
  if (file !== undefined && o.session !== undefined) throw new CliError('give a transcript FILE or --session, not both', 2);
  if (file === undefined && o.session === undefined) throw new CliError('give a transcript FILE, or --session latest (or a session id) for a Claude Code, Codex, pi or Hermes session', 2);
  if (o.session === undefined) {
    if (o.host !== undefined || o.cwd !== undefined) throw new CliError(`${o.host !== undefined ? '--host' : '--cwd'} applies only with --session`, 2);
    if (o.force && !o.undo) throw new CliError('--force applies only with --session or --undo', 2);
    return { file: file! };
  }
  const host = parseHost(o.host);
  if (o.cwd !== undefined && o.session !== 'latest') throw new CliError('--cwd applies only with --session latest (an id is found in every folder)', 2);
  let s: SessionFile;
  try {
    s = resolveSession(o.session, { ...(host ? { host } : {}), cwd: resolve(o.cwd ?? process.cwd()) });
  } catch (err) {
    if (err instanceof SessionLookupError) throw new CliError(err.message, 2);
    throw err;
  }
  const refused = sessionRefusal(s, { force: !!o.force, undo: !!o.undo });
  if (refused) throw new CliError(refused.message, 2);
  return { file: s.path, session: s };
}

/** `compact --undo`: restore the backup of the newest compaction and say which one it was. */
function undoCommand(target: { file: string; session?: SessionFile }, o: CompactCliOptions): void {
  const r = undoCompaction(target.file, !!o.force);
  const resume = target.session ? HOST_TABLE[target.session.host].resume(target.session) : undefined;
  const u = r.undone;
  if (o.json) {
    printJson({ file: r.file, undone: r.nothingLeft ? null : u, restoredFrom: r.nothingLeft ? null : u.backup, compactedBackup: r.compactedBackup ?? null, forced: r.forced, resume: resume ?? null });
    return;
  }
  if (r.nothingLeft) {
    process.stdout.write(`nothing to undo: ${r.file} is already as it was before hive-mind's compaction at ${u.at}; nothing written\n`);
    return;
  }
  const lines = [
    `undid the compaction of ${r.file} made at ${u.at} (${u.tokensBefore} -> ${u.tokensAfter} tokens, ${u.action ?? 'summarize'} with ${u.summarizer}): the file is back to its ${u.before.size} bytes from before it (from ${u.backup})`,
  ];
  if (r.forced) lines.push('  --force: the file had changed since that compaction; what the host wrote after it is only in the backup below');
  if (r.compactedBackup) lines.push(`  the file as it was (compacted) is kept: ${r.compactedBackup}`);
  if (resume) lines.push(`  resume it: ${resume.shell}`);
  process.stdout.write(lines.join('\n') + '\n');
}

/**
 * Let pending signal handlers run: they are dispatched by the event loop, never during
 * synchronous work, and a signal that arrived during it is emitted on the second loop turn
 * after (libuv reads its signal pipe in one turn and Node emits in the next; seen on Node 20).
 */
async function yieldToSignals(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise<void>((r) => setImmediate(r));
}

async function compactCommand(file: string, o: CompactCliOptions, ac: AbortController, session?: SessionFile): Promise<void> {
  const interrupted = () => new CliError('interrupted; nothing written', 130);
  const start = Date.now();
  const progress = progressReporter(start, !!o.json);
  const to = o.to as Target;
  if (!(TO as readonly string[]).includes(to)) throw new CliError(`--to must be ${TO.slice(0, -1).join(', ')} or ${TO.at(-1)}; got ${JSON.stringify(o.to)}`, 2);
  if (!['summarize', 'mask', 'auto'].includes(o.strategy)) throw new CliError(`--strategy must be summarize, mask or auto; got ${JSON.stringify(o.strategy)}`, 2);
  if (o.window !== undefined && o.budget !== undefined) throw new CliError('give --window or --budget, not both', 2);
  const strategy = o.strategy as CompactionStrategy;
  const timeoutS = int(o.timeout, '--timeout', 'seconds')!;
  const deadlineS = int(o.deadline, '--deadline', 'seconds')!;
  checkBaseUrl(o.baseUrl);
  const summarizerFlag = summarizerName(o.summarizer);
  checkHostFlags(summarizerFlag, o);
  const budgetGiven = o.budget !== undefined ? int(o.budget, '--budget') : undefined;
  let window = o.budget === undefined ? (int(o.window, '--window') ?? DEFAULT_WINDOW) : undefined;
  const retain = int(o.retain, '--retain');
  const summaryMax = int(o.summaryMax, '--summary-max');
  const summarizerWindow = int(o.summarizerWindow, '--summarizer-window');
  const fixedOverhead = o.overhead === undefined || o.overhead.trim() === '0' ? 0 : int(o.overhead, '--overhead')!;
  // a session is compacted in place unless --out names another file
  const plan = planOutput(file, session ? (o.out ?? file) : o.out, to);
  if (o.keepBackups !== undefined && !plan.inPlace) throw new CliError('--keep-backups applies only to an in-place compaction (--session, or --out naming the input)', 2);
  const keep = plan.inPlace ? keepBackups(o.keepBackups) : 0;

  let t: Transcript;
  try {
    t = await readTranscriptFile(file, {
      lenient: o.lenient,
      onProgress: (bytes, total) => progress.say(`reading ${Math.round((100 * bytes) / Math.max(1, total))}%`),
    });
  } catch (err) {
    if (err instanceof TranscriptError) throw new CliError(err.message, 2);
    throw err;
  }
  if (ac.signal.aborted) throw interrupted();
  // a session's own model window, when its file tells it, is the default --window
  const known = session ? sessionWindow(t) : {};
  const windowFrom = session && o.window === undefined && o.budget === undefined && known.window ? known : undefined;
  if (windowFrom) window = windowFrom.window;

  const meter = new TokenMeter();
  const tools = recordedToolDefinitions(t);
  const overhead = { toolDefinitions: tools ? meter.countText(tools) : 0, fixed: fixedOverhead, systemPrompt: 0 };
  for (const n of t.log.surface()) {
    if (n.type !== 'system/message') break;
    overhead.systemPrompt += meter.countEvent(n);
  }
  let engine: BasicCompactionEngine;
  try {
    const summarizer = strategy === 'mask' ? undefined : createSummarizer(summarizerFlag, {
      model: o.model,
      baseURL: o.baseUrl,
      apiKeyEnv: o.apiKeyEnv,
      stream: o.stream,
      requestTimeoutMs: timeoutS * 1000,
      deadlineMs: deadlineS * 1000,
      ...(summarizerWindow !== undefined ? { window: summarizerWindow } : {}),
    });
    const cfg: CompactionConfig = {
      meter,
      strategy,
      fallback: o.fallback,
      ...(overhead.toolDefinitions + overhead.fixed ? { overheadTokens: overhead.toolDefinitions + overhead.fixed } : {}),
      ...(summarizer ? { summarizer } : {}),
      ...(budgetGiven !== undefined ? { budget: budgetGiven } : { contextWindow: window }),
      retainTokens: retain ?? cliRetainDefault((budgetGiven ?? Math.floor(window! * DEFAULT_BUDGET_RATIO)) - overhead.toolDefinitions - overhead.fixed, summaryMax),
      ...(summaryMax !== undefined ? { summaryMaxTokens: summaryMax } : {}),
    };
    engine = new BasicCompactionEngine(cfg);
  } catch (err) {
    if (err instanceof CompactionConfigError) throw new CliError(cliConfigMessage(err), 2);
    throw err;
  }
  const budget = engine.config.budget;
  // A dry run runs the real pipeline in memory when no model is called, so it fails where the real run fails.
  const dry = !!o.dryRun;
  const exact = dry && (strategy === 'mask' || (engine.config.summarizer?.name ?? 'extractive') === 'extractive');

  let result: CompactionResult;
  try {
    progress.say('measuring');
    result = await engine.compactIfNeeded(t.log, {
      signal: ac.signal,
      dryRun: dry && !exact,
      onProgress: (phase, d) => progress.say(phase === 'summarize' ? `summarizing (attempt ${d?.attempt}, ${engine.config.summarizer?.name ?? 'extractive'})` : phase),
    });
  } catch (err) {
    progress.done();
    if (err instanceof BudgetTooSmallError) throw new CliError(err.message, 2);
    if (err instanceof CompactionAbortedError) throw interrupted();
    if (err instanceof CompactionFailedError) throw new CliError(err.message, 1);
    throw err;
  }
  progress.done();
  await yieldToSignals();
  if (ac.signal.aborted) throw interrupted();

  const report = { ...compactionReport(t.format, result, t.log.surface(), 0, engine.config.summarizer?.name ?? 'extractive'), budget };
  const usedSummarizer = report.summarizer;
  const outFormat = to === 'same' ? t.format : to;
  // Compacted: the new surface. Not compacted: a conversion is still written (an export of the whole session); `--to same` would only copy the input.
  const kind: 'compacted' | 'export' | undefined = result.compacted ? 'compacted' : !result.dryRun && to !== 'same' ? 'export' : result.dryRun ? 'compacted' : undefined;
  let written: WrittenCompaction | undefined;
  let recordProblem: string | undefined;
  let pruned: PruneResult | undefined;
  if (kind && !result.dryRun) {
    let text: string;
    try {
      text = writeTranscript(t, to);
    } catch (err) {
      if (err instanceof TranscriptError) throw new CliError(err.message, 1);
      throw err;
    }
    await yieldToSignals();
    if (ac.signal.aborted) throw interrupted();
    // From here a signal waits for the write to finish (the handler runs after it), then the report is printed.
    if (!dry) {
      written = writeCompaction(plan, file, text, { tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter, summarizer: usedSummarizer, ...(result.action ? { action: result.action } : {}) }, keep);
      recordProblem = written.recordProblem;
      pruned = written.pruned;
    }
  }
  const backup = written?.backup ?? (dry && kind && plan.inPlace ? backupName(file) : undefined);
  const json: CompactJson = {
    ...report,
    durationMs: Date.now() - start,
    dryRun: dry,
    output: kind ? { path: plan.path, format: outFormat, written: !!written, kind } : null,
    backup: backup ?? null,
    overhead,
    fallback: result.fallback ?? null,
    session: session ? { host: session.host, id: session.id, path: session.path, resume: HOST_TABLE[session.host].resume(session) } : null,
  };

  const pruneLines = pruned ? pruneReport(pruned) : [];
  if (o.json) {
    printJson(json);
    // the --json keys stay as documented; what the retention rule removed is said on stderr
    for (const l of pruneLines) process.stderr.write(`hive-mind: ${l.trim()}\n`);
    await interruptedAfterWrite(ac, written);
    return;
  }
  const lines: string[] = [];
  const would = (yes: string, no: string) => (dry ? yes : no);
  if (!result.compacted && !result.dryRun) {
    if (overhead.toolDefinitions || overhead.fixed) lines.push(overheadLine(overhead, engine.surfaceBudget(), budget));
    const what = kind === 'export' ? `; nothing to compact, ${would('would write', 'wrote')} the whole session to ${plan.path} (${outFormat})` : '; nothing to do, nothing written';
    lines.push(
      result.noopReason === 'under-budget'
        ? `${file} (${t.format}) is already under budget: ${result.tokensBefore} tokens <= ${engine.surfaceBudget()}${engine.surfaceBudget() !== budget ? ` (the budget ${budget} less the overhead)` : ''}${what}`
        : `${file} (${t.format}): nothing can be compacted (${result.tokensBefore} tokens, budget ${budget})${what}`,
    );
  } else {
    const estimate = !!result.dryRun;
    lines.push(`${would('would compact', 'compacted')} ${file} (${t.format}): ${result.tokensBefore} -> ${estimate ? '<= ' : ''}${result.tokensAfter} tokens (budget ${budget})`);
    if (overhead.toolDefinitions || overhead.fixed) lines.push(`  ${overheadLine(overhead, engine.surfaceBudget(), budget)}`);
    if (result.fallback) lines.push(`  the ${result.fallback.from} summarizer failed, so the checkpoint is extractive (--no-fallback fails instead): ${result.fallback.reason}`);
    if (result.repairedSections?.length) lines.push(`  ${repairLine(usedSummarizer ?? 'model', result.repairedSections)}`);
    const seqs = result.shadowedSeqs;
    if (result.action === 'summarize') {
      lines.push(`  ${would('would replace', 'replaced')} ${seqs.length} surface events (log seqs ${Math.min(...seqs)} to ${Math.max(...seqs)}, ${result.shadowedTokens} tokens) with ${estimate ? `a checkpoint of at most ${result.summaryTokens} tokens` : `a ${result.summaryTokens}-token checkpoint`} (${usedSummarizer}${result.model ? `, ${result.model}` : ''})`);
      if (estimate) lines.push(`  (an estimate: the ${usedSummarizer} summarizer is not called in a dry run)`);
      else {
        lines.push(`  anchors: ${result.anchors.total} total, ${result.anchors.kept} kept by the summary, ${result.anchors.reinserted} reinserted`);
        const landing = landingLine(result, t.log.surface(), engine, budget, retain !== undefined);
        if (landing) lines.push(`  ${landing}`);
      }
    } else {
      lines.push(`  ${would('would replace', 'replaced')} ${seqs.length} tool results by ${result.action === 'mask' ? 'one-line placeholders' : 'pruned versions (head, tail, error lines)'} (seqs ${seqs.join(', ')})`);
    }
    if (strategy === 'auto') {
      lines.push(
        result.action === 'mask'
          ? '  strategy auto: masked only (masking old tool results was enough)'
          : `  strategy auto: masking old tool results alone would stay above the budget, so ${result.action === 'prune' ? 'pruned' : 'summarized'} instead`,
      );
    }
    lines.push(`  tool pairing: ${report.toolPairing}`);
    lines.push(`  ${would('would write', 'wrote')} ${plan.path} (${outFormat}${plan.inPlace ? ', in place' : ''})`);
  }
  if (backup) lines.push(`  ${would('would keep a backup of the original', 'backup of the original')}: ${backup}${dry ? '' : ` (to restore: ${restoreCommand(backup, resolve(file))})`}`);
  if (recordProblem) lines.push(`  ${recordProblem}`);
  lines.push(...pruneLines);
  if (windowFrom) lines.push(`  window ${windowFrom.window} tokens, ${windowFrom.source === 'recorded' ? `recorded by ${HOST_TABLE[session!.host].name}` : `of ${windowFrom.model}`} (--window or --budget to change it)`);
  if (result.compacted || result.dryRun) lines.push(`  took ${json.durationMs} ms`);
  if (json.session) {
    lines.push(`resume it: ${json.session.resume.shell}`);
    if (json.session.resume.note) lines.push(`  (${json.session.resume.note})`);
    if (written?.backup) lines.push(`undo it: ${undoShell(file, session)}`);
  }
  process.stdout.write(lines.join('\n') + '\n');
  await interruptedAfterWrite(ac, written);
}

/**
 * The `why` line of a summarizing compaction that landed well under its budget (compaction's
 * {@link compactionLanding}), in the CLI's flag names: the tail's size is `--retain` when given,
 * else the CLI's default, half the budget ({@link cliRetainDefault}). Undefined when it did not.
 */
function landingLine(result: CompactionResult, surface: ReturnType<Transcript['log']['surface']>, engine: BasicCompactionEngine, budget: number, retainGiven: boolean): string | undefined {
  const landing = compactionLanding(result, surface, engine, budget);
  if (!landing) return undefined;
  const rule = retainGiven ? `--retain ${landing.retainTokens}` : `the default --retain of ${landing.retainTokens}, half the budget less any overhead`;
  return landingSentence(landing, rule, '--retain N keeps more of the conversation verbatim');
}

/** One line saying which checkpoint sections the model's reply lacked and what wrote them. */
function repairLine(summarizer: string, repaired: NonNullable<CompactionResult['repairedSections']>): string {
  const of = (by: 'follow-up' | 'extractive') => repaired.filter((r) => r.by === by).map((r) => r.section);
  const parts = [of('follow-up').length ? `asked again for ${of('follow-up').join(', ')}` : '', of('extractive').length ? `filled ${of('extractive').join(', ')} from the extractive checkpoint` : ''].filter(Boolean);
  return `the ${summarizer} reply lacked ${repaired.length} checkpoint section${repaired.length === 1 ? '' : 's'}: ${parts.join('; ')}`;
}

/** The lines that say what the retention rule removed or spared (none when it did nothing). */
function pruneReport(p: PruneResult): string[] {
  const out: string[] = [];
  if (p.removed.length) {
    const mb = (p.removed.reduce((n, r) => n + r.bytes, 0) / 1e6).toFixed(1);
    out.push(`  removed ${p.removed.length} older backup${p.removed.length > 1 ? 's' : ''} (${mb} MB; the newest ${p.keep} compactions keep theirs, --keep-backups or ${KEEP_BACKUPS_ENV} to change): ${p.removed.map((r) => r.path).join(', ')}`);
  }
  for (const s of p.spared) out.push(`  kept ${s.path} although it is older than the newest ${p.keep}: ${s.reason}`);
  return out;
}

/**
 * A signal that came during the (synchronous) write was held until it finished: the output is
 * complete and was reported above; say so and exit 130.
 */
async function interruptedAfterWrite(ac: AbortController, written: { path: string } | undefined): Promise<void> {
  await yieldToSignals();
  if (ac.signal.aborted && written) throw new CliError(`interrupted during the write, which was completed first: ${written.path} is written in full`, 130);
}
