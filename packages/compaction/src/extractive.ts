/**
 * The default summarizer: offline and deterministic. Builds the checkpoint sections from the
 * span (sections.ts), merges prior checkpoints (merge.ts), and fits the result to the token
 * budget by dropping whole items, never by cutting one.
 */
import type { SurfaceNode } from '@hive-mind/session';
import { EARLIER_CONTEXT } from './merge.js';
import { buildSections, type Section } from './sections.js';
import { shortenWhole } from './sentences.js';
import type { SummarizeInput, SummaryOutput, Summarizer } from './summarizer.js';
import type { TokenMeter } from './tokens.js';

export { isSubstantiveRequest, type Item, type Section } from './sections.js';

/** The sections of a span's checkpoint (prior checkpoints merged; the next step checked against `tail`, the nodes kept verbatim after it). Deterministic. */
export function extractSections(span: readonly SurfaceNode[], tail: readonly SurfaceNode[] = []): Section[] {
  return buildSections(span, tail);
}

/** Render sections as a checkpoint body: `## heading` then one `- item` a line (a multi-line item indented). Empty sections are left out. */
export function renderSections(sections: readonly Section[]): string {
  const out: string[] = [];
  for (const s of sections) {
    if (!s.items.length) continue;
    out.push(`## ${s.heading}`);
    for (const it of s.items) out.push(`- ${it.text.replace(/\n/g, '\n  ')}`);
    out.push('');
  }
  return out.join('\n').trim();
}

/** Largest share of the budget a section may take before its items go (fractions of maxTokens). */
const SHARE: Record<string, number> = {
  Goal: 0.1,
  'Constraints and preferences': 0.14,
  Done: 0.13,
  Decisions: 0.1,
  'Rejected or reverted': 0.05,
  'Errors and fixes': 0.1,
  Commands: 0.08,
  Findings: 0.12,
  Files: 0.1,
  [EARLIER_CONTEXT]: 0.08,
  'In progress': 0.1,
  'Next step': 0.05,
};

/** Order in which sections give up items under pressure (least needed to continue first). */
const DROP_ORDER = [EARLIER_CONTEXT, 'Commands', 'Findings', 'Files', 'Errors and fixes', 'Done', 'Decisions', 'In progress', 'Rejected or reverted', 'Constraints and preferences', 'Goal', 'Next step'];

