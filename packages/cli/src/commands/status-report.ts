/**
 * What `hive-mind status` gathers, as one plain object (`--json` prints it as is): the home in
 * use, each host's hive-mind install (plugin or hooks) and whether its commands still resolve,
 * each mind's size and frame counts, notes usage against their limits, the latest hook-log
 * entries, and the last compaction of the most recent sessions. Read only: nothing is created,
 * opened for writing or run (no hook is executed; `hive-mind verify HOST` does that).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { HostId, InstalledPlugin } from '@hive-mind/hooks';
import type { MindStats, NotesFileInventory, NotesTarget } from '@hive-mind/mind';
import { mindView } from './mind-view.js';

/** Recent sessions whose last compaction is shown. */
const STATUS_SESSIONS = 5;
/** Hook-log entries shown (newest last). */
const STATUS_HOOK_ENTRIES = 5;
/** A session file larger than this (bytes) is not read for the host's own compactions (hive-mind's record still counts). */
const STATUS_SESSION_READ_MAX_BYTES = 16 * 1024 * 1024;

interface HostStatus {
  host: HostId;
  /** How hive-mind is installed: a plugin the host manages (enabled), hooks `hive-mind install` wrote, both, or neither. */
  via: Array<'plugin' | 'hooks'>;
  plugins: InstalledPlugin[];
  hooks: Array<{ event: string; command: string; file: string }>;
  /** Why hooks cannot run as installed (a path that no longer exists, no CLI for the plugin), each with its fix. */
  problems: string[];
  /** What runs only through a fallback, with the command that makes it direct. */
  notes: string[];
}

interface MindStatus {
  path: string;
  /** `personal`, or the file name of a workspace mind under `<home>/workspaces`. */
  name: string;
  /** The folder of a workspace mind, as its newest frame records it (the hooks store it on every capture). */
  workspace?: string;
  /** A mind a session started in the current folder recalls (and `hive-mind mind search|list|show|recall` read there by default). */
  inView: boolean;
  /** Bytes of the file and of its WAL. */
  bytes: number;
  walBytes: number;
  stats?: Pick<MindStats, 'frames' | 'live' | 'byImportance' | 'quarantined' | 'superseded' | 'newest'>;
  error?: string;
}

/** One notes file: characters used and the limit (characters), entries in the file (the mind's inventory row, without its flags and lock). */
type NotesStatus = Pick<NotesFileInventory, 'path' | 'target' | 'chars' | 'limit' | 'entries' | 'overLimit'>;

interface SessionStatus {
  host: string;
  id: string;
  path: string;
  /** ISO time of the file's last write. */
  modified: string;
  /** The newest compaction of the session: hive-mind's (its record beside the file) or the host's own (in the file). */
  lastCompaction?: { at?: string; by: string; tokensBefore?: number; tokensAfter?: number };
  /** Compactions found: hive-mind's records and the host's own checkpoints in the file. */
  compactions: { ours: number; host: number };
  /** Why the file was not read (too large, unreadable): only hive-mind's record counted. */
  note?: string;
}

export interface StatusReport {
  version: string;
  home: { path: string; from: 'HIVE_MIND_HOME' | 'default'; exists: boolean };
  hosts: HostStatus[];
  minds: MindStatus[];
  /** What a session started in `folder` (the current directory) sees: its workspace mind, then the personal mind (mind-view.ts). */
  view: { folder: string; minds: Array<{ mind: 'workspace' | 'personal' | 'file'; label: string; path: string; exists: boolean }> };
  notes: NotesStatus[];
  /** The `HIVE_MIND_*` settings set in the environment (the mind's `ENV_SETTINGS`, in its order), each with its problem when its value is unusable. */
  settings: Array<{ name: string; value: string; what: string; problem?: string }>;
  hookLog: { path: string; entries: number; latest: string[] };
  sessions: SessionStatus[];
}

