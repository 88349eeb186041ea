/**
 * Fitting a checkpoint into its token budget by what a colleague needs most. Every item gets a
 * value (its section's, then what it is: the latest request, the last commit, an unresolved
 * error, a file only read; then how recent it is) and a cost (its tokens); items go in by value
 * while their section stays under its cap, then by value into whatever room is left, so a small
 * budget keeps the goal, the next step, the rules, the end state and the open problems rather
 * than a share of every section. An item too long for the room left goes in as its first
 * sentence. Sections keep their order and their items' order.
 */
import { findingWeight, reportKind } from './findings.js';
import { CORRECTED_NOTE as CORRECTED, EARLIER_CONTEXT } from './merge.js';
import type { Item, Section } from './sections.js';
import { leadSentences } from './sentences.js';
import { contentTokens, overlap } from './subject.js';
import type { TokenMeter } from './tokens.js';

/** Value of a section's items before what each item is (a colleague continuing the work reads the first ones first). */
const SECTION_VALUE: Record<string, number> = {
  Goal: 100,
  'Next step': 95,
  'Constraints and preferences': 80,
  'Rejected or reverted': 70,
  'In progress': 60,
  Done: 55,
  Decisions: 55,
  'Errors and fixes': 45,
  Files: 40,
  Findings: 35,
  Commands: 30,
  // what a prior checkpoint said under a heading of no section of ours: condensed history
  [EARLIER_CONTEXT]: 40,
};

/** Largest share of the budget a section takes while others still wait (fractions of maxTokens); the room left is filled afterwards. */
const SECTION_CAP: Record<string, number> = {
  Goal: 0.15,
  'Next step': 0.15,
  'Constraints and preferences': 0.4,
  'Rejected or reverted': 0.12,
  'In progress': 0.2,
  Done: 0.25,
  Decisions: 0.18,
  'Errors and fixes': 0.15,
  Files: 0.14,
  Findings: 0.2,
  Commands: 0.12,
  [EARLIER_CONTEXT]: 0.2,
};

/** The share of the budget each section may take first, before values decide (so a large budget keeps a few of every section's items). */
const SECTION_FLOOR: Record<string, number> = {
  'Constraints and preferences': 0.08,
  Done: 0.08,
  Decisions: 0.05,
  'Errors and fixes': 0.05,
  Files: 0.08,
  Findings: 0.1,
  Commands: 0.06,
  [EARLIER_CONTEXT]: 0.04,
};

/** Tokens of a `## heading` line and the blank line after a section. */
const HEADING_COST = 6;


/** What the engine will put back if the summary loses it (anchors.ts): an item that holds one costs nothing extra to keep. */
export interface FitAnchors {
  /** Normalized texts (see `normalizeForMatch`) of the request, instruction and error anchors. */
  texts: readonly string[];
  /** Paths of the file anchors. */
  files: readonly string[];
}

