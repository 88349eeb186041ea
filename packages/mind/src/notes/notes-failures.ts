/**
 * The curated notes' failed writes: counted per turn across processes (`<home>/memories/.turn-failures.json`),
 * capped (`failureCap`: the tool then answers `done: true`), and each refused fact kept as a
 * `pending-note` frame in the mind so nothing is lost.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Mind } from '../store/store.js';
import { redactSecrets } from '../safety/redact.js';
import { atomicWrite, withFileLock } from '../store/lock.js';
import { ensureDir } from '../dirs.js';
import { failuresPath, type NotesContext } from './notes-context.js';
import type { NotesResult, NotesTarget, WriteOptions } from './notes-types.js';

/** Failed writes recorded so far for `turnId`. */
export function failureCount(ctx: NotesContext, turnId: string | undefined): number {
  if (!turnId) return ctx.localFailures.get(ctx.instanceTurn) ?? 0;
  try {
    const all = JSON.parse(readFileSync(failuresPath(ctx), 'utf8')) as Record<string, { count: number; at: string }>;
    return all[turnId]?.count ?? 0;
  } catch {
    return 0;
  }
}

/** Count one more failed write for `turnId` (in this process when there is none); the new count. */
function bumpFailures(ctx: NotesContext, turnId: string | undefined): number {
  if (!turnId) {
    const n = (ctx.localFailures.get(ctx.instanceTurn) ?? 0) + 1;
    ctx.localFailures.set(ctx.instanceTurn, n);
    return n;
  }
  return withFileLock(
    failuresPath(ctx),
    () => {
      let all: Record<string, { count: number; at: string }> = {};
      try {
        all = JSON.parse(readFileSync(failuresPath(ctx), 'utf8')) as typeof all;
      } catch {
        /* fresh */
      }
      const nowMs = ctx.now().getTime();
      // keep the file small: forget turns older than a day
      for (const [k, v] of Object.entries(all)) if (nowMs - Date.parse(v.at) > 86_400_000) delete all[k];
      const n = (all[turnId]?.count ?? 0) + 1;
      all[turnId] = { count: n, at: ctx.now().toISOString() };
      atomicWrite(failuresPath(ctx), JSON.stringify(all));
      return n;
    },
    ctx.lockTimeoutMs,
  );
}

/** Keep a fact that could not be written as a `pending-note` frame in the mind (falls back to PENDING.jsonl). */
export function keepPending(ctx: NotesContext, target: NotesTarget, facts: string[], origin: WriteOptions['origin']): number | undefined {
  const text = facts.map((f) => f.trim()).filter(Boolean);
  if (!text.length) return undefined;
  const thread = target.file === 'memory' ? target.thread : undefined;
  const content = text.join('\n');
  try {
    // opened only when a write failed: reading and writing notes never opens SQLite
    const mind = Mind.open(ctx.mindPath);
    try {
      const r = mind.save({
        content,
        kind: 'pending-note',
        importance: 'important',
        scope: thread ? 'thread' : 'personal',
        source: origin?.source ?? 'agent_inferred',
        host: origin?.host ?? 'notes',
        threadKey: thread ?? '',
        tags: ['pending-note', target.file === 'user' ? 'USER.md' : 'MEMORY.md'],
      });
      return r.id;
    } finally {
      mind.close();
    }
  } catch {
    const red = redactSecrets(content).text;
    ensureDir(ctx.dir, 0o700);
    appendFileSync(join(ctx.dir, 'PENDING.jsonl'), JSON.stringify({ ts: ctx.now().toISOString(), file: target.file, thread, content: red }) + '\n', { mode: 0o600 });
    return undefined;
  }
}

/**
 * A refused write, counted against the turn: the fact kept as a pending frame when it was refused
 * for its size or a threat (or the cap is reached), and past the cap the `failure_cap` result.
 */
export function failWrite(ctx: NotesContext, target: NotesTarget, opts: WriteOptions, result: Exclude<NotesResult, { ok: true }>, facts: string[] = []): NotesResult {
  const n = bumpFailures(ctx, opts.turnId);
  if (result.reason === 'over_limit' || result.reason === 'threat' || n >= ctx.failureCap) {
    const id = keepPending(ctx, target, facts, opts.origin);
    if (id !== undefined) result.pendingFrameId = id;
  }
  if (n >= ctx.failureCap) {
    return {
      ok: false,
      done: true,
      reason: 'failure_cap',
      failures: n,
      message:
        `${n} note writes failed in this turn (last: ${result.message}). Stop retrying the memory tool now and answer the user; ` +
        (result.pendingFrameId !== undefined ? `the fact was kept as pending frame #${result.pendingFrameId} in the mind and can be curated later.` : 'nothing is lost.'),
      ...(result.pendingFrameId !== undefined ? { pendingFrameId: result.pendingFrameId } : {}),
    };
  }
  return result;
}
