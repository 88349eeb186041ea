/**
 * The Goal section: the user's overall objective as it stands at the end of the span, the
 * project the work serves, in one or two sentences. Not the first message verbatim:
 *
 * - a request's objective is its sentences that ask for work or say what is being built; its
 *   greeting, its questions, how the user wants to be answered ("then give me a plan", "ask me
 *   questions") and its venting are left out;
 * - the project is the first request, unless a later one says it is the actual work ("now the
 *   actual work: ...", "what I really want is ...") or the session comes back to a later one far
 *   more often (its words recur in later messages and changed files): then the first is a side
 *   task, said as a task, and the later one is the goal;
 * - a later restatement or refinement wins: a later request on the same subject that says it
 *   changes something ("actually", "instead", "en fait", "じゃなくて") or restates it replaces
 *   the sentences it is about;
 * - with no user request there is no goal (nothing is invented from the agent's text).
 */
import type { SpanFacts } from './analyze.js';
import { GOAL_CUE, GREETING, isPoliteRequest, isQuestion, normalizeQuotes, PROCESS_CUE, readLength, REFINE_CUE, VENTING } from './cues.js';
import { reportsDone } from './done.js';
import { isRuleSentence, replaces, stateForm, withoutVenting, type Msg } from './rules.js';
import { distillRequest, leadSentences, pastedError, splitSentences, stripMarker, withoutPaste } from './sentences.js';
import { contentTokens, overlap } from './subject.js';
import { modifiesFiles } from './toolinfo.js';

/** Longest goal (characters of whole sentences; the first sentence is kept whole whatever its length). */
export const GOAL_CHARS = 400;
/** Sentences a goal holds at most. */
const GOAL_SENTENCES = 2;

/** Whether a sentence of a request is no part of its objective, and why: greeting, question, how the user wants the work done, too short. */
function leftOut(s: string): 'process' | boolean {
  const t = normalizeQuotes(s);
  if (GREETING.test(t) && readLength(t) < 40) return true;
  if (isQuestion(t) && !isPoliteRequest(t)) return true;
  if (PROCESS_CUE.test(t) && !hasWork(t)) return 'process';
  return readLength(t) < 8;
}

const requestSentences = (text: string) => splitSentences(withoutPaste(text)).map(stripMarker).filter(Boolean);

/**
 * The sentences of a request that say what the work is: greeting, questions, how to answer and
 * venting left out, and its rules (they go to Constraints) when something else is left; the
 * whole lead when nothing is.
 */
function objectiveSentences(text: string): string[] {
  if (pastedError(text)) return [distillRequest(text, GOAL_CHARS)];
  const keep = requestSentences(text).filter((t) => !leftOut(t)).map((s) => (VENTING.test(s) ? withoutVenting(s) : s)).filter((s) => readLength(s) >= 8 && !VENTING.test(s));
  const work = keep.filter((s) => !isRuleSentence(s));
  return work.length ? work : keep.length ? keep : [leadSentences(text, GOAL_CHARS)];
}

/**
 * The files a request's process sentences name ("read A in full, then B"): what the work is
 * based on, when the request also names work; those its objective does not name already.
 */
function readFirst(text: string, objective: readonly string[]): string[] {
  if (pastedError(text)) return [];
  // a folder to work in ("cd into tmp/app") is where, not what to read
  const process = requestSentences(text).filter((t) => leftOut(t) === 'process' && !/^\s*cd\b/i.test(t));
  if (!process.length || objective.every((s) => process.includes(s))) return [];
  return namesIn(process.join(' ')).filter((n) => !objective.some((s) => s.includes(n))).slice(0, GOAL_BASIS_NAMES);
}

/** Files a goal names as what the work is based on, at most. */
const GOAL_BASIS_NAMES = 4;

/** A file name, a path or a code identifier: a word with an inner `.`, `/` or `_`, a camelCase word, or a compound of two words of three letters or more ("oauth-selector"). */
const NAME = /^(?:[~.]?[\p{L}\p{N}_-]*(?:[./_][\p{L}\p{N}_-]+)+|\p{Ll}+\p{Lu}[\p{L}\p{N}]*|\p{L}{3,}(?:-\p{L}{3,})+)$/u;

