/**
 * The default summarizer: offline and deterministic. Builds the checkpoint sections from the
 * span (sections.ts), merges prior checkpoints (merge.ts), and fits the result to the token
 * budget by choosing whole items by value (fit.ts), never by cutting one.
 */
import type { SurfaceNode } from '@hive-mind/session';
import { anchorMatchText, extractAnchors } from './anchors.js';
import { chooseItems, itemValue, type FitAnchors } from './fit.js';
import { findingWeight, reportKind } from './findings.js';
import { buildSections, type Item, type Section } from './sections.js';
import { shortenWhole } from './sentences.js';
import type { SummarizeInput, SummaryOutput, Summarizer } from './summarizer.js';
import type { TokenMeter } from './tokens.js';

export { isSubstantiveRequest, type Item, type Section } from './sections.js';

/** The sections of a span's checkpoint (prior checkpoints merged; the next step checked against `tail`, the nodes kept verbatim after it; paths relative to the project root, `cwd` the working folder before the span). Deterministic. */
export function extractSections(span: readonly SurfaceNode[], opts: { tail?: readonly SurfaceNode[]; cwd?: string } = {}): Section[] {
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

/**
 * Largest share a section may take of the checkpoint even when everything fits (fractions of the
 * rendered body's tokens): what tools found is there to support the state, not to be most of it.
 */
const CEILING: Record<string, number> = { Findings: 0.25 };

/**
 * Index of the item a section over its ceiling gives up first: what establishes least (a pointer
 * before a fact before a sub-agent's report; at the same weight a command's finding or a report of work before a
 * report of facts), oldest first.
 */
function lightest(s: Section): number {
  if (s.items.length <= s.keep) return -1;
  let v = -1;
  const w = (it: Item) => (it.weight ?? findingWeight(it.text)) + (reportKind(it.text) === 'facts' ? 0.5 : 0);
  s.items.forEach((it, i) => {
    if (v < 0 || w(it) < w(s.items[v]!)) v = i;
  });
  return v;
}

/** Give up items of a section above its {@link CEILING} share of the whole (a long one first as its shorter form, then the lightest), keeping at least one. */
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
        const short = long >= 0 ? (s.items[long]!.shorter ?? shortenWhole(s.items[long]!.text, 200)) : undefined;
        // never a quote cut open (a rules file's finding quotes its rules)
        if (short && short.length < s.items[long]!.text.length && !short.endsWith(' …') && (short.match(/"/g) ?? []).length % 2 === 0) {
          const it = s.items[long]!;
          est -= cost(it.text) - cost(short);
          const { shorter: _used, ...rest } = it;
          s.items[long] = { ...rest, text: short };
        } else {
          const v = lightest(s);
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
 * Fit sections into `maxTokens` (of `meter`) by what a colleague needs most (fit.ts): items are
 * chosen by value within each section's cap, then into the room left, a long valuable one as its
 * first sentence; then, if the rendering still runs over, the least valuable items go, then the
 * longest kept items are shortened to fewer whole sentences. The result never exceeds
 * `maxTokens`; only an input whose single kept item is one run-on sentence longer than the
 * budget is cut (at a word boundary, marked ` …`).
 */
export function fitSections(sections: Section[], maxTokens: number, meter: TokenMeter, anchors?: FitAnchors): string {
  if (sections.every((s) => !s.items.length)) {
    const next = sections.find((s) => s.heading === 'Next step') ?? sections[sections.length - 1];
    if (next) next.items.push({ text: 'The compacted span held no user request, tool call or assistant text (only host-injected context); continue from the messages that follow.' });
  }
  capShares(sections, meter);
  const text = fitWithin(sections, maxTokens, meter, anchors);
  // fitting shrank the other sections: the ceilings hold on what is left
  if (capShares(sections, meter)) {
    const capped = renderSections(sections);
    if (meter.countText(capped) <= maxTokens) return capped;
  }
  return text;
}

/** {@link fitSections} without the ceilings. */
function fitWithin(sections: Section[], maxTokens: number, meter: TokenMeter, anchors?: FitAnchors): string {
  let text = renderSections(sections);
  if (meter.countText(text) <= maxTokens) return text;
  chooseItems(sections, maxTokens, meter, anchors);
  text = renderSections(sections);
  const itemsLeft = () => sections.reduce((n, s) => n + s.items.length, 0);
  // the estimate counts items apart; the rendering may run a few tokens over: the least valuable go
  while (meter.countText(text) > maxTokens && itemsLeft() > 1) {
    let worst: { s: Section; i: number; v: number } | undefined;
    for (const s of sections) {
      s.items.forEach((it, i) => {
        const forced = s.heading === 'Goal' || s.heading === 'In progress' ? i < s.keep : i >= s.items.length - s.keep;
        const v = itemValue(s, it, i, anchors);
        if (!forced && (!worst || v < worst.v)) worst = { s, i, v };
      });
    }
    if (!worst) break;
    const w: { s: Section; i: number } = worst;
    // an item with a shorter form (a report's best sentences) first gives up the rest, then goes whole
    const { shorter, ...it } = w.s.items[w.i]!;
    if (shorter && shorter.length < it.text.length) w.s.items[w.i] = { ...it, text: shorter };
    else w.s.items.splice(w.i, 1);
    text = renderSections(sections);
  }
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
    // the engine re-inserts the anchors a summary loses: the items that hold them are worth keeping
    const anchors = input.anchors ?? extractAnchors(input.span, input.tail, { maxIdentifiers: 0, ...(input.cwd ? { cwd: input.cwd } : {}) });
    const fit: FitAnchors = { texts: anchors.filter((a) => a.kind !== 'file' && a.kind !== 'identifier').map(anchorMatchText), files: anchors.filter((a) => a.kind === 'file').map((a) => a.text) };
    return { text: fitSections(buildSections(input.span, { tail: input.tail, cwd: input.cwd }), input.maxTokens, input.meter, fit) };
  }
}

