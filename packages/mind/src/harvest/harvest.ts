import { textBlocksText as rawTextOf, type SessionEvent, type ContentBlock } from '@hive-mind/session';
import type { FrameInput } from '../frame.js';
import type { LlmHarvestOptions } from './harvest-llm.js';
import { redactSecrets } from '../safety/redact.js';
import { fixOf, hookPolicyOf, meaningfulError } from './harvest-rules.js';
import { historyTurnsOf } from '../history/history-import.js';
import { hostWritten, isProtocol } from './host-text.js';
import { promptStanding, replyStanding, type StandingFrame, type StandingKind } from './standing.js';

/** What {@link harvestEvents} kept, by kind (`error`: tool errors seen; they are kept only with the fix that resolved them). */
export interface HarvestCounts {
  instruction: number;
  preference: number;
  decision: number;
  fact: number;
  environment: number;
  error: number;
  fix: number;
  file: number;
}

/** Frames harvested from a transcript, ready for `Mind.saveMany`. */
export interface Harvest {
  frames: FrameInput[];
  counts: HarvestCounts;
  /** Secrets redacted from the session's text before extraction (a saved frame has none left to redact). */
  redactions: number;
}

const ERRORISH = /\b(?:error|exception|traceback|failed|failure|fatal|panic|cannot|can't|not found|denied|ENOENT|EACCES|segmentation fault)\b/i;
const FILE_KEYS = ['file_path', 'filePath', 'path', 'notebook_path', 'file', 'filename', 'target_file'];
const WRITE_TOOLS = /^(?:edit|multiedit|write|str_replace.*|create|apply_patch|patch|notebookedit|write_file|edit_file|replace)$/i;
/** A slash command as Claude Code records it; the user message right after it is the command's expanded prompt, written by the host. */
const COMMAND_RECORD = /^\s*<command-(?:name|message)>/;

/**
 * The text of a message, secrets redacted: every rule below sees redacted text, so a secret never
 * decides what is kept and a length limit can never cut one into a part the redactor no longer knows.
 */
function textOf(blocks: readonly ContentBlock[], redacted: { n: number }): string {
  const t = rawTextOf(blocks);
  return t ? redact(t, redacted) : t;
}

function redact(text: string, redacted: { n: number }): string {
  const r = redactSecrets(text);
  redacted.n += r.redactions.length;
  return r.text;
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 12 && s.length <= 600);
}

/** The event's own time as ISO 8601, or undefined when the transcript had none usable. */
function tsOf(e: { ts?: unknown }): string | undefined {
  if (typeof e.ts !== 'string') return undefined;
  const t = Date.parse(e.ts);
  return Number.isNaN(t) || t > Date.now() + 86_400_000 ? undefined : new Date(t).toISOString();
}

function clip(s: string, max: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : one.slice(0, max - 1) + '…';
}

function filesOf(input: unknown, out: Set<string>): void {
  if (!input || typeof input !== 'object') {
    if (typeof input === 'string') for (const m of input.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm)) out.add(m[1]!.trim());
    return;
  }
  const o = input as Record<string, unknown>;
  for (const k of FILE_KEYS) if (typeof o[k] === 'string' && (o[k] as string).length < 500) out.add(o[k] as string);
  for (const k of ['input', 'patch', 'command', 'cmd']) if (typeof o[k] === 'string') filesOf(o[k], out);
  if (Array.isArray(o.edits)) for (const e of o.edits) filesOf(e, out);
}

type MessageEvent = Extract<SessionEvent, { content: ContentBlock[] }>;

/**
 * Why a user message of the transcript is the host's rather than the user's: marked `isMeta` by
 * Claude Code, the expanded prompt right after a slash command's record, or host text by its form
 * ({@link hostWritten}); undefined for the user's own words.
 */
