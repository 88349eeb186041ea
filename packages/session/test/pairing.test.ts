import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  MemorySessionLog,
  analyzePairing,
  balancedCuts,
  blockIds,
  checkInvariants,
  type ContentBlock,
  type NewEvent,
  type SurfaceNode,
  type TextBlock,
} from '../src/index.js';

const textOf = (t: string): TextBlock => ({ type: 'text', text: t });
const user = (t: string): NewEvent => ({ type: 'user/message', surfaceOp: 'append', content: [textOf(t)] });
const assistant = (content: ContentBlock[], messageId?: string): NewEvent => ({ type: 'assistant/message', surfaceOp: 'append', content, ...(messageId ? { messageId } : {}) });
const serverToolUse = (id: string): ContentBlock => ({ type: 'opaque', kind: 'anthropic:server_tool_use', raw: { type: 'server_tool_use', id, name: 'web_search', input: { query: 'q' } } });
const webResult = (id: string): ContentBlock => ({ type: 'opaque', kind: 'anthropic:web_search_tool_result', raw: { type: 'web_search_tool_result', tool_use_id: id, content: [] } });
const mcpUse = (id: string): ContentBlock => ({ type: 'opaque', kind: 'anthropic:mcp_tool_use', raw: { type: 'mcp_tool_use', id, name: 'fetch', server_name: 's', input: {} } });
const mcpResult = (id: string): ContentBlock => ({ type: 'opaque', kind: 'anthropic:mcp_tool_result', raw: { type: 'mcp_tool_result', tool_use_id: id, is_error: false, content: [] } });
const call = (id: string): ContentBlock => ({ type: 'tool-call', id, name: 'bash', input: {} });
const result = (id: string): NewEvent => ({ type: 'tool/result', surfaceOp: 'append', content: [{ type: 'tool-result', callId: id, isError: false, content: [textOf('ok')] }] });
/** A block type nobody declared, carrying or referencing an id. */
const unknownCarrier = (id: string) => ({ type: 'x-widget', id, payload: 1 }) as unknown as ContentBlock;
const unknownRef = (id: string) => ({ type: 'x-widget-result', tool_use_id: id }) as unknown as ContentBlock;

/** Every id group of the surface: positions of the nodes that mention it. */
function groups(nodes: readonly SurfaceNode[]): Map<string, number[]> {
  const g = new Map<string, number[]>();
  nodes.forEach((n, i) => {
    for (const b of n.content) {
      const ids = blockIds(b);
      for (const id of [...ids.carries, ...ids.references, ...ids.links]) g.set(id, [...(g.get(id) ?? []), i]);
    }
    if (n.messageId) g.set(`message:${n.messageId}`, [...(g.get(`message:${n.messageId}`) ?? []), i]);
  });
  return g;
}

describe('pairing by id', () => {
  it('keeps a server tool use with its web search result, and an MCP use with its result', () => {
    const log = new MemorySessionLog();
    log.append([user('find it'), assistant([textOf('searching'), serverToolUse('srvtoolu_1')]), user('more'), assistant([webResult('srvtoolu_1'), textOf('found')])]);
    // the result sits in a later message: no cut between 1 and 3
    expect(balancedCuts(log.surface())).toEqual([0, 1, 4]);
    log.append([user('next'), assistant([mcpUse('mcptoolu_1')]), user('wait'), assistant([mcpResult('mcptoolu_1')])]);
    expect(balancedCuts(log.surface())).toEqual([0, 1, 4, 5, 8]);
  });

  it('pairs blocks of a type nobody knows by their id, and ignores ones without an id', () => {
    const log = new MemorySessionLog();
    log.append([user('a'), assistant([unknownCarrier('w1')]), user('b'), { type: 'user/message', surfaceOp: 'append', content: [unknownRef('w1')] }, user('c')]);
    log.append([{ type: 'user/message', surfaceOp: 'append', content: [{ type: 'x-plain', v: 1 } as unknown as ContentBlock] }, user('d')]);
    expect(balancedCuts(log.surface())).toEqual([0, 1, 4, 5, 6, 7]);
  });

  it('never cuts between the lines of one model message (one block per line, same message id)', () => {
    const log = new MemorySessionLog();
    // Claude Code: text, tool_use A, then the result of A, then tool_use B of the same message, then B's result
    log.append([user('go'), assistant([textOf('I will run two')], 'msg_1'), assistant([call('A')], 'msg_1'), result('A'), assistant([call('B')], 'msg_1'), result('B'), user('thanks')]);
    expect(balancedCuts(log.surface())).toEqual([0, 1, 6, 7]);
  });

  it('keeps pause_turn continuations (assistant messages back to back) in one unit', () => {
    const log = new MemorySessionLog();
    log.append([user('research'), assistant([serverToolUse('s1')]), assistant([webResult('s1'), textOf('part two')]), assistant([textOf('part three')]), user('ok')]);
    expect(balancedCuts(log.surface())).toEqual([0, 1, 4, 5]);
  });

  it('reports a reference whose carrier is gone as an invariant violation', () => {
    const log = new MemorySessionLog();
    log.append([user('a'), assistant([webResult('gone')])]);
    expect(analyzePairing(log.surface()).orphanReferences).toEqual([{ id: 'gone', seq: 2, type: 'opaque:anthropic:web_search_tool_result' }]);
    const r = checkInvariants(log.events());
    expect(r.ok).toBe(false);
    expect(r.violations[0]!.rule).toBe('id-pairing');
  });
});

