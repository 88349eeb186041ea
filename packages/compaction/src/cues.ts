/**
 * Words that hint at what a message does, in the languages the checkpoint is tested on
 * (English, French, Spanish, German, Japanese, Korean). They are one signal among others: the
 * checkpoint reads a message first by its structure (who said it, what the agent did next: an
 * apology, a revert, a rerun that passed; a question mark; a number, a path or a name in it),
 * and a cue only confirms or orients that reading. A language with no cue here still gets the
 * structural reading.
 *
 * Latin-script cues match at word boundaries (Unicode letters); Japanese and Korean cues match
 * anywhere, since neither writes spaces between a word and its particle. Text is compared after
 * {@link normalizeQuotes} (typographic apostrophes as `'`; backticks stay: they mark code).
 */

const WORD = '\\p{L}\\p{N}_';

/** A word cue: matches at word boundaries (Unicode letters); `test` like a RegExp's. */
export interface Cue {
  test(s: string): boolean;
}

const WORD_CHAR = new RegExp(`[${WORD}]`, 'u');

/**
 * A cue: `words` (regex fragments) at word boundaries, `cjk` (regex fragments) anywhere.
 * Case-insensitive. The boundary before a word is checked after a match, not by a lookbehind:
 * a pattern that opens with its words lets the regex engine skip ahead, which matters when a
 * checkpoint tests thousands of sentences.
 */
function cue(words: readonly string[], cjk: readonly string[] = []): Cue {
  const latin = words.length ? new RegExp(`(?:${words.join('|')})(?![${WORD}])`, 'giu') : undefined;
  const other = cjk.length ? new RegExp(`(?:${cjk.join('|')})`, 'u') : undefined;
  return {
    test(s: string): boolean {
      if (other?.test(s)) return true;
      if (!latin) return false;
      latin.lastIndex = 0;
      for (let m = latin.exec(s); m; m = latin.exec(s)) {
        if (m.index === 0 || !WORD_CHAR.test(s[m.index - 1]!)) return true;
        latin.lastIndex = m.index + 1;
      }
      return false;
    },
  };
}

/**
 * A cue anchored at the start of a sentence (after list markers and spaces); a Japanese or Korean
 * cue may follow a few words (an addressee, "서연님 말씀이 맞습니다").
 */
function opening(words: readonly string[], cjk: readonly string[] = []): RegExp {
  const parts: string[] = [];
  if (words.length) parts.push(`^\\s*(?:${words.join('|')})(?![${WORD}])`);
  if (cjk.length) parts.push(`^\\s*[^。.!?！？\\n]{0,12}?(?:${cjk.join('|')})`);
  return new RegExp(parts.join('|'), 'iu');
}

/** Typographic apostrophes as ASCII, so one cue list serves every keyboard. */
export function normalizeQuotes(s: string): string {
  return s.replace(/[’‘´]/g, "'");
}

/** Japanese (kana, kanji) or Korean (hangul) text: sentences need no space after their mark, words no spaces between them. */
export const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** How long a text reads, in Latin-letter equivalents: a Japanese or Korean character counts as three. */
export function readLength(s: string): number {
  let n = 0;
  for (const ch of s) n += CJK.test(ch) ? 3 : 1;
  return n;
}

