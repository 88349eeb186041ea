import { closeSync, fstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HOST_TABLE, SESSION_HOSTS, type SessionHead, type SessionHost } from './hosts.js';
import { hostRow } from '../host-table.js';

/** Bytes read from the start of a file to find its id, cwd and version (a Codex `session_meta` line holds the whole system prompt). */
export const HEAD_BYTES = 1024 * 1024;

/** One session file a host keeps. */
export interface SessionFile {
  host: SessionHost;
  /** The host's session id: the file name for Claude Code (what `claude --resume` looks up), else the id the file records (its name when it records none). */
  id: string;
  /** Absolute path of the file. */
  path: string;
  /** The working directory the host recorded (none for Hermes). */
  cwd?: string;
  /** The version that wrote it (see {@link SessionHead.version}). */
  version?: string;
  /** Last modification, ms since the epoch. */
  mtimeMs: number;
  /** Bytes. */
  size: number;
  /** Set when the head of the file cannot be read (unreadable, not JSON, cut off); the file is still listed. */
  problem?: string;
}

/**
 * A file in a host's session folder, named like its session files (the host's extension), that
 * is not a session of that host: listed with the reason instead of skipped without a word.
 */
export interface NotASessionFile {
  host: SessionHost;
  /** Absolute path of the file. */
  path: string;
  /** Why the host does not take it as a session (its naming rule, where it looks, or the file's first record). */
  reason: string;
}

/** What to list. */
export interface ListOptions {
  /** Only this host. */
  host?: SessionHost;
  /** Only sessions started in this folder (compared after resolving symlinks); undefined lists every project. */
  cwd?: string;
  /** Where `HOME` and the hosts' variables (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `PI_CODING_AGENT_DIR`, `PI_CODING_AGENT_SESSION_DIR`, `HERMES_HOME`) come from. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** Why a session could not be found; `code` tells which case. */
export class SessionLookupError extends Error {
  readonly exitCode = 2 as const;
  constructor(
    message: string,
    readonly code: 'no-session' | 'not-found' | 'ambiguous',
    /** The sessions that matched, for `ambiguous`. */
    readonly candidates: SessionFile[] = [],
  ) {
    super(message);
    this.name = 'SessionLookupError';
  }
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/** The first bytes of a file, as complete lines (a line cut at the limit is dropped). */
function headLines(path: string): string[] {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    let n = 0;
    for (let r; n < buf.length && (r = readSync(fd, buf, n, buf.length - n, n)) > 0; ) n += r;
    const text = buf.subarray(0, n).toString('utf8');
    const lines = text.split('\n');
    if (n === buf.length) lines.pop();
    return lines.filter((l) => l.trim());
  } finally {
    closeSync(fd);
  }
}

/** The first line of a file, read from at most its first 64 KiB (pi's header line is far shorter). */
function firstLine(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8').split('\n', 1)[0]!;
  } finally {
    closeSync(fd);
  }
}

/** The last {@link HEAD_BYTES} of a file as text (a line cut at the start is harmless to a search). */
function tailText(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const len = Math.min(size, HEAD_BYTES);
    const buf = Buffer.alloc(len);
    let n = 0;
    for (let r; n < len && (r = readSync(fd, buf, n, len - n, size - len + n)) > 0; ) n += r;
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

type Rec = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** Read the id, cwd and version from the head of a session file, by the host's transcript format. @throws when no line of the head is JSON. */
export function readSessionHead(host: SessionHost, path: string): SessionHead {
  // the head's fields are those of the host's transcript format (host table `format`)
  const format = hostRow(host)?.format;
  if (format === 'hermes') {
    // one JSON object; session_id is among its first keys (hermes-agent writes it first)
    const text = headLines(path).join('\n');
    const m = /"session_id"\s*:\s*"([^"]+)"/.exec(text);
    if (!text.trimStart().startsWith('{')) throw new Error('not a JSON object');
    return m ? { id: m[1] } : {};
  }
  const head: SessionHead = {};
  let parsed = 0;
  let firstError: string | undefined;
  for (const line of headLines(path)) {
    let rec: Rec;
    try {
      rec = JSON.parse(line) as Rec;
    } catch (e) {
      firstError ??= (e as Error).message;
      continue;
    }
    if (!rec || typeof rec !== 'object') continue;
    parsed++;
    if (format === 'claude-code') {
      head.id ??= str(rec.sessionId);
      head.cwd ??= str(rec.cwd);
      head.version ??= str(rec.version);
      if (head.id && head.cwd && head.version) break;
    } else if (format === 'codex') {
      const p = rec.payload as Rec | undefined;
      if (rec.type === 'session_meta' && p) {
        head.id = str(p.id) ?? str(p.session_id);
        head.cwd = str(p.cwd);
        head.version = str(p.cli_version);
        break;
      }
    } else if (format === 'pi') {
      if (rec.type === 'session') {
        head.id = str(rec.id);
        head.cwd = str(rec.cwd);
        head.version = typeof rec.version === 'number' ? String(rec.version) : '1';
      }
      break;
    }
  }
  if (!parsed) throw new Error(firstError ? `not JSONL (${firstError})` : 'empty file');
  if (format === 'claude-code') {
    // every Claude Code line carries the version that wrote it: the last one wrote the newest lines
    const last = [...tailText(path).matchAll(/"version":"(\d[^"]*)"/g)].at(-1)?.[1];
    if (last) head.version = last;
  }
  return head;
}

