import type { FrameSnapshot } from '@hive-mind/mind';
import type { MindRegistry } from './minds.js';

/**
 * The undo of the last change made in the page to a frame (importance, quarantine, forget): the
 * frame's stored rows taken just before the change (`Mind.snapshot`), put back exactly by
 * `Mind.restore` (ids, times, provenance, index). One level, as the page offers it: a new change
 * replaces the undo of the previous one; an undo cannot itself be undone.
 */

/** The change that can be undone now, as the page shows it. */
export interface UndoInfo {
  /** E.g. `importance of #12: normal -> critical`, `forget #12`. */
  label: string;
  mind: string;
  frameId: number;
  at: string;
}

export class UndoSlot {
  private last?: UndoInfo & { snapshot: FrameSnapshot };

  constructor(private readonly minds: MindRegistry) {}

  /** Remember how to undo a change about to be made. */
  record(info: Omit<UndoInfo, 'at'>, snapshot: FrameSnapshot): void {
    this.last = { ...info, at: new Date().toISOString(), snapshot };
  }

  /** What an undo would revert, or undefined. */
  peek(): UndoInfo | undefined {
    if (!this.last) return undefined;
    const { snapshot: _s, ...info } = this.last;
    return info;
  }

  /** Put the snapshot back; returns what was undone, or undefined when there is nothing to undo (or its mind is gone). */
  undo(): UndoInfo | undefined {
    const last = this.last;
    if (!last) return undefined;
    const m = this.minds.get(last.mind);
    if (!m) return undefined;
    m.restore(last.snapshot);
    this.last = undefined;
    const { snapshot: _s, ...info } = last;
    return info;
  }
}
