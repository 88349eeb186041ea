/**
 * OpenClaw installer.
 *
 * 1. Hook directory `~/.openclaw/hooks/hive-mind/` (OpenClaw's "managed hooks" directory,
 *    `$OPENCLAW_STATE_DIR/hooks` when that is set): `HOOK.md`, `handler.ts`, `handler.mjs`
 *    (openclaw-handler.ts). Uninstall deletes exactly these three files, and the directory
 *    only when nothing else is left in it.
 * 2. Config `~/.openclaw/openclaw.json` (JSON5; `$OPENCLAW_CONFIG_PATH` when set): turns the
 *    hook on the documented way, `hooks.internal.enabled: true` and
 *    `hooks.internal.entries["hive-mind"].enabled: true` (what `openclaw hooks enable` writes).
 *
 * Env overrides `OPENCLAW_STATE_DIR` / `OPENCLAW_CONFIG_PATH` (uncertain: documented for
 * OpenClaw's CLI, not in the hooks page) are read from `opts.env`, or from the process
 * environment when no explicit `home` is given.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readText } from '../install/files.js';
import { JSON5_FORMAT } from '../install/format-json5.js';
import { configDirOf, installedHooks, runInstaller, type InstallerSpec } from '../install/installer.js';
import { envOf, hostDirOf, launcherPath } from '../install/state.js';
import { verifyCommands, type VerifyTarget } from '../install/verify.js';
import type { HostInstaller, InstallOptions, VerifyReport } from '../types.js';
import { OPENCLAW_INSTALLED_EVENTS } from './openclaw.js';
import { OPENCLAW_HOOK_NAME, openclawHandlerMjs, openclawHandlerTs, openclawHookMd } from './openclaw-handler.js';

/** OpenClaw state directory: `$OPENCLAW_STATE_DIR`, else `<home>/.openclaw` (state.ts `hostDirOf`). */
export function openclawDir(opts: InstallOptions = {}): string {
  return hostDirOf('openclaw', opts).dir;
}
/** `$OPENCLAW_CONFIG_PATH`, else `<state dir>/openclaw.json`. */
export function openclawConfigPath(opts: InstallOptions = {}): string {
  const env = envOf(opts);
  return env.OPENCLAW_CONFIG_PATH && env.OPENCLAW_CONFIG_PATH.trim() ? resolve(env.OPENCLAW_CONFIG_PATH) : join(openclawDir(opts), 'openclaw.json');
}
/** `<state dir>/hooks/hive-mind`. */
export function openclawHookDir(opts: InstallOptions = {}): string {
  return join(openclawDir(opts), 'hooks', OPENCLAW_HOOK_NAME);
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

const SNIPPET = `hooks: { internal: { enabled: true, entries: { "${OPENCLAW_HOOK_NAME}": { enabled: true } } } }`;
const HOOK_FILES = ['HOOK.md', 'handler.mjs', 'handler.ts'] as const;

export const openclawSpec: InstallerSpec = {
  host: 'openclaw',
  dir: (opts) => hostDirOf('openclaw', opts),
  configs: (opts) => [
    {
      file: openclawConfigPath(opts),
      format: JSON5_FORMAT,
      settings: [
        { path: ['hooks', 'internal', 'enabled'], value: true },
        { path: ['hooks', 'internal', 'entries', OPENCLAW_HOOK_NAME, 'enabled'], value: true },
      ],
      owned: [['hooks', 'internal', 'entries', OPENCLAW_HOOK_NAME]],
      snippet: SNIPPET,
    },
  ],
  files: (opts, prefix) => {
    const dir = openclawHookDir(opts);
    const content = { 'HOOK.md': openclawHookMd(), 'handler.mjs': openclawHandlerMjs(prefix), 'handler.ts': openclawHandlerTs() };
    return HOOK_FILES.map((name) => ({ path: join(dir, name), content: content[name] }));
  },
  filePaths: (opts) => HOOK_FILES.map((name) => join(openclawHookDir(opts), name)),
  notes: ({ action, configs }) =>
    action === 'install'
      ? ['Restart the OpenClaw Gateway so it loads the hive-mind hook; `openclaw hooks list` should show it as ready.', 'Replies are saved once per turn after HIVE_MIND_OPENCLAW_DEBOUNCE_MS (default 1500 ms) without another send.']
      : [...flagNotes(configs[0]!), 'Restart the OpenClaw Gateway so it unloads the hive-mind hook.'],
};

/** Internal hooks of the user's still enabled in `after` once uninstall took out the `hooks.internal.enabled` install added (like Codex's `[features] hooks`). */
function flagNotes(c: { spec: { file: string }; before: string | undefined; after: string | undefined }): string[] {
  const internal = (t: string | undefined): Obj | undefined => {
    const d = t === undefined ? undefined : JSON5_FORMAT.parse(c.spec.file, t);
    return isObj(d) && isObj(d.hooks) && isObj(d.hooks.internal) ? d.hooks.internal : undefined;
  };
  const was = internal(c.before);
  const now = internal(c.after);
  if (was?.enabled !== true || now?.enabled === true) return [];
  const mine = Object.entries(isObj(now?.entries) ? now.entries : {})
    .filter(([k, v]) => k !== OPENCLAW_HOOK_NAME && isObj(v) && v.enabled === true)
    .map(([k]) => k);
  if (!mine.length) return [];
  return [
    `removed the hooks.internal.enabled: true that hive-mind added to ${c.spec.file}; it still enables ${mine.length} internal hook${mine.length === 1 ? '' : 's'} of yours (${mine.join(', ')}), which OpenClaw runs only with that flag on: set \`hooks.internal.enabled: true\` yourself if you want ${mine.length === 1 ? 'it' : 'them'}.`,
  ];
}

/** Prefix embedded in an installed handler.mjs, if any. */
export function installedPrefix(opts: InstallOptions = {}): string | undefined {
  const js = readText(join(openclawHookDir(opts), 'handler.mjs'));
  const m = js ? /^const PREFIX = (".*");$/m.exec(js) : null;
  return m ? (JSON.parse(m[1]!) as string) : undefined;
}

/** Sample OpenClaw payloads (as our handler forwards them), built from the documented event context. */
export function openclawSamplePayload(event: string, cwd: string): Record<string, unknown> {
  const base = { sessionKey: 'agent:main:main', timestamp: new Date(0).toISOString(), hiveMind: { workspaceDir: cwd } };
  switch (event) {
    case 'agent:bootstrap':
      return { ...base, type: 'agent', action: 'bootstrap', context: { workspaceDir: cwd, sessionKey: 'agent:main:main', sessionId: 'hive-mind-verify', agentId: 'main' } };
    case 'message:received':
      return { ...base, type: 'message', action: 'received', context: { from: '+15550100', content: 'hive-mind verify: sample message', channelId: 'telegram', conversationId: 'verify', messageId: 'verify-in-1' } };
    case 'message:sent':
      return {
        ...base,
        type: 'message',
        action: 'sent',
        context: { to: '+15550100', content: 'hive-mind verify: sample reply.', success: true, channelId: 'telegram', conversationId: 'verify', messageId: 'verify-out-1' },
        hiveMind: { workspaceDir: cwd, turn: { inReplyTo: 'verify-in-1', messageIds: ['verify-out-1'], count: 1 } },
      };
    default:
      return { ...base, type: 'session', action: 'compact:before', context: { sessionId: 'hive-mind-verify', messageCount: 10, tokenCount: 1000 } };
  }
}

async function verify(opts: InstallOptions = {}): Promise<VerifyReport> {
  const dir = openclawHookDir(opts);
  const prefix = installedPrefix(opts);
  const problems: VerifyReport['hooks'] = [];
  for (const name of ['HOOK.md', 'handler.ts', 'handler.mjs']) {
    if (!existsSync(join(dir, name))) problems.push({ event: name, command: '', exitCode: null, ms: 0, stdout: '', ok: false, error: `missing ${join(dir, name)}` });
  }
  const cfg = openclawConfigPath(opts);
  const text = readText(cfg);
  const data = text === undefined ? undefined : JSON5_FORMAT.parse(cfg, text);
  const internal = isObj(data) && isObj(data.hooks) && isObj(data.hooks.internal) ? data.hooks.internal : undefined;
  const entry = internal && isObj(internal.entries) ? internal.entries[OPENCLAW_HOOK_NAME] : undefined;
  if (!internal || internal.enabled !== true || !isObj(entry) || entry.enabled !== true) {
    problems.push({ event: 'config', command: '', exitCode: null, ms: 0, stdout: '', ok: false, error: `${cfg} does not enable the hook (${SNIPPET})` });
  }
  // nothing of ours anywhere: not installed (rather than a list of failures)
  const configDir = configDirOf(openclawSpec, opts);
  if (problems.length === 4 && entry === undefined) return { host: 'openclaw', ok: false, installed: false, hooks: [], configDir };
  const targets: VerifyTarget[] = [];
  if (prefix !== undefined) {
    // the handler module loads on plain Node and exports a function (what the Gateway imports)
    const jsPath = join(dir, 'handler.mjs');
    targets.push({
      event: 'handler.mjs',
      command: `${JSON.stringify(process.execPath)} --input-type=module -e ${JSON.stringify(`const m = await import(${JSON.stringify('file://' + jsPath)}); if (typeof m.default !== 'function') { console.error('no default export'); process.exit(3); } console.log(JSON.stringify({ default: typeof m.default }));`)}`,
      payload: () => ({}),
    });
    for (const event of OPENCLAW_INSTALLED_EVENTS) targets.push({ event, command: `${prefix} hook openclaw ${event}`, payload: (cwd) => openclawSamplePayload(event, cwd) });
  }
  const report = await verifyCommands('openclaw', targets, { env: opts.env, launcher: launcherPath(opts) });
  report.hooks.push(...problems);
  report.ok = report.ok && problems.length === 0;
  report.installed = true;
  report.configDir = configDirOf(openclawSpec, opts);
  return report;
}

export const openclawInstaller: HostInstaller = {
  host: 'openclaw',
  install: (opts = {}) => runInstaller(openclawSpec, 'install', opts),
  uninstall: (opts = {}) => runInstaller(openclawSpec, 'uninstall', opts),
  installed: (opts = {}) => installedHooks(openclawSpec, opts),
  verify,
};

/** Registry entry (installers.ts loads `installer`). */
export const installer = openclawInstaller;
