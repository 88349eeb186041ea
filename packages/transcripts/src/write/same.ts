import { randomBytes, randomUUID } from 'node:crypto';
import { blocksText, isCompactionRecord, isMessageEvent, type ContentBlock, type MessageEvent, type SessionEvent, type SurfaceNode } from '@hive-mind/session';
import { isSyntheticRepair } from '../builder.js';
import { TranscriptError } from '../errors.js';
import { piKeptNodes } from '../formats/pi.js';
import type { Transcript } from '../types.js';
import { anthropicBlocks } from './chat.js';
import { checkpointText, originalText } from './original.js';
import { anthropicChanged, writeWhole } from './whole.js';

type Rec = Record<string, unknown>;

/** Random access to the original lines without splitting the whole text into strings. */
class Lines {
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

function newEvents(t: Transcript): SessionEvent[] {
  return t.log.events(t.importedLastSeq + 1);
}

/**
 * What changed on the surface after import: `replaced` when any replace landed (a
 * checkpoint, or single-node replacements such as masked or pruned tool results), and the
 * checkpoint on the surface when there is one.
 */
function changes(t: Transcript): { replaced: boolean; cp?: MessageEvent; k: number; surface: readonly SurfaceNode[] } {
  let replaced = false;
  for (const e of newEvents(t)) if (isMessageEvent(e) && e.surfaceOp !== 'append') replaced = true;
  const surface = t.log.surface();
  let k = -1;
  for (let i = 0; i < surface.length; i++) if (surface[i]!.kind === 'checkpoint' && surface[i]!.seq > t.importedLastSeq) k = i;
  return { replaced, cp: k >= 0 ? surface[k] : undefined, k, surface };
}

/** An imported node, unchanged: its original record can be copied. */
function imported(t: Transcript, e: MessageEvent): boolean {
  return e.seq <= t.importedLastSeq && typeof e.meta?.line === 'number' && e.kind === undefined;
}

/** A node that replaced one imported node (masked/pruned): the original record with new content. */
function modified(t: Transcript, e: MessageEvent): boolean {
  return e.seq > t.importedLastSeq && typeof e.meta?.line === 'number' && e.kind === undefined;
}

function leadingSystem(surface: readonly SurfaceNode[], k: number): boolean {
  return surface.slice(0, k).every((n) => n.type === 'system/message');
}

/** Tokens before the newest compaction as recorded on its `compaction/summary` event, else a chars/4 estimate of the shadowed events. */
function tokensBefore(t: Transcript, cp: MessageEvent | undefined): number {
  for (const e of newEvents(t)) {
    if (isMessageEvent(e) || !isCompactionRecord(e) || e.type !== 'compaction/summary') continue;
    const n = e.data.tokensBefore;
    if (typeof n === 'number' && Number.isFinite(n)) return n;
  }
  // chars/4 of the message events on the surface as it was at import
  let chars = 0;
  const shadowed = new Set<number>();
  for (const e of newEvents(t)) if (isMessageEvent(e) && e.surfaceOp !== 'append') for (let s = e.surfaceOp.start; s <= e.surfaceOp.end; s++) shadowed.add(s);
  void cp;
  for (const e of t.log.events()) {
    if (e.seq > t.importedLastSeq) break;
    if (isMessageEvent(e) && (t.log.surfacePosition(e.seq) !== undefined || shadowed.has(e.seq))) chars += blocksText(e.content).length;
  }
  return Math.ceil(chars / 4);
}

function joinOut(original: string, t: Transcript, lines: Rec[]): string {
  if (!lines.length) return original;
  const sep = original.length && !original.endsWith('\n') ? '\n' : '';
  return original + sep + lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}


// ---------------------------------------------------------------- Claude Code

/**
 * Claude Code: the original lines untouched, then, when a checkpoint was landed after
 * import, the two lines Claude Code 2.1.332 itself writes on `/compact` (see
 * shared/data/transcripts/claude-code/native-compact-2.1.332.jsonl): a `system`
 * `compact_boundary` line (`parentUuid: null`, `logicalParentUuid` = the old leaf,
 * `compactMetadata {trigger, preTokens}`) and a user line with `isCompactSummary: true` and
 * `isVisibleInTranscriptOnly: true` holding the checkpoint text; then every surface node after
 * the checkpoint re-emitted with a new uuid, chained by `parentUuid` (original records copied
 * from their lines; synthetic or new messages rendered as Anthropic blocks). New messages
 * without a compaction are chained after the old leaf. Same `sessionId`, so
 * `claude --resume <sessionId>` loads the compacted branch.
 */
function writeClaudeCode(t: Transcript, original: string): string {
  const st = t.source.state as { leafUuid?: string; common?: Rec; lastPrompt?: string };
  const common = st.common ?? {};
  // New lines get fresh, increasing timestamps: the new leaf must be the newest line of the
  // file (the old leaf stays a leaf: the boundary links to it only through logicalParentUuid).
  const t0 = Date.now();
  let tick = 0;
  const stamp = () => new Date(t0 + tick++).toISOString();
  const lines = new Lines(original);
  const out: Rec[] = [];
  const uuidMap = new Map<string, string>();
  const messageIds = new Map<string, string>();
  let parent: string | null = st.leafUuid ?? null;
  const { replaced, cp, k, surface } = changes(t);
  let nodes: readonly SurfaceNode[];
  if (replaced) {
    const boundary = randomUUID();
    out.push({
      parentUuid: null,
      logicalParentUuid: st.leafUuid ?? null,
      isSidechain: false,
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      isMeta: false,
      timestamp: stamp(),
      uuid: boundary,
      level: 'info',
      compactMetadata: { trigger: 'manual', preTokens: tokensBefore(t, cp) },
      ...common,
    });
    parent = boundary;
    if (cp && leadingSystem(surface, k)) {
      const u = randomUUID();
      out.push({
        parentUuid: parent,
        isSidechain: false,
        type: 'user',
        message: { role: 'user', content: checkpointText(cp) },
        isVisibleInTranscriptOnly: true,
        isCompactSummary: true,
        uuid: u,
        timestamp: stamp(),
        ...common,
      });
      parent = u;
      nodes = surface.slice(k + 1);
    } else nodes = surface; // no checkpoint, or one in the middle (re-emitted in place as a user line)
  } else {
    nodes = newEvents(t).filter(isMessageEvent);
  }
  for (const n of nodes) {
    if (n.type === 'system/message') continue;
    const u = randomUUID();
    const role = n.type === 'assistant/message' ? 'assistant' : 'user';
    const orig = imported(t, n) || modified(t, n) ? lines.record(n.meta!.line as number) : undefined;
    let rec: Rec;
    if (orig) {
      rec = { ...orig, parentUuid: parent, uuid: u, timestamp: stamp() };
      delete rec.logicalParentUuid;
      if (modified(t, n)) {
        // new content (e.g. a masked tool result), the record's other fields kept; the full tool output copy goes too
        rec.message = anthropicChanged((orig.message ?? {}) as Rec, n);
        delete rec.toolUseResult;
      }
      // Claude Code treats lines with one `message.id` as one API message and keeps the first
      // it reads: a copy keeping the old id resolves to the old line, and the next turn would
      // chain from there (off the compacted branch). Each copied message gets a new id, the
      // same for every line of one message.
      const m = rec.message as Rec | undefined;
      if (m && typeof m.id === 'string') {
        let id = messageIds.get(m.id);
        if (!id) messageIds.set(m.id, (id = `msg_hm_${randomUUID().replace(/-/g, '').slice(0, 24)}`));
        rec.message = { ...m, id };
      }
      if (typeof orig.uuid === 'string') uuidMap.set(orig.uuid, u);
      if (typeof orig.sourceToolAssistantUUID === 'string') rec.sourceToolAssistantUUID = uuidMap.get(orig.sourceToolAssistantUUID) ?? orig.sourceToolAssistantUUID;
    } else {
      const content = anthropicBlocks(n.content, role);
      if (!content.length) continue;
      const message: Rec =
        role === 'assistant'
          ? { id: `msg_hm_${u.replace(/-/g, '').slice(0, 24)}`, type: 'message', role, model: n.model ?? 'unknown', content, stop_reason: content.some((c) => c.type === 'tool_use') ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } }
          : { role, content };
      rec = { parentUuid: parent, isSidechain: false, type: role, message, uuid: u, timestamp: stamp(), ...common };
    }
    out.push(rec);
    parent = u;
  }
  // Claude Code 2.1.x records the leaf of the latest prompt in a `last-prompt` line.
  if (out.length && st.lastPrompt !== undefined && parent) out.push({ type: 'last-prompt', lastPrompt: st.lastPrompt, leafUuid: parent, ...(common.sessionId ? { sessionId: common.sessionId } : {}) });
  return joinOut(original, t, out);
}

