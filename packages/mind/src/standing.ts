/**
 * What one message gives to the standing memory (README "Standing memory"): pure functions over
 * one message's text (already redacted), shared by the UserPromptSubmit capture (a prompt), the
 * Stop/SessionEnd capture (a reply) and `mind import` (harvest.ts), so every path keeps the same.
 *
 * A prompt gives a standing instruction or preference only when it is a lasting rule about the work
 * or the user. The decision is structural first: who wrote it (the host's text is never the user's
 * rule: host-text.ts), the sentence's form (an imperative, an obligation, a stated preference about
 * oneself; not a statement about something else, not a question, not told in the past), what makes
 * it last (a scope such as "from now on" or "whenever"; "always"/"never"; a contrast, a condition or
 * an order inside the rule), what ties it to the moment (deixis: "that", "this change", "again",
 * "last", "for now", "until"), a name, a path or a value that anchors it to the work, and what
 * follows (the agent acknowledging a lasting rule). The word lists of standing-lexicon.ts give the
 * words of each role in the ten languages the hooks see.
 *
 * `critical` comes only from the user's explicit mark ("critical:", "important:", "remember:" opening
 * the prompt, and their equivalents); an agent's reply is never critical.
 *
 * A reply gives what the agent established, not how the turn went: where something lives or runs
 * (a URL, a port, a path, a version, a rate limit), a switch or a pinned choice, a root cause, a
 * schedule or an order. Status ("all tests pass", "committed as …", "done"), narration, offers,
 * guesses and questions give nothing.
 */
import { hostWritten, isProtocol } from './host-text.js';
import { ACK, CJK, CODE_LINE, CORRECTION_ONLY, LEAD_IN, STATES, environmentFacts, hasValue, isNoise, plain, proseOf, sentencesOf, userDecisionsOf } from './harvest-rules.js';
import { LATIN, LEXICON, ROLE, firstWord, roleOf } from './standing-lexicon.js';

/** What a standing frame is about (the mind frame's `kind`). */
export type StandingKind = 'instruction' | 'preference' | 'decision' | 'fact' | 'environment';

/** One frame a message gives to the standing memory. */
export interface StandingFrame {
  kind: StandingKind;
  /** `critical` only from the user's explicit mark; `important` for a rule with a lasting scope or an explicit memory request; else `normal`. */
  importance: 'critical' | 'important' | 'normal';
  /** The sentence(s) as said, venting and empty lead-ins removed; at most {@link STANDING_CHARS} characters. */
  content: string;
  /** Stable within the message (`mark`, `remember`, `p<n>` for the prompt's n-th sentence, `dec<n>`, `env<n>`, `r<n>` for the reply's n-th sentence). */
  key: string;
}

/** Frames one prompt gives at most. */
export const PROMPT_FRAMES_MAX = 4;
/** Frames one reply gives at most. */
export const REPLY_FRAMES_MAX = 4;
/** Of them, things the agent built and named ("added `parseArgs()` to src/cli.ts") at most. */
export const REPLY_BUILT_MAX = 2;
/** Characters of one frame's content at most (cut at a sentence end when it can be). */
export const STANDING_CHARS = 600;
/**
 * Characters of a message the rules read at most: its first 16,000 (a 1 MB paste is read in ~0.1 s
 * instead of seconds; a rule or a finding further into one pasted page is not looked for).
 */
export const STANDING_INPUT_CHARS = 16_000;
/** Sentences of a prompt, and of a reply, the rules read at most (a prompt's rules are in the user's own few sentences). */
export const PROMPT_SENTENCES_MAX = 60;
export const REPLY_SENTENCES_MAX = 150;

// ---------------------------------------------------------------------------------------------
// The explicit marks: critical (the mark before a colon) and important (a memory request)

