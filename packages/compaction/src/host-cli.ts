/**
 * The host's own model as the summarizer: `claude -p` (Claude Code, host-claude-code.ts) and
 * `codex exec` (Codex CLI, host-codex.ts) run as child processes with the login the user already
 * has: the user's own environment and config, no API key of ours. The request loop is the API
 * summarizers' (llm.ts): the same system prompt and sections, the same chunks for a span above
 * the window, the same repair of a reply missing some sections. Per run:
 *
 * - the transcript goes on stdin and the system prompt in a temp file or a config value; the
 *   span is never on the command line (argument limits, `ps`);
 * - the child runs in an empty temp folder, in its own process group, killed when its time is up
 *   (`requestTimeoutMs`, within `deadlineMs`) and when it exits (child.ts);
 * - it may not run tools, write into the user's sessions or load the user's hooks, MCP servers
 *   and project instructions (each host's flags, checked against the pinned versions' `--help`:
 *   see the package README), and `HIVE_MIND_NO_HOOKS=1` tells hive-mind's own hook runner to do
 *   nothing should a hook run anyway, so a nested call never captures itself;
 * - a failure (not installed, non-zero exit, timeout, no output, output that is no checkpoint)
 *   is a non-retryable `SummarizerError` whose one-line message says why: the engine lands the
 *   extractive checkpoint at once (the fallback rule) instead of starting the host again.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_CHILD_OUTPUT_BYTES, runBounded, type BoundedRun } from './child.js';
import { CompactionConfigError, SummarizerError } from './errors.js';
import { LlmSummarizer, RequestTimeout, clip, type Classified, type LlmSummarizerOptions } from './llm.js';
import type { SummaryOutput } from './summarizer.js';
import type { HostSummarizerName } from './summarizer-names.js';

/** The environment variable set on every host CLI child: hive-mind's hook runner then answers at once and does nothing (no capture, no recall). */
export const NO_HOOKS_ENV = 'HIVE_MIND_NO_HOOKS';


/** Options of a host CLI summarizer. Times are milliseconds; sizes are tokens. */
export interface HostCliOptions {
  /** Model for the host (`--model`); default: the host's own (what the user's login and config choose). */
  model?: string;
  /** Time one run of the host may take before its process group is killed (ms). Default 120000. */
  requestTimeoutMs?: number;
  /** Overall deadline of one summarize call, chunks and the repair follow-up included (ms). Default 300000. */
  deadlineMs?: number;
  /** The host model's context window (tokens). Default per host (see each class); what the host's own system prompt takes is kept free beside it. */
  window?: number;
  /** Runs of one request after a failure judged transient. Default 0: the hosts retry their own API calls. */
  requestRetries?: number;
  /** The executable: a name looked up on PATH or a path. Default `claude` / `codex`. */
  command?: string;
  /** The child's environment. Default this process's (so the user's login, config folder and proxy settings apply). */
  env?: NodeJS.ProcessEnv;
}

/** Options of the API summarizers that mean nothing to a host CLI: given, they are an error rather than silently ignored. */
const API_ONLY = ['baseURL', 'apiKey', 'apiKeyEnv', 'stream', 'maxTokensField'] as const;

/** What one run of a host needs beside the prompt on stdin. */
export interface HostRun {
  /** The system prompt, and the file holding it. */
  system: string;
  systemFile: string;
  /** A folder of this run's own (removed after it) for files the host writes for us. */
  dir: string;
  /** The output limit asked for (tokens). */
  maxTokens: number;
}

/** How the host CLIs differ: the command line, extra environment, and how the output reads. */
export abstract class HostCliSummarizer extends LlmSummarizer {
  abstract override readonly name: HostSummarizerName;
  /** The executable run (`claude`, `codex`, or the `command` option). */
  readonly command: string;
  protected override readonly retryBadReplies = false;
  private readonly env: NodeJS.ProcessEnv;

