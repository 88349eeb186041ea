/**
 * What one assistant reply leaves as standing memory (README "Standing memory"): what the agent
 * established (where something lives or runs, a switch, a cause, a schedule, the project's commands,
 * a thing built and named), never its status, never `critical`.
 */
import { isProtocol } from './host-text.js';
import { CJK, hasValue, isNoise, plain, proseOf } from './harvest-rules.js';
import { ROLE, firstWord } from './standing-lexicon.js';
import { correctionOf } from './correction.js';
import { ALL_CRITICAL, CODE_TOKEN, EN_VERBS, NOUN_SUBJECT, REPLY_BUILT_MAX, REPLY_FRAMES_MAX, REPLY_SENTENCES_MAX, STANDING_INPUT_CHARS, anchoredIn, capitalize, clip, verbFirst, type StandingFrame, type StandingKind } from './standing-clause.js';

/** Whether an agent's reply acknowledges a lasting rule ("Got it, I'll use vitest from now on", "承知しました。今後は…"). */
export function acknowledgesRule(reply: string): boolean {
  const head = plain(reply.slice(0, 1000)).replace(/[’‘]/g, "'").trim().slice(0, 300);
  return ROLE.ack.test(head);
}

// ---------------------------------------------------------------------------------------------
// A reply

/** The agent's own "Critical:" / "Important:" / "Note:" opening a sentence: dropped, never a mark. */
const AGENT_MARK = new RegExp(`^[\\s*_#>]*(?:${[...ALL_CRITICAL, 'note', 'nb', 'summary', 'result', 'update', 'fyi', 'tl;dr'].join('|')})[\\s*_]*[:：]\\s*`, 'iu');
/** An acknowledgement opening a reply's sentence ("Noted: the password rotates every Monday", "Got it — …"): not part of what it states. */
const ACK_LEAD = /^(?:noted|got it|understood|sure|ok(?:ay)?|alright|of course|absolutely|perfect|great)\b[!.,:;]*\s*[—–-]?\s*(?=\S)/i;
/** A subject that names nothing on its own ("it", "this", "I", "we", "here"): a reply sentence so led is not a finding (a cause or a switch aside). */
const VAGUE_SUBJECT = /^(?:it|this|that|these|those|there|here|i|we|you|everything|all|both|now|then|next|also|so)\b/i;
/** A number with a unit a reply may state as a fact ("30s", "512 MB", "5 minutes"). */
const QUANTITY = /\b\d+(?:[.,]\d+)?\s?(?:ms|s|sec|seconds?|minutes?|mins?|hours?|h|days?|kb|mb|gb|tb|kib|mib|gib|px|rem)\b/i;

/** A line of code left in prose: a call statement, a line ending in `;` or `{`, a declaration keyword first. */
const REPLY_CODE = /^[\w.$]+\([^)]*\)\s*;?\s*$|[;{]\s*$|^\s*(?:const|let|var|function|return|import|export|def|class|fn|pub fn|impl)\s/;
/**
 * A command of the project and what it does, as a summary lists it ("`just check` - runs tests with
 * 100% coverage", "`npm run e2e`: starts the stack and runs the browser tests"): how to run things lasts.
 */
const COMMAND_ITEM = /^\s*(?:[-*•]|\d+[.)])\s+(?:\*\*)?`((?:[\w.@/-]+\s+){1,4}[\w.:@/=-]+)`(?:\*\*)?\s*(?:[-–—:]|→|->)\s+((?:runs?|builds?|formats?|lints?|starts?|stops?|checks?|deploys?|tests?|installs?|generates?|cleans?|serves?|watches|compiles?|bundles?|publishes?|releases?|migrates?|seeds?|resets?|opens?|prints?|updates?)\b[^\n]{3,200})$/i;
/** Consecutive command items one frame holds at most (and parts of a list of parts). */
const COMMAND_ITEMS_MAX = 6;
/**
 * A list item that names a part of the work in bold or backticks and says what it is ("1. **string_utils**
 * - `reverse_string()` function", "- `mdLink`: the link text colour"): a list of them is what the work
 * is made of, kept as one memory with the heading it is under.
 */