const ALL_CRITICAL = Object.values(LEXICON).flatMap((l) => l.critical);
/** "critical:", "**IMPORTANT:**", "重要：", "Wichtig:" opening the message. */
const CRITICAL_MARK = new RegExp(`^[\\s*_#>【\\[]*(?:${ALL_CRITICAL.join('|')})[\\s*_】\\]]*[:：]\\s*[*_]*\\s*`, 'iu');
/** A memory request opening the message ("remember that …", "keep in mind that …", "覚えておいて"), after its lead-ins. */
const REMEMBER = new RegExp(`^(?:${Object.values(LEXICON).flatMap((l) => l.remember).join('|')})(?:\\s*[:,，、]\\s*|\\s+)`, 'iu');
/** A memory request after what it asks to keep ("the database is postgres 16, keep that in mind when you write the migration"). */
const REMEMBER_AFTER = /(?:[,;.!]|\s[-–—])\s*(?:so\s+|please\s+|and\s+)?(?:keep (?:that|this|it) in mind|remember (?:that|this|it)|note (?:that|this))(?![\p{L}])(?:\s+(?:when|while|for|if)\b[^.!?]*)?[.!]?\s*$/iu;
/** "remember to …" / "don't forget to …": a reminder to act, read as an imperative with a lasting intent. */
const REMIND_TO = /^(?:please\s+)?(?:remember to|don'?t forget to|do not forget to|be sure to|make sure (?:to|you)|make sure that you)\s+/i;

// ---------------------------------------------------------------------------------------------
// The form of a sentence

/** Words that open an English sentence and carry nothing for its form. */
const EN_FILLER = /^(?:(?:please|pls|also|and|so|just|ok(?:ay)?|btw|then|now|but|oh|hey|yeah|yes|alright|actually|generally|in general|by default|from now on|going forward|moving forward|in (?:the )?future|from here on(?: out)?|at all times|in (?:this|our|the) (?:repo|repository|project|codebase|monorepo|workspace)|for all \w+)\b[,:]?\s+)+/i;
/** The frequency and negation words that may precede an imperative verb. */
const EN_PRE_VERB = /^(?:(?:always|never|don'?t(?: ever)?|do not(?: ever)?|never ever|please|also|just|only|try to|try not to|feel free to|remember to|be sure to|make sure (?:to|you)|make sure that you)\s+)+/i;
/** English imperative verbs (standing-lexicon.ts `en.verbs`). */
const EN_VERBS: ReadonlySet<string> = new Set(LEXICON.en.verbs);
/** Imperative verbs of the other Latin-script languages: as a clause's first word, and anywhere. */
const OTHER_LATIN = LATIN.filter((l) => l !== 'en');
const LATIN_VERBS: ReadonlySet<string> = new Set(OTHER_LATIN.flatMap((l) => LEXICON[l].verbs));
const LATIN_VERB = roleOf('verbs', OTHER_LATIN);
/** The English modals (`en.modal`), for where in a clause they come. */
const EN_MODAL = roleOf('modal', ['en']);

/** The clause's first word when it is one of `verbs` and opens the clause, else undefined. */
function verbFirst(clause: string, verbs: ReadonlySet<string>): string | undefined {
  const w = firstWord(clause);
  return w && verbs.has(w) && clause.slice(0, w.length).toLowerCase() === w ? w : undefined;
}
const LATIN_MODAL = roleOf('modal', OTHER_LATIN);
/** Lead words, scope phrases and frequency/negation words that may open a clause before its verb, in the other Latin-script languages. */
const LATIN_FILLER = new RegExp(
  `^(?:(?:${[
    'bitte', 'auch', 'und', 'also', 'ok', 'dann', 'jetzt', 'immer', 'stets', 'nie', 'niemals', 'ab jetzt', 'ab sofort', 'künftig', 'in zukunft',
    "s'il te plaît", 'stp', 'svp', 'et', 'alors', 'aussi', 'toujours', 'jamais', 'ne jamais', 'désormais', 'dorénavant', "à l'avenir",
    'por favor', 'y', 'también', 'entonces', 'vale', 'siempre', 'nunca', 'a partir de ahora', 'de ahora en adelante',
    'per favore', 'e', 'anche', 'allora', 'sempre', 'mai', "d'ora in poi", 'da ora in poi',
    'e', 'também', 'então', 'a partir de agora', 'daqui pra frente',
    'alsjeblieft', 'graag', 'en', 'ook', 'dan', 'altijd', 'nooit', 'voortaan', 'vanaf nu',
  ].join('|')})[,:]?\\s+)+`,
  'iu',
);
/** A clause that opens with its subject (a pronoun or an article): a statement, not an instruction. */
const SUBJECT_WORDS: ReadonlySet<string> = new Set(
  `i i'm i've i'd i'll we we're we've you you're he she it it's they there this that these those the a an my our your his her their
   ich wir du er sie es das die der ein eine mein unser je nous tu il elle on ils elles le la les un une ce mon notre
   yo nosotros él ella el los las una mi nuestro io noi lui lei lo gli uno mio eu nós você ele ela o os as um uma meu
   ik wij jij je hij zij ze het de een mijn ons dat dit`.split(/\s+/),
);
function subjectFirst(clause: string): boolean {
  const w = firstWord(clause);
  return !!w && (SUBJECT_WORDS.has(w) || /^(?:j|l|c|qu)'/.test(w)) && clause.slice(0, 1).toLowerCase() === w.slice(0, 1);
}
/** "can you always …?", "could you from now on …?": a lasting request put as a question. */
const CAN_YOU = /^(?:(?:so|and|also|ok)\s+)?(?:can|could|would|will) you(?: please)?\b/i;
/** A clause of a recurring situation that comes first ("When you update X, …", "If a test fails, …"): the rule is its main clause. */
const LEADING_CONDITION = /^(?:when(?:ever)?|if|before|after|once|each time|every time|any ?time|wenn|immer wenn|sobald|bevor|falls|quand|lorsque|chaque fois que|si|cuando|siempre que|cada vez que|quando|ogni volta che|se|sempre que|toda vez que|als|wanneer|telkens als|elke keer als)\b[^,]{3,160},\s*/iu;
/** What a preference names when it is about the project rather than the user: its code, tests, structure or tooling. */
const PROJECT_PREFERENCE = /(?<![\p{L}])(?:tests?|specs?|parser|modules?|components?|functions?|class(?:es)?|apis?|endpoints?|databases?|schemas?|migrations?|files?|folders?|branch(?:es)?|repo(?:sitory)?|project|codebase|builds?|ci|deploy(?:s|ments)?|pipelines?|packages?|librar(?:y|ies)|frameworks?|テスト|モジュール|リポジトリ|测试|模块|仓库|테스트|모듈|저장소)(?![\p{L}])/iu;
/** A rule named as such ("the invariant that …", "the rule is that …", "our convention that …"): its clause is the rule. */
const NAMED_RULE = /\b(?:invariant|rule|convention|requirement|contract|policy|guideline|principle)\s+(?:is\s+)?that\s+(.{12,300})$/i;
/** The obligations that make a rule without a lasting word ("invalid themes must never crash"); "needs to" and "has to" ask for one change. */
const RULE_MODAL = /(?<![\p{L}])(?:must|mustn'?t|should|shouldn'?t|ought to|may not|(?:is|are) required to|muss|müssen|soll|sollen|darf nicht|dürfen nicht|doit|doivent|il faut|debe|deben|hay que|deve|devono|bisogna|devem|moet|moeten|mag niet|べき|なければならない|必须|应该|해야)(?![\p{L}])/iu;
/** "must" as a noun or a guess ("a must for me", "a must-have"): not an obligation. */
const NOT_OBLIGATION = /\b(?:a|the) must\b|\bmust-\w|\bmust (?:for|of)\b/i;
/** An obligation governs the main clause: it comes within its first nine words ("invalid themes must never crash"), not deep in a story. */
function modalNearStart(clause: string): boolean {
  const m = EN_MODAL.exec(clause);
  return !!m && clause.slice(0, m.index).trim().split(/\s+/).filter(Boolean).length <= 8;
}
/** A person's need or plan ("we need to fix the tests", "you'll have to keep me posted", "it's reminding me we need to"): a task, not a rule. */
const PERSONAL_NEED = /\b(?:we|you|i|they|it)(?:'ll| will| still| really| just| all)?\s+(?:need to|have to|has to|got to)\b|^(?:it|this|that)(?:'s| is| was)\b/i;
/** Obligation read as a guess ("must have been", "must be so special", "must feel great"): not a rule. */
const EPISTEMIC = /\bshould(?:'ve| have been| be (?:good|fine|ok|okay|able|done|ready|there|enough|possible|easy|safe|gone|fixed|working)\b| (?:work|help|do it|do the trick)\b)|\bmust(?:'ve|\s+have\s+(?:been|had|\w+ed)\b|\s+be\s+(?:so|such|really|quite|very|pretty|incredible|amazing|awesome|great|nice|fun|hard|tough|exciting|wonderful|special|rewarding|thrilling|cool|lovely|beautiful|scary|exhausting|interesting|fascinating|crazy|wild|a|an)\b|\s+(?:feel|look|sound|seem|mean)\b)/i;
/** A sentence about the thing at hand with its subject left out or pointed at ("should be dimmer", "it must fit"): steering, not a rule. */
const DEICTIC_SUBJECT = /^(?:(?:it|this|that|these|those)(?:'s)?\s+)?(?:should|must|needs? to|has to)\b|(?:^|[,;:]\s*)(?:that|this|it)\s+(?:should|must|needs?|has|is|was|looks|seems)\b/i;
/** An indirect question ("tell me if …", "see whether …", "let me know when …"): its "if" is no condition of a rule. */
const EMBEDDED_QUESTION = /\b(?:tell|ask|show|let)\s+(?:me|us)(?:\s+know)?\s+(?:if|whether|when|what|how|why)\b|\b(?:see|check|know|wonder|find out|figure out|investigate|decide)\s+(?:if|whether|when|how|why)\b/gi;
/** The words of "again" in every language: a one-off unless the clause is negated ("don't use npm again"). */
const AGAIN = /^(?:again|wieder|nochmal|noch einmal|erneut|encore|de nouveau|à nouveau|otra vez|de nuevo|di nuovo|ancora una volta|de novo|novamente|outra vez|opnieuw|nog een keer|nog eens|weer|また|再度|もう一度|再|又|다시|또|한 번 더)$/iu;
/** Scope phrases removed before deixis is looked for ("in this repo" is a scope, "this file" is deixis). */
const SCOPE_THIS = /\b(?:in|across|for)\s+(?:this|our|the)\s+(?:repo|repository|project|codebase|code ?base|monorepo|workspace|team|company|org)\b|(?:in|bei) (?:diesem|unserem) (?:repo|projekt)|dans ce (?:dépôt|projet|repo)|en este (?:repo|proyecto)|in questo (?:repo|progetto)|neste (?:repo|projeto)|in (?:deze|dit) (?:repo|project)|この(?:リポジトリ|プロジェクト|コードベース)|这个(?:仓库|项目)|이 (?:저장소|프로젝트|레포)/giu;
/** A token of code or of a tool: a backticked span, a path, a file name, a flag, an identifier (camelCase, snake_case, an acronym). */
const CODE_TOKEN = /`[^`]+`|[\w.-]+\/[\w./-]+|\b\w+\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|rb|java|kt|swift|c|h|cpp|md|json|toml|ya?ml|sh|sql|css|scss|html|lock|env|txt)\b|(?:^|\s)--?[a-z][\w-]+|\b[a-z]+[A-Z]\w*|\b\w+_\w+\b|\b[A-Z]{2,}\b/;
/** {@link CODE_TOKEN} without acronyms: a backticked span, a path, a file name, a flag, a camelCase or snake_case name. */
const NAMED_CODE = /`[^`]+`|[\w.-]+\/[\w./-]+|\b\w+\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|rb|java|kt|swift|c|h|cpp|md|json|toml|ya?ml|sh|sql|css|scss|html|lock|env|txt)\b|(?:^|\s)--?[a-z][\w-]+|\b[a-z]+[A-Z]\w*|\b\w+_\w+\b/;
/** A Latin-script word inside CJK text (a tool or a command named in it: "pnpm", "lint"). */
const LATIN_WORD_IN_CJK = /[A-Za-z][\w.-]+/;

/** What a sentence is, by its form and its words. */
interface Clause {
  /** The sentence as kept (venting and lead-ins removed). */
  text: string;
  cjk: boolean;
  question: boolean;
  /** "from now on", "whenever", "in this repo", "every time": the rule outlives the request. */
  scope: boolean;
  /** "always", "never" (not in an idiom or a story about oneself). */
  always: boolean;
  negated: boolean;
  /** An obligation read as a rule ("must not", "should"), not as a guess ("must have been"). */
  modal: boolean;
  /** A condition, a contrast or an order inside the rule ("when …", "instead of", "first …, then"). */
  structured: boolean;
  /** Tied to the moment: deixis, "again", "for now", "until", "last". */
  oneOff: boolean;
  idiom: boolean;
  /** Told about oneself or others in the past ("I've always wanted", "never been"). */
  narrative: boolean;
  hedged: boolean;
  imperative: boolean;
  /** "can you always …?" */
  canYou: boolean;
  prefer: boolean;
  /** A name, a path, a value or a word of the work or of the user. */
  anchored: boolean;
  /** "remember to …", "make sure to …": a reminder to act. */
  reminder: boolean;
}

function stripEnglishFiller(s: string): string {
  return s.replace(EN_FILLER, '');
}

/** The clause that carries the instruction: the main clause after a leading condition. */
function mainClause(s: string): string {
  const m = LEADING_CONDITION.exec(s);
  return m ? s.slice(m[0].length) : s;
}

/** A finite verb soon after the first word: "Link text is …", "Test files live in …" open with a noun, not an imperative. */
const NOUN_SUBJECT = /^\S+(?:\s+\S+){0,3}?\s+(?:is|are|was|were|has|have|uses|runs|lives|means|needs|contains|goes|looks|seems|ist|sind|est|sont|es|son|è|sono|é|são|is|zijn)(?![\p{L}\p{N}_])/iu;
/**
 * An instruction in the infinitive, German and Dutch style with the verb last ("bitte niemals direkt
 * auf main pushen", "altijd pnpm gebruiken"), French after its adverb ("toujours utiliser pnpm",
 * "ne jamais pousser sur main").
 */
const INFINITIVE_RULE = /(?<![\p{L}])(?:immer|nie|niemals|stets|bitte|kein\p{L}*|altijd|nooit|geen)(?![\p{L}])[^.!?;]*?(?<![\p{L}])\p{Ll}\p{L}*(?:en|ern|eln)\s*(?:[,.!;]|$)|(?<![\p{L}])(?:toujours|jamais|ne pas|ne jamais)\s+\p{L}+(?:er|ir|re)(?![\p{L}])/iu;

function isImperative(s: string, cjk: boolean): boolean {
  if (cjk) return ROLE.verbs.test(s) || ROLE.dont.test(s);
  const main = mainClause(stripEnglishFiller(s));
  const en = main.replace(EN_PRE_VERB, '');
  if (/^let(?:'s| me| us)\b/i.test(en)) return false;
  if (verbFirst(en, EN_VERBS) && !subjectFirst(main) && !NOUN_SUBJECT.test(en)) return true;
  const other = mainClause(s).replace(LATIN_FILLER, '');
  if (verbFirst(other, LATIN_VERBS) && !NOUN_SUBJECT.test(other)) return true;
  if (subjectFirst(s.replace(LATIN_FILLER, ''))) return false;
  // an infinitive instruction ("immer pnpm verwenden", "ne jamais pousser sur main")
  return INFINITIVE_RULE.test(s) || (LATIN_VERB.test(s) && (ROLE.always.test(s) || ROLE.scope.test(s) || ROLE.dont.test(s)));
}

function oneOffOf(s: string): boolean {
  const t = s.replace(SCOPE_THIS, ' ').replace(REMEMBER_AFTER, '');
  const hits = ROLE.oneOff.all(t).map((m) => m[0].trim());
  if (!hits.length) return false;
  // "again" under a negation is "anymore": "don't use npm again", "不要再用 npm", "다시는 … 하지 마"
  return !(hits.every((h) => AGAIN.test(h)) && (ROLE.dont.test(t) || /\bnever\b|nie|jamais|nunca|mai|nooit|絶対|決して|不要|别|绝不|마세요|마/.test(t)));
}

/** A name, a path, a value or a word of the work in `s`. */
function anchoredIn(s: string, cjk: boolean): boolean {
  return ROLE.work.test(s) || CODE_TOKEN.test(s) || hasValue(s) || (cjk && LATIN_WORD_IN_CJK.test(s));
}

/** An English imperative without its verb: a word of the work used as the verb ("build relationships", "test yourself") anchors nothing. */
function withoutVerb(s: string): string {
  const main = mainClause(stripEnglishFiller(s)).replace(EN_PRE_VERB, '');
  const v = verbFirst(main, EN_VERBS);
  return v ? s.replace(main, main.slice(v.length)) : s;
}

function clauseOf(text: string): Clause {
  const cjk = CJK.test(text);
  const t = text.trim();
  const bare = stripEnglishFiller(t);
  const idiom = ROLE.idioms.test(t);
  const narrative = ROLE.narrative.test(t);
  const question = /[?？]\s*$/.test(t);
  const latinModal = !cjk && (modalNearStart(bare) || LATIN_MODAL.test(t));
  const modal = (cjk ? ROLE.modal.test(t) : latinModal) && !EPISTEMIC.test(t) && !NOT_OBLIGATION.test(t) && !/^(?:i|i'll|i'd|i'm)\b/i.test(bare) && !PERSONAL_NEED.test(bare);
  const imperative = isImperative(t, cjk);
  return {
    text: t,
    cjk,
    question,
    scope: ROLE.scope.test(t),
    always: ROLE.always.test(t) && !idiom && !narrative,
    negated: ROLE.dont.test(t),
    modal,
    structured: ROLE.when.test(t.replace(EMBEDDED_QUESTION, ' ')) || ROLE.contrast.test(t),
    oneOff: oneOffOf(t),
    idiom,
    narrative,
    hedged: ROLE.hedge.test(t),
    imperative,
    canYou: CAN_YOU.test(bare),
    prefer: ROLE.prefer.test(t),
    anchored: anchoredIn(imperative ? withoutVerb(t) : t, cjk),
    reminder: REMIND_TO.test(bare),
  };
}

/**
 * Whether a clause is a standing rule, and how strongly: `strong` (a lasting scope, always/never,
 * a reminder: `important`), `weak` (a negation, a condition, a contrast or an order inside an
 * instruction, or an obligation: `normal`), or undefined.
 */
function ruleStrength(c: Clause, steering: boolean): 'strong' | 'weak' | undefined {
  if (c.oneOff || c.narrative || c.hedged) return undefined;
  if (c.idiom && !c.scope) return undefined;
  if (c.question && !(c.canYou && (c.scope || c.always))) return undefined;
  if (DEICTIC_SUBJECT.test(c.text) && !c.scope) return undefined;
  const form = c.imperative || c.modal || c.canYou;
  if (!form) return undefined;
  // a lasting scope says it outright; "always" and a reminder need the work or the user in it
  if (c.scope) return 'strong';
  if ((c.always || c.reminder) && c.anchored) return 'strong';
  // the rest only in a message that is not steering the thing at hand, and about the work
  if (!steering && c.anchored && (c.negated || c.structured || (c.modal && RULE_MODAL.test(c.text)))) return 'weak';
  return undefined;
}

/** A message steers the work at hand when one of its sentences is tied to the moment or corrects the last turn. */
function isSteering(clauses: readonly Clause[]): boolean {
  return clauses.some((c) => c.oneOff || CORRECTION_ONLY.test(c.text) || (DEICTIC_SUBJECT.test(c.text) && !c.scope));
}

/** The kind of a rule-shaped text: an instruction when it is phrased as one, a preference about oneself, else a fact. */
function kindOf(text: string): StandingKind {
  const c = clauseOf(text);
  if (c.prefer) return 'preference';
  if (c.imperative || c.modal || c.always || c.scope) return 'instruction';
  return hasValue(text) && STATES.test(text) ? 'environment' : 'fact';
}

function clip(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  if (one.length <= STANDING_CHARS) return one;
  const cut = one.slice(0, STANDING_CHARS);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('。'));
  return end > STANDING_CHARS / 2 ? cut.slice(0, end + 1) : cut.slice(0, STANDING_CHARS - 1) + '…';
}

/** `s` with its first letter in upper case, unless its first word is a name of code (`config.ts`, `multiply_numbers`, `mdLink`). */
function capitalize(s: string): string {
  const first = /^\S+/.exec(s)?.[0] ?? '';
  if (/[_./\\:$#@]|[a-z][A-Z]|\d/.test(first)) return s;
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Whether an agent's reply acknowledges a lasting rule ("Got it, I'll use vitest from now on", "承知しました。今後は…"). */
export function acknowledgesRule(reply: string): boolean {
  const head = plain(reply.slice(0, 1000)).replace(/[’‘]/g, "'").trim().slice(0, 300);
  return ROLE.ack.test(head);
}

// ---------------------------------------------------------------------------------------------
// A prompt

/**
 * The standing frames of one user prompt (already redacted), in the order of its sentences, at most
 * {@link PROMPT_FRAMES_MAX}:
 * - `critical` only under the user's explicit mark opening the prompt ("critical:", "important:",
 *   "remember:", "Wichtig:", "重要：", "중요:" …): one frame of what follows the mark;
 * - an explicit memory request ("remember that …", "keep in mind that …", "merk dir, dass …"):
 *   one `important` frame of what follows;
 * - each sentence that is a lasting rule (see the module comment) as an `instruction`, `important`
 *   with a lasting scope or always/never, else `normal`; a preference about oneself as a `preference`;
 * - with `reply` (the agent's answer to this prompt), an instruction the prompt phrased without a
 *   lasting word but the reply acknowledges as lasting ("Use vitest for new tests." / "Got it, I'll
 *   use vitest from now on."), `normal`;
 * - a choice with its reason as a `decision`, and stated values ("the staging API listens on port
 *   8443") as `environment` facts, each `normal`.
 * Host-written text, slash commands, acknowledgements, questions, one-off orders, idioms, venting,
 * complaints and pasted logs give nothing.
 */
export function promptStanding(text: string, opts: { reply?: string } = {}): StandingFrame[] {
  const t = text.slice(0, STANDING_INPUT_CHARS).trim();
  if (!t || hostWritten(t)) return [];
  if (/^\/[\w:.-]*(?:\s+\S+){0,3}\s*$/.test(t) || ACK.test(t)) return [];
  const mark = CRITICAL_MARK.exec(t);
  if (mark) {
    const body = bodyOf(t.slice(mark[0].length), false);
    return body ? [{ kind: kindOf(body), importance: 'critical', content: body, key: 'mark' }] : [];
  }
  const lead = t.replace(LEAD_IN, '');
  const remember = REMEMBER.exec(lead);
  if (remember) {
    const body = bodyOf(lead.slice(remember[0].length), true, 1);
    if (body && !/[?？]\s*$/.test(body)) return [{ kind: kindOf(body), importance: 'important', content: body, key: 'remember' }];
  }
  const after = REMEMBER_AFTER.exec(lead);
  if (after && after.index > 0) {
    const body = bodyOf(lead.slice(0, after.index), true, 1);
    if (body && !/[?？]\s*$/.test(body)) return [{ kind: kindOf(body), importance: 'important', content: body, key: 'remember' }];
  }
  const cjk = CJK.test(t);
  if (!cjk && t.split(/\s+/).length < 3) return [];
  const sentences = sentencesOf(proseOf(t), cjk)
    .slice(0, PROMPT_SENTENCES_MAX)
    .filter((s) => !CODE_LINE.test(s) && !isNoise(s))
    .map((s) => {
      // a rule named as such inside a remark ("… doesn't adhere to the invariant that every line … must not be wider than the width")
      const named = NAMED_RULE.exec(s);
      return named && RULE_MODAL.test(named[1]!) ? capitalize(named[1]!.trim()) : s;
    });
  const clauses = sentences.map(clauseOf);
  const steering = isSteering(clauses);
  const acknowledged = opts.reply !== undefined && acknowledgesRule(opts.reply);
  const out: StandingFrame[] = [];
  let run: { frame: StandingFrame; parts: string[]; end: number } | undefined;
  clauses.forEach((c, i) => {
    // a memory request opening a later sentence ("… Also remember that my editor font is Iosevka")
    const asked = i > 0 ? REMEMBER.exec(c.text.replace(LEAD_IN, '')) : null;
    if (asked) {
      const body = bodyOf(c.text.replace(LEAD_IN, '').slice(asked[0].length), true, 1);
      if (body && !c.question) out.push({ kind: kindOf(body), importance: 'important', content: body, key: `p${i}` });
      return;
    }
    const strength = ruleStrength(c, steering);
    let kind: StandingKind | undefined;
    let importance: StandingFrame['importance'] = 'normal';
    // a preference about the project ("I would only want e2e tests for the parser") is a rule of the work, not of the user
    const preference = PROJECT_PREFERENCE.test(c.text) || CODE_TOKEN.test(c.text) ? 'instruction' : 'preference';
    if (strength) {
      kind = c.prefer ? preference : 'instruction';
      importance = strength === 'strong' ? 'important' : 'normal';
    } else if (c.prefer && !c.question && !c.oneOff && !c.narrative && !c.hedged) kind = preference;
    else if (acknowledged && c.imperative && !c.question && !c.oneOff && !c.idiom && !c.narrative && !CORRECTION_ONLY.test(c.text)) kind = 'instruction';
    if (!kind) return;
    // rules said one after another are one memory ("Use pnpm. Don't use npm."), at most 3 sentences
    if (run && run.frame.kind === kind && run.end === i - 1 && run.parts.length < 3) {
      run.parts.push(c.text);
      run.end = i;
      run.frame.content = clip(run.parts.join(c.cjk ? '' : ' '));
      if (importance === 'important') run.frame.importance = 'important';
      return;
    }
    const frame: StandingFrame = { kind, importance, content: clip(c.text), key: `p${i}` };
    out.push(frame);
    run = { frame, parts: [c.text], end: i };
  });
  // what the user states as found or done, by the reply's classes: a cause, a switch, a schedule or an order ("release branches are cut every Monday")
  clauses.forEach((c, i) => {
    if (out.some((f) => f.key === `p${i}` || f.content.includes(c.text)) || c.imperative || c.question || c.oneOff || c.hedged || c.narrative || c.idiom) return;
    const kind = findingOf(c.text);
    // a switch the user reports must name what it switched (a tool, a path, a version): "I chose them 'cause…" is a story
    if (kind === 'fact' || (kind === 'decision' && (NAMED_CODE.test(c.text) || hasValue(c.text)))) out.push({ kind, importance: 'normal', content: clip(c.text), key: `p${i}` });
  });
  const said = out.map((f) => f.content);
  const held = (s: string) => said.some((x) => x.includes(s) || s.includes(x));
  userDecisionsOf(t)
    .filter((d) => !held(d) && !oneOffOf(d) && anchoredIn(d, CJK.test(d)))
    .forEach((d, i) => out.push({ kind: 'decision', importance: 'normal', content: clip(d), key: `dec${i}` }));
  environmentFacts(t)
    .filter((f) => !held(f) && !out.some((x) => x.content.includes(f)))
    .filter((f) => {
      const c = clauseOf(f);
      return !c.imperative && !c.oneOff && !c.question && !c.hedged;
    })
    .forEach((f, i) => out.push({ kind: 'environment', importance: 'normal', content: clip(f), key: `env${i}` }));
  return out.slice(0, PROMPT_FRAMES_MAX);
}

/** The first sentences (at most `max`) of what follows a mark, pasted lines removed; capitalized when `cap`. */
function bodyOf(rest: string, cap: boolean, max = 3): string | undefined {
  const cjk = CJK.test(rest);
  const ss = sentencesOf(proseOf(rest), cjk).slice(0, max);
  const body = ss.join(cjk ? '' : ' ').trim() || rest.trim();
  if (!body || (!cjk && body.length < 8)) return undefined;
  return clip(cap ? capitalize(body) : body);
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
/** Consecutive command items one frame holds at most. */
const COMMAND_ITEMS_MAX = 6;
/** "Now the theme system has live reload", "Now the `Text` component properly implements `invalidate()`": what a change left the code able to do. */
const NOW_HAS = /^now,?\s+(?:the\s+)?(?!it\b|this\b|that\b|we\b|i\b|you\b|there\b)[\w.()-]+(?:\s+[\w.()-]+){0,3}?\s+(?:\w+ly\s+)?(?:has|have|supports?|handles?|uses|implements?|includes?|exposes?)\s+\S/i;

/** One prose sentence of a reply: a command item, an intro ending in a colon, or plain prose. */
interface ReplySentence {
  text: string;
  command?: boolean;
  intro?: boolean;
}

/** The prose sentences of a reply: code blocks, tables and printed lines removed, list markers and Markdown emphasis stripped. */
function replySentences(text: string): ReplySentence[] {
  const out: ReplySentence[] = [];
  for (const line of proseOf(text).split('\n')) {
    const cmd = COMMAND_ITEM.exec(line);
    if (cmd) {
      out.push({ text: `${cmd[1]} - ${plain(cmd[2]!).trim()}`, command: true });
      continue;
    }
    for (const raw of plain(line).split(/(?<=[.!?])\s+|(?<=[。！？])/)) {
      const x = raw.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').replace(AGENT_MARK, '').replace(ACK_LEAD, '').trim();
      if (x.length < (CJK.test(x) ? 6 : 14) || x.length > 500 || isNoise(x) || REPLY_CODE.test(x)) continue;
      out.push({ text: x, ...(/[:：]$/.test(x) ? { intro: true } : {}) });
    }
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
/** The agent's own subject ("I", "we") or none: who made a change. */
const AGENT_SUBJECT = /^(?:i|i'?ve|i have|we|we'?ve|we have)\b/i;

/** What a reply sentence established, or undefined: a cause, a switch, where something lives or runs, a schedule or an order, a named thing built. */
function findingOf(s: string): StandingKind | undefined {
  if (/[?？]\s*$/.test(s) || narrates(s) || ROLE.hedge.test(s)) return undefined;
  const cjk = CJK.test(s);
  // a cause, a switch, a schedule or an order is about the work: a name, a path, a value or a word of the work is in it
  const anchored = anchoredIn(s, cjk);
  const vague = !cjk && VAGUE_SUBJECT.test(s.replace(/^(?:now|so|also|then)\b,?\s+(?=the\s)/i, ''));
  if (ROLE.cause.test(s)) return anchored ? 'fact' : undefined;
  const change = ROLE.change.exec(s);
  // "ported the selector to match the patterns": a purpose, not a destination
  const purpose = change && /\bto$/i.test(change[0]) && !/\b(?:decided|opted) to$/i.test(change[0]) && !!verbFirst(s.slice(change.index + change[0].length).trim(), EN_VERBS);
  if (change && anchored && !purpose && !PLANNED.test(s) && (!vague || AGENT_SUBJECT.test(s))) return /\b(?:moved|renamed|ported|converted)\b/i.test(s) ? 'fact' : 'decision';
  const built = ROLE.built.exec(s);
  if (NOW_HAS.test(s) && anchored) return 'fact';
  // a thing the agent built, named as code ("added `multiply_numbers` to src/math_utils.py")
  if (built && (!vague || AGENT_SUBJECT.test(s)) && CODE_TOKEN.test(s.slice(built.index + built[0].length))) return 'fact';
  if (vague || (!cjk && fragment(s) && !NOUN_SUBJECT.test(s))) return undefined;
  // a value where something lives or runs; with a bare copula only when the sentence is no status report ("… are ported with 100% coverage") nor an observation of the moment
  const valued = hasValue(s) || (QUANTITY.test(s) && !/\bnow\b/i.test(s));
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
  replySentences(t).slice(0, REPLY_SENTENCES_MAX).forEach((rs, i) => {
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
    out.push({ kind, importance: 'normal', content, key: `r${i}` });
  });
  return out.slice(0, REPLY_FRAMES_MAX);
}