  /**
   * `window` is the host model's window; `reserve` what the host's own system prompt, tool
   * definitions and environment take of it (tokens), measured on the pinned versions.
   * @throws CompactionConfigError for an option of the API summarizers or a bad value.
   */
  constructor(model: string | undefined, o: HostCliOptions, d: { command: string; window: number; reserve: number }) {
    for (const k of API_ONLY) {
      if ((o as LlmSummarizerOptions)[k] !== undefined) throw new CompactionConfigError((n) => `${n(k)} applies to the openai and anthropic summarizers, not to a host CLI (it uses the login and config the user already has)`, k);
    }
    const window = o.window ?? d.window;
    if (!Number.isInteger(window) || window <= d.reserve + 1024) {
      throw new CompactionConfigError((n) => `${n('window')} must be an integer above ${d.reserve + 1024} tokens for this host (its own prompt takes about ${d.reserve}), got ${JSON.stringify(window)}`, 'window');
    }
    super(model, { model, requestTimeoutMs: o.requestTimeoutMs, deadlineMs: o.deadlineMs, requestRetries: o.requestRetries ?? 0, window: window - d.reserve });
    this.command = o.command ?? d.command;
    this.env = o.env ?? process.env;
  }

  /** The arguments of one run (the prompt itself goes on stdin). */
  protected abstract args(run: HostRun): string[];
  /** Environment added for one run. */
  protected abstract extraEnv(run: HostRun): Record<string, string>;
  /**
   * The reply of one finished run (exit code, stdout, files in `run.dir`).
   * @throws SummarizerError for a failed run, PromptTooLongError (llm.ts) for a request above the window.
   */
  protected abstract parse(out: BoundedRun, run: HostRun): SummaryOutput;
  /** How the run is named in messages, e.g. `` `claude -p` ``. */
  protected abstract get invocation(): string;

  protected override get replier(): string {
    return this.invocation;
  }

  protected async call(system: string, prompt: string, maxTokens: number, signal: AbortSignal): Promise<SummaryOutput> {
    const dir = mkdtempSync(join(tmpdir(), 'hive-mind-summarize-'));
    try {
      const run: HostRun = { system, systemFile: join(dir, 'system-prompt.md'), dir, maxTokens };
      writeFileSync(run.systemFile, system, { mode: 0o600 });
      // an empty folder: no project instructions (CLAUDE.md, AGENTS.md) and nothing to read
      const cwd = join(dir, 'work');
      mkdirSync(cwd);
      const out = await runBounded(this.command, this.args(run), { input: prompt, cwd, env: { ...this.env, ...this.extraEnv(run), [NO_HOOKS_ENV]: '1' }, signal });
      if (out.startError) {
        const missing = out.startError.code === 'ENOENT';
        throw new SummarizerError(
          missing
            ? `${this.name}: \`${this.command}\` is not installed (not found${this.command.includes('/') ? '' : ' on PATH'}); install it and log in, or use another summarizer`
            : `${this.name}: \`${this.command}\` could not be started (${out.startError.code}: ${oneLine(out.startError.message)})`,
          false,
        );
      }
      if (out.killed === 'signal') {
        const why = signal.reason;
        if (why instanceof RequestTimeout) throw new SummarizerError(`${this.name}: ${this.invocation} did not answer within ${why.ms} ms; its process group was killed`, false);
        throw new Error(`${this.invocation} was stopped`);
      }
      if (out.killed === 'output') throw new SummarizerError(`${this.name}: ${this.invocation} printed more than ${MAX_CHILD_OUTPUT_BYTES} bytes; its process group was killed`, false);
      return this.parse(out, run);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  protected async classifyFailure(err: unknown): Promise<Classified> {
    return { retryable: false, message: `${this.name} summarizer failed: ${oneLine(String((err as Error)?.message ?? err))}` };
  }

  /** `exited 3` or `was killed by SIGKILL`, then the last line the host printed on stderr (or stdout). */
  protected exitProblem(out: BoundedRun): string {
    const how = out.code !== null ? `exited ${out.code}` : `was killed by ${out.signal ?? 'a signal'}`;
    const last = lastLine(out.stderr) ?? lastLine(out.stdout);
    return `${this.name}: ${this.invocation} ${how}${last ? `: ${clip(last, 300)}` : ' and printed nothing'}`;
  }
}

/** `s` on one line (newlines and runs of spaces as one space). */
export function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** The last non-empty line of `s` that is not a host's harmless warning, or undefined. */
function lastLine(s: string): string | undefined {
  const lines = s.split('\n').map((l) => l.trim()).filter((l) => l && !/^WARNING: proceeding\b/.test(l));
  return lines.length ? lines[lines.length - 1] : undefined;
}

/** Every line of `s` that parses as a JSON object, in order (other lines skipped). */
export function jsonLines(s: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const line of s.split('\n')) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    try {
      const v = JSON.parse(t) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) out.push(v as Record<string, unknown>);
    } catch {
      // not JSON: a host's plain message
    }
  }
  return out;
}
