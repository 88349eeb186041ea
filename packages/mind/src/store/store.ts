import type Database from 'better-sqlite3';
import { cleanupFrames, forgetFrame } from './cleanup.js';
import { StoreContext } from './context.js';
import { MindError } from '../errors.js';
import type {
  CleanupReport,
  Frame,
  FrameInput,
  Importance,
  MindOptions,
  MindStats,
  RecallOptions,
  RecallResult,
  SaveResult,
  SearchHit,
  SearchOptions,
  TokenCounter,
} from '../frame.js';
import { countFrames, frameHistory, getFrame, integrityCheck, listFrames, mindStats, quickCheck, setImportance, setQuarantined, type ListOptions } from './inspect.js';
import { restoreSnapshot, snapshotFrame, type FrameSnapshot } from './snapshot.js';
import { openDatabase } from './open.js';
import { recallFrames } from '../recall/recall.js';
import { prepareSave, saveOne } from './save.js';
import { searchFrames } from '../recall/search.js';
import { embedPendingFrames, embedQuery, searchHybridFrames, type EmbedReport, type HybridSearchOptions, type HybridSearchResult, type QueryEmbedding } from '../recall/vectors.js';
import { promptHits } from '../recall/prompt-floor.js';
import { promptEvidence, type EvidenceItem, type EvidenceOptions } from '../recall/evidence.js';
import { TeamLocal } from '../team/team-local.js';
import type { HistoryRetention } from '../history/history.js';
import { resolveOptions } from './validate.js';
import { keepStampHonest } from './redaction-stamp.js';


/**
 * A `.mind` file: frames with full-text search (FTS5, BM25), recall, cleanup.
 *
 * The facade over one file per job (paths under src/): `store/open.ts` (create, probe, migrate),
 * `store/validate.ts` (options and frame inputs), `store/context.ts` (the open file's state every
 * job shares), `store/save.ts` (the save pipeline), `recall/search.ts` (search and ranking),
 * `recall/recall.ts` (what is injected), `recall/prompt-floor.ts` and `recall/evidence.ts` (the
 * per-prompt recall), `recall/vectors.ts` (the embeddings plug-in), `store/cleanup.ts` (forget and
 * maintenance), `store/inspect.ts` (reads of frames and the file), `store/snapshot.ts` (a frame
 * taken and put back), `team/team-local.ts` (the team mind's local side).
 *
 * Concurrency: WAL journal, `busy_timeout`, and every write is one short `BEGIN IMMEDIATE`
 * transaction, so many processes (hooks, the MCP server, the CLI) can write one file at once.
 * Errors: {@link MindError} with `code` CORRUPT / SCHEMA_NEWER / NOT_MIND on open (the file is
 * never modified in those cases), INVALID / TOO_LARGE / EMPTY_QUERY / NOT_FOUND for bad input.
 */
export class Mind {
  readonly path: string;
  readonly readonly: boolean;
  readonly meter: TokenCounter;
  private readonly ctx: StoreContext;

  private constructor(ctx: StoreContext) {
    this.ctx = ctx;
    this.path = ctx.path;
    this.readonly = ctx.config.readonly;
    this.meter = ctx.config.meter;
  }

  /**
   * Open (creating when missing, unless `readonly`) the .mind file at `path`.
   * New files and their directory are created with modes 0600 / 0700. A new file appears to every
   * other process with its whole schema or not at all (built under a temporary name and linked into
   * place: `create.ts`, README "Creating a mind"), so processes may open a mind that does not exist
   * yet at the same moment.
   * Throws {@link MindError}: `INVALID` (a bad option, named; nothing opened), `CORRUPT` (not a
   * database, malformed or truncated; untouched), `SCHEMA_NEWER` (written by a newer hive-mind;
   * versions named), `NOT_MIND` (a SQLite file of another application; readonly: an empty file
   * without a schema that nothing writes, after a wait of at most the busy timeout while something
   * does), `IO` (missing file when readonly, permissions), `BUSY` (locked past the busy timeout).
   */
  static open(path: string, opts: MindOptions = {}): Mind {
    const config = resolveOptions(opts);
    return new Mind(new StoreContext(path, openDatabase(path, opts), config));
  }

  /**
   * SQLite's `PRAGMA quick_check(1)` over the whole file (O(file size), a few ms per MB). Read
   * commands that list or recall run this first: a query that never touches a damaged page returns
   * its rows silently. Throws `CORRUPT` naming the file and pointing at `hive-mind mind doctor --repair`.
   */
  quickCheck(): void {
    quickCheck(this.ctx);
  }

  /** Schema version stored in the file. */
  get schemaVersion(): number {
    return this.ctx.guard(() => this.ctx.db.pragma('user_version', { simple: true }) as number);
  }

