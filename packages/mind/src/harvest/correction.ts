/**
 * A correction: a standing fact that states a new value for a subject an older fact gave another
 * value for ("The admin dashboard now runs on port 7200, not 7142 any more", "We moved off esbuild;
 * the bundler is now Vite", "Le tableau de bord tourne désormais sur le port 7200, plus sur 7142",
 * "Wir bauen jetzt mit Vite statt esbuild"). Pure functions over one frame's text; the store
 * (store/save.ts) uses them to find the live frame a new one supersedes.
 *
 * Structure first: what the sentence names as the old value (the X of "not X", "off X", "from X to",
 * "instead of X", "replaced X with", "statt X", "au lieu de X", "von X auf"), the values it states (a
 * number, a version, a path, a name), its subject words (what is left once function words, values and
 * the correction's own words are taken out). The marker words ("now", "instead", "no longer",
 * "jetzt", "nicht mehr", "désormais", "ne … plus") are one signal: with none of them and no old value
 * named, a sentence is no correction.
 */
import { STOP_WORDS } from '../recall/stop-words.js';

/** What a correction says: the old value it names (lower case tokens, maybe none), its subject words and values (lower case). */
export interface Correction {
  /** Tokens of the value the sentence says no longer holds ("7142", "esbuild"); empty when only a marker says it is new. */
  old: string[];
  /** Content words naming what the value is of ("admin", "dashboard", "port", "bundler"). */
  subject: string[];
  /** Values the sentence states (numbers, versions, paths, names), old ones included. */
  values: string[];
  /**
   * Whether the sentence says the value changed over time ("not X any more", "moved off X",
   * "switched from X", "replaced X with", "nicht mehr", "von X auf … umgestellt", "passé de X à"), or
   * contrasts a named value (a number, a version, a name with a capital) beside a marker ("now … instead
   * of 7142", "jetzt … statt 7142"): a plain contrast ("the closure captures the binding, not the value")
   * says no change.
   */
  changed: boolean;
}

/** One token of a value: a word, a number, a version, a path, a URL, a host:port. */
const TOKEN = String.raw`[\p{L}\p{N}_][\p{L}\p{N}_.:/@+#-]*`;
/** An article or a "port"/"version" word before the value: skipped when the old value is read. */
const LEAD = String.raw`(?:(?:the|a|an|our|le|la|les|l'|du|des|de|der|die|das|dem|den|einem|einer|port|version|v)\s+)*`;

/**
 * Forms naming the old value, in the languages the hooks see most (English, French, German), each
 * with whether it says a change over time (see {@link Correction.changed}); the first group is the
 * old value. Built on the first correction looked for: parsing their Unicode classes is a cost a hook
 * that saves nothing (SessionStart) should not pay.
 */
