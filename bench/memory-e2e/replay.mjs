// Sessions as a host would live them, for bench/memory-e2e.mjs: each source becomes a list of
// hook events in order (SessionStart, UserPromptSubmit, Stop, PreCompact, SessionEnd) with the time
// each happened and the transcript the host had written by then.
//
// - a Claude Code transcript (claude-code/*.jsonl): a prompt is a user line that is neither a tool
//   result, nor meta (hook feedback, caveats), nor a compact summary, nor a local command
//   (`<command-name>`, `<local-command-…>`); Claude Code stops before each next prompt, before each
//   stop-hook feedback that sends it back (the next Stop then has `stop_hook_active: true`), before a
//   compaction and at the end; the Stop's `last_assistant_message` is the last assistant text since
//   the previous stop; a `compact_boundary` is a PreCompact then a SessionStart with source `compact`;
// - a pi session (pi/*.jsonl; pi has no hooks, so it is replayed through Claude Code's): a prompt is a
//   user message with text; pi stops before each next prompt, before a compaction and at the end;
//   a `compaction` entry is a PreCompact then a SessionStart `compact`;
// - hand-written sessions and LoCoMo sessions: one prompt and one reply per turn, and a transcript
//   in Claude Code's JSONL (a user line, then an assistant line) written as the turns happen.
//
// `transcript` of a plan: `{copy: lines}` (the file's own lines; before each event the copy holds
// `upto` of them) or `{write: true}` (each step's `append` lines are written before its event).
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hook, setClock, uuidOf } from './driver.mjs';

const textOf = (content, types = ['text']) =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content
          .filter((b) => b && types.includes(b.type) && typeof b.text === 'string')
          .map((b) => b.text)
          .join('\n')
      : '';
const LOCAL_COMMAND = /^\s*<(command-name|command-message|local-command-[a-z-]+)>/;

/** SessionStart no later than the first event after it (a header line can be stamped after the first prompt). */
function startFirst(steps) {
  if (steps[1] && steps[1].time < steps[0].time) steps[0].time = new Date(steps[1].time.getTime() - 1000);
  return steps;
}

/** The hook events of a Claude Code transcript (its JSONL lines as strings). */
export function claudeCodePlan(lines, key) {
  const objs = lines.map((l) => JSON.parse(l));
  const sessionId = objs.find((o) => typeof o.sessionId === 'string')?.sessionId ?? uuidOf(key);
  const times = objs.map((o) => (o.timestamp ? new Date(o.timestamp) : undefined));
  const timeAt = (i) => times.slice(0, i + 1).reverse().find(Boolean) ?? times.find(Boolean);
  const steps = [{ event: 'SessionStart', source: 'startup', time: timeAt(0), upto: 0 }];
  let turn;
  let pending;
  let sentBack = false;
  const stop = (upto) => {
    if (pending) steps.push({ event: 'Stop', time: pending.time, reply: pending.text, turn, stopHookActive: sentBack, upto });
    pending = undefined;
  };
  objs.forEach((o, i) => {
    if (o.isSidechain) return;
    const c = o.message?.content;
    if (o.type === 'user' && o.message?.role === 'user') {
      const text = textOf(c).trim();
      if (o.isMeta && /^Stop hook feedback/i.test(text)) {
        stop(i);
        sentBack = true;
        return;
      }
      if (o.isMeta || o.isCompactSummary || !text || LOCAL_COMMAND.test(text)) return;
      stop(i);
      turn = uuidOf(`${key}:${i}`);
      sentBack = false;
      steps.push({ event: 'UserPromptSubmit', time: timeAt(i), prompt: text, turn, upto: i + 1 });
    } else if (o.type === 'assistant') {
      const text = textOf(c).trim();
      if (text) pending = { text, time: timeAt(i) };
    } else if (o.type === 'system' && o.subtype === 'compact_boundary') {
      stop(i);
      steps.push({ event: 'PreCompact', time: timeAt(i), turn, trigger: o.compactMetadata?.trigger ?? 'manual', upto: i });
      steps.push({ event: 'SessionStart', source: 'compact', time: timeAt(i), turn, upto: i + 1 });
    }
  });
  stop(lines.length);
  steps.push({ event: 'SessionEnd', time: timeAt(lines.length - 1), turn, upto: lines.length });
  return { sessionId, transcript: { copy: lines }, steps: startFirst(steps) };
}

/** The hook events of a pi session (its JSONL lines as strings), replayed as Claude Code's. */
export function piPlan(lines, key) {
  const objs = lines.map((l) => JSON.parse(l));
  const sessionId = objs.find((o) => o.type === 'session')?.id ?? uuidOf(key);
  const timeAt = (i) => new Date(objs[i]?.timestamp ?? objs.find((o) => o.timestamp).timestamp);
  const steps = [{ event: 'SessionStart', source: 'startup', time: timeAt(0), upto: 0 }];
  let turn;
  let pending;
  const stop = (upto) => {
    if (pending) steps.push({ event: 'Stop', time: pending.time, reply: pending.text, turn, stopHookActive: false, upto });
    pending = undefined;
  };
  objs.forEach((o, i) => {
    if (o.type === 'compaction') {
      stop(i);
      steps.push({ event: 'PreCompact', time: timeAt(i), turn, trigger: 'auto', upto: i });
      steps.push({ event: 'SessionStart', source: 'compact', time: timeAt(i), turn, upto: i + 1 });
      return;
    }
    if (o.type !== 'message') return;
    const m = o.message;
    if (m?.role === 'user') {
      const text = textOf(m.content).trim();
      if (!text) return;
      stop(i);
      turn = uuidOf(`${key}:${i}`);
      steps.push({ event: 'UserPromptSubmit', time: timeAt(i), prompt: text, turn, upto: i + 1 });
    } else if (m?.role === 'assistant') {
      const text = textOf(m.content).trim();
      if (text) pending = { text, time: timeAt(i) };
    }
  });
  stop(lines.length);
  steps.push({ event: 'SessionEnd', time: timeAt(lines.length - 1), turn, upto: lines.length });
  return { sessionId, transcript: { copy: lines }, steps: startFirst(steps) };
}

