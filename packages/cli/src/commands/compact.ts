import type { Command } from 'commander';
import { existsSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  BasicCompactionEngine,
  BudgetTooSmallError,
  CompactionAbortedError,
  CompactionConfigError,
  CompactionFailedError,
  compactionReport,
  type CompactionReport,
  createSummarizer,
  TokenMeter,
  type CompactionConfig,
  type CompactionResult,
  type CompactionStrategy,
} from '@hive-mind/compaction';
import { readTranscriptFile, writeTranscript, TranscriptError, type Transcript } from '@hive-mind/transcripts';
import { CliError, printJson } from '../errors.js';

type Target = 'same' | 'openai' | 'anthropic' | 'markdown';

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
}

/** The `--json` object (exactly these keys): the compaction package's report. */
export type CompactJson = CompactionReport;

const DEFAULT_WINDOW = 200_000;

function int(v: string | undefined, flag: string, unit = 'tokens'): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v.trim()) || Number(v) <= 0) throw new CliError(`${flag} must be a positive integer (${unit}), got ${JSON.stringify(v)}`, 2);
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new CliError(`${flag} ${v} is too large (at most ${Number.MAX_SAFE_INTEGER} ${unit})`, 2);
  return n;
}

/** CLI flag of each compaction/summarizer config key, for error messages. */
const FLAG_OF: Record<string, string> = {
  threshold: '--budget',
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
};

/**
 * Rewrite a {@link CompactionConfigError} message in CLI terms: config key names become their
 * flags (`retainTokens` -> `--retain`, "the threshold" -> "the budget (--budget)"), and the flag
 * of the failing key is appended only when the message does not already name it.
 */
export function cliConfigMessage(message: string, key: string): string {
  let m = message;
  for (const [k, flag] of Object.entries(FLAG_OF)) {
    if (/^[a-z]+$/.test(k) && k !== 'threshold') continue; // plain words (summarizer, model...) stay words
    m = m.replace(new RegExp(`\\b${k}\\b(?: \\(${flag}\\))?`, 'g'), k === 'threshold' ? 'budget' : flag);
  }
  const flag = FLAG_OF[key];
  if (flag && !m.includes(flag)) m += ` (${flag})`;
  return m;
}

/** Default output path: `<dir>/<name>.compacted.<ext>` (ext from the target format). */
export function defaultOutPath(file: string, to: Target): string {
  const ext = extname(file);
  const stem = basename(file, ext);
  const outExt = to === 'same' ? ext || '.jsonl' : to === 'markdown' ? '.md' : '.json';
  return join(dirname(file), `${stem}.compacted${outExt}`);
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
 * JSON or markdown) through a temp file + rename. Exit codes: 0 done or already under
 * budget, 1 compaction failed (summarizer error or timeout; nothing written), 2 bad input
 * (unreadable transcript, bad flags, budget below the newest indivisible unit), 130 interrupted.
 */
