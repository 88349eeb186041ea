/**
 * The lifecycles that keep text (lifecycles.ts dispatches to them, loading this module only for
 * them): `user-prompt-submit`'s save of the prompt, `stop`'s save of the reply, `session-end`'s
 * transcript backfill and hook policies. Each is a turn of the history (history.ts) plus the standing
 * frames the mind's rules find in it (mind `promptStanding`, `replyStanding`), saved through
 * capture.ts (spooled when the mind is busy or the disk full). SessionStart and PreCompact, which
 * keep nothing, never load this module nor the capture path behind it.
 */
import { createHash } from 'node:crypto';
import { acknowledgesOnly, acknowledgesRule, promptStanding, replyStanding, type FrameInput, type StandingFrame } from '@hive-mind/mind/hook';
import { saveCaptures } from './capture.js';
import { backfillTranscript, promptTurn, replyTurn } from './history.js';
import type { LifecycleInput } from './types.js';
import { mindsFor } from './workspace.js';

/**
 * Session end: the turns of the host's transcript the hooks missed first (they carry the times they
 * were said), then the reply capture (only what the last reply establishes when the backfill saved
 * its turn), then the hook policies the transcript shows.
 */
export function sessionEnd(input: LifecycleInput, env: NodeJS.ProcessEnv, now: Date, busy: number, log?: (line: string) => void): void {
  const minds = mindsFor(input, env);
  // each turn to the workspace of the folder the transcript says it was said in (the payload's without one)
  const targetOf = (cwd: string | undefined) => {
    const m = cwd === input.cwd ? minds : mindsFor({ ...input, cwd, workspaceRoots: undefined }, env);
    return { path: m.workspace?.path ?? m.personal, ...(m.workspace ? { workspace: m.workspace.id } : {}) };
  };
  const r = backfillTranscript(input, targetOf, env, now, busy);
  if (r.cut) log?.(`transcript backfill kept the newest ${r.saved} of ${r.found} turns (time limit); \`hive-mind mind import ${input.transcriptPath}\` keeps the rest`);
  // the backfill saved the transcript's newest turns (with their own times and ids): the reply
  // capture then only adds what the last reply establishes, not the turn a second time; it and the
  // hook policies go where the transcript's last turn was said
  const last = r.cwd && r.cwd !== input.cwd ? { ...input, cwd: r.cwd, workspaceRoots: undefined } : input;
  captureReply(last, env, now, busy, { turns: r.saved === 0 });
  saveHookPolicies(last, last === input ? minds : mindsFor(last, env), r.hookPolicies, env, busy);
}

function base(input: LifecycleInput, workspace: string | undefined): Pick<FrameInput, 'host' | 'sessionId' | 'workspace'> {
  return { host: input.host, sessionId: input.sessionId, workspace };
}

/** The prompt of a UserPromptSubmit: a turn of the history, and beside it the standing frames it gives. */
export function userPromptSubmit(input: LifecycleInput, env: NodeJS.ProcessEnv, now: Date, busy: number): void {
  const prompt = (input.prompt ?? '').trim();
  if (!prompt) return;
  const minds = mindsFor(input, env);
  const target = minds.workspace?.path ?? minds.personal;
  const ws = minds.workspace?.id;
  // the prompt itself: a turn of the session's history (history.ts); beside it, the standing frames it gives
  const turn = promptTurn(input, ws, now);
  const wsFrames: FrameInput[] = turn ? [turn] : [];
  const split = standingFrames(input, ws, promptStanding(prompt), 'user_stated', '');
  wsFrames.push(...split.workspace);
  const where = { host: input.host, event: input.nativeEvent };
  saveCaptures(target, busy, wsFrames, env, where);
  if (split.personal.length) saveCaptures(minds.personal, busy, split.personal, env, where);
}

