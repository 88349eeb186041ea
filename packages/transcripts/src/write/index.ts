import { TranscriptError } from '../errors.js';
import { EXPORT_FORMATS, type Transcript, type WriteTarget } from '../types.js';
import { toAnthropicMessages, toMarkdown, toOpenAIMessages } from './chat.js';
import { writeSame } from './same.js';

/**
 * Write a transcript's current surface.
 * - `same`: the host's own format. JSONL hosts (Claude Code, pi, Codex): the original file
 *   untouched, then every event appended after import (`seq > importedLastSeq`) rendered as
 *   host-native records (a checkpoint as Claude Code `compact_boundary` + `isCompactSummary`
 *   lines with the retained tail re-chained, a pi `compaction` entry, a Codex `compacted`
 *   item). Hermes/OpenAI/Anthropic: the new surface as that JSON (envelope fields kept).
 * - `openai`: `toOpenAIMessages` as a JSON array; `anthropic`: `toAnthropicMessages` as
 *   `{system?, messages}`; `markdown`: `toMarkdown`.
 * @throws TranscriptError when the original file changed since import, or the host cannot
 *   express the surface (pi with a checkpoint in the middle).
 */
export function writeTranscript(t: Transcript, to: WriteTarget): string {
  switch (to) {
    case 'same':
      return writeSame(t);
    case 'openai':
      return JSON.stringify(toOpenAIMessages(t.log.surface()), null, 2) + '\n';
    case 'anthropic':
      return JSON.stringify(toAnthropicMessages(t.log.surface()), null, 2) + '\n';
    case 'markdown':
      return toMarkdown(t.log.surface());
    default:
      throw new TranscriptError(`unknown output format ${JSON.stringify(to)} (expected same, ${EXPORT_FORMATS.slice(0, -1).join(', ')} or ${EXPORT_FORMATS.at(-1)})`, t.report.path);
  }
}
