/**
 * The user's rules, preferences and corrections as they stand at the end of a span: each rule
 * in state form (the rule, not the user's line with its question, venting or "ok so"), a later
 * rule on the same subject replacing the earlier one, in its final form only and marked as
 * changed ("The very first cooldown is 3 seconds (changed during the session)."), a correction
 * of the agent kept with what is now true and what the agent had claimed, a rejected change said
 * once.
 *
 * A message is read by its structure first: who said it, what the agent did next (an
 * apology or an admission, a revert of the change just made), whether it is a question, whether
 * it holds a number, a path or a name; the word cues of cues.ts (English, French, Spanish,
 * German, Japanese, Korean) are one signal among these.
 */
import type { CallFact, SpanFacts } from './analyze.js';
import { ADMIT_CUE, CJK, CONTRADICT_CUE, GOAL_CUE, isPoliteRequest, isQuestion, LEAD_FILLER, LEAD_FILLER_CJK, normalizeQuotes, readLength, REFINE_CUE, RULE_CUE, STRONG_RULE_CUE, UNDO_CUE, VENTING } from './cues.js';
import { leadSentences, pastedError, shortenWhole, splitSentences, stripMarker, withoutLogLines, withoutPaste } from './sentences.js';
import { changedValues, contentTokens, overlap, sameSubject, UNIT, valuesOf } from './subject.js';
import { modifiesFiles } from './toolinfo.js';

/** A message of the span: its seq and text. */
export type Msg = { seq: number; text: string };

/** A user's text without a chat host's speaker tag ("[jiho] ...", Hermes on Discord): who spoke, not what they said. */
export function withoutSpeaker(text: string): string {
  return text.replace(/^\[[^\]\n]{1,40}\]\s+/, '');
}

// --- what a rule sentence is ---------------------------------------------------------

/**
 * A lasting instruction or preference in English: a prescription or prohibition ("don't",
 * "never", "always", "only", "make sure", "use X instead", "must", "should be", "no X") rather
 * than a one-off request or a remark.
 */
