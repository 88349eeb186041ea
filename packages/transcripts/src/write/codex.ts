import { blocksText, isMessageEvent, type ContentBlock, type MessageEvent } from '@hive-mind/session';
import type { Transcript } from '../types.js';
import { changes, imported, joinOut, Lines, modified, newEvents, type Rec } from './jsonl-shared.js';
import { checkpointText } from './original.js';

function codexItems(n: MessageEvent): Rec[] {
  const items: Rec[] = [];
  if (n.type === 'assistant/message') {
    const texts = n.content.filter((b) => b.type === 'text').map((b) => ({ type: 'output_text', text: (b as { text: string }).text }));
    if (texts.length) items.push({ type: 'message', role: 'assistant', content: texts });
    for (const b of n.content) if (b.type === 'tool-call') items.push({ type: 'function_call', name: b.name, arguments: typeof b.input === 'string' ? b.input : JSON.stringify(b.input ?? {}), call_id: b.id });
    return items;
  }
  const role = n.type === 'system/message' ? 'developer' : 'user';
  const texts: Rec[] = [];
  for (const b of n.content) {
    if (b.type === 'tool-result') items.push({ type: 'function_call_output', call_id: b.callId, output: blocksText(b.content) });
    else if (b.type === 'text') texts.push({ type: 'input_text', text: b.text });
    else if (b.type === 'image') texts.push({ type: 'input_image', image_url: b.data ? `data:${b.mediaType ?? 'image/png'};base64,${b.data}` : b.url });
    else if (b.type !== 'reasoning') texts.push({ type: 'input_text', text: blocksText([b]) });
  }
  if (texts.length) items.push({ type: 'message', role, content: texts });
  return items;
}

/**
 * Text openings of the user messages Codex injects as context, not as the user's words
 * (codex-rs `is_contextual_user_message` / `is_contextual_user_fragment`: the environment
 * context, AGENTS.md and user instructions, skills, context updates).
 */
const CONTEXT_USER_OPENINGS = ['<environment_context', '# agents.md instructions', '<user_instructions>', '<skills_instructions>', '<context_update>'];

/**
 * True for an item of Codex's initial context: a developer (or system) message (base,
 * permissions, skills, collaboration-mode or personality instructions) or a user message
 * made only of context fragments. Codex builds this context again after a `compacted` item:
 * codex-rs `reconstruct_history_from_rollout` (core/src/codex/rollout_reconstruction.rs)
 * marks the turn baseline `Cleared` at a compaction, so the first turn after the resume has no
 * reference context and re-emits the whole of `build_initial_context`; Codex's own manual
 * and pre-turn compactions write their replacement history without it for that reason
 * (`InitialContextInjection::DoNotInject`). Kept, it would reach the model twice (seen with
 * 0.171.0: the skills message sent twice).
 */
function isInitialContext(item: Rec): boolean {
  if (item.type !== 'message') return false;
  if (item.role === 'developer' || item.role === 'system') return true;
  if (item.role !== 'user' || !Array.isArray(item.content)) return false;
  const texts = (item.content as Rec[]).map((c) => (typeof c?.text === 'string' ? c.text : undefined));
  return texts.length > 0 && texts.every((x) => x !== undefined && CONTEXT_USER_OPENINGS.some((o) => x.trimStart().toLowerCase().startsWith(o)));
}

/**
 * Codex: the original rollout untouched, then, when anything was replaced after import, a
 * `compacted` rollout item `{message, replacement_history}` (codex-rs protocol `RolloutItem::
 * Compacted` / `CompactedItem`): `message` is the checkpoint text (empty when only tool outputs
 * were masked or pruned) and `replacement_history` the new history as response items: the
 * checkpoint as a user message where it stands on the surface, the other surface nodes as
 * their original payloads (copied from their lines; a masked output keeps every field but
 * `output`), rendered when new. Left out: the base instructions (`session_meta`, not history)
 * and Codex's initial context ({@link isInitialContext}), which Codex sends again itself. On
 * resume, codex-rs `reconstruct_history_from_rollout` takes the newest `replacement_history`
 * as the whole history and replays the items after it (checked with the pinned 0.171.0 in
 * packages/cli/test/resume-codex.e2e.test.ts). New messages without a compaction become
 * `response_item` lines.
 */
export function writeCodex(t: Transcript, original: string): string {
  const st = t.source.state as { usesOrdinal?: boolean; lastOrdinal?: number };
  let ordinal = st.lastOrdinal ?? -1;
  const lines = new Lines(original);
  const line = (type: string, payload: unknown): Rec => ({ timestamp: new Date().toISOString(), ...(st.usesOrdinal ? { ordinal: ++ordinal } : {}), type, payload });
  const itemsOf = (n: MessageEvent): Rec[] => {
    if (modified(t, n)) {
      // a masked/pruned tool output: the original item with only `output` new (call_id and any other field kept)
      const rec = lines.record(n.meta!.line as number);
      const p = rec?.type === 'response_item' ? (rec.payload as Rec | undefined) : undefined;
      const results = n.content.filter((b) => b.type === 'tool-result');
      if (p && typeof p.type === 'string' && p.type.endsWith('_output') && results.length === 1 && n.content.length === 1) {
        return [{ ...p, output: blocksText((results[0] as Extract<ContentBlock, { type: 'tool-result' }>).content) }];
      }
    }
    if (imported(t, n)) {
      const rec = lines.record(n.meta!.line as number);
      if (rec?.type === 'response_item' && rec.payload) return [rec.payload as Rec];
      if (rec?.type === 'compacted' && typeof n.meta?.replacementIndex === 'number') {
        const h = (rec.payload as Rec | undefined)?.replacement_history;
        if (Array.isArray(h) && h[n.meta.replacementIndex]) return [h[n.meta.replacementIndex] as Rec];
      }
    }
    return codexItems(n);
  };
  const out: Rec[] = [];
  const { replaced, cp } = changes(t);
  if (replaced) {
    const history: Rec[] = [];
    for (const n of t.log.surface()) {
      if (n.meta?.codexField === 'base_instructions') continue;
      if (cp && n.seq === cp.seq) history.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: checkpointText(cp) }] });
      else history.push(...itemsOf(n).filter((it) => !isInitialContext(it)));
    }
    out.push(line('compacted', { message: cp ? checkpointText(cp) : '', replacement_history: history }));
  } else {
    for (const n of newEvents(t).filter(isMessageEvent)) for (const it of codexItems(n)) out.push(line('response_item', it));
  }
  return joinOut(original, out);
}

/** `writeTranscript(t, 'same')`: see the per-format writers above. */
