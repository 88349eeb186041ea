import type { SessionEvent, ContentBlock } from '@hive-mind/session';
import type { FrameInput } from './store.js';

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

const DECISION =
  /\b(?:I(?:'ll| will) (?:use|go with|switch|keep|add|implement|replace)|we(?:'ll| will| should) (?:use|go with|switch|keep)|(?:decided|decision|chose|choosing|opted|going) (?:to|for|with)|let's (?:use|go with|switch|keep)|instead of|switch(?:ed|ing)? (?:to|from)|the (?:fix|root cause|solution) (?:is|was))\b/i;
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
 * Turn a session's events into frames: the user's instructions (`instruction`, user_stated),
 * the assistant's decisions (`decision`), tool errors (`error`) and the fix that followed
 * (`fix`), and the files read and modified (`file`, one frame per session). Every frame
 * carries host, sessionId and a `turnId` of `import:<seq>`, so importing the same transcript
 * twice adds nothing (idempotency key). Checkpoint summaries and repair nodes are skipped.
 */
export function harvestEvents(events: readonly SessionEvent[], ctx: { host: string; sessionId: string; workspace?: string }): Harvest {
  const frames: FrameInput[] = [];
  const counts: HarvestCounts = { instruction: 0, decision: 0, error: 0, fix: 0, file: 0 };
  const base = { host: ctx.host, sessionId: ctx.sessionId, source: 'import' as const, ...(ctx.workspace ? { workspace: ctx.workspace, scope: 'workspace' as const } : {}) };
  const modified = new Set<string>();
  const read = new Set<string>();
  const callNames = new Map<string, string>();
  let pendingError: { seq: number; text: string } | undefined;
  for (const e of events) {
    if (!('content' in e) || !Array.isArray((e as { content?: unknown }).content)) continue;
    const ev = e as Extract<SessionEvent, { content: ContentBlock[] }>;
    if (ev.kind === 'checkpoint' || ev.kind === 'repair') continue;
    if (ev.type === 'user/message') {
      const t = textOf(ev.content);
      // skip host-injected wrappers (command output, reminders) and empty turns
      if (t.length >= 3 && !/^<(?:command-|local-command|system-reminder|user-prompt-submit-hook)/.test(t)) {
        frames.push({ ...base, kind: 'instruction', content: clip(t, 4000), turnId: `import:${ev.seq}`, importance: 'normal', tags: ['user'] });
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
            frames.push({ ...base, kind: 'error', content: `Error from ${tool}: ${line}`, turnId: `import:${ev.seq}:${b.callId}`, tags: ['error', tool] });
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
      const decisions = ss.filter((s) => DECISION.test(s)).slice(0, 3);
      decisions.forEach((s, i) => {
        frames.push({ ...base, kind: 'decision', content: clip(s, 600), turnId: `import:${ev.seq}:${i}`, tags: ['decision'] });
        counts.decision++;
      });
      if (pendingError) {
        const fix = ss.find((s) => FIXISH.test(s));
        if (fix) {
          frames.push({ ...base, kind: 'fix', content: clip(`Fix for "${clip(pendingError.text, 160)}": ${fix}`, 800), turnId: `import:${ev.seq}:fix`, tags: ['fix'] });
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
    frames.push({ ...base, kind: 'file', content: `Files touched in session ${ctx.sessionId} (${ctx.host}): ${parts.join('; ')}`, turnId: 'import:files', tags: ['files'] });
    counts.file++;
  }
  return { frames, counts };
}

/**
 * Read a transcript in any format `@hive-mind/transcripts` reads (loaded lazily here) and
 * harvest it. `onProgress(bytes, total)` reports reading progress.
 * Throws the transcripts package's `TranscriptError` (one line naming file, line and field).
 */
export async function harvestTranscriptFile(
  path: string,
  opts: { lenient?: boolean; onProgress?: (bytes: number, total: number) => void; workspace?: string } = {},
): Promise<Harvest & { format: string; sessionId: string; events: number }> {
  const { readTranscriptFile } = await import('@hive-mind/transcripts');
  const t = await readTranscriptFile(path, { ...(opts.lenient ? { lenient: true } : {}), ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) });
  const events = t.log.events();
  const sessionId = t.log.id || path.replace(/^.*[\\/]/, '');
  const h = harvestEvents(events, { host: t.format, sessionId, ...(opts.workspace ? { workspace: opts.workspace } : {}) });
  return { ...h, format: t.format, sessionId, events: events.length };
}
