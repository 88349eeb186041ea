import type { EmbeddingsConfig } from './recall/embeddings.js';
import { estimateTokens } from './estimate.js';

/** The frame model: what a caller saves and reads back, the option shapes of {@link Mind}, and the row mapping. */

/** How much a frame matters. `temporary` frames expire; `deprecated` ones are kept only for history. */
export type Importance = 'critical' | 'important' | 'normal' | 'temporary' | 'deprecated';
/** Where a frame applies. `team` frames are shared through a team server (team-local.ts, @hive-mind/team). */
export type Scope = 'personal' | 'workspace' | 'thread' | 'team';
/** Who vouches for a frame. */
export type FrameSource = 'user_stated' | 'tool_verified' | 'agent_inferred' | 'import';

export const IMPORTANCES: readonly Importance[] = ['critical', 'important', 'normal', 'temporary', 'deprecated'];
export const SCOPES: readonly Scope[] = ['personal', 'workspace', 'thread', 'team'];
export const SOURCES: readonly FrameSource[] = ['user_stated', 'tool_verified', 'agent_inferred', 'import'];

/** What a caller passes to {@link Mind.save}. Only `content` is required. */
export interface FrameInput {
  content: string;
  /**
   * Free label, 1–64 characters: 'fact' (default), 'decision', 'preference', 'instruction', 'error', 'file', 'outcome', 'note',
   * 'pending-note'...; 'prompt' and 'reply' are the turns of the history (history.ts: the user's words and the agent's, kept
   * whole with their session, never deduplicated against other frames, never recalled at session start).
   */
  kind?: string;
  /** Default 'normal'. */
  importance?: Importance;
  /** Default 'personal'. */
  scope?: Scope;
  /** Default 'agent_inferred'. */
  source?: FrameSource;
  host?: string;
  sessionId?: string;
  /** With host, sessionId and kind: the idempotency key. A second save with the same key returns the first frame. */
  turnId?: string;
  threadKey?: string;
  workspace?: string;
  /** The working folder the frame was said in (a history turn's `cwd`), absolute; '' when unknown. At most 4,096 characters. */
  cwd?: string;
  /** ISO 8601 time after which the frame is excluded from search/recall and deleted by cleanup. */
  expiresAt?: string | null;
  /** Id of a frame this one replaces: the older frame is retired (kept in history, no longer recalled). */
  supersedes?: number | null;
  tags?: string[];
  /**
   * ISO 8601 time the frame's content originated (e.g. the transcript event's timestamp when
   * importing a session). Default: now. Stored as `createdAt` (UTC); `updatedAt` is still the time
   * of the save. Must parse as a date and not lie in the future by more than a day.
   */
  createdAt?: string;
}

/** A stored frame. Times are ISO 8601 UTC strings. */
export interface Frame {
  id: number;
  content: string;
  kind: string;
  importance: Importance;
  scope: Scope;
  source: FrameSource;
  host: string;
  sessionId: string;
  turnId: string;
  threadKey: string;
  workspace: string;
  /** The working folder it was said in ('' when unknown). */
  cwd: string;
  expiresAt: string | null;
  supersedes: number | null;
  tags: string[];
  contentHash: string;
  createdAt: string;
  updatedAt: string;
  quarantined: boolean;
  /** Threat ids from {@link scanThreats} (non-empty iff quarantined at save time). */
  threats: string[];
  /** Redaction types applied before storage (the secrets themselves are never stored). */
  redactions: string[];
  supersededBy: number | null;
  /** 0-based part index when long content was chunked; 0 otherwise. */
  part: number;
  /** Number of parts (1 when not chunked). */
  parts: number;
  /** Id of part 0 for parts 1..n-1 of a chunked save; null otherwise. */
  partOf: number | null;
}

/** Result of one {@link Mind.save}. */
export interface SaveResult {
  /** The frame id (for a chunked save: the id of part 0). */
  id: number;
  /**
   * `inserted`: new frame; `duplicate`: same normalized content already live (its id is returned,
   * importance raised when the new one was higher); `idempotent`: same (host, session, turn, kind)
   * was already saved; `quarantined`: stored but flagged by the threat scan.
   */
  status: 'inserted' | 'duplicate' | 'idempotent' | 'quarantined';
  redactions: string[];
  threats: string[];
  /** Ids of every part when the content was chunked (length > 1), else `[id]`. */
  ids: number[];
  /** Notes about the input: NUL characters removed, invalid UTF-16/UTF-8 replaced, chunking. */
  notices: string[];
}

/**
 * A search hit: the frame, the blended score (README "Ranking": 0 to 1.3, and an exact lookup adds up to 1), the
 * raw FTS5 bm25 (lower is better), and `matched`: the share (0-1) of the query's words found in it.
 */
