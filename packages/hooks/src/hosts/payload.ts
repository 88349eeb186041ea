/** Small readers for untrusted hook payloads: a field is returned only when it has the expected type. */

/** `o[key]` when it is a non-empty string, else undefined. */
export function str(o: unknown, key: string): string | undefined {
  if (!o || typeof o !== 'object') return undefined;
  const v = (o as Record<string, unknown>)[key];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** `o[key]` when it is an array of non-empty strings (other items dropped), else undefined. */
export function strArray(o: unknown, key: string): string[] | undefined {
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
export function checkEnvelope(host: string, nativeEvent: string, payload: unknown): void {
  const ev = (payload as Record<string, unknown> | null)?.hook_event_name;
  if (ev !== undefined && ev !== nativeEvent) throw new PayloadError(`payload is for event ${JSON.stringify(ev)}, not ${host} ${nativeEvent}; ignored`);
  if (!str(payload, 'session_id')) throw new PayloadError(`payload has no string "session_id"; not a ${host} ${nativeEvent} payload`);
}
