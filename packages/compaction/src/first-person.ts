/**
 * A decision the agent wrote in the first person ("I'll use an enum", "je vais utiliser SQLite",
 * "voy a usar pnpm") said as the decision itself ("Use an enum", "Utiliser SQLite", "Usar pnpm"):
 * the resumed agent reads state, not who said what. A clause before it ("In Rust, ...") stays;
 * a sentence in no form below is returned as it is.
 */

/** [first-person lead, what replaces it] in the languages of cues.ts; the lead's lookahead keeps the verb. */
const FORMS: Array<[RegExp, string]> = [
  // English: "I'll use", "I will go with", "we'll keep", "I'm going to switch to"
  [/^(?:i|we)(?:'ll| will| am going to|'m going to| are going to|'re going to) (?=(?:use|go with|keep|switch to|stick with|store|add|put|run|make)\b)/i, ''],
  // "I decided to", "I've decided to", "we chose to", "I opted to"
  [/^(?:i|we)(?:'ve| have)? (?:decided|chosen|chose|opted) to (?=\p{L})/iu, ''],
  // "I chose X", "I opted for X", "we went with X"
  [/^(?:i|we) (?:chose|picked|opted for|went with) /i, 'Chosen: '],
  // French: "je vais utiliser", "on va garder", "nous allons passer à", "j'utiliserai", "j'ai décidé de"
  [/^(?:je vais|on va|nous allons) (?=(?:utiliser|garder|passer à|ajouter|mettre)(?![\p{L}]))/iu, ''],
  [/^j'utiliserai /iu, 'Utiliser '],
  [/^j'ai (?:décidé|choisi) (?:de |d')(?=\p{L})/iu, ''],
  // Spanish: "voy a usar", "vamos a mantener", "usaré", "usaremos", "he decidido", "decidí"
  [/^(?:voy|vamos) a (?=(?:usar|mantener|guardar|añadir|poner|cambiar a)(?![\p{L}]))/iu, ''],
  [/^usar(?:é|emos) /iu, 'Usar '],
];

/** `s` as the decision it states (see the module comment). */
export function asDecision(s: string): string {
  // a leading clause ("In Rust, ", "Pour le cache, ") stays in front of the rewritten part
  const lead = /^([^,;:.!?]{2,40},\s+)?(.*)$/su.exec(s)!;
  const clause = lead[1] ?? '';
  const rest = lead[2] ?? s;
  for (const [re, to] of FORMS) {
    const m = re.exec(rest);
    if (!m) continue;
    const said = (to + rest.slice(m[0].length)).replace(/!+$/, '.');
    return clause + (clause ? said : said.charAt(0).toUpperCase() + said.slice(1));
  }
  return s;
}
