// Writers: one Script (script.mjs) -> a host's own session file. The record shapes follow the
// real files in ../shared/data/transcripts (Claude Code 2.1.14/2.1.332, Codex CLI 0.171.0, pi v1)
// and the readers in packages/transcripts/src/formats/ (Hermes and OpenAI message arrays).
import { hexId, uuidOf } from './script.mjs';

/** codex-rs SUMMARY_PREFIX: the text Codex puts before its compaction summary in the new history. */
const CODEX_SUMMARY_PREFIX =
  'Another language model started to solve this problem and produced a summary of its thinking process. You also have access to the state of the tools that were used by that language model. Use this to build on the work that has already been done and avoid duplicating work. Here is the summary produced by the other language model, use the information in this summary to assist with your own analysis:';
/** The opening of Claude Code's continuation summary (seen in native-compact-2.1.332.jsonl). */
export const CLAUDE_CONTINUATION =
  'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.';
/** pi's prefix for a compaction summary sent to the model (pi-mono COMPACTION_SUMMARY_PREFIX). */
export const PI_SUMMARY_PREFIX = 'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';
export const PI_SUMMARY_SUFFIX = '\n</summary>';

const jsonl = (records) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

function usage(seed, i) {
  const n = parseInt(hexId(4, seed, String(i)), 16);
  return { input: 3 + (n % 9), output: 40 + (n % 900), cacheRead: 12000 + (n % 30000), cacheWrite: n % 2500 };
}

// ---------------------------------------------------------------- Claude Code

/**
 * Claude Code session JSONL: a `queue-operation` line, then user/assistant lines chained by
 * `parentUuid`; one line per assistant content block sharing `message.id`; each tool result a user
 * line with `toolUseResult` and `sourceToolAssistantUUID`; a host summary as a `compact_boundary`
 * system line (`parentUuid: null`, `logicalParentUuid`) and an `isCompactSummary` user line.
 */
export function claudeCode(s, { version = '2.1.19', gitBranch = 'main', slug = 'quiet-amber-otter' } = {}) {
  const sessionId = uuidOf(s.id, 'session');
  const out = [{ type: 'queue-operation', operation: 'dequeue', timestamp: s.turns[0].ts, sessionId }];
  let parent = null;
  let k = 0;
  const common = (ts, extra = {}) => ({ parentUuid: parent, isSidechain: false, userType: 'external', cwd: extra.cwd ?? s.cwd, sessionId, version, gitBranch, ...(k > 0 ? { slug } : {}), timestamp: ts });
  let cwd = s.cwd;
  const push = (rec) => {
    const uuid = uuidOf(s.id, 'line', String(k++));
    out.push({ ...common(rec.timestamp, { cwd }), ...rec, uuid });
    parent = uuid;
    return uuid;
  };
  let msgNo = 0;
  const asstLine = (msgId, block, ts, stop) =>
    push({
      type: 'assistant',
      timestamp: ts,
      requestId: `req_${hexId(24, s.id, msgId)}`,
      message: { model: s.model, id: msgId, type: 'message', role: 'assistant', content: [block], stop_reason: stop, stop_sequence: null, usage: ccUsage(s.id, msgNo) },
    });
  for (const t of s.turns) {
    cwd = t.cwd ?? cwd;
    if (t.kind === 'user') {
      push({ type: 'user', timestamp: t.ts, message: { role: 'user', content: t.text }, ...(t.meta === 'hook' || t.meta === 'meta' ? { isMeta: true } : {}) });
    } else if (t.kind === 'assistant' || t.kind === 'tools') {
      const msgId = `msg_01${hexId(22, s.id, 'msg', String(msgNo++))}`;
      if (t.reasoning) asstLine(msgId, { type: 'thinking', thinking: t.reasoning, signature: 'Eq' + hexId(60, s.id, 'sig', msgId) }, t.ts, null);
      if (t.text) asstLine(msgId, { type: 'text', text: t.text }, t.ts, t.kind === 'assistant' ? 'end_turn' : null);
      if (t.kind === 'tools') {
        const callLines = [];
        for (const c of t.calls) callLines.push({ c, uuid: asstLine(msgId, { type: 'tool_use', id: `toolu_01${c.id.slice(0, 22)}`, name: c.name, input: c.input }, t.ts, 'tool_use') });
        for (const { c, uuid } of callLines) {
          const id = `toolu_01${c.id.slice(0, 22)}`;
          const text = c.interrupted ? '[Request interrupted by user for tool use]' : c.output;
          push({
            type: 'user',
            timestamp: c.ts,
            message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: c.blocks ?? text, is_error: Boolean(c.error || c.interrupted) }] },
            toolUseResult: c.interrupted ? 'Error: [Request interrupted by user for tool use]' : c.extra ?? (c.name === 'Bash' ? { stdout: c.error ? '' : c.output, stderr: c.error ? c.output : '', interrupted: false, isImage: false } : c.output),
            sourceToolAssistantUUID: uuid,
          });
        }
      }
    } else if (t.kind === 'host-summary') {
      const logical = parent;
      parent = null;
      push({ type: 'system', subtype: 'compact_boundary', timestamp: t.ts, content: 'Conversation compacted', isMeta: false, level: 'info', logicalParentUuid: logical, compactMetadata: { trigger: 'auto', preTokens: 151_000 + (t.text.length % 9000) } });
      push({ type: 'user', timestamp: t.ts, message: { role: 'user', content: t.text }, isVisibleInTranscriptOnly: true, isCompactSummary: true });
    } else if (t.kind === 'raw' && t.host === 'claude-code') {
      push({ timestamp: t.ts, ...t.value });
    }
  }
  return jsonl(out);
}