function hostReason(ev: MessageEvent, text: string, previousUser: string | undefined): string | undefined {
  if ((ev as { meta?: Record<string, unknown> }).meta?.isMeta === true) return 'marked isMeta by the host';
  if (previousUser !== undefined && COMMAND_RECORD.test(previousUser)) return "a slash command's expanded prompt";
  return hostWritten(text);
}

/**
 * For each user message, the last assistant text of its turn (before the next user message that
 * is the user's own): what the Stop hook sees as the reply, and what {@link promptStanding} reads
 * for the agent's acknowledgement of a rule.
 */
function finalReplies(events: readonly MessageEvent[]): Map<number, string> {
  const out = new Map<number, string>();
  let last: string | undefined;
  for (let i = events.length - 1; i >= 0; i--) {
    const ev = events[i]!;
    const raw = rawTextOf(ev.content);
    if (ev.type === 'assistant/message' && raw && last === undefined) last = raw;
    if (ev.type === 'user/message' && raw) {
      if (last !== undefined) out.set(ev.seq, last);
      if (!isProtocol(raw) && !COMMAND_RECORD.test(raw)) last = undefined;
    }
  }
  return out;
}

/**
 * Turn a session's events into frames of lasting facts, by the same rules as the hooks (standing.ts):
 * - each user message that is the user's own (not `isMeta`, not a slash command's expanded prompt,
 *   not host text: host-text.ts) through {@link promptStanding}, with its turn's final reply as
 *   the reply that may acknowledge a rule: `instruction`, `preference`, `decision`, `environment`,
 *   `fact` (a memory request), `critical` only under the user's explicit mark;
 * - each assistant message through {@link replyStanding}: where something lives or runs, a switch,
 *   a cause, a schedule or an order (status chatter and narration give nothing);
 * - `fix`: a project error with the assistant's next sentence that states, after the fact, its
 *   cause or resolution (bare exit codes, aborts, the agent's own tool misuse such as an edit that
 *   did not match, minified code and hedged guesses are not kept; such an error is counted, not
 *   stored); the cause is then kept once, as the fix;
 * - `file`: the files read and modified, one frame per session;
 * - `environment` also: what a hook that blocked the agent requires ({@link hookPolicyOf}: "The Stop
 *   hook (stop.sh) blocks the agent: ... Cannot exit with unstaged changes."), once per wording.
 * Every frame's `createdAt` is its event's timestamp (the last event's for the file list), and
 * every frame carries host, sessionId and a `turnId` of `import:<seq>...`, so importing the same
 * transcript twice adds nothing (idempotency key). Checkpoint summaries and repair nodes are skipped.
 */
