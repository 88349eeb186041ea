import { blocksText, isMessageEvent } from '@hive-mind/session';
import type { Transcript } from '../types.js';

type Rec = Record<string, unknown>;

/**
 * The model and context window a session file records, newest first wins:
 * - `model`: the last assistant message's model (Claude Code, pi), else Codex's last
 *   `turn_context.model`;
 * - `window` (tokens): Codex's `model_context_window`, from its last `event_msg`
 *   `token_count.info` or `task_started` record (codex-rs protocol `TokenCountEvent`,
 *   `TaskStartedEvent`; seen in 0.171.0 rollouts). Other hosts record none.
 */
export function recordedModel(t: Transcript): { model?: string; window?: number } {
  let model: string | undefined;
  let turnModel: string | undefined;
  let window: number | undefined;
  for (const e of t.log.events()) {
    if (isMessageEvent(e)) {
      if (e.type === 'assistant/message' && e.model) model = e.model;
      continue;
    }
    if (e.type !== 'host/record') continue;
    const rec = (e.data as Rec | undefined)?.record as Rec | undefined;
    const p = rec?.payload as Rec | undefined;
    if (!rec || !p) continue;
    if (rec.type === 'turn_context' && typeof p.model === 'string') turnModel = p.model;
    if (rec.type === 'event_msg') {
      const info = p.info as Rec | undefined;
      const w = p.type === 'token_count' ? info?.model_context_window : p.type === 'task_started' ? p.model_context_window : undefined;
      if (typeof w === 'number' && w > 0) window = w;
    }
  }
  const m = model ?? turnModel;
  return { ...(m ? { model: m } : {}), ...(window ? { window } : {}) };
}

/**
 * The compactions on a session's log: every checkpoint the file holds, split by whether its
 * text carries `marker` (the framing hive-mind's checkpoints open with) or was the host's own.
 */
export function compactionCounts(t: Transcript, marker: string): { ours: number; host: number } {
  let ours = 0;
  let host = 0;
  for (const e of t.log.events()) {
    if (!isMessageEvent(e) || e.kind !== 'checkpoint' || e.seq > t.importedLastSeq) continue;
    if (blocksText(e.content).includes(marker)) ours++;
    else host++;
  }
  return { ours, host };
}
