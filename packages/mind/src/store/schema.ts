import type Database from 'better-sqlite3';
import { indexText } from '../recall/analyze.js';
import { MindError } from '../errors.js';
import { HISTORY_KINDS_SQL } from '../history/history.js';
import { ftsRowOf, ftsTriggers } from './sql.js';
import { presetStamp } from '../safety/redact.js';

/** Current schema version (stored in SQLite's `PRAGMA user_version`). */
export const SCHEMA_VERSION = 9;

/** The `meta` row of the redaction stamp (redaction-stamp.ts), written by migration v8 -> v9. */
export const REDACTION_STAMP_KEY = 'redacted_with';

/** Marker in the `meta` table that identifies a .mind file. */
export const APP_ID = 'hive-mind';

/**
 * Migrations, one named step per version (`migrateV0ToV1` … `migrateV8ToV9`): `MIGRATIONS[i]`
 * upgrades a file from version `i` to `i + 1`. Each runs inside one `BEGIN IMMEDIATE` transaction
 * together with the `user_version` bump, so a crash leaves the file at the old or the new version,
 * never in between.
 */
export const MIGRATIONS: Array<(db: Database.Database) => void> = [
  // v0 -> v1: the meta table, the frames and their FTS index
  function migrateV0ToV1(db: Database.Database): void {
    db.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE frames (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        content TEXT NOT NULL,
        kind TEXT NOT NULL DEFAULT 'fact',
        importance TEXT NOT NULL CHECK (importance IN ('critical','important','normal','temporary','deprecated')),
        scope TEXT NOT NULL CHECK (scope IN ('personal','workspace','thread','team')),
        source TEXT NOT NULL CHECK (source IN ('user_stated','tool_verified','agent_inferred','import')),
        host TEXT NOT NULL DEFAULT '',
        session_id TEXT NOT NULL DEFAULT '',
        turn_id TEXT NOT NULL DEFAULT '',
        thread_key TEXT NOT NULL DEFAULT '',
        workspace TEXT NOT NULL DEFAULT '',
        tags TEXT NOT NULL DEFAULT '[]',
        content_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        expires_at TEXT,
        supersedes INTEGER,
        superseded_by INTEGER,
        quarantined INTEGER NOT NULL DEFAULT 0,
        threats TEXT NOT NULL DEFAULT '[]',
        redactions TEXT NOT NULL DEFAULT '[]',
        part INTEGER NOT NULL DEFAULT 0,
        parts INTEGER NOT NULL DEFAULT 1,
        part_of INTEGER
      );
      CREATE UNIQUE INDEX frames_turn ON frames(host, session_id, turn_id, kind, part) WHERE turn_id <> '';
      CREATE INDEX frames_hash ON frames(content_hash);
      CREATE INDEX frames_importance ON frames(importance, updated_at);
      CREATE INDEX frames_kind ON frames(kind, created_at);
      CREATE INDEX frames_superseded ON frames(superseded_by) WHERE superseded_by IS NOT NULL;
      CREATE INDEX frames_quarantined ON frames(quarantined) WHERE quarantined <> 0;
      CREATE VIRTUAL TABLE frames_fts USING fts5(content, tags, tokenize = 'porter unicode61');
      CREATE TRIGGER frames_ai AFTER INSERT ON frames BEGIN
        INSERT INTO frames_fts(rowid, content, tags)
        VALUES (new.id, new.content, (SELECT coalesce(group_concat(value, ' '), '') FROM json_each(new.tags)));
      END;
      CREATE TRIGGER frames_ad AFTER DELETE ON frames BEGIN
        DELETE FROM frames_fts WHERE rowid = old.id;
      END;
      CREATE TRIGGER frames_au AFTER UPDATE OF content, tags ON frames BEGIN
        DELETE FROM frames_fts WHERE rowid = old.id;
        INSERT INTO frames_fts(rowid, content, tags)
        VALUES (new.id, new.content, (SELECT coalesce(group_concat(value, ' '), '') FROM json_each(new.tags)));
      END;
      CREATE TABLE frame_history (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        head_id INTEGER NOT NULL,
        frame_id INTEGER NOT NULL,
        frame_json TEXT NOT NULL,
        folded_at TEXT NOT NULL
      );
      CREATE INDEX history_head ON frame_history(head_id);
    `);
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('app', APP_ID);
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('created_at', new Date().toISOString());
  },
  // v1 -> v2: `search_text`, what the FTS index reads instead of `content` when the content holds
  // scripts unicode61 cannot split (analyze.ts `indexText`); existing frames are segmented here.
  // `frames_session` finds a conversation turn's neighbours.
  function migrateV1ToV2(db: Database.Database): void {
    db.exec(`
      ALTER TABLE frames ADD COLUMN search_text TEXT;
      DROP TRIGGER frames_ai;
      DROP TRIGGER frames_au;
      CREATE TRIGGER frames_ai AFTER INSERT ON frames BEGIN
        INSERT INTO frames_fts(rowid, content, tags)
        VALUES (new.id, coalesce(new.search_text, new.content), (SELECT coalesce(group_concat(value, ' '), '') FROM json_each(new.tags)));
      END;
      CREATE TRIGGER frames_au AFTER UPDATE OF content, tags, search_text ON frames BEGIN
        DELETE FROM frames_fts WHERE rowid = old.id;
        INSERT INTO frames_fts(rowid, content, tags)
        VALUES (new.id, coalesce(new.search_text, new.content), (SELECT coalesce(group_concat(value, ' '), '') FROM json_each(new.tags)));
      END;
      CREATE INDEX frames_session ON frames(session_id, id) WHERE session_id <> '';
    `);
    const set = db.prepare('UPDATE frames SET search_text = ? WHERE id = ?');
    const page = db.prepare('SELECT id, content FROM frames WHERE id > ? ORDER BY id LIMIT 1000');
    for (let last = 0; ; ) {
      const rows = page.all(last) as Array<{ id: number; content: string }>;
      if (!rows.length) break;
      for (const r of rows) {
        const t = indexText(r.content);
        if (t !== null) set.run(t, r.id);
      }
      last = rows[rows.length - 1]!.id;
    }
  },
  // v2 -> v3: recall without a query lists important/normal frames newest first by when they were
  // stated; without this index that was a sort of every normal frame (136 ms at 100k frames)
  function migrateV2ToV3(db: Database.Database): void {
    db.exec('CREATE INDEX frames_importance_created ON frames(importance, created_at)');
  },
  // v3 -> v4: the FTS index gains a third column, `context`: the text of the turns around a frame in
  // its session (sql.ts `contextOf`), searched with a lower BM25 weight (README "Ranking"); FTS5
  // cannot add a column, so the index is rebuilt
  function migrateV3ToV4(db: Database.Database): void {
    db.exec(`
      DROP TRIGGER frames_ai;
      DROP TRIGGER frames_ad;
      DROP TRIGGER frames_au;
      DROP TABLE frames_fts;
      CREATE VIRTUAL TABLE frames_fts USING fts5(content, tags, context, tokenize = 'porter unicode61');
      ${ftsTriggers()}
      INSERT INTO frames_fts(rowid, content, tags, context) SELECT ${ftsRowOf('f')} FROM frames f;
    `);
  },
  // v4 -> v5: the FTS triggers again, their neighbour lookups now able to use the partial index
  // `frames_session` (v4's scanned the table: a save cost O(frames)); `frame_vectors`, the optional
  // embeddings plug-in's vectors (vectors.ts), dropped with their frame or when its content changes
  function migrateV4ToV5(db: Database.Database): void {
    db.exec(`
      DROP TRIGGER frames_ai;
      DROP TRIGGER frames_ad;
      DROP TRIGGER frames_au;
      ${ftsTriggers()}
      CREATE TABLE frame_vectors (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        frame_id INTEGER NOT NULL,
        model TEXT NOT NULL,
        dims INTEGER NOT NULL,
        vector BLOB NOT NULL,
        UNIQUE (frame_id, model)
      );
      CREATE TRIGGER frames_vectors_ad AFTER DELETE ON frames BEGIN
        DELETE FROM frame_vectors WHERE frame_id = old.id;
      END;
      CREATE TRIGGER frames_vectors_au AFTER UPDATE OF content ON frames BEGIN
        DELETE FROM frame_vectors WHERE frame_id = old.id;
      END;
    `);
  },
  // v5 -> v6: the `team` scope (frames shared through a team server, README "Team mind") and the
  // local side of team sync (team-local.ts): the outbox, the map of team frame ids, the pull cursor.
  // SQLite cannot alter a CHECK constraint, so `frames` is rebuilt (SQLite's documented 12-step
  // procedure, https://www.sqlite.org/lang_altertable.html#otheralter): ids, and so the FTS rows keyed
  // by them, are kept, and the AUTOINCREMENT counter too (a forgotten id is never reused).
  function migrateV5ToV6(db: Database.Database): void {
    // a file created by this version already allows `team` (v0 above): only older files are rebuilt
    const ddl = (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'frames'").get() as { sql: string }).sql;
    if (!ddl.includes("'team'")) rebuildFramesForTeamScope(db);
    db.exec(TEAM_TABLES);
  },
  // v6 -> v7: emoji are indexed (analyze.ts `indexText` gives their tokens). Every frame's content is
  // read, but only those holding a pictograph go through indexText and only those whose index text
  // changes are written: a file without emoji is read, not rewritten (bench/emoji-migration.mjs; a
  // GLOB or instr() prefilter inside SQLite was slower than this scan)
  function migrateV6ToV7(db: Database.Database): void {
    const set = db.prepare('UPDATE frames SET search_text = ? WHERE id = ?');
    const changed: Array<[string | null, number]> = [];
    for (const r of db.prepare('SELECT id, content, search_text FROM frames').iterate() as IterableIterator<{ id: number; content: string; search_text: string | null }>) {
      if (!MAY_HOLD_EMOJI.test(r.content)) continue;
      const t = indexText(r.content);
      if (t !== r.search_text) changed.push([t, r.id]);
    }
    for (const [t, id] of changed) set.run(t, id);
  },
  // v7 -> v8: the history (history.ts). `cwd`, the working folder a turn was said in; the turns of a
  // session in the order they were said (`frames_turn_order`: createdAt, then id, so a turn imported
  // or replayed later sits where it was said) and found again by their content (`frames_turn_hash`:
  // a live-captured turn and the same turn imported later are one); only turns are conversation
  // neighbours. The FTS index is rebuilt contentless: it held a second copy of every frame's text and
  // of its neighbours' (about half the file for short turns), which nothing reads back
  function migrateV7ToV8(db: Database.Database): void {
    // a file a test (or a downgrade) marked older than it is already has the column
    const cols = (db.prepare("SELECT name FROM pragma_table_info('frames')").all() as Array<{ name: string }>).map((r) => r.name);
    if (!cols.includes('cwd')) db.exec("ALTER TABLE frames ADD COLUMN cwd TEXT NOT NULL DEFAULT ''");
    db.exec(`
      DROP TRIGGER IF EXISTS frames_ai;
      DROP TRIGGER IF EXISTS frames_ad;
      DROP TRIGGER IF EXISTS frames_au;
      DROP TABLE IF EXISTS frames_fts;
      DROP INDEX IF EXISTS frames_session;
      DROP INDEX IF EXISTS frames_turn_order;
      DROP INDEX IF EXISTS frames_turn_hash;
      CREATE INDEX frames_turn_order ON frames(session_id, created_at, id) WHERE kind IN (${HISTORY_KINDS_SQL}) AND session_id <> '';
      CREATE INDEX frames_turn_hash ON frames(session_id, content_hash) WHERE kind IN (${HISTORY_KINDS_SQL}) AND session_id <> '';
      ${FTS_TABLE}
      ${ftsTriggers()}
      INSERT INTO frames_fts(rowid, content, tags, context) SELECT ${ftsRowOf('f')} FROM frames f;
    `);
  },
  // v8 -> v9: the redaction stamp (redaction-stamp.ts): a file without frames (a new one) is stamped
  // with the current rule set, so what is saved into it is read back without a second pass of the
  // preset; a file with frames from before keeps none and is redacted in full when read. The version
  // bump itself keeps older hive-mind versions (which would not clear the stamp) from writing here
  function migrateV8ToV9(db: Database.Database): void {
    if (db.prepare('SELECT 1 FROM frames LIMIT 1').get()) return;
    db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(REDACTION_STAMP_KEY, presetStamp());
  },
];

/** The FTS5 index of the frames since v8: contentless (the text lives in `frames` only), rows deleted by rowid. */
const FTS_TABLE = "CREATE VIRTUAL TABLE frames_fts USING fts5(content, tags, context, content = '', contentless_delete = 1, tokenize = 'porter unicode61');";

/**
 * Bring the open file `db` (at `path`, named in errors) to {@link SCHEMA_VERSION}: one
 * `BEGIN IMMEDIATE` transaction that re-reads `user_version` under the write lock (another process
 * may have migrated meanwhile, so racing openers migrate once) and runs the missing
 * {@link MIGRATIONS} in order, each with its `user_version` bump. Nothing is written when the file
 * is current.
 * @throws MindError `SCHEMA_NEWER` when the file's version is above {@link SCHEMA_VERSION}; SQLite's
 *   error (BUSY past the busy timeout, I/O) otherwise, the transaction rolled back.
 */
export function migrateSchema(db: Database.Database, path: string): void {
  if ((db.pragma('user_version', { simple: true }) as number) >= SCHEMA_VERSION) return;
  db.transaction(() => {
    let v = db.pragma('user_version', { simple: true }) as number;
    if (v > SCHEMA_VERSION) throw new MindError(`${path}: .mind schema version ${v} is newer than supported (${SCHEMA_VERSION})`, 'SCHEMA_NEWER', path);
    while (v < SCHEMA_VERSION) {
      MIGRATIONS[v]!(db);
      v++;
      db.pragma(`user_version = ${v}`);
    }
  }).immediate();
}

/** Text that may hold an emoji (analyze.ts decides exactly which sequences). */
const MAY_HOLD_EMOJI = /[\p{Extended_Pictographic}\p{Regional_Indicator}]/u;

/** The local tables of team sync (team-local.ts), added by v6. */
const TEAM_TABLES = `
      CREATE TABLE team_frames (
        frame_uid TEXT PRIMARY KEY,
        team TEXT NOT NULL,
        frame_id INTEGER,
        member TEXT NOT NULL,
        machine TEXT NOT NULL,
        host TEXT NOT NULL DEFAULT '',
        session_id TEXT NOT NULL DEFAULT '',
        server_seq INTEGER
      );
      CREATE INDEX team_frames_frame ON team_frames(frame_id);
      CREATE TABLE team_outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        team TEXT NOT NULL,
        event_uid TEXT NOT NULL UNIQUE,
        op TEXT NOT NULL CHECK (op IN ('save','forget')),
        frame_uid TEXT NOT NULL,
        payload TEXT,
        created_at TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending','rejected','held')),
        reason TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_attempt_at TEXT
      );
      CREATE INDEX team_outbox_team ON team_outbox(team, state, id);
      CREATE TABLE team_state (team TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (team, key));
`;

/**
 * v6 on a file made before it: `frames` again with `team` in its scope CHECK (see MIGRATIONS[5]),
 * from the file's own definitions: the table's DDL with the wider CHECK, then its indexes and
 * triggers (FTS, vectors) as they were.
 */
function rebuildFramesForTeamScope(db: Database.Database): void {
  const seq = (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'frames'").get() as { seq: number } | undefined)?.seq ?? 0;
  const ddl = (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'frames'").get() as { sql: string }).sql;
  const wider = ddl.replace("CHECK (scope IN ('personal','workspace','thread'))", "CHECK (scope IN ('personal','workspace','thread','team'))");
  if (wider === ddl) throw new Error("schema v6: the frames table has no scope CHECK of the form this migration widens; refusing to rebuild it");
  const dependents = db.prepare("SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = 'frames' AND sql IS NOT NULL").all() as Array<{ type: string; name: string; sql: string }>;
  const cols = (db.prepare("SELECT name FROM pragma_table_info('frames')").all() as Array<{ name: string }>).map((r) => r.name).join(', ');
  // triggers first: none may fire while the rows move (DELETE triggers would empty the FTS index)
  for (const d of dependents) if (d.type === 'trigger') db.exec(`DROP TRIGGER "${d.name}"`);
  db.exec(`
    ${wider.replace(/^CREATE TABLE "?frames"?/, 'CREATE TABLE frames_v6')};
    INSERT INTO frames_v6 (${cols}) SELECT ${cols} FROM frames;
    DROP TABLE frames;
    ALTER TABLE frames_v6 RENAME TO frames;
  `);
  for (const d of dependents) db.exec(d.sql);
  if (seq > 0 && db.prepare("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'frames'").run(seq).changes === 0)
    db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('frames', ?)").run(seq);
}