type Step =
  | { kind: 'user' }
  | { kind: 'tools'; parallel: number; split: boolean }
  | { kind: 'server'; sameMessage: boolean }
  | { kind: 'mcp' }
  | { kind: 'unknown'; withId: boolean }
  | { kind: 'pause' }
  | { kind: 'replace'; a: number; b: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: 'user' }),
  fc.record({ kind: fc.constant('tools' as const), parallel: fc.integer({ min: 1, max: 3 }), split: fc.boolean() }),
  fc.record({ kind: fc.constant('server' as const), sameMessage: fc.boolean() }),
  fc.constant<Step>({ kind: 'mcp' }),
  fc.record({ kind: fc.constant('unknown' as const), withId: fc.boolean() }),
  fc.constant<Step>({ kind: 'pause' }),
  fc.tuple(fc.nat(), fc.nat()).map<Step>(([a, b]) => ({ kind: 'replace', a, b })),
);

function play(log: MemorySessionLog, steps: Step[]): void {
  let n = 0;
  for (const s of steps) {
    const id = () => `id${n++}`;
    switch (s.kind) {
      case 'user':
        log.append(user(`u${n++}`));
        break;
      case 'tools': {
        const ids = Array.from({ length: s.parallel }, id);
        if (s.split) {
          // one block per event with a shared message id, results interleaved
          const mid = `msg${n++}`;
          for (const c of ids) log.append([assistant([call(c)], mid), result(c)]);
        } else {
          log.append(assistant(ids.map(call)));
          for (const c of ids) log.append(result(c));
        }
        break;
      }
      case 'server': {
        const i = id();
        if (s.sameMessage) log.append(assistant([serverToolUse(i), webResult(i), textOf('answer')]));
        else log.append([assistant([serverToolUse(i)]), assistant([webResult(i), textOf('answer')])]);
        break;
      }
      case 'mcp': {
        const i = id();
        log.append([assistant([mcpUse(i)]), user('meanwhile'), assistant([mcpResult(i)])]);
        break;
      }
      case 'unknown': {
        const i = id();
        if (s.withId) log.append([assistant([unknownCarrier(i)]), user('x'), { type: 'user/message', surfaceOp: 'append', content: [unknownRef(i)] }]);
        else log.append({ type: 'user/message', surfaceOp: 'append', content: [{ type: 'x-plain' } as unknown as ContentBlock] });
        break;
      }
      case 'pause':
        log.append([assistant([textOf('paused')]), assistant([textOf('continued')])]);
        break;
      case 'replace': {
        const surface = log.surface();
        if (!surface.length) break;
        const cuts = balancedCuts(surface);
        const i = cuts[s.a % cuts.length]!;
        const j = cuts[s.b % cuts.length]!;
        const [lo, hi] = i < j ? [i, j] : [j, i];
        if (lo === hi) break;
        log.append({ type: 'user/message', kind: 'checkpoint', surfaceOp: { op: 'replace', start: surface[lo]!.seq, end: surface[hi - 1]!.seq }, content: [textOf('checkpoint')] });
      }
    }
  }
}

describe('pairing properties', () => {
  it('no balanced cut splits an id group or a model message, known block type or not', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 50 }), (steps) => {
        const log = new MemorySessionLog();
        play(log, steps);
        const s = log.surface();
        const g = groups(s);
        for (const k of balancedCuts(s)) {
          for (const [key, pos] of g) expect(pos.some((p) => p < k) && pos.some((p) => p >= k), `cut ${k} splits ${key}`).toBe(false);
          if (k > 0 && k < s.length) expect(s[k - 1]!.type === 'assistant/message' && s[k]!.type === 'assistant/message').toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('replacing only at balanced cuts never orphans a result, a reference or a call', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 50 }), (steps) => {
        const log = new MemorySessionLog();
        play(log, steps);
        const r = checkInvariants(log.events());
        expect(r.violations).toEqual([]);
        expect(r.unansweredCalls).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