  /**
   * Save one frame through the pipeline of `save.ts` (clean, size check, redact, threat scan, chunk,
   * idempotency, dedupe, insert, supersede) in one `BEGIN IMMEDIATE` transaction.
   * Throws `INVALID` (bad field, empty content), `TOO_LARGE` (over `maxContentBytes`), `NOT_FOUND`
   * (`supersedes` names a missing frame).
   */
  save(input: FrameInput): SaveResult {
    this.ctx.writable();
    const prepared = prepareSave(this.ctx, input, -1);
    return this.ctx.guard(() =>
      this.ctx.tx(() => {
        keepStampHonest(this.ctx);
        return saveOne(this.ctx, prepared);
      }),
    );
  }

  /** Save several frames in one transaction (all or nothing). Validation runs first for every input. */
  saveMany(inputs: FrameInput[]): SaveResult[] {
    this.ctx.writable();
    if (!Array.isArray(inputs)) throw new MindError('saveMany expects an array of frame inputs', 'INVALID');
    const prepared = inputs.map((inp, i) => prepareSave(this.ctx, inp, i));
    return this.ctx.guard(() =>
      this.ctx.tx(() => {
        keepStampHonest(this.ctx);
        return prepared.map((p) => saveOne(this.ctx, p));
      }),
    );
  }

  /**
   * One frame by id (including retired and quarantined ones), or undefined. For the first part of
   * a memory stored in several parts, `content` is the whole memory, byte for byte as saved (after
   * cleaning and redaction); a later part's id gives that part alone.
   */
  get(id: number): Frame | undefined {
    return getFrame(this.ctx, id);
  }

  /**
   * Older versions of frame `id`: frames still in the table whose `supersededBy` chain leads to
   * `id`, plus versions folded into the history table by cleanup. Oldest first.
   */
  history(id: number): Frame[] {
    return frameHistory(this.ctx, id);
  }

  /**
   * Full-text search (FTS5, BM25), re-ranked by the blended score (README "Ranking"). Excludes by
   * default temporary, deprecated, superseded, quarantined and expired frames.
   * Throws `EMPTY_QUERY` for a query with no words, `INVALID` for a bad option.
   */
  search(query: string, opts: SearchOptions = {}): SearchHit[] {
    return searchFrames(this.ctx, query, opts);
  }

  /**
   * Search with the embeddings plug-in when this mind was opened with `embeddings`: BM25 and
   * vector similarity fused by reciprocal rank (README "Embeddings (optional)"); the query is
   * embedded with up to 32 frames still without a vector. Without the plug-in, or when the
   * endpoint is down or answers badly, the BM25 ranking of {@link search} with `ranking: 'bm25'`
   * and a `notice` saying why. Throws what {@link search} throws.
   */
  searchHybrid(query: string, opts: HybridSearchOptions = {}): Promise<HybridSearchResult> {
    return searchHybridFrames(this.ctx, this.ctx.config.embeddings, query, opts);
  }

  /**
   * The vector of `query` from the embeddings plug-in, in one request bounded by `timeoutMs` (at
   * most the configured `timeoutMs`), with up to `backfill` (default 32; none when read-only)
   * frames still without a vector (stored). For several minds searched with one query: embed once,
   * pass the vector as `queryVector` to {@link searchHybrid} or {@link promptHits} of each.
   * Throws `INVALID` when the mind has no `embeddings`; an endpoint failure is `error`, never thrown.
   */
  embedQuery(query: string, opts: { backfill?: number; timeoutMs?: number; signal?: AbortSignal } = {}): Promise<QueryEmbedding> {
    const cfg = this.ctx.config.embeddings;
    if (!cfg) throw new MindError(`${this.path}: no embeddings configured (MindOptions.embeddings, or HIVE_MIND_EMBEDDINGS_URL and HIVE_MIND_EMBEDDINGS_MODEL)`, 'INVALID', this.path);
    return embedQuery(this.ctx, cfg, query, opts);
  }

  /**
   * The frames to inject for a prompt (README "Recall per prompt"): the search hits passing the
   * lexical floor, then, with `queryVector` (the prompt's, from {@link embedQuery}) and the plug-in,
   * the frames whose cosine passes the vector floor (`minCosine`, default `PROMPT_MIN_COSINE`), at
   * most 3 together, none of `exclude`. Pass them to {@link recall} as `hits`. Throws `EMPTY_QUERY`
   * (no searchable word and no vector) and `INVALID` for a bad option.
   */
  promptHits(prompt: string, opts: { queryVector?: Float32Array; minCosine?: number; scopes?: SearchOptions['scopes']; exclude?: readonly number[] } = {}): SearchHit[] {
    return promptHits(this.ctx, prompt, opts);
  }

