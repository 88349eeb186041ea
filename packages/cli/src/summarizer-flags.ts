/**
 * The summarizer flags shared by `compact` (checkpoint summaries) and `mind import` (LLM
 * extraction of facts): one set of names, defaults and checks, so a model configured for one
 * command is configured the same way for the other.
 */
import type { Command } from 'commander';
import { HOST_SUMMARIZERS, SUMMARIZER_NAMES, type SummarizerName } from '@hive-mind/compaction/summarizers';
import { CliError } from './errors.js';

/** A positive integer flag value, or undefined when not given. Throws a CliError (exit 2) naming the flag and `unit`. */
export function int(v: string | undefined, flag: string, unit = 'tokens'): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v.trim()) || Number(v) <= 0) throw new CliError(`${flag} must be a positive integer (${unit}), got ${JSON.stringify(v)}`, 2);
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new CliError(`${flag} ${v} is too large (at most ${Number.MAX_SAFE_INTEGER} ${unit})`, 2);
  return n;
}

/** Throws a CliError (exit 2) unless `v` (the `--base-url` flag) is undefined or an http(s) URL. */
export function checkBaseUrl(v: string | undefined): void {
  if (v === undefined) return;
  let u: URL | undefined;
  try {
    u = new URL(v);
  } catch {
    u = undefined;
  }
  if (!u || !['http:', 'https:'].includes(u.protocol)) throw new CliError(`--base-url must be an http(s) URL, got ${JSON.stringify(v)}`, 2);
}


/** `v` as a summarizer name (compaction's `SUMMARIZER_NAMES`: the offline rules, the API summarizers, the host CLIs with the user's own login). Throws a CliError (exit 2) naming the flag and the known names. */
export function summarizerName(v: string | undefined): SummarizerName {
  const name = v ?? 'extractive';
  if (!(SUMMARIZER_NAMES as readonly string[]).includes(name)) throw new CliError(`--summarizer must be ${SUMMARIZER_NAMES.slice(0, -1).join(', ')} or ${SUMMARIZER_NAMES.at(-1)}, got ${JSON.stringify(name)}`, 2);
  return name as SummarizerName;
}

/**
 * Throws a CliError (exit 2) when a flag of the API summarizers (`--base-url`, `--api-key-env`,
 * `--stream`) is given with a host CLI summarizer, which uses the login and config the user has.
 */
export function checkHostFlags(name: SummarizerName, o: { baseUrl?: string; apiKeyEnv?: string; stream?: boolean }): void {
  if (!(HOST_SUMMARIZERS as readonly string[]).includes(name)) return;
  const flag = o.baseUrl !== undefined ? '--base-url' : o.apiKeyEnv !== undefined ? '--api-key-env' : o.stream ? '--stream' : undefined;
  if (flag) throw new CliError(`${flag} applies to the openai and anthropic summarizers; --summarizer ${name} runs the host's own CLI with the login and config you already have`, 2);
}

/**
 * Add `--summarizer` (extractive | openai | anthropic | claude-code | codex, default extractive),
 * `--model`, `--base-url`, `--api-key-env`, `--stream`, `--timeout` (seconds, default 120),
 * `--deadline` (seconds, default 300) and `--summarizer-window` (tokens) to `cmd`. `use` says what
 * the model does there ("summarizer", "extraction"), `parts` what a long input is cut into.
 */
export function addSummarizerFlags(cmd: Command, o: { summarizer: string; use: string; parts: string }): Command {
  return cmd
    .option('--summarizer <name>', o.summarizer, 'extractive')
    .option('--model <name>', `model for the ${o.use} (openai/anthropic: default gpt-4o-mini / claude-haiku-4-5; claude-code/codex: default the host's own, e.g. --model haiku)`)
    .option('--base-url <url>', `API base URL for the openai/anthropic ${o.use}`)
    .option('--api-key-env <name>', 'environment variable holding the API key of the openai/anthropic summarizer (default OPENAI_API_KEY / ANTHROPIC_API_KEY)')
    .option('--stream', `stream the openai/anthropic ${o.use} reply`)
    .option('--timeout <seconds>', `time one ${o.use} request (one run of claude -p / codex exec) may take`, '120')
    .option('--deadline <seconds>', `${o.use} deadline, retries and chunks included`, '300')
    .option('--summarizer-window <tokens>', `the model's own context window: no request above it, longer ${o.parts} go in chunks (default from the model name, else 32768; claude-code 200000, codex from its config)`);
}
