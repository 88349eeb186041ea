/**
 * The text primitives of the harvest (README "Harvest"), pure functions over one message at a time:
 * sentences and prose (pasted terminal, log, container, diff and JSON lines removed), the values a
 * fact can hold (ports, paths, versions, rates, colors), the environment facts and decisions a
 * user states, what a blocking hook requires, and a tool error with the fix that resolved it.
 * Which of them become standing memory is decided in standing.ts; the pipeline is harvest.ts.
 */
import { STOP_WORDS } from '../recall/analyze.js';
import { isProtocol } from './host-text.js';

/** Decision phrasing: a commitment to an approach ("I'll use", "we decided to", "switched to", "the root cause was"). */
const DECISION =
  /\b(?:I(?:'ll| will) (?:use|go with|switch to|keep|replace)|we(?:'ll| will| should) (?:use|go with|switch to|keep)|(?:decided|chose|opted) (?:to|for|on)|let's (?:use|go with|switch to|keep)|switched (?:to|from)|the (?:fix|root cause|solution) (?:is|was))\b/i;
/** Guesses and narration that look like decisions but are not ("I bet...", "let me...", "maybe..."). */
const NOT_DECISION = /^(?:I bet|let me|let's see|let's check|maybe|perhaps|probably|I think|I guess|I wonder|it might|it seems|seems|possibly|if )\b/i;
/** Alternatives still open ("make X invalidate, or to improve the cache key"): not decided yet. */
const UNDECIDED = /,\s*or\b|\bor (?:to|just|simply|maybe|perhaps)\b|\b(?:either way|not sure|unclear)\b/i;
/** Hedged claims: a cause or a fix that is only guessed. */
const HEDGED = /\b(?:maybe|might|perhaps|probably|possibly|likely|I think|I guess|I suspect|could be|seems? to|iiuc|afaik|afaict|imo|imho)\b/i;
/** Sentence ends: `.!?` before whitespace (so `main.ts` stays whole), the CJK full stops, line breaks. */
const SENTENCE_END = /(?<=[.!?])\s+|(?<=[。！？])|\n+/;
/** A line pasted from a terminal, a diff, a table, a stack trace, a log or JSON: never the user's own prose. */
const PASTED_LINE = /^\s*(?:[+-] ?\d|[+-]{3} |@@ |➜|\$ |> |\||```|at [\w.$<>\[\]]+ \(|at (?:file|node):|[{[]["{[]|(?:Error|TypeError|RangeError|SyntaxError|Traceback|Exception|panic|warning|error)\b[:\[]|\d{4}-\d\d-\d\dT\d\d:|[─━═│┃┌└├╭╰⠇⠋⠙⠹→●•]|\S+\.(?:png|jpe?g|gif)'?$|\S+:\d+(?::\d+)?\)?$|\s+[\w$]+: ['"\[{\d])/i;
/**
 * A line a program printed: a log line (a timestamp or a level first, `LOG:`), a container's
 * status (`docker ps` rows and headers, Compose's `name-1  | ` prefix, `[+] Running`, `✔ Container`),
 * a column table (three or more runs of 2+ spaces). Never a fact the user or the agent states.
 */
const PRINTED_LINE =
  /^\s*(?:\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d|\[?\d\d:\d\d:\d\d(?:[.,]\d+)?\]?\s|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|NOTICE)\]?[\s:]|[\w.-]+-\d+\s+\||[0-9a-f]{12}\s{2,}|CONTAINER ID\b|NAMES?\s{2,}|REPOSITORY\s{2,}|\[\+\]|[✔✓✗✘×]\s)|\b(?:LOG|FATAL|PANIC|STATEMENT):\s|(?:\S\s{2,}){3}/;
/** Words of venting and profanity removed from a kept instruction ("omfg use fucking rgb values" -> "use rgb values"). */
export const VENTING = /\b(?:omfg|wtf|w\.t\.f|fucking|fuckin|fucked|fuck|shitty|shit|damn|dammit|goddamn|jesus|dude|my dude|bloody|crap|ffs|lol|ugh|you idiot|idiot|stupid)\b[,!.]*\s*/gi;
/** A request to act now rather than a rule ("please ...", "can you ...", "tell me ...", "undo that"). */
const REQUEST = /\b(?:please|pls|can you|could you|would you|tell me|let me know|for me|undo (?:that|this|it)|revert (?:that|this|it)|try again)\b|お願い|してくれ|해 ?줘|해주세요|请帮|帮我/i;
/**
 * A value a fact can hold: hex color, percentage, port, host:port, version, path, URL, command in
 * backticks, a machine named after what it is ("the server app-01", "region eu-west-1", "Server
 * app-01": a name with a dash), a rate or a limit ("100 requests per minute", "at most 60", "limited to 5").
 */
const VALUE =
  /#[0-9a-f]{6}\b|\b(?=[0-9a-f]*\d)[0-9a-f]{6}\b|\d+(?:\.\d+)?\s?%|(?:\bport|ポート|端口|포트)\s*\d{2,5}\b|\d{2,5}\s*(?:端口|番ポート)|[\w-]+(?:\.[\w-]+)+:\d{2,5}\b|\b\d+\.\d+(?:\.\d+)?\b|(?:^|\s)(?:~|\.{1,2})?\/[\w.-]+\/[\w./-]+|\b[\w.-]+\/[\w./-]*\.[a-z]{1,5}\b|\b[\w-]+\/[\w-]+\/[\w./-]+|https?:\/\/\S+|`[^`]{2,80}`|(?:\b(?:server|host|hostname|region|cluster|bucket|namespace|instance|droplet|vm|servidor|serveur|serwer)\s+)(?=[a-z0-9-]*[-\d])[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b|\b\d+(?:[.,]\d+)?\s*(?:[\p{L}-]+\s+){0,2}?(?:per|an?|each|\/)\s*(?:second|sec|s|minute|min|hour|hr|h|day|request|user|key|token|ip|client|tenant)\b|\b(?:at most|up to|max(?:imum)?|limit(?:ed)? (?:of|to|at)|capped at)\s+\d+|(?:초당|분당|시간당|일당|每秒|每分钟|每小时|每天|毎秒|毎分|毎時|1秒あたり|1分あたり)\s*(?:최대|最多|至多|最大(?:で)?)?\s*\d+|\d+\s*(?:건|회|번|件|次|回|リクエスト)\s*(?:\/|까지|まで|以内)/iu;

/** True when `sentence` holds a value a fact can hold ({@link VALUE}) or a product's major version ({@link majorVersionOf}). */
export function hasValue(sentence: string): boolean {
  return VALUE.test(sentence) || majorVersionOf(sentence) !== undefined;
}
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

/** Copulas of a stated fact ("X is Y", "X lives in Y", "X uses Y", "X -> Y"), in the languages of standing-lexicon.ts. */
export const STATES =
  /\b(?:is|are|was|should be|uses?|lives? in|runs? on|listens? on|goes? (?:to|in)|means|allows?|permits?|accepts?|(?:is|are) (?:limited|capped) (?:to|at)|ist|sind|läuft|liegt|nutzt|est|sont|utilise|es|está|usa|è|é)\b|[:=]|->|→|です|で動|にあ|を使|は\S+で|に制限|是|在|用|最多|限制|입니다|제한|에서|사용|이에요|예요|(?<=[\p{L}\p{N}]\s+)(?:run|runs|needs?(?!\s+to\b)|requires?|targets?|pinned to|upgraded to|built with|written in)\b|\b(?:we're|we are|i'm|i am) on\b/iu;
/** Narration of what the agent is about to do: not a finding, not a fix. */
const NARRATION = /^(?:let me|let's|now,? |i'll|i will|i need to|i'm going to|next,? i|first,? i|okay,? (?:let me|i'll)|ok,? (?:let me|i'll)|perfect!? (?:let me|now)|great!? (?:let me|now))\b/i;
/** A fix that says, after the fact, what was wrong or what resolved it. */
const FIX_STATED = /\b(?:root cause (?:is|was)|was caused by|the (?:issue|problem|bug) was|fixed by|resolved by|works now|now works|passing now|now passes|the fix was)\b/i;
/** Errors of the agent's own tool use (an edit that did not match, a file it guessed wrong): not facts about the project. */
const TOOL_MISUSE =
  /could not find the exact text|no changes made|old[_ ]?(?:text|string) (?:must|not)|string to replace|not found in (?:the )?file|file has not been read|has been modified since|no such file or directory|is a directory|not a directory|command not found|permission to use|user (?:rejected|denied)|doesn'?t want to proceed|^(?:grep|rg|sed|cat|ls|cd|find|head|tail|awk|mv|cp|rm|mkdir|stat|wc): /i;
/** Source code rather than prose (a call or statement). */
export const CODE_LINE = /^[\w.$]+\(|[;{]\s*$|\)\s*;?\s*$/;
/** One-off steering ("no, the block should stay as is", "actually, revert that") rather than a rule. */
export const CORRECTION_ONLY = /^(?:no|nope|wrong|actually|wait|hm+|that'?s (?:not|wrong)|this is wrong|not like that|undo)\b(?![^.!]*\b(?:always|never|from now on|remember)\b)/i;
/** One-word replies and acknowledgements that carry no instruction. */
export const ACK =
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

/** Discourse words that open a sentence and carry nothing ("ok, ", "and also, ", "btw ", "그리고", "あと、", "另外，"). */
export const LEAD_IN = /^(?:(?:ok(?:ay)?|alright|and|also|btw|so+|well|yeah|yes|hm+|oh)\b[,.!]?\s+|(?:그리고|또한|그리고요|あと|それと|そして|还有|另外|而且)[,，、\s]+)+/i;
export const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Minified code, hashes and binary noise: long unbroken tokens or mostly punctuation (letters, digits and spaces under 60%). */
export function isNoise(line: string): boolean {
  if (/\S{90,}/.test(line)) return true;
  const letters = (line.match(/[\p{L}\p{N}\s]/gu) ?? []).length;
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

/** The user's own prose in a message: pasted terminal, diff, log, stack-trace and JSON lines and code fences removed. */
export function proseOf(text: string): string {
  return text
    .replace(/```[\s\S]*?(?:```|$)/g, '\n')
    .split('\n')
    .filter((l) => !PASTED_LINE.test(l) && !PRINTED_LINE.test(l) && !isNoise(l.trim()))
    .join('\n');
}

export function sentencesOf(text: string, cjk: boolean): string[] {
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

/** Markdown emphasis and headings removed, identifiers (`multiply_numbers`, `__init__`) kept whole. */
export function plain(text: string): string {
  return text
    .replace(/`+/g, '')
    .replace(/(^|[\s(])[*_]{1,3}(?=\S)|(?<=\S)[*_]{1,3}(?=[\s).,:;!?]|$)/gm, '$1')
    .replace(/^#{1,6}\s+/gm, '');
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
