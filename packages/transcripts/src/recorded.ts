import { isObj } from './formats/common.js';
import type { Transcript } from './types.js';

/**
 * What a transcript records beside its messages that the model also receives with every
 * request: the tool definitions of a Hermes session (`tools`, as hermes-agent's
 * `run_agent.py` saves them) or of a request body (`tools` of an OpenAI Chat Completions or
 * Anthropic Messages body). The system prompt is not here: it is on the surface, as the
 * leading system messages. Returns the definitions as the JSON text a request would carry
 * (characters; count it with a token meter), or undefined when the file records none.
 */
export function recordedToolDefinitions(t: Transcript): string | undefined {
  const env = t.source.state.envelope;
  if (!isObj(env)) return undefined;
  const tools = env.tools;
  if (!Array.isArray(tools) || tools.length === 0) return undefined;
  return JSON.stringify(tools);
}
