/**
 * An agent's reply that only agrees to what the user just said ("Noted, I will write commit messages
 * that way.", "D'accord, c'est noté.", "Verstanden, mache ich so."): no memory of its own. The user's
 * statement before it is the memory (the prompt's standing frame, the prompt's turn); the reply
 * borrowed its words.
 *
 * Read by structure first: who said it (the agent, right after the user), what precedes it (a prompt
 * that gives a standing frame by the prompt rules, read with this reply), what it holds of its own (at
 * most {@link ACK_MAX_SENTENCES} sentences and {@link ACK_MAX_CHARS} characters, no name, number or path
 * the prompt does not hold); the agreement opening it ({@link AGREEMENT}: English, French, German,
 * Spanish, Italian, Portuguese, Dutch, Japanese, Chinese, Korean) or the lexicon's acknowledgement of a
 * lasting rule is one signal among them. Not covered: an agreement that names something new without a
 * digit, a path or a code-like token ("OK, I'll use Vitest then." after "the tests are slow" is read as
 * an acknowledgement only if that prompt gives a standing frame).
 */
import { plain } from './harvest-rules.js';
import { promptStanding } from './standing-prompt.js';
import { acknowledgesRule } from './standing-reply.js';

/** Sentences an acknowledgement holds at most. */
const ACK_MAX_SENTENCES = 2;
/** Characters an acknowledgement holds at most. */
const ACK_MAX_CHARS = 300;

/** An agreement opening a reply, followed by punctuation, a dash or the end (not "OK so the cause was …" read as a finding: the other rules decide that). */
const AGREEMENT = new RegExp(
  `^(?:${[
    // en
    'noted', 'got it', 'understood', 'sure', 'ok(?:ay)?', 'alright', 'all right', 'will do', 'of course', 'absolutely', 'perfect', 'great', 'makes sense', 'sounds good', 'roger', 'certainly', 'agreed',
    // fr
    "d'accord", 'compris', 'entendu', "c'est noté", 'noté', 'très bien', 'parfait', 'bien reçu', 'ça marche', 'pas de souci',
    // de
    'verstanden', 'alles klar', 'notiert', 'in ordnung', 'einverstanden', 'geht klar', 'gut', 'mache ich', 'wird gemacht', 'jawohl', 'klar',
    // es, it, pt, nl
    'entendido', 'de acuerdo', 'vale', 'anotado', 'perfecto', 'capito', "d'accordo", 'va bene', 'ricevuto', 'combinado', 'certo', 'begrepen', 'genoteerd', 'prima', 'duidelijk',
    // ja, zh, ko
    '承知しました', '承知いたしました', 'かしこまりました', '了解(?:です|しました)?', 'わかりました', '分かりました', '好的', '明白了?', '收到', '知道了', '알겠습니다', '네', '확인했습니다',
  ].join('|')})(?=$|[\\s,.!:;—–\\-、。！，：])`,
  'iu',
);

/** Names, numbers and paths of a text: a token with a digit, a slash, a dot inside, a backtick, an underscore or an inner capital. */
function namesOf(text: string): string[] {
  return (text.match(/`[^`]+`|[\p{L}\p{N}_./:@-]*(?:\d|[./:_@](?=[\p{L}\p{N}])|\p{Ll}\p{Lu})[\p{L}\p{N}_./:@-]*/gu) ?? []).map((t) => t.replace(/^[`.:/-]+|[`.:/-]+$/g, '').toLowerCase()).filter((t) => t.length > 0);
}

const flat = (text: string) => plain(text).replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim();

/**
 * True when `reply` has the shape of an acknowledgement whatever came before it: at most
 * {@link ACK_MAX_SENTENCES} sentences and {@link ACK_MAX_CHARS} characters, opening with an agreement or
 * acknowledging a lasting rule. Cheap: a hook reads the turn's prompt (the transcript) only then.
 */
export function mayAcknowledge(reply: string): boolean {
  const r = flat(reply.slice(0, ACK_MAX_CHARS * 4));
  if (!r || r.length > ACK_MAX_CHARS) return false;
  if (r.split(/(?<=[.!?。！？])\s*/).filter(Boolean).length > ACK_MAX_SENTENCES) return false;
  return AGREEMENT.test(r) || acknowledgesRule(r);
}

/**
 * True when `reply`, the agent's answer to `prompt`, only agrees to it (module comment): short, opening
 * with an agreement or acknowledging a lasting rule, naming nothing the prompt does not name (so
 * what it establishes is the prompt's), after a prompt that gives a standing frame. Pure; any input.
 */
export function acknowledgesOnly(reply: string, prompt: string): boolean {
  if (!mayAcknowledge(reply) || !prompt.trim()) return false;
  const r = flat(reply);
  const said = plain(prompt).replace(/[’‘]/g, "'").toLowerCase();
  if (namesOf(r).some((n) => !said.includes(n))) return false;
  return promptStanding(prompt, { reply }).length > 0;
}
