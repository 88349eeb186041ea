/**
 * Hermes installer: adds hive-mind shell hooks to the `hooks:` block of
 * `~/.hermes/config.yaml` (or `$HERMES_HOME/config.yaml`), per the "Shell Hooks"
 * section of Hermes Agent's hooks documentation:
 *
 * ```yaml
 * hooks:
 *   pre_llm_call:
 *     - command: "<shell command>"   # argv via shlex.split, no shell
 *       timeout: 30                  # seconds; Hermes default 60, capped at 300
 * ```
 *
 * Only list-valued keys under `hooks:` can hold our entries (`hooks.outbound` webhooks and
 * the like are left alone).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { hookCommand, ourHookEvent } from '../install/command.js';
import { YAML_FORMAT } from '../install/format-yaml.js';
import { HOST_HOOK_TIMEOUT_S, installedHooks, runInstaller, verifyInstalled, type InstallerSpec } from '../install/installer.js';
import { hostDirOf } from '../install/state.js';
import type { HostInstaller, InstallOptions, VerifyReport } from '../types.js';
import { HERMES_INSTALLED_EVENTS } from './hermes.js';

/** Hermes home: `$HERMES_HOME`, else `<home>/.hermes` (state.ts `hostDirOf`). */
export function hermesHome(opts: InstallOptions = {}): string {
  return hostDirOf('hermes', opts).dir;
}

export function hermesConfigPath(opts: InstallOptions = {}): string {
  return path.join(hermesHome(opts), 'config.yaml');
}

const commandOf = (item: unknown): unknown => (item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>).command : undefined);

export const hermesSpec: InstallerSpec = {
  host: 'hermes',
  dir: (opts) => hostDirOf('hermes', opts),
  configs: (opts, prefix) => [
    {
      file: hermesConfigPath(opts),
      format: YAML_FORMAT,
      lists: [
        {
          at: ['hooks'],
          entries: prefix === undefined ? [] : HERMES_INSTALLED_EVENTS.map((event) => ({ event, item: { command: hookCommand(prefix, 'hermes', event), timeout: HOST_HOOK_TIMEOUT_S } })),
          ours: (e) => ourHookEvent(commandOf(e), 'hermes'),
          command: (e) => commandOf(e) as string | undefined,
          // a moved CLI updates the command; a timeout the user changed stays theirs
          update: (e, wanted) => ({ ...(e as object), command: commandOf(wanted) }),
        },
      ],
      snippet: 'hooks: {<event>: [{command: "hive-mind hook hermes <event>", timeout: 30}]}',
    },
  ],
  notes({ action }) {
    if (action === 'uninstall') return [];
    return [
      'Hermes asks once per (event, command) before running a new shell hook. Approve the three hive-mind hooks at the first prompt (or review them with `hermes hooks list`). ' +
        'Non-interactive runs (gateway, cron, CI) skip unapproved hooks: start them once interactively, or use `hermes --accept-hooks`, HERMES_ACCEPT_HOOKS=1, or `hooks_auto_accept: true` if you accept that trade-off.',
      'Compaction from the Stop hook is off by default; set HIVE_MIND_HERMES_COMPACT_ON_STOP=1 (window: HIVE_MIND_HERMES_COMPACT_WINDOW_MIN, default 10 minutes) to enable it.',
    ];
  },
};

/** Sample shell-hook stdin per event, built from the documented wire protocol (see hermes.ts). */
export function hermesSamplePayload(event: string, cwd: string): Record<string, unknown> {
  const base = { hook_event_name: event, tool_name: null, tool_input: null, session_id: 'hive-mind-verify-session', cwd, profile: 'default' };
  switch (event) {
    case 'on_session_start':
      return { ...base, extra: { model: 'verify', platform: 'cli' } };
    case 'pre_llm_call':
      return { ...base, extra: { user_message: 'hive-mind verify: sample prompt', conversation_history: [], is_first_turn: true, model: 'verify', platform: 'cli' } };
    case 'post_llm_call':
      return {
        ...base,
        extra: {
          user_message: 'hive-mind verify: sample prompt',
          assistant_response: 'hive-mind verify: sample assistant response.',
          conversation_history: [],
          model: 'verify',
          platform: 'cli',
        },
      };
    default:
      return { ...base, extra: {} };
  }
}

/** Checks one hook's stdout against Hermes' documented response shapes. */
export function checkHermesStdout(stdout: string): string | undefined {
  const t = stdout.trim();
  if (t === '') return undefined;
  try {
    const v = JSON.parse(t) as unknown;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'stdout must be a JSON object';
    const ctx = (v as Record<string, unknown>).context;
    if (ctx !== undefined && typeof ctx !== 'string') return '"context" must be a string';
    return undefined;
  } catch {
    return `stdout is not JSON: ${t.slice(0, 120)}`;
  }
}

export const hermesInstaller: HostInstaller = {
  host: 'hermes',
  install: (opts = {}) => runInstaller(hermesSpec, 'install', opts),
  uninstall: (opts = {}) => runInstaller(hermesSpec, 'uninstall', opts),
  installed: (opts = {}) => installedHooks(hermesSpec, opts),
  async verify(opts: InstallOptions = {}): Promise<VerifyReport> {
    // Hermes splits the command with shlex and runs it without a shell; for the commands we
    // write (plain or single-quoted words) /bin/sh -c yields the same argv.
    // HERMES_HOME points at a throw-away directory too, so a compact-on-stop gate enabled in
    // the user's environment stamps that directory, not the real ~/.hermes.
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'hive-mind-verify-hermes-'));
    try {
      return await verifyInstalled(hermesSpec, opts, { events: HERMES_INSTALLED_EVENTS, sample: hermesSamplePayload, check: (_e, out) => checkHermesStdout(out), env: { HERMES_HOME: scratch } });
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  },
};

/** Registry entry (installers.ts loads `installer`). */
export const installer = hermesInstaller;
