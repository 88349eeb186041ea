/**
 * What the offline harvest keeps from a session's text (README "Harvest"): pure functions over one
 * message at a time, in the languages the rules name (English; German, French, Spanish, Italian,
 * Portuguese, Dutch; Japanese, Chinese, Korean). The pipeline that feeds them is harvest.ts.
 *
 * The rules, in short: from the user, standing instructions and preferences (rule phrasing, not
 * one-off requests, questions, venting or pasted logs) and stated values (ports, paths, versions,
 * colors, percentages with a copula); from the assistant, commitments (not guesses, narration or
 * undecided alternatives), the outcome of a turn only when it states a result (done, tests pass,
 * committed, coverage...), and a fix only when a project error's cause is stated after the fact.
 * Host and hook protocol messages, tool-usage errors (an edit that did not match, a file not found)
 * and minified code are never kept.
 */
import { STOP_WORDS } from './analyze.js';

/** Decision phrasing: a commitment to an approach ("I'll use", "we decided to", "switched to", "the root cause was"). */
export const DECISION =
  /\b(?:I(?:'ll| will) (?:use|go with|switch to|keep|replace)|we(?:'ll| will| should) (?:use|go with|switch to|keep)|(?:decided|chose|opted) (?:to|for|on)|let's (?:use|go with|switch to|keep)|switched (?:to|from)|the (?:fix|root cause|solution) (?:is|was))\b/i;
/** Guesses and narration that look like decisions but are not ("I bet...", "let me...", "maybe..."). */
export const NOT_DECISION = /^(?:I bet|let me|let's see|let's check|maybe|perhaps|probably|I think|I guess|I wonder|it might|it seems|seems|possibly|if )\b/i;
/** Alternatives still open ("make X invalidate, or to improve the cache key"): not decided yet. */
const UNDECIDED = /,\s*or\b|\bor (?:to|just|simply|maybe|perhaps)\b|\b(?:either way|not sure|unclear)\b/i;
/** Hedged claims: a cause or a fix that is only guessed. */
const HEDGED = /\b(?:maybe|might|perhaps|probably|possibly|likely|I think|I guess|I suspect|could be|seems? to|iiuc|afaik|afaict|imo|imho)\b/i;
/** A sentence about the thing at hand, its subject left out or pointed at ("should be dimmer", "it must fit"): steering, not a rule. */
const DEICTIC = /^(?:(?:it|this|that|these|those)(?:'s)?\s+)?(?:should|must|needs? to|has to)\b(?![^.!?]*\b(?:always|from now on|remember)\b)/i;
/** An outcome sentence that says only that "it" worked, naming nothing ("It builds successfully."). */
const BARE_RESULT = /^(?:it|this|that)\b.{0,40}$/i;
/**
 * What makes a user message a lasting instruction rather than a one-off request: rules and
 * preferences (always, never, don't, must, prefer, from now on, remember, avoid, "only want/use",
 * "use X ... not/instead Y", "make sure" with a general clause such as when/before/every).
 */
const LASTING =
  /\b(?:always|never|don'?t|do not|doesn'?t need|must(?:n'?t| not)?|prefer(?:s|red)?|from now on|remember|avoid|no more|should(?:n'?t| not)|stop \w+ing|(?:I|we)(?: would|'d)? only (?:want|use|need|allow)|use\b[^.?!\n]{0,60}\b(?:instead|not|no|rather|over|everywhere|only))\b|\bmake sure\b(?=[^.!?\n]*\b(?:when|whenever|every|each|always|before|after|any|all)\b)/i;
/**
 * The same in other languages (German, French, Spanish, Italian, Portuguese, Dutch; Japanese,
 * Chinese, Korean): always/never/must/do not/remember/prefer/instead-of and their usual rule forms
 * (a bare "please" is a request, not a rule).
 */
const LASTING_INTL = new RegExp(
  [
    '\\b(?:immer|niemals|nie|nicht mehr|bitte kein|merk dir|denk daran|bevorzuge|muss|müssen|ab jetzt|künftig|statt)\\b',
    '\\b(?:toujours|jamais|ne (?:\\p{L}+ )?pas|souviens-toi|retiens|il faut|je préfère|désormais|au lieu de)\\b',
    '\\b(?:siempre|nunca|jamás|recuerda|prefiero|hay que|no (?:uses|hagas|pongas)|a partir de ahora|en lugar de)\\b',
    '\\b(?:sempre|mai|ricorda|preferisco|non (?:usare|fare)|d\'ora in poi|nunca|lembre|prefiro|não use|invece di|em vez de)\\b',
    '\\b(?:altijd|nooit|onthoud|gebruik geen|voortaan|in plaats van)\\b',
    '必ず|絶対に?|ないでください|ないこと|ないように|禁止|覚えて|常に|今後は|使うこと|ではなく|じゃなくて|いつも',
    '总是|永远|不要|必须|记住|禁止|以后|务必|而不是|一律',
    '항상|절대|하지 ?마|기억해|반드시|앞으로는|쓰지 ?마|대신|말고',
  ].join('|'),
  'iu',
);
/** Sentence ends: `.!?` before whitespace (so `main.ts` stays whole), the CJK full stops, line breaks. */
export const SENTENCE_END = /(?<=[.!?])\s+|(?<=[。！？])|\n+/;
/** A line pasted from a terminal, a diff, a table, a stack trace, a log or JSON: never the user's own prose. */
const PASTED_LINE = /^\s*(?:[+-] ?\d|[+-]{3} |@@ |➜|\$ |> |\||```|at [\w.$<>\[\]]+ \(|at (?:file|node):|[{[]["{[]|(?:Error|TypeError|RangeError|SyntaxError|Traceback|Exception|panic|warning|error)\b[:\[]|\d{4}-\d\d-\d\dT\d\d:|[─━═│┃┌└├╭╰⠇⠋⠙⠹→●•]|\S+\.(?:png|jpe?g|gif)'?$|\S+:\d+(?::\d+)?\)?$|\s+[\w$]+: ['"\[{\d])/i;
/** Words of venting and profanity removed from a kept instruction ("omfg use fucking rgb values" -> "use rgb values"). */
const VENTING = /\b(?:omfg|wtf|w\.t\.f|fucking|fuckin|fucked|fuck|shitty|shit|damn|dammit|goddamn|jesus|dude|my dude|bloody|crap|ffs|lol|ugh|you idiot|idiot|stupid)\b[,!.]*\s*/gi;
/** Host and tool protocol text: never an instruction or a fact (hook feedback, interrupted turns, tool ids). */
const PROTOCOL =
  /\b(?:tool_use|tool_result|toolCall|toolu_)\w*|^\s*(?:[\w-]+(?::[\w*|-]+)? hooks? (?:feedback|error|blocking error|says?)|\[Request interrupted|\[Tool |The user doesn't want to proceed|API Error|Caveat: The messages below|<[a-z][\w-]*[\s>])|hook (?:feedback|blocking error)\s*:/i;
/** A request to act now rather than a rule ("please ...", "can you ...", "tell me ...", "undo that"). */
const REQUEST = /\b(?:please|pls|can you|could you|would you|tell me|let me know|for me|undo (?:that|this|it)|revert (?:that|this|it)|try again)\b|お願い|してくれ|해 ?줘|해주세요|请帮|帮我/i;
/** A value a fact can hold: hex color, percentage, port, version, path, URL, command in backticks. */
const VALUE =
  /#[0-9a-f]{6}\b|\b(?=[0-9a-f]*\d)[0-9a-f]{6}\b|\d+(?:\.\d+)?\s?%|(?:\bport|ポート|端口|포트)\s*\d{2,5}\b|[\w-]+(?:\.[\w-]+)+:\d{2,5}\b|\b\d+\.\d+(?:\.\d+)?\b|(?:^|\s)(?:~|\.{1,2})?\/[\w.-]+\/[\w./-]+|\b[\w.-]+\/[\w./-]*\.[a-z]{1,5}\b|\b[\w-]+\/[\w-]+\/[\w./-]+|https?:\/\/\S+|`[^`]{2,80}`/i;
/**
 * Words before a number that count, order or measure things rather than name a product ("step 2",
 * "line 16", "page 3", "sprint 14", "day 3", "March 5", "at least 2", "costs 30", "turned 30"), in
 * English and the European languages of {@link LASTING_INTL}: the number after them is never a
 * version. Words ending in -ed (past tenses: "waited 3") are treated the same.
 */
const COUNTERS: ReadonlySet<string> = new Set(
  `step steps line lines page pages chapter chapters section sections paragraph item items part parts phase stage round rounds option options
   choice level levels room table tables figure fig row rows column columns col cell test tests case cases attempt attempts try tries number
   num no nr point points sprint task tasks todo question questions example examples slide slides grade floor gate seat episode season volume
   vol track rank top bottom issue issues ticket tickets pr prs bug bugs comment comments commit commits patch patches file files arg argument
   day days week weeks month months year years hour hours minute minutes min mins second seconds sec secs time times kid kids child children
   people person persons user users member members player players team teams group groups batch batches worker workers thread
   threads core cores cpu cpus gpu gpus box boxes machine machines server servers instance instances replica replicas shard shards retry
   retries exit code status error errors warning warnings rule rules lesson module modules package packages unit units size count max min
   score rating article least around approximately roughly nearly almost exactly total per plus minus last first next previous final every
   cost costs weigh weighs take takes took get gets got give gives gave pay pays paid earn earns owe owes wait waits buy buys sell sells sold
   turn turns age aged worth equals equal multiply divide times aged
   january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec
   monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun
   schritt zeile seite kapitel abschnitt tag tage woche wochen monat jahr jahre stunde stunden minuten kinder punkt aufgabe frage
   étape ligne chapitre jour jours semaine semaines mois an ans heure heures enfants question tâche
   paso línea página capítulo día días semana semanas mes año años hora horas hijos pregunta tarea
   passo riga pagina capitolo giorno giorni settimana anno anni ora ore figli domanda compito
   linha dia dias ano anos filhos pergunta tarefa regel pagina dag dagen week jaar uur kinderen vraag taak`.split(/\s+/),
);
/** Words a version can carry after its number ("Node 20 LTS", "Python 3 only"). */
const VERSION_TAIL = /^(?:lts|beta|alpha|rc\d*|preview|nightly|stable|only|everywhere|now|today|last|recently|yesterday|already|locally|in|on|with|and|or|for|as|via|because|since|but|so|is|are|was|too)$/i;

/**
 * A product or tool named with its major version and no dot ("postgres 16", "Node 20", "Python 3",
 * "node v20", "Elasticsearch 8"): a name of two or more characters (letters, digits, `.`, `+`, `#`,
 * `-`; not a number, a stop word or a counting word of {@link COUNTERS}), then an integer of 1-3
 * digits (or `v` and one) at the end of the clause or before a word a version carries
 * ({@link VERSION_TAIL}). "I have 3 kids", "step 2", "line 16" and "takes 3 minutes" are not.
 */
export function majorVersionOf(sentence: string): string | undefined {
  for (const m of sentence.matchAll(/(?<![\p{L}\p{N}_.+#-])([\p{L}][\p{L}\p{N}.+#-]*[\p{L}+#]|[\p{L}]{2,})\s+(v?\d{1,3})(?![\p{L}\p{N}%.,:/_-]*[\p{L}\p{N}%])(?:\s*([^\s,;:.!?)]+))?/gu)) {
    const name = m[1]!.toLowerCase();
    if (name.length < 2 || STOP_WORDS.has(name) || COUNTERS.has(name) || COUNTERS.has(name.replace(/s$/, '')) || /ed$/.test(name)) continue;
    const next = m[3];
    if (next !== undefined && !VERSION_TAIL.test(next) && !STOP_WORDS.has(next.toLowerCase())) continue;
    return `${m[1]} ${m[2]}`;
  }
  return undefined;
}

/** Copulas of a stated fact ("X is Y", "X lives in Y", "X uses Y", "X -> Y"), in the languages of {@link LASTING_INTL}. */
const STATES =
  /\b(?:is|are|was|should be|uses?|lives? in|runs? on|listens? on|goes? (?:to|in)|means|ist|sind|läuft|liegt|nutzt|est|sont|utilise|es|está|usa|è|é)\b|[:=]|->|→|です|で動|にあ|を使|は\S+で|是|在|用|입니다|에서|사용|이에요|예요|(?<=[\p{L}\p{N}]\s+)(?:run|runs|needs?(?!\s+to\b)|requires?|targets?|pinned to|upgraded to|built with|written in)\b|\b(?:we're|we are|i'm|i am) on\b/iu;
/** What an outcome says: the work done and its result. */
const OUTCOME = /\b(?:done|(?:is|are|now|fully) complete|completed?(?= *[.!]|$)|implemented|ported|added|created|fixed|migrated|committed|released|all (?:\d+ )?tests pass(?:ed)?|tests pass|passing|coverage|works now|now works|verified|reverted|failed on|broke|breaks)\b/i;
/**
 * The result of a turn, stated: the work is done or complete, tests pass, it is committed, pushed,
 * released or verified, it works now, or it failed, broke or was reverted. A turn whose last message says none of these (a list of edits,
 * "I've created X") is work in progress, not an outcome to keep.
 */
const RESULT =
  /\b(?:(?<!already |mark(?:ed)? (?:as )?|to )(?:done|complete|completed|finished)(?! (?:through|by|via|with|using|in)\b)|(?:all )?(?:\d+ )?tests? (?:pass|passed|passes|passing)|\d+ passed|(?:\d+%|full) (?:line )?coverage|coverage (?:is|of|at) \d|(?<!already )committed|pushed|merged|released|published|verified|works now|now works|working now|builds? (?:cleanly|successfully)|succeeded|reverted|rolled back|failed (?:on|with|because)|broke|breaks)\b|完了|完成|済み|通过|提交了|완료|통과|성공|커밋했|erledigt|fertig|terminé|terminado|completato/i;
/** Narration of what the agent is about to do: not an outcome, not a fix. */
export const NARRATION = /^(?:let me|let's|now,? |i'll|i will|i need to|i'm going to|next,? i|first,? i|okay,? (?:let me|i'll)|ok,? (?:let me|i'll)|perfect!? (?:let me|now)|great!? (?:let me|now))\b/i;
/** A fix that says, after the fact, what was wrong or what resolved it. */
const FIX_STATED = /\b(?:root cause (?:is|was)|was caused by|the (?:issue|problem|bug) was|fixed by|resolved by|works now|now works|passing now|now passes|the fix was)\b/i;
/** Errors of the agent's own tool use (an edit that did not match, a file it guessed wrong): not facts about the project. */
const TOOL_MISUSE =
  /could not find the exact text|no changes made|old[_ ]?(?:text|string) (?:must|not)|string to replace|not found in (?:the )?file|file has not been read|has been modified since|no such file or directory|is a directory|not a directory|command not found|permission to use|user (?:rejected|denied)|doesn'?t want to proceed|^(?:grep|rg|sed|cat|ls|cd|find|head|tail|awk|mv|cp|rm|mkdir|stat|wc): /i;
/** Opinions and doubts that contain "don't" but are not rules. */
const NOT_RULE = /^(?:\w+,\s*)?i (?:don'?t|do not) (?:think|tink|know|understand|see|get|remember|care)\b/i;
/** Source code rather than prose (a call or statement). */
export const CODE_LINE = /^[\w.$]+\(|[;{]\s*$|\)\s*;?\s*$/;
/** One-off steering ("no, the block should stay as is", "actually, revert that") rather than a rule. */
const CORRECTION_ONLY = /^(?:no|nope|wrong|actually|wait|hm+|that'?s (?:not|wrong)|this is wrong|not like that|undo)\b(?![^.!]*\b(?:always|never|from now on|remember)\b)/i;
/** Explicit memory requests: harvested instructions with these words are stored `important`. */
export const EMPHATIC = /\b(?:remember|always|never|from now on)\b|必ず|絶対|覚えて|常に|总是|永远|必须|记住|항상|절대|반드시|기억해|immer|niemals|toujours|jamais|siempre|nunca/i;
/** One-word replies and acknowledgements that carry no instruction. */
const ACK =
  /^(?:ok(?:ay)?|k|yes|yeah|yep|yup|sure|no|nope|thanks?(?: you)?|thx|ty|continue|go(?: on| ahead)?|do it(?: all)?|proceed|next|done|great|nice|cool|perfect|good|lgtm|sounds good|looks good|fine|alright|right|hmm+|wait|stop|sleep|retry|again|try again|same|and\??)(?:[\s,.!]+(?:ok(?:ay)?|yes|yeah|do it(?: all)?|go(?: on| ahead)?|thanks?|please|all|then|now|continue|proceed))*[\s.!]*$/i;
/** A clause that ends on a function word: left hanging once a venting word was removed ("anything else is"). */
const DANGLING_END = /\b(?:is|are|was|were|be|to|get|gets|the|a|an|and|of|so)\s*[.!?]*\s*$/i;

/** `text` without its last clause when that clause hangs on a function word (see {@link DANGLING_END}). */
function dropDanglingClause(text: string): string {
  if (!DANGLING_END.test(text)) return text;
  let cut = -1;
  for (const m of text.matchAll(/,\s|\s(?:so|and|but)\s/gi)) cut = m.index!;
  return cut > 0 ? text.slice(0, cut) : text;
}

/** Discourse words that open a sentence and carry nothing ("ok, ", "and also, ", "btw "). */
const LEAD_IN = /^(?:(?:ok(?:ay)?|alright|and|also|btw|so+|well|yeah|yes|hm+|oh)\b[,.!]?\s+)+/i;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Minified code, hashes and binary noise: long unbroken tokens or mostly punctuation. */
export function isNoise(line: string): boolean {
  if (/\S{90,}/.test(line)) return true;
  const letters = (line.match(/[\p{L}\s]/gu) ?? []).length;
  return line.length > 20 && letters / line.length < 0.6;
}

/**
 * Claude Code's wording when a hook blocks the agent (2.1.x, as written into its transcripts; see
 * ../shared/data/transcripts/claude-code): `<Event> hook feedback:\n[<command>]: <output>`, or
 * `<Event>[:<tool>] hook blocking error from command: "<command>": <output>` inside a
 * `<system-reminder>`.
 */
const HOOK_BLOCK = /^\s*(?:<system-reminder>\s*)?([A-Z][A-Za-z]+(?::[\w*|-]+)?) hook (?:feedback|blocking error)[^\n:]*:\s*\n?(?:\[([^\]\n]{1,300})\]:\s*|"([^"\n]{1,300})":\s*)?([\s\S]*?)(?:<\/system-reminder>\s*)?$/;
/** A sentence of a hook's output that states what it refuses or requires. */
const REFUSAL = /\b(?:cannot|can't|can not|must|not allowed|refus\w*|block\w*|required?|forbidden|denied|before (?:stopping|continuing|exiting))\b/i;

/**
 * What a hook that blocked the agent tells about the project, as one lasting environment fact
 * ("The Stop hook (stop.sh) blocks until: Uncommitted Changes Detected. Cannot exit with unstaged
 * changes."), or undefined when `text` is not a hook's block or states no refusal. The command is
 * named by its file name only; lists, steps and the hook's progress lines are left out.
 */
export function hookPolicyOf(text: string): string | undefined {
  const m = HOOK_BLOCK.exec(text);
  if (!m) return undefined;
  const event = m[1]!;
  const cmd = (m[2] ?? m[3])?.trim();
  const command = cmd ? cmd.split(/\s+/).find((w) => /[\\/]/.test(w))?.split(/[\\/]/).pop() ?? cmd.split(/\s+/)[0] : undefined;
  const lines = m[4]!.split(/\n|(?<=[.!?])\s+(?=[A-Z])/).map((l) => l.trim()).filter(Boolean);
  const heading = lines.find((l) => /^#{1,3}\s/.test(l) && !/\b(?:running|checking)\b|\.\.\.$/i.test(l))?.replace(/^#+\s*/, '');
  const refusal = lines.find((l) => !/^(?:#|\d+\.|[-*]\s)/.test(l) && REFUSAL.test(l));
  if (!refusal) return undefined;
  const what = [heading, refusal].filter(Boolean).map((s) => s!.replace(/[.:]*$/, '.')).join(' ');
  return `The ${event} hook${command ? ` (${command})` : ''} blocks the agent: ${what}`.slice(0, 400);
}

/** True for host and hook protocol text (hook feedback, interrupted-turn markers, tool ids, host wrappers). */
export function isProtocol(text: string): boolean {
  return PROTOCOL.test(text);
}

/** The user's own prose in a message: pasted terminal, diff, log, stack-trace and JSON lines and code fences removed. */
function proseOf(text: string): string {
  return text
    .replace(/```[\s\S]*?(?:```|$)/g, '\n')
    .split('\n')
    .filter((l) => !PASTED_LINE.test(l) && !isNoise(l.trim()))
    .join('\n');
}

function sentencesOf(text: string, cjk: boolean): string[] {
  return text
    .split(SENTENCE_END)
    .map((x) => {
      // venting removed; a sentence that then starts with its real first word gets its capital back
      const vented = x.replace(VENTING, '');
      // a clause the venting word ended ("anything else is [shitty]") is dropped whole
      const kept = vented !== x ? dropDanglingClause(vented.trimEnd()) : vented;
      const y = kept.replace(/^[,;:\s-]+/, '').replace(LEAD_IN, '').trim();
      return y !== x.trim() ? y.charAt(0).toUpperCase() + y.slice(1) : y;
    })
    .filter((x) => x.length >= (cjk ? 6 : 12) && x.length <= 400);
}

/**
 * The lasting instruction in a user message, or undefined: slash commands, acknowledgements,
 * host and hook protocol text, messages of fewer than 4 words, questions, one-off requests
 * ("please ...", "can you ...", "undo that") and corrections are skipped; pasted lines (terminal,
 * logs, stack traces, JSON, diffs) are removed first, so a rule written under a pasted error is
 * still found. Of the rest, the sentences with rule/preference phrasing are kept (at most 3, each
 * 12-400 characters; 6 for CJK).
 */
export function instructionOf(text: string): string | undefined {
  const t = text.trim();
  if (!t || isProtocol(t)) return undefined;
  if (/^\/[\w:.-]*(?:\s+\S+){0,3}\s*$/.test(t)) return undefined; // slash command (with a few arguments)
  if (ACK.test(t)) return undefined;
  const cjk = CJK.test(t);
  if (!cjk && t.split(/\s+/).length < 4) return undefined;
  const keep = sentencesOf(proseOf(t), cjk).filter(
    (x) =>
      !/[?？]$/.test(x) &&
      !NOT_RULE.test(x) &&
      !CODE_LINE.test(x) &&
      !CORRECTION_ONLY.test(x) &&
      !DEICTIC.test(x) &&
      !isProtocol(x) &&
      (LASTING.test(x) || LASTING_INTL.test(x)) &&
      !(REQUEST.test(x) && !EMPHATIC.test(x)),
  );
  if (!keep.length) return undefined;
  return keep.slice(0, 3).join(' ');
}

/**
 * Environment facts the user states: a value (hex color, percentage, port, version, path, URL,
 * command; a product's major version without a dot: {@link majorVersionOf}) with a copula; not
 * requests or questions.
 */
export function environmentFacts(text: string): string[] {
  if (isProtocol(text)) return [];
  return sentencesOf(proseOf(text), CJK.test(text))
    .filter((x) => !/[?？]$/.test(x) && !REQUEST.test(x) && !HEDGED.test(x) && !CORRECTION_ONLY.test(x) && (VALUE.test(x) || majorVersionOf(x) !== undefined) && STATES.test(x) && !CODE_LINE.test(x))
    .slice(0, 2);
}

/**
 * A choice the user makes for the project ("let's cache in memory instead of adding Redis", "we
 * decided to keep SQLite"), in the leads of {@link DECISION} or a first-person plural plan.
 */
const USER_CHOICE = /^(?:let's|let us|we(?:'ll| will|'re going to| are going to)|we(?:'ve| have)? (?:decided|agreed|chose|settled on)|I(?:'ve| have)? decided)\b/i;
/** The reason or the alternative given up that makes a choice a decision worth keeping. */
const CHOICE_REASON = /\b(?:because|since|so that|given that|instead of|rather than)\b|\b(?:weil|da wir|statt|parce que|au lieu de|porque|en lugar de|perché|invece di)\b|ので|ため|から|대신|때문에|因为|而不是/i;

/**
 * The decision sentences of a user message: a choice with its reason or the alternative it
 * replaces (at most 2), not questions, hedges, open alternatives or a bare request.
 */
export function userDecisionsOf(text: string): string[] {
  const t = text.trim();
  if (!t || isProtocol(t)) return [];
  return sentencesOf(proseOf(t), CJK.test(t))
    .filter((x) => (USER_CHOICE.test(x) || DECISION.test(x)) && CHOICE_REASON.test(x) && !/[?？]$/.test(x) && !HEDGED.test(x) && !UNDECIDED.test(x) && !CODE_LINE.test(x) && !isNoise(x))
    .slice(0, 2);
}

/** A lasting fact a user message states: its standing instruction, a decision with its reason, or a stated value. */
export interface UserFact {
  kind: 'instruction' | 'decision' | 'environment';
  content: string;
  /** `important` for an instruction with remember / always / never / from now on (or its equivalent). */
  importance: 'important' | 'normal';
  /** Stable within the message: `rule`, `dec0`, `env0`, `env1`. */
  key: string;
}

/**
 * What a user message states that lasts, by the rules above: the instruction ({@link instructionOf})
 * and the environment facts ({@link environmentFacts}) not already inside it. Host and hook
 * protocol text gives nothing. Shared by `mind import` and the UserPromptSubmit hook, so a live
 * capture and a later import keep the same facts.
 */
export function userFacts(text: string): UserFact[] {
  if (isProtocol(text)) return [];
  const out: UserFact[] = [];
  // a decision sentence is a decision, unless it is phrased as a standing rule (always, never, from now on)
  const decisions = userDecisionsOf(text).filter((d) => !EMPHATIC.test(d));
  const ruleText = instructionOf(text);
  const rule = ruleText && decisions.length ? sentencesOf(ruleText, CJK.test(ruleText)).filter((x) => !decisions.some((d) => d.includes(x) || x.includes(d))).join(' ') || undefined : ruleText;
  if (rule) out.push({ kind: 'instruction', content: rule, importance: EMPHATIC.test(rule) ? 'important' : 'normal', key: 'rule' });
  decisions.forEach((d, i) => out.push({ kind: 'decision', content: d, importance: 'normal', key: `dec${i}` }));
  const said = [rule, ...decisions].filter((x): x is string => !!x);
  environmentFacts(text)
    .filter((f) => !said.some((x) => x.includes(f)))
    .forEach((f, i) => out.push({ kind: 'environment', content: f, importance: 'normal', key: `env${i}` }));
  return out;
}

/** Markdown emphasis and headings removed, identifiers (`multiply_numbers`, `__init__`) kept whole. */
function plain(text: string): string {
  return text
    .replace(/`+/g, '')
    .replace(/(^|[\s(])[*_]{1,3}(?=\S)|(?<=\S)[*_]{1,3}(?=[\s).,:;!?]|$)/gm, '$1')
    .replace(/^#{1,6}\s+/gm, '');
}

/**
 * Outcome sentences of an assistant message that ends a turn: what was done and its result, kept
 * only when the message states a result (done, complete, tests pass, committed, verified, works
 * now, coverage...: {@link RESULT}); narration ("let me"), intros ending in `:` and questions are
 * not outcomes. With `decisions`, the decision sentences too ("we decided to pin pnpm to 9.12
 * because...": the Stop hook keeps both). At most 3 (4) sentences, in order; undefined when
 * there is none.
 */
export function outcomeOf(text: string, opts: { decisions?: boolean } = {}): string | undefined {
  const ss = plain(text)
    .split(/(?<=[.!?])\s+|\n+/)
    .map((x) => x.replace(/^\s*(?:[-•]|\d+[.)])\s*/, '').trim())
    .filter((x) => x.length >= (CJK.test(x) ? 6 : 16) && x.length <= 400 && !NARRATION.test(x) && !/[?:]$/.test(x) && !PASTED_LINE.test(x) && !isNoise(x));
  const isDecision = (x: string) => !!opts.decisions && DECISION.test(x) && !NOT_DECISION.test(x) && !UNDECIDED.test(x);
  // a turn that commits to a decision (the Stop hook's case) carries its work sentences too
  const stated = ss.some((x) => RESULT.test(x) || isDecision(x));
  // the result, the work it names, and the sentence just before the first result (what it is about)
  const first = ss.findIndex((x) => RESULT.test(x));
  const kept = ss.filter((x, i) => (stated && (OUTCOME.test(x) || RESULT.test(x) || (i === first - 1 && /[.!。！]$/.test(x)))) || isDecision(x));
  // a result that names nothing ("It builds successfully.") alone is no outcome to keep
  if (kept.every((x) => BARE_RESULT.test(x) && !isDecision(x))) return undefined;
  return kept.length ? kept.slice(0, opts.decisions ? 4 : 3).join(' ') : undefined;
}

/** The decision sentences of an assistant message: commitments, not guesses, narration, open alternatives, questions or code. */
export function decisionsOf(sentences: readonly string[]): string[] {
  return sentences.filter((s) => DECISION.test(s) && !NOT_DECISION.test(s) && !UNDECIDED.test(s) && !HEDGED.test(s) && !CODE_LINE.test(s) && !s.endsWith('?') && !isNoise(s));
}

/** A tool error worth remembering with its fix: not a bare exit status, an abort, the agent's own tool misuse, or noise. */
export function meaningfulError(line: string): boolean {
  const t = line.replace(/\(no output\)|Command exited with code \d+|Exit code \d+/gi, '').trim();
  return t.length >= 12 && !/^(?:command aborted|aborted|interrupted|cancelled)\b/i.test(t) && !TOOL_MISUSE.test(t) && !isNoise(t);
}

/** The sentence of an assistant message that states, after the fact and without hedging, what caused an error or resolved it. */
export function fixOf(sentences: readonly string[]): string | undefined {
  return sentences.find((s) => FIX_STATED.test(s) && !NARRATION.test(s) && !HEDGED.test(s) && !isNoise(s));
}