// ---------------------------------------------------------------- pi

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
function writePi(t: Transcript, original: string): string {
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
    entry.tokensBefore = tokensBefore(t, cp);
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
    return joinOut(original, t, out);
  }
  tail = newEvents(t).filter(isMessageEvent).filter((n) => n.kind === undefined);
  for (const n of tail) {
    const m = piEntryMessage(t, lines, n);
    if (m) out.push(withId({ type: 'message', timestamp: n.ts, message: m }));
  }
  return joinOut(original, t, out);
}

// ---------------------------------------------------------------- Codex

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
 * Codex: the original rollout untouched, then, for a checkpoint landed after import, a
 * `compacted` rollout item `{message, replacement_history}` as codex-rs writes it (RolloutItem::
 * Compacted / CompactedItem): `message` is the checkpoint text and `replacement_history` the
 * whole new history as response items (the checkpoint as a user message, then the retained
 * items: original payloads copied from their lines). On resume Codex replaces its history with
 * `replacement_history`. The session's base instructions are not history and are left out.
 * New messages without a compaction become `response_item` lines.
 */
function writeCodex(t: Transcript, original: string): string {
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
      else history.push(...itemsOf(n));
    }
    out.push(line('compacted', { message: cp ? checkpointText(cp) : '', replacement_history: history }));
  } else {
    for (const n of newEvents(t).filter(isMessageEvent)) for (const it of codexItems(n)) out.push(line('response_item', it));
  }
  return joinOut(original, t, out);
}

/** `writeTranscript(t, 'same')`: see the per-format writers above. */
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