/** Normalized for matching, as anchors.ts matches: lowercase, quotes, backticks and markdown marks removed, whitespace collapsed. */
const norm = (s: string) => s.toLowerCase().replace(/[`"'*_>]/g, '').replace(/\s+/g, ' ').trim();

/**
 * What keeping item `it` of section `s` saves when it holds one of `anchors`: a request, rule or
 * error left out comes back verbatim (worth 30), a changed file as one short line with its
 * absolute path (worth 10).
 */
function anchorValue(s: Section, it: Item, anchors: FitAnchors | undefined): number {
  if (!anchors) return 0;
  const t = norm(it.text);
  if (anchors.texts.some((a) => a.length >= 8 && t.includes(a))) return 30;
  const k = it.key;
  return s.heading === 'Files' && !!k && k.includes('.') && anchors.files.some((f) => f === k || f.endsWith('/' + k)) ? 10 : 0;
}

/** How much a colleague needs item `i` of section `s` (higher first). */
export function itemValue(s: Section, it: Item, i: number, anchors?: FitAnchors): number {
  return baseValue(s, it, i) + (it.prior && CORRECTED.test(it.text) ? 20 : 0) + anchorValue(s, it, anchors);
}

function baseValue(s: Section, it: Item, i: number): number {
  const n = s.items.length;
  // a rule or decision a prior checkpoint carried has lasted a compaction already: not ranked as old
  const recency = it.prior && (s.heading === 'Constraints and preferences' || s.heading === 'Decisions') ? 0.8 : n > 1 ? i / (n - 1) : 1;
  const t = it.text;
  let v = SECTION_VALUE[s.heading] ?? 25;
  switch (s.heading) {
    case 'Goal':
      return i === 0 ? v : v - 40;
    case 'Constraints and preferences':
      // a correction keeps the resumed agent from repeating what the user refuted
      return v + 10 * recency + (/^Correction by the user\b/.test(t) ? 25 : 0);
    case 'In progress':
      if (/^Latest request:/.test(t)) return 90;
      if (/\(todo in.progress\)$/i.test(t)) return v + 10;
      // a sub-agent that did not finish: its work is not done, whatever it left
      if (it.key?.startsWith('subagent:')) return v + 12;
      if (/^Last report:/.test(t)) return v - 25;
      return v;
    case 'Done':
      if (/^Last commit:/.test(t)) v += 25;
      else if (it.key === 'last-test-run') v += 20;
      else if (/^Side task\b/.test(t)) v -= 25;
      else if (/^Committed /.test(t)) v -= 10;
      else if (/^Plan items done:/.test(t)) v += 5;
      return v + 10 * recency;
    case 'Errors and fixes':
      // an error left out comes back whole as an anchor: keeping it here costs less
      return v + 5 + (/unresolved|not re-run/.test(t) ? 15 : 0) + 5 * recency;
    case 'Files':
      if (it.key === 'root') return 0; // goes in with the first file (see below)
      if (it.key === 'branch') return v + 10;
      if (/ \(read\)$/.test(t)) return v - 25;
      // a changed file left out comes back as an anchor with its absolute path: keeping it here costs less
      return v + 25 + (/ \(deleted\)$| renamed to /.test(t) ? 5 : 0);
    case 'Findings':
      // what it establishes (findings.ts: a sub-agent's report or the work tree's state 3, a fact 2,
      // a pointer such as a hit list 1, an environment note 0), then how recent
      // a sub-agent's or research report holds what nothing else in the checkpoint says: it ranks with the state sections
      const w = it.weight ?? findingWeight(t);
      // what a sub-agent found stays true after later work: it is not ranked as old; a report of
      // work it did ("Added 3 tests to …") is said by Done and Files as well: facts go first
      const kind = reportKind(t);
      const age = kind === 'facts' ? 1 : kind === 'work' ? recency - 0.5 : recency;
      return v + 8 * (w - 2) + (w >= 3 ? 10 : 0) + 10 * age + (/^`git status/.test(t) ? 7 : 0);
    default:
      return v + 10 * recency;
  }
}

/**
 * The items of `sections` that fit `maxTokens`, chosen by value (see {@link itemValue}; an item
 * holding one of `anchors` is worth more, since leaving it out brings it back verbatim under
 * "Preserved details"): the sections' `keep` items first, then by value within each section's
 * cap, then by value into the room left; a valuable item too long for the room goes in as its
 * first sentence. Modifies `sections` in place (items not chosen are removed) and returns them.
 */
