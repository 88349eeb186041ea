/**
 * Paths relative to the project root: the session's working folder (as the host recorded it),
 * followed through `cd`, named once in the checkpoint. Each path a tool call names is resolved
 * against the folder it was given in (a Codex call's `workdir`, a `cd dir &&` on the same command
 * line, a `cd` the agent ran on its own, the host's working folder), then said relative to the
 * root when under it and absolute when not, so one base holds for the whole checkpoint.
 */
import { posix } from 'node:path';
import type { SessionEvent } from '@hive-mind/session';
import type { CallFact, SpanFacts } from './analyze.js';

/** Scratch files directly in a temp directory (`/tmp/fix3.py`), not a project under /tmp. */
export const SCRATCH_PATH = /^(?:\/(?:var\/|private\/)?tmp\/[^/]+|\/dev\/\S+)$/;

/** A folder that is not a project but holds them: the file system root, a home folder, a temp folder, `/Users`, `/home`. */
const NOT_A_PROJECT = /^(?:\/|\/(?:Users|home)(?:\/[^/]+)?|\/root|\/(?:private\/)?(?:var\/)?tmp|[A-Za-z]:\\Users(?:\\[^\\]+)?)\/?$/;

/** Share of the span's paths a folder must hold to be taken as the project below a folder that is not one. */
const PROJECT_SHARE = 0.8;

/** Input fields of a shell tool that give the folder it ran in (Codex `exec_command` / `shell` `workdir`, others' `cwd`). */
const WORKDIR_FIELDS = ['workdir', 'cwd', 'working_directory', 'working_dir'];

function inputOf(c: CallFact): Record<string, unknown> {
  return (typeof c.call.input === 'object' && c.call.input ? c.call.input : {}) as Record<string, unknown>;
}

