import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, openSync, closeSync, readSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { MindError } from '../errors.js';
import type { Frame } from '../frame.js';
import { Mind } from './store.js';
import { Notes } from '../notes/notes.js';
import { breakLock, readLock, type LockState } from './lock.js';
import { redactSecrets } from '../safety/redact.js';
import { contentHash } from '../text.js';
import { hooksLogPath } from '../paths.js';
import { envNumber, envProblems, settingDefault, type EnvProblem } from '../settings.js';
import { pendingSpooled } from './spool.js';

/** Default size above which `doctor` warns about a .mind file (bytes, file + WAL): 512 MiB. Env `HIVE_MIND_MIND_SIZE_WARN`. */
export const DEFAULT_MIND_SIZE_WARN = settingDefault('HIVE_MIND_MIND_SIZE_WARN');

/** What `doctor` found. */
export interface DoctorReport {
  mind: {
    path: string;
    exists: boolean;
    /** True when the file opened and passed `PRAGMA integrity_check` and the FTS5 integrity check. */
    ok: boolean;
    error?: string;
    bytes: number;
    walBytes: number;
    sizeLimit: number;
    schemaVersion?: number;
    frames?: number;
    integrity?: string[];
    quarantined: Array<Pick<Frame, 'id' | 'threats' | 'createdAt' | 'host'> & { preview: string }>;
    pendingNotes: number;
    /** Hook captures waiting in the pending spool (`<mind>.pending-….jsonl`) for the next write or `mind doctor`. */
    spooled: number;
    /** The folders those spool files are in: the .mind's own, or a fallback folder a full disk sent them to (spool.ts `fallbackSpoolDirs`). */
    spooledIn: string[];
  };
  notes: ReturnType<Notes['inventory']>;
  /** Every notes lock file present (also of a notes file not created yet): holder or why it is unreadable, age, staleness. */
  locks: Array<{ path: string } & LockState>;
  /** The latest hook-log entries (failures and notices), newest last. */
  hookErrors: string[];
  /** Entries in the last 256 KiB of the hook log. */
  hookErrorCount: number;
  hookLog: string;
  /** Environment overrides with a value their reader cannot use (settings.ts). */
  settings: EnvProblem[];
}

function size(p: string): number {
  try {
    return statSync(p).size;
  } catch {
    return 0;
  }
}

/** One line of the hook log, as `logHookLine` in the hooks package writes it: `ISO-time host event: message`. */
const HOOK_LOG_LINE = /^(\d{4}-\d\d-\d\dT[\d:.]+Z) (\S+) (\S+): (.*)$/;

/**
 * The latest `n` entries of the hook log (reads at most its last 256 KiB), newest last, and how many
 * entries that tail holds. Every line the hooks write is a failure or a notice (a spooled capture, a bad
 * setting): the runner logs nothing else. Lines of another shape are skipped. Secrets are redacted again.
 */
export function tailHookLog(path: string, n: number): { lines: string[]; count: number } {
  if (!existsSync(path)) return { lines: [], count: 0 };
  const total = size(path);
  const len = Math.min(total, 256 * 1024);
  const buf = Buffer.alloc(len);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buf, 0, len, total - len);
  } finally {
    closeSync(fd);
  }
  const lines = buf.toString('utf8').split('\n').filter((l) => HOOK_LOG_LINE.test(l));
  return { lines: lines.slice(-n).map((l) => redactSecrets(l.length > 400 ? l.slice(0, 400) + '…' : l).text), count: lines.length };
}

/**
 * Health of a hive-mind home: the .mind file (size against the warning size, schema, integrity,
 * quarantined frames, pending notes), every notes file (size against its limit, lock state), and
 * the latest entries of `<home>/logs/hooks.log`, environment overrides with bad values, and hook
 * captures waiting in the pending spool. Never modifies anything (the CLI replays the spool first).
 */
