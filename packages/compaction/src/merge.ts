/**
 * Merging prior checkpoints item by item: a checkpoint in the span (ours, or a host's own:
 * pi's `## Goal / ## Progress / ### Done` summary, Claude Code's numbered `1. Primary Request
 * and Intent:` summary, Codex's free-text handoff) is parsed into the checkpoint sections and
 * merged with the newer state. Newer state wins (in progress, next step, a file's state, a
 * command's outcome); lasting items stay (goal, constraints, decisions, done, files); repeats
 * merge; one of each section. Multi-line blocks (trees, tables, code) stay whole as one item.
 */
import { CHECKPOINT_HEADINGS } from './checkpoint-format.js';
import { findingKey } from './findings.js';
import type { Item, Section } from './sections.js';
import { repeats } from './sentences.js';
import { PRESERVED_HEADING } from './summarizer.js';

/** Section for prior items whose heading maps to none of ours (a host's "Key Technical Concepts"...). */
export const EARLIER_CONTEXT = 'Earlier context';

/** A parsed checkpoint: canonical heading -> items, in order. */
export type ParsedCheckpoint = Map<string, Item[]>;

const ALIASES: Array<[RegExp, string]> = [
  [/^(?:goal|goals|objective|primary requests?(?: and intent)?|user intent|task|overall goal|session goal)$/, 'Goal'],
  [/^(?:constraints?(?: (?:&|and) preferences)?|preferences|user instructions(?: and corrections)?|all user messages|requirements|rules|user preferences)$/, 'Constraints and preferences'],
  [/^(?:done|completed|complete|accomplished|work completed|completed work|finished)$/, 'Done'],
  [/^(?:key decisions(?: made)?|decisions(?: made)?|design decisions|technical decisions|architecture decisions)$/, 'Decisions'],
  [/^(?:rejected(?: or reverted)?|reverted|rejected changes|do not re-?apply)$/, 'Rejected or reverted'],
  [/^(?:errors?(?: and fixes)?|issues?(?: and fixes)?|problems? solved|problem solving|bugs? fixed)$/, 'Errors and fixes'],
  [/^(?:commands(?: run)?|commands that matter|build and test)$/, 'Commands'],
  [/^(?:files(?: and code sections)?|files (?:modified|read|created|changed|touched)|files created\/modified|relevant files|file structure|key files|modified files)$/, 'Files'],
  [/^(?:in progress|current work|current task|current state|current status|status|pending(?: tasks)?|blocked|open tasks|work in progress)$/, 'In progress'],
  [/^(?:next steps?|optional next step|immediate next steps?|todo|to do|remaining work)$/, 'Next step'],
];

