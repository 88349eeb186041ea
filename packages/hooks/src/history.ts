/**
 * The history as the hooks keep it (mind README "History"): every prompt a UserPromptSubmit sees
 * and every reply a Stop sees become turns of their session in the workspace mind (the personal
 * mind without a workspace), with the host, the host's session and turn ids, the time, the working
 * folder; at session end, the turns of the host's transcript the hooks missed (a turn interrupted
 * before Stop, the assistant's messages before its last one, prompts a failing hook lost), read
 * from its last {@link TRANSCRIPT_BACKFILL_BYTES} and saved newest first in short transactions until
 * {@link BACKFILL_TIME_MS} has passed. A turn already kept is the same turn (the mind's turn
 * identity), so nothing is stored twice.
 */
import { statSync } from 'node:fs';
import { acknowledgesRule, mayAcknowledge, turnFrame, type FrameInput } from '@hive-mind/mind/hook';
import { isHostText } from '@hive-mind/mind/history';
import { saveCaptures, type CaptureOutcome } from './capture.js';
import { lastTurnFromTranscript, TRANSCRIPT_BACKFILL_BYTES, transcriptTurns } from './transcript-tail.js';
import type { LifecycleInput } from './types.js';

/** Time the session-end backfill may spend saving, in ms (the hook's watchdog is 10 s by default). */
const BACKFILL_TIME_MS = 4000;
/** Turns saved per transaction by the backfill: short, so other hooks get the lock in between, and a cut run leaves whole turns. */
const BACKFILL_BATCH = 50;

/** Where an event's turns go: the workspace (id) and the .mind file. */
export interface TurnTarget {
  path: string;
  workspace?: string;
}

/** The prompt of a UserPromptSubmit as a turn, or undefined when there is none (or it is host text). */
export function promptTurn(input: LifecycleInput, ws: string | undefined, now: Date): FrameInput | undefined {
  const text = input.prompt?.trim();
  if (!text || !input.sessionId || isHostText(text)) return undefined;
  return turnFrame({ role: 'user', text, ...common(input, ws, now) });
}

/**
 * The reply of a Stop as a turn: the host's assistant text, else the last assistant message in the
 * tail of its transcript; undefined when neither is there. `prompt` is the prompt before the reply in
 * the transcript, read when the reply came from there or acknowledges a rule (mind
 * `acknowledgesRule`: the prompt's rule is then standing) or may only agree to the prompt (mind
 * `mayAcknowledge`: what it states is then the prompt's); `missedPrompt` is that prompt as a turn
 * when the reply was read from the transcript (a UserPromptSubmit that never ran keeps it).
 */
export function replyTurn(input: LifecycleInput, ws: string | undefined, now: Date): { reply?: FrameInput; missedPrompt?: FrameInput; text?: string; prompt?: string } {
  if (!input.sessionId) return {};
  let text = input.assistantText?.trim();
  const given = Boolean(text);
  let prompt: string | undefined;
  if (input.transcriptPath && (!text || acknowledgesRule(text) || mayAcknowledge(text))) {
    try {
      const t = lastTurnFromTranscript(input.transcriptPath);
      text ||= t.assistantText?.trim();
      prompt = t.userText?.trim() || undefined;
    } catch (e) {
      // no transcript yet (a session that ended before its first turn): nothing to capture
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw namingTranscript(input.transcriptPath, e);
    }
  }
  if (!text) return {};
  const at = common(input, ws, now);
  return {
    text,
    reply: turnFrame({ role: 'assistant', text, ...at }),
    ...(prompt ? { prompt } : {}),
    ...(!given && prompt && !isHostText(prompt) ? { missedPrompt: turnFrame({ role: 'user', text: prompt, ...at, createdAt: new Date(now.getTime() - 1).toISOString() }) } : {}),
  };
}

function common(input: LifecycleInput, ws: string | undefined, now: Date) {
  return {
    host: input.host,
    sessionId: input.sessionId!,
    ...(input.turnId ? { hostTurnId: input.turnId } : {}),
    createdAt: now.toISOString(),
    ...(input.cwd ? { cwd: input.cwd } : {}),
    ...(ws ? { workspace: ws } : {}),
  };
}

/** What the session-end backfill did. */
export interface BackfillReport {
  /** Turns found in the transcript's tail. */
  found: number;
  /** Turns handed to the store (new or already kept), the newest ones; fewer than `found` when the time ran out. */
  saved: number;
  /** The batches' outcomes (saved, or spooled when the store was busy). */
  outcomes: CaptureOutcome[];
  /** True when {@link BACKFILL_TIME_MS} ran out before every turn was saved. */
  cut: boolean;
  /** What the hooks that blocked the agent in this transcript require (mind `hookPolicyOf`), each once, redacted: standing facts of the project. */
  hookPolicies: string[];
  /** The folder the transcript gives for its newest turn, when it gives one that is a directory here and not the payload's. */
  cwd?: string;
}

