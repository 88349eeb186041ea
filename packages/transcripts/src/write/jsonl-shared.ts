import { blocksText, isCompactionRecord, isMessageEvent, type MessageEvent, type SessionEvent, type SurfaceNode } from '@hive-mind/session';
import type { Transcript } from '../types.js';

/* What the JSONL host writers (Claude Code, pi, Codex) share: random access to the original
 * lines, what changed on the surface since import, and how new lines are appended. */

export type Rec = Record<string, unknown>;

/** Random access to the original lines without splitting the whole text into strings. */
export class Lines {
  private starts: number[] | null = null;
  constructor(readonly text: string) {}
  record(line: number): Rec | undefined {
    if (!this.starts) {
      this.starts = [0];
      for (let i = this.text.indexOf('\n'); i >= 0; i = this.text.indexOf('\n', i + 1)) this.starts.push(i + 1);
    }
    const a = this.starts[line - 1];
    if (a === undefined) return undefined;
    const b = this.starts[line] ?? this.text.length + 1;
    try {
      const v = JSON.parse(this.text.slice(a, b - 1).replace(/\r$/, '').replace(/^\uFEFF/, ''));
      return typeof v === 'object' && v && !Array.isArray(v) ? (v as Rec) : undefined;
    } catch {
      return undefined;
    }
  }
}

export function newEvents(t: Transcript): SessionEvent[] {
  return t.log.events(t.importedLastSeq + 1);
}

/**
 * What changed on the surface after import: `replaced` when any replace landed (a
 * checkpoint, or single-node replacements such as masked or pruned tool results), and the
 * checkpoint on the surface when there is one.
 */
export function changes(t: Transcript): { replaced: boolean; cp?: MessageEvent; k: number; surface: readonly SurfaceNode[] } {
  let replaced = false;
  for (const e of newEvents(t)) if (isMessageEvent(e) && e.surfaceOp !== 'append') replaced = true;
  const surface = t.log.surface();
  let k = -1;
  for (let i = 0; i < surface.length; i++) if (surface[i]!.kind === 'checkpoint' && surface[i]!.seq > t.importedLastSeq) k = i;
  return { replaced, cp: k >= 0 ? surface[k] : undefined, k, surface };
}

/** An imported node, unchanged: its original record can be copied. */
export function imported(t: Transcript, e: MessageEvent): boolean {
  return e.seq <= t.importedLastSeq && typeof e.meta?.line === 'number' && e.kind === undefined;
}

/** A node that replaced one imported node (masked/pruned): the original record with new content. */
export function modified(t: Transcript, e: MessageEvent): boolean {
  return e.seq > t.importedLastSeq && typeof e.meta?.line === 'number' && e.kind === undefined;
}

export function leadingSystem(surface: readonly SurfaceNode[], k: number): boolean {
  return surface.slice(0, k).every((n) => n.type === 'system/message');
}

/** Tokens before the newest compaction as recorded on its `compaction/summary` event, else a chars/4 estimate of the shadowed events. */
export function tokensBefore(t: Transcript): number {
  for (const e of newEvents(t)) {
    if (isMessageEvent(e) || !isCompactionRecord(e) || e.type !== 'compaction/summary') continue;
    const n = e.data.tokensBefore;
    if (typeof n === 'number' && Number.isFinite(n)) return n;
  }
  // chars/4 of the message events on the surface as it was at import
  let chars = 0;
  const shadowed = new Set<number>();
  for (const e of newEvents(t)) if (isMessageEvent(e) && e.surfaceOp !== 'append') for (let s = e.surfaceOp.start; s <= e.surfaceOp.end; s++) shadowed.add(s);
  for (const e of t.log.events()) {
    if (e.seq > t.importedLastSeq) break;
    if (isMessageEvent(e) && (t.log.surfacePosition(e.seq) !== undefined || shadowed.has(e.seq))) chars += blocksText(e.content).length;
  }
  return Math.ceil(chars / 4);
}

export function joinOut(original: string, lines: Rec[]): string {
  if (!lines.length) return original;
  const sep = original.length && !original.endsWith('\n') ? '\n' : '';
  return original + sep + lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}


