/**
 * The minds a `hive-mind mind` command reads (README "Which minds a command sees"): by default what
 * a session started in the current folder sees, the folder's workspace mind (its git root, as the
 * hooks compute it: hooks `workspaceOf`) and the personal mind, merged; `--workspace [ID|PATH]`,
 * `--personal` and `--mind PATH` narrow it.
 */
import { userHome } from '@hive-mind/transcripts/host-dirs';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { personalMindPath, workspaceMindPath } from '@hive-mind/mind';
import { CliError } from '../errors.js';

/** The mind-choosing options every `mind` subcommand takes. `workspace` is `true` for a bare `--workspace`. */
export interface ViewOptions {
  mind?: string;
  workspace?: string | true;
  personal?: boolean;
}

/** One mind in view: `key` is what a frame id is prefixed with (`workspace:12`), `label` what people read. */
export interface ViewMind {
  key: 'workspace' | 'personal' | 'file';
  label: string;
  path: string;
  /** The workspace id (its folder, or the id given) of a workspace mind. */
  workspace?: string;
}

/** What a command reads: the minds, in the hooks' recall order (workspace first), and how they were chosen. */
export interface MindView {
  minds: ViewMind[];
  /** No option narrowed it: this folder's session's minds. */
  default: boolean;
  /** The folder the default view is of (the current directory). */
  folder: string;
}

/**
 * The workspace mind `--workspace` names: bare, this folder's; a value with a `/` (or `.`, `..`,
 * `~`), a folder path whose git root is the workspace, as for the hooks; otherwise the file stem of
 * an existing `<home>/workspaces/<id>.mind` (the hashed id `status` shows), else an existing folder,
 * else an id as given (a new workspace mind of that name). A path to a folder that is gone still
 * names the workspace mind recorded under it.
 * @throws CliError (exit 2) for a path to nothing.
 */
export async function workspaceNamed(value: string | true, cwd: string, env: NodeJS.ProcessEnv): Promise<ViewMind> {
  const { workspaceOf } = await import('@hive-mind/hooks');
  const ofFolder = (dir: string): ViewMind => {
    const id = workspaceOf(dir) ?? dir;
    return { key: 'workspace', label: `workspace ${id}`, path: workspaceMindPath(id, env), workspace: id };
  };
  if (value === true) return ofFolder(cwd);
  const v = value.trim();
  if (!v) throw new CliError('--workspace needs a folder path or a workspace id (or nothing: this folder)', 2);
  const pathLike = v.includes('/') || v.includes('\\') || v === '.' || v === '..' || v.startsWith('~');
  if (!pathLike) {
    const stem = v.endsWith('.mind') ? v.slice(0, -'.mind'.length) : v;
    if (existsSync(workspaceMindPath(stem, env))) return { key: 'workspace', label: `workspace ${stem}`, path: workspaceMindPath(stem, env), workspace: stem };
  }
  const home = userHome(env);
  const dir = v === '~' ? home : v.startsWith('~/') ? join(home, v.slice(2)) : resolve(cwd, v);
  if (isDir(dir)) return ofFolder(dir);
  // a folder moved or deleted since: its workspace mind is still named by the path it had
  if (pathLike && existsSync(workspaceMindPath(dir, env))) return { key: 'workspace', label: `workspace ${dir}`, path: workspaceMindPath(dir, env), workspace: dir };
  if (pathLike) throw new CliError(`--workspace ${v}: no such folder (${dir}); give a project folder or a workspace id from \`hive-mind status\``, 2);
  return { key: 'workspace', label: `workspace ${v}`, path: workspaceMindPath(v, env), workspace: v };
}

/**
 * The minds of a command (see the module comment). `--mind` names one file and excludes the
 * others; `--workspace` and `--personal` together give both.
 * @throws CliError (exit 2) for `--mind` with `--workspace` or `--personal`, or a bad `--workspace`.
 */
export async function mindView(o: ViewOptions, env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Promise<MindView> {
  if (o.mind !== undefined && (o.workspace !== undefined || o.personal)) throw new CliError('--mind names one .mind file: drop --workspace and --personal', 2);
  const personal: ViewMind = { key: 'personal', label: 'personal', path: personalMindPath(env) };
  if (o.mind !== undefined) {
    const path = resolve(cwd, o.mind);
    return { minds: [{ key: 'file', label: path, path }], default: false, folder: cwd };
  }
  const minds: ViewMind[] = [];
  if (o.workspace !== undefined) minds.push(await workspaceNamed(o.workspace, cwd, env));
  if (o.personal) minds.push(personal);
  if (minds.length) return { minds, default: false, folder: cwd };
  return { minds: [await workspaceNamed(true, cwd, env), personal], default: true, folder: cwd };
}

/** The minds of `view` whose file exists (reads never create a mind). */
export function existing(view: MindView): ViewMind[] {
  return view.minds.filter((m) => existsSync(m.path));
}

/** One line naming the minds in view, for help, `status` and an empty answer: `workspace /src/app, personal`. */
export function describeView(view: MindView): string {
  return view.minds.map((m) => `${m.label}${existsSync(m.path) ? '' : ' (no file yet)'}`).join(', ');
}

/** A frame reference as typed: `12`, `#12`, or `workspace:12` / `personal:12` (the mind named, as merged listings print it). */
export interface FrameRef {
  id: number;
  mind?: 'workspace' | 'personal';
}

/** Parse a frame reference (see {@link FrameRef}). @throws CliError (exit 2) for anything else. */
export function frameRef(v: string): FrameRef {
  const m = /^\s*(?:(workspace|personal):)?#?(\d+)\s*$/.exec(String(v));
  const n = m ? Number(m[2]) : NaN;
  if (!m || !Number.isSafeInteger(n) || n <= 0)
    throw new CliError(`frame id must be a positive integer up to ${Number.MAX_SAFE_INTEGER}, optionally prefixed with workspace: or personal: (as merged listings print it), got ${JSON.stringify(v)}`, 2);
  return m[1] ? { id: n, mind: m[1] as FrameRef['mind'] } : { id: n };
}

/** How a frame of `mind` is named in output: `#12` when one mind is in view, `workspace:12` when several are. */
export function refOf(mind: ViewMind, id: number, several: boolean): string {
  return several && mind.key !== 'file' ? `${mind.key}:${id}` : `#${id}`;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
