/**
 * The hook list shape Claude Code `settings.json` and Codex `hooks.json` share:
 * `{"hooks": {"<Event>": [{"matcher"?, "hooks": [{"type": "command", "command", "timeout"}]}]}}`
 * (Claude Code hooks reference, docs.claude.com "Hooks"; developers.openai.com/codex/hooks).
 * Our entry is one matcher group holding one command hook, recognised by its command.
 */
import type { HostId } from '../types.js';
import { hookCommand, ourHookEvent } from './command.js';
import type { HookListSpec } from './core.js';
import { HOST_HOOK_TIMEOUT_S } from './installer.js';

type Hook = { type?: unknown; command?: unknown; timeout?: unknown };
type Group = { hooks?: unknown };

const innerHooks = (g: unknown): Hook[] => (g && typeof g === 'object' && Array.isArray((g as Group).hooks) ? ((g as Group).hooks as Hook[]) : []);

/** The matcher-group list of `host` with one group per event (install passes `prefix`; uninstall and verify do not). */
export function matcherGroupList(host: HostId, events: readonly string[], prefix?: string): HookListSpec {
  const isOurs = (h: Hook) => !!h && ourHookEvent(h.command, host) !== undefined;
  return {
    at: ['hooks'],
    entries: prefix === undefined ? [] : events.map((event) => ({ event, item: { hooks: [{ type: 'command', command: hookCommand(prefix, host, event), timeout: HOST_HOOK_TIMEOUT_S }] } })),
    ours: (g) => {
      const h = innerHooks(g).find(isOurs);
      return h ? ourHookEvent(h.command, host) : undefined;
    },
    command: (g) => innerHooks(g).find(isOurs)?.command as string | undefined,
    // our hook inside the group gets the wanted fields; a hook of the user's in the same group stays
    update: (g, wanted) => {
      const want = innerHooks(wanted)[0]!;
      return { ...(g as object), hooks: innerHooks(g).map((h) => (isOurs(h) ? { ...h, ...want } : h)) };
    },
    strip: (g) => {
      const left = innerHooks(g).filter((h) => !isOurs(h));
      return left.length ? { ...(g as object), hooks: left } : undefined;
    },
  };
}