function size(p: string): number {
  try {
    return statSync(p).size;
  } catch {
    return 0;
  }
}

/** Gather the report for the environment `env` (HOME, HIVE_MIND_HOME, the hosts' variables). Never throws for a missing or unreadable part: that part says so. */
export async function gatherStatus(env: NodeJS.ProcessEnv, version: string, cwd: string = process.cwd()): Promise<StatusReport> {
  const mind = await import('@hive-mind/mind');
  const homePath = mind.mindHome(env);
  const view = await mindView({}, env, cwd);
  const report: StatusReport = {
    version,
    home: { path: homePath, from: env.HIVE_MIND_HOME?.trim() ? 'HIVE_MIND_HOME' : 'default', exists: existsSync(homePath) },
    hosts: await hostStatuses(env),
    minds: mindStatuses(mind, homePath, new Set(view.minds.map((m) => m.path))),
    view: { folder: view.folder, minds: view.minds.map((m) => ({ mind: m.key, label: m.label, path: m.path, exists: existsSync(m.path) })) },
    notes: [],
    settings: mind.ENV_SETTINGS.flatMap((st) => {
      const value = env[st.name];
      if (value === undefined || value.trim() === '') return [];
      const p = mind.envProblem(st, value);
      return [{ name: st.name, value, what: st.what, ...(p ? { problem: p.problem } : {}) }];
    }),
    hookLog: { path: mind.hooksLogPath(env), entries: 0, latest: [] },
    sessions: await sessionStatuses(env),
  };
  try {
    report.notes = new mind.Notes({ env, home: homePath }).inventory().map(({ path, target, chars, limit, entries, overLimit }) => ({ path, target, chars, limit, entries, overLimit }));
  } catch {
    // a bad notes limit in the environment: `settings` lists it
  }
  const tail = mind.tailHookLog(report.hookLog.path, STATUS_HOOK_ENTRIES);
  report.hookLog.entries = tail.count;
  report.hookLog.latest = tail.lines;
  return report;
}

async function hostStatuses(env: NodeJS.ProcessEnv): Promise<HostStatus[]> {
  const hooks = await import('@hive-mind/hooks');
  const out: HostStatus[] = [];
  for (const host of hooks.installableHosts()) {
    const s: HostStatus = { host, via: [], plugins: [], hooks: [], problems: [], notes: [] };
    const inst = await hooks.loadInstaller(host);
    try {
      s.hooks = inst?.installed({ env }) ?? [];
      const plugin = inst?.plugin?.({ env });
      if (plugin) s.plugins.push(plugin);
    } catch (err) {
      s.problems.push(`cannot read its config: ${(err as Error).message}`);
    }
    if (s.plugins.length) s.via.push('plugin');
    if (s.hooks.length) s.via.push('hooks');
    if (s.hooks.length && s.plugins.length) {
      s.problems.push(`both the plugin and the hooks from \`hive-mind install ${host}\` are on, so each session would recall twice; keep one (\`hive-mind uninstall ${host}\` removes the hooks)`);
    }
    for (const p of s.plugins) {
      const launcher = join(p.root, 'scripts', 'run-hive-mind');
      if (!existsSync(launcher)) s.problems.push(`the ${p.id} plugin's copy ${p.root} has no scripts/run-hive-mind: reinstall the plugin`);
      else if (!p.hooks.length) s.problems.push(`the ${p.id} plugin's ${p.hooksFile} lists no hive-mind hook: reinstall the plugin`);
      else {
        const cli = hooks.pluginCli(env);
        if (!cli.found) s.problems.push(`the ${p.id} plugin finds no hive-mind CLI: ${cli.fix}`);
      }
    }
    // one verdict per distinct command prefix (the events differ only in their last word)
    const seen = new Set<string>();
    for (const h of s.hooks) {
      const prefix = h.command.replace(/\s+hook\s+\S+\s+\S+\s*$/, '');
      if (seen.has(prefix)) continue;
      seen.add(prefix);
      const health = hooks.commandHealth(h.command, host, env);
      s.problems.push(...health.problems);
      s.notes.push(...health.notes);
    }
    out.push(s);
  }
  return out;
}