export function harvestEvents(events: readonly SessionEvent[], ctx: { host: string; sessionId: string; workspace?: string }): Harvest {
  const frames: FrameInput[] = [];
  const counts: HarvestCounts = { instruction: 0, preference: 0, decision: 0, fact: 0, environment: 0, error: 0, fix: 0, file: 0 };
  const base = { host: ctx.host, sessionId: ctx.sessionId, source: 'import' as const, ...(ctx.workspace ? { workspace: ctx.workspace, scope: 'workspace' as const } : {}) };
  const redacted = { n: 0 };
  const modified = new Set<string>();
  const read = new Set<string>();
  let pendingError: { seq: number; text: string } | undefined;
  let lastTs: string | undefined;
  let previousUser: string | undefined;
  const messages = events.filter((e): e is MessageEvent => 'content' in e && Array.isArray((e as { content?: unknown }).content) && (e as MessageEvent).kind !== 'checkpoint' && (e as MessageEvent).kind !== 'repair');
  const replies = finalReplies(messages);
  const keep = (f: StandingFrame, seq: number, when: { createdAt?: string }, who: 'user' | 'agent') => {
    frames.push({ ...base, ...when, kind: f.kind, importance: f.importance, content: f.content, turnId: `import:${seq}:${f.key}`, tags: [f.kind, who] });
    counts[f.kind as StandingKind]++;
  };
  for (const e of events) {
    const at = tsOf(e as { ts?: unknown });
    if (at) lastTs = at;
  }
  for (const ev of messages) {
    const at = tsOf(ev as { ts?: unknown });
    const when = at ? { createdAt: at } : {};
    if (ev.type === 'user/message') {
      const text = textOf(ev.content, redacted);
      const host = text ? hostReason(ev, text, previousUser) : undefined;
      if (text) previousUser = text;
      if (host) {
        // a hook that blocked the agent states one lasting fact about the project
        const policy = isProtocol(text) ? hookPolicyOf(text) : undefined;
        if (policy) {
          frames.push({ ...base, ...when, kind: 'environment', importance: 'normal', content: policy, turnId: `import:${ev.seq}:hook`, tags: ['environment', 'hook'] });
          counts.environment++;
        }
      } else if (text) {
        const reply = replies.get(ev.seq);
        for (const f of promptStanding(text, reply !== undefined ? { reply: redact(reply, { n: 0 }) } : {})) keep(f, ev.seq, when, 'user');
      }
    }
    for (const b of ev.content) {
      if (b.type === 'tool-call') {
        const fs = new Set<string>();
        filesOf(b.input, fs);
        for (const f of fs) (WRITE_TOOLS.test(b.name) ? modified : read).add(f);
      } else if (b.type === 'tool-result') {
        const raw = b.content
          .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
          .map((c) => c.text)
          .join('\n');
        const rawErr = raw.split('\n').find((l) => ERRORISH.test(l));
        if (b.isError || (rawErr && /^(?:error|fatal|traceback|exception)/i.test(rawErr.trim()))) {
          // only an error's text is kept (with its fix), so only it is redacted, whole, before the cut
          const t = redact(raw, redacted);
          const line = clip(t.split('\n').find((l) => ERRORISH.test(l)) ?? t, 500);
          counts.error++;
          pendingError = line && meaningfulError(line) ? { seq: ev.seq, text: line } : undefined;
        }
      }
    }
    if (ev.type === 'assistant/message') {
      const t = textOf(ev.content, redacted);
      if (!t) continue;
      const fix = pendingError ? fixOf(sentences(t)) : undefined;
      if (pendingError && fix) {
        frames.push({ ...base, ...when, kind: 'fix', importance: 'normal', content: clip(`Fix for "${clip(pendingError.text, 160)}": ${fix}`, 800), turnId: `import:${ev.seq}:fix`, tags: ['fix'] });
        counts.fix++;
        pendingError = undefined;
      }
      for (const f of replyStanding(t)) {
        // the cause a fix frame already holds is not kept twice
        if (fix && (fix.includes(f.content.replace(/[.。]$/, '')) || f.content.includes(fix.replace(/[.。]$/, '')))) continue;
        keep(f, ev.seq, when, 'agent');
      }
    }
  }
  if (modified.size || read.size) {
    const parts: string[] = [];
    if (modified.size) parts.push(`modified: ${[...modified].slice(0, 200).join(', ')}`);
    const onlyRead = [...read].filter((f) => !modified.has(f));
    if (onlyRead.length) parts.push(`read: ${onlyRead.slice(0, 200).join(', ')}`);
    frames.push({ ...base, ...(lastTs ? { createdAt: lastTs } : {}), kind: 'file', content: `Files touched in session ${ctx.sessionId} (${ctx.host}): ${parts.join('; ')}`, turnId: 'import:files', tags: ['files'] });
    counts.file++;
  }
  return { frames, counts, redactions: redacted.n };
}

/**
 * The session's working directory as the transcript recorded it: Claude Code's per-record `cwd`,
 * pi's session header `cwd`, Codex's `session_meta`/`turn_context` payload `cwd`. Undefined
 * when none is recorded or it is not an absolute path.
 */
