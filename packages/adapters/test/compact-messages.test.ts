import { describe, expect, it } from 'vitest';
import type { ModelMessage } from 'ai';
import { CHECKPOINT_OPEN, CompactionConfigError } from '@hive-mind/compaction';
import { AdapterInputError, MessageCompactor, compactMessages } from '@hive-mind/adapters';
import { aiSdkCodec, compactModelMessages } from '@hive-mind/adapters/ai-sdk';

const big = (i: number) => Array.from({ length: 60 }, (_, k) => `line ${k} of result ${i}: value=${(i * 31 + k) % 97}`).join('\n');

/** A user request, then `steps` tool round trips (assistant call + tool result of ~1k tokens). */
function loop(steps: number, from = 0): ModelMessage[] {
  const out: ModelMessage[] = from ? [] : [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'Inspect every shard and report.' }];
  for (let i = from; i < from + steps; i++) {
    out.push({ role: 'assistant', content: [{ type: 'text', text: `Reading shard ${i}.` }, { type: 'tool-call', toolCallId: `c${i}`, toolName: 'read_shard', input: { shard: i } }] });
    out.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: `c${i}`, toolName: 'read_shard', output: { type: 'text', value: big(i) } }] });
  }
  return out;
}

/** Tool-call ids answered by a tool result earlier than... (orphans and unanswered calls in AI SDK messages). */
function pairing(messages: ModelMessage[]): string[] {
  const calls = new Set<string>();
  const problems: string[] = [];
  for (const m of messages) {
    if (typeof m.content === 'string') continue;
    for (const p of m.content as Array<{ type: string; toolCallId?: string }>) {
      if (p.type === 'tool-call') calls.add(p.toolCallId!);
      if (p.type === 'tool-result' && !calls.delete(p.toolCallId!)) problems.push(`orphan ${p.toolCallId}`);
    }
  }
  return [...problems, ...[...calls].map((c) => `unanswered ${c}`)];
}

