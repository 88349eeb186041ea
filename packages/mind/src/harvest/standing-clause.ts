/**
 * The form of one sentence, for the standing-memory rules (standing.ts): who it addresses and how
 * (an imperative, an obligation, a preference about oneself, a question, a story), what makes it last
 * or ties it to the moment, what anchors it to the work; the types, limits and helpers the prompt
 * rules (standing-prompt.ts) and the reply rules (standing-reply.ts) share.
 */
import { CJK, CORRECTION_ONLY, STATES, hasValue } from './harvest-rules.js';
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

export const ALL_CRITICAL = Object.values(LEXICON).flatMap((l) => l.critical);
/** A memory request after what it asks to keep ("the database is postgres 16, keep that in mind when you write the migration"). */
export const REMEMBER_AFTER = /(?:[,;.!]|\s[-–—])\s*(?:so\s+|please\s+|and\s+)?(?:keep (?:that|this|it) in mind|remember (?:that|this|it)|note (?:that|this))(?![\p{L}])(?:\s+(?:when|while|for|if)\b[^.!?]*)?[.!]?\s*$/iu;
/** "remember to …" / "don't forget to …": a reminder to act, read as an imperative with a lasting intent. */
const REMIND_TO = /^(?:please\s+)?(?:remember to|don'?t forget to|do not forget to|be sure to|make sure (?:to|you)|make sure that you)\s+/i;

// ---------------------------------------------------------------------------------------------
// The form of a sentence

/** Words that open an English sentence and carry nothing for its form. */
const EN_FILLER = /^(?:(?:please|pls|also|and|so|just|ok(?:ay)?|btw|then|now|but|oh|hey|yeah|yes|alright|actually|generally|in general|by default|from now on|going forward|moving forward|in (?:the )?future|from here on(?: out)?|at all times|in (?:this|our|the) (?:repo|repository|project|codebase|monorepo|workspace)|for all \w+)\b[,:]?\s+)+/i;
/** The frequency and negation words that may precede an imperative verb. */
const EN_PRE_VERB = /^(?:(?:always|never|don'?t(?: ever)?|do not(?: ever)?|never ever|please|also|just|only|try to|try not to|feel free to|remember to|be sure to|make sure (?:to|you)|make sure that you)\s+)+/i;
/** English imperative verbs (standing-lexicon.ts `en.verbs`). */
export const EN_VERBS: ReadonlySet<string> = new Set(LEXICON.en.verbs);
/** Imperative verbs of the other Latin-script languages: as a clause's first word, and anywhere. */
const OTHER_LATIN = LATIN.filter((l) => l !== 'en');
const LATIN_VERBS: ReadonlySet<string> = new Set(OTHER_LATIN.flatMap((l) => LEXICON[l].verbs));
const LATIN_VERB = roleOf('verbs', OTHER_LATIN);
/** The English modals (`en.modal`), for where in a clause they come. */
const EN_MODAL = roleOf('modal', ['en']);

/** The clause's first word when it is one of `verbs` and opens the clause, else undefined. */
export function verbFirst(clause: string, verbs: ReadonlySet<string>): string | undefined {
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
/** The obligations that make a rule without a lasting word ("invalid themes must never crash"); "needs to" and "has to" ask for one change. */
export const RULE_MODAL = /(?<![\p{L}])(?:must|mustn'?t|should|shouldn'?t|ought to|may not|(?:is|are) required to|muss|müssen|soll|sollen|darf nicht|dürfen nicht|doit|doivent|il faut|debe|deben|hay que|deve|devono|bisogna|devem|moet|moeten|mag niet|べき|なければならない|必须|应该|해야)(?![\p{L}])/iu;
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
export const CODE_TOKEN = /`[^`]+`|[\w.-]+\/[\w./-]+|\b\w+\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|rb|java|kt|swift|c|h|cpp|md|json|toml|ya?ml|sh|sql|css|scss|html|lock|env|txt)\b|(?:^|\s)--?[a-z][\w-]+|\b[a-z]+[A-Z]\w*|\b\w+_\w+\b|\b[A-Z]{2,}\b/;
/** {@link CODE_TOKEN} without acronyms: a backticked span, a path, a file name, a flag, a camelCase or snake_case name. */
export const NAMED_CODE = /`[^`]+`|[\w.-]+\/[\w./-]+|\b\w+\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|rb|java|kt|swift|c|h|cpp|md|json|toml|ya?ml|sh|sql|css|scss|html|lock|env|txt)\b|(?:^|\s)--?[a-z][\w-]+|\b[a-z]+[A-Z]\w*|\b\w+_\w+\b/;
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
export const NOUN_SUBJECT = /^\S+(?:\s+\S+){0,3}?\s+(?:is|are|was|were|has|have|uses|runs|lives|means|needs|contains|goes|looks|seems|ist|sind|est|sont|es|son|è|sono|é|são|is|zijn)(?![\p{L}\p{N}_])/iu;
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

export function oneOffOf(s: string): boolean {
  const t = s.replace(SCOPE_THIS, ' ').replace(REMEMBER_AFTER, '');
  const hits = ROLE.oneOff.all(t).map((m) => m[0].trim());
  if (!hits.length) return false;
  // "again" under a negation is "anymore": "don't use npm again", "不要再用 npm", "다시는 … 하지 마"
  return !(hits.every((h) => AGAIN.test(h)) && (ROLE.dont.test(t) || /\bnever\b|nie|jamais|nunca|mai|nooit|絶対|決して|不要|别|绝不|마세요|마/.test(t)));
}

/** A name, a path, a value or a word of the work in `s`. */
export function anchoredIn(s: string, cjk: boolean): boolean {
  return ROLE.work.test(s) || CODE_TOKEN.test(s) || hasValue(s) || (cjk && LATIN_WORD_IN_CJK.test(s));
}

/** An English imperative without its verb: a word of the work used as the verb ("build relationships", "test yourself") anchors nothing. */
function withoutVerb(s: string): string {
  const main = mainClause(stripEnglishFiller(s)).replace(EN_PRE_VERB, '');
  const v = verbFirst(main, EN_VERBS);
  return v ? s.replace(main, main.slice(v.length)) : s;
}

export function clauseOf(text: string): Clause {
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
export function ruleStrength(c: Clause, steering: boolean): 'strong' | 'weak' | undefined {
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
export function isSteering(clauses: readonly Clause[]): boolean {
  return clauses.some((c) => c.oneOff || CORRECTION_ONLY.test(c.text) || (DEICTIC_SUBJECT.test(c.text) && !c.scope));
}

/** The kind of a rule-shaped text: an instruction when it is phrased as one, a preference about oneself, else a fact. */
export function kindOf(text: string): StandingKind {
  const c = clauseOf(text);
  if (c.prefer) return 'preference';
  if (c.imperative || c.modal || c.always || c.scope) return 'instruction';
  return hasValue(text) && STATES.test(text) ? 'environment' : 'fact';
}

export function clip(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  if (one.length <= STANDING_CHARS) return one;
  const cut = one.slice(0, STANDING_CHARS);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('。'));
  return end > STANDING_CHARS / 2 ? cut.slice(0, end + 1) : cut.slice(0, STANDING_CHARS - 1) + '…';
}

/** `s` with its first letter in upper case, unless its first word is a name of code (`config.ts`, `multiply_numbers`, `mdLink`). */
export function capitalize(s: string): string {
  const first = /^\S+/.exec(s)?.[0] ?? '';
  if (/[_./\\:$#@]|[a-z][A-Z]|\d/.test(first)) return s;
  return s.charAt(0).toUpperCase() + s.slice(1);
}
