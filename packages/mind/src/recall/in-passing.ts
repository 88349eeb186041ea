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
 * - and it carries a mark of a remark: an exclamation; a colon ending the opening sentence of an
 *   agent's message (it announces what follows); venting (harvest-rules.ts `VENTING`); a status
 *   report or thanks by the standing rules' words (standing-lexicon.ts `status`, every language
 *   there) or {@link THANKS}; or, for the sentence that opens a prompt after the agent's answer, a
 *   reaction to what was just said ({@link REACTION}: "that's it", "it works"); or it is in the opening
 *   paragraph of the agent's reply to a prompt that was all remarks (a reply to a reply).
 *
 * Word lists are one mark among the structural ones; a sentence without any mark is not a remark,
 * whatever its words.
 */

/** Words a sentence said in passing has at most. */
export const PASSING_MAX_WORDS = 12;

/** Thanks and greetings in the languages of the standing rules (one mark of a remark, never the only signal: the sentence must also be short and unanchored). */
const THANKS =
  /(?<![\p{L}])(?:thanks?|thank you|thx|ty|cheers|hi|hey|hello|bye|good (?:morning|night|evening)|danke|hallo|tschüss|merci|bonjour|salut|gracias|hola|grazie|ciao|obrigad[oa]|olá|bedankt|dank je|hoi)(?![\p{L}])|ありがと|こんにちは|谢谢|你好|감사|고마워|안녕/iu;

/** A reaction to what was just said, opening a reply to a reply: "that's it", "this is great", "it works", "oh nice". English. */
const REACTION = /^(?:(?:oh|ah|ok(?:ay)?|yes|yeah|yep|no|nope|well|wow|haha|hmm+|omg|omfg|so)[,!.]*\s+)*(?:that'?s|that is|this is|it'?s|it is|that was|it was|it works|nice|cool|great|awesome|perfect|exactly|right)\b/i;

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
export function anchored(s: string): boolean {
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
  if (!s || anchored(s) || wordCount(s) > PASSING_MAX_WORDS) return false;
  if (/[!！]/.test(s)) return true;
  if (place.first && place.agent && /[:：]$/.test(s)) return true;
  if (VENTED.test(s) || THANKS.test(s) || ROLE.status.test(s)) return true;
  // the agent answering a remark: its opening paragraph answers in kind
  if (place.agent && place.reaction && place.opening) return true;
  return !!(place.first && place.reaction && REACTION.test(s));
}

/** True when every sentence of `sentences` (a turn's, in order; `agent` for a reply) is said in passing. */
export function remarksOnly(sentences: readonly string[], agent: boolean): boolean {
  return sentences.length > 0 && sentences.every((x, i) => inPassing(x, { first: i === 0, opening: i === 0, agent }));
}