/** A transcript line in Claude Code 2.1.x's JSONL (the fields its user and assistant lines carry). */
function claudeLine(role, { sessionId, cwd, text, time, uuid, parent }) {
  const common = { parentUuid: parent ?? null, isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.332', gitBranch: 'main' };
  const message =
    role === 'user'
      ? { role: 'user', content: text }
      : { model: 'claude-opus-4-5', id: `msg_${uuid.replace(/-/g, '').slice(0, 24)}`, type: 'message', role: 'assistant', content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null };
  return JSON.stringify({ ...common, type: role, message, uuid, timestamp: time.toISOString() });
}

/**
 * The hook events of one session given as turns `[{prompt?, reply?, time}]` (a turn without a prompt
 * is a reply the host shows before any prompt, e.g. a LoCoMo session that B opens), with a Claude
 * Code transcript written as the turns happen. `end` is the time of SessionEnd.
 */
export function turnsPlan(turns, { key, cwd, start, end }) {
  const sessionId = uuidOf(key);
  const steps = [{ event: 'SessionStart', source: 'startup', time: start, append: [] }];
  let parent;
  let turn;
  turns.forEach((t, i) => {
    turn = uuidOf(`${key}:${i}`);
    if (t.prompt !== undefined) {
      const uuid = uuidOf(`${key}:${i}:u`);
      steps.push({ event: 'UserPromptSubmit', time: t.time, prompt: t.prompt, turn, append: [claudeLine('user', { sessionId, cwd, text: t.prompt, time: t.time, uuid, parent })] });
      parent = uuid;
    }
    if (t.reply !== undefined) {
      const uuid = uuidOf(`${key}:${i}:a`);
      const time = new Date(t.time.getTime() + 20_000);
      steps.push({ event: 'Stop', time, reply: t.reply, turn, stopHookActive: false, append: [claudeLine('assistant', { sessionId, cwd, text: t.reply, time, uuid, parent })] });
      parent = uuid;
    }
  });
  steps.push({ event: 'SessionEnd', time: end, turn, append: [] });
  return { sessionId, transcript: { write: true }, steps };
}

/** The payload Claude Code 2.1.332 sends for `step` (fields as in shared/data/host-payloads/claude-code). */
function payloadOf(step, base) {
  switch (step.event) {
    case 'SessionStart':
      return { ...base, ...(step.source === 'compact' && step.turn ? { prompt_id: step.turn } : {}), source: step.source };
    case 'UserPromptSubmit':
      return { ...base, prompt_id: step.turn, permission_mode: 'default', prompt: step.prompt };
    case 'Stop':
      return { ...base, prompt_id: step.turn, permission_mode: 'default', effort: { level: 'medium' }, stop_hook_active: step.stopHookActive, ...(step.reply ? { last_assistant_message: step.reply } : {}), background_tasks: [], session_crons: [] };
    case 'PreCompact':
      return { ...base, prompt_id: step.turn, trigger: step.trigger, custom_instructions: '' };
    case 'SessionEnd':
      return { ...base, ...(step.turn ? { prompt_id: step.turn } : {}), reason: 'other' };
    default:
      throw new Error(`unknown event ${step.event}`);
  }
}

/**
 * Live `plan` through the hooks for `user`: before each event the clock is set to its time (in
 * process) and the transcript holds what the host had written by then. Resolves to the number of
 * events run.
 */
export async function replay(user, plan, opts = {}) {
  const transcriptPath = join(user.transcripts, `${plan.sessionId}.jsonl`);
  writeFileSync(transcriptPath, '');
  let written = 0;
  const base = { session_id: plan.sessionId, transcript_path: transcriptPath, cwd: user.project };
  for (const step of plan.steps) {
    if (plan.transcript.copy) {
      const upto = step.upto ?? written;
      if (upto > written) appendFileSync(transcriptPath, plan.transcript.copy.slice(written, upto).map((l) => l + '\n').join(''));
      written = Math.max(written, upto);
    } else if (step.append?.length) appendFileSync(transcriptPath, step.append.map((l) => l + '\n').join(''));
    if (!opts.processes) setClock(step.time);
    await hook(user, step.event, payloadOf(step, base), opts);
  }
  return plan.steps.length;
}

/**
 * A new session that asks `question` (SessionStart, then UserPromptSubmit with the question) at
 * `time`: resolves to `{start, prompt}`, what each of the two hooks injected.
 */
export async function ask(user, question, { key, time, processes }) {
  const sessionId = uuidOf(`ask:${key}`);
  const base = { session_id: sessionId, transcript_path: join(user.transcripts, `${sessionId}.jsonl`), cwd: user.project };
  if (!processes) setClock(time);
  const start = await hook(user, 'SessionStart', { ...base, source: 'startup' }, { processes });
  const prompt = await hook(user, 'UserPromptSubmit', { ...base, prompt_id: uuidOf(`ask:${key}:p`), permission_mode: 'default', prompt: question }, { processes });
  return { start, prompt };
}
