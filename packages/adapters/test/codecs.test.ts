/** Each framework's codec on its own: the shapes it reads, rewrites after pruning, and the bad input it names. */
import { describe, expect, it } from 'vitest';
import type { AgentInputItem } from '@openai/agents-core';
import type { AgentMessage } from '@earendil-works/pi-agent-core';
import { AIMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { AdapterInputError, MessageCompactor } from '@hive-mind/adapters';
import { compactAgentInput, openAIAgentsCodec } from '@hive-mind/adapters/openai-agents';
import { compactLangChainMessages, langchainCodec } from '@hive-mind/adapters/langchain';
import { compactPiMessages, piCodec } from '@hive-mind/adapters/pi';

const huge = Array.from({ length: 800 }, (_, k) => `row ${k}: ${'x'.repeat(20)}`).join('\n');
const errorOf = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as AdapterInputError);

describe('openai-agents codec', () => {
  const turn = (output: unknown): AgentInputItem[] =>
    [
      { role: 'user', content: 'dump the table, then summarize it' },
      { type: 'function_call', callId: 'fc1', name: 'dump', arguments: '{"table":"t"}', status: 'completed' },
      { type: 'function_call_result', callId: 'fc1', name: 'dump', status: 'completed', output },
      { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'It has 800 rows.' }] },
      { role: 'user', content: 'next one' },
    ] as AgentInputItem[];

  it('prunes a large function result in place, keeping callId, name and the output shape', async () => {
    for (const output of [huge, { type: 'text', text: huge }, [{ type: 'input_text', text: huge }]]) {
      const items = turn(output);
      const { messages, report } = await compactAgentInput(items, { budget: 5000 });
      expect(report.result.action).toBe('prune');
      const r = messages[2] as { callId: string; name: string; output: unknown };
      expect(r).toMatchObject({ type: 'function_call_result', callId: 'fc1', name: 'dump' });
      expect(typeof r.output).toBe(typeof output);
      expect(JSON.stringify(r.output)).toContain('elided by hive-mind');
      expect(messages[1]).toBe(items[1]);
    }
  });

  it('names the field of an unknown item, a result without callId and an unknown output type', async () => {
    const e1 = await errorOf(compactAgentInput([{ role: 'user', content: 'x' }, { type: 'mystery_call' } as unknown as AgentInputItem], { budget: 5000 }));
    expect(e1?.message).toBe('openai-agents: input[1].type: unknown item type "mystery_call"');
    const e2 = await errorOf(compactAgentInput([{ type: 'function_call_result', name: 'x', status: 'completed', output: 'y' } as unknown as AgentInputItem], { budget: 5000 }));
    expect(e2?.message).toBe('openai-agents: input[0].callId: is missing: a tool call and its result are paired by it');
    const e3 = await errorOf(compactAgentInput(turn({ type: 'video', url: 'u' }), { budget: 5000 }));
    expect(e3?.message).toBe('openai-agents: input[2].output.type: unknown tool output type "video"');
    const e4 = await errorOf(compactAgentInput([{ role: 'developer', content: 'x' } as unknown as AgentInputItem], { budget: 5000 }));
    expect(e4?.field).toBe('input[0].role');
  });

  it('reads every kind of call and its result as a pair (shell, apply_patch, computer)', () => {
    const c = new MessageCompactor(openAIAgentsCodec, { budget: 5000 });
    const items = [
      { type: 'shell_call', callId: 's1', status: 'completed', action: { commands: ['ls'] } },
      { type: 'shell_call_output', callId: 's1', output: [{ stdout: 'a\nb', stderr: '', outcome: { type: 'exit', exitCode: 0 } }] },
      { type: 'apply_patch_call', callId: 'p1', status: 'completed', operation: { type: 'delete_file', path: 'x' } },
      { type: 'apply_patch_call_output', callId: 'p1', status: 'failed', output: 'no such file' },
      { type: 'computer_call', callId: 'k1', status: 'completed', action: { type: 'screenshot' } },
      { type: 'computer_call_result', callId: 'k1', output: { type: 'computer_screenshot', data: 'data:image/png;base64,AA' } },
      { type: 'reasoning', content: [{ type: 'input_text', text: 'thinking' }] },
      { type: 'hosted_tool_call', name: 'web_search', status: 'completed' },
    ] as unknown as AgentInputItem[];
    return expect(c.compact(items)).resolves.toMatchObject({ report: { newMessages: items.length } });
  });
});

