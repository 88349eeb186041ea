import { CompactionConfigError } from './errors.js';
import { ExtractiveSummarizer } from './extractive.js';
import { ClaudeCodeSummarizer } from './host-claude-code.js';
import type { HostCliOptions } from './host-cli.js';
import { CodexSummarizer } from './host-codex.js';
import { AnthropicSummarizer, OpenAISummarizer, type LlmSummarizerOptions } from './llm.js';
import { SUMMARIZER_NAMES, type SummarizerName } from './summarizer-names.js';
import type { Summarizer, SummaryOutput } from './summarizer.js';

const KNOWN = SUMMARIZER_NAMES.join(', ');

/**
 * A model client for a caller's own prompts (the mind's LLM harvest): the summarizer's request
 * loop (retries, timeouts, deadline; reasoning stripped) without the checkpoint around it.
 * `window` is the tokens a request may take (for a host CLI, what its own prompt leaves).
 */
export interface LlmClient {
  readonly name: string;
  readonly model?: string;
  readonly window: number;
  complete(system: string, prompt: string, opts: { maxTokens: number; signal?: AbortSignal }): Promise<SummaryOutput>;
}

/**
 * Build a summarizer by name: `extractive` (default, offline; the other options are ignored),
 * `openai` or `anthropic` (see {@link LlmSummarizerOptions}), `claude-code` or `codex` (the
 * host's own CLI with the user's login, see {@link HostCliOptions}).
 * @throws CompactionConfigError for an unknown name, a missing API key, or an API option given to a host CLI.
 */
export function createSummarizer(name: SummarizerName | string = 'extractive', opts: LlmSummarizerOptions & HostCliOptions = {}): Summarizer {
  if (name === 'extractive') return new ExtractiveSummarizer();
  return createLlmClient(name, opts) as LlmClient & Summarizer;
}

/**
 * The model client of a summarizer other than `extractive` (see {@link createSummarizer}).
 * @throws CompactionConfigError for `extractive` or an unknown name, a missing API key, or an API option given to a host CLI.
 */
export function createLlmClient(name: SummarizerName | string, opts: LlmSummarizerOptions & HostCliOptions = {}): LlmClient & Summarizer {
  const { command, env, ...api } = opts;
  const host = { ...api, ...(command !== undefined ? { command } : {}), ...(env !== undefined ? { env } : {}) };
  switch (name) {
    case 'openai':
    case 'anthropic':
      if (command !== undefined || env !== undefined) throw new CompactionConfigError((n) => `${n(command !== undefined ? 'command' : 'env')} applies to the claude-code and codex summarizers only`, command !== undefined ? 'command' : 'env');
      return name === 'openai' ? new OpenAISummarizer(api) : new AnthropicSummarizer(api);
    case 'claude-code':
      return new ClaudeCodeSummarizer(host);
    case 'codex':
      return new CodexSummarizer(host);
    case 'extractive':
      throw new CompactionConfigError('the extractive summarizer calls no model: there is no model client for it', 'summarizer');
    default:
      throw new CompactionConfigError(`unknown summarizer ${JSON.stringify(name)} (known: ${KNOWN})`, 'summarizer');
  }
}
