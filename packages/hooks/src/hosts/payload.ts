import type { HostAdapter, HostId, Lifecycle, LifecycleInput, LifecycleOutput } from '../types.js';
/** Small readers for untrusted hook payloads: a field is returned only when it has the expected type. */

/** `o[key]` when it is a non-empty string, else undefined. */
function str(o: unknown, key: string): string | undefined {
  if (!o || typeof o !== 'object') return undefined;
  const v = (o as Record<string, unknown>)[key];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** `o[key]` when it is an array of non-empty strings (other items dropped), else undefined. */
function strArray(o: unknown, key: string): string[] | undefined {
  if (!o || typeof o !== 'object') return undefined;
  const v = (o as Record<string, unknown>)[key];
  if (!Array.isArray(v)) return undefined;
  const out = v.filter((x): x is string => typeof x === 'string' && x.length > 0);
  return out.length ? out : undefined;
}

/** Error for a payload that does not belong to the event or host it was sent to. */
export class PayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PayloadError';
  }
}

/**
 * Check the fields every Claude-Code-style payload carries (Claude Code and Codex both
 * send `session_id` and `hook_event_name`): `hook_event_name`, when present, must equal the
 * event on the command line, and `session_id` must be a string.
 */
function checkEnvelope(host: string, nativeEvent: string, payload: unknown): void {
  const ev = (payload as Record<string, unknown> | null)?.hook_event_name;
  if (ev !== undefined && ev !== nativeEvent) throw new PayloadError(`payload is for event ${JSON.stringify(ev)}, not ${host} ${nativeEvent}; ignored`);
  if (!str(payload, 'session_id')) throw new PayloadError(`payload has no string "session_id"; not a ${host} ${nativeEvent} payload`);
}

/**
 * What differs between hosts that share Claude Code's command-hook schema (Claude Code,
 * Codex): which native events map to which lifecycle, which payload field identifies the
 * turn, and which events accept `hookSpecificOutput.additionalContext` on stdout.
 */
export interface ClaudeStyleSpec {
  host: HostId;
  events: Record<string, Lifecycle>;
  /** Payload field holding the turn/prompt id (Claude Code `prompt_id`, Codex `turn_id`). */
  turnIdField: string;
  /** Native events whose stdout may carry `{"hookSpecificOutput":{"hookEventName","additionalContext"}}`. */
  contextEvents: readonly string[];
}

/**
 * An adapter for a Claude-Code-style hook schema: every payload has `session_id`, `cwd`,
 * `transcript_path`, `hook_event_name`; per event `prompt`, `last_assistant_message`,
 * `source`, `trigger`. Other events print nothing (exit 0 with empty stdout lets the host go on).
 */
export function claudeStyleAdapter(spec: ClaudeStyleSpec): HostAdapter {
  const { host, events } = spec;
  return {
    host,
    events: Object.keys(events),
    lifecycleOf(nativeEvent: string): Lifecycle | undefined {
      return Object.prototype.hasOwnProperty.call(events, nativeEvent) ? events[nativeEvent] : undefined;
    },
    normalize(nativeEvent: string, payload: unknown): LifecycleInput {
      checkEnvelope(host, nativeEvent, payload);
      const cwd = str(payload, 'cwd');
      return {
        lifecycle: events[nativeEvent]!,
        host,
        nativeEvent,
        sessionId: str(payload, 'session_id'),
        turnId: str(payload, spec.turnIdField),
        cwd,
        workspaceRoots: cwd ? [cwd] : undefined,
        prompt: str(payload, 'prompt'),
        assistantText: str(payload, 'last_assistant_message'),
        transcriptPath: str(payload, 'transcript_path'),
        source: str(payload, 'source'),
        trigger: str(payload, 'trigger'),
        raw: payload,
      };
    },
    render(nativeEvent: string, out: LifecycleOutput): string {
      if (spec.contextEvents.includes(nativeEvent) && out.additionalContext) {
        return JSON.stringify({ hookSpecificOutput: { hookEventName: nativeEvent, additionalContext: out.additionalContext } });
      }
      return '';
    },
  };
}
