import { isMessageEvent, type ContentBlock, type ImageBlock, type MessageEvent, type SessionEvent, type TextBlock } from '@hive-mind/session';
import type { LogBuilder } from '../builder.js';
import { hostRecordData, isSyntheticRepair } from '../builder.js';
import { RecordError } from '../errors.js';
import { isObj, parseArgs, str, type Rec } from './common.js';
import type { JsonlReader } from './reader.js';

/**
 * pi coding-agent session JSONL (`~/.pi/agent/sessions/<dir>/<time>_<id>.jsonl`). Facts
 * from the real files in shared/data/transcripts/pi and pi-mono's session manager:
 *
 * - first line `{type: 'session', id, cwd, provider, modelId, thinkingLevel, version?}`;
 *   version 2+ entries also carry `id`/`parentId` and form a tree (`/tree` branches): then
 *   the active branch is followed from the last entry back to the root, like pi does on
 *   load; entries off it are log-only `host/record {reason: 'off-branch'}`.
 * - `message` entries: `user` (string or text/image blocks), `assistant` (text, `thinking`
 *   with `thinkingSignature`, `toolCall {id, name, arguments}`; `api`, `model`, `usage`),
 *   `toolResult {toolCallId, toolName, content, isError}`, `bashExecution {command, output,
 *   exitCode}` (a `!cmd` the user ran; pi sends it to the model as user text), and the
 *   summary roles `compactionSummary`/`branchSummary`.
 * - `compaction {summary, firstKeptEntryIndex | firstKeptEntryId, tokensBefore}`: the entries
 *   before the first kept one are replaced by the summary. `firstKeptEntryIndex` is a
 *   0-based index over the file's entries including the session header (line 294 of
 *   before-compaction.jsonl, index 293, is the first kept user message). Only the newest
 *   compaction on the path counts. Current pi migrates a version-1 file to entry ids on
 *   load (`firstKeptEntryIndex` -> the id of the entry at that index; the header or an
 *   index past the end keeps nothing) and rebuilds the context as: the summary, then every
 *   entry on the path from the first kept one up to the compaction entry (an older
 *   compaction entry in that span shows as its own summary), then every entry after it.
 *   This reader does the same ({@link piKeptNodes}): when the kept entries are not already
 *   the end of the surface (the span starts before an older compaction entry, or reaches
 *   entries an older compaction had hidden) they are appended again after the checkpoint.
 *   Old version-1 pi skipped older compaction entries inside the span instead; pi itself
 *   never keeps from before its previous compaction, so its own files read the same
 *   either way.
 * - `model_change` -> `model/change`, `thinking_level_change` -> `thinking/change` (log-only);
 *   anything else is a log-only `host/record`.
 */
export class PiReader implements JsonlReader {
  private entryIndex = -1;
  private version = 1;
  private sessionId: string | undefined;
  private lastId: string | undefined;
  private hasIds = false;

  private b: Sink;
  /** Entry id -> entry index of the entries on the active path seen so far. */
  private readonly pathIndex = new Map<string, number>();
  /** Builder calls of the version 2+ entry being recorded (null when not deferring). */
  private actions: Array<() => void> | null = null;
  /** Version 2+ (entries with parentId): entries wait until the end, when the active branch is known. */
  private deferred: Array<{ id?: string; parentId: string | null; line: number; ts?: string; type: string; actions: Array<() => void>; entryIndex: number }> | null = null;

  constructor(private readonly real: LogBuilder) {
    this.b = real;
  }

  record(rec: Rec, line: number, chars: number): void {
    const type = str(rec.type);
    if (!type) throw new RecordError('entry without a type', 'type');
    const ts = str(rec.timestamp);
    const id = str(rec.id);
    if (!this.deferred && type !== 'session' && 'parentId' in rec) this.deferred = [];
    // pi's loader skips lines that are not JSON but counts every parsed entry
    const meta: Record<string, unknown> = { line, entryIndex: ++this.entryIndex };
    if (id && type !== 'session') meta.id = id;
    if (this.deferred && type !== 'session') {
      const actions: Array<() => void> = [];
      this.b = recorder(this.real, actions);
      this.actions = actions;
      try {
        this.entry(type, rec, meta, ts, line, chars);
      } finally {
        this.b = this.real;
        this.actions = null;
      }
      this.deferred.push({ id, parentId: str(rec.parentId) ?? null, line, ts, type, actions, entryIndex: this.entryIndex });
    } else {
      if (id && type !== 'session') this.pathIndex.set(id, this.entryIndex);
      this.entry(type, rec, meta, ts, line, chars);
    }
    // only after the entry was accepted: a skipped (lenient) line is not a parent
    if (id && type !== 'session') {
      this.hasIds = true;
      this.lastId = id;
    }
  }