/**
 * Standing frames as the mind's inputs: a preference about the user goes to the personal mind, the
 * rest to the workspace; `turnId#<prefix><key>` keeps each idempotent (the same key from the prompt at
 * UserPromptSubmit and again at Stop is one frame).
 */
function standingFrames(input: LifecycleInput, ws: string | undefined, frames: readonly StandingFrame[], source: 'user_stated' | 'agent_inferred', prefix: string): { workspace: FrameInput[]; personal: FrameInput[] } {
  const out = { workspace: [] as FrameInput[], personal: [] as FrameInput[] };
  for (const f of frames) {
    const personal = f.kind === 'preference';
    (personal ? out.personal : out.workspace).push({
      ...base(input, ws),
      content: f.content,
      kind: f.kind,
      importance: f.importance,
      source,
      turnId: input.turnId ? `${input.turnId}#${prefix}${f.key}` : undefined,
      scope: personal ? 'personal' : 'workspace',
    });
  }
  return out;
}

/**
 * The reply of a Stop (or of the transcript at session end) kept as a turn of the history (with the
 * prompt before it when the transcript gave the reply; not with `turns: false`, when the session-end
 * backfill saved them already), and beside it the standing frames the reply
 * gives (what the agent established, never critical: that is the user's to say) and a rule of the
 * turn's prompt the reply acknowledges as lasting. A reply that gives none is only the history's.
 */
export function captureReply(input: LifecycleInput, env: NodeJS.ProcessEnv, now: Date, busy: number, opts: { turns?: boolean } = {}): void {
  const minds = mindsFor(input, env);
  const ws = minds.workspace?.id;
  const { reply, missedPrompt, text, prompt } = replyTurn(input, ws, now);
  if (!reply || !text) return;
  // a reply that only agrees to the prompt ("D'accord, c'est noté : la base est sur le port 5433.") states
  // the prompt's memory again: the prompt's frames are the memory, not a copy in the agent's words
  const echo = !!prompt && acknowledgesOnly(text, prompt);
  const standing = echo ? { workspace: [], personal: [] } : standingFrames(input, ws, replyStanding(text), 'agent_inferred', 'r:');
  const acknowledged = prompt && (echo || acknowledgesRule(text)) ? standingFrames(input, ws, promptStanding(prompt, { reply: text }), 'user_stated', '') : { workspace: [], personal: [] };
  const turns = opts.turns === false ? [] : [...(missedPrompt ? [missedPrompt] : []), reply];
  const frames: FrameInput[] = [...turns, ...standing.workspace, ...acknowledged.workspace];
  if (!frames.length) return;
  const where = { host: input.host, event: input.nativeEvent };
  saveCaptures(minds.workspace?.path ?? minds.personal, busy, frames, env, where);
  if (acknowledged.personal.length) saveCaptures(minds.personal, busy, acknowledged.personal, env, where);
}

/**
 * What a hook that blocked the agent requires ("The Stop hook (stop.sh) blocks the agent: Uncommitted
 * Changes Detected. Cannot exit with unstaged changes."), read from the transcript at session end: one
 * `environment` frame each in the workspace mind, as `mind import` keeps it (the host wrote it, so it
 * is `tool_verified`; the same wording again is the same frame).
 */
function saveHookPolicies(input: LifecycleInput, minds: ReturnType<typeof mindsFor>, policies: readonly string[], env: NodeJS.ProcessEnv, busy: number): void {
  if (!policies.length || !input.sessionId) return;
  const frames: FrameInput[] = policies.map((content) => ({
    ...base(input, minds.workspace?.id),
    content,
    kind: 'environment',
    importance: 'normal',
    source: 'tool_verified',
    tags: ['environment', 'hook'],
    turnId: `hook:${createHash('sha1').update(content).digest('hex').slice(0, 16)}`,
    scope: minds.workspace ? 'workspace' : 'personal',
  }));
  saveCaptures(minds.workspace?.path ?? minds.personal, busy, frames, env, { host: input.host, event: input.nativeEvent });
}
