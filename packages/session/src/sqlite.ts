import Database from 'better-sqlite3';
import type { SessionEvent } from './events.js';
import { SessionError } from './errors.js';
import { BaseSessionLog } from './log.js';

/** Options of {@link SqliteSessionLog.open}. */
export interface SqliteLogOptions {
  /** Session id stored in the file on creation; when reopening, the stored id wins. Default: the file name. */
  id?: string;
  /** SQLite `journal_mode`. Default `WAL`. */
  journalMode?: 'WAL' | 'DELETE' | 'TRUNCATE' | 'PERSIST' | 'MEMORY' | 'OFF';
  /** `busy_timeout` in milliseconds. Default 5000. */
  busyTimeoutMs?: number;
}

const SCHEMA_VERSION = 1;

/**
 * A session log persisted in a SQLite file (better-sqlite3). Every `append` batch
 * is one transaction: after a crash the file holds whole batches only.
 * Throws {@link SessionError} (`code: 'SCHEMA'`) for a file written by a newer schema.
 */
export class SqliteSessionLog extends BaseSessionLog {
  private readonly insert: Database.Statement;

  private constructor(
    id: string,
    private readonly db: Database.Database,
  ) {
    super(id);
    this.insert = db.prepare('INSERT INTO events (seq, type, ts, body) VALUES (?, ?, ?, ?)');
  }

  /** Open (or create) a log at `path`. Loads and folds the stored events. */
  static open(path: string, opts: SqliteLogOptions = {}): SqliteSessionLog {
    const db = new Database(path);
    try {
      db.pragma(`journal_mode = ${opts.journalMode ?? 'WAL'}`);
      db.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? 5000}`);
      db.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, ts TEXT NOT NULL, body TEXT NOT NULL);`);
      const getMeta = db.prepare('SELECT value FROM meta WHERE key = ?');
      const ver = getMeta.get('schema_version') as { value: string } | undefined;
      if (ver && Number(ver.value) > SCHEMA_VERSION) {
        throw new SessionError(`${path}: session log schema ${ver.value} is newer than supported ${SCHEMA_VERSION}`, 'SCHEMA');
      }
      const setMeta = db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)');
      setMeta.run('schema_version', String(SCHEMA_VERSION));
      setMeta.run('session_id', opts.id ?? path.replace(/^.*[\\/]/, ''));
      const id = (getMeta.get('session_id') as { value: string }).value;
      const log = new SqliteSessionLog(id, db);
      const rows = db.prepare('SELECT body FROM events ORDER BY seq').iterate() as Iterable<{ body: string }>;
      log.load((function* () {
        for (const r of rows) yield JSON.parse(r.body) as SessionEvent;
      })());
      return log;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  protected persist(batch: SessionEvent[]): void {
    const tx = this.db.transaction((evs: SessionEvent[]) => {
      for (const e of evs) this.insert.run(e.seq, e.type, e.ts, JSON.stringify(e));
    });
    tx(batch);
  }

  override close(): void {
    if (this.db.open) this.db.close();
  }
}