export function doctor(opts: { mindPath: string; notes: Notes; env?: NodeJS.ProcessEnv; maxHookErrors?: number }): DoctorReport {
  const env = opts.env ?? process.env;
  const warn = envNumber(env, 'HIVE_MIND_MIND_SIZE_WARN'); // a bad value is listed in `settings`
  const mp = opts.mindPath;
  const report: DoctorReport = {
    mind: { path: mp, exists: existsSync(mp), ok: false, bytes: size(mp), walBytes: size(`${mp}-wal`), sizeLimit: warn, quarantined: [], pendingNotes: 0, spooled: 0, spooledIn: [] },
    notes: opts.notes.inventory(),
    locks: [],
    hookErrors: [],
    hookErrorCount: 0,
    settings: [],
    hookLog: join(opts.notes.home, 'logs', 'hooks.log'),
  };
  if (report.mind.exists) {
    let m: Mind | undefined;
    try {
      m = Mind.open(mp, { readonly: true });
      const st = m.stats();
      report.mind.schemaVersion = st.schemaVersion;
      report.mind.frames = st.frames;
      report.mind.integrity = m.integrityCheck();
      report.mind.ok = report.mind.integrity.length === 1 && report.mind.integrity[0] === 'ok';
      report.mind.quarantined = m.list({ quarantinedOnly: true, limit: 50 }).map((f) => ({ id: f.id, threats: f.threats, createdAt: f.createdAt, host: f.host, preview: f.content.replace(/\s+/g, ' ').slice(0, 80) }));
      report.mind.pendingNotes = m.list({ kind: 'pending-note', limit: 1000 }).length;
    } catch (err) {
      report.mind.error = err instanceof Error ? err.message : String(err);
    } finally {
      m?.close();
    }
  }
  report.locks = opts.notes.locks();
  report.hookLog = existsSync(report.hookLog) ? report.hookLog : hooksLogPath(env);
  const tail = tailHookLog(report.hookLog, opts.maxHookErrors ?? 10);
  report.hookErrors = tail.lines;
  report.hookErrorCount = tail.count;
  report.settings = envProblems(env);
  const spool = pendingSpooled(mp);
  report.mind.spooled = spool.frames;
  report.mind.spooledIn = [...new Set(spool.files.map((f) => dirname(f)))];
  return report;
}

/**
 * Remove the stale notes locks ({@link readLock}: the holder died on this host, older than 30 s, or
 * recording no holder and older than 3 s), each renamed aside first so a lock taken meanwhile is
 * never removed (`breakLock`). Live locks are left alone and listed in `kept`. Part of `mind doctor --repair`.
 */
export function repairLocks(notes: Notes): { removed: Array<{ path: string } & LockState>; kept: Array<{ path: string } & LockState> } {
  const removed: Array<{ path: string } & LockState> = [];
  const kept: Array<{ path: string } & LockState> = [];
  for (const l of notes.locks()) {
    // read again just before: a lock released and taken again since the listing is someone's live lock
    const now = readLock(l.path);
    if (now?.stale && breakLock(l.path)) removed.push({ ...l, ...now });
    else if (now) kept.push({ ...l, ...now });
  }
  return { removed, kept };
}

/** What {@link repairMind} recovered. */
export interface RepairReport {
  source: string;
  dest: string;
  /** `vacuum-into`: the file was readable as a whole; `sqlite3-recover`: the sqlite3 CLI's `.recover`; `row-copy`: frame by frame. */
  method: 'vacuum-into' | 'sqlite3-recover' | 'row-copy';
  /** Frames in the new file after the repair (counted in it, not by the copy loop). */
  recovered: number;
  /** Frames recovered only from the full-text index (content and tags; metadata defaulted). */
  fromIndex: number;
  /** Frame ids that could not be read. */
  unreadable: number;
  /** Every problem SQLite reported on the way, one line each (the CLI prints the first 3 unless --verbose). */
  problems: string[];
}

const COLS = [
  'id', 'content', 'kind', 'importance', 'scope', 'source', 'host', 'session_id', 'turn_id', 'thread_key', 'workspace', 'tags', 'content_hash',
  'created_at', 'updated_at', 'expires_at', 'supersedes', 'superseded_by', 'quarantined', 'threats', 'redactions', 'part', 'parts', 'part_of',
];

