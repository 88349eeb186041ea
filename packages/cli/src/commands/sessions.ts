import { userHome } from '@hive-mind/transcripts/host-dirs';
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { CHECKPOINT_PREAMBLE, knownModelWindow, TokenMeter } from '@hive-mind/compaction';
import {
  compactionCounts,
  HOST_TABLE,
  readTranscriptFile,
  recordedModel,
  scanSessions,
  SESSION_HOSTS,
  type NotASessionFile,
  type ResumeCommand,
  type SessionFile,
  type SessionHost,
  type Transcript,
} from '@hive-mind/transcripts';
import { CliError, printJson } from '../errors.js';
import { hostActivity } from './compact-session.js';
import { keepBackups, pruneBackups, type PruneResult } from './compact-backups.js';

/** `--host` value -> host id (`claude` is accepted for `claude-code`). @throws CliError (exit 2) naming the hosts. */
export function parseHost(v: string | undefined): SessionHost | undefined {
  if (v === undefined) return undefined;
  const h = v === 'claude' ? 'claude-code' : v;
  if (!(SESSION_HOSTS as readonly string[]).includes(h)) throw new CliError(`--host must be one of ${SESSION_HOSTS.join(', ')}; got ${JSON.stringify(v)}`, 2);
  return h as SessionHost;
}

/** The model window a session's file tells (tokens): recorded by the host (Codex), else known from the model's name. */
export function sessionWindow(t: Transcript): { window?: number; model?: string; source?: 'recorded' | 'model' } {
  const { model, window } = recordedModel(t);
  if (window) return { window, ...(model ? { model } : {}), source: 'recorded' };
  const w = model ? knownModelWindow(model) : undefined;
  return { ...(w ? { window: w, source: 'model' as const } : {}), ...(model ? { model } : {}) };
}

/** One row of `hive-mind sessions --json`. */
interface SessionRow {
  host: SessionHost;
  id: string;
  path: string;
  cwd: string | null;
  version: string | null;
  /** ISO time of the last write. */
  lastActivity: string;
  bytes: number;
  /** Surface tokens (o200k_base), null when the file cannot be read. */
  surfaceTokens: number | null;
  /** The model's context window (tokens) when the file tells it, with the model's name. */
  window: number | null;
  model: string | null;
  /** Checkpoints in the file: hive-mind's and the host's own. */
  compactions: { ours: number; host: number } | null;
  /** A host is writing it now (its lock, or a write in the last seconds that was not hive-mind's own compaction): the reason, else null. */
  busy: string | null;
  /** Why it could not be read (unreadable, half written), else null. */
  problem: string | null;
  resume: ResumeCommand;
}

/** Read one session and measure it; a file that cannot be read gives a row with `problem` set. */
async function sessionRow(s: SessionFile, meter: TokenMeter, env: NodeJS.ProcessEnv): Promise<SessionRow> {
  const row: SessionRow = {
    host: s.host,
    id: s.id,
    path: s.path,
    cwd: s.cwd ?? null,
    version: s.version ?? null,
    lastActivity: new Date(s.mtimeMs).toISOString(),
    bytes: s.size,
    surfaceTokens: null,
    window: null,
    model: null,
    compactions: null,
    busy: hostActivity(s, { env }).reason ?? null,
    problem: s.problem ?? null,
    resume: HOST_TABLE[s.host].resume(s),
  };
  if (s.problem) return row;
  try {
    // lenient: a line being written (cut off) or a bad line is counted, not fatal
    const t = await readTranscriptFile(s.path, { lenient: true });
    let tokens = 0;
    for (const n of t.log.surface()) tokens += meter.countEvent(n);
    row.surfaceTokens = tokens;
    const w = sessionWindow(t);
    row.window = w.window ?? null;
    row.model = w.model ?? null;
    row.compactions = compactionCounts(t, CHECKPOINT_PREAMBLE);
    const cut = t.report.problems.find((p) => /truncated last line/.test(p.reason));
    if (cut) row.problem = `half written: line ${cut.line} is cut off`;
    else if (t.report.skippedLines) row.problem = `${t.report.skippedLines} unreadable lines skipped (first: line ${t.report.problems[0]!.line}, ${t.report.problems[0]!.reason})`;
  } catch (err) {
    row.problem = `unreadable: ${(err as Error).message}`;
  }
  return row;
}

function ago(iso: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return iso.slice(0, 10);
}