export function register(program: Command): void {
  program
    .command('compact')
    .description('compact an agent session file to a token budget (checkpoint summary, observation masking), written back in its own format or as messages')
    .argument('<file>', 'transcript file (Claude Code, Codex, pi, Hermes JSONL/JSON, OpenAI or Anthropic messages)')
    .option('--window <tokens>', `model context window; the budget is 80% of it (default ${DEFAULT_WINDOW})`)
    .option('--budget <tokens>', 'absolute token budget (threshold); exclusive with --window')
    .option('--retain <tokens>', 'recent tail kept verbatim (default min(20000, 30% of the budget))')
    .option('--summary-max <tokens>', 'upper bound of the checkpoint (default min(4096, 15% of the budget))')
    .option('--strategy <name>', 'summarize | mask | auto', 'summarize')
    .option('--summarizer <name>', 'extractive | openai | anthropic', 'extractive')
    .option('--model <name>', 'model for the openai/anthropic summarizer')
    .option('--base-url <url>', 'API base URL for the openai/anthropic summarizer')
    .option('--api-key-env <name>', 'environment variable holding the API key (default OPENAI_API_KEY / ANTHROPIC_API_KEY)')
    .option('--stream', 'stream the summarizer reply')
    .option('--timeout <seconds>', 'summarizer request timeout', '120')
    .option('--deadline <seconds>', 'summarizer deadline, retries included', '300')
    .option('--out <path>', 'output file (default <file>.compacted.<ext>; the input is only overwritten when --out names it)')
    .option('--to <format>', 'same | openai | anthropic | markdown', 'same')
    .option('--dry-run', 'show what would be replaced and the estimate; write nothing')
    .option('--json', 'print one JSON object')
    .option('--lenient', 'skip bad transcript lines (counted) instead of failing')
    .action(async (file: string, o: CompactCliOptions) => {
      const start = Date.now();
      const progress = progressReporter(start, !!o.json);
      const to = o.to as Target;
      if (!['same', 'openai', 'anthropic', 'markdown'].includes(to)) throw new CliError(`--to must be same, openai, anthropic or markdown; got ${JSON.stringify(o.to)}`, 2);
      if (!['summarize', 'mask', 'auto'].includes(o.strategy)) throw new CliError(`--strategy must be summarize, mask or auto; got ${JSON.stringify(o.strategy)}`, 2);
      if (o.window !== undefined && o.budget !== undefined) throw new CliError('give --window or --budget, not both', 2);
      const strategy = o.strategy as CompactionStrategy;
      const timeoutS = int(o.timeout, '--timeout', 'seconds')!;
      const deadlineS = int(o.deadline, '--deadline', 'seconds')!;
      if (o.baseUrl !== undefined) {
        let u: URL | undefined;
        try {
          u = new URL(o.baseUrl);
        } catch {
          u = undefined;
        }
        if (!u || !['http:', 'https:'].includes(u.protocol)) throw new CliError(`--base-url must be an http(s) URL, got ${JSON.stringify(o.baseUrl)}`, 2);
      }
      const threshold = o.budget !== undefined ? int(o.budget, '--budget') : undefined;
      const window = o.budget === undefined ? (int(o.window, '--window') ?? DEFAULT_WINDOW) : undefined;
      const retain = int(o.retain, '--retain');
      const summaryMax = int(o.summaryMax, '--summary-max');

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

      let engine: BasicCompactionEngine;
      try {
        const summarizer = strategy === 'mask' ? undefined : createSummarizer(o.summarizer, {
          model: o.model,
          baseURL: o.baseUrl,
          apiKeyEnv: o.apiKeyEnv,
          stream: o.stream,
          requestTimeoutMs: timeoutS * 1000,
          deadlineMs: deadlineS * 1000,
        });
        const cfg: CompactionConfig = {
          meter: new TokenMeter(),
          strategy,
          ...(summarizer ? { summarizer } : {}),
          ...(threshold !== undefined ? { threshold } : { contextWindow: window }),
          ...(retain !== undefined ? { retainTokens: retain } : {}),
          ...(summaryMax !== undefined ? { summaryMaxTokens: summaryMax } : {}),
        };
        engine = new BasicCompactionEngine(cfg);
      } catch (err) {
        if (err instanceof CompactionConfigError) throw new CliError(cliConfigMessage(err.message, err.key), 2);
        throw err;
      }
      const budget = engine.config.threshold;

      const ac = new AbortController();
      const onSigint = () => ac.abort(new Error('interrupted (SIGINT)'));
      process.once('SIGINT', onSigint);
      let result: CompactionResult;
      try {
        progress.say('measuring');
        result = await engine.compactIfNeeded(t.log, {
          signal: ac.signal,
          dryRun: o.dryRun,
          onProgress: (phase, d) => progress.say(phase === 'summarize' ? `summarizing (attempt ${d?.attempt}, ${engine.config.summarizer?.name ?? 'extractive'})` : phase),
        });
      } catch (err) {
        progress.done();
        if (err instanceof BudgetTooSmallError) throw new CliError(err.message, 2);
        if (err instanceof CompactionAbortedError) throw new CliError('interrupted; nothing written', 130);
        if (err instanceof CompactionFailedError) throw new CliError(err.message, 1);
        throw err;
      } finally {
        process.removeListener('SIGINT', onSigint);
      }
      progress.done();

      const json: CompactJson = { ...compactionReport(t.format, result, t.log.surface(), 0, engine.config.summarizer?.name ?? 'extractive'), budget };
      const usedSummarizer = json.summarizer;

      let wrote: string | undefined;
      if (result.compacted && !o.dryRun) {
        const out = resolve(o.out ?? defaultOutPath(file, to));
        let text: string;
        try {
          text = writeTranscript(t, to);
        } catch (err) {
          if (err instanceof TranscriptError) throw new CliError(err.message, 1);
          throw err;
        }
        const tmp = `${out}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
        try {
          writeFileSync(tmp, text);
          renameSync(tmp, out);
        } catch (err) {
          if (existsSync(tmp)) unlinkSync(tmp);
          throw new CliError(`cannot write ${out}: ${(err as Error).message}`, 1);
        }
        wrote = out;
      }
      json.durationMs = Date.now() - start;

      if (o.json) {
        printJson(json);
        return;
      }
      const lines: string[] = [];
      if (!result.compacted && !result.dryRun) {
        lines.push(
          result.noopReason === 'under-threshold'
            ? `${file} (${t.format}) is already under budget: ${result.tokensBefore} tokens <= ${budget}; nothing to do, nothing written`
            : `${file} (${t.format}): nothing can be compacted (${result.tokensBefore} tokens, budget ${budget}); nothing written`,
        );
      } else {
        const verb = result.dryRun ? 'would compact' : 'compacted';
        lines.push(`${verb} ${file} (${t.format}): ${result.tokensBefore} -> ${result.dryRun ? '<= ' : ''}${result.tokensAfter} tokens (budget ${budget})`);
        const seqs = result.shadowedSeqs;
        if (result.action === 'summarize') {
          lines.push(`  ${result.dryRun ? 'would replace' : 'replaced'} ${seqs.length} surface events (log seqs ${Math.min(...seqs)} to ${Math.max(...seqs)}, ${result.shadowedTokens} tokens) with ${result.dryRun ? `a checkpoint of at most ${engine.config.summaryMaxTokens} tokens` : `a ${result.summaryTokens}-token checkpoint`} (${usedSummarizer}${result.model ? `, ${result.model}` : ''})`);
          if (!result.dryRun) lines.push(`  anchors: ${result.anchors.total} total, ${result.anchors.kept} kept by the summary, ${result.anchors.reinserted} reinserted`);
        } else {
          lines.push(`  ${result.dryRun ? 'would replace' : 'replaced'} ${seqs.length} tool results by ${result.action === 'mask' ? 'one-line placeholders' : 'pruned versions (head, tail, error lines)'} (seqs ${seqs.join(', ')})`);
        }
        if (strategy === 'auto') {
          lines.push(
            result.action === 'mask'
              ? '  strategy auto: masked only (masking old tool results was enough)'
              : `  strategy auto: masking old tool results alone would stay above the budget, so ${result.action === 'prune' ? 'pruned' : 'summarized'} instead`,
          );
        }
        lines.push(`  tool pairing: ${json.toolPairing}`);
        if (wrote) lines.push(`  wrote ${wrote} (${to === 'same' ? t.format : to})`);
        lines.push(`  took ${json.durationMs} ms`);
      }
      process.stdout.write(lines.join('\n') + '\n');
    });
}
