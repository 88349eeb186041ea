import { CODE_TOKEN } from '../harvest/standing-clause.js';
import { ROLE } from '../harvest/standing-lexicon.js';
import { VENTING, hasValue } from '../harvest/harvest-rules.js';

/**
 * A sentence said in passing (README "Recall per prompt"): chit-chat, thanks, excitement, venting,
 * status chatter, the line that announces a sample ("Here's a markdown sample with various
 * elements:"). Such a sentence is never per-prompt evidence unless the prompt's specific words are in
 * it (evidence.ts decides that); this file only says what a sentence is, by its form first:
 *
 * - it is **unanchored**: no digit, no path, URL, file name, flag or identifier (standing-clause.ts
 *   `CODE_TOKEN`), no value a fact can hold (harvest-rules.ts `hasValue`), no name (a capitalized word
 *   inside a Latin-script sentence, but "I", a name the sentence addresses, "Thanks, Caroline!", and a
 *   noun of the work, German "Tests");
 * - it is **short**: at most {@link PASSING_MAX_WORDS} words (a character of a script written without
 *   spaces counting as half a word);
 * - and it carries a mark of a remark: an exclamation or a status report by the standing rules' words
 *   (standing-lexicon.ts `status`, every language there) in a sentence about what was just said or done
 *   ({@link ABOUT_THIS}; a status word in CJK text wherever it is); a colon ending the opening sentence
 *   of an agent's message (it announces what follows); venting (harvest-rules.ts `VENTING`); thanks or
 *   a greeting ({@link THANKS}); for the sentence that opens a prompt after the agent's answer, a
 *   reaction to it ({@link REACTION}: "that's it", "it works"); or it is in the opening paragraph of the
 *   agent's reply to a prompt that was all remarks, when more paragraphs follow (a reply to a reply:
 *   "Thanks. The structure was solid to begin with, just needed deduplication." before the next steps).
 *
 * An exclamation alone is no mark: "I just signed up for a pottery class!" tells a fact.
 *
 * Word lists are one mark among the structural ones; a sentence without any mark is not a remark,
 * whatever its words.
 */

/** Words a sentence said in passing has at most. */
const PASSING_MAX_WORDS = 12;

/** Thanks and greetings in the languages of the standing rules (one mark of a remark, never the only signal: the sentence must also be short and unanchored). */
const THANKS =
  /(?<![\p{L}])(?:thanks?|thank you|thx|ty|cheers|hi|hey|hello|bye|good (?:morning|night|evening)|danke|hallo|tschüss|merci|bonjour|salut|gracias|hola|grazie|ciao|obrigad[oa]|olá|bedankt|dank je|hoi)(?![\p{L}])|ありがと|こんにちは|谢谢|你好|감사|고마워|안녕/iu;