export function chooseItems(sections: Section[], maxTokens: number, meter: TokenMeter, anchors?: FitAnchors): Section[] {
  const cost = (text: string) => meter.countText(text) + 3;
  type Cand = { s: Section; it: Item; i: number; v: number; c: number };
  // what a prior checkpoint's context says that the other sections already say (its rules, its
  // status) is worth little: it goes first
  const context = sections.some((s) => s.heading === EARLIER_CONTEXT && s.items.length);
  const elsewhere = context ? contentTokens(sections.filter((s) => s.heading !== EARLIER_CONTEXT).flatMap((s) => s.items.map((it) => it.text)).join('\n')) : new Set<string>();
  const restated = (s: Section, it: Item) => s.heading === EARLIER_CONTEXT && overlap(contentTokens(it.text), elsewhere).ratio >= 0.7;
  const cands: Cand[] = sections.flatMap((s) => s.items.map((it, i) => ({ s, it, i, v: restated(s, it) ? 5 : itemValue(s, it, i, anchors), c: cost(it.text) })));
  const chosen = new Map<Item, string>();
  const used = new Map<Section, number>();
  let total = 0;
  const room = (s: Section, c: number) => c + (used.has(s) ? 0 : HEADING_COST);
  // the project root goes in with the first file listed relative to it
  const files = sections.find((s) => s.heading === 'Files');
  const root = files?.items.find((it) => it.key === 'root');
  const rootCost = root ? cost(root.text) : 0;
  const withRoot = (s: Section, it: Item) => (s === files && root && it !== root && !chosen.has(root) && !/^Working branch/.test(it.text) ? rootCost : 0);
  const take = (x: Cand, text = x.it.text, c = x.c) => {
    const extra = withRoot(x.s, x.it);
    const need = room(x.s, c) + extra;
    if (extra) chosen.set(root!, root!.text);
    chosen.set(x.it, text);
    used.set(x.s, (used.get(x.s) ?? 0) + need);
    total += need;
  };
  const tryTake = (x: Cand, capped: boolean): void => {
    if (chosen.has(x.it)) return;
    const cap = capped ? (SECTION_CAP[x.s.heading] ?? 0.12) * maxTokens : Infinity;
    const fitsCap = (c: number) => (used.get(x.s) ?? 0) + room(x.s, c) <= cap || !used.has(x.s);
    if (total + room(x.s, x.c) + withRoot(x.s, x.it) <= maxTokens && fitsCap(x.c)) return take(x);
    // too long for the room left: its shorter form (a report's best sentences), else its first
    // sentence, when it says something alone
    if (x.it.shorter) {
      const c = cost(x.it.shorter);
      if (total + room(x.s, c) <= maxTokens && fitsCap(c)) return take(x, x.it.shorter, c);
    }
    if (x.v < 45 || x.it.text.includes('\n')) return;
    const lead = leadSentences(x.it.text, 1);
    // never a first sentence that ends inside a quote
    if (lead.length >= 24 && lead.length < x.it.text.length && (lead.match(/"/g) ?? []).length % 2 === 0) {
      const c = cost(lead);
      if (total + room(x.s, c) <= maxTokens && fitsCap(c)) take(x, lead, c);
    }
  };
  // the items a section never gives up, most needed first: the next step, the goal's first, the first of In progress
  const forcedOrder = [...sections].sort((a, b) => Number(b.heading === 'Next step') - Number(a.heading === 'Next step'));
  for (const s of forcedOrder) {
    const forced = s.heading === 'Goal' || s.heading === 'In progress' ? s.items.slice(0, s.keep) : s.items.slice(s.items.length - s.keep);
    for (const it of forced) {
      const x = cands.find((c) => c.it === it)!;
      if (total + room(s, x.c) <= maxTokens) take(x);
      else tryTake({ ...x, v: 100 }, false);
    }
  }
  const byValue = [...cands].sort((a, b) => b.v - a.v || a.c - b.c);
  // each section's best items within its floor, then by value within the caps, then into the room
  // left; in the first two a section stops at its first item that does not fit (an older small item
  // does not jump ahead of a newer large one)
  const full = new Set<Section>();
  for (const x of byValue) {
    const floor = (SECTION_FLOOR[x.s.heading] ?? 0) * maxTokens;
    if (chosen.has(x.it) || full.has(x.s)) continue;
    if ((used.get(x.s) ?? 0) + room(x.s, x.c) <= floor && total + room(x.s, x.c) + withRoot(x.s, x.it) <= maxTokens) take(x);
    else full.add(x.s);
  }
  full.clear();
  for (const x of byValue) {
    if (chosen.has(x.it) || full.has(x.s)) continue;
    tryTake(x, true);
    if (!chosen.has(x.it)) full.add(x.s);
  }
  for (const x of byValue) tryTake(x, false);
  for (const s of sections) {
    s.items = s.items.filter((it) => chosen.has(it)).map((it) => ({ ...it, text: chosen.get(it)! }));
    s.keep = Math.min(s.keep, s.items.length);
  }
  return sections;
}
