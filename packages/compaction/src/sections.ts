/**
 * The state of a span as checkpoint sections (see {@link CHECKPOINT_SECTIONS}): what a colleague
 * needs to continue, each item made of whole sentences or whole lines. Deterministic: the same
 * span gives the same sections. Prior checkpoints inside the span are merged item by item
 * (merge.ts).
 */
import type { SurfaceNode } from '@hive-mind/session';
import { analyzeSpan, type CallFact, type SpanFacts } from './analyze.js';
import { CHECKPOINT_HEADINGS, type CheckpointSection } from './checkpoint-format.js';
import { mergePrior, parseCheckpoint, EARLIER_CONTEXT } from './merge.js';
import { distillRequest, leadSentences, pastedError, repeats, shortenWhole, splitSentences, stripMarker } from './sentences.js';
import { modifiesFiles } from './toolinfo.js';
import { resolvePaths, SCRATCH_PATH as SCRATCH } from './paths.js';
import { commandKey, commands, commitMessage, displayCommand, failingTests, wholeLine } from './commands.js';
import { findingOf, findings, unfinishedSubAgents } from './findings.js';

/** One checkpoint item: a whole fact. `key` identifies what it is about (a path, a command) for merging. */
export interface Item {
  text: string;
  key?: string;
  /** Carried over from a prior checkpoint. */
  prior?: boolean;
  /** What the item establishes (Findings: 3 a sub-agent's or research result ... 0 an environment note); budget fitting gives up the lightest first. */
  weight?: number;
  /** A shorter form of the item that budget fitting uses before dropping it (a report's best sentences within fewer characters). */
  shorter?: string;
}

/** A checkpoint section: its items in order (oldest first) and how many must survive budget fitting. */
export interface Section {
  heading: CheckpointSection | string;
  items: Item[];
  /** Items that budget fitting never drops (the first ones for Goal, the last ones elsewhere). */
  keep: number;
}

/** Longest goal, request and constraint items (characters; whole sentences, so an item may run a sentence longer). */
export const GOAL_CHARS = 400;
const ITEM_CHARS = 300;

/** Acknowledgements and nudges that are not a request. */
const ACK = /^(?:ok(?:ay)?|k|yes|yep|yeah|yo|no|nope|sure|thanks?(?: you)?|ty|continue|go(?: on| ahead)?|proceed|do it|next|nice|great|cool|good|perfect|done|lgtm|can leave it|leave it|fine|right|y|n|sleep|wait)\b[\s.!?,]*(?:continue|go on|thanks)?[\s.!?]*$/i;

/** A user message that states a request: not a slash command, not an acknowledgement, not a few words, not host hook output. */
export function isSubstantiveRequest(text: string): boolean {
  const t = text.trim();
  if (!t || /^\/[\w:-]+(?:\s|$)/.test(t)) return false;
  if (ACK.test(t)) return false;
  if (/^(?:Stop hook feedback:|\w+ hook (?:feedback|error|blocking error)\b)/i.test(t)) return false;
  // "Good. Continue with module 7." is a nudge: judge what follows the acknowledgement
  const rest = t.replace(/^(?:(?:ok(?:ay)?|good|great|nice|cool|perfect|thanks?|yes|yep|alright|sure)\b[\s.!,]*)+/i, '');
  if (/^(?:continue|go on|proceed|keep going|next)\b/i.test(rest) && rest.length < 40) return false;
  return rest.length >= 25 || rest.split(/\s+/).length >= 5;
}

/**
 * A lasting instruction or preference: a prescription or prohibition ("don't", "never", "always",
 * "only", "make sure", "use X instead", "must", "should be") rather than a one-off request or a remark.
 */