  /**
   * The evidence for a prompt from this mind's history and standing memory (README "Recall per
   * prompt", evidence.ts): the turns and frames that pass the floor, each with the neighbouring turn
   * that makes it readable and its date, rendered as lines cut at sentence boundaries, strongest
   * first, none of `exclude` and no turn of `session`. Give the caller's budget with
   * `evidenceBudget(best strength, cap)`. Throws `INVALID` for a bad option; a prompt with no topic
   * word gives [].
   */
  promptEvidence(prompt: string, opts: EvidenceOptions = {}): EvidenceItem[] {
    return promptEvidence(this.ctx, prompt, opts);
  }

  /**
   * Compute the vectors of frames that have none (the backfill), at most `limit`, only `ids` when
   * given (what a save just stored); see vectors.ts.
   * Throws `INVALID` when the mind has no `embeddings` configured or is read-only; an endpoint
   * failure is reported in the result, never thrown, and nothing stored is lost.
   */
  embedPending(opts: { limit?: number; ids?: readonly number[]; signal?: AbortSignal } = {}): Promise<EmbedReport> {
    const cfg = this.ctx.config.embeddings;
    if (!cfg) throw new MindError(`${this.path}: no embeddings configured (MindOptions.embeddings, or HIVE_MIND_EMBEDDINGS_URL and HIVE_MIND_EMBEDDINGS_MODEL)`, 'INVALID', this.path);
    return embedPendingFrames(this.ctx, cfg, opts);
  }

  /** True when this mind was opened with the embeddings plug-in. */
  get embeddingsConfigured(): boolean {
    return this.ctx.config.embeddings !== undefined;
  }

  /**
   * A block ready to inject into a model's context, never longer than `budgetTokens` tokens
   * (counted with this mind's TokenMeter); see `recall.ts` and README "Recall".
   */
  recall(opts: RecallOptions): RecallResult {
    return recallFrames(this.ctx, opts);
  }

  /**
   * Delete frame `id`, every older version it superseded (still in the table or folded into
   * history), and its parts when it was chunked. Returns false when no such frame exists.
   */
  forget(id: number): boolean {
    return forgetFrame(this.ctx, id);
  }

  /** Clear or set the quarantine flag of a frame (after a human reviewed it). Returns false when missing. */
  setQuarantined(id: number, quarantined: boolean): boolean {
    return setQuarantined(this.ctx, id, quarantined);
  }

  /** Frames, most recently updated first, filtered by {@link ListOptions}. Throws `INVALID` for a bad option. */
  list(opts: ListOptions = {}): Frame[] {
    return listFrames(this.ctx, opts);
  }

  /** How many frames {@link Mind.list} pages through with these filters. Throws `INVALID` for a bad option. */
  count(opts: ListOptions = {}): number {
    return countFrames(this.ctx, opts);
  }

  /** Set a frame's importance (a person's correction). Returns the previous level, or undefined when missing. Throws `INVALID` for an unknown level. */
  setImportance(id: number, importance: Importance): Importance | undefined {
    return setImportance(this.ctx, id, importance);
  }

  /**
   * The stored rows of frame `id` (with `versions`: also what {@link Mind.forget} would delete),
   * for an undo through {@link Mind.restore}; undefined when missing. See `snapshot.ts`.
   */
  snapshot(id: number, opts: { versions?: boolean } = {}): FrameSnapshot | undefined {
    return snapshotFrame(this.ctx, id, opts);
  }

  /** Put a {@link Mind.snapshot} back exactly (ids, times, index). Returns the frame rows written. */
  restore(snap: FrameSnapshot): number {
    return restoreSnapshot(this.ctx, snap);
  }

  /**
   * Maintenance (`compact` or `reconcile`), in short transactions; `history` is the retention of the
   * history turns (default `DEFAULT_HISTORY_RETENTION`; the hooks and the CLI pass `historyRetention(env)`).
   * See `cleanup.ts` and README "Cleanup". Throws `INVALID` for a bad option.
   */
  cleanup(opts: { mode?: 'compact' | 'reconcile'; now?: Date; history?: HistoryRetention } = {}): CleanupReport {
    return cleanupFrames(this.ctx, opts);
  }

  /** Counts and sizes. */
  stats(): MindStats {
    return mindStats(this.ctx);
  }

  /** `PRAGMA integrity_check` result lines (`['ok']` when healthy), plus the FTS5 integrity check. */
  integrityCheck(): string[] {
    return integrityCheck(this.ctx);
  }

  /**
   * The local side of team `name` in this mind: its outbox and pulled cache (team-local.ts; the
   * server side is `@hive-mind/team`). Throws `INVALID` for a bad team name.
   */
  team(name: string): TeamLocal {
    return new TeamLocal(this.ctx, (input) => this.save(input), name);
  }

  /** The underlying better-sqlite3 handle (advanced use: benchmarks, repair). */
  get database(): Database.Database {
    return this.ctx.db;
  }

  close(): void {
    if (this.ctx.db.open) this.ctx.db.close();
  }
}
