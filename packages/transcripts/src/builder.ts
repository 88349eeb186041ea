import {
  MemorySessionLog,
  type CompactionEndData,
  type CompactionStartData,
  type CompactionSummaryData,
  type ContentBlock,
  type MessageEvent,
  type MessageEventType,
  type NewEvent,
  type TextBlock,
} from '@hive-mind/session';
import type { ImportReport } from './types.js';

/** Extra fields of a message event built from a host record. */
export interface MessageExtra {
  meta?: Record<string, unknown>;
  ts?: string;
  model?: string;
  usage?: MessageEvent['usage'];
  kind?: MessageEvent['kind'];
  /** The host's id of the model message this record is a part of (see `MessageEvent.messageId`). */
  messageId?: string;
}

/** Text of the synthetic result given to a call that never got one (what the model sees). */
export function unansweredText(id: string, name: string): string {
  return `[hive-mind: no result was recorded for tool call ${id} (${name}); the call was interrupted or its result was lost]`;
}

interface OpenCall {
  id: string;
  name: string;
  seq: number;
}

/**
 * Appends imported records to a log while keeping it valid for `checkInvariants`:
 *
 * - a tool call id seen before is renamed `<id>_<n>` (first free n >= 2), and the next
 *   result naming the original id goes to the newest open call with that original id;
 * - a result with no open call becomes a visible text note (`kind: 'repair'` when
 *   nothing else is in the message), counted in `orphanResults`;
 * - calls still open when the conversation moves on (a new user message, or a new
 *   assistant turn after results) or when the import ends get one synthetic
 *   `tool/result` event (`kind: 'repair'`) answering them, counted in `repairedCalls`.
 */
export class LogBuilder {
  private readonly open = new Map<string, OpenCall>();
  /** original id -> open renamed/original ids, oldest first */
  private readonly openByOrig = new Map<string, string[]>();
  private readonly usedIds = new Set<string>();
  private lastRole: 'user' | 'assistant' | 'tool' | 'system' | null = null;
  private hostCompactions = 0;

  constructor(
    readonly log: MemorySessionLog,
    readonly report: ImportReport,
  ) {}

  /** Append a log-only event. */
  logOnly(type: string, data: unknown, ts?: string, meta?: Record<string, unknown>): void {
    const e: NewEvent = { type, data } as NewEvent;
    if (ts) e.ts = ts;
    if (meta) e.meta = meta;
    this.log.append(e);
  }

  /** Append a message, repairing tool pairing as described on the class. */
  message(type: MessageEventType, content: ContentBlock[], extra: MessageExtra = {}, surfaceOp: MessageEvent['surfaceOp'] = 'append'): void {
    const hasResult = content.some((b) => b.type === 'tool-result');
    if (this.open.size) {
      if ((type === 'user/message' || type === 'system/message') && !hasResult) this.repairOpen(extra.ts);
      else if (type === 'assistant/message' && this.lastRole !== 'assistant' && this.lastRole !== null) this.repairOpen(extra.ts);
    }
    let orphans = 0;
    const out: ContentBlock[] = [];
    for (const b of content) {
      if (b.type === 'tool-call') {
        let id = b.id;
        if (this.usedIds.has(id)) {
          let n = 2;
          while (this.usedIds.has(`${b.id}_${n}`)) n++;
          id = `${b.id}_${n}`;
          this.report.renamedCallIds = (this.report.renamedCallIds ?? 0) + 1;
        }
        this.usedIds.add(id);
        const list = this.openByOrig.get(b.id) ?? [];
        list.push(id);
        this.openByOrig.set(b.id, list);
        this.open.set(id, { id, name: b.name, seq: this.log.lastSeq + 1 });
        out.push(id === b.id ? b : { ...b, id });
      } else if (b.type === 'tool-result') {
        const list = this.openByOrig.get(b.callId);
        const id = list?.length ? list.pop()! : undefined;
        if (list && !list.length) this.openByOrig.delete(b.callId);
        if (id !== undefined) {
          this.open.delete(id);
          out.push(id === b.callId ? b : { ...b, callId: id });
        } else {
          orphans++;
          const body = b.content.map((c) => (c.type === 'text' ? c.text : `[image${c.mediaType ? ` ${c.mediaType}` : ''}]`)).join('\n');
          out.push({
            type: 'text',
            text: `[hive-mind: tool result for call ${b.callId}${b.toolName ? ` (${b.toolName})` : ''} has no matching tool call; kept as a note]\n${body}`,
          });
        }
      } else out.push(b);
    }
    this.report.orphanResults += orphans;
    let t = type;
    let kind = extra.kind;
    if (orphans && type === 'tool/result' && !out.some((b) => b.type === 'tool-result')) {
      t = 'user/message';
      kind = kind ?? 'repair';
    }
    // Tool calls opened by this event get the seq it is about to receive.
    const seq = this.log.lastSeq + 1;
    for (const b of out) if (b.type === 'tool-call') this.open.get(b.id)!.seq = seq;
    this.appendMessage(t, out, { ...extra, kind }, surfaceOp);
  }

