/**
 * The state of a span as checkpoint sections (see {@link CHECKPOINT_SECTIONS}): what a colleague
 * needs to continue, each item made of whole sentences or whole lines, as it stands at the end of
 * the span. Deterministic: the same span gives the same sections. The jobs live in their own
 * files: the goal (goal.ts), the user's rules, corrections and rejections (rules.ts), Done as the
 * end state (done.ts), commands (commands.ts), findings (findings.ts); prior checkpoints inside
 * the span, ours or a host's, are merged item by item (merge.ts) and what the newer state
 * contradicts is dropped (state.ts).
 */
import type { SurfaceNode } from '@hive-mind/session';
import { analyzeSpan, type CallFact, type SpanFacts } from './analyze.js';
import { CHECKPOINT_HEADINGS, type CheckpointSection } from './checkpoint-format.js';
import { ACK_WORDS, DECISION_CUE, INTENT_CUE, INTENT_ENDING, NARRATION_CUE, normalizeQuotes, readLength, REFINE_CUE } from './cues.js';
import { CODE_LIKE, done, NARRATION, reportsDone } from './done.js';
import { GOAL_CHARS, goalOf } from './goal.js';
import { mergePrior, parseCheckpoint, EARLIER_CONTEXT } from './merge.js';
import { applyTailRuleChanges } from './tail-rules.js';
import { describeOpenCalls, openInterruptedCalls } from './interrupted.js';
import { correctionItem, isRuleSentence, lastingInstructions, latestRules, replaces, RULES_OUT, stateForm, userVerdicts, withoutSpeaker, type Msg, type UserVerdicts } from './rules.js';
import { distillRequest, itemKey, leadSentences, repeats, shortenWhole, splitSentences, stripMarker, withoutPaste } from './sentences.js';
import { changedValues, overlap } from './subject.js';
import { nextStepAgainstTail, resolveContradictions } from './state.js';
import { projectRules, yieldToProjectRules } from './project-rules.js';
import { modifiesFiles, stripHeredocs } from './toolinfo.js';
import { resolvePaths, SCRATCH_PATH as SCRATCH } from './paths.js';
import { commands, displayCommand, wholeLine } from './commands.js';
import { findingOf, findings, unfinishedSubAgents } from './findings.js';
import { errorsAndFixes } from './error-fixes.js';
import { asDecision } from './first-person.js';

export { lastingInstructions } from './rules.js';

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

const ITEM_CHARS = 300;
/** Longest lead of the agent's answer to a side task (characters; at least its first sentence). */
const SIDE_ANSWER_CHARS = 140;
/** Longest lead of the latest request in In progress (characters; at least its first sentence). */
const LATEST_CHARS = 160;

/** Acknowledgements and nudges that are not a request. */
const ACK = /^(?:ok(?:ay)?|k|yes|yep|yeah|yo|no|nope|sure|thanks?(?: you)?|ty|continue|go(?: on| ahead)?|proceed|do it|next|nice|great|cool|good|perfect|done|lgtm|can leave it|leave it|fine|right|y|n|sleep|wait)\b[\s.!?,]*(?:continue|go on|thanks)?[\s.!?]*$/i;

/** A message made only of acknowledgements, in any language of cues.ts ("はい、お願いします", "oui merci", "vale, sigue"). */
function acknowledgementOnly(t: string): boolean {
  let rest = normalizeQuotes(t).trim();
  for (let i = 0; i < 4 && rest; i++) {
    const m = ACK_WORDS.exec(rest);
    if (!m || !m[0]) return false;
    rest = rest.slice(m[0].length).replace(/^[\s.!?,。！？、~…]+/u, '');
  }
  return !rest;
}