/**
 * The turns of the transcript at `input.transcriptPath` (its last {@link TRANSCRIPT_BACKFILL_BYTES})
 * saved as history turns of the session, newest first, {@link BACKFILL_BATCH} per transaction, the
 * newest batch always, the others until `timeMs` has passed since the call (the older turns not saved
 * by then stay in the transcript for `mind import`). Each turn goes to the workspace of the folder the
 * transcript gives for it (`targetOf(cwd)`; a session that `cd`s elsewhere, or whose payload's `cwd`
 * differs, keeps each turn where it was said), the payload's `cwd` when the transcript gives none or
 * names a folder that is not a directory here. A turn
 * without a time in the transcript takes the time of the run. Throws the fs error of an unreadable
 * transcript (ENOENT gives an empty report) and what {@link saveCaptures} throws.
 */
export function backfillTranscript(
  input: LifecycleInput,
  targetOf: (cwd: string | undefined) => TurnTarget,
  env: NodeJS.ProcessEnv,
  now: Date,
  busy: number,
  timeMs = BACKFILL_TIME_MS,
): BackfillReport {
  const report: BackfillReport = { found: 0, saved: 0, outcomes: [], cut: false, hookPolicies: [] };
  if (!input.transcriptPath || !input.sessionId) return report;
  const started = Date.now();
  let turns;
  try {
    turns = transcriptTurns(input.transcriptPath, undefined, report.hookPolicies);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return report;
    throw namingTranscript(input.transcriptPath, e);
  }
  report.found = turns.length;
  // a folder the transcript names that is not here (a transcript copied from another machine, a folder
  // since removed) says nothing of where the turn belongs now: the payload's folder does
  const seen = new Map<string, boolean>();
  const folder = (cwd: string | undefined) => {
    if (!cwd || cwd === input.cwd) return input.cwd;
    let here = seen.get(cwd);
    if (here === undefined) seen.set(cwd, (here = isDirectory(cwd)));
    return here ? cwd : input.cwd;
  };
  const last = folder(turns[turns.length - 1]?.cwd);
  if (last && last !== input.cwd) report.cwd = last;
  const targets = new Map<string | undefined, TurnTarget>();
  const frames = turns.map((t) => {
    const cwd = folder(t.cwd);
    let target = targets.get(cwd);
    if (!target) targets.set(cwd, (target = targetOf(cwd)));
    return {
      target,
      frame: turnFrame({
        role: t.role,
        text: t.text,
        host: input.host,
        sessionId: input.sessionId!,
        ...(t.hostTurnId ? { hostTurnId: t.hostTurnId } : {}),
        createdAt: t.ts ?? now.toISOString(),
        ...(cwd ? { cwd } : {}),
        ...(target.workspace ? { workspace: target.workspace } : {}),
      }),
    };
  });
  // newest first: the turns a hook missed are mostly the last ones (a turn interrupted before Stop),
  // so a run the time cap cuts keeps those; the first batch is saved whatever the time (reading a
  // long tail on a loaded machine may take the whole budget)
  for (let end = frames.length; end > 0; end -= BACKFILL_BATCH) {
    if (end < frames.length && Date.now() - started > timeMs) {
      report.cut = true;
      break;
    }
    const batch = frames.slice(Math.max(0, end - BACKFILL_BATCH), end);
    // one transaction per mind the batch's turns go to
    const byMind = new Map<string, FrameInput[]>();
    for (const { target, frame } of batch) byMind.set(target.path, [...(byMind.get(target.path) ?? []), frame]);
    for (const [path, list] of byMind) report.outcomes.push(saveCaptures(path, busy, list, env, { host: input.host, event: input.nativeEvent }));
    report.saved += batch.length;
  }
  return report;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * `e` with the transcript's path in its message (Node's read errors, EISDIR among them, name no
 * path), so the hook log's line says which file; its `code` is kept.
 */
function namingTranscript(path: string, e: unknown): Error {
  const err = e instanceof Error ? e : new Error(String(e));
  if (err.message.includes(path)) return err;
  const named = new Error(`transcript_path ${path}: ${err.message}`, { cause: err });
  const code = (err as NodeJS.ErrnoException).code;
  if (code) (named as NodeJS.ErrnoException).code = code;
  return named;
}