/**
 * Recover what SQLite can read from a damaged .mind file into a NEW file (`dest`, default
 * `<source>.recovered-<timestamp>.mind`); the source is never modified (it is copied to a temp
 * directory first, with its WAL). Strategy: `VACUUM INTO` when the copy reads as a whole; else the
 * `sqlite3` CLI's `.recover` when that binary is installed; else row-by-row copy, with frames whose
 * row is unreadable salvaged from the FTS index. Content is redacted again on the way.
 * Throws `MindError('CORRUPT')` when nothing at all can be read (e.g. not a SQLite file).
 */
export function repairMind(source: string, dest?: string): RepairReport {
  if (!existsSync(source)) throw new MindError(`${source}: no such file`, 'IO', source);
  const out = dest ?? `${source.replace(/\.mind$/, '')}.recovered-${new Date().toISOString().replace(/[:.]/g, '-')}.mind`;
  if (existsSync(out)) throw new MindError(`${out}: already exists; refusing to overwrite it`, 'IO', out);
  const work = mkdtempSync(join(tmpdir(), 'hive-mind-repair-'));
  const problems: string[] = [];
  try {
    const copy = join(work, 'copy.mind');
    copyFileSync(source, copy);
    if (existsSync(`${source}-wal`)) copyFileSync(`${source}-wal`, `${copy}-wal`);
    const header = readFileSync(copy).subarray(0, 16).toString('latin1');
    if (header !== 'SQLite format 3\u0000') throw new MindError(`${source}: not a SQLite database (bad header); nothing can be recovered`, 'CORRUPT', source);
    // a truncated copy is padded with zero pages up to the size its header declares, so SQLite reads what is left
    const head = readFileSync(copy).subarray(0, 100);
    const pageSize = head.readUInt16BE(16) === 1 ? 65536 : head.readUInt16BE(16);
    const declared = head.readUInt32BE(28) * pageSize;
    const actual = statSync(copy).size;
    if (pageSize >= 512 && declared > actual) {
      truncateSync(copy, declared);
      problems.push(`file is truncated: ${actual} of ${declared} bytes; the missing pages read as empty`);
    }

    // 1. whole-file copy when it reads cleanly
    try {
      const db = new Database(copy);
      try {
        const ic = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check);
        if (ic.length === 1 && ic[0] === 'ok') {
          db.prepare('VACUUM INTO ?').run(out);
          db.close();
          const m = Mind.open(out);
          const n = m.stats().frames;
          m.close();
          return { source, dest: out, method: 'vacuum-into', recovered: n, fromIndex: 0, unreadable: 0, problems };
        }
        problems.push(...ic.map((l) => `integrity: ${l}`));
      } finally {
        if (db.open) db.close();
      }
    } catch (err) {
      problems.push(`whole-file read failed: ${(err as Error).message}`);
    }

    // 2. row-by-row copy from the damaged copy (writable_schema lets SQLite read a file shorter than its header says)
    const target = Mind.open(out);
    let totals = { recovered: 0, fromIndex: 0, unreadable: 0 };
    let method: RepairReport['method'] = 'row-copy';
    try {
      try {
        totals = copyRows(copy, target, problems);
      } catch (err) {
        problems.push(`row copy failed: ${(err as Error).message}`);
      }
      // 3. when the schema itself is unreadable: the sqlite3 CLI's .recover (SQLite's recovery extension), if installed
      if (totals.recovered === 0) {
        const rec = join(work, 'recovered.db');
        const dump = spawnSync('sqlite3', [copy, '.recover'], { encoding: 'utf8', maxBuffer: 1 << 30 });
        if (dump.status === 0 && dump.stdout) {
          spawnSync('sqlite3', [rec], { input: dump.stdout, encoding: 'utf8', maxBuffer: 1 << 30 });
          if (existsSync(rec)) {
            try {
              totals = copyRows(rec, target, problems);
              method = 'sqlite3-recover';
            } catch (err) {
              problems.push(`sqlite3 .recover output unreadable: ${(err as Error).message}`);
            }
          }
        } else if (dump.error) problems.push('sqlite3 CLI not available for .recover');
        else problems.push(`sqlite3 .recover failed: ${(dump.stderr || '').split('\n')[0]}`);
      }
      target.cleanup({ mode: 'reconcile' });
      // the report counts what the new file holds, not what the copy loops attempted
      totals.recovered = target.stats().frames;
    } finally {
      target.close();
    }
    const { recovered, fromIndex, unreadable } = totals;
    if (recovered === 0) problems.push('no frame could be read');
    return { source, dest: out, method, recovered, fromIndex, unreadable, problems };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Copy frames id by id from `srcPath` into `target`, salvaging unreadable rows from the FTS index. */
function copyRows(srcPath: string, target: Mind, problems: string[]): { recovered: number; fromIndex: number; unreadable: number } {
  let recovered = 0;
  let fromIndex = 0;
  let unreadable = 0;
  const src = new Database(srcPath);
  try {
    // better-sqlite3 runs in SQLite's defensive mode, which ignores writable_schema; this is a private copy
    src.unsafeMode(true);
    src.pragma('writable_schema = ON');
    const ins = target.database.prepare(`INSERT OR IGNORE INTO frames (${COLS.join(', ')}) VALUES (${COLS.map(() => '?').join(', ')})`);
    const now = new Date().toISOString();
    const defaults: Record<string, unknown> = {
      kind: 'fact', importance: 'normal', scope: 'personal', source: 'import', host: '', session_id: '', turn_id: '', thread_key: '', workspace: '',
      tags: '[]', created_at: now, updated_at: now, quarantined: 0, threats: '[]', redactions: '[]', part: 0, parts: 1,
    };
    const toRow = (r: Record<string, unknown>) => {
      const red = redactSecrets(String(r.content ?? ''));
      return COLS.map((c) => (c === 'content' ? red.text : c === 'content_hash' && !r[c] ? contentHash(red.text) : (r[c] ?? defaults[c] ?? null))) as unknown[];
    };
    let maxId = 0;
    const tryMax = (sql: string) => {
      try {
        maxId = Math.max(maxId, Number((src.prepare(sql).get() as { m: number | null } | undefined)?.m ?? 0));
      } catch (err) {
        problems.push(`${sql}: ${(err as Error).message}`);
      }
    };
    tryMax('SELECT max(id) AS m FROM frames');
    tryMax("SELECT seq AS m FROM sqlite_sequence WHERE name = 'frames'");
    tryMax('SELECT max(rowid) AS m FROM frames_fts');
    const one = src.prepare('SELECT * FROM frames WHERE id = ?');
    let fts: Database.Statement | undefined;
    try {
      fts = src.prepare('SELECT content, tags FROM frames_fts WHERE rowid = ?');
    } catch {
      fts = undefined;
    }
    const tx = target.database.transaction((from: number, to: number) => {
      for (let id = from; id <= to; id++) {
        let row: Record<string, unknown> | undefined;
        try {
          row = one.get(id) as Record<string, unknown> | undefined;
        } catch {
          row = undefined;
          unreadable++;
        }
        if (row && typeof row.content === 'string') {
          if (ins.run(...toRow(row)).changes) recovered++;
          continue;
        }
        if (!fts) continue;
        try {
          const f = fts.get(id) as { content: string; tags: string } | undefined;
          if (f?.content) {
            const tags = JSON.stringify(['recovered', ...String(f.tags ?? '').split(/\s+/).filter(Boolean)]);
            if (ins.run(...toRow({ id, content: f.content, tags })).changes) {
              fromIndex++;
              recovered++;
            }
          }
        } catch {
          /* unreadable in the index too */
        }
      }
    });
    for (let from = 1; from <= maxId; from += 1000) tx(from, Math.min(maxId, from + 999));
  } finally {
    src.close();
  }
  return { recovered, fromIndex, unreadable };
}