let oldValueForms: Array<[RegExp, boolean]> | undefined;
const oldValue = (): Array<[RegExp, boolean]> => (oldValueForms ??= [
  // English
  [new RegExp(String.raw`\bnot\s+(?:on\s+|at\s+|in\s+|from\s+|with\s+)?${LEAD}(${TOKEN})\s+any\s?more\b`, 'iu'), true],
  [new RegExp(String.raw`(?:[,;(—–-]\s*|\band\s+)not\s+(?:on\s+|at\s+|in\s+|with\s+|from\s+)?${LEAD}(${TOKEN})(?=\s*(?:[.,;:!)]|$|any))`, 'iu'), false],
  [new RegExp(String.raw`\b(?:no longer|not)\s+(?:uses?|runs? on|on|at|in|with)\s+${LEAD}(${TOKEN})`, 'iu'), false],
  [new RegExp(String.raw`\binstead of\s+${LEAD}(${TOKEN})`, 'iu'), false],
  [new RegExp(String.raw`\b(?:rather than|in place of)\s+${LEAD}(${TOKEN})`, 'iu'), false],
  [new RegExp(String.raw`\b(?:moved|moving|migrated|migrating|switched|switching|changed|changing|went|gone|upgraded|downgraded|ported|dropped)\s+(?:\S+\s+){0,3}?(?:away\s+from|off(?:\s+of)?|from)\s+${LEAD}(${TOKEN})`, 'iu'), true],
  [new RegExp(String.raw`\b(?:replaced|replacing|swapped|swapping)\s+${LEAD}(${TOKEN})\s+(?:with|by|for)\b`, 'iu'), true],
  [new RegExp(String.raw`\b(?:dropped|ditched|abandoned|removed)\s+${LEAD}(${TOKEN})\s+(?:for|in favou?r of)\b`, 'iu'), true],
  // French
  [new RegExp(String.raw`\b(?:au lieu d[e']|plutôt que(?: de)?|à la place d[e'])\s*${LEAD}(${TOKEN})`, 'iu'), false],
  [new RegExp(String.raw`\b(?:plus|non|pas)\s+(?:sur|sous|avec|en|à|de)\s+${LEAD}(${TOKEN})(?=\s*(?:[.,;:!)]|$))`, 'iu'), false],
  [new RegExp(String.raw`\b(?:passée?s?|migrée?s?|basculée?s?)\s+(?:\S+\s+){0,2}?d[e']\s*${LEAD}(${TOKEN})\s+(?:à|vers|sur)(?![\p{L}])`, 'iu'), true],
  [new RegExp(String.raw`\b(?:remplacée?s?)\s+${LEAD}(${TOKEN})\s+par\b`, 'iu'), true],
  [new RegExp(String.raw`\b(?:quitté|abandonné|lâché)\s+${LEAD}(${TOKEN})`, 'iu'), true],
  // German
  [new RegExp(String.raw`\b(?:statt|anstatt|anstelle von|anstelle)\s+${LEAD}(${TOKEN})`, 'iu'), false],
  [new RegExp(String.raw`\bnicht\s+mehr\s+(?:auf|mit|in|an|bei|unter)\s+${LEAD}(${TOKEN})`, 'iu'), true],
  [new RegExp(String.raw`[,;]\s*nicht\s+(?:mehr\s+)?(?:auf|mit|in|an|bei|unter)?\s*${LEAD}(${TOKEN})(?=\s*(?:[.,;:!)]|$))`, 'iu'), false],
  [new RegExp(String.raw`\bvon\s+${LEAD}(${TOKEN})\s+(?:auf|zu|nach)\s+\S+(?:\s+\S+){0,3}?\s+(?:umgestellt|umgestiegen|gewechselt|migriert|umgezogen|aktualisiert|geändert)`, 'iu'), true],
  [new RegExp(String.raw`\b${LEAD}(${TOKEN})\s+(?:durch|gegen)\s+\S+(?:\s+\S+){0,2}?\s+(?:ersetzt|ausgetauscht|getauscht)`, 'iu'), true],
]);

/** Words that say a value is new without naming the old one. */
const MARKER = /(?<![\p{L}])(?:now|no longer|instead|any ?more|from now on|these days|désormais|maintenant|dorénavant|à présent|ne\s+\S+\s+plus|jetzt|nun|ab sofort|nicht mehr|mittlerweile|inzwischen|neuerdings|stattdessen)(?![\p{L}])/iu;

/** The marker words that say a time ("now", "jetzt", "désormais"; not "instead"): a contrast beside one of them is a change. */
const TIME_MARKER = /(?<![\p{L}])(?:now|no longer|any ?more|from now on|these days|désormais|maintenant|dorénavant|à présent|ne\s+\S+\s+plus|jetzt|nun|ab sofort|nicht mehr|mittlerweile|inzwischen|neuerdings)(?![\p{L}])/iu;

/** The correction's own words, never subject words. */
const OWN_WORDS = new Set(
  `now no longer instead any anymore more rather place moved moving migrated migrating switched switching changed changing went gone upgraded
   downgraded ported dropped replaced replacing swapped swapping ditched abandoned removed away favour favor use uses using used days
   désormais maintenant dorénavant présent lieu plutôt passé passée migré migrée basculé remplacé remplacée quitté abandonné lâché non
   jetzt nun sofort mehr mittlerweile inzwischen neuerdings stattdessen statt anstatt anstelle umgestellt gewechselt migriert umgezogen
   aktualisiert geändert umgestiegen ersetzt ausgetauscht getauscht
   runs run running is are was were be been will going set`.split(/\s+/),
);

/** A value token: has a digit, a path or URL, a dot inside, a capital after the first letter, or is a quoted/backticked name. */
const VALUE_TOKEN = /\d|[/:@]|\.\w|^\p{Lu}|\p{Ll}\p{Lu}/u;

function tokensOf(s: string): string[] {
  return s.match(new RegExp(TOKEN, 'gu'))?.map((t) => t.replace(/[.:,-]+$/, '')) ?? [];
}