function mindStatuses(mind: typeof import('@hive-mind/mind'), home: string, inView: ReadonlySet<string>): MindStatus[] {
  const files: Array<{ path: string; name: string }> = [{ path: join(home, 'personal.mind'), name: 'personal' }];
  try {
    for (const f of readdirSync(join(home, 'workspaces')).sort()) if (f.endsWith('.mind')) files.push({ path: join(home, 'workspaces', f), name: `workspaces/${f}` });
  } catch {
    // no workspace minds
  }
  const out: MindStatus[] = [];
  for (const f of files) {
    if (!existsSync(f.path)) continue;
    const s: MindStatus = { ...f, inView: inView.has(f.path), bytes: size(f.path), walBytes: size(`${f.path}-wal`) };
    let m: ReturnType<typeof mind.Mind.open> | undefined;
    try {
      m = mind.Mind.open(f.path, { readonly: true });
      const { frames, live, byImportance, quarantined, superseded, newest } = m.stats();
      s.stats = { frames, live, byImportance, quarantined, superseded, newest };
      if (f.name !== 'personal') {
        const ws = (m.database.prepare("SELECT workspace FROM frames WHERE workspace <> '' ORDER BY id DESC LIMIT 1").get() as { workspace: string } | undefined)?.workspace;
        if (ws) s.workspace = ws;
      }
    } catch (err) {
      s.error = (err as Error).message;
    } finally {
      m?.close();
    }
    out.push(s);
  }
  return out;
}

async function sessionStatuses(env: NodeJS.ProcessEnv): Promise<SessionStatus[]> {
  const transcripts = await import('@hive-mind/transcripts');
  const { readRecords } = await import('./compact-undo.js');
  let files;
  try {
    files = transcripts.listSessions({ env }).slice(0, STATUS_SESSIONS);
  } catch {
    return [];
  }
  const out: SessionStatus[] = [];
  for (const f of files) {
    const s: SessionStatus = { host: f.host, id: f.id, path: f.path, modified: new Date(f.mtimeMs).toISOString(), compactions: { ours: 0, host: 0 } };
    const records = readRecords(f.path);
    s.compactions.ours = records.length;
    const ours = records[records.length - 1];
    let hostLast: SessionStatus['lastCompaction'];
    if (f.size > STATUS_SESSION_READ_MAX_BYTES) s.note = `not read for the host's compactions (${f.size} bytes, more than ${STATUS_SESSION_READ_MAX_BYTES})`;
    else {
      try {
        const t = await transcripts.readTranscriptFile(f.path, { lenient: true });
        for (const e of t.log.events()) {
          if (e.seq > t.importedLastSeq || e.type !== 'compaction/summary') continue;
          const d = (e as { data?: { host?: boolean; summarizer?: string; tokensBefore?: number; tokensAfter?: number } }).data;
          if (!d?.host) continue;
          s.compactions.host++;
          hostLast = { at: e.ts, by: d.summarizer ?? `host:${f.host}`, tokensBefore: d.tokensBefore, tokensAfter: d.tokensAfter };
        }
      } catch (err) {
        s.note = `unreadable: ${(err as Error).message.split('\n')[0]}`;
      }
    }
    const oursLast = ours ? { at: ours.at, by: `hive-mind ${ours.summarizer}`, tokensBefore: ours.tokensBefore, tokensAfter: ours.tokensAfter } : undefined;
    s.lastCompaction = !oursLast ? hostLast : !hostLast || (hostLast.at ?? '') <= oursLast.at ? oursLast : hostLast;
    if (!s.lastCompaction) delete s.lastCompaction;
    out.push(s);
  }
  return out;
}