/** `dir` of a leading `cd dir &&` (or `cd dir;`) of a command line, quotes removed. */
function leadingCd(cmd: string): string | undefined {
  const m = /^\s*cd\s+("[^"]+"|'[^']+'|[^\s;&|]+)\s*(?:&&|;|\n)/.exec(cmd);
  return m ? m[1]!.replace(/^(['"])(.*)\1$/, '$2') : undefined;
}

/** `dir` of a command line that is only a `cd dir` (a persistent shell stays there). */
function loneCd(cmd: string): string | undefined {
  const m = /^\s*cd\s+("[^"]+"|'[^']+'|[^\s;&|]+)\s*$/.exec(cmd);
  return m ? m[1]!.replace(/^(['"])(.*)\1$/, '$2') : undefined;
}

/** `p` against `dir` (absolute `p`, `~`, variables and a missing `dir` left as given), normalized. */
function resolveIn(p: string, dir: string | undefined): string {
  if (p.startsWith('/') || !dir || /^[~$]/.test(p) || /^[A-Za-z]:[\\/]/.test(p)) return p.startsWith('/') ? posix.normalize(p) : p;
  return posix.normalize(posix.join(dir, p));
}

/** True when `p` is `dir` or lies under it. */
function under(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith('/') ? dir : dir + '/');
}

/** The working folder the host recorded last in the span (`<environment_context><cwd>` of Codex's turns, a message's `meta.cwd`), else `cwd`, else the folder the last call was given to run in. */
function hostFolder(f: SpanFacts, cwd: string | undefined): string | undefined {
  if (f.workingFolders.length) return f.workingFolders[f.workingFolders.length - 1]!.dir;
  if (cwd) return cwd;
  for (const c of [...f.calls].reverse()) {
    const input = inputOf(c);
    const wd = WORKDIR_FIELDS.map((k) => input[k]).find((v): v is string => typeof v === 'string' && v.startsWith('/'));
    if (wd) return wd;
  }
  return undefined;
}

/** What a span's paths are relative to: the project root, and each call's paths resolved (absolute where the folder is known). */
interface Resolved {
  root?: string;
}

/**
 * The project root of a span (see the module comment) and every path of its calls said against
 * it, in place: `info.paths`, `reads`, `created`, `deleted`, `renamed`. `cwd` is the working
 * folder the host recorded before the span (a session header); folders the span records
 * (`workingFolders`) come after it. Returns the root, undefined when none can be told (no
 * folder recorded and no absolute paths that share a project).
 */
export function resolvePaths(f: SpanFacts, cwd?: string): Resolved {
  // the folder in effect at a seq: the newer of the one the host recorded and a lone `cd` the agent ran
  let shell: { seq: number; dir: string } | undefined;
  const recorded = (seq: number) => [...f.workingFolders].reverse().find((w) => w.seq <= seq) ?? (cwd ? { seq: -1, dir: cwd } : undefined);
  const folderAt = (seq: number) => {
    const r = recorded(seq);
    return shell && (!r || shell.seq >= r.seq) ? shell.dir : r?.dir;
  };
  const cds: string[] = [];
  const dirs = new Map<CallFact, string | undefined>();
  // the folder the agent's shell last worked in (a call's workdir, a cd), when it is below the recorded one
  let agentDir: string | undefined;
  for (const c of f.calls) {
    const input = inputOf(c);
    const wd = WORKDIR_FIELDS.map((k) => input[k]).find((v): v is string => typeof v === 'string' && v.startsWith('/'));
    const here = folderAt(c.seq) ?? hostFolder(f, cwd);
    // a relative path in a folder that is not a project (`src/a.ts` in a home folder) is said from where the agent works
    const fileDir = here && NOT_A_PROJECT.test(here) && agentDir && under(agentDir, here) ? agentDir : here;
    const dir = wd ?? (c.info.kind === 'shell' ? here : fileDir);
    if (wd && here && wd !== here) {
      cds.push(wd);
      agentDir = wd;
    }
    if (c.info.kind === 'shell' && c.info.command) {
      const lone = loneCd(c.info.command);
      if (lone && !c.failed) {
        shell = { seq: c.seq, dir: resolveIn(lone, dir) };
        cds.push(shell.dir);
        agentDir = shell.dir;
        dirs.set(c, shell.dir);
        continue;
      }
      const lead = leadingCd(c.info.command);
      if (lead) {
        const to = resolveIn(lead, dir);
        cds.push(to);
        if (to.startsWith('/')) agentDir = to;
      }
    }
    dirs.set(c, dir);
  }
  // where the span ends: the folder the host recorded last, or the one the agent moved into after it
  const end = Math.max(...f.calls.map((c) => c.seq), ...f.workingFolders.map((w) => w.seq), 0);
  const base = folderAt(end) ?? hostFolder(f, cwd);
  // paths as absolute as the folders known make them
  const all: string[] = [];
  for (const c of f.calls) {
    const dir = dirs.get(c);
    const lead = c.info.kind === 'shell' && c.info.command ? leadingCd(c.info.command) : undefined;
    const cmdDir = lead ? resolveIn(lead, dir) : dir;
    const abs = (p: string) => resolveIn(p, cmdDir);
    // reads already carry a leading `cd` of their command line (toolinfo.ts shellReads)
    const absRead = (p: string) => resolveIn(p, dir);
    c.info.paths = c.info.paths.map((p) => (c.info.kind === 'shell' ? abs(p) : resolveIn(p, dir)));
    if (c.info.reads) c.info.reads = c.info.reads.map(absRead);
    if (c.info.created) c.info.created = c.info.created.map((p) => resolveIn(p, dir));
    if (c.info.deleted) c.info.deleted = c.info.deleted.map((p) => (c.info.kind === 'shell' ? abs(p) : resolveIn(p, dir)));
    if (c.info.renamed) c.info.renamed = c.info.renamed.map((r) => ({ from: abs(r.from), to: abs(r.to) }));
    all.push(...c.info.paths, ...(c.info.reads ?? []));
  }
  const absolute = all.filter((p) => p.startsWith('/') && !SCRATCH_PATH.test(p));
  let root = base;
  const relativeHeads = new Set(all.filter((p) => !p.startsWith('/') && !/^[~$.]/.test(p)).map((p) => p.split('/')[0]!));
  if (!root || NOT_A_PROJECT.test(root)) root = projectOf(absolute, root, new Set(cds), relativeHeads);
  else {
    // the agent cd-ed into the same folder below the working folder again and again
    const inner = mostly(cds.filter((d) => d !== root && under(d, root!)));
    if (inner && absolute.filter((p) => under(p, inner)).length >= PROJECT_SHARE * absolute.length) root = inner;
  }
  if (root) root = root.replace(/\/$/, '');
  if (root) for (const c of f.calls) relativeTo(c, root);
  return { ...(root ? { root } : {}) };
}

/** The folder at least {@link PROJECT_SHARE} of `dirs` are (three at least), if one is. */
function mostly(dirs: readonly string[]): string | undefined {
  if (dirs.length < 3) return undefined;
  const n = new Map<string, number>();
  for (const d of dirs) n.set(d, (n.get(d) ?? 0) + 1);
  const [top, k] = [...n].sort((a, b) => b[1] - a[1])[0]!;
  return k >= PROJECT_SHARE * dirs.length ? top : undefined;
}

/** Files that mark a project's root (a manifest, a build file, the agents' rules, a README). */
const PROJECT_MARKER = /^(?:package\.json|Cargo\.toml|pyproject\.toml|setup\.py|go\.mod|Gemfile|composer\.json|pom\.xml|build\.gradle(?:\.kts)?|CMakeLists\.txt|Makefile|Justfile|justfile|deno\.jsonc?|tsconfig\.json|AGENTS\.md|CLAUDE\.md|README(?:\.\w+)?|\.gitignore|\.git)$/;

/**
 * The project `paths` lie in, from `within` (or the file system root) down: a folder that is
 * not a project is passed through toward where the paths are; the descent stops at a folder the
 * agent `cd`-ed into, one holding a project file (a manifest, a README, AGENTS.md) or a file the
 * span touched, one the span's relative paths are said from (`src/a.ts` beside `/repo/src/b.ts`),
 * or where the paths branch (no sub-folder holds {@link PROJECT_SHARE} of them).
 * Undefined when the descent ends in a folder that is not a project.
 */
function projectOf(paths: readonly string[], within: string | undefined, cdTargets: ReadonlySet<string>, relativeHeads: ReadonlySet<string>): string | undefined {
  let dir = within ?? '/';
  for (;;) {
    const inside = paths.filter((p) => under(p, dir) && p !== dir);
    if (!inside.length) return undefined;
    const project = !NOT_A_PROJECT.test(dir);
    const rest = inside.map((p) => p.slice(dir === '/' ? 1 : dir.length + 1));
    const direct = rest.filter((r) => !r.includes('/'));
    if (project && (cdTargets.has(dir) || direct.length || rest.some((r) => PROJECT_MARKER.test(r.split('/')[0]!)))) return dir;
    const child = new Map<string, number>();
    for (const r of rest) if (r.includes('/')) child.set(r.split('/')[0]!, (child.get(r.split('/')[0]!) ?? 0) + 1);
    const [top, k] = [...child].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
    if (!top || k < PROJECT_SHARE * inside.length) return project ? dir : undefined;
    // relative paths of the span start with that folder (`src/a.ts` beside `/repo/src/b.ts`): they are said from here
    if (project && relativeHeads.has(top)) return dir;
    dir = dir === '/' ? `/${top}` : `${dir}/${top}`;
  }
}

/** A call's paths said relative to `root` when under it (absolute otherwise). */
function relativeTo(c: CallFact, root: string): void {
  const rel = (p: string) => (p === root ? '.' : under(p, root) ? p.slice(root.length + 1) : p);
  c.info.paths = c.info.paths.map(rel);
  if (c.info.reads) c.info.reads = c.info.reads.map(rel);
  if (c.info.created) c.info.created = c.info.created.map(rel);
  if (c.info.deleted) c.info.deleted = c.info.deleted.map(rel);
  if (c.info.renamed) c.info.renamed = c.info.renamed.map((r) => ({ from: rel(r.from), to: rel(r.to) }));
}

/**
 * The working folder a log records up to `uptoSeq`, the latest one: a `session/meta` event's
 * `cwd` (pi's session header, Codex's `session_meta`), a `host/record`'s record `cwd` or
 * `payload.cwd` (Codex's `turn_context`, Claude Code's system and attachment lines), a
 * message's `meta.cwd` (Claude Code's message lines). Undefined when none is recorded.
 */
export function recordedWorkingFolder(events: readonly SessionEvent[], uptoSeq: number): string | undefined {
  const abs = (v: unknown) => (typeof v === 'string' && v.startsWith('/') ? v : undefined);
  let dir: string | undefined;
  for (const e of events) {
    if (e.seq > uptoSeq) break;
    const meta = abs(e.meta?.cwd);
    if (meta) dir = meta;
    if (e.type !== 'session/meta' && e.type !== 'host/record') continue;
    const d = (e as { data?: Record<string, unknown> }).data;
    const rec = d?.record as Record<string, unknown> | undefined;
    const payload = (d?.payload ?? rec?.payload) as Record<string, unknown> | undefined;
    dir = abs(d?.cwd) ?? abs(payload?.cwd) ?? abs(rec?.cwd) ?? dir;
  }
  return dir;
}