const PART_ITEM = /^\s*(?:[-*•]|\d+[.)])\s+(?:\*\*`?|`)([\w.:/<>()$@-]{2,60})(?:`?\*\*|`)\s*(?:[-–—:]|→|->)\s+([^\n]{3,200})$/;
/** A reply written as a document (two or more Markdown headings): its frames are its own summary, up to this many. */
const SUMMARY_FRAMES_MAX = 8;
/** Files the agent removed, named right after the verb ("Deleted `pyproject.toml` and `uv.lock`", "Removed the old src/legacy/"): the project no longer has them. */
const REMOVED = /^(?:(?:I|we)(?:'ve| have)?\s+)?(?:deleted|removed|dropped)\s+(?:[\w-]+\s+){0,4}?\(?(?:[\w.*-]*\/[\w./*-]*|[\w*-]+\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|rb|java|kt|swift|c|h|cpp|md|json|toml|ya?ml|sh|sql|css|scss|html|lock|env|txt|cfg|ini)\b)/i;
/** A measure with the tool that takes it ("100% line coverage verified with `cargo llvm-cov`"): how the project checks it. */
const MEASURED_WITH = /\b(?:verified|measured|checked|enforced|reported|collected|gated)\s+(?:with|by|using|via)\s+(?:the\s+)?[a-z][\w.-]*(?:\s+[a-z][\w.-]*)?/i;
/** "Now the theme system has live reload", "Now the `Text` component properly implements `invalidate()`": what a change left the code able to do. */
const NOW_HAS = /^now,?\s+(?:the\s+)?(?!it\b|this\b|that\b|we\b|i\b|you\b|there\b)[\w.()-]+(?:\s+[\w.()-]+){0,3}?\s+(?:\w+ly\s+)?(?:has|have|supports?|handles?|uses|implements?|includes?|exposes?)\s+\S/i;

/** One prose sentence of a reply: a command item, an intro ending in a colon, or plain prose. */
interface ReplySentence {
  text: string;
  command?: boolean;
  /** A list item naming a part and what it is ("**math_utils** - `factorial()` with `NegativeInputError`"). */
  part?: boolean;
  /** The sentence is a list item. */
  item?: boolean;
  /** A part's name or description holds a name of code. */
  code?: boolean;
  /** A blank line or a heading comes before it: a list before it has ended. */
  fresh?: boolean;
  /** The sentence is a Markdown heading. */
  heading?: boolean;
  intro?: boolean;
}

/** The prose sentences of a reply: code blocks, tables and printed lines removed, list markers and Markdown emphasis stripped. */
function replySentences(text: string): ReplySentence[] {
  const out: ReplySentence[] = [];
  let fresh = false;
  for (const line of proseOf(text).split('\n')) {
    if (!line.trim() || /^\s*#{1,6}\s/.test(line)) {
      fresh = true;
      if (!/^\s*#{1,6}\s/.test(line)) continue;
    }
    const n = out.length;
    const cmd = COMMAND_ITEM.exec(line);
    if (cmd) {
      out.push({ text: `${cmd[1]} - ${plain(cmd[2]!).trim()}`, command: true, ...(fresh ? { fresh } : {}) });
      fresh = false;
      continue;
    }
    const part = PART_ITEM.exec(line);
    if (part) {
      out.push({ text: `${part[1]} - ${plain(part[2]!).trim()}`, part: true, item: true, code: CODE_TOKEN.test(part[1]!) || CODE_TOKEN.test(part[2]!), ...(fresh ? { fresh } : {}) });
      fresh = false;
      continue;
    }
    const item = /^\s*(?:[-*•]|\d+[.)])\s/.test(line);
    for (const raw of plain(line).split(/(?<=[.!?])\s+|(?<=[。！？])/)) {
      const x = raw.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').replace(AGENT_MARK, '').replace(ACK_LEAD, '').trim();
      if (x.length < (CJK.test(x) ? 6 : 14) || x.length > 500 || isNoise(x) || REPLY_CODE.test(x)) continue;
      out.push({ text: x, ...(/[:：]$/.test(x) ? { intro: true } : {}), ...(item ? { item: true } : {}) });
    }
    if (out.length > n && fresh) {
      out[n]!.fresh = true;
      fresh = false;
    }
    if (out.length > n && /^\s*#{1,6}\s/.test(line)) out[n]!.heading = true;
  }
  return out;
}

/** Narration, an offer or a plan opening a sentence (anywhere in CJK, where it ends the sentence). */
function narrates(s: string): boolean {
  const m = ROLE.narration.exec(s);
  return !!m && (CJK.test(s) || m.index <= 2);
}

/** A sentence that opens with a verb or a gerund has no subject of its own: a list of actions ("See if …", "Using a theme that …"), not a fact. */
function fragment(s: string): boolean {
  const w = firstWord(s);
  return !!w && s.slice(0, 1).toLowerCase() === w.slice(0, 1) && (EN_VERBS.has(w) || /ing$/.test(w) || w === 'uses' || w === 'used');
}
/** A present progressive ("Ghostty is rendering #00d7ff as truecolor"): an observation of the moment, not a standing value. */
const PROGRESSIVE = /\b(?:is|are)\s+(?:now\s+|currently\s+|still\s+)?\w+ing\b/i;
/** A name of code and where it lives, as a summary lists it ("multiply_numbers function in src/math_utils.py:9 - multiplies …"). */
const DEFINED_IN = /^[\w$.-]*(?:_|[a-z][A-Z]|\.\w|\(\))[\w$.()<>-]*\s+(?:function|class|method|test|module|component|helper|hook|type|interface|struct|enum|trait|file|command|script|endpoint|table|route|view|model|fixture)s?\s+(?:is |lives )?(?:in|at)\s+\S*[\w-]+(?:\/|\.\w{1,5}\b)/u;
/** A change still to be made ("need to be replaced", "will be moved", "should be switched"): a plan, not a switch. */
const PLANNED = /\b(?:needs? to be|has to be|have to be|should be|will be|to be|must be|can be|could be|would be|going to be)\s+\p{L}+ed\b/iu;
/** A sentence whose subject is a name of code ("`unsubscribeAll()` …", "setTheme …", "the `Text` component …"). */
const CODE_SUBJECT = /^(?:the\s+)?[\w$.]*(?:_|[a-z][A-Z]|\(\)|\.\w)[\w$.()]*(?:\s+(?:component|class|function|method|hook|module|helper|type))?\s+(?:should|must|never|always|only)\b/;
/** An obligation with its limit ("should only …, not …", "must never …", "should always …"). */
const DESIGN_RULE = /\b(?:should|must)\s+(?:only|never|always|not)\b|\bnever\s+\w+s\b/i;
/** "I ported …", "We've switched …": in a later session "I" is another agent, so the memory keeps the act ("Ported …"). */
const AGENT_I = /^(?:I(?:'ve| have)?|We(?:'ve| have)?)\s+(?=(?:\p{L}+ed|made|built|chose|wrote|took|put|set|kept|found|ran|went|moved|switched)\b)/u;
/** A condition, an obligation or a guess: a correction so said is no established fact ("if …, use X instead of Y", "should …, not …", "I bet …"). */
const CONDITIONAL = /\b(?:if|when|should|would|could|might|may|bet|unless|wenn|falls|sollte|si|devrait)\b/iu;
/** A sentence about the speaker's own life rather than the work ("I moved from Boston to Paris", "my sister"): no correction of the work. */
const PERSONAL = /^(?:i|i'm|i've|my|me|je|j'|ich|mein(?:e)?)\b|\b(?:my|our) (?:family|wife|husband|partner|kids?|son|daughter|mom|dad|mother|father|sister|brother|friends?|home|house|apartment)\b/iu;
/** The agent's own subject ("I", "we") or none: who made a change. */
const AGENT_SUBJECT = /^(?:i|i'?ve|i have|we|we'?ve|we have)\b/i;

/** What was checked before the colon ("I checked the lockfile: the project is pinned to …", "J'ai vérifié X : …", "Ich habe X geprüft: …"): the finding is after it. */
const CHECKED_LEAD = /^(?:(?:i|we)(?:'ve| have)?\s+(?:checked|looked(?:\s+(?:at|into))?|verified|confirmed|inspected|read|investigated|traced|dug into)|j'ai\s+(?:vérifié|regardé|lu|inspecté|contrôlé)|(?:ich|wir)\s+(?:habe|haben)\s[^:：]{0,80}?(?:geprüft|nachgesehen|kontrolliert|gelesen|untersucht))\b[^:：]{0,100}\s?[:：]\s+(?=\S)/iu;
/** A name written with a capital inside the sentence ("GitHub Actions", "Vite", "Terraform"), not its first word nor "I". */
export const NAME_INSIDE = /(?<=[\p{L}\p{N},;)]\s+)(?!I\b)\p{Lu}\p{Ll}[\p{L}\p{N}.+#-]+/u;
/** A statement of what the project uses or runs on ("We use Terraform 1.6.4", "Our CI runs on GitHub Actions", "Nous utilisons …", "Wir nutzen …"). */
const USES = /^(?:we|the (?:project|repo|repository|team|app|service|codebase)|this (?:project|repo|repository|codebase)|our \p{L}+|nous|on|le projet|notre \p{L}+|wir|das projekt|unsere? \p{L}+)\s+(?:use|uses|are using|run|runs|deploy|deploys|build|builds|host|hosts|rely on|relies on|utilisons|utilise|tourne sur|déployons|nutzen|nutzt|verwenden|verwendet|benutzen|läuft auf|deployen)\s+(?=\S)/iu;

/** What a reply sentence established, or undefined: a cause, a switch, where something lives or runs, a schedule or an order, a named thing built. */
export function findingOf(s: string): StandingKind | undefined {
  if (/[?？]\s*$/.test(s) || narrates(s) || ROLE.hedge.test(s)) return undefined;
  const checked = CHECKED_LEAD.exec(s);
  if (checked) return findingOf(s.slice(checked[0].length));
  const cjk = CJK.test(s);
  // a cause, a switch, a schedule or an order is about the work: a name, a path, a value or a word of the work is in it
  const anchored = anchoredIn(s, cjk);
  const vague = !cjk && VAGUE_SUBJECT.test(s.replace(/^(?:now|so|also|then)\b,?\s+(?=the\s)/i, ''));
  if (ROLE.cause.test(s)) return anchored ? 'fact' : undefined;
  // named files or code removed: the project no longer has them
  if (!cjk && REMOVED.test(s) && !PLANNED.test(s)) return 'fact';
  const change = ROLE.change.exec(s);
  // "ported the selector to match the patterns": a purpose, not a destination
  const purpose = change && /\bto$/i.test(change[0]) && !/\b(?:decided|opted) to$/i.test(change[0]) && !!verbFirst(s.slice(change.index + change[0].length).trim(), EN_VERBS);
  if (change && anchored && !purpose && !PLANNED.test(s) && (!vague || AGENT_SUBJECT.test(s))) return /\b(?:moved|renamed|ported|converted)\b/i.test(s) ? 'fact' : 'decision';
  // a correction naming the value it replaces ("We moved off esbuild; the bundler is now Vite", "… statt 7142"): the new value is a choice of the work
  const correction = !cjk && !PLANNED.test(s) ? correctionOf(s) : undefined;
  if (correction?.changed && !CONDITIONAL.test(s) && !verbFirst(s, EN_VERBS) && (anchored || (NAME_INSIDE.test(s) && !PERSONAL.test(s)))) return hasValue(s) ? 'environment' : 'decision';
  // what the project uses or runs on, named ("Our CI runs on GitHub Actions", "We use Terraform 1.6.4")
  if (!cjk && USES.test(s) && anchored && (hasValue(s) || NAME_INSIDE.test(s) || CODE_TOKEN.test(s)) && !ROLE.status.test(s) && !PROGRESSIVE.test(s)) return 'environment';
  const built = ROLE.built.exec(s);
  if (NOW_HAS.test(s) && anchored) return 'fact';
  // a thing the agent built, named as code ("added `multiply_numbers` to src/math_utils.py")
  if (built && (!vague || AGENT_SUBJECT.test(s)) && CODE_TOKEN.test(s.slice(built.index + built[0].length))) return 'fact';
  if (vague || (!cjk && fragment(s) && !NOUN_SUBJECT.test(s))) return undefined;
  // a value where something lives or runs; with a bare copula only when the sentence is no status report ("… are ported with 100% coverage") nor an observation of the moment
  const valued = hasValue(s) || (QUANTITY.test(s) && !/\bnow\b/i.test(s));
  // a measure and the tool that takes it, even in a status line: how the project checks it
  if (valued && MEASURED_WITH.test(s)) return 'environment';
  if (valued && (ROLE.where.test(s) || (ROLE.copula.test(s) && !ROLE.status.test(s) && !PROGRESSIVE.test(s)))) return 'environment';
  if (ROLE.recurring.test(s) && !ROLE.status.test(s) && anchored) return 'fact';
  // a design rule about a piece of code named first ("unsubscribeAll() should only disconnect from the agent, not clear the listeners")
  if (CODE_SUBJECT.test(s) && DESIGN_RULE.test(s)) return 'decision';
  if (DEFINED_IN.test(s)) return 'environment';
  return undefined;
}

/** A finding without its status clauses ("Switched to vitest; all 34 tests pass." -> "Switched to vitest."). */
function withoutStatus(s: string): string {
  const parts = s.split(/\s*;\s*|,\s+(?:and\s+)?|\s+and\s+(?=(?:all\s+)?(?:the\s+)?(?:\d+\s+)?(?:tests?|changes?|build|lint|verified|committed|pushed)\b)/i);
  if (parts.length < 2) return s;
  const kept = parts.filter((p, i) => i === 0 || !(ROLE.status.test(p) && !findingOf(p)));
  const joined = kept.join('; ').replace(/[.!。]*$/, '');
  return kept.length === parts.length ? s : joined + (/[。]$/.test(s) ? '。' : '.');
}

/**
 * The standing frames of one assistant reply (already redacted), in order, at most
 * {@link REPLY_FRAMES_MAX}, each `normal` (never `critical`, whatever the reply says): where something
 * lives or runs (`environment`: a URL, a port, a path, a version, a rate or a limit, with a copula
 * such as "is served at", "runs on", "listens on"), a switch or a pinned choice (`decision`:
 * "switched the test runner to vitest", "pinned pnpm to 9.12 because …"), a cause stated after the
 * fact (`fact`: "the bug was caused by …"), a schedule or an order (`fact`: "release branches are cut
 * every Monday", "routes are matched in declaration order"). Status chatter, narration, offers,
 * guesses, questions, code, tables and printed log or container lines give nothing.
 */
export function replyStanding(text: string): StandingFrame[] {
  const t = text.slice(0, STANDING_INPUT_CHARS).trim();
  // a reply's headings are its own summary, not a pasted document: only protocol text is the host's here
  if (!t || isProtocol(t)) return [];
  const out: StandingFrame[] = [];
  let built = 0;
  let commands: { frame: StandingFrame; items: string[]; end: number } | undefined;
  let parts: { intro?: string; items: string[]; code: boolean; end: number; key: string } | undefined;
  let last: { frame: StandingFrame; end: number; verb: string } | undefined;
  // a list of parts is kept once it has ended: two or more, one of them naming code
  const flushParts = () => {
    if (parts && parts.items.length >= 2 && parts.code) out.push({ kind: 'fact', importance: 'normal', content: clip(`${parts.intro ? `${parts.intro.replace(/[:：]\s*$/, '')}: ` : ''}${parts.items.join('; ')}`), key: parts.key });
    parts = undefined;
  };
  const sentences = replySentences(t).slice(0, REPLY_SENTENCES_MAX);
  sentences.forEach((rs, i) => {
    if (rs.part) {
      if (parts && parts.end === i - 1 && !rs.fresh) {
        if (parts.items.length >= COMMAND_ITEMS_MAX) return;
        parts.items.push(rs.text);
        parts.code ||= !!rs.code;
        parts.end = i;
      } else {
        flushParts();
        // only under a heading of its own ("### Modules ported:"): a list after prose is an explanation of the moment
        const before = sentences[i - 1];
        if (before?.heading && !narrates(before.text) && !ROLE.hedge.test(before.text)) parts = { intro: before.text, items: [rs.text], code: !!rs.code, end: i, key: `r${i}` };
      }
      return;
    }
    flushParts();
    // the project's commands listed one after another are one memory
    if (rs.command) {
      if (commands && commands.end === i - 1 && commands.items.length < COMMAND_ITEMS_MAX) {
        commands.items.push(rs.text);
        commands.frame.content = clip(commands.items.join('; '));
        commands.end = i;
      } else {
        const frame: StandingFrame = { kind: 'environment', importance: 'normal', content: clip(rs.text), key: `r${i}` };
        out.push(frame);
        commands = { frame, items: [rs.text], end: i };
      }
      return;
    }
    // an intro ("I ported the library to Rust with the following:") counts only for a switch said before its list
    // (without the clause its list completes: "… implements invalidate() so when the theme changes:")
    const s = rs.intro
      ? rs.text.replace(/[,\s]*(?:(?:with|as|in|using|via|through)\s+(?:the following|these|this|those)(?:\s+\p{L}+)?|like this|as follows|,?\s+(?:so when|so that|so|when|because|which|where)\b[^:：]*)?\s*[:：]$/iu, '.')
      : rs.text;
    const kind = findingOf(s);
    if (!kind || (rs.intro && !ROLE.change.test(s) && !NOW_HAS.test(s))) return;
    // what was built is kept for the first two things named; a list of edits is the history's, not standing memory
    if (kind === 'fact' && ROLE.built.test(s) && !ROLE.cause.test(s) && ++built > REPLY_BUILT_MAX) return;
    const content = clip(capitalize(withoutStatus(s).replace(AGENT_I, '').replace(/^now,?\s+(?=the\s|[\w.]+\s)/i, '')));
    if (out.some((f) => f.content === content)) return;
    // removals listed one after another ("Deleted …", "Deleted …") are one memory
    const verb = REMOVED.test(content) ? (firstWord(content) ?? '') : '';
    if (verb && rs.item && last && last.end === i - 1 && last.verb === verb) {
      last.frame.content = clip(`${last.frame.content.replace(/[.。]\s*$/, '')}; ${content}`);
      last.end = i;
      return;
    }
    const frame: StandingFrame = { kind, importance: 'normal', content, key: `r${i}` };
    out.push(frame);
    last = rs.item && verb ? { frame, end: i, verb } : undefined;
  });
  flushParts();
  // a reply written as a document (headings) is the agent's own summary: more of it is kept
  const headings = (t.match(/^#{1,6}\s+\S/gm) ?? []).length;
  return out.slice(0, headings >= 2 ? SUMMARY_FRAMES_MAX : REPLY_FRAMES_MAX);
}
