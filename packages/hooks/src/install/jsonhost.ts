/**
 * The installer shared by hosts whose hooks live in a Claude-Code-style JSON document
 * (Claude Code `~/.claude/settings.json`, Codex `~/.codex/hooks.json`).
 */
import type { HostId, InstallOptions, InstallReport, VerifyReport } from '../types.js';
import { defaultHookCommand, hookCommand } from './command.js';
import { commitFile, readText, unifiedDiff } from './files.js';
import { unlinkSync } from 'node:fs';
import { installJsonHooks, listOurHooks, strictJsonProblem, uninstallJsonHooks } from './json-hooks.js';
import { readState, withPriorDirs, writeState } from './state.js';
import { verifyCommands } from './verify.js';

/** Hook timeout written into the host config, in seconds (the runner's own watchdog is 10 s). */
export const HOST_HOOK_TIMEOUT_S = 30;

export interface JsonHostSpec {
  host: HostId;
  /** Absolute path of the hooks document for a given home. */
  file: (home: string) => string;
  events: string[];
  /** Sample stdin payload per event, for `verify` (built from the recorded real payloads). */
  sample: (event: string, cwd: string) => unknown;
  /** What the host does with a document that is not strict JSON (comments, trailing commas); installers warn with it and verify fails. */
  strictJson?: string;
}

/** The warning for a hooks document the host will not load, or undefined. */
export function strictJsonWarning(spec: JsonHostSpec, file: string, text: string | undefined): string | undefined {
  if (!spec.strictJson || text === undefined) return undefined;
  const p = strictJsonProblem(file, text);
  return p ? `${p}: ${spec.strictJson} hive-mind kept your comments as they are; remove them (and trailing commas) so the host loads its hooks.` : undefined;
}

export function commandPrefix(opts: InstallOptions): string {
  return opts.command ?? defaultHookCommand();
}

/** Install (or, with `remove`, uninstall) our hooks in the spec's JSON document. */
export function editJsonHost(spec: JsonHostSpec, home: string, opts: InstallOptions, remove: boolean): InstallReport['files'][number] & { created: string[][]; after: string } {
  const file = spec.file(home);
  const before = readText(file);
  let after: string;
  let created: string[][] = [];
  if (remove) {
    if (before === undefined) return { path: file, changed: false, diff: '', created, after: '' };
    const state = readState(spec.host, opts);
    const created_ = state?.created[file] ?? [];
    after = uninstallJsonHooks(file, before, spec.host, created_);
    // the file did not exist before our install and nothing else is in it now: remove it
    if (created_.some((p) => p.length === 0) && isEmptyObjectText(after)) {
      if (!opts.dryRun) unlinkSync(file);
      return { path: file, changed: true, diff: unifiedDiff(file, before, ''), created, after: '' };
    }
  } else {
    const prefix = commandPrefix(opts);
    const entries = spec.events.map((event) => ({ event, command: hookCommand(prefix, spec.host, event), timeout: HOST_HOOK_TIMEOUT_S }));
    const edit = installJsonHooks(file, before ?? '', spec.host, entries);
    after = edit.text;
    // keep containers recorded by an earlier install (a re-install creates nothing new)
    const prev = readState(spec.host, opts)?.created[file] ?? [];
    // [] (the empty path) records that our install created the file itself
    if (before === undefined) edit.created.unshift([]);
    created = [...prev, ...edit.created.filter((c) => !prev.some((p) => p.join('\0') === c.join('\0')))];
  }
  const changed = after !== (before ?? '');
  const diff = unifiedDiff(file, before ?? '', after);
  let backup: string | undefined;
  if (changed && !opts.dryRun) {
    backup = commitFile(file, after);
  }
  return { path: file, changed, diff, created, after, ...(backup ? { backup } : {}) };
}

/** Record the install state (containers created) unless dry-run. */
export function saveJsonHostState(spec: JsonHostSpec, opts: InstallOptions, created: Record<string, string[][]>, extra?: Record<string, unknown>, dirs: string[] = []): void {
  if (opts.dryRun) return;
  writeState({ host: spec.host, installedAt: new Date().toISOString(), created, ...(extra ? { extra } : {}), dirs: withPriorDirs(spec.host, opts, dirs) }, opts);
}

/** Run each of our installed hooks in the document with the spec's sample payload. */
export async function verifyJsonHost(spec: JsonHostSpec, home: string, opts: InstallOptions): Promise<VerifyReport> {
  const file = spec.file(home);
  const text = readText(file);
  if (text === undefined) return { host: spec.host, ok: false, installed: false, hooks: [] };
  const ours = listOurHooks(file, text, spec.host);
  if (ours.length === 0) return { host: spec.host, ok: false, installed: false, hooks: [] };
  // UserPromptSubmit first, SessionStart last: the recall then shows what the prompt stored
  const order = (e: string) => (e === 'SessionStart' ? 1 : 0);
  const targets = ours
    .filter((o) => spec.events.includes(o.event))
    .sort((a, b) => order(a.event) - order(b.event) || spec.events.indexOf(a.event) - spec.events.indexOf(b.event))
    .map((o) => ({ event: o.event, command: o.command, payload: (cwd: string) => spec.sample(o.event, cwd) }));
  const report = await verifyCommands(spec.host, targets, { env: opts.env });
  const warning = strictJsonWarning(spec, file, text);
  if (warning) report.hooks.unshift({ event: '(config)', command: file, exitCode: null, ms: 0, stdout: '', ok: false, error: warning });
  return { ...report, ok: report.ok && !warning };
}

/** True when `text` is `{}` give or take whitespace (no comments, no keys). */
function isEmptyObjectText(text: string): boolean {
  return /^\s*\{\s*\}\s*$/.test(text);
}
