import { isMessageEvent, type MessageEvent, type SessionEvent } from '@hive-mind/session';
import type { Transcript, TranscriptFormat } from './types.js';

/**
 * The counts `hive-mind inspect --json` prints. Definitions:
 * - `events`: every event on the log (message and log-only).
 * - `messages`: message events on the whole log, shadowed ones included. `user` = host user
 *   messages (pi `bashExecution` included, it reaches the model as user text); `assistant` =
 *   assistant messages (a Claude Code line per content block, so one API message may count
 *   several times); `tool` = host tool-result messages; `other` = system/developer messages,
 *   checkpoints (host compaction summaries) and synthetic repair events. Copies the pi reader
 *   appends again when a compaction keeps entries an older one had hidden (`meta.copyOf`)
 *   are not counted again (here and in `toolCalls`/`toolResults`).
 * - `toolCalls`: tool-call blocks on the whole log; `toolResults`: tool-result blocks the host
 *   recorded (synthetic repair results excluded).
 * - `repairedCalls`, `compactions`: from the import report.
 * - `surfaceTokens`: tokens of the visible surface; `logTokens`: tokens of every message event
 *   on the log; `largest`: the five message events with the most tokens (ties: lower seq first).
 *   Tokens come from the `countEvent` callback (the CLI uses `TokenMeter`).
 */
export interface TranscriptStats {
  format: TranscriptFormat;
  events: number;
  messages: { user: number; assistant: number; tool: number; other: number };
  toolCalls: number;
  toolResults: number;
  repairedCalls: number;
  compactions: number;
  surfaceTokens: number;
  logTokens: number;
  largest: Array<{ seq: number; type: string; tokens: number }>;
}

/** Compute {@link TranscriptStats}; `countEvent` returns the tokens of one message event. */
export function transcriptStats(t: Transcript, countEvent: (e: MessageEvent) => number, largestN = 5): TranscriptStats {
  const messages = { user: 0, assistant: 0, tool: 0, other: 0 };
  let toolCalls = 0;
  let toolResults = 0;
  let logTokens = 0;
  const sized: Array<{ seq: number; type: string; tokens: number }> = [];
  const all: SessionEvent[] = t.log.events();
  for (const e of all) {
    if (!isMessageEvent(e)) continue;
    const n = countEvent(e);
    logTokens += n;
    sized.push({ seq: e.seq, type: e.type, tokens: n });
    if (e.meta?.copyOf !== undefined) continue;
    const synthetic = e.kind === 'checkpoint' || e.kind === 'repair';
    if (synthetic || e.type === 'system/message') messages.other++;
    else if (e.type === 'user/message') messages.user++;
    else if (e.type === 'assistant/message') messages.assistant++;
    else messages.tool++;
    for (const b of e.content) {
      if (b.type === 'tool-call') toolCalls++;
      else if (b.type === 'tool-result' && e.kind !== 'repair') toolResults++;
    }
  }
  let surfaceTokens = 0;
  for (const n of t.log.surface()) surfaceTokens += countEvent(n);
  sized.sort((a, b) => b.tokens - a.tokens || a.seq - b.seq);
  return {
    format: t.format,
    events: all.length,
    messages,
    toolCalls,
    toolResults,
    repairedCalls: t.report.repairedCalls,
    compactions: t.report.compactions,
    surfaceTokens,
    logTokens,
    largest: sized.slice(0, largestN),
  };
}
