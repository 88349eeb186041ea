import { CompactionConfigError } from './errors.js';
import { ExtractiveSummarizer } from './extractive.js';
import { AnthropicSummarizer, OpenAISummarizer, type LlmSummarizerOptions, type SummarizerName } from './llm.js';
import type { Summarizer } from './summarizer.js';

/**
 * Build a summarizer by name: `extractive` (default, offline; LLM options are ignored),
 * `openai` or `anthropic` (see {@link LlmSummarizerOptions}).
 * @throws CompactionConfigError for an unknown name or a missing API key.
 */
export function createSummarizer(name: SummarizerName | string = 'extractive', opts: LlmSummarizerOptions = {}): Summarizer {
  switch (name) {
    case 'extractive':
      return new ExtractiveSummarizer();
    case 'openai':
      return new OpenAISummarizer(opts);
    case 'anthropic':
      return new AnthropicSummarizer(opts);
    default:
      throw new CompactionConfigError(`unknown summarizer ${JSON.stringify(name)} (known: extractive, openai, anthropic)`, 'summarizer');
  }
}
