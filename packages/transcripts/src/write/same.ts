import type { Transcript } from '../types.js';
import { writeClaudeCode } from './claude-code.js';
import { writeCodex } from './codex.js';
import { originalText } from './original.js';
import { writePi } from './pi.js';
import { writeWhole } from './whole.js';

export function writeSame(t: Transcript): string {
  switch (t.format) {
    case 'claude-code':
      return writeClaudeCode(t, originalText(t));
    case 'pi':
      return writePi(t, originalText(t));
    case 'codex':
      return writeCodex(t, originalText(t));
    default:
      return writeWhole(t, originalText(t));
  }
}