describe('MessageCompactor', () => {
  it('reads only the new messages when a call extends the previous one, and keeps untouched messages as the same objects', async () => {
    const c = new MessageCompactor(aiSdkCodec, { budget: 100_000 });
    const first = loop(3);
    const r1 = await c.compact(first);
    expect(r1.report).toMatchObject({ compacted: false, cachedMessages: 0, newMessages: first.length });
    expect(r1.messages.every((m, i) => m === first[i])).toBe(true);
    const second = [...first, ...loop(2, 3)];
    const r2 = await c.compact(second);
    expect(r2.report).toMatchObject({ compacted: false, cachedMessages: first.length, newMessages: 4 });
    // Same conversation with copies of the objects (a framework that clones its state): matched by content.
    const r3 = await c.compact(structuredClone(second));
    expect(r3.report).toMatchObject({ cachedMessages: second.length, newMessages: 0 });
    // Another conversation starts a run of its own.
    const r4 = await c.compact([{ role: 'user', content: 'something else' }]);
    expect(r4.report).toMatchObject({ cachedMessages: 0, newMessages: 1 });
  });

  it('compacts above the budget into a checkpoint, keeps the system message first and never orphans a tool result', async () => {
    const c = new MessageCompactor(aiSdkCodec, { budget: 4000 });
    let messages = loop(1);
    for (let step = 1; step < 20; step++) {
      const { messages: out, report } = await c.compact(messages);
      expect(report.tokens).toBeLessThanOrEqual(report.surfaceBudget);
      expect(pairing(out)).toEqual([]);
      expect(out[0]).toBe(messages[0]);
      messages = [...messages, ...loop(1, step)];
    }
    const { messages: out, report } = await c.compact(messages);
    expect(report.cachedMessages).toBe(messages.length - 2);
    const cp = out.find((m) => m.role === 'user' && JSON.stringify(m.content).includes(CHECKPOINT_OPEN));
    expect(cp).toBeDefined();
    expect(out.at(-1)).toBe(messages.at(-1));
  });

  it('continues from its own output when the framework feeds the compacted messages back (AI SDK 7 keeps prepareStep messages)', async () => {
    const c = new MessageCompactor(aiSdkCodec, { budget: 4000 });
    let messages = loop(6);
    let compactedOnce = false;
    for (let step = 6; step < 20; step++) {
      const { messages: out, report } = await c.compact(messages);
      if (step > 6) expect(report.cachedMessages).toBe(messages.length - 2);
      compactedOnce ||= report.compacted;
      expect(pairing(out)).toEqual([]);
      // the newest round trip reaches the model as given, never an older message in its place
      expect(out.at(-1)).toBe(messages.at(-1));
      expect(out.at(-2)).toBe(messages.at(-2));
      expect(JSON.stringify(out.at(-1))).toContain(`"toolCallId":"c${step - 1}"`);
      messages = [...out, ...loop(1, step)];
    }
    expect(compactedOnce).toBe(true);
  });

  it('handles a model that reuses a tool call id', async () => {
    const c = new MessageCompactor(aiSdkCodec, { budget: 3000 });
    const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
    for (let i = 0; i < 12; i++) {
      messages.push({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_0', toolName: 't', input: {} }] });
      messages.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_0', toolName: 't', output: { type: 'text', value: big(i) } }] });
    }
    const { messages: out, report } = await c.compact(messages);
    expect(report.compacted).toBe(true);
    expect(out.at(-1)).toBe(messages.at(-1));
    expect(out.at(-2)).toBe(messages.at(-2));
  });
});

describe('bad input', () => {
  it('an unknown part type is an error naming the field; nothing is appended and the next good call works', async () => {
    const c = new MessageCompactor(aiSdkCodec, { budget: 10_000 });
    const good = loop(1);
    const bad = [...good, { role: 'assistant', content: [{ type: 'tool-invocation', toolCallId: 'x' }] }] as unknown as ModelMessage[];
    await expect(c.compact(bad)).rejects.toThrow(new AdapterInputError('ai-sdk', 'messages[4].content[0].type', 'unknown assistant content part type "tool-invocation"'));
    const r = await c.compact(good);
    expect(r.report).toMatchObject({ newMessages: good.length, cachedMessages: 0 });
  });

  it('a tool result whose output shape is unknown is an error, never dropped', async () => {
    const msgs = [...loop(1), { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c0', toolName: 'read_shard', result: 'old v4 field' }] }] as unknown as ModelMessage[];
    await expect(compactModelMessages(msgs, { budget: 10_000 })).rejects.toThrow('ai-sdk: messages[4].content[0].output: is not an object ({type, value})');
  });

  it('a tool result without a call earlier in the messages is an error naming the message', async () => {
    const msgs: ModelMessage[] = [{ role: 'user', content: 'hi' }, { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'ghost', toolName: 't', output: { type: 'text', value: 'x' } }] }];
    const err = await compactModelMessages(msgs, { budget: 10_000 }).catch((e) => e);
    expect(err).toBeInstanceOf(AdapterInputError);
    expect(err.field).toBe('messages[1] (block 0)');
    expect(err.message).toContain('tool result for call "ghost" has no tool call earlier in the messages');
  });

  it('an unknown role names messages[i].role; a bad config names the key', async () => {
    await expect(compactModelMessages([{ role: 'function', content: 'x' } as unknown as ModelMessage], { budget: 1000 })).rejects.toThrow('ai-sdk: messages[0].role: unknown role "function"');
    await expect(compactMessages([], { codec: aiSdkCodec, budget: 1000, retainTokens: 5000 })).rejects.toBeInstanceOf(CompactionConfigError);
    await expect(compactMessages([], { budget: 1000 } as never)).rejects.toThrow('options.codec is required');
  });
});

describe('compactMessages (the stateless call)', () => {
  it('shares one compactor per configuration, so repeated calls read only new messages', async () => {
    const a = loop(2);
    const r1 = await compactMessages(a, { codec: aiSdkCodec, budget: 50_000, retainTokens: 1234 });
    expect(r1.report.newMessages).toBe(a.length);
    const r2 = await compactMessages([...a, ...loop(1, 2)], { codec: aiSdkCodec, budget: 50_000, retainTokens: 1234 });
    expect(r2.report).toMatchObject({ cachedMessages: a.length, newMessages: 2 });
    // Another configuration is another compactor: nothing cached there.
    const r3 = await compactMessages(a, { codec: aiSdkCodec, budget: 50_001, retainTokens: 1234 });
    expect(r3.report.cachedMessages).toBe(0);
  });

  it('rewrites a pruned tool result in place, keeping its ids and part shape', async () => {
    const huge = Array.from({ length: 800 }, (_, k) => `row ${k}: ${'x'.repeat(20)}`).join('\n');
    const msgs: ModelMessage[] = [
      { role: 'user', content: 'dump the table then summarize' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'd1', toolName: 'dump', input: {} }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'd1', toolName: 'dump', output: { type: 'error-text', value: huge } }] },
      { role: 'assistant', content: 'The table has 800 rows.' },
      { role: 'user', content: 'thanks, now the next one' },
    ];
    const { messages: out, report } = await compactModelMessages(msgs, { budget: 5000 });
    expect(report.compacted).toBe(true);
    expect(report.tokens).toBeLessThanOrEqual(report.surfaceBudget);
    expect(pairing(out)).toEqual([]);
    expect(report.result.action).toBe('prune');
    const tool = out.find((m) => m.role === 'tool')!;
    expect(tool).not.toBe(msgs[2]);
    const part = (tool.content as Array<{ type: string; toolCallId: string; output: { type: string; value: string } }>)[0]!;
    expect(part).toMatchObject({ type: 'tool-result', toolCallId: 'd1', toolName: 'dump', output: { type: 'error-text' } });
    expect(part.output.value).toContain('row 0: ');
    expect(part.output.value).toContain('row 799: ');
    expect(part.output.value).toContain('elided by hive-mind');
    // The input is not mutated.
    expect((msgs[2]!.content as Array<{ output: { value: string } }>)[0]!.output.value).toBe(huge);
  });
});
