import { blockIds } from './blocks.js';
import { ToolPairingError } from './errors.js';
import type { SurfaceNode } from './surface.js';

/** Result of scanning a surface for pairing. */
export interface PairingReport {
  /**
   * `openAfter[i]` = number of groups that have a member at or before node `i` and another
   * after it (see {@link analyzePairing} for what a group is). A cut right after node `i`
   * is balanced iff it is 0.
   */
  openAfter: number[];
  /** Calls that never get a result on this surface: `{id, name, seq}`. */
  unanswered: Array<{ id: string; name: string; seq: number }>;
  /**
   * Blocks other than tool results that reference an id no block on the surface carries
   * (an opaque `web_search_tool_result` whose `server_tool_use` is gone): `{id, seq, type}`.
   */
  orphanReferences: Array<{ id: string; seq: number; type: string }>;
}

/**
 * Scan the surface in order and find what must travel together. A cut may not fall
 * inside any of these groups:
 *
 * - **ids**: every block that carries an id and every block that refers to it
 *   ({@link blockIds}: tool call and result, Anthropic `server_tool_use` and its
 *   `web_search_tool_result`, `mcp_tool_use` and `mcp_tool_result`, unknown blocks with
 *   `id` / `tool_use_id` / `call_id`), from the first to the last node that mentions it;
 * - **one model message**: the events sharing a `messageId` (Claude Code's one block per line);
 * - **one model turn**: assistant messages that follow each other with nothing between
 *   (Anthropic `pause_turn` continuations, hosts that write a response's items apart).
 *
 * An id mentioned once (a call never answered) makes no group, so it blocks no cut.
 * Throws {@link ToolPairingError} when a tool result names a call id that was not made
 * earlier on the surface (corruption: importers repair it before it reaches a log).
 * Cost: O(nodes + blocks).
 */
export function analyzePairing(nodes: readonly SurfaceNode[]): PairingReport {
  const calls = new Map<string, { name: string; seq: number; answered: boolean }>();
  /** id -> [first, last] node position of any mention. */
  const spans = new Map<string, [number, number]>();
  const carried = new Set<string>();
  const refs: Array<{ id: string; seq: number; type: string }> = [];
  const messages = new Map<string, [number, number]>();
  const mention = (id: string, i: number) => {
    const s = spans.get(id);
    if (s) s[1] = i;
    else spans.set(id, [i, i]);
  };
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    for (const b of node.content) {
      if (b.type === 'tool-call') {
        if (!calls.has(b.id)) calls.set(b.id, { name: b.name, seq: node.seq, answered: false });
      } else if (b.type === 'tool-result') {
        const c = calls.get(b.callId);
        if (!c) {
          throw new ToolPairingError(
            `tool result for call ${JSON.stringify(b.callId)} at seq ${node.seq} has no earlier tool call on the surface`,
            b.callId,
            node.seq,
          );
        }
        c.answered = true;
      }
      const ids = blockIds(b);
      for (const id of ids.carries) {
        carried.add(id);
        mention(id, i);
      }
      for (const id of ids.links) mention(id, i);
      for (const id of ids.references) {
        mention(id, i);
        if (b.type !== 'tool-result') refs.push({ id, seq: node.seq, type: b.type === 'opaque' ? `opaque:${b.kind}` : b.type });
      }
    }
    if (node.messageId !== undefined) {
      const m = messages.get(node.messageId);
      if (m) m[1] = i;
      else messages.set(node.messageId, [i, i]);
    }
  }
  // Difference array: +1 where a group opens, -1 at its last member.
  const delta = new Array<number>(nodes.length + 1).fill(0);
  const group = ([a, b]: [number, number]) => {
    if (b > a) {
      delta[a]!++;
      delta[b]!--;
    }
  };
  for (const s of spans.values()) group(s);
  for (const s of messages.values()) group(s);
  for (let i = 0; i + 1 < nodes.length; i++) {
    if (nodes[i]!.type === 'assistant/message' && nodes[i + 1]!.type === 'assistant/message') group([i, i + 1]);
  }
  const openAfter: number[] = new Array(nodes.length);
  let open = 0;
  for (let i = 0; i < nodes.length; i++) {
    open += delta[i]!;
    openAfter[i] = open;
  }
  const unanswered = [...calls].filter(([, c]) => !c.answered).map(([id, c]) => ({ id, name: c.name, seq: c.seq }));
  const orphanReferences = refs.filter((r) => !carried.has(r.id));
  return { openAfter, unanswered, orphanReferences };
}

/**
 * Balanced cut positions: `k` is in the result when cutting the surface between
 * `nodes[k-1]` and `nodes[k]` splits no group of {@link analyzePairing} (no tool call from
 * its result, no id from its reference, no model message or turn in two).
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

/** True when every tool call on the surface has its result and no result or reference is orphaned. */
export function isFullyPaired(nodes: readonly SurfaceNode[]): boolean {
  try {
    const r = analyzePairing(nodes);
    return r.unanswered.length === 0 && r.orphanReferences.length === 0;
  } catch {
    return false;
  }
}