/** A reaction to what was just said, opening a reply to a reply: "that's it", "it works", "oh nice". English. */
const REACTION = /^(?:(?:oh|ah|ok(?:ay)?|yes|yeah|yep|no|nope|well|wow|haha|hmm+|omg|omfg|so)[,!.]*\s+)*(?:that'?s it|that is it|that was it|it works|that works|nice|cool|great|awesome|perfect|exactly)\b/i;

/**
 * A sentence about what was just said or done rather than about the world: its subject is a pointer
 * or everything ("That's all the markdown features tested!", "Everything should be working smoothly
 * now.", "Alles läuft."), or it has none and opens with its predicate ("Ready for the new release
 * whenever you are!", "All clean, all committed."). An exclamation or a status word marks a remark only
 * in such a sentence: "I finished my first marathon!" tells a fact.
 */
const ABOUT_THIS = /^(?:(?:oh|ah|wow|ok(?:ay)?|yes|yeah|so|well|and|but|now|haha|omg|great|perfect|nice)[,!.]*\s+)*(?:that|this|it|everything|all|here|there|these|those|alles|alle|das|es|tout|ça|c'est|todo|todos|esto|eso|tutto|tutti|questo|tudo|isso|dat|het|alle)(?![\p{L}])/iu;

const VENTED = new RegExp(VENTING.source, 'i');
// a script written without spaces: each of its characters counts as half a word
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/gu;
// a capitalized word after the first word of a Latin-script sentence: a name ("Ghostty", "Caroline"); "I", "I'm" are not
const NAME_INSIDE = /(?<=[\p{L}\p{N};)]\s+)(?!I\b|I'[a-z])\p{Lu}[\p{L}'-]*/gu;
// a name the sentence addresses ("Thanks, Caroline!", "Hey Mel,", "Wow, Caroline!"): no fact is named by it
const VOCATIVE = /(?:^|,\s*|(?<=^(?:hey|hi|hello|thanks|thank you|wow|oh|bye|congrats|dear)\s+))\p{Lu}[\p{Ll}'-]+(?=\s*(?:[!.?,]|$))/giu;

/** Words of `s`: Latin-script words, and half a word per character of an unspaced script. */
function wordCount(s: string): number {
  const cjk = (s.match(UNSPACED) ?? []).length;
  const latin = (s.replace(UNSPACED, ' ').match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).length;
  return latin + Math.ceil(cjk / 2);
}

/** True when `s` holds a number, a path, an identifier, a value or a name (module comment). */
function anchored(s: string): boolean {
  if (/\p{N}/u.test(s) || CODE_TOKEN.test(s) || hasValue(s)) return true;
  // a capitalized noun of the work ("Alle Tests sind grün.": German capitalizes every noun) names nothing
  const names = s.replace(/^[\s*_#>`"'(\[-]+/, '').replace(VOCATIVE, '').match(NAME_INSIDE) ?? [];
  return names.some((n) => !ROLE.work.test(n));
}

/** Where a sentence stands in its turn, for {@link inPassing}. */
export interface SentencePlace {
  /** It opens the turn. */
  first?: boolean;
  /** It is in the turn's first paragraph (line). */
  opening?: boolean;
  /** More paragraphs follow the first. */
  more?: boolean;
  /** The turn is the agent's (a reply). */
  agent?: boolean;
  /**
   * The turn replies to a reply: the user's prompt after the agent's answer, or the agent's reply to a
   * prompt that was all remarks ("jesus, everything works, you are a monster" -> "Thanks. The structure
   * was solid to begin with, just needed deduplication.").
   */
  reaction?: boolean;
}

/** True when `sentence` is said in passing (module comment). */
export function inPassing(sentence: string, place: SentencePlace = {}): boolean {
  const s = sentence.trim();
  if (!s || anchored(s)) return false;
  const n = wordCount(s);
  if (n > PASSING_MAX_WORDS) return false;
  const cjk = UNSPACED.test(s);
  UNSPACED.lastIndex = 0;
  // what the sentence is about: what was just said or done, or a word or two ("Wow!", "Perfect!")
  const aboutThis = n <= 3 || ABOUT_THIS.test(s) || startsWithStatus(s);
  if (/[!！]/.test(s) && aboutThis) return true;
  if (place.first && place.agent && /[:：]$/.test(s)) return true;
  if (VENTED.test(s) || THANKS.test(s)) return true;
  if (ROLE.status.test(s) && (aboutThis || cjk)) return true;
  // the agent answering a remark before what it says next: its opening paragraph answers in kind
  if (place.agent && place.reaction && place.opening && place.more) return true;
  return !!(place.first && place.reaction && REACTION.test(s));
}

/** True when a status word opens `s` (after an interjection or two): a predicate without its subject, "Ready for …", "All clean, …". */
function startsWithStatus(s: string): boolean {
  const m = ROLE.status.exec(s.replace(/^(?:[\p{L}]+[,!.]+\s+){0,2}/u, ''));
  return !!m && m.index === 0;
}

/** True when every sentence of `sentences` (a turn's, in order; `agent` for a reply) is said in passing. */
export function remarksOnly(sentences: readonly string[], agent: boolean): boolean {
  return sentences.length > 0 && sentences.every((x, i) => inPassing(x, { first: i === 0, opening: i === 0, agent }));
}

/** Where a turn's text is cut into sentences: after `.!?:` before whitespace, after the CJK full stops. */
export const SENTENCE_CUT = /(?<=[.!?:])\s+|(?<=[。！？])/;

/** The sentences of a turn's text outside fenced code blocks, each line split at {@link SENTENCE_CUT}, whitespace collapsed: what a turn's remarks are judged on (evidence.ts `withoutAsides` drops or keeps them). */
export function turnSentences(text: string): string[] {
  let fenced = false;
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const fence = /^\s*(?:```|~~~)/.test(line);
    if (fence) fenced = !fenced;
    if (fenced || fence) continue;
    out.push(...line.replace(/\s+/g, ' ').trim().split(SENTENCE_CUT).filter(Boolean));
  }
  return out;
}