  private entry(type: string, rec: Rec, meta: Record<string, unknown>, ts: string | undefined, line: number, chars: number): void {
    const id = str(rec.id);
    switch (type) {
      case 'session':
        this.sessionId = id;
        if (typeof rec.version === 'number') this.version = rec.version;
        this.b.logOnly('session/meta', { line, host: 'pi', ...rec }, ts, meta);
        return;
      case 'message':
        this.message(rec, meta, ts);
        return;
      case 'compaction': {
        const summary = str(rec.summary);
        if (summary === undefined) throw new RecordError('compaction without a summary', 'summary');
        const keptId = str(rec.firstKeptEntryId);
        const keptIndex = rec.firstKeptEntryIndex;
        if (keptId === undefined && typeof keptIndex !== 'number') throw new RecordError('compaction without firstKeptEntryIndex or firstKeptEntryId', 'firstKeptEntryIndex');
        const at = meta.entryIndex as number;
        // Runs when the entry lands (at the end for version 2+, once the path is known).
        const land = () => {
          const from = keptId !== undefined ? this.pathIndex.get(keptId) : (keptIndex as number) >= 1 ? (keptIndex as number) : undefined;
          const retain = from === undefined || from >= at ? [] : piKeptNodes(this.real.log.events(), from, at);
          this.real.hostCompaction(summary, {
            summarizer: 'host:pi',
            ts,
            retain,
            meta,
            data: { tokensBefore: typeof rec.tokensBefore === 'number' ? rec.tokensBefore : undefined, firstKeptEntryIndex: typeof keptIndex === 'number' ? keptIndex : undefined, firstKeptEntryId: keptId },
          });
        };
        if (this.actions) this.actions.push(land);
        else land();
        return;
      }
      case 'model_change':
        this.b.logOnly('model/change', { line, provider: rec.provider, modelId: rec.modelId }, ts, meta);
        return;
      case 'thinking_level_change':
        this.b.logOnly('thinking/change', { line, thinkingLevel: rec.thinkingLevel }, ts, meta);
        return;
      default:
        this.b.logOnly('host/record', hostRecordData(line, rec, chars, type), ts, meta);
    }
  }

  private message(rec: Rec, meta: Record<string, unknown>, ts: string | undefined): void {
    const m = rec.message;
    if (!isObj(m)) throw new RecordError('message entry without a message object', 'message');
    const role = str(m.role);
    meta.role = role;
    switch (role) {
      case 'user':
        this.b.message('user/message', userContent(m.content, 'message.content'), { ts, meta });
        return;
      case 'assistant': {
        if (!Array.isArray(m.content)) throw new RecordError('assistant content is not an array', 'message.content');
        const anthropic = typeof m.api === 'string' && m.api.startsWith('anthropic');
        const content: ContentBlock[] = m.content.map((c, i): ContentBlock => {
          const f = `message.content[${i}]`;
          if (!isObj(c)) throw new RecordError('content block is not an object', f);
          if (c.type === 'text') return { type: 'text', text: str(c.text) ?? '' };
          if (c.type === 'thinking') return { type: 'reasoning', text: str(c.thinking) ?? '', ...(anthropic && typeof c.thinkingSignature === 'string' ? { signature: c.thinkingSignature } : {}) };
          if (c.type === 'toolCall') {
            const id = str(c.id);
            if (!id) throw new RecordError('toolCall without id', `${f}.id`);
            return { type: 'tool-call', id, name: str(c.name) ?? '', input: parseArgs(c.arguments) };
          }
          if (c.type === 'image') return image(c);
          return { type: 'opaque', kind: `pi:${String(c.type)}`, raw: c };
        });
        const u = isObj(m.usage) ? m.usage : undefined;
        this.b.message('assistant/message', content, {
          ts,
          meta,
          model: str(m.model),
          usage: u ? { inputTokens: n(u.input), outputTokens: n(u.output), cacheReadTokens: n(u.cacheRead), cacheWriteTokens: n(u.cacheWrite) } : undefined,
        });
        return;
      }
      case 'toolResult': {
        const callId = str(m.toolCallId);
        if (!callId) throw new RecordError('toolResult without toolCallId', 'message.toolCallId');
        const parts = userContent(m.content, 'message.content').filter((c): c is TextBlock | ImageBlock => c.type === 'text' || c.type === 'image');
        this.b.message('tool/result', [{ type: 'tool-result', callId, toolName: str(m.toolName), isError: m.isError === true, content: parts }], { ts, meta });
        return;
      }
      case 'bashExecution': {
        const cmd = str(m.command) ?? '';
        const out = str(m.output) ?? '';
        let text = `Ran \`${cmd}\`\n`;
        text += out ? `\`\`\`\n${out}\n\`\`\`` : '(no output)';
        if (m.cancelled === true) text += '\n\n(command cancelled)';
        else if (typeof m.exitCode === 'number' && m.exitCode !== 0) text += `\n\nCommand exited with code ${m.exitCode}`;
        if (m.truncated === true) text += '\n\n[Output truncated]';
        this.b.message('user/message', [{ type: 'text', text }], { ts, meta });
        return;
      }
      case 'compactionSummary':
      case 'branchSummary':
        this.b.message('user/message', [{ type: 'text', text: str(m.summary) ?? '' }], { ts, meta });
        return;
      case 'custom':
        this.b.message('user/message', userContent(m.content, 'message.content'), { ts, meta });
        return;
      default:
        throw new RecordError(`message with unknown role ${JSON.stringify(m.role)}`, 'message.role');
    }
  }

