/** The shapes of the curated notes (notes.ts is the facade; its README section "Curated notes"). */
import type { FrameSource, TokenCounter } from '../frame.js';
import type { LockState } from '../store/lock.js';
import type { FlaggedEntry } from './notes-file.js';

/** Which notes file: the thread's (or the global) MEMORY.md, or the global USER.md. */
export type NotesTarget = { file: 'memory'; thread?: string } | { file: 'user' };

/** Size of a notes file: characters (what the limit counts) and tokens (the `meter` given, else the conservative `estimateTokens`). */
export interface NotesUsage {
  chars: number;
  tokens: number;
  entries: number;
  /** chars / limit, in percent, rounded. */
  percent: number;
}

/** A notes file as read. `version` is the SHA-256 of its bytes ('absent' when it does not exist): pass it back as `expectedVersion`. */
export interface NotesState {
  path: string;
  target: NotesTarget;
  entries: string[];
  usage: NotesUsage;
  limit: number;
  version: string;
  exists: boolean;
  /** Set when the file is over its limit (e.g. edited by hand), or holds flagged entries: it still loads and stays editable. */
  warning?: string;
  /**
   * Entries that are not clean text (invalid UTF-8, control characters): left out of
   * `Notes.render` (the injection), kept byte for byte in the file on every write.
   */
  flagged?: FlaggedEntry[];
}

export interface EntrySize {
  index: number;
  chars: number;
  preview: string;
}

/** One operation of a batch. */
export type NotesOp = { op: 'add'; content: string } | { op: 'replace'; old: string; content: string } | { op: 'remove'; old: string };

export type WriteAction = 'add' | 'replace' | 'remove' | 'batch' | 'restore';

/** Options shared by every write. */
export interface WriteOptions {
  /** The caller's turn id: failed writes are counted per turn, across processes (see `failureCap`). */
  turnId?: string;
  /** Version from an earlier read: when the file changed since, the write is refused with the current state. */
  expectedVersion?: string;
  /** Override the instance setting for this write. */
  autoConsolidate?: boolean;
  /**
   * Who is writing, recorded on the pending frame when the write cannot be made (recall labels
   * pending notes with it): `{host: 'cli', source: 'user_stated'}` from the CLI, the MCP client's
   * name and `agent_inferred` from the MCP tool. Default `{host: 'notes', source: 'agent_inferred'}`.
   */
  origin?: { host: string; source: FrameSource };
}

export type NotesResult =
  | {
      ok: true;
      done?: false;
      action: 'add' | 'replace' | 'remove' | 'batch' | 'restore';
      message: string;
      usage: NotesUsage;
      limit: number;
      version: string;
      /** What automatic consolidation did to make room (when it ran). */
      consolidated?: { merged: number; evicted: number; archiveIds: string[] };
      /** Added entries that were not written because an existing entry already says the same (exact or near-duplicate): the existing ones. */
      duplicates?: EntrySize[];
      warning?: string;
    }
  | {
      ok: false;
      done?: false;
      reason: 'over_limit';
      message: string;
      usage: NotesUsage;
      limit: number;
      /** Set when one entry being written is longer than the whole limit (no removal can make room). */
      entryTooLarge?: { chars: number; limit: number };
      /** Characters the resulting file would exceed the limit by. */
      overflowBy: number;
      entries: EntrySize[];
      /** Frame id in the mind holding the fact that could not be written (kind `pending-note`). */
      pendingFrameId?: number;
      version: string;
    }
  | {
      ok: false;
      done?: false;
      reason: 'not_found' | 'ambiguous' | 'invalid' | 'threat' | 'stale' | 'locked';
      message: string;
      /** For `ambiguous`: up to 5 matching entries; for `not_found`: up to 5 entries to choose from. */
      candidates?: EntrySize[];
      threats?: string[];
      /** For `stale`: the current file, to retry against. */
      current?: NotesState;
      opIndex?: number;
      pendingFrameId?: number;
    }
  | {
      ok: false;
      done: true;
      reason: 'failure_cap';
      message: string;
      failures: number;
      pendingFrameId?: number;
    };

/** A line of ARCHIVE.jsonl: every entry removed by consolidation (merged or evicted) or archived by hand (`archiveEntry`). */
export interface ArchiveRecord {
  id: string;
  ts: string;
  file: 'memory' | 'user';
  thread?: string;
  path: string;
  entry: string;
  reason: 'evicted' | 'merged' | 'archived';
  /** For merges: the entry it was merged into. */
  keptAs?: string;
}

/** Options of {@link Notes}. */
export interface NotesOptions {
  /** Hive-mind home (default {@link mindHome}): notes live in `<home>/memories`. */
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** MEMORY.md limit in characters. Default 2200, or env `HIVE_MIND_MEMORY_CHAR_LIMIT`. */
  memoryCharLimit?: number;
  /** USER.md limit in characters. Default 1375, or env `HIVE_MIND_USER_CHAR_LIMIT`. */
  userCharLimit?: number;
  /** Consolidate automatically when a write would exceed the limit. Default false, or env `HIVE_MIND_NOTES_AUTO_CONSOLIDATE=1`. */
  autoConsolidate?: boolean;
  /** Failed writes per turn before `done: true`. Default 3. */
  failureCap?: number;
  /** Lock wait in ms. Default 5000. */
  lockTimeoutMs?: number;
  /** Token meter for usage in tokens. Default: `estimateTokens` (estimate.ts: per script, at least o200k's count; no tokenizer load). */
  meter?: TokenCounter;
  /** The .mind file where unwritable facts are kept as `pending-note` frames. Default `<home>/personal.mind`. */
  mindPath?: string;
  /** Clock (tests). */
  now?: () => Date;
}

/** One notes file as `Notes.inventory` lists it (for `doctor`). */
export interface NotesFileInventory {
  path: string;
  target: NotesTarget;
  chars: number;
  limit: number;
  entries: number;
  overLimit: boolean;
  flagged: FlaggedEntry[];
  lock?: LockState;
}
