import type { MessageEvent, SessionEvent } from './events.js';
import { isMessageEvent } from './events.js';
import { SurfaceOpError } from './errors.js';

/** A visible node: the message event that currently occupies a surface position. */
export type SurfaceNode = MessageEvent;

/**
 * Incrementally maintained surface. `apply` folds one event in; appends cost O(1),
 * a replace costs O(surface length). Positions are looked up through an index that
 * is rebuilt lazily after a replace, so repeated reads never refold the log.
 */
export class SurfaceFold {
  private nodes: SurfaceNode[] = [];
  private index: Map<number, number> | null = new Map();
  private frozen: readonly SurfaceNode[] | null = null;
  /** Incremented on every replace; readers can cache derived data per generation. */
  generation = 0;

  /** Fold one event in. Log-only events are ignored. Throws {@link SurfaceOpError} on a bad replace. */
  apply(event: SessionEvent): void {
    if (!isMessageEvent(event)) return;
    const op = event.surfaceOp;
    this.frozen = null;
    if (op === 'append' || op === undefined) {
      this.nodes.push(event);
      this.index?.set(event.seq, this.nodes.length - 1);
      return;
    }
    const a = this.positionOf(op.start);
    const b = this.positionOf(op.end);
    if (a === undefined) throw new SurfaceOpError(`replace by seq ${event.seq}: start seq ${op.start} is not on the surface`);
    if (b === undefined) throw new SurfaceOpError(`replace by seq ${event.seq}: end seq ${op.end} is not on the surface`);
    if (a > b) throw new SurfaceOpError(`replace by seq ${event.seq}: start seq ${op.start} comes after end seq ${op.end} on the surface`);
    this.nodes.splice(a, b - a + 1, event);
    this.index = null;
    this.generation++;
  }

  /** Check a replace op without applying it; returns an error message or null. */
  validateReplace(start: number, end: number): string | null {
    const a = this.positionOf(start);
    const b = this.positionOf(end);
    if (a === undefined) return `start seq ${start} is not on the surface`;
    if (b === undefined) return `end seq ${end} is not on the surface`;
    if (a > b) return `start seq ${start} comes after end seq ${end} on the surface`;
    return null;
  }

  /** Position of a surface seq, or undefined when it is not visible. */
  positionOf(seq: number): number | undefined {
    if (!this.index) {
      this.index = new Map();
      for (let i = 0; i < this.nodes.length; i++) this.index.set(this.nodes[i]!.seq, i);
    }
    return this.index.get(seq);
  }

  /** The current surface (a frozen snapshot, cached until the next change). */
  snapshot(): readonly SurfaceNode[] {
    if (!this.frozen) this.frozen = Object.freeze(this.nodes.slice());
    return this.frozen;
  }

  get length(): number {
    return this.nodes.length;
  }
}

/** Fold a whole event sequence from scratch (the reference the cache is checked against). */
export function foldSurface(events: Iterable<SessionEvent>): SurfaceNode[] {
  const f = new SurfaceFold();
  for (const e of events) f.apply(e);
  return f.snapshot().slice();
}
