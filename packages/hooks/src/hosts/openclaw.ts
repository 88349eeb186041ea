/**
 * OpenClaw adapter: maps OpenClaw internal hook events to hive-mind lifecycles.
 *
 * Source: OpenClaw's hooks documentation (docs.openclaw.ai/automation/hooks;
 * openclaw/openclaw `docs/automation/hooks.md`, read from a public mirror without
 * network access). OpenClaw hooks run *inside* the Gateway: a hook is a directory
 * (`HOOK.md` + `handler.ts`) whose default export receives
 * `{ type, action, sessionKey, timestamp, messages, context }`. hive-mind installs a
 * small handler (openclaw-handler.ts) that forwards each event, as JSON on stdin, to
 * `hive-mind hook openclaw <type>:<action>`; this adapter reads that JSON:
 *
 * ```json
 * { "type": "message", "action": "received", "sessionKey": "agent:main:main",
 *   "timestamp": "2026-11-30T12:00:00.000Z", "context": { …documented fields… },
 *   "hiveMind": { "workspaceDir": "…", "turn": { … } } }
 * ```
 *
 * Documented context fields we read (the handler forwards only these, never `cfg`):
 * - `agent:bootstrap`: `workspaceDir`, `sessionKey`, `sessionId`, `agentId`
 *   (`bootstrapFiles` stays in the Gateway; the handler appends our recall to it);
 * - `message:received`: `from`, `content`, `timestamp`, `channelId`, `accountId`,
 *   `conversationId`, `messageId`;
 * - `message:sent`: `to`, `content`, `success`, `channelId`, `accountId`,
 *   `conversationId`, `messageId`; the handler debounces the sends of one turn and
 *   forwards them once, joined, with `hiveMind.turn` = `{ inReplyTo, messageIds, count }`;
 * - `session:compact:before`: `sessionId`, `messageCount`, `tokenCount`.
 * `hiveMind.workspaceDir` is the workspace the handler saw at `agent:bootstrap` for the
 * same session key (message events carry none).
 *
 * Output: `agent:bootstrap` prints `{"context": "…"}` (the handler turns it into a
 * bootstrap file); the other events print nothing the handler uses (`{}`).
 */
import type { HostAdapter, Lifecycle, LifecycleInput, LifecycleOutput } from '../types.js';
import { obj, stableId, str, strArray } from './cursor-openclaw-hermes-shared.js';

export const OPENCLAW_EVENTS: Readonly<Record<string, Lifecycle>> = Object.freeze({
  'agent:bootstrap': 'session-start',
  'message:received': 'user-prompt-submit',
  'message:sent': 'stop',
  'session:compact:before': 'pre-compact',
});

/** Events the installed hook listens for (HOOK.md `metadata.openclaw.events`). */
export const OPENCLAW_INSTALLED_EVENTS = ['agent:bootstrap', 'message:received', 'message:sent', 'session:compact:before'] as const;

function lifecycleOf(nativeEvent: string): Lifecycle | undefined {
  return Object.prototype.hasOwnProperty.call(OPENCLAW_EVENTS, nativeEvent) ? OPENCLAW_EVENTS[nativeEvent] : undefined;
}

export const openclawAdapter: HostAdapter = {
  host: 'openclaw',
  events: Object.keys(OPENCLAW_EVENTS),
  lifecycleOf,

  normalize(nativeEvent: string, payload: unknown): LifecycleInput {
    const lifecycle = lifecycleOf(nativeEvent);
    if (!lifecycle) throw new Error(`openclaw: unsupported hook event "${nativeEvent}" (supported: ${Object.keys(OPENCLAW_EVENTS).join(', ')})`);
    const p = obj(payload);
    const ctx = obj(p.context);
    const hm = obj(p.hiveMind);
    const given = `${str(p.type) ?? ''}:${str(p.action) ?? ''}`;
    if (given !== ':' && given !== nativeEvent) throw new Error(`openclaw: payload is for event "${given}", not "${nativeEvent}"; ignored`);
    const workspaceDir = str(ctx.workspaceDir) ?? str(hm.workspaceDir);
    const sessionKey = str(p.sessionKey) ?? str(ctx.sessionKey);
    const input: LifecycleInput = {
      lifecycle,
      host: 'openclaw',
      nativeEvent,
      sessionId: str(ctx.sessionId) ?? sessionKey,
      ...(sessionKey ? { threadKey: sessionKey } : {}),
      cwd: workspaceDir,
      workspaceRoots: workspaceDir ? [workspaceDir] : undefined,
      raw: payload,
    };
    const content = typeof ctx.content === 'string' ? ctx.content : undefined;
    switch (nativeEvent) {
      case 'agent:bootstrap':
        input.source = 'startup';
        break;
      case 'message:received':
        input.prompt = content;
        input.turnId = str(ctx.messageId) ? `in:${str(ctx.messageId)}` : content !== undefined ? `in:${stableId(sessionKey, String(ctx.timestamp ?? p.timestamp ?? ''), content)}` : undefined;
        break;
      case 'message:sent': {
        const turn = obj(hm.turn);
        input.assistantText = content;
        const ids = strArray(turn.messageIds) ?? (str(ctx.messageId) ? [str(ctx.messageId)!] : undefined);
        input.turnId = str(turn.inReplyTo) ? `reply:${str(turn.inReplyTo)}` : ids ? `out:${stableId(...ids)}` : content !== undefined ? `out:${stableId(sessionKey, content)}` : undefined;
        break;
      }
      case 'session:compact:before':
        input.trigger = 'auto';
        break;
      default:
        break;
    }
    return input;
  },

  render(nativeEvent: string, out: LifecycleOutput): string {
    if (nativeEvent === 'agent:bootstrap' && out.additionalContext) return JSON.stringify({ context: out.additionalContext });
    return '{}';
  },
};

/** Registry entry (registry.ts loads `adapter`). */
export const adapter = openclawAdapter;
