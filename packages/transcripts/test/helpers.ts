import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { balancedCuts, type MessageEvent } from '@hive-mind/session';
import type { Transcript } from '@hive-mind/transcripts';

/** shared/data/transcripts, found from this file (repo/packages/transcripts/test -> ../shared). */
export const DATA = fileURLToPath(new URL('../../../../shared/data/transcripts/', import.meta.url));

/** Raw records of a JSONL file, parsed with nothing but JSON.parse (independent of the readers). */
export function rawRecords(rel: string): Array<Record<string, any>> {
  return readFileSync(DATA + rel, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/**
 * Land a checkpoint the way the compaction engine does (start, replace, summary, end):
 * replace the surface from its first non-system node up to the first balanced cut at or
 * after the middle.
 */
export function compactHalf(t: Transcript, text = '<compacted-summary>\nTEST SUMMARY\n</compacted-summary>'): MessageEvent {
  const s = t.log.surface();
  let a = 0;
  while (a < s.length && s[a]!.type === 'system/message') a++;
  const k = balancedCuts(s).find((c) => c >= Math.floor(s.length / 2) && c > a) ?? s.length;
  t.log.append({ type: 'compaction/start', data: { id: 'test' } });
  const [cp] = t.log.append({ type: 'user/message', kind: 'checkpoint', surfaceOp: { op: 'replace', start: s[a]!.seq, end: s[k - 1]!.seq }, content: [{ type: 'text', text }] });
  t.log.append({ type: 'compaction/summary', data: { id: 'test', tokensBefore: 4321 } });
  t.log.append({ type: 'compaction/end', data: { id: 'test' } });
  return cp as MessageEvent;
}

/** Surface reduced to what a model sees: type and content. */
export function surfaceShape(t: Transcript): Array<{ type: string; content: unknown }> {
  return t.log.surface().map((n) => ({ type: n.type, content: n.content }));
}

/**
 * Mask old tool results the way the compaction engine's `mask` strategy lands them: one
 * single-node replace per result, same event type, the original's meta copied, the
 * result's text swapped for a one-line placeholder.
 */
export function maskOldResults(t: Transcript, keepNewest = 2): number {
  const results = t.log.surface().filter((n) => n.content.some((b) => b.type === 'tool-result') && n.kind === undefined);
  const old = results.slice(0, Math.max(0, results.length - keepNewest));
  t.log.append({ type: 'compaction/start', data: { id: 'mask' } });
  for (const n of old) {
    const content = n.content.map((b) => (b.type === 'tool-result' ? { ...b, content: [{ type: 'text' as const, text: `[masked ${b.toolName ?? 'tool'} output]` }] } : b));
    t.log.append({ type: n.type, surfaceOp: { op: 'replace', start: n.seq, end: n.seq }, content, sourceSeqs: [n.seq], ...(n.meta ? { meta: { ...n.meta } } : {}) } as never);
  }
  t.log.append({ type: 'compaction/summary', data: { id: 'mask', tokensBefore: 999 } });
  t.log.append({ type: 'compaction/end', data: { id: 'mask' } });
  return old.length;
}

/** The openings of the user messages Codex injects as context (codex-rs `is_contextual_user_message`). */
const CODEX_CONTEXT_OPENINGS = ['<environment_context', '# agents.md instructions', '<user_instructions>', '<skills_instructions>', '<context_update>'];

/**
 * True for a Codex response item that is part of the initial context Codex sends again after a
 * compaction (a developer message, or a user message made only of context fragments): the
 * write-back leaves these out of `replacement_history`.
 */
export function codexContextItem(item: Record<string, any>): boolean {
  if (item.type !== 'message') return false;
  if (item.role === 'developer' || item.role === 'system') return true;
  const texts = Array.isArray(item.content) ? item.content.map((c: any) => c?.text) : [];
  return item.role === 'user' && texts.length > 0 && texts.every((x: unknown) => typeof x === 'string' && CODEX_CONTEXT_OPENINGS.some((o) => x.trimStart().toLowerCase().startsWith(o)));
}

/** The surface shape a Codex file written back reads as: without the initial context (the base instructions stay). */
export function codexShapeWithoutContext(t: Transcript): Array<{ type: string; content: unknown }> {
  return t.log
    .surface()
    .filter((n) => {
      if (n.meta?.codexField === 'base_instructions') return true;
      if (n.type === 'system/message') return false;
      if (n.type !== 'user/message' || n.kind === 'checkpoint') return true;
      return !codexContextItem({ type: 'message', role: 'user', content: n.content.map((b) => ('text' in b ? { text: b.text } : {})) });
    })
    .map((n) => ({ type: n.type, content: n.content }));
}