/** The values a text states (lower case): numbers, versions, paths, URLs, names written with a capital inside the sentence. */
function valuesOf(text: string): string[] {
  const out = new Set<string>();
  for (const sentence of text.split(/(?<=[.!?;])\s+/)) {
    tokensOf(sentence).forEach((t, i) => {
      if (!t) return;
      const low = t.toLowerCase();
      if (STOP_WORDS.has(low) || OWN_WORDS.has(low)) return;
      // a capital on the sentence's first word is the sentence's, not a name
      if (/\d|[/:@]|\.\w|\p{Ll}\p{Lu}/u.test(t) || (i > 0 && /^\p{Lu}/u.test(t))) out.add(low);
    });
  }
  return [...out];
}

/**
 * The subject words of a text (lower case, three letters or more, stemmed): its content words
 * without function words, the correction's own words, numbers, paths and the tokens in `exclude`
 * (the old values). A name is a subject word too ("the Billing-Datenbank", German nouns are capitalized).
 */
function subjectWordsOf(text: string, exclude: readonly string[] = []): string[] {
  const skip = new Set(exclude);
  const out = new Set<string>();
  for (const t of tokensOf(text)) {
    if (/\d|[/:@]|\.\w/u.test(t) || skip.has(t.toLowerCase())) continue;
    for (const part of t.toLowerCase().split(/[-_+#]+/)) {
      if (part.length < 3 || STOP_WORDS.has(part) || OWN_WORDS.has(part) || skip.has(part)) continue;
      out.add(stem(part));
    }
  }
  return [...out];
}

/** A crude stem shared by the forms a subject word takes ("runs"/"run", "dashboards"/"dashboard"). */
function stem(w: string): string {
  return w.length > 4 ? w.replace(/(?:ies|es|s)$/u, '') : w;
}

/**
 * The correction a frame's text states, or undefined when it states none: an old value named by one
 * of the forms above, or a marker word ("now", "jetzt", "désormais" …) beside a value. A question
 * is no correction.
 */
export function correctionOf(text: string): Correction | undefined {
  const t = text.replace(/[`*_"“”„«»]/g, ' ').replace(/\s+/g, ' ').trim();
  if (!t || /[?？]\s*$/.test(t)) return undefined;
  const old = new Set<string>();
  const marker = MARKER.test(t);
  const time = TIME_MARKER.test(t);
  let changed = false;
  for (const [re, temporal] of oldValue()) {
    const m = re.exec(t);
    const raw = m?.[1]?.replace(/[.:,;-]+$/, '');
    const v = raw?.toLowerCase();
    if (!raw || !v || v.length < 2 || STOP_WORDS.has(v) || OWN_WORDS.has(v)) continue;
    old.add(v);
    changed ||= temporal || (time && VALUE_TOKEN.test(raw));
  }
  const values = [...new Set([...valuesOf(t), ...old])];
  if (old.size === 0 && (!marker || values.length === 0)) return undefined;
  return { old: [...old], subject: subjectWordsOf(t, [...old]), values, changed };
}

/** Whether a whole token `v` (lower case) is in `text`. */
function hasToken(text: string, v: string): boolean {
  const esc = v.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${esc}(?![\\p{L}\\p{N}_])`, 'iu').test(text);
}

/**
 * Whether `older` (a live frame's content) is what correction `c` (of the newer frame `newer`)
 * replaces: it names the old value and shares a subject word with the correction (or is a choice,
 * `decision`, naming the old value); or, with no old value named, it shares at least two subject
 * words and half of the correction's, and states a value of its own the correction does not.
 * A frame saying the same as the correction (all its values are the correction's) is not replaced.
 */
export function replaces(c: Correction, older: string, olderKind: string, newer: string): boolean {
  if (older.trim() === newer.trim()) return false;
  const theirs = subjectWordsOf(older);
  const shared = c.subject.filter((w) => theirs.includes(w)).length;
  const named = c.old.filter((v) => hasToken(older, v));
  if (named.length > 0) {
    // the older frame already says the new value is the one in use: it is the same fact
    const fresh = c.values.filter((v) => !c.old.includes(v));
    if (fresh.length > 0 && fresh.every((v) => hasToken(older, v)) && !correctionOf(older)?.old.some((v) => fresh.includes(v))) return false;
    return shared >= 1 || olderKind === 'decision';
  }
  if (shared < 2 || shared * 2 < c.subject.length) return false;
  const olderValues = valuesOf(older);
  return olderValues.length > 0 && olderValues.some((v) => !c.values.includes(v));
}