  private appendMessage(type: MessageEventType, content: ContentBlock[], extra: MessageExtra, surfaceOp: MessageEvent['surfaceOp'] = 'append'): MessageEvent {
    const e: Record<string, unknown> = { type, surfaceOp, content };
    if (extra.ts) e.ts = extra.ts;
    if (extra.meta) e.meta = extra.meta;
    if (extra.model) e.model = extra.model;
    if (extra.usage) e.usage = extra.usage;
    if (extra.kind) e.kind = extra.kind;
    if (extra.messageId) e.messageId = extra.messageId;
    const [stored] = this.log.append(e as unknown as NewEvent);
    this.lastRole = type === 'user/message' ? 'user' : type === 'assistant/message' ? 'assistant' : type === 'tool/result' ? 'tool' : 'system';
    return stored as MessageEvent;
  }

  /** Answer every open call with one synthetic `tool/result` event. */
  repairOpen(ts?: string): void {
    if (!this.open.size) return;
    const blocks: ContentBlock[] = [];
    for (const c of this.open.values()) {
      blocks.push({ type: 'tool-result', callId: c.id, toolName: c.name, isError: true, content: [{ type: 'text', text: unansweredText(c.id, c.name) }] });
    }
    const calls = [...this.open.values()].map((c) => ({ id: c.id, name: c.name, seq: c.seq }));
    this.open.clear();
    this.openByOrig.clear();
    this.report.repairedCalls += calls.length;
    this.appendMessage('tool/result', blocks, { kind: 'repair', ts, meta: { synthetic: 'unanswered-calls', calls } });
  }

