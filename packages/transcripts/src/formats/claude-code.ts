import type { ContentBlock, MessageEventType } from '@hive-mind/session';
import type { LogBuilder, MessageExtra } from '../builder.js';
import { hostRecordData } from '../builder.js';
import { RecordError } from '../errors.js';
import { fromAnthropicContent, isObj, str, type Rec } from './common.js';
import type { JsonlReader } from './reader.js';

/** Record fields copied onto new lines at write-back (taken from the last line of the active branch). */
const CLAUDE_COMMON_FIELDS = ['userType', 'entrypoint', 'cwd', 'sessionId', 'version', 'gitBranch', 'slug'] as const;

interface Node {
  line: number;
  uuid?: string;
  parent?: string | null;
  logicalParent?: string;
  sidechain: boolean;
  type: string;
  subtype?: string;
  /** set for user/assistant lines with a message */
  msg?: { type: MessageEventType; content: ContentBlock[]; extra: MessageExtra; messageId?: string; compactSummary: boolean; onlyResults: boolean };
  data?: Record<string, unknown>;
  ts?: string;
}

/**
 * Claude Code session JSONL (`~/.claude/projects/<dir>/<session>.jsonl`), facts from the
 * real files in shared/data/transcripts/claude-code (2.1.14 and 2.1.332):
 *
 * - lines with a `uuid` form a tree through `parentUuid`; the active conversation is the
 *   branch from the last non-sidechain line back to the root. A `compact_boundary`
 *   system line has `parentUuid: null` and `logicalParentUuid` pointing at the line
 *   before the compaction; the walk continues through it so the pre-compaction span is
 *   on the log (shadowed by the checkpoint).
 * - parallel tool calls are written as sibling lines (each `tool_use` line is the parent
 *   of its `tool_result` line), so only one of them is on the parent chain; lines whose
 *   parent is on the branch and that carry only tool results, or continue the parent's
 *   assistant message (`message.id`), are taken too (Claude Code does the same on resume).
 * - `isSidechain` lines (subagents), attachments, system lines, lines off the active
 *   branch and lines without uuid (queue-operation, last-prompt, cost-state...) are
 *   log-only `host/record` events.
 * - a `compact_boundary` followed by an `isCompactSummary` user line lands as a replace
 *   of everything before it.
 * - every line records the working folder (`cwd`); a message event carries it as `meta.cwd`
 *   on the first line and where it changes.
 */
export class ClaudeCodeReader implements JsonlReader {
  private readonly nodes: Node[] = [];
  private common: Record<string, unknown> = {};
  private lastUuid: string | undefined;
  private lastPrompt: string | undefined;
  /** The `cwd` of the last message line that recorded one (a message carries `meta.cwd` where it changes). */
  private lastCwd: string | undefined;

  constructor(private readonly b: LogBuilder) {}

