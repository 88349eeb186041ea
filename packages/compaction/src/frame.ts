import { blockText, type SurfaceNode } from '@hive-mind/session';
import { hostSummary } from './host-summary.js';

/** Opening tag of a checkpoint. */
export const CHECKPOINT_OPEN = '<compacted-summary>';
/** Closing tag of a checkpoint. */
export const CHECKPOINT_CLOSE = '</compacted-summary>';
/** The preamble the model reads before the summary body. */
export const CHECKPOINT_PREAMBLE =
  'The earlier part of this conversation was compacted to save context; this is its summary. ' +
  'Continue the work from where it left off. Do not restate this summary or ask the user to repeat it.';

/** Frame a summary body as the checkpoint text the model sees. */
export function frameCheckpoint(body: string): string {
  return `${CHECKPOINT_OPEN}\n${CHECKPOINT_PREAMBLE}\n\n${body.trim()}\n${CHECKPOINT_CLOSE}`;
}

/** The body of a framed checkpoint text, or null when the text is not one. */
export function unframeCheckpoint(text: string): string | null {
  const t = text.trim();
  const a = t.indexOf(CHECKPOINT_OPEN);
  const b = t.lastIndexOf(CHECKPOINT_CLOSE);
  if (a < 0 || b < a) return null;
  let body = t.slice(a + CHECKPOINT_OPEN.length, b).trim();
  if (body.startsWith(CHECKPOINT_PREAMBLE)) body = body.slice(CHECKPOINT_PREAMBLE.length).trim();
  return body;
}

/**
 * The summary body of a prior checkpoint node: ours (framed), a host's own as a reader imported
 * it (Claude Code `isCompactSummary`, pi `compaction`, Codex `compacted`: `kind: 'checkpoint'`),
 * or a host's summary recognized by its opening wording in a user, system or assistant message
 * (an OpenAI message array holding Claude Code's "This session is being continued ..." message;
 * host-summary.ts).
 * Returns null when the node is not a checkpoint.
 */
export function checkpointBody(node: SurfaceNode): string | null {
  const t = node.content.filter((b) => b.type === 'text').map((b) => blockText(b)).join('\n');
  const framed = unframeCheckpoint(t);
  if (framed !== null) return framed;
  if (node.kind === 'checkpoint') return t.trim();
  // Hermes writes its summary as an assistant message when a user one would break the alternation
  if (node.type === 'user/message' || node.type === 'system/message' || node.type === 'assistant/message') {
    const host = hostSummary(t);
    if (host) return host.body;
  }
  return null;
}
