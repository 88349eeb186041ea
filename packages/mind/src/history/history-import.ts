import { textBlocksText as textOf, type ContentBlock, type SessionEvent } from '@hive-mind/session';
import type { FrameInput } from '../frame.js';
import { isHostText, turnFrame } from './history.js';
import { redactSecrets } from '../safety/redact.js';

/**
 * The turns of a past session (`mind import`): every real user prompt and every assistant message
 * with text, in order, as history turns (history.ts) with the event's time, the transcript's
 * session id and working folder, and the host's turn id where the transcript records it (Claude
 * Code's `promptId` on the prompt's record, which the replies after it share; Codex's `turn_id` of
 * the `turn_context` / `task_started` record before them). The same turns the hooks keep live, by the
 * same key, so importing a session the hooks saw adds none twice.
 *
 * Not turns: checkpoint summaries and repair markers, Claude Code's meta records (`isMeta`), text a
 * host or hook wrote ({@link isHostText}), tool calls and results. Consecutive assistant events of
 * one API message (Claude Code writes one block per line) are one reply.
 */
export function historyTurnsOf(events: readonly SessionEvent[], ctx: { host: string; sessionId: string; cwd?: string; workspace?: string }): FrameInput[] {
  const out: FrameInput[] = [];
  let hostTurnId: string | undefined;
  let reply: { text: string[]; messageId?: string; ts?: string; turnId?: string } | undefined;
  const flush = () => {
    const text = reply?.text.join('\n').trim();
    if (reply && text) out.push(frameOf('assistant', text, reply.ts, reply.turnId));
    reply = undefined;
  };
  const frameOf = (role: 'user' | 'assistant', text: string, ts: string | undefined, turnId: string | undefined): FrameInput =>
    turnFrame({
      role,
      text: redactSecrets(text).text,
      host: ctx.host,
      sessionId: ctx.sessionId,
      source: 'import',
      ...(turnId ? { hostTurnId: turnId } : {}),
      ...(validTime(ts) ? { createdAt: new Date(Date.parse(ts!)).toISOString() } : {}),
      ...(ctx.cwd ? { cwd: ctx.cwd } : {}),
      ...(ctx.workspace ? { workspace: ctx.workspace } : {}),
    });
  for (const e of events) {
    if (e.type === 'host/record') {
      const rec = (e as { data?: { record?: { type?: string; payload?: { type?: string; turn_id?: unknown } } } }).data?.record;
      const id = rec?.payload?.turn_id;
      if (typeof id === 'string' && id && (rec?.type === 'turn_context' || rec?.payload?.type === 'task_started')) hostTurnId = id;
      continue;
    }
    if (e.type !== 'user/message' && e.type !== 'assistant/message') continue;
    const ev = e as Extract<SessionEvent, { content: ContentBlock[] }> & { meta?: Record<string, unknown>; ts?: string };
    if (ev.kind === 'checkpoint' || ev.kind === 'repair' || ev.meta?.isMeta || ev.meta?.isCompactSummary) continue;
    const text = textOf(ev.content);
    if (ev.type === 'user/message') {
      if (!text || isHostText(text)) continue;
      flush();
      if (typeof ev.meta?.promptId === 'string' && ev.meta.promptId) hostTurnId = ev.meta.promptId;
      out.push(frameOf('user', text, ev.ts, hostTurnId));
      continue;
    }
    const messageId = typeof ev.meta?.messageId === 'string' ? ev.meta.messageId : undefined;
    if (reply && (!messageId || reply.messageId !== messageId)) flush();
    if (!text) continue;
    if (!reply) reply = { text: [], ...(messageId ? { messageId } : {}), ...(ev.ts ? { ts: ev.ts } : {}), ...(hostTurnId ? { turnId: hostTurnId } : {}) };
    reply.text.push(text);
  }
  flush();
  return out;
}

function validTime(ts: string | undefined): boolean {
  if (typeof ts !== 'string') return false;
  const t = Date.parse(ts);
  return !Number.isNaN(t) && t <= Date.now() + 86_400_000;
}
