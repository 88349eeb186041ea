import type { Rec } from './common.js';

/** A streamed reader for one JSONL host format. `record` throws `RecordError` on a record of the wrong shape, before changing anything. */
export interface JsonlReader {
  record(rec: Rec, line: number, chars: number): void;
  /** Called once after the last record. */
  finish(): void;
  /** Format state kept for write-back. */
  state(): Record<string, unknown>;
}