  /**
   * Land a host compaction: `compaction/start`, a `user/message` checkpoint (`kind:
   * 'checkpoint'`) replacing the surface from its first non-system node up to the node
   * before `keepFromSeq` (everything when undefined), `compaction/summary`, `compaction/end`.
   * Open calls are repaired first so no result can outlive its call.
   * @returns the checkpoint event.
   */
  hostCompaction(
    summary: string | null,
    opts: {
      keepFrom?: (node: MessageEvent) => boolean;
      /**
       * The exact nodes the host keeps after its summary, in order (instead of `keepFrom`).
       * When the surface already ends with them (synthetic repair nodes aside) the span
       * before them is replaced; otherwise everything after the prefix is replaced and
       * copies of them are appended after the checkpoint (same content, meta and kind), so
       * the surface reads: prefix, checkpoint, retained nodes.
       */
      retain?: readonly MessageEvent[];
      /** Leading surface nodes that stay (default: system messages). */
      keepPrefix?: (node: MessageEvent) => boolean;
      /**
       * Messages the host puts in the new history before its summary (Codex replacement
       * history; the first Claude Code line after a boundary without a summary). The first
       * takes the place of the old span. With `summary: null` there is no checkpoint.
       */
      lead?: Array<{ type: MessageEventType; content: ContentBlock[]; extra: MessageExtra }>;
      ts?: string;
      meta?: Record<string, unknown>;
      /** Host fields of the `compaction/summary` record (pi's `tokensBefore`, Codex's `replacementItems`...). */
      data?: Pick<CompactionSummaryData, 'tokensBefore' | 'firstKeptEntryIndex' | 'firstKeptEntryId' | 'replacementItems'>;
      summarizer: string;
    },
  ): MessageEvent | undefined {
    this.repairOpen(opts.ts);
    const id = `host-${++this.hostCompactions}`;
    const surface = this.log.surface();
    const keepPrefix = opts.keepPrefix ?? ((n: MessageEvent) => n.type === 'system/message');
    let a = 0;
    while (a < surface.length && keepPrefix(surface[a]!)) a++;
    let b = a;
    let copies: readonly MessageEvent[] = [];
    if (opts.retain) {
      b = retainedFrom(surface, a, opts.retain);
      if (b < 0) {
        b = surface.length;
        copies = opts.retain;
      }
    } else while (b < surface.length && !(opts.keepFrom?.(surface[b]!) ?? false)) b++;
    const shadowed = surface.slice(a, b).map((n) => n.seq);
    this.logOnly('compaction/start', { id, host: true, summarizer: opts.summarizer } satisfies CompactionStartData, opts.ts);
    // Ids only need to be unique on the surface: a host re-emits retained items with their ids.
    const gone = new Set(shadowed);
    this.usedIds.clear();
    for (const n of surface) if (!gone.has(n.seq)) for (const c of n.content) if (c.type === 'tool-call') this.usedIds.add(c.id);
    const op: MessageEvent['surfaceOp'] = shadowed.length ? { op: 'replace', start: shadowed[0]!, end: shadowed[shadowed.length - 1]! } : 'append';
    let cp: MessageEvent | undefined;
    const lead = opts.lead ?? [];
    const checkpoint = (surfaceOp: MessageEvent['surfaceOp']) =>
      summary === null ? undefined : this.appendMessage('user/message', [{ type: 'text', text: summary } as TextBlock], { kind: 'checkpoint', ts: opts.ts, meta: opts.meta }, surfaceOp);
    if (lead.length && b === surface.length) {
      // the host's new history: the lead messages, then the summary
      lead.forEach((m, i) => this.message(m.type, m.content, m.extra, i === 0 ? op : 'append'));
      cp = checkpoint('append');
    } else if (op === 'append' && b < surface.length) {
      // Nothing to replace but nodes follow: a zero-width span cannot be expressed, so
      // the checkpoint is appended (the host's summary stays visible).
      cp = checkpoint('append');
    } else {
      cp = checkpoint(op);
    }
    for (const n of copies) {
      const extra: MessageExtra = { ts: n.ts };
      if (n.meta) extra.meta = { ...n.meta, copyOf: n.seq };
      if (n.model) extra.model = n.model;
      if (n.usage) extra.usage = n.usage;
      if (n.messageId) extra.messageId = n.messageId;
      if (n.kind === 'checkpoint') this.appendMessage(n.type, n.content, { ...extra, kind: 'checkpoint' });
      else this.message(n.type, n.content, { ...extra, kind: n.kind });
    }
    const record: CompactionSummaryData = { id, host: true, summarizer: opts.summarizer, checkpointSeq: cp?.seq ?? null, shadowedSeqs: shadowed, ...opts.data };
    this.logOnly('compaction/summary', record, opts.ts);
    this.logOnly('compaction/end', { id } satisfies CompactionEndData, opts.ts);
    this.report.compactions++;
    return cp;
  }

  /** Repair whatever is still open; call once at the end of an import. */
  finish(): void {
    this.repairOpen();
  }
}

/** A synthetic node the importer added (an unanswered call's result): no host record behind it. */
export function isSyntheticRepair(n: MessageEvent): boolean {
  return n.kind === 'repair' && n.meta?.synthetic !== undefined;
}

/**
 * Where `retain` starts on the surface when the surface (from `a` on) ends with exactly
 * those nodes, synthetic repair nodes aside, and something before them can be replaced;
 * `surface.length` when `retain` is empty; else -1 (the nodes must be appended again).
 */
function retainedFrom(surface: readonly MessageEvent[], a: number, retain: readonly MessageEvent[]): number {
  if (!retain.length) return surface.length;
  const b = surface.findIndex((n, i) => i >= a && n.seq === retain[0]!.seq);
  // b === a: nothing before them to replace; the checkpoint must still come first
  if (b <= a) return -1;
  let j = 0;
  for (let i = b; i < surface.length; i++) {
    const n = surface[i]!;
    if (isSyntheticRepair(n)) continue;
    if (retain[j]?.seq !== n.seq) return -1;
    j++;
  }
  return j === retain.length ? b : -1;
}

/** Keep a host record on a log-only event only when it is small (bytes of its line); large ones are re-read from the file on write-back. */
const MAX_KEPT_RECORD_CHARS = 16_384;

/** The `data` of a log-only `host/record` event: the record when small, else its type and size. */
export function hostRecordData(line: number, rec: Record<string, unknown>, chars: number, reason: string): Record<string, unknown> {
  if (chars <= MAX_KEPT_RECORD_CHARS) return { line, reason, record: rec };
  return { line, reason, type: rec.type, subtype: rec.subtype, chars, omitted: true };
}
