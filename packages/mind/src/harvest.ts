import type { SessionEvent, ContentBlock } from '@hive-mind/session';
import type { FrameInput } from './frame.js';

/** What {@link harvestEvents} found, by kind. */
export interface HarvestCounts {
  instruction: number;
  decision: number;
  error: number;
  fix: number;
  file: number;
}

/** Frames harvested from a transcript, ready for `Mind.saveMany`. */
export interface Harvest {
  frames: FrameInput[];
  counts: HarvestCounts;
}

/** Decision phrasing: a commitment to an approach ("I'll use", "we decided to", "switched to", "the root cause was"). */
const DECISION =
  /\b(?:I(?:'ll| will) (?:use|go with|switch to|keep|replace)|we(?:'ll| will| should) (?:use|go with|switch to|keep)|(?:decided|chose|opted) (?:to|for|on)|let's (?:use|go with|switch to|keep)|switched (?:to|from)|the (?:fix|root cause|solution) (?:is|was))\b/i;
/** Guesses and narration that look like decisions but are not ("I bet...", "let me...", "maybe..."). */
const NOT_DECISION = /^(?:I bet|let me|let's see|let's check|maybe|perhaps|probably|I think|I guess|I wonder|it might|it seems|seems|possibly|if )\b/i;
/**
 * What makes a user message a lasting instruction rather than a one-off request: rules and
 * preferences (always, never, don't, must, make sure, prefer, from now on, remember, avoid,
 * "use X ... not/instead Y") and corrections ("no, ...", "that's wrong", "stop ...").
 */
const LASTING =
  /\b(?:always|never|don'?t|do not|doesn'?t need|must(?:n'?t| not)?|make sure|prefer(?:s|red)?|from now on|remember|avoid|no more|should(?:n'?t| not)|stop \w+ing|use\b[^.?!\n]{0,60}\b(?:instead|not|no|rather|over|everywhere|only))\b/i;
/** Opinions and doubts that contain "don't" but are not rules. */
const NOT_RULE = /^(?:\w+,\s*)?i (?:don'?t|do not) (?:think|tink|know|understand|see|get|remember|care)\b/i;
/** Source code rather than prose (a call or statement). */
const CODE_LINE = /^[\w.$]+\(|[;{]\s*$|\)\s*;?\s*$/;
const CORRECTION = /^(?:no|nope|wrong|that'?s (?:not|wrong)|this is wrong|not like that|undo)\b/i;
/** Explicit memory requests: harvested instructions with these words are stored `important`. */
const EMPHATIC = /\b(?:remember|always|never|from now on)\b/i;
/** One-word replies and acknowledgements that carry no instruction. */
const ACK =
  /^(?:ok(?:ay)?|k|yes|yeah|yep|yup|sure|no|nope|thanks?(?: you)?|thx|ty|continue|go(?: on| ahead)?|do it(?: all)?|proceed|next|done|great|nice|cool|perfect|good|lgtm|sounds good|looks good|fine|alright|right|hmm+|wait|stop|sleep|retry|again|try again|same|and\??)(?:[\s,.!]+(?:ok(?:ay)?|yes|yeah|do it(?: all)?|go(?: on| ahead)?|thanks?|please|all|then|now|continue|proceed))*[\s.!]*$/i;
const WRAPPER = /^(?:<[a-z][\w-]*[\s>]|Caveat: The messages below)/i;
const ERRORISH = /\b(?:error|exception|traceback|failed|failure|fatal|panic|cannot|can't|not found|denied|ENOENT|EACCES|segmentation fault)\b/i;
const FIXISH = /\b(?:fix(?:ed|es)?|resolv(?:ed|es)|the (?:issue|problem|bug) (?:is|was)|root cause|works now|passing now|now passes|should work now)\b/i;
const FILE_KEYS = ['file_path', 'filePath', 'path', 'notebook_path', 'file', 'filename', 'target_file'];
const WRITE_TOOLS = /^(?:edit|multiedit|write|str_replace.*|create|apply_patch|patch|notebookedit|write_file|edit_file|replace)$/i;

function textOf(blocks: readonly ContentBlock[]): string {
  return blocks
    .filter((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
    .trim();
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

/**
 * The lasting instruction in a user message, or undefined: slash commands, acknowledgements,
 * host wrappers, messages of fewer than 4 words, and question-only messages are skipped; of the
 * rest, the sentences with rule/preference phrasing ({@link LASTING}) or a correction are kept
 * (at most 3, each 12-400 characters).
 */
export function instructionOf(text: string): string | undefined {
  const t = text.trim();
  if (!t || WRAPPER.test(t)) return undefined;
  if (/^\/[\w:.-]*(?:\s+\S+){0,3}\s*$/.test(t)) return undefined; // slash command (with a few arguments)
  if (ACK.test(t)) return undefined;
  if (t.split(/\s+/).length < 4) return undefined;
  const ss = t
    .split(/(?<=[.!?])\s+|\n+/)
    .map((x) => x.trim())
    .filter((x) => x.length >= 12 && x.length <= 400);
  const keep = ss.filter((x, i) => !x.endsWith('?') && !NOT_RULE.test(x) && !CODE_LINE.test(x) && (LASTING.test(x) || (i === 0 && CORRECTION.test(x) && x.split(/\s+/).length >= 5)));
  if (!keep.length) return undefined;
  return keep.slice(0, 3).join(' ');
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

/**
 * Turn a session's events into frames: the user's lasting instructions and corrections
 * (`instruction`, see {@link instructionOf}; `important` only when the user said
 * remember/always/never/from now on, else `normal`), the assistant's decisions (`decision`:
 * decision phrasing only, not guesses such as "I bet" or "let me"), tool errors (`error`) and
 * the fix that followed (`fix`), and the files read and modified (`file`, one frame per
 * session). Every frame's `createdAt` is its event's timestamp from the transcript (the last
 * event's for the file list). Every frame carries host, sessionId and a `turnId` of
 * `import:<seq>`, so importing the same transcript twice adds nothing (idempotency key).
 * Checkpoint summaries and repair nodes are skipped.
 */
export function harvestEvents(events: readonly SessionEvent[], ctx: { host: string; sessionId: string; workspace?: string }): Harvest {
  const frames: FrameInput[] = [];
  const counts: HarvestCounts = { instruction: 0, decision: 0, error: 0, fix: 0, file: 0 };
  const base = { host: ctx.host, sessionId: ctx.sessionId, source: 'import' as const, ...(ctx.workspace ? { workspace: ctx.workspace, scope: 'workspace' as const } : {}) };
  const modified = new Set<string>();
  const read = new Set<string>();
  const callNames = new Map<string, string>();
  let pendingError: { seq: number; text: string } | undefined;
  let lastTs: string | undefined;
  for (const e of events) {
    const at = tsOf(e as { ts?: unknown });
    if (at) lastTs = at;
    const when = at ? { createdAt: at } : {};
    if (!('content' in e) || !Array.isArray((e as { content?: unknown }).content)) continue;
    const ev = e as Extract<SessionEvent, { content: ContentBlock[] }>;
    if (ev.kind === 'checkpoint' || ev.kind === 'repair') continue;
    if (ev.type === 'user/message') {
      const t = instructionOf(textOf(ev.content));
      if (t) {
        frames.push({ ...base, ...when, kind: 'instruction', content: clip(t, 1200), turnId: `import:${ev.seq}`, importance: EMPHATIC.test(t) ? 'important' : 'normal', tags: ['user'] });
        counts.instruction++;
      }
    }
    for (const b of ev.content) {
      if (b.type === 'tool-call') {
        callNames.set(b.id, b.name);
        const fs = new Set<string>();
        filesOf(b.input, fs);
        for (const f of fs) (WRITE_TOOLS.test(b.name) ? modified : read).add(f);
      } else if (b.type === 'tool-result') {
        const t = b.content
          .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
          .map((c) => c.text)
          .join('\n');
        const firstErr = t.split('\n').find((l) => ERRORISH.test(l));
        if (b.isError || (firstErr && /^(?:error|fatal|traceback|exception)/i.test(firstErr.trim()))) {
          const line = clip(firstErr ?? t, 500);
          if (line) {
            const tool = b.toolName ?? callNames.get(b.callId) ?? 'tool';
            frames.push({ ...base, ...when, kind: 'error', content: `Error from ${tool}: ${line}`, turnId: `import:${ev.seq}:${b.callId}`, tags: ['error', tool] });
            counts.error++;
            pendingError = { seq: ev.seq, text: line };
          }
        }
      }
    }
    if (ev.type === 'assistant/message') {
      const t = textOf(ev.content);
      if (!t) continue;
      const ss = sentences(t);
      const decisions = ss.filter((s) => DECISION.test(s) && !NOT_DECISION.test(s) && !CODE_LINE.test(s) && !s.endsWith('?')).slice(0, 3);
      decisions.forEach((s, i) => {
        frames.push({ ...base, ...when, importance: 'normal', kind: 'decision', content: clip(s, 600), turnId: `import:${ev.seq}:${i}`, tags: ['decision'] });
        counts.decision++;
      });
      if (pendingError) {
        const fix = ss.find((s) => FIXISH.test(s));
        if (fix) {
          frames.push({ ...base, ...when, kind: 'fix', content: clip(`Fix for "${clip(pendingError.text, 160)}": ${fix}`, 800), turnId: `import:${ev.seq}:fix`, tags: ['fix'] });
          counts.fix++;
          pendingError = undefined;
        }
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
  return { frames, counts };
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
 * Read a transcript in any format `@hive-mind/transcripts` reads (loaded lazily here) and
 * harvest it. `onProgress(bytes, total)` reports reading progress.
 * Throws the transcripts package's `TranscriptError` (one line naming file, line and field).
 */
export async function harvestTranscriptFile(
  path: string,
  opts: { lenient?: boolean; onProgress?: (bytes: number, total: number) => void; workspace?: string } = {},
): Promise<Harvest & { format: string; sessionId: string; events: number; cwd?: string }> {
  const { readTranscriptFile } = await import('@hive-mind/transcripts');
  const t = await readTranscriptFile(path, { ...(opts.lenient ? { lenient: true } : {}), ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) });
  const events = t.log.events();
  const sessionId = t.log.id || path.replace(/^.*[\\/]/, '');
  const h = harvestEvents(events, { host: t.format, sessionId, ...(opts.workspace ? { workspace: opts.workspace } : {}) });
  const cwd = transcriptCwd(events, t.source.state);
  return { ...h, format: t.format, sessionId, events: events.length, ...(cwd ? { cwd } : {}) };
}
