/**
 * What a statement is about, for telling when a later statement replaces an earlier one (a
 * rule restated with another value, a goal refined, a decision taken again): its content words
 * (stop words, numbers and quoted values left out), compared by overlap; and its values (numbers
 * with their unit, quoted or backticked text, paths), compared apart. Works in any language:
 * words are Unicode letter runs; Japanese and Korean runs are compared by character pairs
 * (bigrams), since neither separates words from particles.
 */
import { CJK, normalizeQuotes } from './cues.js';

/** Function words of the languages the checkpoint is tested on: never what a statement is about. */
const STOP = new Set(
  (
    // English
    'a an the and or but if then than so of to in on at by for with from into onto about as is are was were be been being am do does did done doing have has had having ' +
    'it its this that these those there here we you i me my mine our your he she they them their his her him us what which who whom whose when where why how all any each ' +
    'some no not only also very just too more most less least can could will would shall should may might must let lets please ok okay now still even yet again ' +
    "it's that's don't doesn't didn't isn't aren't won't can't i'm i'll i've you're we're let's one ones thing things way make sure really actually instead rather " +
    // French
    'le la les un une des du de d l au aux et ou mais donc car ni que qui quoi dont où ce cet cette ces se sa son ses leur leurs mon ma mes ton ta tes notre nos votre vos ' +
    'je tu il elle on nous vous ils elles me te lui y en ne pas plus est sont être été avoir a ai as ont fait faire pour par sur dans avec sans sous chez très aussi bien ' +
    "c'est n'est qu'il s'il d'un d'une l'on j'ai plutôt fait encore déjà " +
    // Spanish
    'el los las unos unas del al y o pero que quien cual cuyo donde como cuando porque es son ser fue era estar está están hay haber ha han he muy también ya aún ' +
    'por para con sin sobre entre hasta desde su sus mi mis tu tus nuestro nuestra lo le les se me te nos yo él ella ellos ellas usted eso esto esa ese esta este ' +
    // German
    'der die das den dem des ein eine einer eines einem einen und oder aber denn dass ob wenn als wie wo was wer ist sind war waren sein bin bist hat habe haben wird ' +
    'werden wurde kann können muss soll sollte bitte mit ohne für von vom zu zum zur auf aus bei nach über unter vor im ins am an es er sie wir ihr ich du mein dein ' +
    'sehr auch noch schon nur mal jetzt dann so nicht kein keine'
  ).split(/\s+/),
);

/** Units a number may carry ("10 seconds", "3 s", "200ms"; "10秒", "3초" with the particle that follows them). */
export const UNIT = String.raw`(?:(?:%|°|ms|s|sec|secs|seconds?|min|mins|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|px|em|rem|pt|kb|mb|gb|tb|k|x|times|tokens?|lines?|chars?|characters?|bytes?|items?|steps?|retries|attempts?|workers?|threads?|cores?|players?|levels?|fps|hz|degrees?|percent|secondes?|heures?|jours?|segundos?|minutos?|horas?|días?|sekunden?|minuten?|stunden?|tage?)(?![\p{L}])|秒|分|時間|日|回|個|件|초|분|시간|일|번|회|개)`;

/** A value in a statement: a number with its unit, quoted or backticked text, a path. A number may follow Japanese or Korean text directly ("必ず10秒"), never a Latin letter ("WP14"). */
const VALUE = new RegExp(String.raw`\x60[^\x60]+\x60|"[^"]{1,80}"|«[^»]{1,80}»|„[^"“]{1,80}["“]|「[^」]{1,80}」|(?<![\p{Script=Latin}\p{N}_.])\d+(?:[.,]\d+)?(?:\s?${UNIT})?|(?:[\w.-]+\/)+[\w.-]+`, 'giu');

/** The values of `s` (numbers with their unit, quoted text, paths), whitespace collapsed, in order. */
export function valuesOf(s: string): string[] {
  return [...normalizeQuotes(s).matchAll(VALUE)].map((m) => m[0].replace(/\s+/g, ' ').trim());
}