function ccUsage(seed, i) {
  const u = usage(seed, i);
  return { input_tokens: u.input, cache_creation_input_tokens: u.cacheWrite, cache_read_input_tokens: u.cacheRead, output_tokens: u.output, service_tier: 'standard' };
}

// ---------------------------------------------------------------- Codex

/**
 * Codex CLI rollout JSONL (0.171.0): `{timestamp, ordinal, type, payload}` lines. `session_meta`
 * with `base_instructions`, then per turn `event_msg task_started`, `turn_context`, the user
 * `response_item` message, reasoning / function_call / function_call_output / custom_tool_call
 * items, assistant messages, `event_msg token_count` and `task_complete`. `exec_command` output in
 * the CLI's own framing (Chunk ID, Wall time, exit code, Output). A host summary is a `compacted`
 * line whose `replacement_history` holds the kept user messages and the summary user message
 * (SUMMARY_PREFIX, a newline, the summary), as codex-rs builds it.
 */
export function codex(s, { baseInstructions, developer, agentsMd, approval = 'on-request', sandbox = 'workspace-write' }) {
  const out = [];
  let ordinal = 0;
  const rec = (ts, type, payload) => out.push({ timestamp: ts, ordinal: ordinal++, type, payload });
  const sid = uuidOf(s.id, 'thread');
  const first = s.turns[0].ts;
  rec(first, 'session_meta', { id: sid, session_id: sid, timestamp: first, cwd: s.cwd, originator: 'codex_cli_rs', cli_version: '0.171.0', source: 'cli', model_provider: 'openai', base_instructions: { text: baseInstructions } });
  let turn = 0;
  let turnId;
  let open = false;
  let msgNo = 0;
  const userTexts = [];
  const close = (ts) => {
    if (!open) return;
    rec(ts, 'event_msg', { type: 'task_complete', turn_id: turnId, last_agent_message: null });
    open = false;
  };
  for (const t of s.turns) {
    if (t.kind === 'user') {
      close(t.ts);
      turnId = uuidOf(s.id, 'turn', String(turn++));
      open = true;
      rec(t.ts, 'event_msg', { type: 'task_started', turn_id: turnId, model_context_window: 258400, collaboration_mode_kind: 'default' });
      rec(t.ts, 'turn_context', { turn_id: turnId, cwd: s.cwd, approval_policy: approval, sandbox_policy: { type: sandbox }, model: s.model, effort: 'medium', summary: 'auto' });
      if (turn === 1) {
        if (developer) rec(t.ts, 'response_item', { type: 'message', role: 'developer', content: [{ type: 'input_text', text: developer }] });
        if (agentsMd) rec(t.ts, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: `# AGENTS.md instructions for ${s.cwd}\n\n<INSTRUCTIONS>\n${agentsMd}\n</INSTRUCTIONS>` }] });
        rec(t.ts, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: `<environment_context>\n  <cwd>${s.cwd}</cwd>\n  <approval_policy>${approval}</approval_policy>\n  <sandbox_mode>${sandbox}</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>bash</shell>\n</environment_context>` }] });
      }
      rec(t.ts, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: t.text }] });
      rec(t.ts, 'event_msg', { type: 'user_message', message: t.text, images: [] });
      userTexts.push(t.text);
    } else if (t.kind === 'assistant' || t.kind === 'tools') {
      if (t.reasoning) rec(t.ts, 'response_item', { type: 'reasoning', id: `rs_${hexId(32, s.id, 'rs', String(msgNo))}`, summary: [{ type: 'summary_text', text: t.reasoning }], content: null, encrypted_content: 'gAAAAAB' + hexId(64, s.id, 'enc', String(msgNo)) });
      if (t.text) {
        rec(t.ts, 'response_item', { type: 'message', role: 'assistant', id: `msg_${hexId(32, s.id, 'm', String(msgNo))}`, content: [{ type: 'output_text', text: t.text }] });
        rec(t.ts, 'event_msg', { type: 'agent_message', message: t.text });
      }
      msgNo++;
      if (t.kind === 'tools') {
        for (const c of t.calls) {
          const call_id = `call_${c.id.slice(0, 24)}`;
          if (c.custom) rec(t.ts, 'response_item', { type: 'custom_tool_call', status: 'completed', call_id, name: c.name, input: c.input });
          else rec(t.ts, 'response_item', { type: 'function_call', name: c.name, arguments: JSON.stringify(c.input), call_id });
        }
        for (const c of t.calls) {
          const call_id = `call_${c.id.slice(0, 24)}`;
          if (c.custom) rec(c.ts, 'response_item', { type: 'custom_tool_call_output', call_id, output: JSON.stringify({ output: c.output, metadata: { exit_code: c.error ? 1 : 0, duration_seconds: 0.1 } }) });
          else rec(c.ts, 'response_item', { type: 'function_call_output', call_id, output: c.name === 'exec_command' ? execFrame(s.id, c) : c.output });
        }
      }
      const u = usage(s.id, msgNo);
      rec(t.ts, 'event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: u.cacheRead + u.input, cached_input_tokens: u.cacheRead, output_tokens: u.output, reasoning_output_tokens: 0, total_tokens: u.cacheRead + u.input + u.output }, model_context_window: 258400 } });
    } else if (t.kind === 'host-summary' && t.host === 'codex') {
      const kept = userTexts.slice(-3).map((text) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] }));
      rec(t.ts, 'compacted', { message: t.text, replacement_history: [...kept, { type: 'message', role: 'user', content: [{ type: 'input_text', text: `${CODEX_SUMMARY_PREFIX}\n${t.text}` }] }] });
      rec(t.ts, 'event_msg', { type: 'context_compacted' });
    } else if (t.kind === 'raw' && t.host === 'codex') {
      rec(t.ts, t.value.type, t.value.payload);
    }
  }
  close(s.turns[s.turns.length - 1].ts);
  return jsonl(out);
}

