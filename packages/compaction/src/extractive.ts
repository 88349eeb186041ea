import type { SurfaceNode } from '@hive-mind/session';
import { analyzeSpan, type SpanFacts } from './analyze.js';
import { PRESERVED_HEADING, SECTIONS, type SummarizeInput, type SummaryOutput, type Summarizer } from './summarizer.js';
import type { TokenMeter } from './tokens.js';

/** Options of {@link ExtractiveSummarizer} (characters, not tokens). */
export interface ExtractiveOptions {
  /** Longest verbatim user quote before clipping (characters). Default 1200. */
  maxQuoteChars?: number;
  /** Longest other item (characters). Default 300. */
  maxItemChars?: number;
}

type Section = { heading: string; items: string[]; /** items that must never be dropped by budget fitting (still clipped) */ keep: number };

const DECISION = /\b(decid(?:e|ed|ing)|instead of|rather than|we(?:'ll| will) (?:use|go with|keep)|i(?:'ll| will) (?:use|go with|keep|switch to)|going with|(?:we|i) chose|chose to|opted for|switched to|the (?:plan|approach) is|approach:|let's (?:use|go with|keep))\b/i;
/** Step-by-step narration ("Now let me update ...", "I'll read ..."): never a decision. */
const NARRATION = /\blet me\b|^(?:now|first|next|then|ok(?:ay)?|great|perfect|good)\b[,!]?\s+(?:i|let|i'll|we)\b|^i(?:'ll| will| need to| am going to|'m going to) (?:now |first )?(?:read|look|check|update|add|create|run|open|fix|edit|write|search|see|start|try|examine|test|verify)\b/i;
/** A user sentence that decides something: "let's ...", "use X", "don't use X", "go with X". */
const USER_DECISION = /^(?:let's|lets|use|don't use|do not use|go with|switch to|stick with|prefer)\b/i;
/** Acknowledgements and nudges that are not a request. */
const ACK = /^(?:ok(?:ay)?|k|yes|yep|yeah|yo|no|nope|sure|thanks?(?: you)?|ty|continue|go(?: on| ahead)?|proceed|do it|next|nice|great|cool|good|perfect|done|lgtm|can leave it|leave it|fine|right|y|n)\b[\s.!?]*$/i;
/** Work reported finished in the last assistant message. */
const DONE = /\b(?:is|are|now) (?:now )?(?:complete|completed|done|finished)\b|\ball (?:done|set|tests pass(?:ing)?)\b|\b(?:has|have) been (?:fully |successfully )?(?:completed|finished|ported|implemented|fixed|done)\b|\bsuccessfully (?:completed|ported|implemented|finished)\b|\bthe (?:port|task|work|migration|refactor(?:ing)?|implementation) is (?:now )?(?:complete|done|finished)\b/i;
/** Scratch files: directly in a temp directory (`/tmp/fix3.py`), not a project that lives under /tmp (`/tmp/tmpab12/src/lib.rs`). */
const SCRATCH = /^(?:\/(?:var\/|private\/)?tmp\/[^/]+|\/dev\/\S+)$/;

/** A user message that states a request: not a slash command, not an acknowledgement, not a few words. */
export function isSubstantiveRequest(text: string): boolean {
  const t = text.trim();
  if (!t || /^\/[\w:-]+(?:\s|$)/.test(t)) return false;
  if (ACK.test(t)) return false;
  if (/^(?:Stop hook feedback:|\w+ hook (?:feedback|error|blocking error)\b)/i.test(t)) return false; // host hook output, not the user
  return t.length >= 25 || t.split(/\s+/).length >= 5;
}
const NEXT = /\b(next(?:,| i| we| step)|now i(?:'ll| will)|then i(?:'ll| will)|i(?:'ll| will) (?:now|next|then)|let me (?:now|next)|remaining|still (?:need|to do|todo))\b/i;
const PENDING_LINE = /^\s*(?:[-*]\s*\[ \]|TODO\b|- \[ \])/;

function clip(s: string, max: number): string {
  const t = s.replace(/\s+\n/g, '\n').trim();
  if (t.length <= max) return t;
  return `${t.slice(0, max - 1).trimEnd()}… [${t.length - max + 1} chars clipped]`;
}

function oneLine(s: string, max: number): string {
  return clip(s.replace(/\s+/g, ' '), max);
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim().replace(/^(?:[-*+]|\d+[.)])\s+/, ''))
    .filter((s) => s.length > 8);
}

function quote(text: string, max: number): string {
  return '"' + clip(text, max).replace(/\n/g, '\n  ') + '"';
}

/** Parse a checkpoint body into `## heading` -> lines (used to merge a prior checkpoint). */
export function parseSections(body: string): Array<{ heading: string; lines: string[] }> {
  const out: Array<{ heading: string; lines: string[] }> = [];
  let cur: { heading: string; lines: string[] } | null = null;
  for (const raw of body.split('\n')) {
    const h = /^#{1,3}\s+(.+?)\s*$/.exec(raw);
    if (h) {
      cur = { heading: h[1]!.replace(/\s*\(.*\)\s*$/, '').trim(), lines: [] };
      out.push(cur);
      continue;
    }
    if (!raw.trim()) continue;
    if (!cur) {
      cur = { heading: 'Earlier context', lines: [] };
      out.push(cur);
    }
    // continuation lines of a multi-line item stay with it
    if (/^\s{2,}\S/.test(raw) && cur.lines.length && !/^\s*[-*|]/.test(raw)) cur.lines[cur.lines.length - 1] += '\n' + raw;
    else cur.lines.push(raw.replace(/^\s*[-*]\s+/, '').trimEnd());
  }
  return out;
}

const HEADING_ALIASES: Record<string, string> = {
  goal: 'Primary request and intent',
  'primary request': 'Primary request and intent',
  'key decisions made': 'Decisions',
  'key decisions': 'Decisions',
  'next steps': 'Next step',
  'files created/modified': 'Files modified',
  'files modified': 'Files modified',
  'current task': 'Current work',
  'current state': 'Current work',
  'pending': 'Pending tasks',
};

function canonicalHeading(h: string): string {
  const known = [...SECTIONS, PRESERVED_HEADING].find((s) => s.toLowerCase() === h.toLowerCase());
  if (known) return known;
  return HEADING_ALIASES[h.toLowerCase()] ?? h;
}

/**
 * Build the sections of a checkpoint from a span (and the prior checkpoints in it).
 * Deterministic: same span, same output.
 */
export function extractSections(span: readonly SurfaceNode[], opts: ExtractiveOptions = {}): Section[] {
  const maxQ = opts.maxQuoteChars ?? 1200;
  const maxI = opts.maxItemChars ?? 300;
  const f: SpanFacts = analyzeSpan(span);
  const sec = new Map<string, Section>();
  for (const h of SECTIONS) sec.set(h, { heading: h, items: [], keep: 0 });
  const extra: Section[] = [];
  const add = (h: string, item: string) => {
    let s = sec.get(h);
    if (!s) {
      s = extra.find((e) => e.heading === h);
      if (!s) {
        s = { heading: h, items: [], keep: 0 };
        extra.push(s);
      }
    }
    if (!s.items.includes(item)) s.items.push(item);
  };

  // Prior checkpoints first: their items are merged into ours (older facts first).
  const priorSingle = new Map<string, string[]>();
  for (const body of f.priorBodies) {
    for (const p of parseSections(body)) {
      const h = canonicalHeading(p.heading);
      if (h === 'Current work' || h === 'Next step') {
        priorSingle.set(h, p.lines); // superseded by newer state when the span has any
        continue;
      }
      for (const l of p.lines) add(h, l);
    }
  }

  // Primary request: the first user request of the span (or the prior one), and the latest.
  // The first substantive request (no slash commands, acknowledgements or few-word nudges),
  // falling back to the first message that is not a slash command, then the first message.
  const users = f.userTexts;
  const requests = users.filter((u) => isSubstantiveRequest(u.text));
  const firstReq = requests[0] ?? users.find((u) => !u.text.trim().startsWith('/')) ?? users[0];
  const latestReq = requests[requests.length - 1];
  if (firstReq) {
    add('Primary request and intent', `First request: ${quote(firstReq.text, maxQ)}`);
    if (latestReq && latestReq !== firstReq) add('Primary request and intent', `Latest request: ${quote(latestReq.text, maxQ)}`);
  }
  // Every other user message, verbatim (clipped): instructions and corrections.
  for (const u of users) if (u !== firstReq && u !== latestReq && u !== users[users.length - 1]) add('User instructions and corrections', quote(u.text, maxQ));

  // Files.
  const read = new Set<string>();
  const modified = new Map<string, number>();
  for (const c of f.calls) {
    if (c.info.kind === 'read') for (const p of c.info.paths) read.add(p);
    if (c.info.kind === 'modify' || (c.info.kind === 'command' && c.info.paths.length)) {
      for (const p of c.info.paths) modified.set(p, (modified.get(p) ?? 0) + 1);
    }
  }
  for (const p of read) if (!modified.has(p)) add('Files read', '`' + p + '`');
  // scratch files (/tmp...) only when nothing else was modified
  if ([...modified.keys()].some((p) => !SCRATCH.test(p))) for (const p of [...modified.keys()]) if (SCRATCH.test(p)) modified.delete(p);
  for (const [p, n] of modified) {
    const failedOnly = f.calls.filter((c) => c.info.paths.includes(p) && c.info.kind !== 'read').every((c) => c.failed);
    add('Files modified', '`' + p + '`' + (n > 1 ? ` (${n} edits)` : '') + (failedOnly ? ' (attempted; every edit failed)' : ''));
  }

  // Commands with outcome.
  for (const c of f.calls) {
    if (c.info.kind !== 'command' || !c.info.command) continue;
    let outcome: string;
    if (!c.result || c.repaired) outcome = 'no result recorded (interrupted)';
    else if (c.failed) outcome = `failed: ${oneLine(c.errorLine ?? 'error', 160)}`;
    else {
      const first = (c.resultText ?? '').split('\n').map((l) => l.trim()).find(Boolean);
      outcome = first ? `ok: ${oneLine(first, 120)}` : 'ok (no output)';
    }
    add('Commands run', '`' + oneLine(c.info.command, 200) + '` -> ' + outcome);
  }

  // Errors and what followed them.
  for (let i = 0; i < f.calls.length; i++) {
    const c = f.calls[i]!;
    if (!c.failed) continue;
    const what = c.info.command ? `\`${oneLine(c.info.command, 100)}\`` : `${c.call.name}${c.info.paths[0] ? ' ' + c.info.paths[0] : ''}`;
    let fix = '';
    for (let j = i + 1; j < f.calls.length; j++) {
      const d = f.calls[j]!;
      if (d.failed) continue;
      if (d.info.kind === 'modify' && d.info.paths.length) {
        fix = `; followed by a change to ${d.info.paths.map((p) => '`' + p + '`').join(', ')}`;
        break;
      }
      if (c.info.command && d.info.command === c.info.command) {
        fix = '; the same command later succeeded';
        break;
      }
    }
    add('Errors and fixes', `${what}: ${oneLine(c.errorLine ?? 'error', 200)}${fix}`);
  }

  // Decisions stated by the assistant.
  for (const a of f.assistantTexts) for (const s of sentences(a.text)) if (DECISION.test(s) && !NARRATION.test(s) && s.length <= 600) add('Decisions', oneLine(s, maxI));
  // ... and by the user ("let's ...", "use X").
  for (const u of users) for (const s of sentences(u.text)) if (USER_DECISION.test(s) && s.length <= 600) add('Decisions', `User: ${oneLine(s, maxI)}`);

  // Pending tasks: the latest todo list's open items, open checklist lines.
  const lastTodo = [...f.calls].reverse().find((c) => c.info.kind === 'todo' && c.info.todos?.length);
  if (lastTodo) for (const t of lastTodo.info.todos!) if (!/^(completed|done|cancel)/i.test(t.status)) add('Pending tasks', `${oneLine(t.text, maxI)} (${t.status})`);
  for (const u of users) for (const l of u.text.split('\n')) if (PENDING_LINE.test(l)) add('Pending tasks', oneLine(l.replace(/^\s*[-*]\s*/, ''), maxI));
  const unanswered = f.calls.filter((c) => !c.result || c.repaired);
  if (unanswered.length) {
    const names = [...new Set(unanswered.map((c) => c.call.name))];
    add('Pending tasks', `${unanswered.length} tool call${unanswered.length > 1 ? 's were' : ' was'} interrupted without a result: ${names.join(', ')}`);
  }

  // Current work: the last assistant text and the last few actions.
  const lastA = f.assistantTexts[f.assistantTexts.length - 1];
  const lastU = users[users.length - 1];
  for (const c of f.calls.slice(-5)) {
    const target = c.info.command ? '`' + oneLine(c.info.command, 120) + '`' : c.info.paths.map((p) => '`' + p + '`').join(', ');
    add('Current work', `${c.call.name}${target ? ' ' + target : ''}${c.result && !c.repaired ? (c.failed ? ' (failed)' : ' (ok)') : ' (no result)'}`);
  }
  // last, so budget fitting (which keeps the newest items) keeps it
  if (lastA) add('Current work', `Last assistant message: ${quote(lastA.text, 800)}`);
  if (!lastA && !f.calls.length) for (const l of priorSingle.get('Current work') ?? []) add('Current work', l);

  // Next step.
  const nextSentence = lastA ? sentences(lastA.text).reverse().find((s) => NEXT.test(s)) : undefined;
  const openTodos = lastTodo ? lastTodo.info.todos!.filter((t) => !/^(completed|done|cancel)/i.test(t.status)).length : 0;
  const lastReq = latestReq ?? firstReq;
  const lastUserIsNew = lastU && (!lastA || lastU.seq > lastA.seq);
  if (lastUserIsNew && isSubstantiveRequest(lastU.text)) add('Next step', `Answer the latest user request: ${quote(lastU.text, 400)}`);
  else if (lastUserIsNew && lastReq) add('Next step', `Continue the latest request (the user then said ${quote(lastU.text, 80)}): ${quote(lastReq.text, 400)}`);
  else if (lastUserIsNew) add('Next step', `Answer the latest user message: ${quote(lastU.text, 400)}`);
  else if (lastA && !openTodos && DONE.test(lastA.text)) add('Next step', `The work is reported complete ("${oneLine(sentences(lastA.text).find((s) => DONE.test(s)) ?? lastA.text, 200)}"); wait for the user's next request.`);
  else if (nextSentence) add('Next step', oneLine(nextSentence, 400));
  else if (lastReq) add('Next step', `Continue the latest request: ${quote(lastReq.text, 400)}`);
  else for (const l of priorSingle.get('Next step') ?? []) add('Next step', l);

  // Always keep: the requests, the newest instruction, the current work, the next step.
  sec.get('Primary request and intent')!.keep = 2;
  sec.get('Next step')!.keep = 1;
  sec.get('Current work')!.keep = 1;
  return [...SECTIONS.map((h) => sec.get(h)!), ...extra];
}

/** Render sections as a checkpoint body (empty sections say `(none)`). */
export function renderSections(sections: readonly Section[], omitEmpty = false): string {
  const out: string[] = [];
  for (const s of sections) {
    if (!s.items.length && (omitEmpty || !(SECTIONS as readonly string[]).includes(s.heading))) continue;
    out.push(`## ${s.heading}`);
    if (!s.items.length) out.push('(none)');
    for (const it of s.items) out.push(`- ${it}`);
    out.push('');
  }
  return out.join('\n').trim();
}

// Largest share of the budget a section may take before its oldest items go (fractions of maxTokens).
const SHARE: Record<string, number> = {
  'Primary request and intent': 0.2,
  'User instructions and corrections': 0.3,
  'Files read': 0.08,
  'Files modified': 0.15,
  'Commands run': 0.12,
  'Errors and fixes': 0.12,
  Decisions: 0.1,
  'Pending tasks': 0.1,
  'Current work': 0.12,
  'Next step': 0.08,
  'Preserved details': 0.2,
};

// Drop order under budget pressure: least useful first. Items go oldest first within a section.
const DROP_ORDER = [
  'Files read',
  'Commands run',
  'Current work',
  'Decisions',
  'Errors and fixes',
  'User instructions and corrections',
  'Pending tasks',
  'Files modified',
  'Primary request and intent',
  'Next step',
];

/**
 * Fit sections into `maxTokens` (of `meter`): drop the oldest items of the least
 * useful sections first (keeping each section's `keep` newest items), then clip
 * the kept items, then hard-truncate. The result never exceeds `maxTokens`.
 */
export function fitSections(sections: Section[], maxTokens: number, meter: TokenMeter): string {
  if (sections.every((s) => !s.items.length)) {
    const cur = sections.find((s) => s.heading === 'Current work');
    if (cur) cur.items.push('The compacted span held no user request, tool call or assistant text (only host-injected context).');
  }
  let text = renderSections(sections);
  if (meter.countText(text) <= maxTokens) return text;
  // Under pressure, empty sections are left out rather than spelled "(none)".
  const render = () => renderSections(sections, true);
  text = render();
  if (meter.countText(text) <= maxTokens) return text;
  const itemTokens = new Map<string, number>();
  const tok = (s: string) => {
    let n = itemTokens.get(s);
    if (n === undefined) itemTokens.set(s, (n = meter.countText(s) + 2));
    return n;
  };
  // Phase 1: no section may crowd out the others. Weighted water-filling: sections that need
  // less than their weighted share keep everything and leave the rest to the others.
  const headingCost = 8;
  const demand = new Map(sections.map((s) => [s, s.items.reduce((n, it) => n + tok(it), 0)]));
  const alloc = new Map<Section, number>();
  let pool = Math.max(0, maxTokens - sections.filter((s) => s.items.length).length * headingCost);
  let open = sections.filter((s) => s.items.length);
  while (open.length) {
    const wsum = open.reduce((n, s) => n + (SHARE[s.heading] ?? 0.15), 0);
    const fits = open.filter((s) => demand.get(s)! <= (pool * (SHARE[s.heading] ?? 0.15)) / wsum);
    if (!fits.length) {
      for (const s of open) alloc.set(s, Math.floor((pool * (SHARE[s.heading] ?? 0.15)) / wsum));
      break;
    }
    for (const s of fits) {
      alloc.set(s, demand.get(s)!);
      pool -= demand.get(s)!;
    }
    open = open.filter((s) => !fits.includes(s));
  }
  for (const s of sections) {
    const cap = alloc.get(s) ?? 0;
    let t = demand.get(s)!;
    const keepFirst = s.heading === 'Primary request and intent';
    while (t > cap && s.items.length > s.keep) t -= tok(keepFirst ? s.items.splice(s.keep, 1)[0]! : s.items.shift()!);
  }
  text = render();
  if (meter.countText(text) <= maxTokens) return text;
  let total = meter.countText(text);
  const order = [...sections.filter((s) => !DROP_ORDER.includes(s.heading)).map((s) => s.heading), ...DROP_ORDER];
  for (const h of order) {
    const s = sections.find((x) => x.heading === h);
    if (!s) continue;
    // keep the first `keep` for the request section (first/latest), else the newest ones
    const keepFirst = h === 'Primary request and intent';
    while (total > maxTokens && s.items.length > s.keep) {
      const removed = keepFirst ? s.items.splice(s.keep, 1)[0]! : s.items.shift()!;
      total -= tok(removed);
    }
    if (total <= maxTokens) break;
  }
  text = render();
  // Clip the kept items progressively.
  for (let max = 600; meter.countText(text) > maxTokens && max >= 60; max = Math.floor(max / 2)) {
    for (const s of sections) s.items = s.items.map((it) => (it.length > max ? clip(it, max) : it));
    text = render();
  }
  if (meter.countText(text) <= maxTokens) return text;
  // Last resort: truncate by characters until it fits (binary search).
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (meter.countText(text.slice(0, mid) + '\n…') <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  return lo > 0 ? text.slice(0, lo) + '\n…' : '';
}

/**
 * The default summarizer: offline and deterministic. Builds the structured
 * checkpoint (see {@link SECTIONS}) from the span itself: tool call inputs
 * (paths, commands), their results (outcomes, errors), user text (quoted
 * verbatim, host-injected reminders removed) and assistant text (decisions,
 * the last state). A prior checkpoint inside the span is merged section by
 * section. Output is bounded to `maxTokens`.
 */
export class ExtractiveSummarizer implements Summarizer {
  readonly name = 'extractive';
  readonly model = undefined;
  constructor(private readonly opts: ExtractiveOptions = {}) {}

  async summarize(input: SummarizeInput): Promise<SummaryOutput> {
    const sections = extractSections(input.span, this.opts);
    return { text: fitSections(sections, input.maxTokens, input.meter) };
  }
}
