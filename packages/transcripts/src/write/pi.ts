import { randomBytes } from 'node:crypto';
import { blocksText, isMessageEvent, type ContentBlock, type MessageEvent } from '@hive-mind/session';
import { isSyntheticRepair } from '../builder.js';
import { TranscriptError } from '../errors.js';
import { piKeptNodes } from '../formats/pi.js';
import type { Transcript } from '../types.js';
import { changes, imported, joinOut, leadingSystem, Lines, modified, newEvents, tokensBefore, type Rec } from './jsonl-shared.js';
import { checkpointText } from './original.js';

function piMessage(n: MessageEvent): Rec | undefined {
  const ts = Date.parse(n.ts) || Date.now();
  const text = (b: ContentBlock) => (b.type === 'text' ? { type: 'text', text: b.text } : b.type === 'image' ? { type: 'image', data: b.data, mimeType: b.mediaType } : { type: 'text', text: blocksText([b]) });
  if (n.type === 'assistant/message') {
    const content = n.content.map((b) =>
      b.type === 'tool-call' ? { type: 'toolCall', id: b.id, name: b.name, arguments: b.input } : b.type === 'reasoning' ? { type: 'thinking', thinking: b.text, ...(b.signature ? { thinkingSignature: b.signature } : {}) } : text(b),
    );
    return { role: 'assistant', content, ...(n.model ? { model: n.model } : {}), stopReason: n.content.some((b) => b.type === 'tool-call') ? 'toolUse' : 'stop', timestamp: ts };
  }
  const results = n.content.filter((b) => b.type === 'tool-result');
  if (results.length === 1 && n.content.length === 1) {
    const r = results[0] as Extract<ContentBlock, { type: 'tool-result' }>;
    return { role: 'toolResult', toolCallId: r.callId, toolName: r.toolName ?? '', content: r.content.map(text), isError: r.isError, timestamp: ts };
  }
  return { role: 'user', content: n.content.map(text), timestamp: ts };
}

/** A pi message for a surface node: the original entry's message (new content when modified), else rendered. */
function piEntryMessage(t: Transcript, lines: Lines, n: MessageEvent): Rec | undefined {
  if (imported(t, n) || modified(t, n)) {
    const orig = lines.record(n.meta!.line as number);
    const m = orig?.message as Rec | undefined;
    if (m && typeof m === 'object') {
      if (imported(t, n)) return m;
      if (m.role === 'bashExecution') {
        // a pruned user-side command execution: its output is the fenced block PiReader rendered
        const text = blocksText(n.content);
        const a = text.indexOf('```\n');
        const b = text.lastIndexOf('\n```');
        return a >= 0 && b > a ? { ...m, output: text.slice(a + 4, b) } : m;
      }
      const fresh = piMessage(n);
      if (!fresh) return undefined;
      const out: Rec = { ...m, content: fresh.content ?? m.content };
      delete out.details;
      return out;
    }
  }
  return piMessage(n);
}

/**
 * pi: the original entries untouched, then a `compaction` entry like the ones pi writes
 * (`summary`, `firstKeptEntryIndex` for version-1 files without entry ids, else `id`,
 * `parentId`, `firstKeptEntryId`; `tokensBefore`) pointing at the first original entry of
 * the retained tail, then new messages as `message` entries. pi can only drop the oldest
 * span, so a checkpoint in the middle of the surface is refused.
 */
export function writePi(t: Transcript, original: string): string {
  const st = t.source.state as { hasIds?: boolean; lastId?: string; entries?: number };
  const out: Rec[] = [];
  let parentId = st.lastId;
  const newId = () => randomBytes(4).toString('hex');
  const withId = (r: Rec, given?: string): Rec => {
    if (!st.hasIds) return r;
    const id = given ?? newId();
    const o = { type: r.type, id, parentId: parentId ?? null, ...r };
    parentId = id;
    return o;
  };
  const lines = new Lines(original);
  const ch = changes(t);
  const { replaced, surface } = ch;
  let { cp, k } = ch;
  if (!cp) {
    // no new checkpoint: pi's own summary at the front (imported) is still the summary
    k = surface.findIndex((n) => n.type !== 'system/message');
    cp = k >= 0 && surface[k]!.kind === 'checkpoint' ? surface[k] : undefined;
  }
  let tail: MessageEvent[];
  if (replaced) {
    if (cp && !leadingSystem(surface, k)) throw new TranscriptError('pi can only record a compaction of the oldest span; this checkpoint is in the middle of the surface', t.report.path);
    const after = (cp ? surface.slice(k + 1) : surface).filter((n) => n.type !== 'system/message');
    // pi keeps original entries by reference: the new entry's context is every entry from
    // the first kept one to the end of the file (see PiReader). That works only when those
    // entries are exactly the retained nodes, unchanged; otherwise (a retained node was
    // masked, pruned or is new; the span would include an older compaction entry or an
    // entry an older compaction hid) the whole tail is written again after the entry.
    const kept = after.filter((n) => !isSyntheticRepair(n));
    const firstKeptNode = kept[0];
    const by = (n: MessageEvent | undefined) => (n && n.seq <= t.importedLastSeq && n.kind !== 'checkpoint' && typeof n.meta?.entryIndex === 'number' ? (n.meta.entryIndex as number) : undefined);
    let rewrite = kept.length > 0;
    if (firstKeptNode && by(firstKeptNode) !== undefined && (!st.hasIds || typeof firstKeptNode.meta?.id === 'string')) {
      const want = piKeptNodes(t.log.events(), by(firstKeptNode)!, Infinity, t.importedLastSeq);
      rewrite = want.length !== kept.length || want.some((n, i) => n.seq !== kept[i]!.seq || by(kept[i]) === undefined);
    }
    const firstKept = rewrite ? undefined : firstKeptNode;
    const summary = cp ? checkpointText(cp) : '[hive-mind: older tool outputs in this session were shortened; the conversation continues below]';
    const entry: Rec = { type: 'compaction', timestamp: cp?.ts ?? new Date().toISOString(), summary };
    const entryId = st.hasIds ? newId() : undefined;
    const firstTailId = rewrite && st.hasIds ? newId() : undefined;
    if (st.hasIds) entry.firstKeptEntryId = firstKept ? firstKept.meta!.id ?? null : firstTailId ?? null;
    else entry.firstKeptEntryIndex = firstKept ? (firstKept.meta!.entryIndex as number) : (st.entries ?? 0) + 1;
    entry.tokensBefore = tokensBefore(t);
    out.push(withId(entry, entryId));
    tail = rewrite ? kept : [];
    let first = true;
    for (const n of tail) {
      const m = piEntryMessage(t, lines, n);
      if (m) {
        out.push(withId({ type: 'message', timestamp: n.ts, message: m }, first ? firstTailId : undefined));
        first = false;
      }
    }
    return joinOut(original, out);
  }
  tail = newEvents(t).filter(isMessageEvent).filter((n) => n.kind === undefined);
  for (const n of tail) {
    const m = piEntryMessage(t, lines, n);
    if (m) out.push(withId({ type: 'message', timestamp: n.ts, message: m }));
  }
  return joinOut(original, out);
}