export type SearchHit = Frame & { score: number; bm25: number; matched: number };

/** Options of {@link Mind.search}. */
export interface SearchOptions {
  /** Maximum hits, 1–1000. Default 10. */
  limit?: number;
  /** Default: all scopes. */
  scopes?: Scope[];
  /** Include temporary frames. Default false. */
  includeTemporary?: boolean;
  /** Include quarantined frames. Default false. */
  includeQuarantined?: boolean;
  /** Include deprecated and superseded frames. Default false. */
  includeRetired?: boolean;
}

/** Options of {@link Mind.recall}. */
export interface RecallOptions {
  query?: string;
  /** The hard budget in tokens (counted by the mind's TokenMeter). The text never exceeds it. */
  budgetTokens: number;
  scopes?: Scope[];
  /**
   * With a query: recall only frames holding at least this share (0-1) of the query's words
   * (`SearchHit.matched`), and leave out the critical frames that otherwise follow the hits (the
   * per-prompt recall of the hooks). Default: no floor, critical frames follow.
   */
  minMatched?: number;
  /**
   * With a query: recall only the hits that pass the per-prompt relevance floor (prompt-floor.ts:
   * half of the prompt's topic words, BM25 within 0.7 of the best hit's, at most 3), and nothing
   * else (the per-prompt recall of the hooks). Default false.
   */
  promptFloor?: boolean;
  /**
   * With a query: the hits to recall for it, chosen by the caller (the hybrid search
   * `Mind.searchHybrid`, the per-prompt `Mind.promptHits`), in place of the BM25 search, in order and
   * as they are (no `minMatched` or floor is applied to them; with either option, nothing else follows).
   */
  hits?: readonly SearchHit[];
  /**
   * Start the block with its own line saying what it is ({@link RECALL_HEADER}: earlier sessions,
   * data, not instructions). False where the caller frames the block itself (the hooks'
   * `frameInjection`, which says it once for the whole injection). Default true.
   */
  header?: boolean;
  /** Frame ids not to recall (already injected in this session). */
  exclude?: readonly number[];
  /** Characters of one item at most (a longer memory is cut and points to `get_memory`). Default 600. */
  itemChars?: number;
  /** Pending notes (`pending-note` frames) recalled at most. Default 2. */
  maxPending?: number;
  /**
   * Without a query (or after its hits): list only the `rules` (critical frames, pending notes,
   * instructions, preferences, decisions) or only the `facts` (other important frames, normal facts
   * and environment facts), or only what is `important` (critical frames, pending notes, then every
   * important standing frame, rules first: what SessionStart puts ahead of any normal frame).
   * Default: rules then facts (recall.ts).
   */
  section?: 'rules' | 'facts' | 'important';
  /**
   * The store this mind is to the reader, as the MCP `get_memory` tool's `mind` argument takes it
   * (`personal` | `workspace`): a cut or multi-part item then points to `get_memory id N mind NAME`.
   * Default: the pointer names no store.
   */
  mindName?: 'personal' | 'workspace';
}

/** A block ready to inject: `tokens <= budgetTokens` always. `frames` are the frames it shows, in order. */
export interface RecallResult {
  text: string;
  tokens: number;
  frames: Frame[];
  /** Frames left out because the recall-time threat scan flagged them. */
  droppedByScan: number[];
  /**
   * Frames that matched but were left out: those that did not fit in the budget, plus
   * {@link RecallResult.pastListLimit}.
   */
  omitted: number;
  /**
   * Of `omitted`, the live frames past the end of a list of a recall without a query or beside it
   * (each list, critical, important and recent normal, holds at most `RECALL_LIST_LIMIT` = 120
   * frames); counted with a count query, never read.
   */
  pastListLimit: number;
}

/** Counts of one {@link Mind.cleanup} run. */
export interface CleanupReport {
  mode: 'compact' | 'reconcile';
  /** Temporary frames past their TTL and any frame past its `expiresAt`, deleted. */
  expired: number;
  /** Deprecated frames not updated for `deprecatedDays`, deleted. */
  deprecatedDeleted: number;
  /** History turns past the retention (too old, or beyond the newest `maxTurns`), deleted with their parts. */
  historyDeleted: number;
  /** Superseded frames moved into the history table of their live head. */
  folded: number;
  /** Frames that were missing from the FTS index and were indexed. */
  reindexed: number;
  /** FTS rows with no frame, removed. */
  orphansRemoved: number;
  durationMs: number;
}

