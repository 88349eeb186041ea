/**
 * Cursor adapter: maps Cursor agent hook events and payloads to hive-mind lifecycles.
 *
 * Source: Cursor's public hooks documentation, https://cursor.com/docs/agent/hooks
 * (hooks.json version 1; JSON on stdin, JSON on stdout). No network access was
 * available while writing this; the field list below was checked against
 * public mirrors of that page and of typed wrappers of it (the `cursor-hooks`
 * npm package's `src/types.ts`, Cursor integration guides quoting the schema).
 * Fields marked (uncertain) appear in newer Cursor releases only or are quoted
 * by third parties without an official example; the adapter treats every field
 * as optional and never guesses a missing one.
 *
 * Common input (all agent hooks): `conversation_id`, `generation_id`,
 * `hook_event_name`, `workspace_roots` (string[]), `model`, `cursor_version`,
 * `user_email`, `transcript_path` (uncertain: newer releases).
 *
 * | event              | extra input we read                              | stdout we write                     |
 * |--------------------|--------------------------------------------------|-------------------------------------|
 * | sessionStart       | `session_id`, `composer_mode`, `is_background_agent` | `{"continue":true,"additional_context":…}` |
 * | beforeSubmitPrompt | `prompt` (attachments ignored)                   | `{"continue":true}` (never blocks)  |
 * | afterAgentResponse | `text` (the assistant message)                   | `{}`                                |
 * | stop               | `status`, `loop_count`                           | `{}` (no `followup_message`: a follow-up would loop the agent) |
 * | preCompact         | `trigger`, `context_usage_percent`, `context_tokens`, … (uncertain: newer releases) | `{}` |
 * | sessionEnd         | `reason` (uncertain)                             | `{}`                                |
 */
import type { HostAdapter, Lifecycle, LifecycleInput, LifecycleOutput } from '../types.js';
import { obj, stableId, str, strArray } from './cursor-openclaw-hermes-shared.js';
import { PayloadError } from './payload.js';

/** Cursor event name -> lifecycle. */
export const CURSOR_EVENTS: Readonly<Record<string, Lifecycle>> = Object.freeze({
  sessionStart: 'session-start',
  beforeSubmitPrompt: 'user-prompt-submit',
  afterAgentResponse: 'stop',
  stop: 'stop',
  preCompact: 'pre-compact',
  sessionEnd: 'session-end',
});

/**
 * Events `install` registers. `stop` is mapped but not installed by default:
 * `afterAgentResponse` already carries the assistant text, while `stop` carries
 * only a status (its capture falls back to `transcript_path` when present).
 */
export const CURSOR_INSTALLED_EVENTS = ['sessionStart', 'beforeSubmitPrompt', 'afterAgentResponse', 'preCompact'] as const;

export const cursorAdapter: HostAdapter = {
  host: 'cursor',
  events: Object.keys(CURSOR_EVENTS),

  lifecycleOf(nativeEvent: string): Lifecycle | undefined {
    return Object.prototype.hasOwnProperty.call(CURSOR_EVENTS, nativeEvent) ? CURSOR_EVENTS[nativeEvent] : undefined;
  },

  normalize(nativeEvent: string, payload: unknown): LifecycleInput {
    const lifecycle = Object.prototype.hasOwnProperty.call(CURSOR_EVENTS, nativeEvent) ? CURSOR_EVENTS[nativeEvent] : undefined;
    if (!lifecycle) throw new Error(`cursor: unsupported hook event "${nativeEvent}" (supported: ${Object.keys(CURSOR_EVENTS).join(', ')})`);
    const p = obj(payload);
    // every cursor payload names its event (hook_event_name): another event's or host's payload is refused
    const named = p.hook_event_name;
    if (named !== undefined && named !== nativeEvent) throw new PayloadError(`payload is for event ${JSON.stringify(named)}, not cursor ${nativeEvent}; ignored`);
    const roots = strArray(p.workspace_roots);
    // conversation_id is the chat thread and is stable across its generations; sessionStart
    // also carries session_id. Prefer the thread so every event of one chat shares a key.
    const sessionId = str(p.conversation_id) ?? str(p.session_id);
    const generation = str(p.generation_id);
    const input: LifecycleInput = {
      lifecycle,
      host: 'cursor',
      nativeEvent,
      sessionId,
      cwd: roots?.[0],
      workspaceRoots: roots,
      transcriptPath: str(p.transcript_path),
      raw: payload,
    };
    switch (nativeEvent) {
      case 'sessionStart':
        input.source = str(p.composer_mode) ? `composer:${str(p.composer_mode)}` : undefined;
        break;
      case 'beforeSubmitPrompt':
        input.prompt = typeof p.prompt === 'string' ? p.prompt : undefined;
        // one prompt per generation: a retried hook run is the same turn
        input.turnId = generation;
        break;
      case 'afterAgentResponse': {
        const text = typeof p.text === 'string' ? p.text : undefined;
        input.assistantText = text;
        // An agent loop can emit several assistant messages in one generation; key each
        // message by generation + content so a retry is idempotent but distinct messages are kept.
        input.turnId = generation ? `${generation}:${stableId(text)}` : undefined;
        break;
      }
      case 'stop':
        input.turnId = generation ? `${generation}:stop` : undefined;
        break;
      case 'preCompact':
        input.trigger = str(p.trigger);
        break;
      default:
        break;
    }
    return input;
  },

  render(nativeEvent: string, out: LifecycleOutput): string {
    switch (nativeEvent) {
      case 'sessionStart': {
        const res: Record<string, unknown> = { continue: true };
        if (out.additionalContext) res.additional_context = out.additionalContext;
        return JSON.stringify(res);
      }
      case 'beforeSubmitPrompt':
        return JSON.stringify({ continue: true });
      default:
        return '{}';
    }
  },
};

/** Registry entry (registry.ts loads `adapter`). */
export const adapter = cursorAdapter;
