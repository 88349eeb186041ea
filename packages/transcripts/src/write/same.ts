import type { Transcript, TranscriptFormat } from '../types.js';
import { writeClaudeCode } from './claude-code.js';
import { writeCodex } from './codex.js';
import { originalText } from './original.js';
import { writePi } from './pi.js';
import { writeWhole } from './whole.js';

/** How each format is written back in its own shape, given the original text: one entry per row of the format table (types.ts). */
const WRITERS: Readonly<Record<TranscriptFormat, (t: Transcript, original: string) => string>> = {
  'claude-code': writeClaudeCode,
  codex: writeCodex,
  pi: writePi,
  hermes: writeWhole,
  openai: writeWhole,
  anthropic: writeWhole,
};

/** The transcript in its own format (`writeTranscript(t, 'same')`): the original records kept, the compaction applied. */
export function writeSame(t: Transcript): string {
  return WRITERS[t.format](t, originalText(t));
}
