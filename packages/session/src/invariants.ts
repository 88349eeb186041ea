import { isMessageEvent, type SessionEvent } from './events.js';
import { SessionError } from './errors.js';
import { analyzePairing } from './pairing.js';
import { SurfaceFold } from './surface.js';

/** One broken invariant. `seq` points at the offending event when there is one. */
export interface Violation {
  rule: 'seq-order' | 'surface-op' | 'content' | 'tool-pairing' | 'id-pairing' | 'duplicate-call-id';
  seq?: number;
  message: string;
}

/** What {@link checkInvariants} found. Orphaned compaction starts are inert and only counted. */
export interface InvariantReport {
  ok: boolean;
  violations: Violation[];
  /** `compaction/start` records with no matching `compaction/end` (a crash mid-compaction). */
  orphanedCompactionStarts: number[];
  /** Tool calls on the surface with no result yet (allowed at the tail of a live session). */
  unansweredCalls: string[];
}

/**
 * Check a sequence of events: strictly increasing seqs, message events with a
 * content array and a valid surface op, a foldable surface, no orphan tool result, no
 * block referencing an id that no block on the surface carries (an Anthropic
 * `web_search_tool_result` without its `server_tool_use`), no duplicate tool-call id on
 * the surface.
 */
export function checkInvariants(events: readonly SessionEvent[]): InvariantReport {
  const violations: Violation[] = [];
  const fold = new SurfaceFold();
  let last = 0;
  const starts = new Map<string, number>();
  for (const e of events) {
    if (!(e.seq > last)) violations.push({ rule: 'seq-order', seq: e.seq, message: `seq ${e.seq} does not increase (previous ${last})` });
    last = Math.max(last, e.seq);
    if (isMessageEvent(e)) {
      if (!Array.isArray(e.content)) {
        violations.push({ rule: 'content', seq: e.seq, message: `${e.type} at seq ${e.seq} has no content array` });
        continue;
      }
      try {
        fold.apply(e);
      } catch (err) {
        violations.push({ rule: 'surface-op', seq: e.seq, message: (err as Error).message });
      }
    } else if (e.type === 'compaction/start') {
      starts.set(String((e.data as { id?: unknown } | undefined)?.id ?? e.seq), e.seq);
    } else if (e.type === 'compaction/end') {
      const id = (e.data as { id?: unknown; startSeq?: unknown } | undefined) ?? {};
      starts.delete(String(id.id ?? id.startSeq ?? ''));
    }
  }
  const surface = fold.snapshot();
  let unansweredCalls: string[] = [];
  try {
    const pairing = analyzePairing(surface);
    unansweredCalls = pairing.unanswered.map((u) => u.id);
    for (const o of pairing.orphanReferences) {
      violations.push({ rule: 'id-pairing', seq: o.seq, message: `${o.type} block at seq ${o.seq} refers to id ${JSON.stringify(o.id)}, which no block on the surface carries` });
    }
  } catch (err) {
    violations.push({ rule: 'tool-pairing', seq: (err as { seq?: number }).seq, message: (err as Error).message });
  }
  const seen = new Map<string, number>();
  for (const n of surface) {
    for (const b of n.content) {
      if (b.type !== 'tool-call') continue;
      const prev = seen.get(b.id);
      if (prev !== undefined) violations.push({ rule: 'duplicate-call-id', seq: n.seq, message: `tool call id ${b.id} at seq ${n.seq} already used at seq ${prev}` });
      else seen.set(b.id, n.seq);
    }
  }
  return { ok: violations.length === 0, violations, orphanedCompactionStarts: [...starts.values()], unansweredCalls };
}

/** Like {@link checkInvariants} but throws a {@link SessionError} (`code: 'INVARIANT'`) listing the violations. */
export function assertInvariants(events: readonly SessionEvent[]): void {
  const r = checkInvariants(events);
  if (!r.ok) throw new SessionError(`session invariants broken: ${r.violations.map((v) => v.message).join('; ')}`, 'INVARIANT');
}