  record(rec: Rec, line: number, chars: number): void {
    const type = str(rec.type);
    if (!type) throw new RecordError('record without a type', 'type');
    const uuid = str(rec.uuid);
    if (type === 'last-prompt' && typeof rec.lastPrompt === 'string') this.lastPrompt = rec.lastPrompt;
    const sidechain = rec.isSidechain === true;
    const node: Node = { line, type, sidechain, ts: str(rec.timestamp) };
    if (typeof rec.subtype === 'string') node.subtype = rec.subtype;
    if (uuid) {
      node.uuid = uuid;
      node.parent = str(rec.parentUuid) ?? null;
      if (typeof rec.logicalParentUuid === 'string') node.logicalParent = rec.logicalParentUuid;
    }
    if ((type === 'user' || type === 'assistant') && uuid) {
      if (!isObj(rec.message)) throw new RecordError(`${type} line without a message object`, 'message');
      const m = rec.message;
      const content = fromAnthropicContent(m.content, 'message.content', { signatures: true });
      const onlyResults = content.length > 0 && content.every((c) => c.type === 'tool-result');
      const meta: Record<string, unknown> = { line, uuid };
      if (rec.isMeta === true) meta.isMeta = true;
      if (rec.isCompactSummary === true) meta.isCompactSummary = true;
      // the id Claude Code gives a prompt (2.1.x user records; its hooks send it as `prompt_id`)
      if (typeof rec.promptId === 'string' && rec.promptId) meta.promptId = rec.promptId;
      if (typeof m.id === 'string') meta.messageId = m.id;
      // the working folder, where it changes: compaction states paths relative to it
      if (typeof rec.cwd === 'string' && rec.cwd !== this.lastCwd && !sidechain) [meta.cwd, this.lastCwd] = [rec.cwd, rec.cwd];
      const extra: MessageExtra = { meta, ts: node.ts };
      // One API message is written one block per line, each line with the same message.id.
      if (type === 'assistant' && typeof m.id === 'string' && m.id) extra.messageId = m.id;
      if (type === 'assistant') {
        if (typeof m.model === 'string') extra.model = m.model;
        if (isObj(m.usage)) {
          const u = m.usage;
          extra.usage = {
            inputTokens: num(u.input_tokens),
            outputTokens: num(u.output_tokens),
            cacheReadTokens: num(u.cache_read_input_tokens),
            cacheWriteTokens: num(u.cache_creation_input_tokens),
          };
        }
      }
      node.msg = {
        type: type === 'assistant' ? 'assistant/message' : onlyResults ? 'tool/result' : 'user/message',
        content,
        extra,
        messageId: str(m.id),
        compactSummary: rec.isCompactSummary === true,
        onlyResults,
      };
    } else {
      node.data = hostRecordData(line, rec, chars, sidechain ? 'sidechain' : type);
    }
    if (uuid && !sidechain) {
      this.lastUuid = uuid;
      const c: Record<string, unknown> = {};
      for (const k of CLAUDE_COMMON_FIELDS) if (rec[k] !== undefined) c[k] = rec[k];
      this.common = c;
    }
    this.nodes.push(node);
  }

  finish(): void {
    const byUuid = new Map<string, Node>();
    for (const n of this.nodes) if (n.uuid) byUuid.set(n.uuid, n);
    const onBranch = new Set<Node>();
    let cur = this.lastUuid ? byUuid.get(this.lastUuid) : undefined;
    while (cur && !onBranch.has(cur)) {
      onBranch.add(cur);
      const next: string | undefined = cur.parent ?? cur.logicalParent;
      cur = next ? byUuid.get(next) : undefined;
    }
    // Siblings Claude Code writes for parallel tool calls.
    for (const n of this.nodes) {
      if (onBranch.has(n) || n.sidechain || !n.msg || !n.parent) continue;
      const p = byUuid.get(n.parent);
      if (!p || !onBranch.has(p)) continue;
      if (n.msg.onlyResults || (n.msg.type === 'assistant/message' && n.msg.messageId && p.msg?.messageId === n.msg.messageId)) onBranch.add(n);
    }
    let boundary: Node | undefined;
    for (const n of this.nodes) {
      if (n.msg && onBranch.has(n)) {
        if (boundary && !n.msg.compactSummary) {
          // a boundary without a summary line (a rewritten history): the lines after it replace the old surface
          this.b.hostCompaction(null, {
            summarizer: 'host:claude-code',
            ts: n.ts,
            lead: [{ type: n.msg.type, content: n.msg.content, extra: n.msg.extra }],
            meta: { boundaryLine: boundary.line, boundaryUuid: boundary.uuid },
          });
          boundary = undefined;
          continue;
        }
        if (boundary && n.msg.compactSummary) {
          const text = n.msg.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
          this.b.hostCompaction(text, {
            summarizer: 'host:claude-code',
            ts: n.ts,
            meta: { ...n.msg.extra.meta, boundaryLine: boundary.line, boundaryUuid: boundary.uuid },
          });
          boundary = undefined;
          continue;
        }
        this.b.message(n.msg.type, n.msg.content, n.msg.extra);
        continue;
      }
      if (n.type === 'system' && n.subtype === 'compact_boundary' && onBranch.has(n)) boundary = n;
      const reason = n.sidechain ? 'sidechain' : n.msg ? 'off-branch' : n.type;
      const data = n.data ?? { line: n.line, reason, uuid: n.uuid };
      if (n.msg) (data as Record<string, unknown>).reason = reason;
      this.b.logOnly('host/record', data, n.ts, n.uuid ? { line: n.line, uuid: n.uuid } : { line: n.line });
    }
    this.nodes.length = 0;
  }

  state(): Record<string, unknown> {
    return { leafUuid: this.lastUuid, common: this.common, ...(this.lastPrompt !== undefined ? { lastPrompt: this.lastPrompt } : {}) };
  }
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
