/**
 * An LLM checkpoint reply read by its sections, and repaired when some are missing: the reply is
 * split at its headings (`## Goal`, `### 3. **Done**`, `## Next steps` all count; see
 * {@link headingOf}); the sections of {@link CHECKPOINT_SECTIONS} it lacks are asked for once
 * more in a short follow-up request naming them, and what that does not give is filled from the
 * extractive checkpoint of the same span. A reply with none of the headings is not a checkpoint
 * at all ({@link sectionProblem}): the summarizer fails and the engine's fallback rule applies.
 */
import { CHECKPOINT_HEADINGS, type CheckpointSection } from './checkpoint-format.js';
import { CompactionAbortedError } from './errors.js';
import { canonicalHeading } from './merge.js';
import type { TokenMeter } from './tokens.js';

/** A section the summarizer's reply lacked, and what wrote it: the follow-up request, or the extractive checkpoint. */
export interface RepairedSection {
  section: CheckpointSection;
  by: 'follow-up' | 'extractive';
}

/** A reply split at its headings: the checkpoint sections by heading, in reply order, and other headed blocks kept as written. */
export interface ReplySections {
  sections: Map<CheckpointSection, string>;
  /** Blocks under headings that are none of ours (a "## Notes"), each with its heading line. */
  extra: string[];
}

/** Smallest output limit of a follow-up request (tokens): room for a few short sections. */
export const MIN_FOLLOW_UP_TOKENS = 256;

const HEADING_LINE = /^#{1,4}[ \t]+\S|^#{1,4}\*\*/;

/**
 * The checkpoint heading a markdown heading line names, and the text after its colon:
 * `## Goal`, `### 1. **Goal**: port the lexer` (name before the colon, numbering and emphasis
 * ignored, any case), or one of the aliases of prior summaries (`## Next steps`, `## Current work`;
 * merge.ts `canonicalHeading`). Undefined for a line that is no heading or names none of ours.
 */
