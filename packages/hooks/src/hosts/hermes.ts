/**
 * Hermes Agent adapter: maps Hermes shell hooks to hive-mind lifecycles.
 *
 * Source: Hermes Agent's "Event Hooks" documentation, section "Shell Hooks"
 * (NousResearch/hermes-agent, website/docs/user-guide/features/hooks.md; read
 * from a public mirror, no network access while writing this).
 *
 * Wire protocol (documented): for every matching hook Hermes spawns the
 * command (argv from `shlex.split`, no shell) and pipes one JSON object to stdin:
 *
 * ```json
 * { "hook_event_name": "pre_llm_call", "tool_name": null, "tool_input": null,
 *   "session_id": "sess_abc123", "cwd": "/home/user/project", "profile": "default",
 *   "extra": { …the event's keyword arguments… } }
 * ```
 *
 * `extra` carries the plugin-hook kwargs of the event (documented per event):
 * - `on_session_start`: `model`, `platform`. Its return value is documented as
 *   ignored, so context injection happens on the first `pre_llm_call` instead.
 * - `pre_llm_call`: `user_message`, `conversation_history`, `is_first_turn`, `model`,
 *   `platform`. stdout `{"context": "…"}` is appended to the user message for this turn.
 * - `post_llm_call`: `user_message`, `assistant_response`, `conversation_history`,
 *   `model`, `platform`. Fires only for successful, non-interrupted turns; stdout ignored.
 * - `turn_id` (uncertain): documented for other hook families (`transform_tool_result`);
 *   used when present, otherwise a stable hash of the turn's content stands in.
 *
 * There is no PreCompact event in Hermes' hook list, so cleanup runs from the
 * Stop (`post_llm_call`) path behind the opt-in, time-gated gate in `../hermes-gate.ts`.
 */
import type { HookContext, HostAdapter, Lifecycle, LifecycleInput, LifecycleOutput } from '../types.js';
import { obj, stableId, str } from './cursor-openclaw-hermes-shared.js';
import { PayloadError } from './payload.js';

/** Hermes event name -> lifecycle (the first `pre_llm_call` of a session is re-routed to session-start in `normalize`). */
export const HERMES_EVENTS: Readonly<Record<string, Lifecycle>> = Object.freeze({
  on_session_start: 'session-start',
  pre_llm_call: 'user-prompt-submit',
  post_llm_call: 'stop',
  on_session_end: 'session-end',
});

/** Events `install` registers in `hooks:`. */
export const HERMES_INSTALLED_EVENTS = ['on_session_start', 'pre_llm_call', 'post_llm_call'] as const;

function lifecycleOf(nativeEvent: string): Lifecycle | undefined {
  return Object.prototype.hasOwnProperty.call(HERMES_EVENTS, nativeEvent) ? HERMES_EVENTS[nativeEvent] : undefined;
}

export const hermesAdapter: HostAdapter = {
  host: 'hermes',
  events: Object.keys(HERMES_EVENTS),
  lifecycleOf,

  normalize(nativeEvent: string, payload: unknown): LifecycleInput {
    let lifecycle = lifecycleOf(nativeEvent);
    if (!lifecycle) throw new Error(`hermes: unsupported hook event "${nativeEvent}" (supported: ${Object.keys(HERMES_EVENTS).join(', ')})`);
    const p = obj(payload);
    // every hermes payload names its event (hook_event_name): another event's or host's payload is refused
    const named = p.hook_event_name;
    if (named !== undefined && named !== nativeEvent) throw new PayloadError(`payload is for event ${JSON.stringify(named)}, not hermes ${nativeEvent}; ignored`);
    const extra = obj(p.extra);
    const sessionId = str(p.session_id);
    const cwd = str(p.cwd);
    const userMessage = typeof extra.user_message === 'string' ? extra.user_message : undefined;
    const input: LifecycleInput = {
      lifecycle,
      host: 'hermes',
      nativeEvent,
      sessionId,
      cwd,
      workspaceRoots: cwd ? [cwd] : undefined,
      source: str(extra.platform),
      raw: payload,
    };
    switch (nativeEvent) {
      case 'pre_llm_call': {
        input.prompt = userMessage;
        const history = Array.isArray(extra.conversation_history) ? extra.conversation_history.length : undefined;
        input.turnId = str(extra.turn_id) ?? (userMessage !== undefined ? `p-${stableId(sessionId, String(history ?? ''), userMessage)}` : undefined);
        // on_session_start's stdout is ignored by Hermes; the first turn's pre_llm_call is
        // where recall can actually reach the model, so it runs the session-start lifecycle.
        if (extra.is_first_turn === true) {
          lifecycle = 'session-start';
          input.lifecycle = lifecycle;
          input.source = 'startup';
        }
        break;
      }
      case 'post_llm_call': {
        input.prompt = userMessage;
        input.assistantText = typeof extra.assistant_response === 'string' ? extra.assistant_response : undefined;
        input.turnId = str(extra.turn_id) ?? `s-${stableId(sessionId, userMessage, input.assistantText)}`;
        break;
      }
      case 'on_session_start':
        input.source = 'startup';
        break;
      default:
        break;
    }
    return input;
  },

  /**
   * Shared lifecycles, except Stop: the turn is saved, then the compact-on-stop gate
   * (`../hermes-gate.ts`, opt-in via HIVE_MIND_HERMES_COMPACT_ON_STOP) may run cleanup.
   * A failed save is rethrown after the gate so the runner logs it; a failed cleanup is
   * logged here and retried on the next turn.
   */
  async handle(input: LifecycleInput, ctx: HookContext): Promise<LifecycleOutput> {
    if (input.lifecycle !== 'stop') return ctx.runLifecycle(input);
    const { runHermesStop } = await import('../hermes-gate.js');
    let saveError: unknown;
    const r = await runHermesStop({
      env: ctx.env,
      now: ctx.now,
      save: async () => {
        try {
          await ctx.runLifecycle(input);
        } catch (e) {
          saveError = e;
          throw e;
        }
      },
      cleanup: () => ctx.cleanup(input),
      log: (m) => {
        if (!m.startsWith('hermes stop: save failed')) ctx.log(m);
      },
    });
    if (saveError !== undefined && !r.saved) throw saveError;
    return {};
  },

  render(_event: string, out: LifecycleOutput): string {
    // Documented response for context injection: {"context": "…"}; any other event's
    // stdout is ignored by Hermes, and an empty object is the documented silent no-op.
    if (out.additionalContext) return JSON.stringify({ context: out.additionalContext });
    return '{}';
  },
};

/** Registry entry (registry.ts loads `adapter`). */
export const adapter = hermesAdapter;