  finish(): void {
    const list = this.deferred;
    if (!list) return;
    const byId = new Map<string, (typeof list)[number]>();
    for (const d of list) if (d.id) byId.set(d.id, d);
    const on = new Set<(typeof list)[number]>();
    let cur = [...list].reverse().find((d) => d.id);
    while (cur && !on.has(cur)) {
      on.add(cur);
      cur = cur.parentId ? byId.get(cur.parentId) : undefined;
    }
    for (const d of list) {
      if (d.id && on.has(d)) this.pathIndex.set(d.id, d.entryIndex);
      if (!d.id || on.has(d)) for (const a of d.actions) a();
      else this.real.logOnly('host/record', { line: d.line, reason: 'off-branch', type: d.type, id: d.id }, d.ts, { line: d.line, id: d.id });
    }
    this.deferred = null;
  }

  state(): Record<string, unknown> {
    return { version: this.version, sessionId: this.sessionId, hasIds: this.hasIds, lastId: this.lastId, entries: this.entryIndex + 1 };
  }
}

/**
 * The surface nodes pi puts in its context for the entries with index `from` up to (not
 * including) `to`, in entry order: the message of each message entry and the checkpoint of
 * each compaction entry (its summary), the newest copy when an entry was appended again.
 * Entries off the active path never became message events, so they are not found. Only
 * events up to `maxSeq` are looked at (the writer passes the last imported seq).
 */
export function piKeptNodes(events: Iterable<SessionEvent>, from: number, to: number, maxSeq = Infinity): MessageEvent[] {
  const byIndex = new Map<number, MessageEvent>();
  for (const e of events) {
    if (e.seq > maxSeq) break;
    if (!isMessageEvent(e) || isSyntheticRepair(e)) continue;
    const i = e.meta?.entryIndex;
    if (typeof i !== 'number' || i < from || i >= to) continue;
    byIndex.set(i, e);
  }
  return [...byIndex.keys()].sort((x, y) => x - y).map((i) => byIndex.get(i)!);
}

function userContent(c: unknown, field: string): ContentBlock[] {
  if (typeof c === 'string') return [{ type: 'text', text: c }];
  if (!Array.isArray(c)) throw new RecordError('content is neither a string nor an array', field);
  return c.map((b, i): ContentBlock => {
    if (!isObj(b)) throw new RecordError('content block is not an object', `${field}[${i}]`);
    if (b.type === 'text') return { type: 'text', text: str(b.text) ?? '' };
    if (b.type === 'image') return image(b);
    return { type: 'opaque', kind: `pi:${String(b.type)}`, raw: b };
  });
}

function image(b: Rec): ImageBlock {
  return { type: 'image', mediaType: str(b.mimeType), data: str(b.data) };
}

function n(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

type Sink = Pick<LogBuilder, 'message' | 'logOnly'>;

/** A sink that records builder calls to replay them later (deferred version 2+ entries). */
function recorder(real: LogBuilder, actions: Array<() => void>): Sink {
  return {
    message: (...a: Parameters<LogBuilder['message']>) => void actions.push(() => real.message(...a)),
    logOnly: (...a: Parameters<LogBuilder['logOnly']>) => void actions.push(() => real.logOnly(...a)),
  };
}