/** Our heading for a prior section heading, or undefined when none fits. */
export function canonicalHeading(h: string): string | undefined {
  const k = h.toLowerCase().replace(/[*_`]/g, '').replace(/^\d+[.)]\s*/, '').replace(/\s*\(.*\)\s*$/, '').replace(/:$/, '').trim();
  const known = (CHECKPOINT_HEADINGS as readonly string[]).find((s) => s.toLowerCase() === k);
  if (known) return known;
  for (const [re, to] of ALIASES) if (re.test(k)) return to;
  // "Current Task: File Reorganization" -> the name before the colon
  const before = k.split(':')[0]!.trim();
  if (before !== k) for (const [re, to] of ALIASES) if (re.test(before)) return to;
  return undefined;
}

const HEADING = /^(?:#{1,4}\s+(.+?)\s*#*$|\d+\.\s+([A-Z][^:\n]{2,60}):\s*$|([A-Z][A-Za-z &/]{2,40}):\s*$)/;

/** The first path-like or backticked token of an item: its merge key for Files and Commands. */
function keyOf(heading: string, text: string): string | undefined {
  if (heading === 'Files') {
    const m = /`([^`\s]+)`/.exec(text) ?? /((?:[\w.-]+\/)+[\w.-]+\.\w+)/.exec(text);
    return m?.[1];
  }
  if (heading === 'Commands') return /`([^`]+)`/.exec(text)?.[1];
  if (heading === 'Findings') return findingKey(text);
  return undefined;
}

/**
 * Parse a checkpoint body into our sections. Bullets (`-`, `*`, `1.`, `- [x]`) are items,
 * indented lines and nested bullets continue their item, a fenced block is one item, a
 * paragraph is one item. Text before any heading, and a body with no headings, go to
 * {@link EARLIER_CONTEXT}; so do sections whose heading maps to none of ours (prefixed by it).
 */
export function parseCheckpoint(body: string): ParsedCheckpoint {
  const out: ParsedCheckpoint = new Map();
  const text = hostBoilerplateRemoved(body);
  let heading = EARLIER_CONTEXT;
  let label = '';
  let cur = null as Item | null;
  let fence = false;
  const push = (t: string) => {
    const h = heading;
    const arr = out.get(h) ?? [];
    out.set(h, arr);
    const tx = label && h === EARLIER_CONTEXT ? `(${label}) ${t}` : t;
    cur = { text: tx, prior: true };
    arr.push(cur);
  };
  for (const raw of text.split('\n')) {
    if (fence) {
      (cur as Item).text += '\n' + raw;
      if (/^\s*```/.test(raw)) fence = false;
      continue;
    }
    if (/^\s*```/.test(raw)) {
      if (cur && /:\s*$/.test(cur.text)) cur.text += '\n' + raw;
      else push(raw);
      fence = true;
      continue;
    }
    const h = HEADING.exec(raw.trim());
    // "All core refactoring is done:" introduces a list; only a known section name is a heading in that form
    if (h && !/^\s*[-*]/.test(raw) && (h[3] === undefined || canonicalHeading(h[3]) !== undefined)) {
      const name = (h[1] ?? h[2] ?? h[3])!;
      const canon = canonicalHeading(name);
      if (name.toLowerCase() === PRESERVED_HEADING.toLowerCase()) {
        heading = PRESERVED_HEADING;
        label = '';
      } else if (canon) {
        heading = canon;
        label = '';
      } else if (!/^progress$/i.test(name.trim())) {
        heading = EARLIER_CONTEXT;
        label = name.replace(/[*_`#]/g, '').replace(/:$/, '').trim();
      }
      cur = null;
      continue;
    }
    if (!raw.trim()) {
      if (cur && !/^\s*[-*\d]/.test((cur as Item).text)) cur = null; // a paragraph ends at a blank line
      continue;
    }
    const bullet = /^(\s*)(?:[-*+]|\d+[.)])\s+(?:\[( |x|X)\]\s+)?(.*)$/.exec(raw);
    if (bullet && bullet[1]!.length < 2) {
      const item = bullet[3]!.trim();
      const checked = bullet[2];
      if (checked && /x/i.test(checked) && heading !== 'Done') {
        const keepHeading = heading;
        heading = 'Done';
        push(item);
        heading = keepHeading;
      } else push(item);
      continue;
    }
    if (cur && (/^\s{2,}\S/.test(raw) || bullet)) {
      (cur as Item).text += '\n' + raw.replace(/\s+$/, '');
      continue;
    }
    // a line right after an item that is no bullet continues it (a wrapped line)
    if (cur && !bullet) {
      (cur as Item).text += ' ' + raw.trim();
      continue;
    }
    push(raw.trim());
  }
  // our own "Preserved details": each kind back to its section
  const preserved = out.get(PRESERVED_HEADING);
  if (preserved) {
    out.delete(PRESERVED_HEADING);
    for (const it of preserved) {
      const m = /^(Last user request|User said|Modified file|Error seen|Identifiers still in use):\s*(.*)$/s.exec(it.text);
      const to = m ? { 'Last user request': 'In progress', 'User said': 'Constraints and preferences', 'Modified file': 'Files', 'Error seen': 'Errors and fixes', 'Identifiers still in use': EARLIER_CONTEXT }[m[1]!]! : EARLIER_CONTEXT;
      const t = m?.[1] === 'Last user request' ? `Latest request: ${m[2]!.replace(/^"|"$/g, '')}` : m?.[1] === 'User said' ? m[2]!.replace(/^"|"$/g, '') : m?.[1] === 'Modified file' ? `${m[2]} (modified)` : it.text;
      const arr = out.get(to) ?? [];
      arr.push({ text: t, prior: true });
      out.set(to, arr);
    }
  }
  for (const [h, items] of out) for (const it of items) {
    const k = keyOf(h, it.text);
    if (k) it.key = k;
  }
  return out;
}