describe('langchain codec', () => {
  it('prunes a large ToolMessage into a new ToolMessage with the same id, call and status', async () => {
    const msgs: BaseMessage[] = [
      new SystemMessage('be brief'),
      new HumanMessage('dump it'),
      new AIMessage({ content: '', tool_calls: [{ id: 'tc1', name: 'dump', args: {} }] }),
      new ToolMessage({ content: huge, tool_call_id: 'tc1', name: 'dump', status: 'error', id: 'm4' }),
      new AIMessage('800 rows.'),
      new HumanMessage('next'),
    ];
    const { messages, report } = await compactLangChainMessages(msgs, { budget: 5000 });
    expect(report.result.action).toBe('prune');
    const t = messages[3] as ToolMessage;
    expect(t).toBeInstanceOf(ToolMessage);
    expect(t).not.toBe(msgs[3]);
    expect(t).toMatchObject({ tool_call_id: 'tc1', name: 'dump', status: 'error', id: 'm4' });
    expect(t.content).toContain('elided by hive-mind');
    expect(messages[2]).toBe(msgs[2]);
  });

  it('a checkpoint is a HumanMessage', async () => {
    const msgs: BaseMessage[] = [new HumanMessage('start')];
    for (let i = 0; i < 12; i++) msgs.push(new AIMessage({ content: `step ${i}`, tool_calls: [{ id: `t${i}`, name: 'read', args: { i } }] }), new ToolMessage({ content: huge.slice(0, 3000), tool_call_id: `t${i}` }));
    const { messages, report } = await compactLangChainMessages(msgs, { budget: 4000 });
    expect(report.compacted).toBe(true);
    const cp = messages.find((m) => typeof m.content === 'string' && m.content.startsWith('<compacted-summary>'));
    expect(cp).toBeInstanceOf(HumanMessage);
  });

  it('names the field of an unknown message type, a tool call without id and a ToolMessage without tool_call_id', async () => {
    const e1 = await errorOf(compactLangChainMessages([new RemoveMessage({ id: 'x' })], { budget: 5000 }));
    expect(e1?.message).toBe('langchain: messages[0].type: unknown message type "remove" (expected system, human, ai or tool)');
    const ai = new AIMessage({ content: '', tool_calls: [{ id: 'ok', name: 'a', args: {} }] });
    (ai.tool_calls![0] as { id?: string }).id = undefined;
    const e2 = await errorOf(compactLangChainMessages([new HumanMessage('x'), ai], { budget: 5000 }));
    expect(e2?.field).toBe('messages[1].tool_calls[0].id');
    const e3 = await errorOf(compactLangChainMessages([new ToolMessage({ content: 'r', tool_call_id: '' })], { budget: 5000 }));
    expect(e3?.field).toBe('messages[0].tool_call_id');
    const e4 = await errorOf(compactLangChainMessages([{ role: 'user', content: 'plain object' } as unknown as BaseMessage], { budget: 5000 }));
    expect(e4?.field).toBe('messages[0].type');
  });
});

describe('pi codec', () => {
  const ts = 1;
  const assistant = (content: unknown[]): AgentMessage => ({ role: 'assistant', content, api: 'openai-completions', provider: 'p', model: 'm', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'toolUse', timestamp: ts }) as AgentMessage;

  it('prunes a large bash execution in place: the command and exit code stay', async () => {
    const msgs = [
      { role: 'user', content: 'run the tests', timestamp: ts },
      { role: 'bashExecution', command: 'cargo test', output: huge, exitCode: 1, cancelled: false, truncated: false, timestamp: ts },
      { role: 'user', content: 'fix the failures', timestamp: ts },
    ] as AgentMessage[];
    const { messages, report } = await compactPiMessages(msgs, { budget: 5000 });
    expect(report.result.action).toBe('prune');
    const b = messages[1] as { role: string; command: string; output: string; exitCode: number };
    expect(b).toMatchObject({ role: 'bashExecution', command: 'cargo test', exitCode: 1 });
    expect(b.output).toContain('elided by hive-mind');
    expect(b.output.startsWith('row 0: ')).toBe(true);
    expect(messages[0]).toBe(msgs[0]);
  });

  it("merges pi's own compaction summary into the next checkpoint, without pi's frame", async () => {
    const msgs: AgentMessage[] = [{ role: 'compactionSummary', summary: '## Goal\n- Port the parser to Rust.', tokensBefore: 90000, timestamp: ts } as AgentMessage];
    for (let i = 0; i < 12; i++) {
      msgs.push(assistant([{ type: 'text', text: `Reading part ${i}.` }, { type: 'toolCall', id: `t${i}`, name: 'read', arguments: { i } }]));
      msgs.push({ role: 'toolResult', toolCallId: `t${i}`, toolName: 'read', content: [{ type: 'text', text: huge.slice(0, 3000) }], isError: false, timestamp: ts } as AgentMessage);
    }
    const { messages, report } = await compactPiMessages(msgs, { budget: 4000 });
    expect(report.compacted).toBe(true);
    const text = JSON.stringify(messages[0]);
    expect(text).toContain('<compacted-summary>');
    expect(text).toContain('Port the parser to Rust');
    expect(text).not.toContain('The conversation history before this point was compacted');

    const { summary } = await new MessageCompactor(piCodec, { budget: 5000 }).summarize(msgs);
    expect(summary).toContain('Port the parser to Rust');
    expect(summary).not.toContain('<compacted-summary>');
  });

  it('reads a bash execution as pi sends it and rewrites a pruned one as its output only (the command and exit code stay)', () => {
    const bash = { role: 'bashExecution', command: 'cargo test', output: 'line 1\nline 2', exitCode: 1, cancelled: false, truncated: false, timestamp: ts } as AgentMessage;
    const read = piCodec.read(bash, 'messages[0]');
    expect(read.content).toEqual([{ type: 'text', text: 'Ran `cargo test`\n```\nline 1\nline 2\n```\n\nCommand exited with code 1' }]);
    const out = piCodec.rewrite(bash, [{ type: 'text', text: 'Ran `cargo test`\n```\nline 1\n[… 1 line elided by hive-mind …]\n```\n\nCommand exited with code 1' }]);
    expect(out).toEqual({ ...bash, output: 'line 1\n[… 1 line elided by hive-mind …]' });
  });

  it('names the field of an unknown role, an unknown part and a toolCall without id', async () => {
    const e1 = await errorOf(compactPiMessages([{ role: 'system', content: 'x' } as unknown as AgentMessage], { budget: 5000 }));
    expect(e1?.message).toBe('pi: messages[0].role: unknown role "system"');
    const e2 = await errorOf(compactPiMessages([assistant([{ type: 'toolCall', name: 'read', arguments: {} }])], { budget: 5000 }));
    expect(e2?.field).toBe('messages[0].content[0].id');
    const e3 = await errorOf(compactPiMessages([assistant([{ type: 'audio', data: '' }])], { budget: 5000 }));
    expect(e3?.message).toBe('pi: messages[0].content[0].type: unknown assistant content part type "audio"');
  });
});
