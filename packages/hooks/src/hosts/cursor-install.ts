/**
 * Cursor installer: edits `~/.cursor/hooks.json` (Cursor's user-level hooks file,
 * https://cursor.com/docs/agent/hooks). Format (version 1):
 *
 * ```json
 * { "version": 1, "hooks": { "sessionStart": [ { "command": "…" } ], … } }
 * ```
 *
 * Our entries are `{ "command": "<hive-mind bin> hook cursor <event>" }`, recognised by
 * their command; no extra keys are written into Cursor's entries, because Cursor's schema
 * for an entry is only documented as `{ command }` (plus optional fields we do not use).
 * `version: 1` is set only when the file has none (and removed again on uninstall).
 */
import * as path from 'node:path';
import { hookCommand, ourHookEvent } from '../install/command.js';
import { JSON_FORMAT } from '../install/format-json.js';
import { installedHooks, runInstaller, verifyInstalled, type InstallerSpec } from '../install/installer.js';
import { homeOf, hostDirOf } from '../install/state.js';
import { hostDir } from '@hive-mind/transcripts/host-dirs';
import type { HostInstaller } from '../types.js';
import { CURSOR_INSTALLED_EVENTS } from './cursor.js';

/** `hooks.json` in Cursor's folder (`~/.cursor` under `home`; no variable moves it, state.ts `hostDirOf`). */
export function cursorHooksPath(home: string): string {
  return path.join(hostDir('cursor', { HOME: home }).dir, 'hooks.json');
}

const commandOf = (entry: unknown): unknown => (entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>).command : undefined);

export const cursorSpec: InstallerSpec = {
  host: 'cursor',
  dir: (opts) => hostDirOf('cursor', opts),
  configs: (opts, prefix) => [
    {
      file: cursorHooksPath(homeOf(opts)),
      format: JSON_FORMAT,
      settings: [{ path: ['version'], value: 1, ifMissing: true }],
      lists: [
        {
          at: ['hooks'],
          entries: prefix === undefined ? [] : CURSOR_INSTALLED_EVENTS.map((event) => ({ event, item: { command: hookCommand(prefix, 'cursor', event) } })),
          ours: (e) => ourHookEvent(commandOf(e), 'cursor'),
          command: (e) => commandOf(e) as string | undefined,
        },
      ],
      snippet: '"hooks": {"<event>": [{"command": "hive-mind hook cursor <event>"}]}',
    },
  ],
  notes({ action, opts }) {
    if (action === 'uninstall') return [];
    return [
      'Cursor reads ~/.cursor/hooks.json at start-up: restart Cursor (or reload the window) and check Settings > Hooks lists the hive-mind entries.',
      ...(opts.command ? [] : ['The hooks run hive-mind by absolute path; re-run `hive-mind install cursor` if you move or reinstall hive-mind.']),
    ];
  },
};

/** Sample stdin payloads per Cursor event, built from the documented fields (see cursor.ts). */
export function cursorSamplePayload(event: string, workspace: string): Record<string, unknown> {
  const common = {
    conversation_id: 'hive-mind-verify-conversation',
    generation_id: 'hive-mind-verify-generation',
    model: 'verify',
    hook_event_name: event,
    cursor_version: '1.7.0',
    workspace_roots: [workspace],
    user_email: null,
  };
  switch (event) {
    case 'sessionStart':
      return { ...common, session_id: 'hive-mind-verify-session', is_background_agent: false, composer_mode: 'agent' };
    case 'beforeSubmitPrompt':
      return { ...common, prompt: 'hive-mind verify: sample prompt', attachments: [] };
    case 'afterAgentResponse':
      return { ...common, text: 'hive-mind verify: sample assistant response.' };
    case 'stop':
      return { ...common, status: 'completed', loop_count: 0 };
    case 'preCompact':
      return { ...common, trigger: 'manual', context_usage_percent: 80, context_tokens: 100000, context_window_size: 128000, message_count: 10, messages_to_compact: 6, is_first_compaction: true };
    default:
      return common;
  }
}

/** Checks the stdout of one Cursor hook against what Cursor expects for that event. */
export function checkCursorStdout(event: string, stdout: string): string | undefined {
  const t = stdout.trim();
  if (t === '') return event === 'beforeSubmitPrompt' ? 'beforeSubmitPrompt must print {"continue": true}' : undefined;
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch {
    return `stdout is not JSON: ${t.slice(0, 120)}`;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'stdout must be a JSON object';
  const o = v as Record<string, unknown>;
  if (event === 'beforeSubmitPrompt' && o.continue !== true) return 'beforeSubmitPrompt must print {"continue": true}';
  if (event === 'sessionStart' && o.additional_context !== undefined && typeof o.additional_context !== 'string') return 'additional_context must be a string';
  if (event === 'stop' && o.followup_message !== undefined) return 'stop must not send a followup_message';
  return undefined;
}

export const cursorInstaller: HostInstaller = {
  host: 'cursor',
  install: (opts = {}) => runInstaller(cursorSpec, 'install', opts),
  uninstall: (opts = {}) => runInstaller(cursorSpec, 'uninstall', opts),
  installed: (opts = {}) => installedHooks(cursorSpec, opts),
  // Cursor runs each command through a shell, as verifyCommands does (/bin/sh -c).
  verify: (opts = {}) => verifyInstalled(cursorSpec, opts, { events: CURSOR_INSTALLED_EVENTS, sample: cursorSamplePayload, check: checkCursorStdout }),
};

/** Registry entry (installers.ts loads `installer`). */
export const installer = cursorInstaller;
