/**
 * Codex CLI as the summarizer: `codex exec` with the user's own login and config (host-cli.ts
 * says what every host CLI run guarantees). Flags, each checked in `codex exec --help` and
 * `codex features list` of the pinned 0.171.0 (test-support/hosts.package.json) and seen working
 * against a loopback Responses server:
 *
 * - `exec --json -o <file> -`: the prompt from stdin, JSONL events on stdout (`turn.completed`
 *   with usage, `turn.failed` / `error` with the reason), the final message in the file;
 * - `--ephemeral`: no rollout file is written (nothing lands in `~/.codex/sessions`);
 * - `--sandbox read-only`, `-c approval_policy="never"`, `--skip-git-repo-check`;
 * - `--disable hooks` (no hook runs, even trusted ones), `--disable shell_tool` (no
 *   `exec_command`), `--disable multi_agent|goals|apps|plugins|image_generation` and
 *   `-c web_search="disabled"`: the request keeps only `request_user_input` and `view_image`;
 *   each MCP server of the user's config.toml gets `-c mcp_servers.<name>.enabled=false`;
 * - `-c developer_instructions=<our system prompt>` (Codex keeps its own base instructions,
 *   about 5,000 tokens: there is no flag to replace them), `-c project_doc_max_bytes=0` (no
 *   AGENTS.md), `-c include_permissions_instructions=false`, `-c include_environment_context=false`.
 *
 * The system prompt is therefore a config value on the command line: it is our fixed text,
 * never the span, which goes on stdin.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { BoundedRun } from './child.js';
import { SummarizerError } from './errors.js';
import { HostCliSummarizer, jsonLines, oneLine, type HostCliOptions, type HostRun } from './host-cli.js';
import { PromptTooLongError, clip } from './llm.js';
import type { SummaryOutput } from './summarizer.js';
import { UNKNOWN_MODEL_WINDOW, knownModelWindow } from './windows.js';

/** Tokens of the window kept for what Codex adds to each request: its base instructions, skills list and tools (measured ~5,400 on the pinned version), with room for a global AGENTS.md. */
export const CODEX_RESERVE_TOKENS = 12_000;
/** Window assumed when neither `--model` nor config.toml names a model: Codex's defaults are GPT-5 models (272,000 input tokens, OpenAI's model pages). */
export const CODEX_DEFAULT_WINDOW = 272_000;

/** Features turned off for the summarizer run (names from `codex features list` of the pinned version). */
const DISABLED_FEATURES = ['hooks', 'shell_tool', 'multi_agent', 'goals', 'apps', 'plugins', 'image_generation'];

/** What Codex reports when the request is above the model's window. */
const TOO_LONG = /context window|context_length_exceeded|ran out of room|prompt is too long|input exceeds/i;

/** What the user's config.toml says that matters here: the top-level `model`, `model_context_window`, the MCP server names. */
export interface CodexConfigFacts {
  model?: string;
  contextWindow?: number;
  mcpServers: string[];
}

/**
 * The facts of `$CODEX_HOME/config.toml` (else `~/.codex/config.toml`) read by line: top-level
 * `model = "…"` and `model_context_window = N` (before the first table), and the names of its
 * `[mcp_servers.<name>]` tables. A missing or unreadable file gives no facts.
 */
export function readCodexConfig(env: NodeJS.ProcessEnv): CodexConfigFacts {
  const file = env.CODEX_HOME ? join(env.CODEX_HOME, 'config.toml') : join(env.HOME || homedir(), '.codex', 'config.toml');
  const facts: CodexConfigFacts = { mcpServers: [] };
  let text: string;
  try {
    if (!existsSync(file)) return facts;
    text = readFileSync(file, 'utf8');
  } catch {
    return facts;
  }
  let topLevel = true;
  for (const line of text.split('\n')) {
    const t = line.trim();
    const table = /^\[\s*([^\]]+?)\s*\]$/.exec(t);
    if (table) {
      topLevel = false;
      const m = /^mcp_servers\.(?:"([^"]+)"|'([^']+)'|([A-Za-z0-9_-]+))/.exec(table[1]!);
      const name = m ? (m[1] ?? m[2] ?? m[3])! : undefined;
      if (name && !facts.mcpServers.includes(name)) facts.mcpServers.push(name);
      continue;
    }
    if (!topLevel) continue;
    const model = /^model\s*=\s*"([^"]+)"/.exec(t) ?? /^model\s*=\s*'([^']+)'/.exec(t);
    if (model) facts.model = model[1];
    const win = /^model_context_window\s*=\s*([\d_]+)/.exec(t);
    if (win) facts.contextWindow = Number(win[1]!.replace(/_/g, ''));
  }
  return facts;
}