const LASTING = /(?:^|[,.;:!?(]\s*|\b(?:and|but|so|please|just|also|ok(?:ay)?|no|yes|omfg|well|hm+)[,!]?\s+)(?:don't|dont|do not|never|always|only|avoid|stop|keep|make sure|no need to|use|prefer|remember)\b|\b(?:must(?:n't)?|should(?:n't)?|has to|have to)\b|\binstead(?: of\b|[.!]?$)|\bonly (?:want|use|need)\b|\bnever\b|\balways\b/i;
/** A strong cue: keeps a question-shaped correction ("... should still be there, no?"). */
const STRONG = /\b(?:never|always|only|must|should|don't|do not)\b/i;
/** Talk about the user's own understanding, not an instruction. */
/** A modal inside a relative clause describes, it does not instruct ("locations where those modules should go"). */
const RELATIVE_MODAL = /\b(?:where|which|what|how|who|whom|when|whether)\s+(?:[\w'-]+\s+){0,4}(?:should(?:n't)?|must|has to|have to)\b/gi;
const REMARK = /^(?:i (?:don't|do not) (?:understand|think|tink|know|get|see)|i'm not sure|not sure|hm+|what|why|how|does|is|are|can|could|would)\b|\bshould be (?:good|fine|ok(?:ay)?|done|ready)\b/i;

/** The user's lasting instructions in `text`: the whole message when it is short and one, else its instruction sentences. */
export function lastingInstructions(text: string): string[] {
  if (pastedError(text)) return [];
  const ss = splitSentences(text).map(stripMarker).filter((s) => s.length >= 12);
  const isInstr = (s: string) => LASTING.test(s.replace(RELATIVE_MODAL, '')) && (!s.endsWith('?') || STRONG.test(s)) && !(REMARK.test(s) && !STRONG.test(s.replace(/^i (?:don't|do not)/i, '')));
  const hits = ss.filter(isInstr);
  if (!hits.length) return [];
  // "Please also port helper 3; never touch vendored code." -> only the clause that lasts
  const lasting = (s: string) => {
    const clauses = s.split(/;\s+/);
    const keep = clauses.filter(isInstr);
    return clauses.length > 1 && keep.length < clauses.length ? keep.map((c) => c.replace(/^\w/, (x) => x.toUpperCase()).replace(/([^.!?])$/, '$1.')) : [s];
  };
  const split = ss.some((s) => lasting(s).length !== 1 || lasting(s)[0] !== s);
  if (text.length <= 300 && ss.length <= 3 && !split) return [leadSentences(text, 300)];
  return hits.flatMap(lasting).filter((s) => s.length <= 600);
}

/** The user asks to undo the last change. */
const REJECT = /\b(?:undo|undid|revert(?:ed)?|roll(?:ed)? ?back|put (?:it|that|them) back|back out|you (?:fucked|broke|messed|screwed)|not what i (?:asked|wanted)|don't do that|that's wrong|that is wrong)\b/i;
/** Decision wording in assistant prose. */
const DECISION = /\b(?:decid(?:e|ed|ing)|instead of|rather than|we(?:'ll| will) (?:use|go with|keep)|i(?:'ll| will) (?:use|go with|keep|switch to)|going with|(?:we|i) chose|chose to|opted for|switched to|the (?:plan|approach|fix|solution) is|best (?:solution|approach|option)|should (?:only|instead|not)|by design)\b/i;
/** Step-by-step narration: never a decision or a report. */
const NARRATION = /\blet me\b|\blet's\b|^(?:now|first|next|then|ok(?:ay)?|great|perfect|good|alright)\b[,!]?\s+(?:i|let|i'll|we)\b|^i(?:'ll| will| need to| am going to|'m going to) (?:now |first |also )?(?:read|look|check|update|add|create|run|open|fix|edit|write|search|see|start|try|examine|test|verify|get|find|make)\b/i;
/** A guess, not a decision. */
const SPECULATION = /^(?:if|i bet|maybe|perhaps|possibly|probably|it might|it may|this might|that might|could it be|i think|i suspect|likely)\b/i;
/** Code rather than prose. */
const CODE_LIKE = /[{};]\s*$|=>|\bthis\.\w+\(|^\s*(?:const|let|var|import|export|function|class|def|return|if|for)\b|\w\(\)\s*[;{]|^[`'"][^`'"]+[`'"]\s*$/;
/** Work reported complete. */
const DONE = /^(?:done|fixed|updated|created|added|implemented|completed|finished|all set)\b|\b(?:is|are|now) (?:now )?(?:complete|completed|done|finished|fixed|passing)\b|\b(?:we've|i've|have|has) (?:now )?(?:completed|finished|fixed|implemented|ported)\b|\bcomplete[d]?[.!]$|\ball (?:tests|checks) pass|\btests? pass(?:es|ed)?\b|\bbuilds? (?:successfully|passes|succeeds)\b|\bsuccessfully\b/i;
/** The assistant's stated next move. */
const NEXT = /\b(?:next(?:,| i| we| step| up| is|:)|now i(?:'ll| will)|then i(?:'ll| will)|i(?:'ll| will) (?:now|next|then)|remaining|still (?:need|to do|todo)|left to do|moving on to|now wp|next wp)\b/i;

export type Add = (h: CheckpointSection | string, text: string, key?: string, weight?: number, shorter?: string) => void;

/** Build the checkpoint sections of a span (prior checkpoints in it merged item by item). `cwd`: the session's working folder as the host recorded it before the span (paths.ts). */
export function buildSections(span: readonly SurfaceNode[], opts: { cwd?: string } = {}): Section[] {
  const f = analyzeSpan(span);
  const { root } = resolvePaths(f, opts.cwd);
  const sec = new Map<string, Section>();
  for (const h of CHECKPOINT_HEADINGS) sec.set(h, { heading: h, items: [], keep: 0 });
  const add: Add = (h, text, key, weight, shorter) => {
    const t = text.trim();
    if (!t) return;
    let s = sec.get(h);
    if (!s) sec.set(h, (s = { heading: h, items: [], keep: 0 }));
    if (key !== undefined) {
      const i = s.items.findIndex((x) => x.key === key);
      if (i >= 0) s.items.splice(i, 1);
    } else if ((h === 'Next step' ? [s] : [...sec.values()]).some((o) => o.items.some((x) => x.key === undefined && repeats(x.text, t)))) return;
    s.items.push({ text: t, ...(key !== undefined ? { key } : {}), ...(weight !== undefined ? { weight } : {}), ...(shorter && shorter.length < t.length ? { shorter } : {}) });
  };

  const users = f.userTexts;
  const requests = users.filter((u) => isSubstantiveRequest(u.text));
  // a session whose only request is a few words ("say hi") still has that as its goal
  const firstReq = requests[0] ?? users.find((u) => !/^\/[\w:-]+(?:\s|$)/.test(u.text.trim()) && !/^(?:Stop hook feedback:|\w+ hook (?:feedback|error))/i.test(u.text));
  const latestReq = requests[requests.length - 1];
  const rejections = users.filter((u) => REJECT.test(u.text));

  goalAndConstraints(f, add, firstReq, requests, rejections);
  const rejectedTurns = rejected(f, add, rejections);
  done(f, add);
  decisions(f, add, rejectedTurns);
  errorsAndFixes(f, add);
  commands(f, add);
  findings(f, add);
  files(f, add);
  inProgressAndNext(f, add, firstReq, latestReq, (t) => (sec.get('Constraints and preferences')?.items ?? []).some((x) => repeats(x.text, t) || x.text.includes(t) || t.includes(x.text)));
  branch(f, add);
  unfinishedSubAgents(f, add);
  // an unfinished sub-agent is work in progress like an open todo: right after the latest request
  const working = sec.get('In progress');
  if (working) {
    const sub = working.items.filter((i) => i.key?.startsWith('subagent:'));
    const rest = working.items.filter((i) => !sub.includes(i));
    rest.splice(rest.length && /^Latest request:/.test(rest[0]!.text) ? 1 : 0, 0, ...sub);
    working.items = rest;
  }

  // Prior checkpoints: their items come first, newer state wins (merge.ts).
  const priors = f.priorBodies.map(parseCheckpoint);
  relativize(root, [...sec.values()], priors);
  const merged = mergePrior(priors, [...sec.values()]);
  const order = [...CHECKPOINT_HEADINGS.slice(0, CHECKPOINT_HEADINGS.indexOf('In progress')), EARLIER_CONTEXT, 'In progress', 'Next step'];
  const out = order.map((h) => merged.get(h)).filter((s): s is Section => !!s);
  for (const s of merged.values()) if (!out.includes(s)) out.splice(out.length - 2, 0, s);
  const filesSec = out.find((s) => s.heading === 'Files');
  if (filesSec) filesSec.items.sort((a, b) => Number(b.key === 'root') - Number(a.key === 'root'));
  const goal = out.find((s) => s.heading === 'Goal');
  if (goal) goal.keep = Math.min(1, goal.items.length);
  const next = out.find((s) => s.heading === 'Next step');
  if (next) next.keep = Math.min(1, next.items.length);
  const prog = out.find((s) => s.heading === 'In progress');
  if (prog) prog.keep = Math.min(1, prog.items.length);
  return out;
}

// --- Goal, constraints, rejected --------------------------------------------------

function goalAndConstraints(f: SpanFacts, add: Add, firstReq: Msg | undefined, requests: Msg[], rejections: Msg[]): void {
  if (firstReq) add('Goal', distillRequest(firstReq.text, GOAL_CHARS));
  for (const u of requests) {
    if (rejections.includes(u)) continue;
    const found = lastingInstructions(u.text);
    if (u === firstReq) {
      // the goal holds its lead; the rest of the first request may carry lasting instructions
      const lead = distillRequest(u.text, GOAL_CHARS);
      for (const s of found) if (!lead.includes(s)) add('Constraints and preferences', s);
      continue;
    }
    for (const s of found) add('Constraints and preferences', s);
  }
  void f;
}

type Msg = { seq: number; text: string };

/** Turns the user rejected: the changes of the assistant turn just before each rejection. Returns the seq ranges of those turns. */
function rejected(f: SpanFacts, add: Add, rejections: Msg[]): Array<[number, number]> {
  const turns: Array<[number, number]> = [];
  const userSeqs = f.userTexts.map((u) => u.seq);
  for (const r of rejections) {
    const prev = [...userSeqs].reverse().find((s) => s < r.seq) ?? -1;
    const changed = f.calls.filter((c) => c.seq > prev && c.seq < r.seq && modifiesFiles(c.info) && !c.failed).flatMap((c) => c.info.paths);
    const said = leadSentences(r.text, 160);
    if (changed.length) {
      const paths = [...new Set(changed)].map((p) => '`' + p + '`').join(', ');
      add('Rejected or reverted', `The change to ${paths} before "${said}" was rejected by the user (do not re-apply it).`);
      turns.push([prev, r.seq]);
    } else add('Rejected or reverted', `The user rejected the previous answer: "${said}"`);
  }
  for (const c of f.calls) {
    if (c.failed || !c.info.command) continue;
    const m = /\bgit (?:revert|reset --hard|checkout -- |restore )(.*)$/m.exec(c.info.command);
    if (m) add('Rejected or reverted', `Reverted with \`${displayCommand(c.info.command)}\`.`);
  }
  return turns;
}

// --- Done -------------------------------------------------------------------------

function done(f: SpanFacts, add: Add): void {
  for (const c of f.calls) {
    if (c.failed || !c.result || c.repaired) continue;
    if (c.info.command && /\bgit\s+commit\b/.test(c.info.command)) {
      const msg = commitMessage(c.info.command);
      add('Done', msg ? `Committed "${msg}".` : 'Committed the changes.');
    }
    if (c.info.command && /\bgit\s+(?:checkout\s+-b|switch\s+-c)\s+(\S+)/.test(c.info.command)) {
      add('Done', `Created and switched to branch \`${/\bgit\s+(?:checkout\s+-b|switch\s+-c)\s+(\S+)/.exec(c.info.command)![1]}\`.`);
    }
  }
  const lastTodo = [...f.calls].reverse().find((c) => c.info.kind === 'todo' && c.info.todos?.length);
  if (lastTodo) for (const t of lastTodo.info.todos!) if (/^(?:completed|done)/i.test(t.status)) add('Done', `${shortenWhole(t.text, ITEM_CHARS)} (todo completed)`);
  for (const a of f.assistantTexts) {
    const ss = splitSentences(a.text).map(stripMarker);
    for (let i = 0; i < ss.length; i++) {
      const s = ss[i]!;
      if (!DONE.test(s) || NARRATION.test(s) || CODE_LIKE.test(s) || s.endsWith('?') || s.endsWith(':') || s.length > 240) continue;
      // "Done." alone says nothing: take the sentence that says what
      const text = s.length < 30 && ss[i + 1] && !ss[i + 1]!.endsWith(':') && !NARRATION.test(ss[i + 1]!) ? `${s} ${ss[i + 1]}` : s;
      if (text.length >= 16) add('Done', text);
    }
  }
}

// --- Decisions --------------------------------------------------------------------

function decisions(f: SpanFacts, add: Add, rejectedTurns: Array<[number, number]>): void {
  const inRejected = (seq: number) => rejectedTurns.some(([a, b]) => seq > a && seq < b);
  for (const a of f.assistantTexts) {
    if (inRejected(a.seq)) continue;
    const ss = splitSentences(a.text).map(stripMarker);
    for (let i = 0; i < ss.length; i++) {
      const s = ss[i]!;
      if (!DECISION.test(s) || NARRATION.test(s) || CODE_LIKE.test(s) || SPECULATION.test(s) || s.endsWith(':') || s.endsWith('?') || s.length > ITEM_CHARS) continue;
      // the reason, when the next sentence gives it
      const next = ss[i + 1];
      const reason = next && /^(?:because|since|this (?:way|keeps|avoids|means|makes)|that way|so that|otherwise)\b/i.test(next) && next.length <= 200 ? ` ${next}` : '';
      add('Decisions', s + reason);
    }
  }
}

// --- Errors and fixes ---------------------------------------------------------------

function errorsAndFixes(f: SpanFacts, add: Add): void {
  const calls = f.calls;
  for (let i = 0; i < calls.length; i++) {
    const c = calls[i]!;
    if (!c.failed || !c.result || c.repaired) continue;
    if (c.subAgents) continue; // Findings says how the sub-agent ended
    const later = calls.slice(i + 1);
    // a file tool that failed and then succeeded on the same path is a retry, not an error worth keeping
    if (!c.info.command && c.info.paths.length && later.some((d) => !d.failed && d.call.name === c.call.name && d.info.paths[0] === c.info.paths[0])) continue;
    const what = c.info.command ? `\`${displayCommand(c.info.command)}\`` : `${c.call.name}${c.info.paths[0] ? ` \`${c.info.paths[0]}\`` : ''}`;
    const err = wholeLine(c.errorLine ?? 'failed');
    add('Errors and fixes', `${what} failed: ${err}${c.info.command ? failingTests(c.resultText ?? '') : ''} ${fixOf(c, later)}`, `${what}|${err}`);
  }
}

/**
 * True when `later` re-runs the failed command `failed`: the same command, or one whose words
 * (output plumbing left out) start with the other's, so a failing `pytest -q tests/test_x.py`
 * counts as re-run by a passing `pytest -q`, and a failing `npm test` by `npm test -- test/x.test.ts`.
 */
function reruns(failed: string, later: string): boolean {
  if (failed === later) return true;
  const a = commandKey(displayCommand(failed)).split(/\s+/).filter(Boolean);
  const b = commandKey(displayCommand(later)).split(/\s+/).filter(Boolean);
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length > 0 && short.every((w, i) => long[i] === w);
}

/** What fixed a failed call: the changes made before the same command (or the same tool on the same path) next succeeded. */
function fixOf(c: CallFact, later: CallFact[]): string {
  const cmd = c.info.command;
  const sameAgain = later.findIndex((d) => !d.failed && d.result && (cmd ? !!d.info.command && reruns(cmd, d.info.command) : d.call.name === c.call.name && d.info.paths[0] === c.info.paths[0]));
  const window = sameAgain >= 0 ? later.slice(0, sameAgain) : later.slice(0, 6);
  const changed = [...new Set(window.filter((d) => !d.failed && modifiesFiles(d.info) && !d.info.command).flatMap((d) => d.info.paths))];
  const files = changed.slice(0, 3).map((p) => '`' + p + '`').join(', ') + (changed.length > 3 ? ` and ${changed.length - 3} more` : '');
  const rerun = sameAgain >= 0 ? later[sameAgain]!.info.command : undefined;
  const passed = rerun && rerun !== cmd ? `\`${commandKey(displayCommand(rerun))}\` then passed` : 'it then passed';
  if (sameAgain >= 0) return changed.length ? `-> fixed by changing ${files}; ${passed}.` : rerun && rerun !== cmd ? `-> ${passed}.` : '-> it passed when run again.';
  if (changed.length) return `-> followed by changes to ${files} (not re-run in this span).`;
  return '-> unresolved in this span.';
}

// --- Files --------------------------------------------------------------------------

/** A path worth listing: not a glob, not an import specifier, not a bare word. */
export function isFilePath(p: string): boolean {
  if (/[*?{}[\]]/.test(p) || /\s/.test(p)) return false;
  if (p.endsWith('/')) return true; // a directory
  const base = p.split('/').pop()!;
  // `../theme/theme` and `utils/config` are import specifiers: a file has an extension, is a dotfile or a known extensionless name
  return /\.\w+$/.test(base) || /^\.[\w.-]+$/.test(base) || /^(?:[A-Z][A-Za-z]*file|Makefile|LICENSE|README|CHANGELOG|NOTICE|COPYING|Procfile|Brewfile|Gemfile|Rakefile|Vagrantfile|Justfile|justfile|makefile)$/.test(base);
}

function files(f: SpanFacts, add: Add): void {
  type State = { edits: number; state: 'modified' | 'created' | 'deleted' | 'renamed'; to?: string; failedOnly: boolean };
  const st = new Map<string, State>();
  const read = new Set<string>();
  for (const c of f.calls) {
    if (c.info.kind === 'read') for (const p of c.info.paths) read.add(p);
    if (!c.failed) for (const p of c.info.reads ?? []) read.add(p);
    if (!modifiesFiles(c.info) && !c.info.deleted && !c.info.renamed) continue;
    for (const p of c.info.paths) {
      const created = (c.info.kind === 'write' && !read.has(p)) || (c.info.created?.includes(p) && !st.has(p));
      const s = st.get(p) ?? { edits: 0, state: created ? 'created' : 'modified', failedOnly: true };
      if (s.state === 'deleted' || s.state === 'renamed') s.state = 'modified';
      s.edits++;
      if (!c.failed) s.failedOnly = false;
      st.set(p, s);
    }
    if (c.failed) continue;
    for (const p of c.info.deleted ?? []) st.set(p, { edits: st.get(p)?.edits ?? 0, state: 'deleted', failedOnly: false });
    for (const r of c.info.renamed ?? []) st.set(r.from, { edits: st.get(r.from)?.edits ?? 0, state: 'renamed', to: r.to, failedOnly: false });
  }
  const paths = [...st.keys()].filter(isFilePath);
  // a bare file name that a full path of the span already names is a duplicate
  const full = paths.filter((p) => p.includes('/'));
  const keep = paths.filter((p) => p.includes('/') || !full.some((q) => q.endsWith('/' + p)));
  if (keep.some((p) => !SCRATCH.test(p))) for (const p of [...keep]) if (SCRATCH.test(p)) keep.splice(keep.indexOf(p), 1);
  for (const p of keep) {
    const s = st.get(p)!;
    let state: string;
    if (s.state === 'deleted') state = 'deleted';
    else if (s.state === 'renamed') state = `renamed to \`${s.to}\``;
    else if (s.failedOnly) state = 'attempted; every change failed';
    else state = `${s.state}${s.edits > 1 ? `, ${s.edits} changes` : ''}`;
    add('Files', `\`${p}\` (${state})`, p);
  }
  for (const p of read) if (!st.has(p) && isFilePath(p)) add('Files', `\`${p}\` (read)`, p);
}

/** Branch the span created or switched to (the last one): a Files item, so it stays as state. */
function branch(f: SpanFacts, add: Add): void {
  let name: string | undefined;
  for (const c of f.calls) {
    if (c.failed || !c.info.command) continue;
    const m = /\bgit\s+(?:checkout(?:\s+-b)?|switch(?:\s+-c)?)\s+([\w./-]+)\s*$/m.exec(c.info.command.split(/&&|;/).map((x) => x.trim()).find((x) => /^git\s+(?:checkout|switch)\b/.test(x)) ?? '');
    if (m && !m[1]!.startsWith('-') && !/\./.test(m[1]!.slice(-4))) name = m[1];
  }
  if (name) add('Files', `Working branch: \`${name}\``, 'branch');
}

/** Marker of the project-root item of Files. */
const ROOT_ITEM = /^Paths are relative to `([^`]+)`/;

/**
 * Say paths relative to the project root (`root`, from paths.ts, or the root a prior checkpoint
 * already uses when it still covers it): the root's prefix is removed from every item (commands
 * and error lines name paths too) and one Files item names the root.
 */
function relativize(root: string | undefined, sections: Section[], priors: ParsedCheckpointLike[]): void {
  const priorRoot = priors.flatMap((p) => p.get('Files') ?? []).map((it) => ROOT_ITEM.exec(it.text)?.[1]).filter(Boolean).pop();
  if (priorRoot && (!root || root === priorRoot || root.startsWith(priorRoot + '/'))) {
    // the prior checkpoint's root covers this span: its paths stay as they are, ours follow it
    if (root && root !== priorRoot) {
      const sub = root.slice(priorRoot.length + 1) + '/';
      for (const it of sections.find((s) => s.heading === 'Files')?.items ?? []) {
        if (it.key && !it.key.startsWith('/') && it.key !== 'root' && it.key !== 'branch') {
          it.text = it.text.replace('`' + it.key + '`', '`' + sub + it.key + '`');
          it.key = sub + it.key;
        }
      }
    }
    root = priorRoot;
  }
  if (!root) return;
  const prefix = root + '/';
  for (const s of [...sections, ...priors.flatMap((p) => [...p.entries()].map(([heading, items]) => ({ heading, items, keep: 0 })))]) for (const it of s.items) {
    if (it.text.includes(prefix)) it.text = it.text.split(prefix).join('');
    if (it.key?.startsWith(prefix)) it.key = it.key.slice(prefix.length);
  }
  const filesSec = sections.find((s) => s.heading === 'Files');
  for (const p of priors) p.set('Files', (p.get('Files') ?? []).filter((it) => it.key !== 'root' && !ROOT_ITEM.test(it.text)));
  const priorFiles = priors.some((p) => (p.get('Files') ?? []).length);
  if (filesSec && (filesSec.items.length || priorFiles)) filesSec.items.unshift({ text: `Paths are relative to \`${root}\`.`, key: 'root' });
}

type ParsedCheckpointLike = Map<string, Item[]>;

// --- In progress, next step -----------------------------------------------------------

function inProgressAndNext(f: SpanFacts, add: Add, firstReq: Msg | undefined, latestReq: Msg | undefined, isConstraint: (t: string) => boolean): void {
  const users = f.userTexts;
  const lastA = f.assistantTexts[f.assistantTexts.length - 1];
  const lastU = users[users.length - 1];
  const latest = latestReq && latestReq !== firstReq ? distillRequest(latestReq.text, GOAL_CHARS) : undefined;
  // a latest request already listed as a lasting instruction is not repeated
  if (latest && !isConstraint(latest) && !REJECT.test(latestReq!.text)) add('In progress', `Latest request: ${latest}`);
  const lastTodo = [...f.calls].reverse().find((c) => c.info.kind === 'todo' && c.info.todos?.length);
  const open = lastTodo ? lastTodo.info.todos!.filter((t) => !/^(?:completed|done|cancel)/i.test(t.status)) : [];
  for (const t of open) add('In progress', `${shortenWhole(t.text, ITEM_CHARS)} (todo ${t.status})`);
  const unanswered = f.calls.filter((c) => !c.result || c.repaired);
  if (unanswered.length) {
    const names = [...new Set(unanswered.map((c) => c.call.name))];
    add('In progress', `${unanswered.length} tool call${unanswered.length > 1 ? 's were' : ' was'} interrupted without a result (${names.join(', ')}); re-run if still needed.`);
  }
  if (lastA && (!lastU || lastA.seq > lastU.seq)) {
    const said = splitSentences(lastA.text).map(stripMarker).filter((s) => !CODE_LIKE.test(s) && !NEXT.test(s) && s.length >= 12);
    const lead = leadSentences(said.filter((s) => !s.endsWith(':')).join(' '), 300);
    if (lead) add('In progress', `Last report: ${lead}`);
  }

  add('Next step', nextStep(f, latestReq, open));
}

/** The assistant's stated next move in a sentence ("Now let me update README.md to reference DEVELOPMENT.md:"), as an instruction ("Update README.md to reference DEVELOPMENT.md"). */
const INTENT = /^(?:(?:now|next|then|first|so|ok(?:ay)?|great|perfect|good|alright)[,!]?\s+)?(?:let me|let's|i'll|i will|i need to|i'm going to|i am going to|i should|we need to|we'll)\s+(?:now\s+|also\s+|first\s+)?(.{8,200}?)[.:!]?$/i;

/** The last stated intent of `text`, as an instruction, if it states one. */
export function intentOf(text: string): string | undefined {
  for (const s of splitSentences(text).map(stripMarker).reverse()) {
    if (s.endsWith('?') || CODE_LIKE.test(s)) continue;
    const m = INTENT.exec(s.trim());
    if (m) return m[1]!.replace(/^\w/, (x) => x.toUpperCase()).replace(/[\s:.]+$/, '');
  }
  return undefined;
}

/** How the span's last tool call ended, for the next step: `cmd` -> outcome, or the tool and its path. */
function lastCallSaid(c: CallFact): string {
  const input = (c.call.input && typeof c.call.input === 'object' ? c.call.input : {}) as Record<string, unknown>;
  const pattern = c.info.kind === 'search' && typeof input.pattern === 'string' ? ` \`${shortenWhole(input.pattern, 60)}\`${c.info.paths[0] ? ' in' : ''}` : '';
  const what = c.info.command ? `\`${shortenWhole(displayCommand(c.info.command), 100)}\`` : `${c.call.name}${pattern}${c.info.paths[0] ? ` \`${c.info.paths[0]}\`` : ''}`;
  // a search says what it found (the Findings line has the hits)
  const found = c.info.kind === 'search' || c.info.command ? /\b(found no match|listed nothing|\d+ (?:hits?|entries|entry)|matched \(\d+ lines with context\))/.exec(findingOf(c, 1) ?? '')?.[1] : undefined;
  const how = !c.result || c.repaired ? 'no result (interrupted)' : c.interrupted ? `interrupted: ${wholeLine(c.errorLine ?? 'before it finished')}` : c.failed ? `failed: ${wholeLine(c.errorLine ?? 'error')}` : found ?? 'ok';
  return `${what} -> ${how}`;
}

/**
 * The one next action, from the last user request and the last unfinished action: the user's
 * newest message when nothing answered it; a host's feedback (a Stop hook that blocked the end of
 * the turn), said as the host's, never as the user's; the work under way when the span ends in
 * a tool loop (the open todo item, else the assistant's last stated intent, else the latest
 * request, with how the last call ended); only when the span ends on the assistant's own answer,
 * its stated next move or waiting for the user.
 */
function nextStep(f: SpanFacts, latestReq: Msg | undefined, open: Array<{ text: string; status: string }>): string {
  const lastA = f.assistantTexts[f.assistantTexts.length - 1];
  const lastU = f.userTexts[f.userTexts.length - 1];
  const lastCall = f.calls[f.calls.length - 1];
  const lastHost = f.hostTexts[f.hostTexts.length - 1];
  const agentSeq = Math.max(lastA?.seq ?? -1, lastCall?.seq ?? -1);
  const req = latestReq ? distillRequest(latestReq.text, GOAL_CHARS).replace(/[.!]$/, '') : undefined;
  const todo = open.find((t) => /progress/i.test(t.status)) ?? open[0];
  if (lastU && lastU.seq > agentSeq && !(lastHost && lastHost.seq > lastU.seq)) {
    if (isSubstantiveRequest(lastU.text)) return `Answer the user's latest message: ${distillRequest(lastU.text, GOAL_CHARS)}`;
    if (req) return `Continue the latest request: ${req} (the user then said "${leadSentences(lastU.text, 80)}").`;
  }
  if (lastHost && lastHost.seq > agentSeq) {
    const said = lastHost.text.split('\n').map((l) => l.replace(/^\[[^\]]*\]:\s*/, '').replace(/^#+\s*/, '').trim()).filter((l) => l.length >= 8 && !/^(?:\w+(?::\S+)? hook (?:feedback|error)|Running\b)/i.test(l));
    const line = said.find((l) => /\b(?:cannot|can't|must|please|fix|failed|error|required|not allowed|blocked)\b/i.test(l)) ?? said[0];
    return `The host's ${lastHost.source} answered the end of the turn${line ? ` ("${shortenWhole(line, 160)}")` : ''}: act on it${req ? `, then continue the latest request: ${req}` : ''}.`;
  }
  // the span ends inside a tool loop: the last thing the agent did was a call, or a stated intent with no answer yet
  const said = lastA && (!lastU || lastA.seq > lastU.seq) ? lastA.text : undefined;
  const intent = said ? intentOf(said) : undefined;
  const inLoop = !!lastCall && (!lastA || lastCall.seq >= lastA.seq) && (!lastU || lastCall.seq > lastU.seq);
  if (inLoop || (intent && lastA!.seq === agentSeq && /:\s*$/.test(lastA!.text))) {
    const ended = lastCall && inLoop ? ` (the span ended with ${lastCallSaid(lastCall)})` : '';
    if (todo) return `Continue the open todo item: ${shortenWhole(todo.text, ITEM_CHARS)}${ended}.`;
    if (intent) return `Continue the work under way: ${intent}${ended}.`;
    if (req) return `Continue the latest request: ${req}${ended}.`;
  }
  if (todo) return `Continue the open todo item: ${shortenWhole(todo.text, ITEM_CHARS)}`;
  const nextSentence = lastA ? splitSentences(lastA.text).map(stripMarker).reverse().find((s) => NEXT.test(s) && !s.endsWith('?') && s.length <= ITEM_CHARS) : undefined;
  if (nextSentence) return nextSentence.replace(/:$/, '.');
  if (lastA && DONE.test(lastA.text)) return "The work was reported complete; wait for the user's next request.";
  if (lastA) return "The latest request was answered; wait for the user's next request.";
  return req ? `Continue the latest request: ${req}.` : '';
}
