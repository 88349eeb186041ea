/**
 * Claude Code as the summarizer: `claude -p` with the user's own login (host-cli.ts says what
 * every host CLI run guarantees). Flags, each checked in `claude --help` of the pinned 2.1.332
 * (test-support/hosts.package.json) and seen working against a loopback server:
 *
 * - `-p --output-format json`: one result object on stdout (`result`, `is_error`,
 *   `terminal_reason`, `api_error_status`, `usage`, `modelUsage`);
 * - `--no-session-persistence`: no session file is written (nothing lands in `~/.claude/projects`);
 * - `--tools ""`: no built-in tool (the request's `tools` is empty), `--max-turns 1`,
 *   `--permission-mode dontAsk`;
 * - `--safe-mode`: no hooks, plugins, MCP servers, skills or CLAUDE.md (auth, model choice and the
 *   `env` of the user's settings still apply), with `--strict-mcp-config` and
 *   `--disable-slash-commands` besides;
 * - `--system-prompt-file`: our system prompt replaces Claude Code's (the host still prefixes
 *   its one-line identity and adds a short environment message: about 360 tokens in all);
 * - `CLAUDE_CODE_MAX_OUTPUT_TOKENS`: the request's `max_tokens` (room for adaptive thinking
 *   beside the summary), `DISABLE_AUTOUPDATER=1`.
 *
 * Not `--bare`: it skips hooks too, but then reads only `ANTHROPIC_API_KEY`, never the user's
 * OAuth login, which is the point of this summarizer.
 */
import type { BoundedRun } from './child.js';
import { SummarizerError } from './errors.js';
import { HostCliSummarizer, oneLine, type HostCliOptions, type HostRun } from './host-cli.js';
import { PromptTooLongError, clip, tooLongNumbers } from './llm.js';
import type { SummaryOutput } from './summarizer.js';
import { knownModelWindow } from './windows.js';

/** Tokens of the window kept for what Claude Code adds to each request (identity line, environment message; measured ~360 with `--safe-mode`), with room for the user's settings. */
export const CLAUDE_CODE_RESERVE_TOKENS = 4000;
/** Window assumed without `--model` or for an alias (`sonnet`, `opus`): every Claude model has at least 200,000 (Anthropic's models overview). */
export const CLAUDE_CODE_DEFAULT_WINDOW = 200_000;
/** Most output tokens asked of Claude Code (`CLAUDE_CODE_MAX_OUTPUT_TOKENS`). */
const MAX_OUTPUT_TOKENS = 64_000;

/**
 * `claude -p` as a summarizer (see the module comment). Default window 200,000 tokens (or the
 * model's, from `MODEL_WINDOWS`), less {@link CLAUDE_CODE_RESERVE_TOKENS}.
 * @throws CompactionConfigError for an option of the API summarizers (`baseURL`, `apiKey`...) or a bad value.
 */
export class ClaudeCodeSummarizer extends HostCliSummarizer {
  readonly name = 'claude-code' as const;

  constructor(o: HostCliOptions = {}) {
    super(o.model, o, { command: 'claude', window: (o.model ? knownModelWindow(o.model) : undefined) ?? CLAUDE_CODE_DEFAULT_WINDOW, reserve: CLAUDE_CODE_RESERVE_TOKENS });
  }

  protected get invocation(): string {
    return '`claude -p`';
  }

  protected args(run: HostRun): string[] {
    return [
      '-p',
      '--output-format', 'json',
      '--no-session-persistence',
      '--tools', '',
      '--max-turns', '1',
      '--permission-mode', 'dontAsk',
      '--safe-mode',
      '--strict-mcp-config',
      '--disable-slash-commands',
      '--system-prompt-file', run.systemFile,
      ...(this.model ? ['--model', this.model] : []),
    ];
  }

  protected extraEnv(run: HostRun): Record<string, string> {
    return { CLAUDE_CODE_MAX_OUTPUT_TOKENS: String(Math.min(MAX_OUTPUT_TOKENS, 2 * run.maxTokens + 4096)), DISABLE_AUTOUPDATER: '1' };
  }

  protected parse(out: BoundedRun): SummaryOutput {
    const results = jsonResult(out.stdout);
    if (!results) {
      if (out.code !== 0) throw new SummarizerError(this.exitProblem(out), false);
      if (!out.stdout.trim()) return { text: '' };
      throw new SummarizerError(`${this.name}: \`claude -p\` printed no result JSON (it printed "${clip(oneLine(out.stdout), 120)}")`, false);
    }
    const r = results;
    const said = oneLine(typeof r.result === 'string' ? r.result : String(r.subtype ?? ''));
    if (r.is_error === true || out.code !== 0) {
      if (r.terminal_reason === 'prompt_too_long' || /prompt is too long/i.test(said)) {
        const { actual, maximum } = tooLongNumbers(said);
        throw new PromptTooLongError(`${this.name}: ${said}`, actual, maximum);
      }
      const status = typeof r.api_error_status === 'number' ? r.api_error_status : undefined;
      throw new SummarizerError(`${this.name}: \`claude -p\` answered an error${status ? ` (HTTP ${status})` : ''}: ${clip(said || `exit ${out.code}`, 300)}`, false, status);
    }
    const usage = r.usage as { input_tokens?: number; output_tokens?: number } | undefined;
    const model = Object.keys((r.modelUsage as Record<string, unknown> | undefined) ?? {})[0] ?? this.model;
    return {
      text: typeof r.result === 'string' ? r.result : '',
      ...(model ? { model } : {}),
      ...(usage ? { usage: { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens } } : {}),
    };
  }
}

/** The last stdout line that is a `{"type":"result"}` object, or undefined. */
function jsonResult(stdout: string): Record<string, unknown> | undefined {
  const lines = stdout.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const t = lines[i]!.trim();
    if (!t.startsWith('{')) continue;
    try {
      const v = JSON.parse(t) as Record<string, unknown>;
      if (v && v.type === 'result') return v;
    } catch {
      // not the result line
    }
  }
  return undefined;
}