export function transcriptCwd(events: readonly SessionEvent[], state?: Record<string, unknown>): string | undefined {
  const abs = (v: unknown) => (typeof v === 'string' && (v.startsWith('/') || /^[A-Za-z]:[\\/]/.test(v)) ? v : undefined);
  const common = state?.common as Record<string, unknown> | undefined;
  const fromState = abs(common?.cwd) ?? abs(state?.cwd);
  if (fromState) return fromState;
  for (const e of events) {
    if (e.type !== 'session/meta' && e.type !== 'host/record') continue;
    const d = (e as { data?: Record<string, unknown> }).data;
    if (!d) continue;
    const rec = d.record as Record<string, unknown> | undefined;
    const payload = (d.payload ?? rec?.payload) as Record<string, unknown> | undefined;
    const c = abs(d.cwd) ?? abs(payload?.cwd) ?? abs(rec?.cwd);
    if (c) return c;
  }
  return undefined;
}

/**
 * The host's own id of the session, as the transcript recorded it: the reader's state
 * (`sessionId` of Claude Code's common record fields, Codex's `session_meta`, pi's header), else a
 * `session/meta` event's `id` or `session_id`. Undefined when the file records none.
 */
export function transcriptSessionId(events: readonly SessionEvent[], state?: Record<string, unknown>): string | undefined {
  const ok = (v: unknown) => (typeof v === 'string' && v.trim() && v.length <= 512 ? v.trim() : undefined);
  const common = state?.common as Record<string, unknown> | undefined;
  const fromState = ok(state?.sessionId) ?? ok(common?.sessionId) ?? ok(state?.session_id);
  if (fromState) return fromState;
  for (const e of events) {
    if (e.type !== 'session/meta') continue;
    const d = (e as { data?: Record<string, unknown> }).data;
    const id = ok(d?.id) ?? ok(d?.session_id) ?? ok(d?.sessionId);
    if (id) return id;
  }
  return undefined;
}

/**
 * Read a transcript in any format `@hive-mind/transcripts` reads (loaded lazily here) and
 * harvest it: its history turns (`turns`, history-import.ts) and its lasting facts, offline (the default), or with `llm` through the summarizer settings of compaction
 * (harvest-llm.ts; `extractor: 'llm'`, or `'offline'` with `fallback` naming why the model could not
 * be used). `onProgress(bytes, total)` reports reading progress.
 * Throws the transcripts package's `TranscriptError` (one line naming file, line and field).
 */
export async function harvestTranscriptFile(
  path: string,
  opts: { lenient?: boolean; onProgress?: (bytes: number, total: number) => void; workspace?: string; llm?: LlmHarvestOptions } = {},
): Promise<Harvest & { format: string; sessionId: string; events: number; cwd?: string; turns: FrameInput[]; extractor: 'offline' | 'llm'; fallback?: string; llmRequests?: number; llmDropped?: number }> {
  const { readTranscriptFile } = await import('@hive-mind/transcripts');
  const t = await readTranscriptFile(path, { ...(opts.lenient ? { lenient: true } : {}), ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) });
  const events = t.log.events();
  // provenance: the host's own session id; the file name only when the file records none
  const sessionId = transcriptSessionId(events, t.source.state) ?? t.log.id;
  const ctx = { host: t.format, sessionId, ...(opts.workspace ? { workspace: opts.workspace } : {}) };
  const cwd = transcriptCwd(events, t.source.state);
  // the session's turns, for the history (history-import.ts), beside the lasting facts harvested from them
  const turns = historyTurnsOf(events, { host: t.format, sessionId, ...(cwd ? { cwd } : {}), ...(opts.workspace ? { workspace: opts.workspace } : {}) });
  const meta = { format: t.format, sessionId, events: events.length, ...(cwd ? { cwd } : {}), turns };
  if (!opts.llm) return { ...harvestEvents(events, ctx), ...meta, extractor: 'offline' };
  const { harvestEventsWithLlm } = await import('./harvest-llm.js');
  const { extractor, fallback, requests, dropped, ...h } = await harvestEventsWithLlm(events, ctx, opts.llm);
  return { ...h, ...meta, extractor, ...(fallback ? { fallback } : {}), llmRequests: requests, llmDropped: dropped };
}