/**
 * A host summary without the host's framing: Claude Code's "This session is being continued
 * from a previous conversation..." opening, its "Continue the conversation..." closing, its
 * `<analysis>` scratchpad and `<system-reminder>` blocks; its pointer to the full transcript is
 * kept as one line.
 */
function hostBoilerplateRemoved(body: string): string {
  let t = body
    .replace(/<analysis>[\s\S]*?<\/analysis>/g, '')
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '')
    .replace(/<\/?summary>/g, '')
    .replace(/^Summary:\s*$/m, '');
  t = t.replace(/^This session is being continued from a previous conversation[^\n]*(?:\n|$)/m, '');
  t = t.replace(/^If you need specific details from before compaction[^\n]*?read the full transcript at:\s*(\S+)[^\n]*$/m, 'Full transcript before that compaction: `$1`');
  t = t.replace(/^(?:Please )?[Cc]ontinue the conversation from where (?:it|we) left off[^\n]*$/m, '');
  return t.trim();
}

/** Sections whose newer items replace the older ones entirely (state, not history). */
const SUPERSEDED = new Set(['In progress', 'Next step']);

/** Merge two parsed checkpoints: `newer` wins where state is superseded; lasting items are kept, repeats merged. */
export function mergeTwo(older: ParsedCheckpoint, newer: ParsedCheckpoint): ParsedCheckpoint {
  const out: ParsedCheckpoint = new Map();
  const heads = [...new Set([...older.keys(), ...newer.keys()])];
  for (const h of heads) {
    const o = older.get(h) ?? [];
    const n = newer.get(h) ?? [];
    if (SUPERSEDED.has(h)) {
      out.set(h, n.length ? [...n] : [...o]);
      continue;
    }
    if (h === 'Goal' && o.length) {
      // the goal of the session stays; the newer span's first request is its latest request
      out.set(h, [...o]);
      const req = n.filter((x) => !o.some((y) => repeats(x.text, y.text)));
      if (req.length) {
        const prog = newer.get('In progress') ?? [];
        if (!prog.some((x) => /^Latest request:/.test(x.text))) newer.set('In progress', [{ text: `Latest request: ${req[req.length - 1]!.text}` }, ...prog]);
      }
      continue;
    }
    const merged: Item[] = [];
    for (const it of [...o, ...n]) {
      const i = merged.findIndex((x) => (it.key !== undefined && x.key === it.key) || repeats(x.text, it.text));
      if (i >= 0) merged.splice(i, 1);
      merged.push(it);
    }
    out.set(h, merged);
  }
  // In progress may have been extended by the goal rule after it was copied
  if (newer.get('In progress')?.length) out.set('In progress', [...newer.get('In progress')!]);
  return out;
}

/** Merge prior checkpoints (oldest first) and the span's own sections into one section map. */
export function mergePrior(priors: readonly ParsedCheckpoint[], current: readonly Section[]): Map<string, Section> {
  const cur: ParsedCheckpoint = new Map(current.map((s) => [s.heading, s.items]));
  let acc: ParsedCheckpoint = new Map();
  for (const p of priors) acc = mergeTwo(acc, p);
  const merged = priors.length ? mergeTwo(acc, cur) : cur;
  const out = new Map<string, Section>();
  for (const [h, items] of merged) out.set(h, { heading: h, items, keep: 0 });
  return out;
}