/** The names (files, paths to files, identifiers) of a text, in order, once each. */
function namesIn(text: string): string[] {
  const out: string[] = [];
  for (const w of text.split(/[\s,;:()]+/)) {
    const t = w.replace(/^[`"'“]+|[`"'”.!?]+$/g, '');
    // a path names a file (it ends with an extension), never a folder
    if (NAME.test(t) && /\p{L}/u.test(t) && (!t.includes('/') || /\.\w{1,8}$/.test(t)) && !out.includes(t)) out.push(t);
  }
  return out;
}

/**
 * A process sentence that also names work ("read the spec first, then port the parser"): one of
 * its parts around "then" is not process. A part that opens with a name ("read A in full, then
 * B.ts, and then oauth-selector") continues the verb before it: it has no work of its own.
 */
function hasWork(s: string): boolean {
  const parts = s.split(/,?\s*\b(?:and then|then|after that|ensuite|puis|luego|después|dann|danach)\b\s*/iu);
  return parts.length > 1 && parts.some((p) => readLength(p) >= 20 && !PROCESS_CUE.test(p) && !NAME.test(p.trim().split(/[\s,]+/)[0]!.replace(/^[`"']+|[`"']+$/g, '')));
}

/** A request with how much of the session's later work comes back to it; its objective sentences when needed. */
interface Candidate {
  msg: Msg;
  tokens: Set<string>;
  recurrence: number;
  sentences?: string[];
}

const objective = (c: Candidate) => (c.sentences ??= objectiveSentences(c.msg.text));

/**
 * How often the rest of the span comes back to each request: the later messages (user and
 * agent) and changed file paths that share content words with it (two, or one when the request
 * has three or fewer).
 */
function scoreRecurrence(f: SpanFacts, cands: Candidate[]): void {
  const later = [
    ...f.userTexts.map((u) => ({ seq: u.seq, tokens: contentTokens(u.text) })),
    ...f.assistantTexts.map((a) => ({ seq: a.seq, tokens: contentTokens(a.text) })),
    ...f.calls.filter((k) => !k.failed && modifiesFiles(k.info)).map((k) => ({ seq: k.seq, tokens: contentTokens(k.info.paths.join(' ').replace(/[/_.-]/g, ' ')) })),
  ];
  for (const c of cands) {
    const need = c.tokens.size <= 3 ? 1 : 2;
    let n = 0;
    for (const t of later) if (t.seq > c.msg.seq && overlap(c.tokens, t.tokens).shared >= need) n++;
    c.recurrence = n;
  }
}

/** The goal as it stands, and the requests that are side tasks (not the goal, not its refinements). */
export interface GoalState {
  goal?: string;
  /** The request the goal comes from (undefined when it comes from a prior checkpoint). */
  from?: Msg;
  /** Requests before the goal's that the session never came back to. */
  sideTasks: Msg[];
  /** Later requests that refined the goal. */
  refinements: Msg[];
  /** The sentences of a prior checkpoint's goal the goal leaves out (its rules, its status, its other sentences). */
  priorRest: string[];
}

/**
 * The goal of a span from its requests (substantive user messages, rejections and corrections
 * left out), oldest first; `prior` is the goal a prior checkpoint in the span stated (the
 * session's goal as it stood then), which the span's requests may refine.
 */
export function goalOf(f: SpanFacts, requests: readonly Msg[], prior?: string, judged: ReadonlySet<Msg> = new Set()): GoalState {
  const cands: Candidate[] = requests.map((msg) => ({ msg, tokens: contentTokens(msg.text), recurrence: 0 }));
  let base: string[];
  let from: Msg | undefined;
  let sideTasks: Msg[] = [];
  let rest: Candidate[];
  let priorRest: string[] = [];
  if (prior) {
    // a prior checkpoint's goal may say what is already done ("side task already done: ..."): that is not the goal
    // its rules and status go to their own sections (GoalState.priorRest)
    const said = splitSentences(prior).map(stripMarker).filter(Boolean);
    base = said.filter((s, i) => i === 0 || (!reportsDone(s) && !isRuleSentence(s)));
    priorRest = said.filter((s) => !base.includes(s));
    rest = cands;
  } else {
    if (!cands.length) return { sideTasks: [], refinements: [], priorRest: [] };
    scoreRecurrence(f, cands);
    // the first request is the project unless the session comes back to a later one far more (a
    // side task first), or a later one says it is the actual work ("now the actual work: ...")
    let at = 0;
    const first = cands[0]!;
    const best = Math.max(...cands.slice(1).map((c) => c.recurrence), 0);
    const cued = cands.findIndex((c, i) => i > 0 && GOAL_CUE.test(normalizeQuotes(c.msg.text)) && c.recurrence >= Math.max(2, first.recurrence));
    if (cued > 0) at = cued;
    else if (best >= Math.max(4, 3 * first.recurrence)) at = cands.findIndex((c, i) => i > 0 && c.recurrence >= Math.max(4, 3 * first.recurrence, best / 2));
    sideTasks = cands.slice(0, at).map((c) => c.msg);
    from = cands[at]!.msg;
    base = objective(cands[at]!);
    // a goal stated after something else in the same message ("that's wrong, ... what I actually want is X") starts there
    const framed = base.findIndex((b) => GOAL_CUE.test(normalizeQuotes(b)));
    if (framed > 0) base = base.slice(framed);
    rest = cands.slice(at + 1);
  }
  // later restatements and refinements replace the sentences they are about
  const refinements: Msg[] = [];
  const goalTokens = contentTokens(base.join(' '));
  for (const c of rest) {
    // a correction or a rejection is said in its own place; it does not reframe the goal
    if (judged.has(c.msg)) continue;
    const refineCue = REFINE_CUE.test(normalizeQuotes(c.msg.text));
    const whole = overlap(goalTokens, c.tokens);
    if (!refineCue && (whole.shared < 3 || whole.ratio < 0.5)) continue;
    const sentences = objective(c);
    const { shared, ratio } = overlap(goalTokens, contentTokens(sentences.join(' ')));
    const restates = shared >= 3 && ratio >= 0.6;
    const refines = refineCue && sentences.some((s) => base.some((b) => about(b, s)));
    if (!restates && !refines) continue;
    refinements.push(c.msg);
    if (restates && readLength(sentences.join(' ')) >= 0.6 * readLength(base.join(' '))) {
      base = [...sentences];
      continue;
    }
    for (const s of sentences) {
      // a rule goes to the rules, not into the goal
      if (isRuleSentence(s)) continue;
      // a restatement of a part of the goal is about as long as it; a short tweak ("make it 6 seconds") is a rule, not the goal
      const i = base.findIndex((b) => (replaces(b, s) || about(b, s)) && readLength(s) >= 0.5 * readLength(b));
      if (i >= 0) base[i] = s;
      else if (refines) base.push(s);
    }
  }
  // a goal request whose work is reported done and that later requests moved past is a task: the goal is what they work on
  const fromCand = from && cands.find((c) => c.msg === from);
  const past = !prior && fromCand && base[0] === objective(fromCand)[0] ? movedPast(f, fromCand, cands.filter((c) => c.msg.seq > fromCand.msg.seq && !judged.has(c.msg))) : undefined;
  if (past) base = past;
  // the files the goal's request said to read first follow its first sentence while it stands
  else if (from && base[0] === objective(cands.find((c) => c.msg === from)!)[0]) {
    const names = readFirst(from.text, base);
    if (names.length) base = [`${base[0]!.replace(/[.!。]+$/, '')} (read first: ${names.map((n) => '`' + n + '`').join(', ')}).`, ...base.slice(1)];
  }
  const goal = goalText(base);
  // what a prior goal said that the goal leaves out (its later sentences, its rules, its status)
  const used = goal ?? '';
  priorRest = [...priorRest, ...base.filter((s) => !used.includes(stateForm(s).replace(/[.。]$/, '')))].filter((s) => !used.includes(s));
  return { ...(goal ? { goal } : {}), ...(from ? { from } : {}), sideTasks, refinements, priorRest: prior ? priorRest : [] };
}

/** Requests after a goal request's work is reported done that make it a finished task, at least. */
const MOVED_PAST = 3;
/** Share of those requests the word they work on must be in, at least. */
const TOPIC_SHARE = 0.25;
/** Files the goal names as the ones the later work changed most, at most. */
const TOPIC_FILES = 4;

/**
 * The goal as it stands when the goal request `goal` is a finished task: the agent reported its
 * work done (a report that names what its objective names, or shares three of its content
 * words) and at least MOVED_PAST requests came after that report. The goal then is the work
 * those later requests share: the content word most of them hold (in at least a quarter of them,
 * and three), with the files the later work changed most whose path carries it; the finished
 * request is left to Done, which reports it. Undefined when the request still stands or the
 * later requests share no word.
 */
function movedPast(f: SpanFacts, goal: Candidate, later: readonly Candidate[]): string[] | undefined {
  if (later.length < MOVED_PAST) return undefined;
  const said = objective(goal);
  const names = namesIn(said.join(' ')).map((n) => n.toLowerCase().replace(/\.\w{1,8}$/, ''));
  const words = contentTokens(said.join(' '));
  const report = f.assistantTexts.find((a) => a.seq > goal.msg.seq && splitSentences(a.text).some((s) => reportsDone(s) && (names.some((n) => s.toLowerCase().includes(n)) || overlap(words, contentTokens(s)).shared >= 3)));
  if (!report) return undefined;
  const after = later.filter((c) => c.msg.seq > report.seq);
  if (after.length < MOVED_PAST) return undefined;
  const count = new Map<string, number>();
  for (const c of after) for (const t of c.tokens) count.set(t, (count.get(t) ?? 0) + 1);
  const changed = f.calls.filter((k) => k.seq > report.seq && !k.failed && modifiesFiles(k.info)).flatMap((k) => k.info.paths);
  const inFiles = (t: string) => changed.filter((p) => p.toLowerCase().includes(t)).length;
  // the most requests first; a tie goes to the word of the goal request (the same project), then to the files
  const [topic, n] = [...count.entries()].sort((a, b) => b[1] - a[1] || Number(goal.tokens.has(b[0])) - Number(goal.tokens.has(a[0])) || inFiles(b[0]) - inFiles(a[0]))[0] ?? ['', 0];
  if (!topic || n < MOVED_PAST || n < TOPIC_SHARE * after.length) return undefined;
  // the word as the user wrote it most often
  const written = new Map<string, number>();
  for (const c of after) for (const w of c.msg.text.toLowerCase().match(/[\p{L}][\p{L}\p{N}_-]*/gu) ?? []) if (contentTokens(w).has(topic)) written.set(w, (written.get(w) ?? 0) + 1);
  const word = [...written.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? topic;
  const byChanges = new Map<string, number>();
  for (const p of changed) if (p.toLowerCase().includes(topic)) byChanges.set(p.split('/').pop()!, (byChanges.get(p.split('/').pop()!) ?? 0) + 1);
  const files = [...byChanges.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOPIC_FILES).map(([p]) => '`' + p + '`');
  // the finished request is not said again: Done reports it, and a resumed agent reads a goal as work to do
  return [`The work on the ${word}, which ${n} of the ${after.length} later requests name${files.length ? ` (the files it changed most: ${files.join(', ')})` : ''}.`];
}

/** Two sentences about the same part of the goal: two content words shared, half of the smaller one's. */
function about(a: string, b: string): boolean {
  const { shared, ratio } = overlap(a, b);
  return shared >= 2 && ratio >= 0.5;
}

/** One or two whole sentences of state, the first always whole. */
function goalText(sentences: readonly string[]): string | undefined {
  const ss = sentences.map((s) => (/^pasted an error:/.test(s) ? s : stateForm(s))).filter(Boolean);
  if (!ss.length) return undefined;
  let out = ss[0]!;
  for (const s of ss.slice(1, GOAL_SENTENCES)) {
    if (out.length + 1 + s.length > GOAL_CHARS) break;
    out += ' ' + s;
  }
  return out;
}