/** A file found under a host's root: its path and how many folders below the root it is. */
interface Found {
  path: string;
  name: string;
  depth: number;
}

/** Files ending in `ext` at most `depth` folders below `dir` (unreadable folders are skipped). */
function filesUnder(dir: string, depth: number, ext: string, at = 0): Found[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: Found[] = [];
  for (const n of names) {
    const p = join(dir, n);
    if (n.endsWith(ext)) out.push({ path: p, name: n, depth: at });
    else if (at < depth) {
      try {
        if (statSync(p).isDirectory()) out.push(...filesUnder(p, depth, ext, at + 1));
      } catch {
        /* gone or unreadable */
      }
    }
  }
  return out;
}

/** The first record of a pi file, when it parses and is not pi's session header; undefined otherwise. */
function piNotSession(path: string): string | undefined {
  let first: string;
  try {
    first = firstLine(path);
  } catch {
    return undefined;
  }
  if (!first.trim()) return undefined;
  let rec: unknown;
  try {
    rec = JSON.parse(first);
  } catch {
    return undefined; // not JSON at all: listed as a session with its problem (it may be one being written)
  }
  const r = rec as Rec | null;
  if (r && typeof r === 'object' && r.type === 'session' && typeof r.id === 'string') return undefined;
  return 'its first line is not a pi session header ({"type":"session","id":...}), so pi neither lists nor opens it';
}

/**
 * The sessions the hosts keep, newest first (by last modification), and the files in their
 * session folders that are named like sessions but are not ({@link NotASessionFile}, in path
 * order). With `cwd`, only those of that folder: Claude Code and pi by their per-project
 * folder (and the recorded cwd), Codex by the `cwd` of `session_meta` (a file whose head
 * records no cwd of this folder is not reported for it); Hermes records no folder, so its
 * sessions are listed only without `cwd`, or with `host: 'hermes'`. A session file whose head
 * cannot be read is listed with `problem` set, never fatal.
 */