/** What Codex's exec_command returns to the model: its framing, then the command's output. */
function execFrame(seed, c) {
  const body = c.output;
  const tokens = Math.ceil(body.length / 4);
  return `Chunk ID: ${hexId(6, seed, c.id)}\nWall time: ${(0.05 + (parseInt(hexId(3, c.id), 16) % 4000) / 1000).toFixed(4)} seconds\nProcess exited with code ${c.exit ?? (c.error ? 1 : 0)}\nOriginal token count: ${tokens}\nOutput:\n${body}`;
}

// ---------------------------------------------------------------- OpenAI / Hermes

/** Chat Completions messages: assistant `tool_calls` with JSON-string arguments, `tool` results by `tool_call_id`. */
function chatMessages(s, { system }) {
  const m = [];
  if (system) m.push({ role: 'system', content: system });
  for (const t of s.turns) {
    if (t.kind === 'user' || t.kind === 'host-summary') m.push({ role: 'user', content: t.text });
    else if (t.kind === 'assistant') m.push({ role: 'assistant', content: t.text, ...(t.reasoning ? { reasoning: t.reasoning } : {}) });
    else if (t.kind === 'tools') {
      m.push({
        role: 'assistant',
        content: t.text ?? null,
        ...(t.reasoning ? { reasoning: t.reasoning } : {}),
        tool_calls: t.calls.map((c) => ({ id: `call_${c.id.slice(0, 24)}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input) } })),
      });
      for (const c of t.calls) m.push({ role: 'tool', tool_call_id: `call_${c.id.slice(0, 24)}`, content: c.output });
    }
  }
  return m;
}

/** An OpenAI request body `{model, messages}` on one line. */
export function openai(s, { system } = {}) {
  return JSON.stringify({ model: s.model, messages: chatMessages(s, { system }) }) + '\n';
}

/** A Hermes session file (hermes-agent run_agent.py `_save_session_log`): the envelope and OpenAI-form messages. */
export function hermes(s, { system, platform = 'cli', baseUrl = 'https://openrouter.ai/api/v1', tools = [] }) {
  const messages = chatMessages(s, {});
  const sid = `${s.turns[0].ts.slice(0, 10).replace(/-/g, '')}_${s.turns[0].ts.slice(11, 19).replace(/:/g, '')}_${hexId(6, s.id)}`;
  return (
    JSON.stringify(
      {
        session_id: sid,
        model: s.model,
        base_url: baseUrl,
        platform,
        session_start: s.turns[0].ts,
        last_updated: s.turns[s.turns.length - 1].ts,
        system_prompt: system,
        tools: tools.map((name) => ({ type: 'function', function: { name, description: `${name} tool`, parameters: { type: 'object', properties: {} } } })),
        message_count: messages.length,
        messages,
      },
      null,
      2,
    ) + '\n'
  );
}

// ---------------------------------------------------------------- pi

/**
 * pi session JSONL, version 1 (as ../shared/data/transcripts/pi/*.jsonl): a `session` header,
 * `message` entries (user, assistant with text/thinking/toolCall blocks, toolResult), and a host
 * summary as a `compaction` entry whose `firstKeptEntryIndex` is the entry index of the last user
 * message before it (pi keeps the latest turn).
 */
export function pi(s, { provider = 'anthropic', thinkingLevel = 'medium' } = {}) {
  const out = [{ type: 'session', id: uuidOf(s.id, 'pi'), timestamp: s.turns[0].ts, cwd: s.cwd, provider, modelId: s.model, thinkingLevel }];
  const ms = (ts) => Date.parse(ts);
  let lastUser = 1;
  let msgNo = 0;
  for (const t of s.turns) {
    if (t.kind === 'user') {
      lastUser = out.length;
      out.push({ type: 'message', timestamp: t.ts, message: { role: 'user', content: [{ type: 'text', text: t.text }], timestamp: ms(t.ts) } });
    } else if (t.kind === 'assistant' || t.kind === 'tools') {
      const content = [];
      if (t.reasoning) content.push({ type: 'thinking', thinking: t.reasoning, thinkingSignature: 'Eq' + hexId(40, s.id, String(msgNo)) });
      if (t.text) content.push({ type: 'text', text: t.text });
      if (t.kind === 'tools') for (const c of t.calls) content.push({ type: 'toolCall', id: `toolu_01${c.id.slice(0, 22)}`, name: c.name, arguments: c.input });
      const u = usage(s.id, msgNo++);
      out.push({ type: 'message', timestamp: t.ts, message: { role: 'assistant', content, api: 'anthropic-messages', provider, model: s.model, usage: { ...u, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: t.kind === 'tools' ? 'toolUse' : 'stop', timestamp: ms(t.ts) } });
      if (t.kind === 'tools')
        for (const c of t.calls) out.push({ type: 'message', timestamp: c.ts, message: { role: 'toolResult', toolCallId: `toolu_01${c.id.slice(0, 22)}`, toolName: c.name, content: [{ type: 'text', text: c.output }], isError: Boolean(c.error), timestamp: ms(c.ts) } });
    } else if (t.kind === 'host-summary' && t.host === 'pi') {
      out.push({ type: 'compaction', timestamp: t.ts, summary: t.text, firstKeptEntryIndex: lastUser, tokensBefore: 150_000 + (t.text.length % 20_000) });
    } else if (t.kind === 'raw' && t.host === 'pi') {
      out.push({ timestamp: t.ts, ...t.value });
    }
  }
  return jsonl(out);
}
