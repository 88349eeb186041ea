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
 *    Edited in place by targeted text edits (openclaw-json5.ts): the user's comments,
 *    quoting and layout stay byte for byte; each edit is re-parsed with `json5` and compared
 *    with the intended data, and refused (nothing written) if it does not match.
 * What install created (containers, the `enabled` flag, a previous `enabled: false`) is
 * recorded in `<hive-mind home>/installs/openclaw.json`, so uninstall undoes only that and
 * keeps whatever the user changed after install.
 *
 * Env overrides `OPENCLAW_STATE_DIR` / `OPENCLAW_CONFIG_PATH` (uncertain: documented for
 * OpenClaw's CLI, not in the hooks page) are read from `opts.env`, or from the process
 * environment when no explicit `home` is given.
 */
import { existsSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { commitFile, missingDirs, readText, unifiedDiff, writeAtomic } from '../install/files.js';
import { dropState, homeOf, readState, withPriorDirs, writeState, type InstallState } from '../install/state.js';
import { verifyCommands, type VerifyTarget } from '../install/verify.js';
import type { HostInstaller, InstallOptions, InstallReport, VerifyReport } from '../types.js';
import { OPENCLAW_INSTALLED_EVENTS } from './openclaw.js';
import { OPENCLAW_HOOK_NAME, openclawHandlerMjs, openclawHandlerTs, openclawHookMd } from './openclaw-handler.js';
import { insertMember, Json5ConfigError, json5Value, locate, nodeAtPath, parseJson5, removeMember, replaceValue, sameData, type J5Node } from './openclaw-json5.js';
import { resolveHookCommand } from './cursor-openclaw-hermes-shared.js';

function envOf(opts: InstallOptions): NodeJS.ProcessEnv {
  return opts.env ?? (opts.home ? {} : process.env);
}

/** OpenClaw state directory: `$OPENCLAW_STATE_DIR`, else `<home>/.openclaw`. */
export function openclawDir(opts: InstallOptions = {}): string {
  const env = envOf(opts);
  return env.OPENCLAW_STATE_DIR && env.OPENCLAW_STATE_DIR.trim() ? resolve(env.OPENCLAW_STATE_DIR) : join(homeOf(opts), '.openclaw');
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

interface ConfigEdit {
  text: string;
  created: string[][];
  prevInternalEnabled?: unknown;
}

function fieldError(file: string, text: string, node: J5Node | undefined, field: string, what: string): Json5ConfigError {
  const line = node ? text.slice(0, node.start).split('\n').length : 1;
  return new Json5ConfigError(`${file}:${line}: field "${field}" must be ${what} (nothing was changed)`);
}

/** Run one targeted edit and check the result parses to `expected`; refuse otherwise. */
function checked(file: string, after: string, expected: unknown, snippet: string): string {
  let got: unknown;
  try {
    got = parseJson5(file, after);
  } catch {
    got = Symbol('unparsable');
  }
  if (!sameData(got, expected)) {
    throw new Json5ConfigError(`${file}: could not edit this file safely without changing your own content; add this yourself and re-run: ${snippet} (nothing was changed)`);
  }
  return after;
}

const SNIPPET = `hooks: { internal: { enabled: true, entries: { "${OPENCLAW_HOOK_NAME}": { enabled: true } } } }`;

/** openclaw.json text with our hook enabled (pure). */
export function openclawConfigWithHook(file: string, before: string | undefined): ConfigEdit {
  const created: string[][] = [];
  let prevInternalEnabled: unknown;
  if (before === undefined || before.trim() === '') {
    const data = { hooks: { internal: { enabled: true, entries: { [OPENCLAW_HOOK_NAME]: { enabled: true } } } } };
    return { text: json5Value(data, '', '  ', '\n') + '\n', created: [['hooks']] };
  }
  let text = before;
  let data = parseJson5(file, text);
  if (!isObj(data)) throw new Json5ConfigError(`${file}:1:1: the top level must be an object (nothing was changed)`);
  const step = (mutate: (d: Obj) => void, edit: (root: J5Node) => string) => {
    const expected = structuredClone(data) as Obj;
    mutate(expected);
    text = checked(file, edit(locate(text)), expected, SNIPPET);
    data = expected;
  };
  const d = () => data as Obj;
  // hooks
  if (d().hooks === undefined) {
    created.push(['hooks']);
    const v = { internal: { enabled: true, entries: { [OPENCLAW_HOOK_NAME]: { enabled: true } } } };
    step((x) => (x.hooks = structuredClone(v)), (root) => insertMember(text, root, 'hooks', v));
    return { text, created };
  }
  const hooks = d().hooks;
  if (!isObj(hooks)) throw fieldError(file, text, nodeAtPath(locate(text), ['hooks']), 'hooks', 'an object');
  if (hooks.internal === undefined) {
    created.push(['hooks', 'internal']);
    const v = { enabled: true, entries: { [OPENCLAW_HOOK_NAME]: { enabled: true } } };
    step((x) => ((x.hooks as Obj).internal = structuredClone(v)), (root) => insertMember(text, nodeAtPath(root, ['hooks'])!, 'internal', v));
    return { text, created };
  }
  const internal = hooks.internal;
  if (!isObj(internal)) throw fieldError(file, text, nodeAtPath(locate(text), ['hooks', 'internal']), 'hooks.internal', 'an object');
  if (internal.enabled === undefined) {
    created.push(['hooks', 'internal', 'enabled']);
    step((x) => (((x.hooks as Obj).internal as Obj).enabled = true), (root) => insertMember(text, nodeAtPath(root, ['hooks', 'internal'])!, 'enabled', true));
  } else if (internal.enabled !== true) {
    prevInternalEnabled = internal.enabled;
    step((x) => (((x.hooks as Obj).internal as Obj).enabled = true), (root) => replaceValue(text, nodeAtPath(root, ['hooks', 'internal', 'enabled'])!, true));
  }
  const entries = (d().hooks as Obj & { internal: Obj }).internal.entries;
  if (entries === undefined) {
    created.push(['hooks', 'internal', 'entries']);
    const v = { [OPENCLAW_HOOK_NAME]: { enabled: true } };
    step((x) => (((x.hooks as Obj).internal as Obj).entries = structuredClone(v)), (root) => insertMember(text, nodeAtPath(root, ['hooks', 'internal'])!, 'entries', v));
    return { text, created, prevInternalEnabled };
  }
  if (!isObj(entries)) throw fieldError(file, text, nodeAtPath(locate(text), ['hooks', 'internal', 'entries']), 'hooks.internal.entries', 'an object');
  const ours = entries[OPENCLAW_HOOK_NAME];
  if (ours === undefined) {
    created.push(['hooks', 'internal', 'entries', OPENCLAW_HOOK_NAME]);
    step((x) => ((((x.hooks as Obj).internal as Obj).entries as Obj)[OPENCLAW_HOOK_NAME] = { enabled: true }), (root) =>
      insertMember(text, nodeAtPath(root, ['hooks', 'internal', 'entries'])!, OPENCLAW_HOOK_NAME, { enabled: true }),
    );
  } else if (!isObj(ours)) {
    throw fieldError(file, text, nodeAtPath(locate(text), ['hooks', 'internal', 'entries', OPENCLAW_HOOK_NAME]), `hooks.internal.entries.${OPENCLAW_HOOK_NAME}`, 'an object');
  } else if (ours.enabled !== true) {
    const path = ['hooks', 'internal', 'entries', OPENCLAW_HOOK_NAME];
    step(
      (x) => ((((x.hooks as Obj).internal as Obj).entries as Obj)[OPENCLAW_HOOK_NAME] as Obj).enabled = true,
      (root) => {
        const en = nodeAtPath(root, [...path, 'enabled']);
        return en ? replaceValue(text, en, true) : insertMember(text, nodeAtPath(root, path)!, 'enabled', true);
      },
    );
  }
  return { text, created, prevInternalEnabled };
}

/** openclaw.json text with our entry (and what install created, when still unused) removed (pure). */
export function openclawConfigWithoutHook(file: string, before: string, state?: Pick<InstallState, 'created' | 'extra'>): string {
  let text = before;
  let data = parseJson5(file, text);
  if (!isObj(data)) return before;
  const createdList = (state?.created?.[file] ?? []).map((p) => p.join('.'));
  // a path counts as created by install when it, or a container above it, was
  const created = { includes: (p: string) => createdList.some((c) => p === c || p.startsWith(c + '.')) };
  const get = (path: string[]): unknown => path.reduce<unknown>((v, k) => (isObj(v) ? v[k] : undefined), data);
  const remove = (path: string[]) => {
    const parentPath = path.slice(0, -1);
    const root = locate(text);
    const parent = nodeAtPath(root, parentPath);
    if (!parent || parent.type !== 'object') return;
    const idx = parent.members!.findIndex((m) => m.key === path[path.length - 1]);
    if (idx < 0) return;
    const expected = structuredClone(data) as Obj;
    const container = parentPath.reduce<Obj>((v, k) => v[k] as Obj, expected);
    delete container[path[path.length - 1]!];
    text = checked(file, removeMember(text, parent, idx), expected, `remove ${path.join('.')}`);
    data = expected;
  };
  const entriesPath = ['hooks', 'internal', 'entries'];
  if (isObj(get(entriesPath)) && (get(entriesPath) as Obj)[OPENCLAW_HOOK_NAME] !== undefined) remove([...entriesPath, OPENCLAW_HOOK_NAME]);
  const emptyObj = (p: string[]) => {
    const v = get(p);
    return isObj(v) && Object.keys(v).length === 0;
  };
  if (created.includes('hooks.internal.entries') && emptyObj(entriesPath)) remove(entriesPath);
  const internal = get(['hooks', 'internal']);
  if (created.includes('hooks.internal.enabled') && isObj(internal) && internal.enabled === true) {
    // drop the flag we added only when no other internal hook config is left to use it
    const others = Object.keys(internal).filter((k) => k !== 'enabled');
    if (others.length === 0 || (others.length === 1 && others[0] === 'entries' && emptyObj(entriesPath))) remove(['hooks', 'internal', 'enabled']);
  }
  const prev = state?.extra?.prevInternalEnabled;
  if (prev !== undefined && isObj(get(['hooks', 'internal'])) && (get(['hooks', 'internal']) as Obj).enabled === true) {
    const node = nodeAtPath(locate(text), ['hooks', 'internal', 'enabled'])!;
    const expected = structuredClone(data) as Obj;
    ((expected.hooks as Obj).internal as Obj).enabled = prev;
    text = checked(file, replaceValue(text, node, prev), expected, 'restore hooks.internal.enabled');
    data = expected;
  }
  if ((created.includes('hooks.internal') || created.includes('hooks')) && emptyObj(['hooks', 'internal'])) remove(['hooks', 'internal']);
  if (created.includes('hooks') && emptyObj(['hooks'])) remove(['hooks']);
  return text;
}

function hookFiles(opts: InstallOptions, prefix: string): Array<{ path: string; content: string }> {
  const dir = openclawHookDir(opts);
  return [
    { path: join(dir, 'HOOK.md'), content: openclawHookMd() },
    { path: join(dir, 'handler.mjs'), content: openclawHandlerMjs(prefix) },
    { path: join(dir, 'handler.ts'), content: openclawHandlerTs() },
  ];
}

/** Prefix embedded in an installed handler.mjs, if any. */
export function installedPrefix(opts: InstallOptions = {}): string | undefined {
  const js = readText(join(openclawHookDir(opts), 'handler.mjs'));
  const m = js ? /^const PREFIX = (".*");$/m.exec(js) : null;
  return m ? (JSON.parse(m[1]!) as string) : undefined;
}

async function install(opts: InstallOptions = {}): Promise<InstallReport> {
  const prefix = resolveHookCommand(opts);
  const report: InstallReport = { host: 'openclaw', action: 'install', dryRun: !!opts.dryRun, files: [], notes: [] };
  const dirs = [...hookFiles(opts, prefix).flatMap((f) => missingDirs(f.path)), ...missingDirs(openclawConfigPath(opts))];
  for (const f of hookFiles(opts, prefix)) {
    const before = readText(f.path);
    const changed = before !== f.content;
    report.files.push({ path: f.path, changed, diff: changed ? unifiedDiff(f.path, before ?? '', f.content) : '' });
    if (changed && !opts.dryRun) writeAtomic(f.path, f.content);
  }
  const cfg = openclawConfigPath(opts);
  const before = readText(cfg);
  const edit = openclawConfigWithHook(cfg, before);
  const changed = edit.text !== before;
  const entry: InstallReport['files'][number] = { path: cfg, changed, diff: changed ? unifiedDiff(cfg, before ?? '', edit.text) : '' };
  report.files.push(entry);
  if (!opts.dryRun) {
    if (changed) {
      const backup = commitFile(cfg, edit.text);
      if (backup) entry.backup = backup;
    }
    const prior = readState('openclaw', opts);
    // keep what an earlier install recorded (a re-install creates nothing new)
    const createdPaths = [...(prior?.created?.[cfg] ?? []), ...edit.created];
    const extra = { ...(prior?.extra ?? {}), ...(edit.prevInternalEnabled !== undefined ? { prevInternalEnabled: edit.prevInternalEnabled } : {}), ...(before === undefined && !prior ? { createdFile: true } : {}) };
    writeState({ host: 'openclaw', installedAt: new Date().toISOString(), created: { [cfg]: createdPaths }, extra, dirs: withPriorDirs('openclaw', opts, dirs) }, opts);
  }
  report.notes.push('Restart the OpenClaw Gateway so it loads the hive-mind hook; `openclaw hooks list` should show it as ready.');
  report.notes.push(`Replies are saved once per turn after ${'HIVE_MIND_OPENCLAW_DEBOUNCE_MS'} (default 1500 ms) without another send.`);
  return report;
}

async function uninstall(opts: InstallOptions = {}): Promise<InstallReport> {
  const report: InstallReport = { host: 'openclaw', action: 'uninstall', dryRun: !!opts.dryRun, files: [], notes: [] };
  const dir = openclawHookDir(opts);
  for (const name of ['HOOK.md', 'handler.mjs', 'handler.ts']) {
    const p = join(dir, name);
    const before = readText(p);
    if (before === undefined) continue;
    report.files.push({ path: p, changed: true, diff: unifiedDiff(p, before, '') });
    if (!opts.dryRun) unlinkSync(p);
  }
  if (!opts.dryRun && existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
  const cfg = openclawConfigPath(opts);
  const before = readText(cfg);
  const state = readState('openclaw', opts);
  if (before !== undefined) {
    let after: string | undefined = openclawConfigWithoutHook(cfg, before, state);
    if (state?.extra?.createdFile && /^\s*\{\s*\}\s*$/.test(after)) after = undefined;
    const changed = after !== before;
    const entry: InstallReport['files'][number] = { path: cfg, changed, diff: changed ? unifiedDiff(cfg, before, after ?? '') : '' };
    report.files.push(entry);
    if (changed && !opts.dryRun) {
      // a file our install created goes without a backup (nothing of the user's in it)
      const backup = commitFile(cfg, after);
      if (backup) entry.backup = backup;
    }
  }
  dropState('openclaw', opts, state);
  report.notes.push('Restart the OpenClaw Gateway so it unloads the hive-mind hook.');
  return report;
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
  const data = text === undefined ? undefined : parseJson5(cfg, text);
  const internal = isObj(data) && isObj(data.hooks) && isObj(data.hooks.internal) ? data.hooks.internal : undefined;
  const entry = internal && isObj(internal.entries) ? internal.entries[OPENCLAW_HOOK_NAME] : undefined;
  if (!internal || internal.enabled !== true || !isObj(entry) || entry.enabled !== true) {
    problems.push({ event: 'config', command: '', exitCode: null, ms: 0, stdout: '', ok: false, error: `${cfg} does not enable the hook (${SNIPPET})` });
  }
  // nothing of ours anywhere: not installed (rather than a list of failures)
  if (problems.length === 4 && entry === undefined) return { host: 'openclaw', ok: false, installed: false, hooks: [] };
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
  const report = await verifyCommands('openclaw', targets, { env: opts.env });
  report.hooks.push(...problems);
  report.ok = report.ok && problems.length === 0;
  report.installed = true;
  return report;
}

export const openclawInstaller: HostInstaller = { host: 'openclaw', install, uninstall, verify };

/** Registry entry (installers.ts loads `installer`). */
export const installer = openclawInstaller;