export function scanSessions(opts: ListOptions = {}): { sessions: SessionFile[]; notSessions: NotASessionFile[] } {
  const env = opts.env ?? process.env;
  const want = opts.cwd === undefined ? undefined : real(opts.cwd);
  const out: SessionFile[] = [];
  const notSessions: NotASessionFile[] = [];
  for (const host of opts.host ? [opts.host] : SESSION_HOSTS) {
    const spec = HOST_TABLE[host];
    const root = spec.root(env);
    let files: Found[];
    if (want !== undefined && spec.projectDir) {
      const dirs = new Set([spec.projectDir(want), spec.projectDir(resolve(opts.cwd!))]);
      files = [...dirs].flatMap((d) => filesUnder(join(root, d), 0, spec.ext).map((f) => ({ ...f, depth: spec.depth })));
    } else if (want !== undefined && host === 'hermes' && opts.host !== 'hermes') {
      continue;
    } else files = filesUnder(root, spec.depth, spec.ext);
    for (const found of files) {
      const { path } = found;
      let st;
      try {
        st = statSync(path);
      } catch {
        continue;
      }
      if (!st.isFile()) continue;
      const misplaced = found.depth !== spec.depth ? spec.placeProblem : !spec.isSessionFile(found.name) ? spec.nameProblem : undefined;
      const notPi = !misplaced && host === 'pi' ? piNotSession(path) : undefined;
      if (misplaced || notPi) {
        // for one folder, a Codex file counts only when its head records that folder
        if (want !== undefined && host === 'codex' && !recordsCwd(host, path, want)) continue;
        notSessions.push({ host, path, reason: `not a session file of ${spec.name}: ${misplaced ?? notPi}` });
        continue;
      }
      const f: SessionFile = { host, id: spec.idFromName(found.name) ?? path, path, mtimeMs: st.mtimeMs, size: st.size };
      try {
        const head = readSessionHead(host, path);
        // Claude Code's `--resume <id>` looks the file up by name (a forked session's file holds
        // lines copied with the old sessionId), so its name is its id
        if (head.id && host !== 'claude-code') f.id = head.id;
        if (head.cwd) f.cwd = head.cwd;
        if (head.version) f.version = head.version;
      } catch (e) {
        f.problem = `unreadable: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
      }
      if (want !== undefined && host === 'codex' && (!f.cwd || real(f.cwd) !== want)) continue;
      out.push(f);
    }
  }
  return {
    sessions: out.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path)),
    notSessions: notSessions.sort((a, b) => a.path.localeCompare(b.path)),
  };
}

/** Whether the head of `path` records the working directory `want` (a file that cannot be read records none). */
function recordsCwd(host: SessionHost, path: string, want: string): boolean {
  try {
    const cwd = readSessionHead(host, path).cwd;
    return !!cwd && real(cwd) === want;
  } catch {
    return false;
  }
}

/** The sessions of {@link scanSessions}, without the files that are not sessions. */
export function listSessions(opts: ListOptions = {}): SessionFile[] {
  return scanSessions(opts).sessions;
}

/**
 * The session `ref` names: `latest` (the newest session of this folder, any host unless
 * `host` is given) or a session id (every host's folders are searched, the cwd is not
 * required to match; a unique prefix of at least 8 characters works too).
 * @throws SessionLookupError `no-session` (nothing for this folder), `not-found` (no such
 * id), `ambiguous` (the id or prefix matches several sessions, e.g. of several hosts: the
 * message lists them and says which `--host` to give).
 */
export function resolveSession(ref: string, opts: ListOptions = {}): SessionFile {
  const hostName = opts.host ? HOST_TABLE[opts.host].name : 'any host';
  if (ref === 'latest') {
    const { sessions: all, notSessions } = scanSessions(opts);
    if (!all.length) {
      const where = opts.cwd === undefined ? 'anywhere' : `for ${real(opts.cwd)}`;
      const skipped = notSessions.length ? `; ${notSessions.length} file${notSessions.length > 1 ? 's' : ''} there named like sessions ${notSessions.length > 1 ? 'are' : 'is'} not (${notSessions.map((f) => `${f.path}: ${f.reason}`).join('; ')})` : '';
      throw new SessionLookupError(`no session of ${hostName} ${where}; looked in ${(opts.host ? [opts.host] : SESSION_HOSTS).map((h) => HOST_TABLE[h].root(opts.env ?? process.env)).join(', ')} (run hive-mind sessions --all to see every project's)${skipped}`, 'no-session');
    }
    return all[0]!;
  }
  const { sessions: all, notSessions } = scanSessions({ ...opts, cwd: undefined });
  let hits = all.filter((s) => s.id === ref);
  if (!hits.length && ref.length >= 8) hits = all.filter((s) => s.id.startsWith(ref));
  if (!hits.length) {
    // a file named after the id that is not a session says why it is not taken
    const named = notSessions.filter((f) => f.path.slice(f.path.lastIndexOf('/') + 1).includes(ref));
    const why = named.map((f) => `; ${f.path}: ${f.reason}`).join('');
    throw new SessionLookupError(`no session ${JSON.stringify(ref)} of ${hostName} (run hive-mind sessions --all to list them)${why}`, 'not-found');
  }
  if (hits.length > 1) {
    hits = [...hits].sort((a, b) => SESSION_HOSTS.indexOf(a.host) - SESSION_HOSTS.indexOf(b.host) || b.mtimeMs - a.mtimeMs);
    const hosts = new Set(hits.map((s) => s.host));
    const list = hits.map((s) => `${HOST_TABLE[s.host].name} ${s.id} (${s.path})`).join('; ');
    throw new SessionLookupError(
      hosts.size > 1
        ? `session ${JSON.stringify(ref)} matches sessions of several hosts: ${list}; give --host ${[...hosts].join(' or --host ')}`
        : `session ${JSON.stringify(ref)} matches ${hits.length} sessions: ${list}; give more of the id`,
      'ambiguous',
      hits,
    );
  }
  return hits[0]!;
}
