import type { ContentBlock, ToolCallBlock } from './blocks.js';
import { ToolPairingError } from './errors.js';
import type { SurfaceNode } from './surface.js';

/** Result of scanning a surface for tool call/result pairing. */
export interface PairingReport {
  /**
   * `openAfter[i]` = number of tool calls made at or before node `i` that are still
   * unanswered after node `i`. A cut right after node `i` is balanced iff it is 0
   * and no later node answers an earlier call.
   */
  openAfter: number[];
  /** Calls that never get a result on this surface: `{id, name, seq}`. */
  unanswered: Array<{ id: string; name: string; seq: number }>;
}

function* blocksOf(node: SurfaceNode): Iterable<ContentBlock> {
  yield* node.content;
}

/**
 * Scan the surface in order. Throws {@link ToolPairingError} when a tool result
 * names a call id that was not made earlier on the surface (corruption: importers
 * repair it before it reaches a log).
 */
export function analyzePairing(nodes: readonly SurfaceNode[]): PairingReport {
  const open = new Map<string, { call: ToolCallBlock; seq: number }>();
  const answered = new Set<string>();
  const openAfter: number[] = new Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    for (const b of blocksOf(node)) {
      if (b.type === 'tool-call') {
        if (!answered.has(b.id)) open.set(b.id, { call: b, seq: node.seq });
      } else if (b.type === 'tool-result') {
        if (open.has(b.callId)) {
          open.delete(b.callId);
          answered.add(b.callId);
        } else if (!answered.has(b.callId)) {
          throw new ToolPairingError(
            `tool result for call ${JSON.stringify(b.callId)} at seq ${node.seq} has no earlier tool call on the surface`,
            b.callId,
            node.seq,
          );
        }
      }
    }
    openAfter[i] = open.size;
  }
  const unanswered = [...open.values()].map((o) => ({ id: o.call.id, name: o.call.name, seq: o.seq }));
  // A call that is never answered keeps every later cut "open"; such a call cannot be
  // separated from a result it never gets, so it does not block cuts.
  if (unanswered.length) {
    const neverIdx = new Map(unanswered.map((u) => [u.id, u.seq]));
    let never = 0;
    const seqPos = new Map(nodes.map((n, i) => [n.seq, i]));
    const startAt: number[] = new Array(nodes.length).fill(0);
    for (const u of neverIdx.values()) {
      const p = seqPos.get(u);
      if (p !== undefined) startAt[p]!++;
    }
    for (let i = 0; i < nodes.length; i++) {
      never += startAt[i]!;
      openAfter[i] = openAfter[i]! - never;
    }
  }
  return { openAfter, unanswered };
}

/**
 * Balanced cut positions: `k` is in the result when cutting the surface between
 * `nodes[k-1]` and `nodes[k]` separates no tool call from its result.
 * `0` and `nodes.length` are always balanced. Throws {@link ToolPairingError} on an orphan result.
 */
export function balancedCuts(nodes: readonly SurfaceNode[]): number[] {
  const { openAfter } = analyzePairing(nodes);
  const cuts = [0];
  for (let i = 0; i < nodes.length; i++) if (openAfter[i] === 0) cuts.push(i + 1);
  if (cuts[cuts.length - 1] !== nodes.length) cuts.push(nodes.length);
  return cuts;
}

/** True when the cut before surface position `k` is balanced (see {@link balancedCuts}). */
export function isBalancedBefore(nodes: readonly SurfaceNode[], k: number): boolean {
  if (k <= 0 || k >= nodes.length) return true;
  return analyzePairing(nodes).openAfter[k - 1] === 0;
}

/** True when the cut right after surface position `k` is balanced. */
export function isBalancedAfter(nodes: readonly SurfaceNode[], k: number): boolean {
  return isBalancedBefore(nodes, k + 1);
}

/** True when every tool call on the surface has its result and no result is orphaned. */
export function isFullyPaired(nodes: readonly SurfaceNode[]): boolean {
  try {
    return analyzePairing(nodes).unanswered.length === 0;
  } catch {
    return false;
  }
}