/** A question: a question mark (also the full-width and Spanish ones), or a Japanese/Korean question ending. */
export function isQuestion(s: string): boolean {
  const t = s.trim();
  return /[?？]\s*["')\]」』]*$/.test(t) || /^¿/.test(t) || /(?:ですか|ますか|でしょうか|ませんか|かな)[。．]?$/.test(t) || /(?:습니까|나요|까요|을까|할까|인가요|어때)[.。]?$/.test(t);
}

/**
 * A question that asks for work ("can you add X?", "pourrais-tu ...?", "¿puedes ...?",
 * "kannst du ...?", "〜してくれますか", "〜해 줄래?"): a request, not a question about facts.
 */
const POLITE_OPENING = opening(['(?:can|could|would|will) you', 'please', 'peux-tu', 'pourrais-tu', 'pouvez-vous', 'pourriez-vous', 'tu peux', '¿?puedes', '¿?podrías', '¿?puede', 'kannst du', 'könntest du', 'können sie', 'könnten sie']);
const POLITE_CJK = /(?:てくれ(?:ます|ません)?か|てもらえ(?:ます|ません)?か|ていただけ(?:ます|ません)?か|해\s?줄래|해\s?주(?:실래요|세요|겠어요|시겠어요|실\s?수)|해\s?줄\s?수)/u;

/** A question that asks for work rather than for an answer. */
export function isPoliteRequest(s: string): boolean {
  return POLITE_OPENING.test(s.trim()) || POLITE_CJK.test(s);
}

/** Acknowledgements and nudges (the whole message): not a request. */
export const ACK_WORDS = opening(
  [
    'ok(?:ay)?', 'k', 'yes', 'yep', 'yeah', 'yo', 'no', 'nope', 'sure', 'thanks?(?: you)?', 'ty', 'continue', 'go(?: on| ahead)?', 'proceed', 'do it', 'next', 'nice', 'great', 'cool', 'good', 'perfect', 'done', 'lgtm', 'can leave it', 'leave it', 'fine', 'right', 'y', 'n', 'sleep', 'wait',
    "d'accord", 'oui', 'non', 'merci(?: beaucoup)?', 'vas-y', 'continue[sz]?', 'parfait', 'super', 'très bien', 'bien', 'génial', 'allez',
    'vale', 'sí', 'si', 'gracias', 'perfecto', 'sigue', 'adelante', 'continúa', 'de acuerdo', 'bueno', 'genial', 'listo',
    'ja', 'nein', 'danke(?: schön)?', 'weiter', 'mach weiter', 'passt', 'gut', 'perfekt', 'alles klar', 'prima', 'super',
  ],
  ['はい', 'いいえ', 'ありがとう', '続けて', 'お願いします', '了解', 'いいね', 'いいです', 'OK', 'オーケー', '네', '예', '응', '아니요', '고마워', '감사합니다', '계속', '좋아', '좋습니다', '알겠어', '알겠습니다', '진행해'],
);

/**
 * A prescription or a prohibition (a lasting rule): "never", "always", "only", "must",
 * "use X instead", and their equivalents. English has its own, older and finer rule in
 * sections.ts; these cover the other languages.
 */
export const RULE_CUE = cue(
  [
    // French
    "(?<!(?:ça|ce|cela|il|elle|on|je|tu|nous|vous|ils|elles|qui|rien) )ne [\\p{L}'-]+ (?:pas|jamais|plus|rien)", "(?<!(?:ça|ce|cela|il|elle|on|je|tu|nous|vous|ils|elles|qui|rien) )n'[\\p{L}-]+ (?:pas|jamais|plus|rien)", 'jamais', 'toujours', 'seulement', 'uniquement', 'il faut', 'il ne faut pas', 'doit', 'doivent', 'devrait', 'devraient', 'utilise[rz]?', 'plutôt que', 'au lieu de', 'garde[rz]?', 'évite[rz]?',
    // Spanish
    'no (?:uses|usar|hagas|toques|cambies|borres|agregues|añadas|pongas|modifiques|elimines)', 'nunca', 'siempre', 'solo (?:quiero|usa|necesito)', 'sólo (?:quiero|usa|necesito)', 'solamente', 'únicamente', 'debe', 'deben', 'debería', 'deberían', 'hay que', 'tiene que', 'tienen que', 'tienes que', 'usa', 'utiliza', 'en lugar de', 'en vez de', 'mantén', 'evita',
    // German
    'nie', 'niemals', 'immer', 'nur (?:noch )?(?:mit|die|den|das|eine?n?)', 'muss', 'müssen', 'soll', 'sollte', 'sollen', 'darf (?:\\p{L}+ )*?nicht', 'dürfen (?:\\p{L}+ )*?nicht', 'bitte (?:\\p{L}+ )*?(?:nicht|keine?n?)', '(?:verwende|benutze|nutze|ändere|lösche|füge|mach|fasse?|rühre?) (?:\\p{L}+ ){0,3}?(?:nicht|keine?n?)', 'verwende', 'benutze', 'nutze', 'statt', 'anstatt', 'behalte', 'vermeide',
  ],
  ['ないで', 'ないこと', '(?:使わ|入れ|触ら|消さ|増やさ|足さ|送ら|変え)ない(?:で|こと|。|\\.|$)', 'やめて', 'いらない', '不要', 'てはいけない', 'てはだめ', '禁止', '常に', '必ず', 'いつも', 'だけを', 'だけで', 'のみ', 'を使って', 'を使う', 'を使用', '代わりに', 'べき', '絶対', 'ではなく', 'じゃなくて', 'しないこと', '하지\\s?마', '하지\\s?말', '지\\s?마(?:세요|라|십시오)?(?:[.!。]|$)', '지\\s?말(?:고|아|아요)', '마세요', '말고', '말아', '항상', '반드시', '꼭', '대신', '사용해', '쓰지\\s?마', '금지', '해야', '안\\s?돼', '절대', '유지해', '만\\s?써', '만\\s?사용', '(?:쓰|사용하|넣|보내|바꾸)지\\s?않', '필요\\s?없'],
);

/** A strong rule cue: keeps a question-shaped rule ("... ne doit jamais planter, d'accord ?"). */
export const STRONG_RULE_CUE = cue(['jamais', 'toujours', 'doit', 'il faut', 'nunca', 'siempre', 'debe', 'nie', 'niemals', 'immer', 'muss'], ['必ず', '絶対', '禁止', '반드시', '절대', '금지']);

/** The user asks to undo a change ("undo that", "annule", "deshaz", "mach das rückgängig", "元に戻して", "되돌려"). */
export const UNDO_CUE = cue(
  [
    'undo', 'undid', 'revert(?:ed)?', 'roll(?:ed)? ?back', 'put (?:it|that|them) back', 'back out', 'you (?:fucked|broke|messed|screwed)', 'not what i (?:asked|wanted)', "don't do that",
    'annule[rsz]?', 'défai[st]', 'défaire', 'reviens en arrière', 'remets? (?:comme|ça)', "ce n'est pas ce que",
    'deshaz', 'deshacer', 'revierte', 'revertir', 'vuelve atrás', 'vuelve a poner', 'no es lo que',
    'rückgängig', 'zurücksetzen', 'setz(?:e)? (?:das|es) zurück', 'nicht das,? was',
  ],
  ['元に戻して', '元に戻す', '戻して', '取り消して', 'やり直して', '되돌려', '원래대로', '취소해', '롤백', '이전으로'],
);

/** The agent admits a mistake or accepts a correction, at the start of its reply. */
export const ADMIT_CUE = opening(
  [
    "you'?re (?:right|correct|absolutely right)", 'you are (?:right|correct|absolutely right)', 'i was (?:wrong|mistaken)', 'my (?:mistake|bad|apologies)', 'i apologi[sz]e', 'sorry', 'good catch', 'i stand corrected', 'i misspoke', 'apologies', 'thanks for (?:the )?correct', 'indeed,? ', 'correct(?:ion)?[,:]',
    'vous avez raison', 'tu as raison', 'désolée?', 'je me suis trompée?', 'mon erreur', 'pardon', 'excusez-moi', 'effectivement',
    'tienes razón', 'tiene razón', 'lo siento', 'me equivoqué', 'perdón', 'disculpa', 'disculpe', 'mi error', 'efectivamente',
    'du hast recht', 'sie haben recht', 'entschuldigung', 'entschuldige', 'tut mir leid', 'ich habe mich geirrt', 'mein fehler', 'stimmt', 'richtig',
  ],
  ['おっしゃる通り', 'その通り', 'ご指摘', '申し訳', 'すみません', '失礼しました', 'ごめん', '確かに', '맞습니다', '맞아요', '맞네요', '말씀하신 대로', '말씀대로', '죄송', '제가 틀렸', '제 실수', '지적', '정정'],
);

/** The user says the agent is wrong ("no, ...", "that's not true", "actually ...", "non, ...", "いいえ", "아니"). */
export const CONTRADICT_CUE = opening(
  [
    'no', 'nope', 'wrong', "that'?s (?:wrong|not (?:true|right|correct))", 'that is wrong', "it'?s not", 'not true', 'incorrect', 'actually', 'you said', 'you claimed', 'but it (?:does|did|is|was|has)',
    'non', 'faux', "c'est faux", 'en fait', 'tu as dit', 'mais si', "tu te trompes", "vous vous trompez",
    'falso', 'eso está mal', 'en realidad', 'dijiste', 'pero sí', 'te equivocas',
    'nein', 'falsch', 'das ist falsch', 'eigentlich', 'doch', 'du hast gesagt', 'das stimmt nicht', 'du irrst dich',
  ],
  ['いいえ', '違う', '違います', 'そうじゃない', '実は', 'でも', '아니', '아닙니다', '틀렸', '그게 아니', '사실은', '그런데', '근데'],
);

/** A later framing that replaces an earlier one ("actually", "instead", "rather", "en fait", "eigentlich", "じゃなくて", "말고"). */
export const REFINE_CUE = cue(
  ['actually', 'instead', 'rather', 'i meant', 'change of plan', 'scratch that', 'correction', 'not anymore', 'no longer', 'from now on', 'en fait', 'plutôt', 'finalement', 'je voulais dire', 'désormais', 'en realidad', 'mejor', 'quise decir', 'a partir de ahora', 'eigentlich', 'stattdessen', 'lieber', 'ich meinte', 'ab jetzt', 'doch'],
  ['やっぱり', 'ではなく', 'じゃなくて', '代わりに', '変更', 'これからは', '아니라', '말고', '대신', '바꿔', '변경', '이제부터'],
);

/** Decision wording in the agent's prose (the other languages; English is in sections.ts). */
export const DECISION_CUE = cue(
  ["j'ai décidé", 'je vais utiliser', 'on va utiliser', 'nous utiliserons', "j'utiliserai", "j'ai choisi", 'choisi de', 'opté pour', 'plutôt que', 'au lieu de', 'decidí', 'he decidido', 'voy a usar', 'usaré', 'usaremos', 'elegí', 'opté por', 'en lugar de', 'en vez de', 'ich habe mich (?:für|entschieden)', 'entschieden', 'ich verwende', 'wir verwenden', 'ich nehme', 'anstatt', 'statt'],
  ['ことにしました', 'ことにします', 'を採用', 'に決め', '代わりに', '하기로 했', '하기로 결정', '하기로 합', '사용하기로', '선택했', '대신'],
);

/** Work reported complete, in the other languages (English is in sections.ts). */
export const DONE_CUE = cue(
  ['terminée?s?', 'finie?s?', "c'est fait", 'faite?s?', 'ajoutée?s?', "j'ai (?:ajouté|corrigé|créé|mis à jour|implémenté|supprimé|renommé|terminé|porté|migré|converti|remplacé|déplacé)", 'corrigée?s?', 'créée?s?', 'mise? à jour', 'implémentée?s?', 'réussie?s?', 'passent', 'listo', 'hecho', 'terminado', 'completado', 'añadí', 'añadido', 'agregué', 'corregí', 'corregido', 'creé', 'creado', 'actualicé', 'actualizado', 'implementé', 'implementado', 'porté', 'migré', 'convertí', 'reemplacé', 'pasan', 'erledigt', 'fertig', 'abgeschlossen', 'hinzugefügt', 'behoben', 'erstellt', 'aktualisiert', 'implementiert', 'portiert', 'migriert', 'umgestellt', 'bestanden', 'laufen durch', 'umgesetzt'],
  ['完了', 'しました', 'できました', '通りました', '成功しました', '완료', '했습니다', '했어요', '했습니다', '통과', '성공했', '됐습니다', '되었습니다'],
);

/** The agent's stated next move, in the other languages (English is in sections.ts). */
export const INTENT_CUE = opening(
  ['je vais', 'maintenant,? je vais', 'ensuite,? je vais', 'je dois', 'voy a', 'ahora voy a', 'a continuación,? voy a', 'ahora', 'ich werde', 'jetzt werde ich', 'als nächstes', 'ich muss', 'lass(?:t)? mich'],
  ['次に', 'これから', 'では、', 'まず', '이제', '다음으로', '먼저'],
);
/** A sentence that ends on an intention (Japanese "〜します", Korean "〜하겠습니다"). */
export const INTENT_ENDING = /(?:します|しましょう|してみます|していきます|하겠습니다|할게요|해볼게요|하겠어요)[。.!！:：]?$/u;

/** Step-by-step narration in the other languages: never a decision or a report. */
export const NARRATION_CUE = cue(
  ['je vais (?:lire|regarder|vérifier|examiner|ouvrir|chercher|lancer|voir)', 'voyons', 'regardons', 'voy a (?:leer|ver|revisar|mirar|abrir|buscar|ejecutar|comprobar)', 'veamos', 'revisemos', 'ich schaue', 'ich sehe mir', 'lass mich', 'schauen wir', 'ich prüfe'],
  ['確認します', '見てみます', '調べます', '読みます', '확인하겠습니다', '살펴보겠습니다', '확인해 보겠습니다', '읽어보겠습니다'],
);

/**
 * How the user wants the work done, not what the work is: "then give me a plan", "ask me
 * questions", "let me know", "read X first", "don't stop until ..." (never the goal).
 */
export const PROCESS_CUE = cue(
  [
    '(?:provide|give|show|write|send) me (?:with )?(?:a|the|your) (?:plan|summary|report|overview|list)', 'do (?:a|an) (?:deep |thorough |full |detailed |quick )?(?:analysis|review|investigation)', 'cd (?:into |to )?[~./\\w-]+[.!]?$', 'read\\b.{0,200}?\\b(?:in full|fully|first|carefully|thoroughly|completely)', 'lis\\b.{0,200}?\\b(?:en entier|entièrement|d\'abord)', 'lee\\b.{0,200}?\\b(?:completo|entero|primero)', 'lies\\b.{0,200}?\\b(?:vollständig|ganz|zuerst)', '(?:make|write|draft|create) (?:a|the) plan', 'ask me', 'let me know', 'tell me (?:what|how|if|when|whether)', 'you can ask', 'feel free to', 'before you start', '(?:read|look at|explore|study|analy[sz]e|understand|check) [^.]{0,60}first', "don't stop until", 'do not stop until', 'keep going until', 'report back',
    'fais-moi un plan', 'propose-moi un plan', 'donne-moi un plan', 'pose-moi', 'dis-moi', "n'hésite pas", "lis d'abord", "avant de commencer",
    'dame un plan', 'hazme un plan', 'pregúntame', 'dime', 'no dudes', 'lee primero', 'antes de empezar',
    'mach einen plan', 'erstelle einen plan', 'frag mich', 'sag mir', 'lies zuerst', 'bevor du anfängst',
  ],
  ['計画を(?:立て|作っ|教え|出し)', 'プランを', '質問して', '教えて', 'まず読んで', '全部読んで', '계획을\\s?(?:세워|짜|알려)', '질문해', '알려줘', '알려주세요', '먼저 읽', '전부 읽'],
);

/**
 * The user saying what the work really is ("now the actual work:", "what I actually want is",
 * "lo que necesito de verdad", "ce que je veux vraiment", "was ich eigentlich will", "本題",
 * "이제 본론"): the sentence that frames the goal.
 */
export const GOAL_CUE = cue(
  ['(?:the|now the) (?:actual|real|main) (?:work|task|project|goal|thing)', 'what (?:i|we) (?:actually|really) (?:want|need)', 'what (?:i|we) want is', 'the point is', 'le vrai (?:travail|sujet|but)', 'ce que je veux (?:vraiment|en fait)', "ce dont j'ai (?:vraiment )?besoin", 'lo que (?:necesito|quiero) (?:de verdad|realmente|en realidad)', 'el trabajo de verdad', 'was ich (?:eigentlich|wirklich) (?:will|brauche)', 'die eigentliche aufgabe', 'jetzt das eigentliche'],
  ['本題', '本当に(?:やりたい|欲しい)', '本来の', '본론', '진짜 하고 싶은', '실제로 원하는'],
);

/** Greetings and pleasantries at the start of a request: never its content. */
export const GREETING = opening(['hi', 'hello', 'hey', 'good (?:morning|afternoon|evening)', 'bonjour', 'salut', 'coucou', 'hola', 'buenos días', 'buenas', 'hallo', 'guten (?:morgen|tag|abend)', 'servus', 'moin'], ['こんにちは', 'こんばんは', 'おはよう', '안녕하세요', '안녕']);

/** Venting and swearing: how the user feels, never a rule to keep. */
export const VENTING = cue(['wtf', 'w\\.t\\.f', 'omfg', 'omg', 'ffs', 'fuck\\p{L}*', 'shit\\p{L}*', 'damn\\p{L}*', 'ugh+', 'argh+', 'stupid', 'idiot\\p{L}*', 'dumb', 'jfc', 'putain', 'merde', 'bordel', 'joder', 'mierda', 'coño', 'scheiß\\p{L}*', 'scheiss\\p{L}*', 'verdammt', 'mist'], ['クソ', 'くそ', 'ふざけ', '씨발', '젠장', '짜증']);

/** A discourse marker that opens a sentence without saying anything ("ok so", "also", "alors", "y", "und", "あと", "그리고"). */
export const LEAD_FILLER = new RegExp(
  `^(?:(?:(?:one more thing|another thing|heads up|ojo|achtung|otra cosa|una cosa más|autre chose|encore une chose|noch etwas|noch was|ok(?:ay)?|so|also|and|but|btw|oh|ah|hm+|well|please|pls|plz|just|alright|now|then|actually|en fait|en realidad|alors|donc|aussi|et|mais|bon|bref|enfin|stp|s'il te plaît|s'il vous plaît|entonces|pues|también|y|pero|bueno|vale|por favor|oye|und|aber|bitte|noch|außerdem|dann)(?![${WORD}])[\\s,.!:;-]*)|(?:(?:yes|no|yeah|yep|hey|non|oui|sí|si|ja|nein|doch)[,.!]+\\s*))+`,
  'iu',
);
/** Japanese and Korean openers ("じゃあ", "あと", "それと", "그리고", "그럼", "근데"). */
export const LEAD_FILLER_CJK = /^(?:(?:それと|それから|そして|ちなみに|じゃあ|그리고|그럼|그러면|근데|그런데)[、,，\s]*|(?:あと|では|いいえ|やっぱり|아니요|아니|아|음)[、,，\s]+)/u;