const LASTING = /(?:^|[,.;:!?(]\s*|\b(?:and|but|so|please|just|also|ok(?:ay)?|no|yes|omfg|well|hm+)[,!]?\s+)(?:don't|dont|do not|never|always|only|avoid|stop|keep|make sure|no need to|use|prefer|remember)\b|\b(?:must(?:n't)?|should(?:n't)?|has to|have to)\b|\binstead(?: of\b|[.!,;]|$)|\bthere(?:'s| is| are) no\b|\bonly (?:want|use|need)\b|\bnever\b|\balways\b|^no (?!(?:problem|worries|idea|way|one|thanks?|luck|rush|clue)\b)[a-z][\w-]*(?:[:,.;!]|\s+(?:at all|please|anymore|needed|allowed)\b|$)|\bthere (?:should|must) be no\b|\bnot allowed\b/i;
/** The other languages: a bare "no X" ("pas d'IA", "sin IA", "keine KI", "AIなし", "AI 없이") or a rule cue (cues.ts). */
const NO_X_OTHER = /^(?:pas d(?:e |')\p{L}|sans \p{L}|sin \p{L}|kein(?:e|en)? \p{L}|ohne \p{L})|(?:なし|不要|無し)[。.]?$|(?:없이|필요\s?없)/iu;
/** A strong cue: keeps a question-shaped rule ("... should still be there, no?"). */
const STRONG = /\b(?:never|always|only|must|should|don't|do not)\b/i;
/** A modal inside a relative clause describes, it does not instruct ("locations where those modules should go", "lo que hay que reponer", "ce qu'il faut faire"). */
const RELATIVE_MODAL = /\b(?:where|which|what|how|who|whom|when|whether)\s+(?:[\w'-]+\s+){0,4}(?:should(?:n't)?|must|has to|have to)\b|(?<![\p{L}])(?:lo que|que|ce qu'|ce que|lequel|laquelle|lesquels|selon lequel|dont|el cual|la cual|los cuales|welche[rs]?|wonach|was|wie|wo)\s*(?:[\p{L}'-]+\s+){0,3}(?:hay que|tiene que|debe|il faut|faut|doit|muss|soll)(?![\p{L}])/giu;
/** "it isn't X, it's Y" and its equivalents: the second half is what holds. */
const CONTRAST = /\b(?:is|are)n't\b[^.;]{1,80}[,:;]\s*(?:it's|it is|they're|they are)\b|(?<![\p{L}])no (?:es|son|se llama|se llaman)\b[^.;]{1,80}[,:;]\s*(?:es|son|se llama|se llaman)\b|(?:n'est pas|ne s'appelle pas)\b[^.;]{1,80}[,:;]\s*(?:c'est|(?:elle |il )?s'appelle)\b|(?:ist|heißt|heisst) nicht\b[^.;]{1,80}\bsondern\b|가 아니라|이 아니라/iu;
/** Talk about the user's own understanding or a guess, not an instruction (unless a strong cue makes it one: "i think it must never crash"). */
const REMARK = /^(?:i (?:don't|do not) (?:understand|think|tink|know|get|see)|i'm not sure|not sure|hm+|what|why|how|does|is|are|can|could|would|i (?:suppose|guess|think|tink|believe|would think|wonder)|maybe|perhaps|je (?:pense|crois|trouve|suppose)|il me semble|creo|pienso|me parece|ich (?:glaube|denke|finde)|mir scheint)(?![\p{L}])/iu;
/** A modal inside a that-clause after a noun describes what the noun says ("the invariant that every line must fit"), it does not instruct; after a verb of saying or thinking it is the point ("make sure that it must ..."). */
const THAT_MODAL = /(?<!\b(?:think|believe|guess|say|said|mean|suppose|sure|feel|know|hope|ensure|agree|decided)\s)\bthat\s+(?:[\w'-]+\s+){1,8}?(?:must(?:n't)?|should(?:n't)?|has to|have to)\b[^,;.]*/giu;
/** Never a rule, whatever its modal: "we should be good to go", "let me try it". */
const NOT_A_RULE = /\bshould be (?:good|fine|ok(?:ay)?|done|ready)\b|\b(?:let me|let's) (?:try|see|check)\b/i;

/** A colour or code value said bare: a hex colour (`#81a2be`, `81a2be`: letters and digits both), backticked. */
const HEX_VALUE = String.raw`#?(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{6}\b|#[0-9a-f]{3}\b|\x60[^\x60\s]{1,40}\x60`;

/**
 * A sentence that only sets a quantity: a short subject, a copula, a number with its unit ("The
 * cooldown is 10 seconds.", "Le créneau est de 30 minutes.", "El umbral es de 5 unidades.", "Die
 * Pause ist 15 Minuten.", "通知は朝 7 時。", "요약은 밤 11시."). The user saying what a value is
 * states a rule of the work; a longer sentence that holds a value is read by its other signals.
 */
const SETS_VALUE = new RegExp(
  String.raw`^(?:(?:and|also|so|ok(?:ay)?|et|aussi|y|también|und|auch)[,]?\s+)?(?:the|a|an|each|every|our|my|le|la|les|l'|chaque|el|la|los|las|cada|der|die|das|jede[rs]?)?\s*[\p{L}' -]{2,40}?\s+(?:is|are|should be|must be|stays?|est|sont|doit être|reste|es|son|debe ser|ist|sind|soll|beträgt|betragen)\s+(?:(?:at most|at least|exactly|only|about|de|d'|au plus|au moins|como máximo|como mínimo|höchstens|mindestens|genau|nur)\s+)?(?:\d+(?:[.,:]\d+)?\s?${UNIT}|\d+(?:[.,:]\d+)?(?:\s+[\p{L}]+)?|${HEX_VALUE})[.!]?$` +
    // the value first: "81a2be is what link text is (in md)", "#666666 is what the url should be"
    String.raw`|^(?:${HEX_VALUE}|\d+(?:[.,:]\d+)?\s?${UNIT})\s+(?:is|are)\s+(?:what|how)\s+(?:the\s+)?[\p{L}][\p{L} -]{1,40}?\s+(?:is|are|was|were|should be|looks?(?: like)?|uses?)\b[^.!?]{0,60}[.!]?$` +
    String.raw`|^[^\s、。,.]{1,12}(?:は|を|은|는)\s*(?:[^\s、。,.\d]{1,4}\s*)?\d+(?:[.,:]\d+)?\s?(?:${UNIT}|時|시)(?:[^\s、。,.]{0,6})?[。.!]?$`,
  'iu',
);

/** True when sentence `s` states a lasting rule or preference (any of the languages of cues.ts). */
export function isRuleSentence(s: string): boolean {
  // an aside in parentheses ("(which is a misnomer, should be interactive-mode)") does not make the sentence a rule
  // code, paths and URLs are named, not said ("GET /trips?stop=1187" holds no "stop")
  const t = normalizeQuotes(s)
    .replace(/`[^`]*`/g, ' X ')
    .replace(/\S*(?:[/=&]|\?(?=[\w%]))\S*/gu, ' X ')
    .replace(/\s*\((?:which|who|that|i\.e\.|e\.g\.|qui|que|lo que|der|die|das)\b[^()]{0,200}\)/giu, '')
    .replace(SELF_HEDGE, '')
    .replace(LEAD_FILLER, '');
  const strong = STRONG.test(t) || STRONG_RULE_CUE.test(t);
  if (isQuestion(t) && !strong) return false;
  // asking whether to do something ("should we run venv here?") asks, it does not rule
  if (isQuestion(t) && /^(?:should|shall|can|could|do|must|may) (?:we|i)\b/i.test(t)) return false;
  if (NOT_A_RULE.test(t)) return false;
  // a remark or a guess ("i think X doesn't adhere to the invariant that every line must fit") is no rule unless what it says rules
  const said = t.replace(/^i (?:don't|do not)/i, '').replace(THAT_MODAL, ' ').replace(RELATIVE_MODAL, ' ');
  if (REMARK.test(t) && !STRONG.test(said) && !STRONG_RULE_CUE.test(said)) return false;
  // the user saying what the work is ("what I actually want is ...") frames the goal, it is no rule
  if (GOAL_CUE.test(t)) return false;
  if (CONTRAST.test(t)) return true;
  if (SETS_VALUE.test(t.trim())) return true;
  const u = t.replace(RELATIVE_MODAL, '');
  return LASTING.test(u) || RULE_CUE.test(u) || NO_X_OTHER.test(u.trim());
}

/** Venting, swearing or shouting: how the user feels, not a rule (a shouted rule keeps its rule). */
function isVenting(s: string): boolean {
  const letters = s.replace(/[^\p{L}]/gu, '');
  const caps = letters.replace(/[^\p{Lu}]/gu, '').length;
  const shouting = letters.length >= 12 && caps / letters.length > 0.7;
  return VENTING.test(s) || /[!?]{2,}/.test(s) || (shouting && !isRuleSentence(s.toLowerCase()));
}

/** Swear words said in passing ("omfg use fucking rgb values"), left out of the rule they come with. */
const SWEARING = /(?<![\p{L}])(?:wtf|omfg|omg|ffs|jfc|fuck\p{L}*|shit\p{L}*|damn\p{L}*|bloody|putain|merde|joder|mierda|scheiß\p{L}*|verdammt)(?![\p{L}])[\s,!]*/giu;

/**
 * A sentence with its venting left out: the clauses that swear ("..., so the user sees shit is
 * about to get fucked") and the swear words said in passing. The rule in it stays.
 */
export function withoutVenting(s: string): string {
  const parts = s.split(/(,\s+|\s+(?=(?:so|because|since|as|car|donc|porque|así que|weil|also)\s))/iu);
  const kept: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const clause = parts[i]!;
    if (i > 0 && VENTING.test(clause) && !isRuleSentence(clause.replace(SWEARING, ''))) continue;
    kept.push((i > 0 ? parts[i - 1]! : '') + clause);
  }
  return kept.join('').replace(SWEARING, '').replace(/\s{2,}/g, ' ').trim();
}

/** Talk about the user themself before the point ("i'm a python noob, but", "honestly,", "je suis débutant, mais"). */
const SELF_HEDGE = /^(?:(?:i'?m|i am|je suis|soy|ich bin)\s[^,;.]{1,60},\s*(?:but|so|mais|donc|pero|aber|also)\s+|(?:honestly|to be honest|tbh|imo|imho|fwiw|franchement|la verdad|ehrlich gesagt),?\s+)/iu;

/**
 * A rule in state form: the discourse markers, hedges, pleas and trailing checks of the user's
 * line left out ("ok so please never push to main, ok?" -> "Never push to main."), the first
 * letter capitalized, a final period.
 */
export function stateForm(s: string): string {
  let t = normalizeQuotes(s).replace(/\s+/g, ' ').trim();
  for (let i = 0; i < 4; i++) {
    const before = t;
    t = t.replace(SELF_HEDGE, '').replace(LEAD_FILLER, '').replace(LEAD_FILLER_CJK, '').trim();
    if (t === before) break;
  }
  t = t.replace(/[\s,]+(?:please|pls|plz|thanks?|thank you|ok\??|okay\??|right\?|s'il te plaît|stp|por favor|gracias|bitte|danke)[.!?]*$/i, '').trim();
  t = t.replace(/!+$/, '.').replace(/\s*[,;:-]+$/, '');
  if (!t) return s.trim();
  // a sentence that opens with a URL, a path or an identifier (`dimGray`, `snake_case`) keeps its case
  if (!/^[\p{L}][\p{L}'-]*(?::\/\/|[./_\d])|^\p{Ll}+\p{Lu}/u.test(t)) t = t.replace(/^\p{Ll}/u, (c) => c.toUpperCase());
  if (!/[.!?。！？)"'」]$/.test(t)) t += /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u.test(t) ? '。' : '.';
  return t;
}

/** A rule that forbids or removes ("don't send DMs", "no dashboard", "kein Zufall", "DM은 보내지 마"). */
export const RULES_OUT = /\b(?:don't|do not|never|no|not|remove|drop|stop|without)\b|(?<![\p{L}])(?:ne|pas|jamais|sin|nunca|nada de|quita|kein\p{L}*|nicht|nie|ohne|entfern\p{L}*)(?![\p{L}])|ないで|しない|使わない|不要|やめて|지\s?마|말고|없이|빼/iu;

/** A name in code form: backticked, a path, a URL, a file name with its extension. */
const NAMES_CODE = /`[^`\s][^`]*`|(?:^|[\s(（「"'])(?:~|\.{1,2})?\/[\w.~-]+\/?[\w./~-]*|https?:\/\/\S+|(?<![\p{L}\d])[\w-]+\.(?:json|ya?ml|toml|ini|conf|cfg|db|sqlite|txt|md|csv|log|[jt]sx?|py|rs|go|rb|sh)(?![\p{L}\d])/u;

/**
 * The sentence that says what replaces a rule that rules something out, in the same message:
 * within the two sentences after `ss[i]`, the first plain sentence (no rule itself, no question)
 * that names something in code form ("Redis は使わない。…。キャッシュはファイル（~/.cache/…/forecast.json）で十分。",
 * "Don't use Redis. … A file cache in ~/.cache/app/forecast.json is enough."), or undefined.
 */
function replacementAfter(ss: readonly string[], i: number, isInstr: (s: string) => boolean): number | undefined {
  if (!RULES_OUT.test(ss[i]!)) return undefined;
  for (let j = i + 1; j <= i + 2 && j < ss.length; j++) {
    const s = ss[j]!;
    if (isQuestion(s) || isVenting(s)) return undefined;
    if (!isInstr(s) && NAMES_CODE.test(s)) return j;
  }
  return undefined;
}

/**
 * A rule with no subject of its own: it opens with a modal and a copula ("Should be 8ABeB7.",
 * "Should be dimmer, look into the footer sources", "Doit être plus sombre", "Debe ser azul",
 * "Sollte dunkler sein"), its value is a pointer at what the agent just said ("dimGray should be
 * that"), or it answers the agent's change by keeping what was there ("no, the block should stay
 * as is", "non, le bloc reste tel quel", "nein, das bleibt so"). It says something only beside
 * the message it answers, so it is no standing rule.
 */
const NO_SUBJECT = /^(?:should(?:n't)?|must(?:n't)?|needs? to|has to|have to|ought to|doit|doivent|devrait|devraient|debe|deben|debería|deberían|tiene que|sollte|sollten|soll|muss|müsste)\s+(?:(?:not|pas|no|nicht|still|also|aussi|también|auch|\p{L}+ment|\p{L}+mente)\s+)?(?:be|stay|remain|look|être|rester|ser|estar|quedar|quedarse|sein|bleiben|\p{L}+(?:er|ig|isch)\s+(?:sein|bleiben))(?![\p{L}])/iu;
const POINTS_BACK = /\b(?:should|must|has to|needs? to)\s+(?:be|stay|look like)\s+(?:that|this|it|so|the same)\s*(?:[,.;!]|$)|(?<![\p{L}])(?:doit|devrait) (?:être|rester) (?:ça|cela|comme ça)(?![\p{L}])|(?<![\p{L}])(?:debe|debería) (?:ser|quedar) (?:eso|así)(?![\p{L}])|(?<![\p{L}])(?:soll|sollte) (?:das|so) (?:sein|bleiben)(?![\p{L}])/iu;
const KEEPS_AS_IS = /^(?:no|nope|non|nein|いいえ|아니(?:요)?)\b[\s,.!、]*.*?(?:\bas (?:it )?(?:is|was)\b|\blike before\b|\bunchanged\b|(?<![\p{L}])(?:tel quel|telle quelle|comme avant|como está|como estaba|como antes|wie vorher|wie es war|so bleiben|bleibt so)(?![\p{L}])|そのまま|그대로)/iu;

/** True when a rule sentence is understandable alone: it names its subject (see NO_SUBJECT). */
function standsAlone(s: string): boolean {
  const t = normalizeQuotes(s).replace(LEAD_FILLER, '').trim();
  return !NO_SUBJECT.test(t) && !POINTS_BACK.test(t) && !KEEPS_AS_IS.test(normalizeQuotes(s).trim());
}

/**
 * The user's lasting instructions in `text`, in state form: its rule sentences (a "Please also
 * port helper 3; never touch vendored code" keeps only the clause that lasts), with the
 * sentence after a rule in a short message when it says what the rule means ("No AI. Both
 * colors are played by the user."). Questions, venting, acknowledgements and what the user
 * pasted (a terminal or diff block) are left out.
 */
export function lastingInstructions(raw: string): string[] {
  const pasted = withoutPaste(raw);
  const text = pastedError(pasted) ? withoutLogLines(pasted) : pasted;
  const ss = splitSentences(text).map(stripMarker).map((s) => (isVenting(s) && isRuleSentence(withoutVenting(s)) ? withoutVenting(s) : s)).filter((s) => readLength(s) >= 8);
  const isInstr = (s: string) => isRuleSentence(s) && !isVenting(s) && standsAlone(s);
  const hits = ss.filter(isInstr);
  if (!hits.length) return [];
  // "Please also port helper 3; never touch vendored code." -> only the clause that lasts; so for
  // "split main.ts into cli/args.ts and keep the old main.ts for reference"
  const lasting = (s: string) => {
    const clauses = s.split(/;\s+|,?\s+(?:and|but|et|mais|y|pero|und|aber)\s+(?=(?:also\s+)?(?:keep|don't|do not|never|always|only|use|make sure|avoid|garde|ne|jamais|toujours|mantén|nunca|siempre|behalte|nie|immer)\b)/iu);
    const keep = clauses.filter(isInstr);
    return clauses.length > 1 && keep.length < clauses.length ? keep : [s];
  };
  const plain = (s: string) => !isQuestion(s) && !isVenting(s) && readLength(s) >= 12;
  // a short message of a few sentences: a rule with the plain sentence after it that explains it ("No AI. Both colors are played by the user.")
  if (readLength(text) <= 300 && ss.length <= 3 && ss.every((s) => lasting(s).length === 1 && lasting(s)[0] === s)) {
    // a rule that rules something out is followed by what replaces it, else by the sentence that explains it
    const replacement = new Map(ss.map((_, i) => [i, isInstr(ss[i]!) ? replacementAfter(ss, i, isInstr) : undefined] as const));
    const replaced = new Set([...replacement.values()].filter((r) => r !== undefined));
    const explains = (s: string, i: number) => i > 0 && isInstr(ss[i - 1]!) && replacement.get(i - 1) === undefined && plain(s) && !isPoliteRequest(s) && !/^(?:please|now|then|next|also)\b/i.test(s);
    const kept = ss.filter((s, i) => isInstr(s) || replaced.has(i) || explains(s, i));
    return [kept.map(stateForm).join(' ')];
  }
  // a rule that rules something out keeps what replaces it, said in the same message
  const taken = new Set<number>();
  const joined = ss.flatMap((s, i) => {
    if (!isInstr(s)) return [];
    const found = replacementAfter(ss, i, isInstr);
    const r = found !== undefined && !taken.has(found) ? found : undefined;
    if (r !== undefined) taken.add(r);
    return lasting(s).map((c, k, all) => (r !== undefined && k === all.length - 1 ? `${stateForm(c.replace(/^also\s+/i, ''))} ${stateForm(ss[r]!)}` : c));
  });
  return joined.filter((s) => s.length <= 600).map((s) => stateForm(s.replace(/^also\s+/i, '')));
}

// --- later rules replace earlier ones ------------------------------------------------

/** One rule with when it was said (a prior checkpoint's rules are older than the span's). */
export interface TimedRule {
  text: string;
  seq: number;
}

/**
 * True when `later` replaces `earlier`: the same subject, and either a change cue in the later
 * one ("instead", "actually", "from now on", "plutôt", "stattdessen", "じゃなくて", "대신") or a
 * restatement (most of the words shared: the same rule with another value or the other polarity).
 * Two rules that only share a verb ("never run npm run dev", "never run npm run build") stand
 * side by side.
 */
export function replaces(earlier: string, later: string): boolean {
  const x = contentTokens(earlier);
  const y = contentTokens(later);
  const { shared, ratio } = overlap(x, y);
  // the user saying what the value of the thing an earlier rule gave a value is ("81a2be is what
  // link text is" after "link text should be same as accent") gives it its value
  const named = valueSubject(later);
  // (a rule of several sentences loses only the sentence about it: latestRules)
  if (named && splitSentences(earlier).length === 1 && new RegExp(String.raw`(?<![\p{L}])${named.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\p{L}])[^.!?]{0,40}(?<![\p{L}])(?:is|are|should be|must be|same as|uses?|est|sont|doit être|comme|es|son|debe ser|igual que|ist|sind|soll|wie)(?![\p{L}])`, 'iu').test(normalizeQuotes(earlier).replace(/\s+/g, ' '))) return true;
  if (!sameSubject(earlier, later)) return false;
  // "the very first cooldown is 3 seconds instead" after "the cooldown is 10 seconds": a case of
  // it, the rule stands beside it
  if (narrows(earlier, later)) return false;
  if (REFINE_CUE.test(normalizeQuotes(later))) return true;
  // a rule that holds a value is not replaced by one that holds none and rules nothing out ("link
  // text and link url are different" after "81a2be is what link text is"): that one adds to it
  if (valuesOf(earlier).length && !valuesOf(later).length && !RULES_OUT.test(later)) return false;
  return ratio >= 0.8 && shared >= 2;
}

/** Sentences that only state a value, with the thing they name: the value first, or the thing first. */
const VALUE_FIRST = new RegExp(String.raw`^(?:${HEX_VALUE}|\d+(?:[.,:]\d+)?\s?${UNIT})\s+(?:is|are)\s+(?:what|how)\s+(?:the\s+)?([\p{L}][\p{L} -]{1,40}?)\s+(?:is|are|was|were|should be|looks?|uses?)\b`, 'iu');
const THING_FIRST = /^(?:the|a|an|our|my|le|la|les|l'|el|los|las|der|die|das)?\s*([\p{L}' -]{2,40}?)\s+(?:is|are|should be|must be|est|sont|doit être|es|son|debe ser|ist|sind|soll)\s/iu;

/** The thing (lowercase) a sentence of `rule` that only states a value gives a value to ("link text" for "81a2be is what link text is in md"), or undefined. */
function valueSubject(rule: string): string | undefined {
  for (const s of splitSentences(normalizeQuotes(rule))) {
    const t = s.trim();
    if (!SETS_VALUE.test(t)) continue;
    const m = VALUE_FIRST.exec(t) ?? THING_FIRST.exec(t);
    const thing = m?.[1]?.toLowerCase().replace(/\s+/g, ' ').trim();
    if (thing && thing.length >= 3) return thing;
  }
  return undefined;
}

/** Words of a Latin-script text, lowercase, in order. */
const wordsOf = (s: string) => [...normalizeQuotes(s).toLowerCase().matchAll(/[\p{L}][\p{L}'-]*/gu)].map((m) => m[0]);

/**
 * True when `later` is about a narrower case of what `earlier` is about: a subject word they
 * share comes in `later` after a qualifier `earlier` does not have ("the very first cooldown",
 * "le premier créneau", "der erste Dienst") while `earlier` says it bare ("the cooldown"). Latin
 * script only; Japanese and Korean are compared as before.
 */
function narrows(earlier: string, later: string): boolean {
  const a = wordsOf(earlier);
  const b = wordsOf(later);
  const ea = new Set(a);
  const ta = contentTokens(earlier);
  for (let i = 1; i < b.length; i++) {
    const w = b[i]!;
    const j = a.indexOf(w);
    if (j < 0 || !ta.has(w.replace(/s$/, '')) && !ta.has(w)) continue;
    const before = b[i - 1]!;
    // said bare: after a function word ("the cooldown"), not at the start, where nothing shows it
    const bareBefore = j > 0 && !contentTokens(a[j - 1]!).size;
    if (bareBefore && contentTokens(before).size > 0 && !ea.has(before)) return true;
  }
  return false;
}

/** What a changed rule is marked with: it says the rule changed, never the old value (the rule stands in its final form only). */
const CHANGED_MARK = ' (changed)';

/** `rule` marked as changed, before its final period (once). */
function markChanged(rule: string): string {
  if (rule.includes(CHANGED_MARK.trim())) return rule;
  const m = /[.!。！]$/.exec(rule);
  return m ? rule.slice(0, -1) + CHANGED_MARK + m[0] : rule + CHANGED_MARK;
}

/**
 * The phrase of a rule that names the value it replaces, in the languages of cues.ts: "not 10
 * seconds", "instead of 10 s", "rather than 7:00" (also "not 7 but 6:30"), "au lieu de 30
 * minutes", "en lugar de 5", "statt 2", "7 時じゃなくて", "11시 말고". Only a phrase holding a
 * number: "use pnpm, not npm" names what is ruled out, and stays.
 */
const OLD_VALUE = [
  /,?\s*\b(?:not|instead of|rather than|au lieu de|plutôt que|et non|en lugar de|en vez de|y no|statt|anstatt|und nicht|nicht)\s+(?:the\s+|le\s+|la\s+|les\s+|el\s+|los\s+|der\s+|die\s+|das\s+)?[^,.;:!?()]*?\d[^,.;:!?()]*?(?=\s+but\s|\s+mais\s|\s+sino\s|\s+sondern\s|[,.;:!?)]|$)(?:\s+(?:but|mais|sino|sondern)\b)?/giu,
  /\d+(?:[.,:]\d+)?\s?[^\s、,，。]*?(?:じゃなくて|ではなくて?|でなく)[、,，\s]*/gu,
  /\d+(?:[.,:]\d+)?\s?[^\s,.]*?\s*(?:말고|가 아니라|이 아니라|대신(?:에)?)[,\s]*/gu,
];

/** `rule` without the phrase that names the value it replaces ("The first cooldown is 3 s, not 10 s." -> "The first cooldown is 3 s."). */
export function finalForm(rule: string): string {
  let t = rule;
  for (const re of OLD_VALUE) {
    const next = t.replace(re, ' ');
    // the rule stays a rule: what is left still says something
    if (readLength(next.trim()) >= 12) t = next;
  }
  t = t.replace(/\s{2,}/g, ' ').replace(/\s+([.,;:!?。、])/g, '$1').trim();
  return t === rule.trim() ? rule : t.replace(/^\p{Ll}/u, (c) => c.toUpperCase());
}

/** True when `rule` names the value it replaces (it states a change by itself). */
function statesChange(rule: string): boolean {
  // spacing and the first letter's case are no change ("a ; b" in French typography)
  const plain = (t: string) => t.replace(/\s+([.,;:!?。、])/g, '$1').replace(/\s+/g, ' ').trim().toLowerCase();
  return plain(finalForm(rule)) !== plain(rule);
}

/**
 * Rules oldest first, each later rule replacing the earlier ones it restates; a rule that changed
 * (it replaced one, or it names the value it replaces) stands in its final form, marked as
 * changed. Returns the survivors, oldest first.
 */
export function latestRules<T extends TimedRule & { key?: string }>(rules: readonly T[], mark = true): T[] {
  const out: T[] = [];
  for (const r of [...rules].sort((a, b) => a.seq - b.seq)) {
    let text = r.text;
    // a correction stands as said: what is true, what the agent had claimed
    if (r.key?.startsWith('correction:')) {
      out.push(r);
      continue;
    }
    // a later rule that says nothing an earlier one does not ("Kein Zufall." after "Deterministisch:
    // kein Zufall; bei Gleichstand ...") is said already
    const words = contentTokens(text);
    const vals = valuesOf(text).map((v) => v.toLowerCase());
    const saidBefore = words.size > 0 && out.some((o) => {
      if (o.key?.startsWith('correction:')) return false;
      const ow = contentTokens(o.text);
      if (ow.size <= words.size || ![...words].every((w) => ow.has(w))) return false;
      const ov = new Set(valuesOf(o.text).map((v) => v.toLowerCase()));
      return vals.every((v) => ov.has(v));
    });
    if (saidBefore) continue;
    let changed = statesChange(text);
    for (let i = out.length - 1; i >= 0; i--) {
      if (out[i]!.key?.startsWith('correction:')) continue;
      if (replaces(out[i]!.text, text)) {
        changed = true;
        out.splice(i, 1);
        continue;
      }
      // a rule of several sentences loses the ones a sentence of the later rule replaces
      const parts = splitSentences(out[i]!.text);
      if (parts.length < 2) continue;
      const later = splitSentences(text);
      const left = parts.filter((p) => !later.some((l) => replaces(p, l)));
      if (left.length === parts.length) continue;
      changed = true;
      if (left.length) out[i] = { ...out[i]!, text: left.join(' ') };
      else out.splice(i, 1);
    }
    out.push({ ...r, text: changed && mark ? markChanged(finalForm(text)) : text });
  }
  return out;
}

// --- corrections and rejections ------------------------------------------------------

/** A negation, in the languages of cues.ts: a statement and its correction differ by one. */
const NEGATION = /\b(?:not|no|never|none|nothing|cannot)\b|n't\b|(?<![\p{L}])(?:ne|pas|jamais|nunca|nicht|nie|kein\p{L}*)(?![\p{L}])|ない|ません|않|없|못/iu;

/** The agent's last text before `u` (after the previous user message). */
function claimBefore(f: SpanFacts, u: Msg, prevUserSeq: number): Msg | undefined {
  return [...f.assistantTexts].reverse().find((a) => a.seq < u.seq && a.seq > prevUserSeq);
}

/** The pairs (old text, new text) an edit call replaced, read from the input fields the hosts use. */
function editPairs(c: CallFact): Array<{ path: string; from: string; to: string }> {
  const input = (c.call.input && typeof c.call.input === 'object' ? c.call.input : {}) as Record<string, unknown>;
  const path = c.info.paths[0];
  if (!path) return [];
  const pair = (o: Record<string, unknown>) => {
    const from = o.old_string ?? o.oldText ?? o.old_str ?? o.old_text ?? o.search;
    const to = o.new_string ?? o.newText ?? o.new_str ?? o.new_text ?? o.replace;
    return typeof from === 'string' && typeof to === 'string' ? { path, from, to } : undefined;
  };
  const edits = Array.isArray(input.edits) ? (input.edits as Array<Record<string, unknown>>) : [input];
  return edits.map((e) => (e && typeof e === 'object' ? pair(e) : undefined)).filter((p): p is { path: string; from: string; to: string } => !!p);
}

/** A git command that undoes changes (`git revert`, `git reset --hard`, `git checkout -- f`, `git restore f`, `git stash`). */
const GIT_UNDO = /\bgit (?:revert|reset --hard|checkout (?:HEAD )?-- |restore |stash(?:\s|$))/;

/** True when a call in `calls` undoes a change made in `before`: a git undo, or an edit that puts back the text an earlier edit replaced. */
function reverts(calls: readonly CallFact[], before: readonly CallFact[]): boolean {
  const made = before.filter((c) => !c.failed).flatMap(editPairs);
  return calls.some((c) => !c.failed && ((c.info.command && GIT_UNDO.test(c.info.command)) || editPairs(c).some((p) => made.some((m) => m.path === p.path && m.to.trim() === p.from.trim() && m.from.trim() === p.to.trim()))));
}

/** What the span's user messages did to the agent's work: the rejections of a change, the corrections of a claim. */
export interface UserVerdicts {
  /** A user message that rejected the change made just before it, with the files changed and the seq range of the rejected turn. */
  rejections: Array<{ msg: Msg; paths: string[]; turn: [number, number] }>;
  /** A correction of the agent's claim: what the user said is true, what the agent had said, whether the agent agreed. */
  corrections: Array<{ msg: Msg; truth: string; claim?: string; agreed: boolean }>;
}

/**
 * Read each user message by what surrounds it. A rejection: the user asks to undo ("undo that",
 * "annule", "元に戻して"), or the agent's reply admits a mistake and reverts the change made just
 * before (whatever the language). A correction: the agent's reply admits a mistake ("You're
 * right", "Vous avez raison", "申し訳", "맞습니다") about a claim it made, or the user
 * contradicts ("no, ...", "actually ...") a claim the agent made just before, naming what it is
 * about; no change of the agent's was undone.
 */
export function userVerdicts(f: SpanFacts, users: readonly Msg[]): UserVerdicts {
  const out: UserVerdicts = { rejections: [], corrections: [] };
  const seqs = f.userTexts.map((u) => u.seq);
  for (const u of users) {
    const text = normalizeQuotes(u.text);
    const prev = [...seqs].reverse().find((s) => s < u.seq) ?? -1;
    const next = seqs.find((s) => s > u.seq) ?? Infinity;
    // the agent admitting it, in any of its texts before the next user message (it may check first)
    const replies = f.assistantTexts.filter((a) => a.seq > u.seq && a.seq < next);
    const admitted = replies.some((a) => ADMIT_CUE.test(normalizeQuotes(splitSentences(a.text.slice(0, 400))[0] ?? '')));
    const undoCue = UNDO_CUE.test(text);
    const contradictCue = CONTRADICT_CUE.test(text);
    if (!undoCue && !admitted && !contradictCue) continue;
    const turnCalls = f.calls.filter((c) => c.seq > prev && c.seq < u.seq);
    const changed = [...new Set(turnCalls.filter((c) => modifiesFiles(c.info) && !c.failed).flatMap((c) => c.info.paths))];
    const after = f.calls.filter((c) => c.seq > u.seq && c.seq < next);
    if (undoCue || (changed.length > 0 && (admitted || contradictCue) && reverts(after, turnCalls))) {
      out.rejections.push({ msg: u, paths: changed, turn: [prev, u.seq] });
      continue;
    }
    const claimMsg = claimBefore(f, u, prev);
    // an answer to the agent's question is feedback on a proposal, not a correction of a claim
    if (!claimMsg || isQuestion(splitSentences(claimMsg.text.slice(-400)).pop() ?? '')) continue;
    const sentences = splitSentences(u.text).map(stripMarker).filter((s) => readLength(s) >= 8);
    // what it asserts: its plain sentences, less the rules (kept as rules) and a bare "No, you're wrong." (no fact in it)
    const said = sentences.filter((s) => !isVenting(s) && !isQuestion(s));
    // ... and less what frames the goal ("what I actually want is ..."): the Goal says it
    const facts = said.filter((s) => !isRuleSentence(s) && !bareContradiction(s) && !GOAL_CUE.test(normalizeQuotes(s)));
    // a correction asserts a fact: its plain sentences outnumber its questions
    if (!facts.length || said.length * 2 <= sentences.length) continue;
    if (!admitted && overlap(u.text, claimMsg.text).shared < 2) continue;
    // the claim it is about: a statement of the agent's, not the heading of a list of its changes ("Thinking level colors are now:")
    const claim = bestMatch(splitSentences(claimMsg.text).map(stripMarker).filter((s) => !isQuestion(s) && !/[:：]$/.test(s) && readLength(s) >= 12), u.text);
    if (!claim) continue;
    // it contradicts the claim ("no, ...", the other polarity, another value), not adds to it ("i think we need X too")
    const flips = NEGATION.test(normalizeQuotes(claim)) !== NEGATION.test(text);
    const otherValue = valuesOf(u.text).some((v) => !valuesOf(claim).some((w) => w.toLowerCase() === v.toLowerCase()));
    if (!contradictCue && !flips && !otherValue) continue;
    // the sentences that name something (a value, a path, a version) first: they are what a shortened item keeps
    const named = [...facts].sort((a, b) => Number(valuesOf(b).length > 0) - Number(valuesOf(a).length > 0));
    const truth = leadSentences(named.map(stateForm).join(' '), 240);
    out.corrections.push({ msg: u, truth, ...(claim ? { claim } : {}), agreed: admitted });
  }
  return out;
}

/** A sentence that only says the agent is wrong ("No, that's wrong.", "아니에요, 틀렸어요."): nothing left once the contradiction is taken away. */
function bareContradiction(s: string): boolean {
  const rest = normalizeQuotes(s).replace(CONTRADICT_CUE, '').replace(/\b(?:you(?:'re| are) wrong|that's (?:wrong|not (?:true|right))|wrong)\b|틀렸\p{L}*|아니\p{L}*|違い\p{L}*|違う|faux|falsch|falso/giu, '');
  return readLength(rest.replace(/[\s\p{P}]+/gu, '')) < 12 && !valuesOf(s).length;
}

/** The sentence of `candidates` sharing the most content with `text` (at least one content word), if any. */
function bestMatch(candidates: readonly string[], text: string): string | undefined {
  let best: { s: string; n: number } | undefined;
  const t = contentTokens(text);
  for (const s of candidates) {
    const n = overlap(contentTokens(s), t).shared;
    if (n >= 1 && (!best || n > best.n)) best = { s, n };
  }
  return best?.s;
}

/**
 * A correction as a Constraints item: what is now true, and what it corrects, by its subject (the
 * names and values it shares with the agent's claim) rather than by the claim's words: the
 * refuted claim is not restated, so a resumed agent does not repeat it.
 */
export function correctionItem(c: UserVerdicts['corrections'][number]): string {
  const about = c.claim ? subjectOf(c.claim, c.truth) : '';
  const wrong = c.claim ? ` (the agent was wrong${about ? ` about ${about}` : ''})` : '';
  return `Correction by the user${c.agreed ? ', agreed by the agent' : ''}: ${c.truth.replace(/[.。]$/, '')}${wrong}.`;
}

/** What a claim and its correction are both about: the names and values they share (backticked), else their shared words. */
function subjectOf(claim: string, truth: string): string {
  const tv = new Set(valuesOf(truth).map((v) => v.toLowerCase()));
  const names = [...new Set([...valuesOf(claim), ...(claim.match(/\b[\p{L}][\p{L}\p{N}]*[-_.][\p{L}\p{N}][\p{L}\p{N}._-]*|\b\p{Lu}[\p{L}]*\p{Lu}[\p{L}\p{N}]*/gu) ?? [])])].filter((v) => tv.has(v.toLowerCase()) || truth.toLowerCase().includes(v.toLowerCase()));
  if (names.length) return names.slice(0, 3).map((n) => (n.startsWith('`') ? n : `\`${n.replace(/^"|"$/g, '')}\``)).join(', ');
  // else the words of the claim (as written) that the correction shares
  const t = contentTokens(truth);
  const words = [...new Set(claim.match(/[\p{L}][\p{L}\p{N}'-]{3,}/gu) ?? [])].filter((w) => !CJK.test(w) && [...contentTokens(w)].some((k) => t.has(k)));
  return words.slice(0, 3).join(', ');
}
