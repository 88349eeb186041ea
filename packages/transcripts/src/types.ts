import type { MemorySessionLog } from '@hive-mind/session';

/**
 * The format table: one row per transcript format this package reads and writes, in the order
 * detection tries them (also listed in "unknown format" errors). `TranscriptFormat`, `FORMATS`
 * and the MCP tool's format enum derive from it; detect.ts (`DETECT`), read.ts (`READERS`) and write/same.ts
 * (`WRITERS`) hold one entry per format, typed against it, so a row without a rule, a reader or a
 * writer does not compile. Adding a format: a row here, its reader (formats/) and writer (write/),
 * and its rule in detect.ts.
 */
export const FORMAT_TABLE = [
  { id: 'claude-code', file: 'jsonl', name: 'Claude Code session' },
  { id: 'codex', file: 'jsonl', name: 'Codex rollout' },
  { id: 'pi', file: 'jsonl', name: 'pi session' },
  { id: 'hermes', file: 'json', name: 'Hermes session log' },
  { id: 'openai', file: 'json', name: 'OpenAI messages' },
  { id: 'anthropic', file: 'json', name: 'Anthropic messages' },
] as const satisfies ReadonlyArray<FormatRow>;

/** One row of {@link FORMAT_TABLE}: `file` is `jsonl` (one record a line) or `json` (one whole-JSON value). */
export interface FormatRow {
  id: string;
  file: 'jsonl' | 'json';
  /** Human name for messages. */
  name: string;
}

/** The host formats this package reads and writes (derived from {@link FORMAT_TABLE}). */
export type TranscriptFormat = (typeof FORMAT_TABLE)[number]['id'];

/** Every format, in the order detection tries them (also listed in "unknown format" errors); a non-empty tuple, as `z.enum` takes. */
export const FORMATS = FORMAT_TABLE.map((f) => f.id) as unknown as readonly [TranscriptFormat, ...TranscriptFormat[]];

/**
 * What any transcript can be written as besides its own format (`writeTranscript(t, to)`, the
 * CLI's `--to`, the MCP tool's `output`): a message array of either API, or markdown to read.
 */
export const EXPORT_FORMATS = ['openai', 'anthropic', 'markdown'] as const;
/** One of {@link EXPORT_FORMATS}. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** Where `writeTranscript` writes to: `same` (the transcript's own format) or an {@link ExportFormat}. */
export type WriteTarget = 'same' | ExportFormat;

/** What an import found and did. Counts are of records/events, never tokens. */
export interface ImportReport {
  format: TranscriptFormat;
  path?: string;
  /** Physical lines (JSONL) or 1 for whole-JSON formats. */
  lines: number;
  /** Only with `lenient`: bad lines skipped (each listed in `problems`). */
  skippedLines: number;
  problems: Array<{ line: number; reason: string }>;
  /** Unanswered tool calls given a synthetic `kind: 'repair'` result. */
  repairedCalls: number;
  /** Results with no call, turned into a visible note. */
  orphanResults: number;
  /** Host compactions imported as replace ops. */
  compactions: number;
  /** Tool-call ids the host repeated, renamed to `<id>_<n>` so ids on the log are unique. */
  renamedCallIds?: number;
}

/** Where the original records live, so `writeTranscript(t, 'same')` can copy them untouched. */
export type TranscriptOrigin =
  | { kind: 'file'; path: string; size: number; mtimeMs: number }
  | { kind: 'text'; text: string };

/**
 * What the writers need to write back in the host's own format. Original records are
 * NOT kept in memory (a 300 MB session would double in size): the writer re-reads them
 * from `origin` (checking the file did not change) by the line numbers in `event.meta.line`.
 */
export interface TranscriptSource {
  origin: TranscriptOrigin;
  /** Whole-JSON formats: the top-level shape (`array`, or `object` with the messages under `messages`). */
  container?: 'array' | 'object';
  /** Format-specific state for write-back (Claude Code leaf uuid and session id, pi entry ids...). */
  state: Record<string, unknown>;
  /** True when the last physical line had no trailing newline. */
  missingFinalNewline?: boolean;
}

/** An imported transcript: the session log plus what is needed to write it back. */
export interface Transcript {
  format: TranscriptFormat;
  /** Host records kept in event.meta (message events) or as log-only `host/record` events. */
  log: MemorySessionLog;
  report: ImportReport;
  /** `log.lastSeq` right after import: events with seq > this were appended later (e.g. by compaction). */
  importedLastSeq: number;
  source: TranscriptSource;
}

/** Options of the readers. */
export interface ReadOptions {
  /** Skip bad lines (invalid JSON, invalid UTF-8, wrong shape) instead of failing; each is counted and listed. */
  lenient?: boolean;
  /** Skip detection and read as this format. */
  format?: TranscriptFormat;
}