/** A TOML basic string (JSON's escapes are TOML's: `\n`, `\"`, `\\`, `\uXXXX`). */
function tomlString(s: string): string {
  return JSON.stringify(s);
}

/**
 * `codex exec` as a summarizer (see the module comment). Default window: `window`, else the
 * config's `model_context_window`, else the model's (`--model` or the config's, from
 * `MODEL_WINDOWS`; 32,768 for a model that table does not know), else {@link CODEX_DEFAULT_WINDOW};
 * less {@link CODEX_RESERVE_TOKENS}.
 * @throws CompactionConfigError for an option of the API summarizers (`baseURL`, `apiKey`...) or a bad value.
 */
export class CodexSummarizer extends HostCliSummarizer {
  readonly name = 'codex' as const;
  private readonly mcpServers: string[];
  /** The model the run uses: `--model`, else the config's (for the record; undefined when Codex picks its default). */
  private readonly runModel: string | undefined;

  constructor(o: HostCliOptions = {}) {
    const facts = readCodexConfig(o.env ?? process.env);
    const model = o.model ?? facts.model;
    const window = facts.contextWindow ?? (model ? (knownModelWindow(model) ?? UNKNOWN_MODEL_WINDOW) : CODEX_DEFAULT_WINDOW);
    super(o.model, o, { command: 'codex', window, reserve: CODEX_RESERVE_TOKENS });
    this.mcpServers = facts.mcpServers;
    this.runModel = model;
  }

  protected get invocation(): string {
    return '`codex exec`';
  }

  protected args(run: HostRun): string[] {
    return [
      'exec',
      '--json',
      '--output-last-message', join(run.dir, 'last-message.md'),
      '--ephemeral',
      '--skip-git-repo-check',
      '--sandbox', 'read-only',
      ...DISABLED_FEATURES.flatMap((f) => ['--disable', f]),
      '-c', 'web_search="disabled"',
      '-c', 'approval_policy="never"',
      '-c', 'project_doc_max_bytes=0',
      '-c', 'include_permissions_instructions=false',
      '-c', 'include_environment_context=false',
      ...this.mcpServers.flatMap((n) => ['-c', `mcp_servers.${/^[A-Za-z0-9_-]+$/.test(n) ? n : tomlString(n)}.enabled=false`]),
      '-c', `developer_instructions=${tomlString(run.system)}`,
      ...(this.model ? ['--model', this.model] : []),
      '-',
    ];
  }

  protected extraEnv(): Record<string, string> {
    return {};
  }

  protected parse(out: BoundedRun, run: HostRun): SummaryOutput {
    const events = jsonLines(out.stdout);
    // a top-level `error` event fails the run only when no turn completed (a retried stream may report one on the way)
    const completed = events.some((e) => e.type === 'turn.completed');
    const failed = events.find((e) => e.type === 'turn.failed') ?? (completed ? undefined : events.find((e) => e.type === 'error'));
    if (failed) {
      const said = oneLine(String((failed.error as { message?: unknown } | undefined)?.message ?? failed.message ?? 'the turn failed'));
      if (TOO_LONG.test(said)) throw new PromptTooLongError(`${this.name}: ${said}`);
      throw new SummarizerError(`${this.name}: \`codex exec\` failed: ${clip(said, 300)}`, false);
    }
    if (out.code !== 0) throw new SummarizerError(this.exitProblem(out), false);
    const file = join(run.dir, 'last-message.md');
    let text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (!text.trim()) {
      const message = [...events].reverse().find((e) => e.type === 'item.completed' && (e.item as { type?: unknown } | undefined)?.type === 'agent_message');
      text = String((message?.item as { text?: unknown } | undefined)?.text ?? '');
    }
    if (!text.trim() && !events.length && out.stdout.trim()) {
      throw new SummarizerError(`${this.name}: \`codex exec\` printed no JSON events (it printed "${clip(oneLine(out.stdout), 120)}")`, false);
    }
    const done = [...events].reverse().find((e) => e.type === 'turn.completed');
    const usage = done?.usage as { input_tokens?: number; output_tokens?: number } | undefined;
    return {
      text,
      ...(this.runModel ? { model: this.runModel } : {}),
      ...(usage ? { usage: { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens } } : {}),
    };
  }
}
