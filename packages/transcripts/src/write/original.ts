import { readFileSync, statSync } from 'node:fs';
import type { MessageEvent } from '@hive-mind/session';
import { fileErrorReason, TranscriptError } from '../errors.js';
import type { Transcript } from '../types.js';

/**
 * The original text, re-read when it came from a file, so untouched records can be copied
 * as they are. @throws TranscriptError when the file is gone or changed (size or mtime) since import.
 */
export function originalText(t: Transcript): string {
  const o = t.source.origin;
  if (o.kind === 'text') return o.text;
  let st;
  try {
    st = statSync(o.path);
  } catch (err) {
    throw new TranscriptError(`cannot re-read the original for write-back: ${fileErrorReason(err)}`, o.path);
  }
  if (st.size !== o.size || st.mtimeMs !== o.mtimeMs) throw new TranscriptError('file changed since it was read; read it again before writing back', o.path);
  return readFileSync(o.path, 'utf8');
}

/** The text of a checkpoint (or any text-only node): its text blocks joined by newlines. */
export function checkpointText(e: MessageEvent): string {
  return e.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}
