/**
 * Context windows of summarizer models (tokens of input the model accepts), by model-name
 * prefix, longest prefix first. Sources: OpenAI's model pages (platform.openai.com/docs/models:
 * GPT-4o and GPT-4o mini 128,000; GPT-4.1 family 1,047,576; o1/o3/o4-mini 200,000; GPT-5
 * family 400,000 of which at most 272,000 input; GPT-4 Turbo 128,000; GPT-4 8,192;
 * GPT-3.5 Turbo 16,385) and Anthropic's models overview (platform.claude.com/docs/models:
 * every Claude 3.x/4.x model 200,000 by default; the 1M window needs a beta header, so it is
 * not assumed).
 */
export const MODEL_WINDOWS: ReadonlyArray<readonly [prefix: string, tokens: number]> = [
  ['gpt-4o-mini', 128_000],
  ['gpt-4o', 128_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-4-turbo', 128_000],
  ['gpt-4-32k', 32_768],
  ['gpt-4', 8_192],
  ['gpt-3.5-turbo', 16_385],
  ['gpt-5', 272_000],
  ['o1-mini', 128_000],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  ['claude-', 200_000],
];

/**
 * Window assumed for a model this table does not know (tokens): small on purpose, because an
 * OpenAI-compatible server may run a local model with an 8k-32k window; set
 * `summarizerWindow` (`--summarizer-window`) for a larger one.
 */
export const UNKNOWN_MODEL_WINDOW = 32_768;

/** The context window of `model` (tokens) from {@link MODEL_WINDOWS}, or undefined when unknown. Provider prefixes (`openai/gpt-4o`) are ignored. */
export function knownModelWindow(model: string): number | undefined {
  const m = model.toLowerCase().replace(/^.*\//, '');
  let best: readonly [string, number] | undefined;
  for (const row of MODEL_WINDOWS) if (m.startsWith(row[0]) && (!best || row[0].length > best[0].length)) best = row;
  return best?.[1];
}