function tilde(p: string, home: string): string {
  return home && p.startsWith(home + '/') ? `~${p.slice(home.length)}` : p;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** The files named like sessions that are not, one line each: `<file>: not a session file of <host>: <reason>`. */
function renderNotSessions(files: NotASessionFile[], env: NodeJS.ProcessEnv, indent = ''): string {
  const home = userHome(env);
  return files.map((f) => `${indent}${tilde(f.path, home)}: ${f.reason}\n`).join('');
}

/** The human listing: one block of two lines per session. */
function render(rows: SessionRow[], env: NodeJS.ProcessEnv, more: number): string {
  const now = Date.now();
  const home = userHome(env);
  const lines: string[] = [];
  for (const r of rows) {
    const tokens =
      r.surfaceTokens === null ? 'tokens unknown' : r.window ? `${fmt(r.surfaceTokens)} / ${fmt(r.window)} tokens (${Math.round((100 * r.surfaceTokens) / r.window)}%${r.model ? ` of ${r.model}` : ''})` : `${fmt(r.surfaceTokens)} tokens`;
    const comp = r.compactions ? `compactions: ${r.compactions.ours} hive-mind, ${r.compactions.host} ${HOST_TABLE[r.host].name}` : '';
    lines.push(`${HOST_TABLE[r.host].name.padEnd(11)} ${r.id}  ${ago(r.lastActivity, now)}  ${tokens}${comp ? `  ${comp}` : ''}`);
    lines.push(`${' '.repeat(12)}${tilde(r.path, home)}${r.busy ? `  [in use: ${r.busy}]` : ''}${r.problem ? `  [${r.problem}]` : ''}`);
  }
  if (more) lines.push(`(${more} older sessions not shown; --limit to see more)`);
  return lines.join('\n') + '\n';
}

interface SessionsOptions {
  host?: string;
  cwd?: string;
  all?: boolean;
  json?: boolean;
  limit: string;
  pruneBackups?: boolean;
  keepBackups?: string;
  dryRun?: boolean;
}

/**
 * `sessions --prune-backups`: the retention rule of compaction backups (compact-backups.ts) over
 * every session listed (not only the first `--limit`), one line per file that had backups
 * removed (or, with `--dry-run`, would have), then a total.
 */
function pruneCommand(sessions: SessionFile[], o: SessionsOptions, env: NodeJS.ProcessEnv): void {
  const keep = keepBackups(o.keepBackups, env);
  const results: PruneResult[] = sessions.map((s) => pruneBackups(s.path, keep, { dryRun: !!o.dryRun }));
  if (o.json) {
    printJson(results);
    return;
  }
  const home = userHome(env);
  const verb = o.dryRun ? 'would remove' : 'removed';
  const lines: string[] = [];
  for (const r of results) {
    for (const x of r.removed) lines.push(`${verb} ${tilde(x.path, home)} (${fmt(x.bytes)} bytes, the backup of the compaction at ${x.at})`);
    for (const x of r.spared) lines.push(`kept ${tilde(x.path, home)}: ${x.reason}`);
  }
  const n = results.reduce((a, r) => a + r.removed.length, 0);
  const bytes = results.reduce((a, r) => a + r.removed.reduce((b, x) => b + x.bytes, 0), 0);
  const kept = results.reduce((a, r) => a + r.kept.length, 0);
  lines.push(`${verb} ${n} backup${n === 1 ? '' : 's'} (${fmt(bytes)} bytes) of ${sessions.length} session${sessions.length === 1 ? '' : 's'}; kept ${kept}, the newest ${keep} compaction${keep === 1 ? '' : 's'} of each file (compact --undo walks back that far)`);
  process.stdout.write(lines.join('\n') + '\n');
}

/**
 * `hive-mind sessions`: the hosts' recent sessions for this folder (or every project with
 * `--all`), newest first, with what each weighs (surface tokens against the model's window
 * when the file tells it), its compactions so far and whether a host is writing it now; then
 * the files in the hosts' session folders named like sessions that are not, each with the
 * reason (`--json`: on stderr, stdout keeping the array of sessions).
 * Exit 0 even when nothing is found (the listing says so); 2 for bad flags.
 */
export function register(program: Command): void {
  program
    .command('sessions')
    .description("list the hosts' sessions of this folder (Claude Code, Codex, pi, Hermes), newest first, with their size in tokens and compactions")
    .option('--host <host>', `only this host: ${SESSION_HOSTS.join(' | ')}`)
    .option('--cwd <dir>', 'the project folder (default: the current directory)')
    .option('--all', "every project's sessions, not only this folder's")
    .option('--limit <n>', 'at most this many sessions (newest first)', '20')
    .option('--json', 'print a JSON array')
    .option('--prune-backups', "instead of listing: remove the compaction backups of these sessions older than the newest --keep-backups compactions' (the newest is always kept)")
    .option('--keep-backups <n>', 'with --prune-backups: how many compactions of each file keep their backup (default $HIVE_MIND_COMPACT_KEEP_BACKUPS or 5)')
    .option('--dry-run', 'with --prune-backups: say what would be removed, remove nothing')
    .action(async (o: SessionsOptions) => {
      const host = parseHost(o.host);
      if (o.all && o.cwd !== undefined) throw new CliError('give --all or --cwd, not both', 2);
      if (!o.pruneBackups && (o.keepBackups !== undefined || o.dryRun)) throw new CliError(`${o.dryRun ? '--dry-run' : '--keep-backups'} applies only with --prune-backups`, 2);
      if (!/^\d+$/.test(o.limit) || Number(o.limit) < 1) throw new CliError(`--limit must be a positive integer, got ${JSON.stringify(o.limit)}`, 2);
      const env = process.env;
      const cwd = o.all ? undefined : resolve(o.cwd ?? process.cwd());
      const { sessions: found, notSessions } = scanSessions({ ...(host ? { host } : {}), ...(cwd !== undefined ? { cwd } : {}), env });
      if (o.pruneBackups) return pruneCommand(found, o, env);
      const shown = found.slice(0, Number(o.limit));
      const meter = new TokenMeter();
      const rows: SessionRow[] = [];
      for (const s of shown) rows.push(await sessionRow(s, meter, env));
      if (o.json) {
        // stdout stays the array of sessions; the files that are not sessions are said on stderr
        printJson(rows);
        process.stderr.write(renderNotSessions(notSessions, env));
        return;
      }
      if (!rows.length) {
        const which = host ? HOST_TABLE[host].name : 'Claude Code, Codex, pi or Hermes';
        process.stdout.write(`no ${which} session ${cwd !== undefined ? `for ${cwd}` : 'found'}${cwd !== undefined ? ' (--all lists every project)' : ''}\n`);
      } else process.stdout.write(render(rows, env, found.length - shown.length));
      if (notSessions.length) process.stdout.write(`not listed (${notSessions.length}):\n${renderNotSessions(notSessions, env, '  ')}`);
      if (rows.length) process.stdout.write(`compact the newest in place: hive-mind compact --session latest${host ? ` --host ${host}` : ''}\n`);
    });
}
