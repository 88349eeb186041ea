/**
 * The default summarizer: offline and deterministic. Builds the checkpoint sections from the
 * span (sections.ts), merges prior checkpoints (merge.ts), and fits the result to the token
 * budget by dropping whole items, never by cutting one.
 */
import type { SurfaceNode } from '@hive-mind/session';
import { EARLIER_CONTEXT } from './merge.js';
import { findingWeight } from './findings.js';
import { buildSections, type Item, type Section } from './sections.js';
import { shortenWhole } from './sentences.js';
import type { SummarizeInput, SummaryOutput, Summarizer } from './summarizer.js';
import type { TokenMeter } from './tokens.js';

export { isSubstantiveRequest, type Item, type Section } from './sections.js';

/** The sections of a span's checkpoint (prior checkpoints merged). Deterministic. */
export function extractSections(span: readonly SurfaceNode[], opts: { cwd?: string } = {}): Section[] {
  return buildSections(span, opts);
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

/**
 * Largest share a section may take of the checkpoint even when everything fits (fractions of the
 * rendered body's tokens): what tools found is there to support the state, not to be most of it.
 */
const CEILING: Record<string, number> = { Findings: 0.25 };

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
  if (s.heading === 'Findings') {
    // what establishes least goes first (a pointer before a fact before a sub-agent's report), oldest first
    let v = -1;
    const w = (it: Item) => it.weight ?? findingWeight(it.text);
    s.items.forEach((it, i) => {
      if (v < 0 || w(it) < w(s.items[v]!)) v = i;
    });
    return v;
  }
  if (s.heading === 'Done') {
    // a completed todo item repeats what the reports say; findings and commits are kept longer
    const t = s.items.findIndex((it) => / \(todo completed\)$/.test(it.text));
    if (t >= 0) return t;
  }
  if (s.heading === 'Goal' || s.heading === 'In progress') return s.items.length - 1 >= s.keep ? s.items.length - 1 : -1;
  return s.keep && s.heading === 'Next step' ? -1 : 0;
}

/** An item said in fewer characters: the shorter form its section gave it (a report's best sentences), else its leading whole sentences. */
function shorterOf(it: Item, max: number): string {
  return it.shorter ?? shortenWhole(it.text, max);
}

/** Give up items of a section above its {@link CEILING} share of the whole (lightest first), keeping at least one. */
function capShares(sections: Section[], meter: TokenMeter): boolean {
  let changed = false;
  const cost = (t: string) => meter.countText(t) + 3;
  for (const [h, share] of Object.entries(CEILING)) {
    const s = sections.find((x) => x.heading === h);
    if (!s) continue;
    const others = meter.countText(renderSections(sections.filter((x) => x !== s)));
    // own <= share * (own + others)  <=>  own * (1 - share) <= share * others; counted per item, then checked whole
    for (let own = meter.countText(renderSections([s])); s.items.length > 1 && own * (1 - share) > share * others; own = meter.countText(renderSections([s]))) {
      let est = own;
      let progressed = false;
      while (s.items.length > 1 && est * (1 - share) > share * others) {
        // a long item (a sub-agent's report) first gives up its later sentences, then the lightest goes
        const long = s.items.findIndex((it) => it.text.length > 240 && !it.text.includes('\n'));
        const short = long >= 0 ? shorterOf(s.items[long]!, 200) : undefined;
        // never a quote cut open (a rules file's finding quotes its rules)
        if (short && !short.endsWith(' …') && (short.match(/"/g) ?? []).length % 2 === 0) {
          const it = s.items[long]!;
          est -= cost(it.text) - cost(short);
          s.items[long] = { text: short, ...(it.key !== undefined ? { key: it.key } : {}), ...(it.weight !== undefined ? { weight: it.weight } : {}) };
        } else {
          const v = victim(s);
          if (v < 0) break;
          est -= cost(s.items.splice(v, 1)[0]!.text);
        }
        changed = progressed = true;
      }
      if (!progressed) break;
    }
  }
  return changed;
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
  capShares(sections, meter);
  const text = fitWithin(sections, maxTokens, meter);
  // fitting shrank the other sections: the ceilings hold on what is left
  if (capShares(sections, meter)) {
    const capped = renderSections(sections);
    if (meter.countText(capped) <= maxTokens) return capped;
  }
  return text;
}

/** {@link fitSections} without the ceilings. */
function fitWithin(sections: Section[], maxTokens: number, meter: TokenMeter): string {
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
    const short = it.text.length > 240 && !it.text.includes('\n') ? shorterOf(it, 160) : undefined;
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
 * (the sections of `CHECKPOINT_SECTIONS`) from the span itself: the user's requests and lasting
 * instructions, what was done (commits, passing checks, completed todos, sub-agent and research
 * findings), decisions, rejected changes, errors with their fixes, the commands that matter with
 * their outcome, the files at the end, the work in progress and the next step. Prior
 * checkpoints in the span are merged item by item. Output is bounded to `maxTokens`.
 */
export class ExtractiveSummarizer implements Summarizer {
  readonly name = 'extractive';
  readonly model = undefined;

  async summarize(input: SummarizeInput): Promise<SummaryOutput> {
    return { text: fitSections(buildSections(input.span, { cwd: input.cwd }), input.maxTokens, input.meter) };
  }
}