/** A user message that states a request: not a slash command, not an acknowledgement, not a few words, not host hook output. */
export function isSubstantiveRequest(text: string): boolean {
  const t = text.trim();
  if (!t || /^\/[\w:-]+(?:\s|$)/.test(t)) return false;
  // what the user's own shell command printed (pi's "Ran `find .`" message): output, not a request
  if (/^Ran `[^`\n]+`\n/.test(t)) return false;
  if (ACK.test(t) || acknowledgementOnly(t)) return false;
  if (/^(?:Stop hook feedback:|\w+ hook (?:feedback|error|blocking error)\b)/i.test(t)) return false;
  // "Good. Continue with module 7." is a nudge: judge what follows the acknowledgement
  const rest = t.replace(/^(?:(?:ok(?:ay)?|good|great|nice|cool|perfect|thanks?|yes|yep|alright|sure)\b[\s.!,]*)+/i, '');
  if (/^(?:continue|go on|proceed|keep going|next)\b/i.test(rest) && rest.length < 40) return false;
  return readLength(rest) >= 25 || rest.split(/\s+/).length >= 5;
}

/** Decision wording in assistant prose (English; the other languages in cues.ts). */
const DECISION = /\b(?:decid(?:e|ed|ing)|instead of|rather than|we(?:'ll| will) (?:use|go with|keep)|i(?:'ll| will) (?:use|go with|keep|switch to)|going with|(?:we|i) chose|chose to|opted for|switched to|the (?:plan|approach|fix|solution) is|best (?:solution|approach|option)|should (?:only|instead|not)|by design)\b/i;
/** A guess, not a decision. */
const SPECULATION = /^(?:if|i bet|maybe|perhaps|possibly|probably|it might|it may|this might|that might|could it be|i think|i suspect|likely|peut-être|quizás|quizá|vielleicht|たぶん|おそらく|아마)\b/iu;
/** The assistant's stated next move. */
const NEXT = /\b(?:next(?:,| i| we| step| up| is|:)|now i(?:'ll| will)|then i(?:'ll| will)|i(?:'ll| will) (?:now|next|then)|remaining|still (?:need|to do|todo)|left to do|moving on to|now wp|next wp)\b/i;

export type Add = (h: CheckpointSection | string, text: string, key?: string, weight?: number, shorter?: string) => void;

/**
 * Build the checkpoint sections of a span (prior checkpoints in it merged item by item). `tail`:
 * what stays verbatim after the checkpoint (the next step is checked against it); `cwd`: the
 * session's working folder as the host recorded it before the span (paths.ts).
 */
export function buildSections(span: readonly SurfaceNode[], opts: { tail?: readonly SurfaceNode[]; cwd?: string } = {}): Section[] {
  const tail = opts.tail ?? [];
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
    } else if ((h === 'Next step' || /^Latest request:/.test(t) ? [s] : [...sec.values()]).some((o) => o.items.some((x) => x.key === undefined && repeats(x.text, t)))) return;
    s.items.push({ text: t, ...(key !== undefined ? { key } : {}), ...(weight !== undefined ? { weight } : {}), ...(shorter && shorter.length < t.length ? { shorter } : {}) });
  };

  const priors = f.priorBodies.map(parseCheckpoint);
  const users = userWords(f, span);
  const verdicts = userVerdicts(f, users);
  // a rejection or a correction is said in its own place; the message may still carry rules or reframe the goal
  const judged = new Set([...verdicts.rejections.map((r) => r.msg), ...verdicts.corrections.map((c) => c.msg)]);
  const rejections = new Set(verdicts.rejections.map((r) => r.msg));
  const requests = users.filter((u) => isSubstantiveRequest(u.text));
  // the goal as the newest prior checkpoint stated it, which the span's requests may refine
  const priorGoal = [...priors].reverse().map((p) => (p.get('Goal') ?? []).map((it) => it.text).join(' ')).find(Boolean);
  // a session whose only request is a few words ("say hi") still has that as its goal
  const fallback = requests.length ? [] : users.filter((u) => !judged.has(u) && !/^\/[\w:-]+(?:\s|$)/.test(u.text.trim())).slice(0, 1);
  const goal = goalOf(f, requests.length ? requests.filter((r) => !rejections.has(r)) : fallback, priorGoal, judged);
  if (goal.goal) {
    add('Goal', goal.goal);
    for (const p of priors) p.delete('Goal');
    // what the prior goal said beside the goal: its rules as rules, the rest as context
    const last = priors[priors.length - 1];
    if (last) for (const s of goal.priorRest) {
      const h = isRuleSentence(s) ? 'Constraints and preferences' : EARLIER_CONTEXT;
      last.set(h, [...(last.get(h) ?? []), { text: s, prior: true }]);
    }
  }
  const goalMsgs = new Set([goal.from, ...goal.refinements].filter((m): m is Msg => !!m));
  constraints(f, add, requests, verdicts, priors.flatMap((p) => p.get('Constraints and preferences') ?? []).map((it) => it.text));
  // a side task is done work: what the agent answered it with says its outcome
  for (const s of goal.sideTasks) {
    const nextUser = f.userTexts.find((u) => u.seq > s.seq)?.seq ?? Infinity;
    const answer = [...f.assistantTexts].reverse().find((a) => a.seq > s.seq && a.seq < nextUser && readLength(a.text) >= 12);
    const said = answer ? leadSentences(answer.text, SIDE_ANSWER_CHARS) : '';
    add('Done', `Side task (before the main work): ${distillRequest(s.text, 240)}${said ? ` -> ${said.replace(/[.。]$/u, '')}.` : ''}`);
  }
  const rejectedTurns = rejected(f, add, verdicts);
  done(f, add);
  decisions(f, add, rejectedTurns);
  // a claim the user corrected is not a decision or a result: the correction says what holds;
  // nor is work the user then ruled out ("I added DMs" before "don't send DMs")
  const ruledOut = requests.flatMap((u) => lastingInstructions(u.text).flatMap((r) => splitSentences(r)).map((r) => ({ seq: u.seq, r }))).filter((x) => RULES_OUT.test(x.r));
  for (const h of ['Decisions', 'Done']) {
    const s = sec.get(h)!;
    s.items = s.items.filter((it) => !verdicts.corrections.some((c) => c.claim && (repeats(it.text, c.claim) || it.text.includes(c.claim))));
    if (h === 'Done') s.items = s.items.filter((it) => !ruledOut.some((x) => overlap(x.r, it.text).shared >= 2 && reportSeq(f, it.text) < x.seq));
  }
  errorsAndFixes(f, add);
  commands(f, add);
  // the last passing test run Done states is not said again under Commands
  const lastRun = sec.get('Done')!.items.find((it) => it.key === 'last-test-run');
  const runCmd = lastRun && /`([^`]+)`/.exec(lastRun.text)?.[1];
  if (runCmd) sec.get('Commands')!.items = sec.get('Commands')!.items.filter((it) => !(it.key === runCmd && /^`[^`]+` -> ok\b/.test(it.text)));
  findings(f, add);
  files(f, add);
  const latestReq = [...requests].reverse().find((r) => !judged.has(r) && (!goalMsgs.has(r) || r === requests[requests.length - 1]));
  // a latest request the rules already say whole is not said again (one that only holds a rule is still the request)
  inProgressAndNext(f, add, goalMsgs, latestReq, (t) => (sec.get('Constraints and preferences')?.items ?? []).some((x) => itemKey(x.text).includes(itemKey(stateForm(t)))), tail);
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

  // Prior checkpoints: their items come first, newer state wins (merge.ts, state.ts).
  relativize(root, [...sec.values()], priors);
  const merged = mergePrior(priors, [...sec.values()]);
  const order = [...CHECKPOINT_HEADINGS.slice(0, CHECKPOINT_HEADINGS.indexOf('In progress')), EARLIER_CONTEXT, 'In progress', 'Next step'];
  const out = order.map((h) => merged.get(h)).filter((s): s is Section => !!s);
  for (const s of merged.values()) if (!out.includes(s)) out.splice(out.length - 2, 0, s);
  // a host summary runs its rules together ("pnpm, nunca npm. Todo en español. Tests con vitest."):
  // each sentence is a rule of its own, so a later rule replaces only the one it restates
  const rulesSec = out.find((s) => s.heading === 'Constraints and preferences');
  if (rulesSec) rulesSec.items = rulesSec.items.flatMap((it) => (it.prior && !it.key && !it.text.includes('\n') ? splitSentences(it.text).filter((x) => readLength(x) >= 8).map((text) => ({ ...it, text })) : [it]));
  resolveContradictions(out);
  // a later rule or decision on the same subject replaces the earlier one; a changed rule is said so
  for (const s of out) if (s.heading === 'Constraints and preferences' || s.heading === 'Decisions') s.items = latestRules(s.items.map((it, i) => ({ ...it, seq: i })), s.heading !== 'Decisions').map(({ seq: _seq, ...it }) => it);
  // a rule said before a project rule file was read gives way to the file where they contradict
  if (rulesSec) rulesSec.items = yieldToProjectRules(rulesSec.items);
  // a rule the verbatim tail changes is said as it stands now, not as the span left it
  applyTailRuleChanges(out, tail, isSubstantiveRequest);
  const filesSec = out.find((s) => s.heading === 'Files');
  if (filesSec) filesSec.items.sort((a, b) => Number(b.key === 'root') - Number(a.key === 'root'));
  const next = out.find((s) => s.heading === 'Next step');
  if (next?.items.length) {
    const before = next.items[next.items.length - 1]!.text;
    const after = nextStepAgainstTail(before, tail, isSubstantiveRequest);
    next.items = [{ ...next.items[next.items.length - 1]!, text: after }];
    // the user asked for something newer after the span: the span's latest request is history
    const prog = out.find((s) => s.heading === 'In progress');
    if (prog && after !== before && /^Go on from the user's newest request/.test(after)) prog.items = prog.items.filter((it) => !/^Latest request:/.test(it.text));
  }
  const goalSec = out.find((s) => s.heading === 'Goal');
  if (goalSec) goalSec.keep = Math.min(1, goalSec.items.length);
  if (next) next.keep = Math.min(1, next.items.length);
  const prog = out.find((s) => s.heading === 'In progress');
  // In progress keeps its latest request or open todo item, never a last report or an unfinished
  // sub-agent for its own sake (they compete by value: fit.ts)
  if (prog) prog.keep = prog.items.length && /^Latest request:|\(todo in.progress\)$/i.test(prog.items[0]!.text) ? 1 : 0;
  return out;
}

/** The seq of the agent's text a Done report came from (Infinity when it is not the agent's prose: a commit, a test run). */
function reportSeq(f: SpanFacts, text: string): number {
  return f.assistantTexts.find((a) => a.text.includes(text.slice(0, 40)))?.seq ?? Infinity;
}

/**
 * The user's own words in the span: host-authored text on the user's side left out (a Claude
 * Code `isMeta` line, the prompt a slash command expands to: the `/init` template is the host's,
 * not the user's rules).
 */
function userWords(f: SpanFacts, span: readonly SurfaceNode[]): Msg[] {
  const meta = new Set(span.filter((n) => n.type === 'user/message' && n.meta?.isMeta === true).map((n) => n.seq));
  const agentSeqs = [...f.assistantTexts.map((a) => a.seq), ...f.calls.map((c) => c.seq)];
  // a chat host's speaker tag ("[jiho] ...", Hermes on Discord) is who spoke, not what they said
  return f.userTexts.map((u) => ({ seq: u.seq, text: withoutSpeaker(u.text) })).filter((u, i, all) => {
    if (meta.has(u.seq)) return false;
    const prev = all[i - 1];
    // a slash command's expansion follows it with no agent turn between: Claude Code's command line
    // reads "init is analyzing your codebase… /init" (its <command-message> and <command-name>); a
    // command typed alone ("/mode") is followed by the user's own words unless a long template follows
    const command = prev && prev.text.length < 200 ? /^(.*?)\s*\/[a-z][\w:-]*\s*$/is.exec(prev.text.trim()) : null;
    const expansion = !!command && (command[1]!.length > 0 || u.text.length >= 1000) && !agentSeqs.some((s) => s > prev!.seq && s < u.seq);
    return !expansion;
  });
}

// --- Constraints, rejected ---------------------------------------------------------

/**
 * The user's rules in state form, oldest first (a later one on the same subject replaces it after
 * the merge), and the corrections of the agent with what is now true. A sentence that restates
 * an earlier rule with a change ("En fait, le premier délai est de 3 secondes", "Actually it is 3
 * seconds") is a rule by that alone, whatever its wording. What the user pasted from the agent's
 * own text is not the user's rule. `priorRules`: the rules of the prior checkpoints in the span,
 * which a sentence may change the same way.
 */
function constraints(f: SpanFacts, add: Add, requests: readonly Msg[], verdicts: UserVerdicts, priorRules: readonly string[]): void {
  // each sentence of the agent's with when it first said it: a user's line that repeats an earlier one was pasted
  const agentSaid = new Map<string, number>();
  for (const a of f.assistantTexts) for (const s of splitSentences(a.text)) {
    const k = itemKey(stripMarker(s));
    if (k.length >= 24 && !agentSaid.has(k)) agentSaid.set(k, a.seq);
  }
  const items: Array<{ seq: number; text: string; key?: string }> = [];
  for (const u of requests) {
    const pasted = (s: string) => (agentSaid.get(itemKey(stripMarker(s))) ?? Infinity) < u.seq;
    const found = lastingInstructions(u.text).filter((r) => !splitSentences(r).some(pasted));
    // the rules stated before it, in this span or in a prior checkpoint: a sentence that changes one is a rule
    const earlier = [...priorRules.map((text) => ({ text })), ...items.filter((it) => !it.key)];
    for (const s of splitSentences(withoutPaste(u.text)).map(stripMarker)) {
      if (readLength(s) < 20 || pasted(s) || found.some((r) => r.includes(s) || s.includes(r.replace(/[.。]$/, '')))) continue;
      if (earlier.some((r) => replaces(r.text, s) && (REFINE_CUE.test(normalizeQuotes(s)) || changedValues(r.text, s).length > 0))) found.push(stateForm(s));
    }
    for (const s of found) items.push({ seq: u.seq, text: s });
  }
  for (const c of verdicts.corrections) items.push({ seq: c.msg.seq, text: correctionItem(c), key: `correction:${c.msg.seq}` });
  // the rules of a project rule file a tool printed (AGENTS.md, CLAUDE.md, ...) stand beside the user's
  items.push(...projectRules(f));
  for (const it of items.sort((a, b) => a.seq - b.seq)) add('Constraints and preferences', it.text, it.key);
}

/** Turns the user rejected: the changes of the assistant turn just before each rejection, said once. Returns the seq ranges of those turns. */
function rejected(f: SpanFacts, add: Add, verdicts: UserVerdicts): Array<[number, number]> {
  const turns: Array<[number, number]> = [];
  for (const r of verdicts.rejections) {
    const said = leadSentences(r.msg.text, 160);
    if (r.paths.length) {
      const paths = r.paths.map((p) => '`' + p + '`').join(', ');
      add('Rejected or reverted', `The change to ${paths} before "${said}" was rejected by the user (do not re-apply it).`);
      turns.push(r.turn);
    } else add('Rejected or reverted', `The user rejected the previous answer: "${said}"`);
  }
  for (const c of f.calls) {
    if (c.failed || !c.info.command) continue;
    const m = /\bgit (?:revert|reset --hard|checkout -- |restore )(.*)$/m.exec(c.info.command);
    if (m) add('Rejected or reverted', `Reverted with \`${displayCommand(c.info.command)}\`.`);
  }
  return turns;
}

// --- Decisions --------------------------------------------------------------------

function decisions(f: SpanFacts, add: Add, rejectedTurns: Array<[number, number]>): void {
  const inRejected = (seq: number) => rejectedTurns.some(([a, b]) => seq > a && seq < b);
  for (const a of f.assistantTexts) {
    if (inRejected(a.seq)) continue;
    const ss = splitSentences(a.text).map(stripMarker);
    for (let i = 0; i < ss.length; i++) {
      const s = ss[i]!;
      const t = normalizeQuotes(s);
      if (!(DECISION.test(t) || DECISION_CUE.test(t)) || NARRATION.test(t) || NARRATION_CUE.test(t) || CODE_LIKE.test(s) || SPECULATION.test(t) || /[:：]$/.test(s) || /[?？]$/.test(s) || readLength(s) > ITEM_CHARS) continue;
      // the reason, when the next sentence gives it
      const next = ss[i + 1];
      const reason = next && /^(?:because|since|this (?:way|keeps|avoids|means|makes)|that way|so that|otherwise|car|parce que|porque|ya que|weil|da |denn)\b/iu.test(next) && next.length <= 200 ? ` ${next}` : '';
      add('Decisions', asDecision(s) + reason);
    }
  }
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

function inProgressAndNext(f: SpanFacts, add: Add, goalMsgs: ReadonlySet<Msg>, latestReq: Msg | undefined, isConstraint: (t: string) => boolean, tail: readonly SurfaceNode[]): void {
  const users = f.userTexts;
  const lastA = f.assistantTexts[f.assistantTexts.length - 1];
  const lastU = users[users.length - 1];
  // the latest request's lead: its rules are stated as rules, what it asks is the next step
  const latest = latestReq && !goalMsgs.has(latestReq) ? distillRequest(latestReq.text, LATEST_CHARS) : undefined;
  // a latest request already listed as a lasting instruction is not repeated
  if (latest && !isConstraint(latest)) add('In progress', `Latest request: ${latest}`);
  const lastTodo = [...f.calls].reverse().find((c) => c.info.kind === 'todo' && c.info.todos?.length);
  const open = lastTodo ? lastTodo.info.todos!.filter((t) => !/^(?:completed|done|cancel)/i.test(t.status)) : [];
  for (const t of open) add('In progress', `${shortenWhole(t.text, ITEM_CHARS)} (todo ${t.status})`, `todo:${t.text}`);
  // a call left without a result is open only at the span's end, its target untouched since (interrupted.ts)
  const cutOff = openInterruptedCalls(f.calls, tail);
  if (cutOff.length) add('In progress', describeOpenCalls(cutOff));
  if (lastA && (!lastU || lastA.seq > lastU.seq)) {
    const said = splitSentences(lastA.text).map(stripMarker).filter((s) => !CODE_LIKE.test(s) && !NEXT.test(s) && readLength(s) >= 12);
    const lead = leadSentences(said.filter((s) => !/[:：]$/.test(s)).join(' '), 300);
    // "Good progress." says nothing: a report names something
    if (lead && readLength(lead) >= 40) add('In progress', `Last report: ${lead}`);
  }

  add('Next step', nextStep(f, latestReq, open));
}

/** The assistant's stated next move in a sentence ("Now let me update README.md to reference DEVELOPMENT.md:"), as an instruction ("Update README.md to reference DEVELOPMENT.md"). */
const INTENT = /^(?:(?:now|next|then|first|so|ok(?:ay)?|great|perfect|good|alright)[,!]?\s+)?(?:let me|let's|i'll|i will|i need to|i'm going to|i am going to|i should|we need to|we'll)\s+(?:now\s+|also\s+|first\s+)?(.{8,200}?)[.:!]?$/i;

/** The last stated intent of `text`, as an instruction, if it states one (in the other languages of cues.ts, the sentence as said). */
function intentOf(text: string): string | undefined {
  for (const s of splitSentences(text).map(stripMarker).reverse()) {
    if (/[?？]$/.test(s) || CODE_LIKE.test(s)) continue;
    const m = INTENT.exec(s.trim());
    if (m) return m[1]!.replace(/^\w/, (x) => x.toUpperCase()).replace(/[\s:.]+$/, '');
    const t = normalizeQuotes(s.trim());
    const other = INTENT_CUE.exec(t);
    if (other && readLength(t.slice(other[0].length)) >= 12) return t.replace(/[\s:：.。]+$/u, '');
    if (INTENT_ENDING.test(t) && readLength(t) >= 12) return t.replace(/[\s:：.。]+$/u, '');
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
    // the agent reported the request finished before the host answered: the host's point is what is left
    const finished = !!lastA && (!latestReq || lastA.seq > latestReq.seq) && splitSentences(lastA.text).map(stripMarker).some(reportsDone);
    const then = !req ? '' : finished ? ' (the latest request itself was reported done; do not redo it)' : `, then continue the latest request: ${req}`;
    return `The host's ${lastHost.source} answered the end of the turn${line ? ` ("${shortenWhole(line, 160)}")` : ''}: act on it${then}.`;
  }
  // the span ends inside a tool loop: the last thing the agent did was a call, or a stated intent with no answer yet
  const said = lastA && (!lastU || lastA.seq > lastU.seq) ? lastA.text : undefined;
  const intent = said ? intentOf(said) : undefined;
  const inLoop = !!lastCall && (!lastA || lastCall.seq >= lastA.seq) && (!lastU || lastCall.seq > lastU.seq);
  if (inLoop || (intent && lastA!.seq === agentSeq && /[:：]\s*$/.test(lastA!.text))) {
    const ended = lastCall && inLoop ? ` (the span ended with ${lastCallSaid(lastCall)})` : '';
    if (todo) return `Continue the open todo item: ${shortenWhole(todo.text, ITEM_CHARS)}${ended}.`;
    if (intent) return `Continue the work under way: ${intent}${ended}.`;
    if (req) return `Continue the latest request: ${req}${ended}.`;
    // no request in the span (its user turn came before it): the work under way goes on
    if (!lastU && lastCall) return `Continue the work under way: the span ended with ${lastCallSaid(lastCall)}.`;
  }
  if (!lastU) return 'The span held no user request; continue from the messages after this summary.';
  if (todo) return `Continue the open todo item: ${shortenWhole(todo.text, ITEM_CHARS)}`;
  const nextSentence = lastA ? splitSentences(lastA.text).map(stripMarker).reverse().find((s) => NEXT.test(s) && !s.endsWith('?') && s.length <= ITEM_CHARS) : undefined;
  if (nextSentence) return nextSentence.replace(/:$/, '.');
  if (lastA && splitSentences(lastA.text).some(reportsDone)) return "The work was reported complete; wait for the user's next request.";
  if (lastA) return "The latest request was answered; wait for the user's next request.";
  return req ? `Continue the latest request: ${req}.` : '';
}