/** Index of the item a section gives up first: a file only read, then the oldest; the Goal keeps its first items. */
function victim(s: Section): number {
  if (s.items.length <= s.keep) return -1;
  if (s.heading === 'Files') {
    const r = s.items.findIndex((it) => / \(read\)$/.test(it.text));
    if (r >= 0) return r;
    const first = s.items.findIndex((it) => it.key !== 'root' && it.key !== 'branch');
    if (first >= 0) return first;
  }
  if (s.heading === 'Done') {
    // a side task and the commits before the last one go before the end state
    const t = s.items.findIndex((it) => /^Side task\b/.test(it.text));
    if (t >= 0) return t;
    const c = s.items.findIndex((it) => /^Committed "/.test(it.text));
    if (c >= 0) return c;
  }
  if (s.heading === 'Goal' || s.heading === 'In progress') return s.items.length - 1 >= s.keep ? s.items.length - 1 : -1;
  return s.keep && s.heading === 'Next step' ? -1 : 0;
}

/**
 * Fit sections into `maxTokens` (of `meter`) by dropping whole items: first no section may
 * crowd out the others (weighted shares, water-filled), then sections give up items in
 * {@link DROP_ORDER}, then the longest items are shortened to fewer whole sentences. The
 * result never exceeds `maxTokens`; only an input whose single kept item is one run-on
 * sentence longer than the budget is cut (at a word boundary, marked ` …`).
 */
export function fitSections(sections: Section[], maxTokens: number, meter: TokenMeter): string {
  if (sections.every((s) => !s.items.length)) {
    const next = sections.find((s) => s.heading === 'Next step') ?? sections[sections.length - 1];
    if (next) next.items.push({ text: 'The compacted span held no user request, tool call or assistant text (only host-injected context); continue from the messages that follow.' });
  }
  let text = renderSections(sections);
  if (meter.countText(text) <= maxTokens) return text;
  const cost = new Map<string, number>();
  const tok = (s: string) => {
    let n = cost.get(s);
    if (n === undefined) cost.set(s, (n = meter.countText(s) + 3));
    return n;
  };
  const headingCost = 6;
  const live = sections.filter((s) => s.items.length);
  const demand = new Map(live.map((s) => [s, s.items.reduce((n, it) => n + tok(it.text), 0)]));
  const alloc = new Map<Section, number>();
  let pool = Math.max(0, maxTokens - live.length * headingCost);
  let open = live;
  while (open.length) {
    const wsum = open.reduce((n, s) => n + (SHARE[s.heading] ?? 0.08), 0);
    const fits = open.filter((s) => demand.get(s)! <= (pool * (SHARE[s.heading] ?? 0.08)) / wsum);
    if (!fits.length) {
      for (const s of open) alloc.set(s, Math.floor((pool * (SHARE[s.heading] ?? 0.08)) / wsum));
      break;
    }
    for (const s of fits) {
      alloc.set(s, demand.get(s)!);
      pool -= demand.get(s)!;
    }
    open = open.filter((s) => !fits.includes(s));
  }
  // Drop from whichever section is furthest over its share, one item at a time, until the estimate fits.
  const size = new Map(live.map((s) => [s, demand.get(s)!]));
  let est = [...size.values()].reduce((a, b) => a + b, 0) + live.length * headingCost;
  const itemsLeft = () => sections.reduce((n, s) => n + s.items.length, 0);
  while (est > maxTokens && itemsLeft() > 1) {
    let worst: Section | undefined;
    let over = 0;
    for (const s of live) {
      const o = size.get(s)! - (alloc.get(s) ?? 0);
      if (o > over && victim(s) >= 0) [worst, over] = [s, o];
    }
    if (!worst) break;
    const v = victim(worst);
    const it = worst.items[v]!;
    // a long item first gives up its later sentences, then goes whole
    const short = it.text.length > 240 && !it.text.includes('\n') ? shortenWhole(it.text, 160) : undefined;
    let t: number;
    if (short && !short.endsWith(' …') && short.length < it.text.length) {
      t = tok(it.text) - tok(short);
      worst.items[v] = { ...it, text: short };
    } else t = tok(worst.items.splice(v, 1)[0]!.text);
    size.set(worst, size.get(worst)! - t);
    est -= t;
  }
  text = renderSections(sections);
  let total = meter.countText(text);
  const order = [...sections.map((s) => s.heading).filter((h) => !DROP_ORDER.includes(h)), ...DROP_ORDER];
  for (const h of order) {
    const s = sections.find((x) => x.heading === h);
    if (!s) continue;
    for (let v = victim(s); total > maxTokens && v >= 0 && itemsLeft() > 1; v = victim(s)) total -= tok(s.items.splice(v, 1)[0]!.text);
    if (total <= maxTokens) break;
  }
  text = renderSections(sections);
  // Shorten the kept items to fewer whole sentences.
  for (let max = 400; meter.countText(text) > maxTokens && max >= 60; max = Math.floor(max / 2)) {
    for (const s of sections) for (const it of s.items) if (it.text.length > max && (!it.text.includes('\n') || itemsLeft() === 1)) it.text = shortenWhole(it.text, max);
    text = renderSections(sections);
  }
  // Blocks (multi-line items) go whole before anything is cut.
  for (const s of sections) {
    if (meter.countText(text) <= maxTokens) break;
    const blocks = s.items.filter((it, i) => it.text.includes('\n') && i >= s.keep);
    if (blocks.length && blocks.length < itemsLeft()) s.items = s.items.filter((it) => !blocks.includes(it));
    text = renderSections(sections);
  }
  if (meter.countText(text) <= maxTokens) return text;
  // Last resort (one run-on item larger than the budget): whole words up to the budget.
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (meter.countText(shortenWhole(text, mid)) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  return lo > 0 ? shortenWhole(text, lo) : '';
}

/**
 * The default summarizer: offline and deterministic. Builds the checkpoint
 * (the sections of `CHECKPOINT_SECTIONS`) from the span itself, as it stands at its end: the goal
 * as the user last framed it, the user's rules and corrections in their latest form, what exists
 * and passes (commits, the last test run, the plan's finished items, sub-agent and research
 * findings), decisions, rejected changes, errors with their fixes, the commands that matter with
 * their outcome, the files at the end, the work in progress and the next step (checked against
 * the tail kept verbatim). Prior checkpoints in the span, ours or a host's, are merged item by
 * item, the newer state winning. Output is bounded to `maxTokens`.
 */
export class ExtractiveSummarizer implements Summarizer {
  readonly name = 'extractive';
  readonly model = undefined;

  async summarize(input: SummarizeInput): Promise<SummaryOutput> {
    return { text: fitSections(buildSections(input.span, input.tail), input.maxTokens, input.meter) };
  }
}

