/**
 * The one installer every host uses: read each host config, plan the change with the
 * core (core.ts), and only when every file planned cleanly, commit them (backup + atomic
 * write through symlinks, files.ts), write or delete the files that are wholly ours
 * (OpenClaw's hook directory) and the install record (state.ts). `--dry-run` stops
 * before the commit and reports the diffs.
 */
import { chmodSync, rmSync, unlinkSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { HostDir } from '@hive-mind/transcripts/host-dirs';
import type { HostConfigDir, HostId, InstalledPlugin, InstallOptions, InstallReport, VerifyReport } from '../types.js';
import { hostRow } from '@hive-mind/transcripts/hosts';
import { locateCli, shQuote } from './command.js';
import { installConfig, listOurs, uninstallConfig, type ConfigRecord, type HostConfigSpec } from './core.js';
import { commitFile, missingDirs, readText, removeEmptyDirs, unifiedDiff, writeAtomic } from './files.js';
import { HostConfigError } from './errors.js';
import { isLauncher, launcherScript } from './launcher.js';
import { dropState, envOf, launcherPath, otherInstalls, readState, withPriorDirs, writeState } from './state.js';
import { verifyCommands, type VerifyTarget } from './verify.js';

/** Hook timeout written into host configs, in seconds (Claude Code, Codex and Hermes read seconds; the runner's own watchdog is 10 s). */
export const HOST_HOOK_TIMEOUT_S = 30;

/** The command prefix hosts run: `opts.command`, else the launcher `<hive-mind home>/bin/run-hive-mind`, quoted for `sh` (launcher.ts). */
export function commandPrefix(opts: InstallOptions = {}): string {
  return opts.command ?? shQuote(launcherPath(opts));
}

/** What a host's notes see: the action, and each config's text after it (undefined: absent or deleted). */
export interface NotesContext {
  action: 'install' | 'uninstall';
  opts: InstallOptions;
  configs: Array<{ spec: HostConfigSpec; before: string | undefined; after: string | undefined }>;
}

/** One host: its config files, the files wholly ours, and what to tell the user. */
export interface InstallerSpec {
  host: HostId;
  /** The folder the host reads its config from for these options, and why (state.ts `hostDirOf`). */
  dir(opts: InstallOptions): HostDir;
  /** The host's config files, in report order; `prefix` (the hook command prefix) is given on install only. */
  configs(opts: InstallOptions, prefix?: string): HostConfigSpec[];
  /** Files that are wholly ours, written on install and deleted on uninstall (their directory too, when left empty). */
  files?(opts: InstallOptions, prefix: string): Array<{ path: string; content: string }>;
  /** Paths of those files for uninstall (no prefix needed). */
  filePaths?(opts: InstallOptions): string[];
  notes(ctx: NotesContext): string[];
}

/** Install or uninstall `spec`'s host. Throws HostConfigError (nothing written) when a config cannot be read or safely edited, or cannot be written (every file written before it is put back). */
export async function runInstaller(spec: InstallerSpec, action: 'install' | 'uninstall', opts: InstallOptions = {}): Promise<InstallReport> {
  const install = action === 'install';
  const state = readState(spec.host, opts);
  const prefix = install ? commandPrefix(opts) : undefined;
  const configs = spec.configs(opts, prefix);
  const owned: Array<{ path: string; content: string | undefined; mode?: number }> = install ? spec.files?.(opts, prefix!) ?? [] : (spec.filePaths?.(opts) ?? []).map((path) => ({ path, content: undefined as string | undefined }));
  // the launcher, rewritten by every install with the node and CLI of this one (shared by every host)
  if (install && opts.command === undefined) owned.unshift({ path: launcherPath(opts), content: launcherScript(opts.cli ?? locateCli()), mode: 0o755 });
  const dirs = install ? [...owned.flatMap((f) => missingDirs(f.path)), ...configs.flatMap((c) => missingDirs(c.file))] : [];

  // plan every file first: a config that fails leaves all of them untouched
  const records: Record<string, ConfigRecord> = {};
  const plans = configs.map((c) => {
    const before = readText(c.file);
    let after = before;
    if (install) {
      const r = installConfig(c, before, state?.configs[c.file]);
      after = r.text;
      records[c.file] = r.record;
    } else if (before !== undefined) after = uninstallConfig(c, before, state?.configs[c.file]);
    return { spec: c, before, after };
  });
  const report: InstallReport = { host: spec.host, action, dryRun: !!opts.dryRun, files: [], notes: [], configDir: configDirOf(spec, opts) };
  // what was written so far, to put back when a later write fails (a read-only or immutable file)
  const done: Array<{ path: string; before: string | undefined; backup?: string }> = [];
  const commit = (path: string, before: string | undefined, write: () => string | undefined) => {
    try {
      const backup = write();
      done.push({ path, before, ...(backup ? { backup } : {}) });
      return backup;
    } catch (e) {
      rollback(done, install ? dirs : []);
      throw HostConfigError.io(path, 'write', e);
    }
  };
  for (const f of owned) {
    const before = readText(f.path);
    const changed = install ? before !== f.content : before !== undefined;
    report.files.push({ path: f.path, changed, diff: changed ? unifiedDiff(f.path, before ?? '', f.content ?? '') : '' });
    if (!changed || opts.dryRun) continue;
    commit(f.path, before, () => {
      if (f.content !== undefined) writeAtomic(f.path, f.content);
      else unlinkSync(f.path);
      if (f.content !== undefined && f.mode !== undefined) chmodSync(f.path, f.mode);
      return undefined;
    });
  }
  for (const p of plans) {
    const changed = p.after !== p.before;
    const entry: InstallReport['files'][number] = { path: p.spec.file, changed, diff: changed ? unifiedDiff(p.spec.file, p.before ?? '', p.after ?? '') : '' };
    // a file install created is deleted without a backup (nothing of the user's is in it)
    if (changed && !opts.dryRun) {
      const backup = commit(p.spec.file, p.before, () => commitFile(p.spec.file, p.after));
      if (backup) entry.backup = backup;
    }
    report.files.push(entry);
  }
  // records of this host's config files elsewhere (an install made with the host's variable set
  // otherwise) are kept while those files still exist: uninstalling there later undoes exactly that install
  const elsewhere = Object.fromEntries(Object.entries(state?.configs ?? {}).filter(([file]) => !configs.some((c) => c.file === file) && readText(file) !== undefined));
  if (!opts.dryRun) {
    if (install) writeState({ host: spec.host, installedAt: new Date().toISOString(), configs: { ...elsewhere, ...records }, dirs: withPriorDirs(spec.host, opts, dirs) }, opts);
    else if (state && strayInstalls(spec, opts).length > 0) writeState({ ...state, configs: elsewhere }, opts);
    else {
      dropLauncher(spec.host, opts);
      dropState(spec.host, opts, state, owned.map((f) => f.path));
    }
  }
  report.notes = spec.notes({ action, opts, configs: plans });
  for (const s of strayInstalls(spec, opts)) report.notes.push(strayProblem(spec, opts, s));
  return report;
}

/** `spec.dir(opts)` as reported. */
export function configDirOf(spec: InstallerSpec, opts: InstallOptions): HostConfigDir {
  const d = spec.dir(opts);
  return { dir: d.dir, source: d.source, ...(d.variable ? { variable: d.variable } : {}), why: d.why };
}

/** Human name of a host (the host table). */
function hostName(host: HostId): string {
  return hostRow(host)?.name ?? host;
}

/** A config file holding hooks of ours that the host does not read under the current options. */
export interface StrayInstall {
  file: string;
  /** How many hooks of ours it holds. */
  hooks: number;
  /** The host folder it is in: the default one (`default`) or another the host's variable named at an earlier install. */
  place: 'default' | 'other';
}

/**
 * Hooks of ours in config files the host does not read under these options: its default folder while the host's
 * variable points elsewhere (an install made before the variable was set, or from a shell
 * without it), and every file an earlier install recorded (state.ts) that is not one of the
 * current config files (an install made with the variable set to another folder). Hooks there
 * do not run in this environment (another profile may still read them). Unreadable or unparsable files are skipped (they hold nothing we can count).
 */
export function strayInstalls(spec: InstallerSpec, opts: InstallOptions = {}): StrayInstall[] {
  const current = spec.configs(opts);
  const currentFiles = new Set(current.map((c) => c.file));
  const d = spec.dir(opts);
  const candidates: Array<{ c: HostConfigSpec; place: StrayInstall['place'] }> = [];
  if (d.source === 'env' && d.variable) {
    const env = { ...envOf(opts) };
    delete env[d.variable];
    for (const c of spec.configs({ ...opts, env })) candidates.push({ c, place: 'default' });
  }
  for (const file of Object.keys(readState(spec.host, opts)?.configs ?? {})) {
    const like = current.find((c) => basename(c.file) === basename(file));
    if (like) candidates.push({ c: { ...like, file }, place: dirname(file) === d.defaultDir ? 'default' : 'other' });
  }
  const out: StrayInstall[] = [];
  const seen = new Set<string>();
  for (const { c, place } of candidates) {
    if (currentFiles.has(c.file) || seen.has(c.file)) continue;
    seen.add(c.file);
    const text = readText(c.file);
    if (text === undefined) continue;
    let hooks = 0;
    try {
      hooks = listOurs(c, text).length;
    } catch {
      continue;
    }
    if (hooks > 0) out.push({ file: c.file, hooks, place });
  }
  return out;
}

/** What a stray install means and the command that removes it. */
export function strayProblem(spec: InstallerSpec, opts: InstallOptions, s: StrayInstall): string {
  const d = spec.dir(opts);
  const name = hostName(spec.host);
  const undo = s.place === 'default' && d.variable ? `env -u ${d.variable} hive-mind uninstall ${spec.host}` : `${d.variable ? `${d.variable}=${dirname(s.file)} ` : ''}hive-mind uninstall ${spec.host}`;
  return `${s.file}: ${s.hooks} hive-mind hook(s) installed here, but ${name} reads its config from ${d.why} in this environment, so they do not run; if you no longer start ${name} with that folder, remove them with \`${undo}\``;
}

/** After `host`'s uninstall: delete the launcher (and `bin/` when left empty) unless another host's install may still run it. */
function dropLauncher(host: HostId, opts: InstallOptions): void {
  if (otherInstalls(host, opts)) return;
  const p = launcherPath(opts);
  const text = readText(p);
  if (text === undefined || !isLauncher(text)) return;
  rmSync(p, { force: true });
  removeEmptyDirs([dirname(p)]);
}

/** Put back every file written so far (their text before, through symlinks; a file we created is deleted), drop their backups, and the directories install made. */
function rollback(done: Array<{ path: string; before: string | undefined; backup?: string }>, dirs: string[]): void {
  for (const d of [...done].reverse()) {
    try {
      if (d.before === undefined) commitFile(d.path, undefined);
      else writeAtomic(d.path, d.before);
      if (d.backup) rmSync(d.backup, { force: true });
    } catch {
      // keep going: the backup (when there is one) is still there for this file
    }
  }
  removeEmptyDirs(dirs);
}

/** Our installed hooks across the host's configs: event, command, file. */
export function installedHooks(spec: InstallerSpec, opts: InstallOptions = {}): Array<{ event: string; command: string; file: string }> {
  return spec.configs(opts).flatMap((c) => {
    const text = readText(c.file);
    return text === undefined ? [] : listOurs(c, text).map((h) => ({ ...h, file: c.file }));
  });
}

/** How `verify` runs a host's hooks. */
export interface VerifyPlan {
  /** The events install writes, in the order verify runs them (UserPromptSubmit before SessionStart, so the recall shows what the prompt stored). */
  events: readonly string[];
  /** Sample stdin payload per event, built from the host's recorded or documented payloads. */
  sample(event: string, cwd: string): unknown;
  /** A host-specific check of one hook's stdout: a problem, or undefined. */
  check?(event: string, stdout: string): string | undefined;
  /** Extra environment for the hook runs (e.g. a throw-away HERMES_HOME). */
  env?: NodeJS.ProcessEnv;
  /** Problems with the config itself (e.g. a host that will not load comments), shown as a `(config)` entry. */
  configProblems?(): string[];
  /** The host's own install of the hive-mind plugin (plugins.ts), verified when the config holds no hooks of ours. */
  plugin?(): InstalledPlugin | undefined;
}

/**
 * Run each of our installed hooks with a sample payload (verify.ts: `/bin/sh -c`, a
 * throw-away hive-mind home). With no hooks of ours in the config, the hooks of the host's
 * install of the hive-mind plugin are run instead (with the variables the host gives them).
 * An event install writes that is missing fails as "not installed in <file>"; nothing of ours
 * at all is `installed: false`.
 */
export async function verifyInstalled(spec: InstallerSpec, opts: InstallOptions, plan: VerifyPlan): Promise<VerifyReport> {
  let ours = installedHooks(spec, opts);
  const plugin = ours.length === 0 ? plan.plugin?.() : undefined;
  if (plugin) ours = plugin.hooks;
  const configDir = configDirOf(spec, opts);
  const strays = strayInstalls(spec, opts).map((s) => ({ event: '(config)', command: '', exitCode: null, ms: 0, stdout: '', ok: false, error: strayProblem(spec, opts, s) }));
  if (ours.length === 0) {
    // hooks only where the host does not look in this environment: installed, but none of them runs
    const missing = strays.length ? [{ event: '(config)', command: '', exitCode: null, ms: 0, stdout: '', ok: false, error: `no hive-mind hooks in ${spec.configs(opts)[0]!.file}, the file ${hostName(spec.host)} reads; run \`hive-mind install ${spec.host}\`` }] : [];
    return { host: spec.host, ok: false, installed: strays.length > 0, hooks: [...strays, ...missing], configDir };
  }
  const targets: VerifyTarget[] = [];
  const missing: VerifyReport['hooks'] = [];
  for (const event of plan.events) {
    const h = ours.find((o) => o.event === event);
    if (h) targets.push({ event, command: h.command, payload: (cwd) => plan.sample(event, cwd) });
    else missing.push({ event, command: '', exitCode: null, ms: 0, stdout: '', ok: false, error: `not installed in ${plugin ? plugin.hooksFile : spec.configs(opts)[0]!.file}` });
  }
  const report = await verifyCommands(spec.host, targets, { env: { ...(opts.env ?? process.env), ...plan.env, ...plugin?.env }, launcher: launcherPath(opts) });
  if (plugin) report.plugin = { id: plugin.id, root: plugin.root, ...(plugin.version ? { version: plugin.version } : {}) };
  for (const h of report.hooks) {
    const problem = h.ok ? plan.check?.(h.event, h.stdout) : undefined;
    if (problem) Object.assign(h, { ok: false, error: problem });
  }
  report.hooks.push(...missing);
  for (const p of plan.configProblems?.() ?? []) report.hooks.unshift({ event: '(config)', command: '', exitCode: null, ms: 0, stdout: '', ok: false, error: p });
  // with a working install here, hooks in another folder are another profile's or left over: said, not failed
  if (strays.length) report.notes = [...(report.notes ?? []), ...strays.map((h) => h.error)];
  report.configDir = configDir;
  report.ok = report.hooks.length > 0 && report.hooks.every((h) => h.ok);
  report.installed = true;
  return report;
}
