/**
 * Rules the verbatim tail changes. The checkpoint is read together with the messages kept after
 * it; when the user there changes a rule the checkpoint states (its Goal, its Constraints, what a
 * prior checkpoint said), the checkpoint would otherwise state the old form as standing. Such a
 * change is said in Constraints in its final form, marked as changed after the summary, and the
 * rule it replaces is dropped (a goal's sentence stays, the goal being more than its rule, with a
 * note that a rule in it changed). A rule
 * the tail adds without changing anything stays in the tail alone: it is kept verbatim there.
 */
import type { SurfaceNode } from '@hive-mind/session';
import { analyzeSpan } from './analyze.js';
import { isQuestion, normalizeQuotes, readLength, REFINE_CUE } from './cues.js';
import { EARLIER_CONTEXT } from './merge.js';
import { finalForm, isRuleSentence, replaces, RULES_OUT, stateForm } from './rules.js';
import type { Section } from './sections.js';
import { pastedError, splitSentences, stripMarker, withoutLogLines, withoutPaste } from './sentences.js';
import { changedValues, contentTokens, overlap, sameSubject, valuesOf } from './subject.js';

/** Longest sentence read as a rule (characters; Japanese and Korean count three). */
const RULE_CHARS = 300;
/** A source location (`file.ts:12`, a stack frame): output the user pasted, never a rule. */
const LOCATION = /[\w.-]+\.\w{1,8}:\d+|^\s*at\s+\S+\s+\(|^\s*(?:[➜❯$%#]|\S+@\S+:)\s/u;

/** How a rule changed after the summary is marked. */
const CHANGED_IN_TAIL = '(changed in the messages after this summary)';

/** Said after a goal whose rule the tail changed. */
const GOAL_NOTE = '(A rule in it changed after this summary: see Constraints.)';

/** Sections whose statements a later rule can change, and whether the replaced statement is dropped. */
const CHANGEABLE: ReadonlyMap<string, boolean> = new Map([
  ['Constraints and preferences', true],
  [EARLIER_CONTEXT, true],
  ['Goal', false],
]);

/** The clauses of a statement (a goal's "…: the cooldown is 10 seconds, enforced on the server"). */
const clauses = (s: string) => s.split(/[,;:：、]\s*|\s+\(|\)\s*/u).map((c) => c.trim()).filter((c) => readLength(c) >= 8);

const numbers = (s: string) => new Set(s.match(/\d+(?:[.,]\d+)?/g) ?? []);

/**
 * `s` without the parts that only name the value it replaces ("10 is too long" in "the cooldown:
 * 10 is too long, make it 6 seconds"): a part whose numbers are all numbers of `stated` and that
 * has no other, when another part says a new one.
 */
function withoutOldValue(stated: string, s: string): string {
  const old = numbers(stated);
  const parts = s.split(/(\s*[,;:：]\s+)/u);
  const isOld = (p: string) => {
    const n = [...numbers(p)];
    return n.length > 0 && n.every((x) => old.has(x));
  };
  const hasNew = parts.some((p, i) => i % 2 === 0 && [...numbers(p)].some((x) => !old.has(x)));
  if (!hasNew) return s;
  const out: string[] = [];
  let last = -1;
  for (let i = 0; i < parts.length; i += 2) {
    if (isOld(parts[i]!)) continue;
    // the separator that followed the part kept before ("the cooldown: make it 6 seconds")
    if (last >= 0) out.push(parts[last + 1] ?? ', ');
    out.push(parts[i]!);
    last = i;
  }
  return out.join('') || s;
}

/** What `s` says when it changes `stated` (see changes below): `s` without the old value, or undefined when it changes nothing. */
function changeOf(stated: string, s: string, others: readonly string[]): string | undefined {
  return changes(stated, s, others) ? withoutOldValue(stated, s) : undefined;
}

/**
 * Whether `s`, a sentence of the tail, changes `stated`: it replaces it, or it is about one of
 * its clauses and says a value that clause does not, or it carries a change cue ("instead") while another sentence of
 * the message restates `stated` ("we said skip rows whose text starts with X. make that … instead").
 */
function changes(stated: string, s: string, others: readonly string[]): boolean {
  const cue = REFINE_CUE.test(normalizeQuotes(s));
  // a restatement with no change ("we said skip rows whose text starts with X") quotes the rule, it does not change it
  if (replaces(stated, s) && (cue || changedValues(stated, s).length > 0)) return true;
  // a clause on the same subject with a value, and the sentence says another one ("10 is too long, make it 6 seconds")
  if (valuesOf(s).length && clauses(stated).some((c) => sameSubject(c, s) && valuesOf(c).length > 0 && changedValues(s, c).length > 0)) return true;
  if (!cue) return false;
  return others.some((q) => {
    const { shared, ratio } = overlap(stated, q);
    return shared >= 3 && ratio >= 0.6;
  });
}

/**
 * Apply the tail's rule changes to the checkpoint `sections`, in place. `isRequest` tells the
 * user's requests from acknowledgements (sections.ts).
 */
export function applyTailRuleChanges(sections: readonly Section[], tail: readonly SurfaceNode[], isRequest: (text: string) => boolean): void {
  if (!tail.length) return;
  const requests = analyzeSpan(tail).userTexts.filter((u) => isRequest(u.text));
  if (!requests.length) return;
  const rules = sections.find((s) => s.heading === 'Constraints and preferences');
  const changed: string[] = [];
  for (const u of requests) {
    // what the user pasted (an error, a stack trace, a log) and what they ask are no rules
    const said = withoutPaste(u.text);
    const ss = splitSentences(pastedError(said) ? withoutLogLines(said) : said)
      .map(stripMarker)
      .filter((s) => readLength(s) >= 12 && readLength(s) <= RULE_CHARS && !isQuestion(s) && !LOCATION.test(s));
    for (const [i, s] of ss.entries()) {
      const others = ss.filter((x) => x !== s);
      let hit: string | undefined;
      for (const sec of sections) {
        const drop = CHANGEABLE.get(sec.heading);
        if (drop === undefined) continue;
        sec.items = sec.items.flatMap((it) => {
          const change = it.key?.startsWith('correction:') || it.text.includes(CHANGED_IN_TAIL) ? undefined : changeOf(it.text.replace(` ${GOAL_NOTE}`, ''), s, others);
          if (change === undefined) return [it];
          hit ??= change;
          // a goal keeps its sentence; it says (once) that a rule in it changed since
          return drop ? [] : [it.text.endsWith(GOAL_NOTE) ? it : { ...it, text: `${it.text} ${GOAL_NOTE}` }];
        });
      }
      if (!hit) continue;
      // the sentence after it on the same subject completes the rule ("… instead. our IBANs are in ledger.toml")
      const next = ss[i + 1];
      const rule = next && overlap(s, next).shared >= 1 && !isRuleSentence(next) ? `${stateForm(hit).replace(/[.。]\s*$/u, '')}; ${next.replace(/^\p{Lu}(?!\p{Lu})/u, (c) => c.toLowerCase())}` : stateForm(hit);
      changed.push(`${finalForm(rule).replace(/[.。]\s*$/u, '')} ${CHANGED_IN_TAIL}.`);
    }
  }
  if (rules) for (const c of changed) if (!rules.items.some((it) => it.text === c)) rules.items.push({ text: c });
  dropRuledOutTodos(sections, requests.map((u) => withoutPaste(u.text)));
}

/** A plan item still open, as In progress says it: its text and its status. */
const OPEN_TODO = /^(.+?) \(todo (?:pending|in.progress)\)$/iu;
/** A clause that puts off, not out ("don't commit yet", "pas encore"): the item stays open. */
const DEFERS = /\b(?:yet|now|until|before|after|first|later|today|for now)\b|(?<![\p{L}])(?:encore|pas tout de suite|todavía|aún|todavia|noch|erst)(?![\p{L}])|まだ|先に|後で|아직|나중에/iu;
/** Most words of a clause that rules a plan item out ("no daily limit", "don't add the export"): longer, it says more than that. */
const RULING_OUT_WORDS = 6;

/**
 * Drop from In progress, in place, the open plan items a user message of the tail rules out: a
 * short clause of it (split at `,` `;` `.`) that rules something out (rules.ts `RULES_OUT`) and
 * names only what the item names ("no daily limit." for "Per-tenant daily request limit"). The
 * tail, kept verbatim, says it; the checkpoint no longer lists the item as work to do.
 */
function dropRuledOutTodos(sections: readonly Section[], said: readonly string[]): void {
  const prog = sections.find((s) => s.heading === 'In progress');
  if (!prog) return;
  const clausesOut = said.flatMap((t) => t.split(/[,;.!。、，；]\s*|\n+/u)).map((c) => c.trim()).filter((c) => c && c.split(/\s+/).length <= RULING_OUT_WORDS && !isQuestion(c) && RULES_OUT.test(c) && !DEFERS.test(c));
  if (!clausesOut.length) return;
  prog.items = prog.items.filter((it) => {
    const todo = OPEN_TODO.exec(it.text)?.[1];
    if (!todo) return true;
    const item = contentTokens(todo);
    return !clausesOut.some((c) => {
      const named = contentTokens(c);
      const { shared } = overlap(named, item);
      return named.size > 0 && shared >= Math.min(2, named.size) && shared === named.size;
    });
  });
}