/** Words that only say a statement changes another ("instead", "now", "actually"): not its subject. */
const CHANGE_WORDS = new Set(['instead', 'actually', 'rather', 'now', 'anymore', 'longer', 'change', 'changed', 'plutôt', 'finalement', 'désormais', 'mejor', 'ahora', 'eigentlich', 'stattdessen', 'lieber', 'jetzt']);

/**
 * The content tokens of `s`: lowercase words of at least two letters (a short word is kept when
 * it is an all-caps name like "AI"), stop words and numbers left out; a Japanese or Korean run
 * gives its character bigrams (a bigram of hiragana only is grammar, left out).
 */
export function contentTokens(s: string): Set<string> {
  const hit = TOKEN_CACHE.get(s);
  if (hit) return hit;
  if (TOKEN_CACHE.size >= TOKEN_CACHE_SIZE) TOKEN_CACHE.clear();
  const out = tokenize(s);
  TOKEN_CACHE.set(s, out);
  return out;
}

/** Texts tokenized at most (a checkpoint compares the same messages many times). */
const TOKEN_CACHE_SIZE = 4096;
const TOKEN_CACHE = new Map<string, Set<string>>();

function tokenize(s: string): Set<string> {
  const out = new Set<string>();
  const t = normalizeQuotes(s).replace(/`[^`]*`/g, (m) => ` ${m.slice(1, -1)} `);
  // a run mixing scripts ("DM으로도", "pygame으로") is its Latin word and its Japanese or Korean part
  const runs = [...t.matchAll(/[\p{L}\p{M}][\p{L}\p{M}\p{N}_'-]*/gu)].flatMap((m) => m[0].match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+/gu) ?? []);
  for (const w of runs) {
    if (CJK.test(w)) {
      const chars = [...w].filter((c) => CJK.test(c));
      if (chars.length === 1) out.add(chars[0]!);
      for (let i = 0; i + 1 < chars.length; i++) {
        const bi = chars[i]! + chars[i + 1]!;
        if (!/^\p{Script=Hiragana}+$/u.test(bi)) out.add(bi);
      }
      continue;
    }
    const lw = w.toLowerCase().replace(/^'+|'+$/g, '');
    if (lw.length < 2 && !/^[A-Z]{2,}$/.test(w)) continue;
    if (STOP.has(lw) || CHANGE_WORDS.has(lw)) continue;
    out.add(stem(lw));
  }
  return out;
}

/** A light stem: plural and common verb endings removed, so "tests" and "test", "colors" and "color" match. */
function stem(w: string): string {
  if (w.length > 5 && /(?:ing|ed)$/.test(w)) return w.replace(/(?:ing|ed)$/, '');
  if (w.length > 3 && /[^s]s$/.test(w)) return w.slice(0, -1);
  return w;
}

/** Shared content tokens of two statements and the overlap coefficient (shared / the smaller set). */
export function overlap(a: string | Set<string>, b: string | Set<string>): { shared: number; ratio: number } {
  const x = typeof a === 'string' ? contentTokens(a) : a;
  const y = typeof b === 'string' ? contentTokens(b) : b;
  let shared = 0;
  for (const t of x) if (y.has(t)) shared++;
  const min = Math.min(x.size, y.size);
  return { shared, ratio: min ? shared / min : 0 };
}

/**
 * True when `later` is about the same thing as `earlier`: at least half of the smaller one's
 * content tokens shared, and at least two of them (one when either has only one or two).
 */
export function sameSubject(earlier: string, later: string): boolean {
  const x = contentTokens(earlier);
  const y = contentTokens(later);
  const { shared, ratio } = overlap(x, y);
  const need = Math.min(x.size, y.size) <= 2 ? 1 : 2;
  return shared >= need && ratio >= 0.5;
}

/** The values `earlier` had that `later` no longer has ("10 seconds" when a rule went from 10 to 3 seconds). */
export function changedValues(earlier: string, later: string): string[] {
  const now = new Set(valuesOf(later).map((v) => v.toLowerCase()));
  return [...new Set(valuesOf(earlier))].filter((v) => !now.has(v.toLowerCase()));
}
