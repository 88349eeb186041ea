import type { MessageEvent, NewEvent, SessionEvent } from './events.js';
import { isMessageEvent } from './events.js';
import { SessionError, SurfaceOpError } from './errors.js';
import { SurfaceFold, type SurfaceNode } from './surface.js';

/**
 * An append-only session event log with a derived surface.
 *
 * Seqs are assigned by the log, start at 1 and strictly increase. The surface is
 * maintained incrementally as events are appended (never refolded on read).
 * All methods are synchronous.
 */
export interface SessionLog {
  /** Stable identifier of this session (host session id when imported). */
  readonly id: string;
  /** Seq of the newest event, 0 when empty. */
  readonly lastSeq: number;
  /** Number of events on the log. */
  readonly size: number;
  /** Incremented on every replace; use it to key caches derived from the surface. */
  readonly generation: number;
  /**
   * Append events atomically (all or none), assigning seqs and default timestamps. The
   * seqs of one batch are consecutive, from `lastSeq + 1` (so a record in a batch can name
   * the seq of an earlier event of the same batch).
   * Throws {@link SurfaceOpError} when a replace names seqs not on the surface; then nothing is appended.
   * @returns the stored events, with seqs.
   */
  append(events: NewEvent | NewEvent[]): SessionEvent[];
  /** The event with this seq, or undefined. */
  get(seq: number): SessionEvent | undefined;
  /** All events in seq order, optionally from `fromSeq` (inclusive). */
  events(fromSeq?: number): SessionEvent[];
  /** The visible surface, in surface order. Cached; do not mutate. */
  surface(): readonly SurfaceNode[];
  /** Position of a seq on the surface, or undefined if it is not visible. */
  surfacePosition(seq: number): number | undefined;
  /** Release resources (closes the database for persistent logs). */
  close(): void;
}

/**
 * Shared logic of the in-memory and SQLite logs: seq assignment, validation
 * and the incremental surface. Subclasses persist a batch in {@link persist}.
 */
export abstract class BaseSessionLog implements SessionLog {
  protected readonly list: SessionEvent[] = [];
  private readonly bySeq = new Map<number, SessionEvent>();
  private fold = new SurfaceFold();

  constructor(readonly id: string) {}

  get lastSeq(): number {
    return this.list.length ? this.list[this.list.length - 1]!.seq : 0;
  }
  get size(): number {
    return this.list.length;
  }
  get generation(): number {
    return this.fold.generation;
  }

  /** Persist a validated batch atomically; throw to reject the whole batch. */
  protected abstract persist(batch: SessionEvent[]): void;

  /** Load already-stored events (used by persistent logs on open). Validates as it folds. */
  protected load(events: Iterable<SessionEvent>): void {
    for (const e of events) {
      if (e.seq <= this.lastSeq) throw new SessionError(`stored event seq ${e.seq} is not above ${this.lastSeq}`, 'SEQ_ORDER');
      this.fold.apply(e);
      this.list.push(e);
      this.bySeq.set(e.seq, e);
    }
  }

  append(input: NewEvent | NewEvent[]): SessionEvent[] {
    const arr = Array.isArray(input) ? input : [input];
    if (arr.length === 0) return [];
    let seq = this.lastSeq;
    const now = new Date().toISOString();
    const batch: SessionEvent[] = arr.map((e) => ({ ...e, seq: ++seq, ts: e.ts ?? now }) as SessionEvent);
    // Validate against a trial fold so that a bad op rejects the whole batch.
    const hasReplace = batch.some((e) => isMessageEvent(e) && e.surfaceOp !== 'append');
    if (hasReplace) {
      const trial = new SurfaceFold();
      for (const n of this.fold.snapshot()) trial.apply({ ...n, surfaceOp: 'append' } as MessageEvent);
      for (const e of batch) trial.apply(e); // throws SurfaceOpError
    }
    for (const e of batch) {
      if (isMessageEvent(e) && !Array.isArray(e.content)) throw new SessionError(`event ${e.type} has no content array`, 'BAD_EVENT');
    }
    this.persist(batch);
    for (const e of batch) {
      this.fold.apply(e);
      this.list.push(e);
      this.bySeq.set(e.seq, e);
    }
    return batch;
  }

  get(seq: number): SessionEvent | undefined {
    return this.bySeq.get(seq);
  }

  events(fromSeq = 1): SessionEvent[] {
    if (fromSeq <= 1) return this.list.slice();
    let lo = 0;
    let hi = this.list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.list[mid]!.seq < fromSeq) lo = mid + 1;
      else hi = mid;
    }
    return this.list.slice(lo);
  }

  surface(): readonly SurfaceNode[] {
    return this.fold.snapshot();
  }

  surfacePosition(seq: number): number | undefined {
    return this.fold.positionOf(seq);
  }

  close(): void {}
}

/** A session log held in memory. */
export class MemorySessionLog extends BaseSessionLog {
  constructor(id = 'memory') {
    super(id);
  }
  protected persist(): void {}
}
