import { randomUUID } from 'node:crypto';
import { isMessageEvent, type SurfaceNode } from '@hive-mind/session';
import type { Transcript } from '../types.js';
import { anthropicBlocks } from './chat.js';
import { changes, imported, joinOut, leadingSystem, Lines, modified, newEvents, tokensBefore, type Rec } from './jsonl-shared.js';
import { checkpointText } from './original.js';
import { anthropicChanged } from './whole.js';

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
export function writeClaudeCode(t: Transcript, original: string): string {
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
      compactMetadata: { trigger: 'manual', preTokens: tokensBefore(t) },
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
  return joinOut(original, out);
}