function headingOf(line: string): { heading: CheckpointSection; rest: string } | undefined {
  if (!HEADING_LINE.test(line)) return undefined;
  const raw = line.replace(/^#{1,4}[ \t]*/, '').replace(/[ \t]*#*[ \t]*$/, '');
  const colon = raw.indexOf(':');
  const name = (colon >= 0 ? raw.slice(0, colon) : raw).replace(/[*_`]/g, '').replace(/^\d+[.)]\s*/, '').trim();
  const rest = colon >= 0 ? raw.slice(colon + 1).replace(/^[*_\s]+/, '').trim() : '';
  const strict = CHECKPOINT_HEADINGS.find((h) => h.toLowerCase() === name.toLowerCase());
  const heading = strict ?? (canonicalHeading(name) as CheckpointSection | undefined);
  return heading && (CHECKPOINT_HEADINGS as readonly string[]).includes(heading) ? { heading, rest } : undefined;
}

/** Split `text` at its headings (none inside a fenced block). Text before the first heading (a preamble) is dropped. */
export function splitReply(text: string): ReplySections {
  const sections = new Map<CheckpointSection, string>();
  const extra: string[] = [];
  let cur: { heading?: CheckpointSection; lines: string[] } | undefined;
  const flush = () => {
    if (!cur) return;
    const body = cur.lines.join('\n').trim();
    if (cur.heading) sections.set(cur.heading, [sections.get(cur.heading), body].filter(Boolean).join('\n'));
    else if (body) extra.push(body);
  };
  let fence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const h = fence ? undefined : headingOf(line);
    if (h) {
      flush();
      cur = { heading: h.heading, lines: h.rest ? [h.rest] : [] };
    } else if (!fence && /^#{1,4}[ \t]+\S/.test(line)) {
      flush();
      cur = { lines: [line] };
    } else cur?.lines.push(line);
  }
  flush();
  return { sections, extra };
}

/** The checkpoint sections `text` lacks, in order. */
export function missingSections(text: string): CheckpointSection[] {
  const { sections } = splitReply(text);
  return CHECKPOINT_HEADINGS.filter((h) => !sections.has(h));
}

/**
 * Why a summarizer's reply is not a checkpoint at all, or null when it is one (it names at least
 * one of the {@link CHECKPOINT_SECTIONS} headings; what it lacks is repaired, see {@link repairReply}).
 */
export function sectionProblem(body: string): string | null {
  if (splitReply(body).sections.size) return null;
  const start = body.trim().replace(/\s+/g, ' ').slice(0, 80);
  return `the reply holds none of the checkpoint sections (${CHECKPOINT_HEADINGS.length} asked for${start ? `; it starts "${start}"` : ''})`;
}

/** The sections in {@link CHECKPOINT_SECTIONS} order (`- none` under an empty one), then the other headed blocks. */
export function renderReply(r: ReplySections): string {
  const parts: string[] = [];
  for (const h of CHECKPOINT_HEADINGS) if (r.sections.has(h)) parts.push(`## ${h}\n${r.sections.get(h) || '- none'}`);
  parts.push(...r.extra);
  return parts.join('\n\n');
}

/** The follow-up request: the request that was answered, the reply as a draft, and the sections to write. */
export function followUpPrompt(prompt: string, draft: string, missing: readonly CheckpointSection[]): string {
  const names = missing.map((h) => `"## ${h}"`).join(', ');
  return (
    `${prompt}\n\n<draft-checkpoint>\n${draft.trim()}\n</draft-checkpoint>\n\n` +
    `The draft checkpoint above lacks ${missing.length === 1 ? 'the section' : 'these sections'}: ${names}. ` +
    'Write only the missing sections now, each under its heading, in that order, from the conversation above ("- none" under one with nothing to say). Do not repeat the sections the draft has.'
  );
}

/** What {@link repairReply} needs: how to ask the model once more and how to get the extractive checkpoint of the span. */
export interface RepairContext {
  /** The request that produced the reply (its user message). */
  prompt: string;
  /** The output limit the reply had (tokens of `meter`). */
  maxTokens: number;
  meter: TokenMeter;
  /** One more request (the follow-up) with this prompt and output limit; rejects when it cannot be sent or fails. */
  ask(prompt: string, maxTokens: number): Promise<string>;
  /** The extractive checkpoint body of the same span within `maxTokens`. */
  extractive(maxTokens: number): Promise<string>;
}

/**
 * Repair `text` when it lacks checkpoint sections (see the module comment). Returns the text
 * unchanged when nothing is missing; else the sections in order, the repaired ones said in
 * `repaired`, and why the follow-up did not help when it failed (`followUpError`).
 * @throws CompactionAbortedError when the follow-up is aborted.
 */
export async function repairReply(text: string, ctx: RepairContext): Promise<{ text: string; repaired: RepairedSection[]; followUpError?: string }> {
  const parsed = splitReply(text);
  const missing = () => CHECKPOINT_HEADINGS.filter((h) => !parsed.sections.has(h));
  const asked = missing();
  if (!asked.length) return { text, repaired: [] };
  const repaired: RepairedSection[] = [];
  let followUpError: string | undefined;
  const room = Math.max(MIN_FOLLOW_UP_TOKENS, ctx.maxTokens - ctx.meter.countText(text));
  try {
    const answer = splitReply(await ctx.ask(followUpPrompt(ctx.prompt, renderReply(parsed), asked), room));
    for (const h of asked) {
      const body = answer.sections.get(h);
      if (body === undefined) continue;
      parsed.sections.set(h, body);
      repaired.push({ section: h, by: 'follow-up' });
    }
    if (!repaired.length) followUpError = 'the follow-up answered none of the missing sections';
  } catch (err) {
    if (err instanceof CompactionAbortedError) throw err;
    followUpError = (err as Error).message;
  }
  const still = missing();
  if (still.length) {
    const left = Math.max(64, ctx.maxTokens - ctx.meter.countText(renderReply(parsed)));
    const ex = splitReply(await ctx.extractive(left)).sections;
    for (const h of still) {
      parsed.sections.set(h, ex.get(h) ?? '- none');
      repaired.push({ section: h, by: 'extractive' });
    }
  }
  repaired.sort((a, b) => CHECKPOINT_HEADINGS.indexOf(a.section) - CHECKPOINT_HEADINGS.indexOf(b.section));
  return { text: renderReply(parsed), repaired, ...(followUpError ? { followUpError } : {}) };
}