/** Numbers for `stats` and `doctor`. */
export interface MindStats {
  path: string;
  schemaVersion: number;
  frames: number;
  live: number;
  byImportance: Record<Importance, number>;
  byKind: Record<string, number>;
  quarantined: number;
  superseded: number;
  history: number;
  ftsRows: number;
  fileBytes: number;
  walBytes: number;
  oldest: string | null;
  newest: string | null;
}

/** Ranking weights of the blended score (see README "Ranking"). */
export interface RankingWeights {
  relevance: number;
  importance: number;
  recency: number;
  /** Recency half-life in days. */
  halfLifeDays: number;
}

/** Options of {@link Mind.open}. */
export interface MindOptions {
  /** Open read-only (never creates, migrates or writes). Default false. */
  readonly?: boolean;
  /** SQLite `busy_timeout` in ms: how long a writer waits for another process's lock. Default 30000. */
  busyTimeoutMs?: number;
  /**
   * Token meter for recall budgets: anything with `countText`, such as a `TokenMeter` from
   * @hive-mind/compaction (the mind does not depend on that package). Default: {@link ESTIMATE_METER},
   * a script-aware estimate that never counts fewer tokens than o200k_base on typical text, without
   * loading a tokenizer.
   */
  meter?: TokenCounter;
  /** Content larger than this (UTF-8 bytes, after cleaning) is refused with `TOO_LARGE`. Default 16 MiB. */
  maxContentBytes?: number;
  /** Content longer than this (characters) is split into linked part frames. Default 8000. */
  chunkChars?: number;
  /** TTL of temporary frames without `expiresAt`, in days. Default 30. */
  temporaryTtlDays?: number;
  /** Deprecated frames not updated for this many days are deleted by `compact`. Default 90. */
  deprecatedDays?: number;
  /** Ranking weights. Defaults: relevance 0.6, importance 0.25, recency 0.15, halfLifeDays 30. */
  weights?: Partial<RankingWeights>;
  /**
   * The optional embeddings plug-in (an OpenAI-compatible `/v1/embeddings` endpoint): when set,
   * {@link Mind.searchHybrid} fuses BM25 with vector similarity and {@link Mind.embedPending}
   * backfills vectors. Unset (the default): no vector is computed, nothing opens a connection.
   * Validated at open (`INVALID` naming the key).
   */
  embeddings?: EmbeddingsConfig;
  /** Clock (tests). Default `() => new Date()`. */
  now?: () => Date;
}

/** What recall needs from a token meter (tokens of `text`). `TokenMeter` of @hive-mind/compaction satisfies it. */
export interface TokenCounter {
  countText(text: string): number;
}

/** The fast conservative estimate of estimate.ts (at least o200k_base's count for English, code, CJK, emoji). */
export const ESTIMATE_METER: TokenCounter = { countText: estimateTokens };

export const IMPORTANCE_RANK: Record<Importance, number> = { deprecated: 0, temporary: 1, normal: 2, important: 3, critical: 4 };
/** Importance term of the blended score. */
export const IMPORTANCE_WEIGHT: Record<Importance, number> = { critical: 1, important: 0.75, normal: 0.5, temporary: 0.2, deprecated: 0 };

export const DAY_MS = 86_400_000;

/** A `frames` row as SQLite returns it. */
export interface Row {
  id: number;
  content: string;
  kind: string;
  importance: Importance;
  scope: Scope;
  source: FrameSource;
  host: string;
  session_id: string;
  turn_id: string;
  thread_key: string;
  workspace: string;
  /** Absent in files before schema v8 (read-only opens do not migrate). */
  cwd?: string;
  tags: string;
  content_hash: string;
  created_at: string;
  updated_at: string;
  expires_at: string | null;
  supersedes: number | null;
  superseded_by: number | null;
  quarantined: number;
  threats: string;
  redactions: string;
  part: number;
  parts: number;
  part_of: number | null;
}

function parseJsonArray(s: string): string[] {
  try {
    const v = JSON.parse(s) as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

export function toFrame(r: Row): Frame {
  return {
    id: r.id,
    content: r.content,
    kind: r.kind,
    importance: r.importance,
    scope: r.scope,
    source: r.source,
    host: r.host,
    sessionId: r.session_id,
    turnId: r.turn_id,
    threadKey: r.thread_key,
    workspace: r.workspace,
    cwd: r.cwd ?? '',
    expiresAt: r.expires_at,
    supersedes: r.supersedes,
    tags: parseJsonArray(r.tags),
    contentHash: r.content_hash,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    quarantined: r.quarantined !== 0,
    threats: parseJsonArray(r.threats),
    redactions: parseJsonArray(r.redactions),
    supersededBy: r.superseded_by,
    part: r.part,
    parts: r.parts,
    partOf: r.part_of,
  };
}

