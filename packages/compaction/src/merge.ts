/**
 * Merging prior checkpoints item by item: a checkpoint in the span (ours, or a host's own,
 * recognized by content wherever it sits: pi's `## Goal / ## Progress / ### Done` summary,
 * Claude Code's numbered `1. Primary Request and Intent:` summary, Codex's handoff, Hermes'
 * `## Historical Task Snapshot` summary) is parsed into the checkpoint sections and merged with
 * the newer state. Newer state wins (in progress, next step, a file's state, a command's outcome,
 * the plan's items, a restated goal); lasting items stay (constraints, decisions, done, files);
 * repeats merge; one of each section. Multi-line blocks (trees, tables) stay whole as one item;
 * the code snippets of a host summary's file notes are left out (the files can be read again).
 * What the newer state contradicts is dropped afterwards (state.ts).
 */
import { CHECKPOINT_HEADINGS } from './checkpoint-format.js';
import { findingKey } from './findings.js';
import { withoutHostOpening } from './host-summary.js';
import { lastingInstructions } from './rules.js';
import type { Item, Section } from './sections.js';
import { repeats, splitSentences } from './sentences.js';
import { sameSubject } from './subject.js';
import { PRESERVED_HEADING } from './summarizer.js';

/** Section for prior items whose heading maps to none of ours (a host's "Key Technical Concepts"...). */
export const EARLIER_CONTEXT = 'Earlier context';
/** Claude Code's "All user messages": the user's lines, read for their rules (never kept verbatim). */
const USER_MESSAGES = 'User messages';

/** A parsed checkpoint: canonical heading -> items, in order. */
export type ParsedCheckpoint = Map<string, Item[]>;

/**
 * Headings a host summary uses, by the section they map to: English (pi, Claude Code, Codex,
 * Hermes), and the same headings in French, Spanish, German, Japanese and Korean, since a host
 * model writes its summary in the user's language.
 */
const ALIASES: Array<[RegExp, string]> = [
  [/^(?:objectif|but|demande(?: principale)?|objetivo|meta|solicitud(?: principal)?|petición|ziel|zielsetzung|anliegen|auftrag|目的|目標|ゴール|依頼|要望|목표|목적|요청)$/u, 'Goal'],
  [/^(?:contraintes?(?: et préférences)?|préférences|règles(?: du projet)?|restricciones|preferencias|reglas(?: del proyecto)?|requisitos|einschränkungen|vorgaben|(?:projekt)?regeln(?: des projekts)?|präferenzen|制約|制約条件|(?:プロジェクトの)?ルール|方針|要件|제약(?:\s?조건)?|(?:프로젝트\s?)?규칙|요구\s?사항)$/u, 'Constraints and preferences'],
  [/^(?:constats?(?: de l'exploration)?|résultats de l'exploration|hallazgos(?: de la exploración)?|erkenntnisse|befunde|調査結果|判明したこと|조사\s?결과|발견\s?사항)$/u, 'Findings'],
  [/^(?:fait|terminé|réalisé|travail terminé|hecho|completado|terminado|trabajo completado|erledigt|abgeschlossen|fertig|完了|完了した作業|済み|완료|완료된 작업)$/u, 'Done'],
  [/^(?:décisions?(?: prises)?|decisiones|entscheidungen|決定事項|決定|判断|결정(?:\s?사항)?)$/u, 'Decisions'],
  [/^(?:rejeté|abandonné|rechazado|descartado|verworfen|abgelehnt|却下|不採用|거부|폐기)$/u, 'Rejected or reverted'],
  [/^(?:erreurs?(?: et corrections)?|errores|fehler|エラー|エラーと修正|오류|에러)$/u, 'Errors and fixes'],
  [/^(?:commandes|comandos|befehle|コマンド|명령어?)$/u, 'Commands'],
  [/^(?:fichiers|archivos|ficheros|dateien|ファイル|関連ファイル|파일|관련 파일)$/u, 'Files'],
  [/^(?:en cours|(?:dernier )?état(?: actuel)?|en curso|en progreso|(?:último )?estado(?: actual)?|in arbeit|laufend|(?:letzter )?stand|進行中|作業中|現状|現在の状態|진행\s?중|(?:현재 )?상태)$/u, 'In progress'],
  [/^(?:prochaines? étapes?|suite|ensuite|siguiente|siguientes? pasos?|próximos? pasos?|nächste schritte?|nächster schritt|als nächstes|次(?:の(?:作業|ステップ|手順))?|次にやること|다음(?:\s?단계|\s?작업)?|할 일)$/u, 'Next step'],
  [/^(?:goal|goals|objective|primary requests?(?: and intent)?|user intent|task|overall goal|session goal|the goal|project|projet|proyecto|projekt|プロジェクト|프로젝트)$/u, 'Goal'],
  [/^all user messages$/, USER_MESSAGES],
  [/^(?:constraints?(?: (?:&|and) preferences)?|preferences|user instructions(?: and corrections)?|requirements|(?:project )?rules|user preferences|user constraints)$/, 'Constraints and preferences'],
  [/^(?:(?:key )?findings|what (?:was|we) found|exploration findings)$/, 'Findings'],
  [/^(?:done|completed|complete|accomplished|work completed|completed work(?: packages)?|finished|ai actions(?: \/ code behavior)?|progress done)$/, 'Done'],
  [/^(?:key decisions(?: made)?|decisions(?: made)?|design decisions|technical decisions|architecture decisions|helpful techniques(?: \/ approaches)?)$/, 'Decisions'],
  [/^(?:rejected(?: or reverted)?|reverted|rejected changes|do not re-?apply|failed approaches(?: \/ avoid)?|things to avoid)$/, 'Rejected or reverted'],
  [/^(?:errors?(?: and fixes)?|issues?(?: and fixes)?|problems? solved|problem solving|bugs? fixed)$/, 'Errors and fixes'],
  [/^(?:commands(?: run)?|commands that matter|build and test)$/, 'Commands'],
  [/^(?:files(?: and code sections)?|files (?:modified|read|created|changed|touched)|files created\/modified|relevant files|related files(?: \/ documents)?|file structure|key files|modified files)$/, 'Files'],
  [/^(?:in progress|current work|current task|current state|current status|status|pending(?: tasks)?|blocked|open tasks|work in progress|active task|(?:historical )?task snapshot|(?:historical )?in-progress state|(?:historical )?pending user asks)$/, 'In progress'],
  [/^(?:next|next steps?|optional next step|immediate next steps?|todo|to do|(?:historical )?remaining work|open issues(?: \/ next steps)?)$/, 'Next step'],
];

/** Our heading for a prior section heading, or undefined when none fits. */
export function canonicalHeading(h: string): string | undefined {
  const k = h.toLowerCase().replace(/[*_`]/g, '').replace(/^\d+[.)]\s*/, '').replace(/\s*\(.*\)\s*$/, '').replace(/:$/, '').trim();
  const known = (CHECKPOINT_HEADINGS as readonly string[]).find((s) => s.toLowerCase() === k);
  if (known) return known;
  for (const [re, to] of ALIASES) if (re.test(k)) return to;
  // "Current Task: File Reorganization" -> the name before the colon
  const before = k.split(':')[0]!.trim();
  if (before !== k) for (const [re, to] of ALIASES) if (re.test(before)) return to;
  return undefined;
}

const HEADING = /^(?:#{1,4}\s+(.+?)\s*#*$|(\d+)\.\s+([\p{Lu}\p{Script=Han}\p{Script=Katakana}\p{Script=Hangul}][^:：\n]{1,60}?)\s?[:：]\s*$|([A-Z][A-Za-z &/]{2,40}):\s*$)/u;
/** A numbered section with its text on the same line: `3. Constats de l'exploration : aucune contrainte`, `5. Current state: 2 failing`. */
const NUMBERED_LABEL = /^(\d+)\.\s+([\p{Lu}\p{Script=Han}\p{Script=Katakana}\p{Script=Hangul}][^:：\n]{1,60}?)\s?[:：]\s*(\S.*)$/u;
/** A label at the start of a line with its text after it: `**Objective:** port the parser`, `Goal: port the parser`. */
const INLINE_LABEL = /^(?:\*\*([^*\n]{2,60}?):?\*\*:?|(\p{Lu}[\p{L} &/-]{1,40}?(?:\s*\([^()\n]{1,40}\))?)\s?[:：])\s*(\S.*)$/u;

/** The first path-like or backticked token of an item: its merge key for Files and Commands; a todo item's text. */
function keyOf(heading: string, text: string): string | undefined {
  if (heading === 'Files') {
    const m = /`([^`\s]+)`/.exec(text) ?? /((?:[\w.-]+\/)+[\w.-]+\.\w+)/.exec(text);
    return m?.[1];
  }
  if (heading === 'Commands') return /`([^`]+)`/.exec(text)?.[1];
  if (heading === 'Findings') return findingKey(text);
  if (heading === 'Done' && /^Plan items done:/.test(text)) return 'todo-done';
  const todo = /^(.+?) \(todo [\w-]+\)$/.exec(text);
  if (todo) return `todo:${todo[1]}`;
  return undefined;
}

/** Leading spaces of a line. */
const indentOf = (l: string) => /^ */.exec(l)![0].length;

/**
 * Parse a checkpoint body into our sections. Bullets (`-`, `*`, `1.`, `- [x]`) are items,
 * indented lines and nested bullets continue their item (indentation is read relative to the
 * section's own, so Claude Code's three-space-indented sections parse like flush ones), a fenced
 * block is one item, a paragraph is one item, `**Label:** text` opens the section the label
 * names, so does a numbered label with its text when it takes the next number of the numbered
 * sections ("2. Décisions :" then "3. Constats : aucune contrainte"); a title line that only
 * introduces what follows ("Résumé de la conversation précédente :") is left out. Text before any heading, and a body with no headings, go to {@link EARLIER_CONTEXT}; so
 * do sections whose heading maps to none of ours (prefixed by it). Claude Code's "All user
 * messages" become the rules they state (Constraints), never the lines themselves.
 */
export function parseCheckpoint(body: string): ParsedCheckpoint {
  const out: ParsedCheckpoint = new Map();
  let text = hostBoilerplateRemoved(body);
  // the host's pointer to its full transcript is context, whatever section it closes
  const pointer = /^Full transcript before that compaction: `[^`]+`$/m.exec(text)?.[0];
  if (pointer) text = text.replace(pointer, '').trim();
  let heading = EARLIER_CONTEXT;
  let label = '';
  let cur = null as Item | null;
  let fence = false;
  let base = -1;
  // the number of the last numbered section heading ("1. Primary Request and Intent:"): the next
  // number with a label and its text on the same line opens the next section too
  let lastNumber = 0;
  const push = (raw: string) => {
    // an item of no known section that opens with a section's label ("- Project: kungfu-chess ...", "- Next: remove ...") belongs there
    const labelled = heading === EARLIER_CONTEXT ? INLINE_LABEL.exec(raw) : null;
    const to = labelled ? canonicalHeading((labelled[1] ?? labelled[2])!) : undefined;
    const h = to && to !== PRESERVED_HEADING ? to : heading;
    const t = to ? labelled![3]!.trim() : raw;
    const arr = out.get(h) ?? [];
    out.set(h, arr);
    const tx = label && h === EARLIER_CONTEXT ? `(${label}) ${t}` : t;
    cur = { text: tx, prior: true };
    arr.push(cur);
  };
  const open = (name: string) => {
    const canon = canonicalHeading(name);
    if (name.toLowerCase() === PRESERVED_HEADING.toLowerCase()) {
      heading = PRESERVED_HEADING;
      label = '';
    } else if (canon) {
      heading = canon;
      label = '';
    } else if (!/^progress$/i.test(name.trim())) {
      heading = EARLIER_CONTEXT;
      label = name.replace(/[*_`#]/g, '').replace(/:$/, '').trim();
    }
    cur = null;
    base = -1;
  };
  for (const line of text.split('\n')) {
    if (base < 0 && line.trim()) base = indentOf(line);
    const raw = line.slice(Math.min(Math.max(base, 0), indentOf(line)));
    if (fence) {
      (cur as Item).text += '\n' + raw;
      if (/^\s*```/.test(raw)) fence = false;
      continue;
    }
    if (/^\s*```/.test(raw)) {
      // a block under an item (introduced by it, or indented below it) belongs to that item
      if (cur && (/:\s*$/.test(cur.text) || indentOf(raw) >= 2)) cur.text += '\n' + raw;
      else push(raw);
      fence = true;
      continue;
    }
    const h = HEADING.exec(raw.trim());
    // "All core refactoring is done:" introduces a list; only a known section name is a heading in that form
    if (h && !/^\s*[-*]/.test(raw) && (h[4] === undefined || canonicalHeading(h[4]) !== undefined)) {
      if (h[2] !== undefined) lastNumber = Number(h[2]);
      open((h[1] ?? h[3] ?? h[4])!);
      continue;
    }
    // a summary numbered by section ("2. Décisions :" then "3. Constats : aucune contrainte ..."):
    // a numbered line at the sections' own indentation, a label and its text, opens the next section
    const numbered = indentOf(raw) === 0 ? NUMBERED_LABEL.exec(raw) : null;
    if (numbered && Number(numbered[1]) === lastNumber + 1 && (lastNumber > 0 || canonicalHeading(numbered[2]!) !== undefined)) {
      lastNumber++;
      open(numbered[2]!);
      push(numbered[3]!.trim());
      continue;
    }
    // "Goal: port the parser" is one item of that section; the lines after it belong where they were
    const inline = indentOf(raw) === 0 && heading === EARLIER_CONTEXT ? INLINE_LABEL.exec(raw.trim()) : null;
    if (inline && canonicalHeading((inline[1] ?? inline[2])!) !== undefined) {
      push(raw.trim());
      cur = null;
      continue;
    }
    if (!raw.trim()) {
      if (cur && !/^\s*[-*\d]/.test((cur as Item).text)) cur = null; // a paragraph ends at a blank line
      continue;
    }
    const bullet = /^(\s*)(?:[-*+]|\d+[.)])\s+(?:\[( |x|X)\]\s+)?(.*)$/.exec(raw);
    if (bullet && bullet[1]!.length < 2) {
      const item = bullet[3]!.trim();
      const checked = bullet[2];
      if (checked && /x/i.test(checked) && heading !== 'Done') {
        const keepHeading = heading;
        heading = 'Done';
        push(item);
        heading = keepHeading;
      } else push(item);
      continue;
    }
    if (cur && (/^\s{2,}\S/.test(raw) || bullet)) {
      (cur as Item).text += '\n' + raw.replace(/\s+$/, '');
      continue;
    }
    // a line right after an item that is no bullet continues it (a wrapped line)
    if (cur && !bullet) {
      (cur as Item).text += ' ' + raw.trim();
      continue;
    }
    push(raw.trim());
  }
  // a title line that only introduces what follows ("Résumé de la conversation précédente :") says nothing
  const context = out.get(EARLIER_CONTEXT);
  if (context) {
    const said = context.filter((it) => !(!it.text.includes('\n') && it.text.length <= 80 && /[:：]$/.test(it.text)));
    if (said.length) out.set(EARLIER_CONTEXT, said);
    else out.delete(EARLIER_CONTEXT);
  }
  // our own "Preserved details": each kind back to its section
  const preserved = out.get(PRESERVED_HEADING);
  if (preserved) {
    out.delete(PRESERVED_HEADING);
    for (const it of preserved) {
      const m = /^(Last user request|User said|Modified file|Error seen|Identifiers still in use):\s*(.*)$/s.exec(it.text);
      const to = m ? { 'Last user request': 'In progress', 'User said': 'Constraints and preferences', 'Modified file': 'Files', 'Error seen': 'Errors and fixes', 'Identifiers still in use': EARLIER_CONTEXT }[m[1]!]! : EARLIER_CONTEXT;
      const t = m?.[1] === 'Last user request' ? `Latest request: ${m[2]!.replace(/^"|"$/g, '')}` : m?.[1] === 'User said' ? m[2]!.replace(/^"|"$/g, '') : m?.[1] === 'Modified file' ? `${m[2]} (modified)` : it.text;
      const arr = out.get(to) ?? [];
      arr.push({ text: t, prior: true });
      out.set(to, arr);
    }
  }
  // Claude Code's "All user messages": the rules they state
  const said = out.get(USER_MESSAGES);
  if (said) {
    out.delete(USER_MESSAGES);
    const rules = said.flatMap((it) => lastingInstructions(it.text.replace(/^["“]|["”]$/g, '')));
    if (rules.length) out.set('Constraints and preferences', [...(out.get('Constraints and preferences') ?? []), ...rules.map((t) => ({ text: t, prior: true }))]);
  }
  for (const [h, items] of out) {
    // "All core refactoring is done:" introduced the items that follow it: not an item of its own
    out.set(h, items.filter((it, i) => !(/:$/.test(it.text) && !it.text.includes('\n') && i < items.length - 1)));
  }
  if (pointer) out.set(EARLIER_CONTEXT, [...(out.get(EARLIER_CONTEXT) ?? []), { text: pointer, prior: true }]);
  for (const [h, items] of out) for (const it of items) {
    if (h !== EARLIER_CONTEXT) it.text = flattened(withoutCode(it.text));
    const k = keyOf(h, it.text);
    if (k) it.key = k;
  }
  return out;
}

/** An item with nested bullets (a host summary's "file" then "- why", "- what changed") as one line: "file: why; what changed". A tree or table stays a block. */
function flattened(text: string): string {
  const lines = text.split('\n');
  if (lines.length < 2 || text.includes('```') || lines.some((l) => /[│├└|]/.test(l))) return text;
  const sub = lines.slice(1).map((l) => l.trim().replace(/^(?:[-*+]|\d+[.)])\s+/, '').replace(/[.;]$/, '')).filter(Boolean);
  return `${lines[0]!.replace(/[:.]$/, '')}: ${sub.join('; ')}.`;
}

/** An item's fenced code left out when prose says what it is (a host summary's "file: why, changes, snippet"); a block that is the whole item stays. */
function withoutCode(text: string): string {
  if (!text.includes('```')) return text;
  const prose = text.replace(/\n?\s*```[\s\S]*?(?:```|$)/g, '').trim();
  return prose && !/^```/.test(text.trim()) ? prose.replace(/:$/, '') : text;
}

/**
 * A host summary without the host's framing: the opening each host writes (host-summary.ts),
 * Claude Code's `<analysis>` scratchpad (also as a plain "Analysis:" part before "Summary:"),
 * its "Continue the conversation..." closing and `<system-reminder>` blocks; its pointer to the
 * full transcript is kept as one line.
 */
function hostBoilerplateRemoved(body: string): string {
  let t = withoutHostOpening(body.trim())
    .replace(/<analysis>[\s\S]*?<\/analysis>/g, '')
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '')
    .replace(/<\/?summary>/g, '');
  t = t.replace(/^Analysis:\s*\n[\s\S]*?\n(?=Summary:\s*$)/m, '').replace(/^Summary:\s*$/m, '');
  t = t.replace(/^This session is being continued from a previous conversation[^\n]*(?:\n|$)/m, '');
  t = t.replace(/^If you need specific details from before compaction[^\n]*?read the full transcript at:\s*(\S+)[^\n]*$/m, 'Full transcript before that compaction: `$1`');
  t = t.replace(/^(?:Please )?[Cc]ontinue the conversation from where (?:it|we) left (?:it )?off[^\n]*$/m, '');
  return t.trim();
}

/** A checkpoint's note that the user corrected the agent, in the languages of cues.ts. */
export const CORRECTED_NOTE = /\bcorrected\b|\bkorrigiert|\bcorrigé|\bcorrigió|\bcorrigi[óo]\b|訂正|정정|바로잡/iu;

/** Sections whose newer items replace the older ones entirely (state, not history). */
const SUPERSEDED = new Set(['In progress', 'Next step']);

/** Merge two parsed checkpoints: `newer` wins where state is superseded; lasting items are kept, repeats merged. */
export function mergeTwo(older: ParsedCheckpoint, newer: ParsedCheckpoint): ParsedCheckpoint {
  const out: ParsedCheckpoint = new Map();
  const heads = [...new Set([...older.keys(), ...newer.keys()])];
  for (const h of heads) {
    const o = older.get(h) ?? [];
    const n = newer.get(h) ?? [];
    if (SUPERSEDED.has(h)) {
      out.set(h, n.length ? [...n] : [...o]);
      continue;
    }
    if (h === 'Goal' && o.length) {
      // a restated goal replaces the old one; otherwise the goal of the session stays and the newer span's first request is its latest request
      if (n.length && o.some((y) => n.some((x) => sameSubject(y.text, x.text)))) {
        out.set(h, [...n]);
        continue;
      }
      out.set(h, [...o]);
      const req = n.filter((x) => !o.some((y) => repeats(x.text, y.text)));
      if (req.length) {
        const prog = newer.get('In progress') ?? [];
        if (!prog.some((x) => /^Latest request:/.test(x.text))) newer.set('In progress', [{ text: `Latest request: ${req[req.length - 1]!.text}` }, ...prog]);
      }
      continue;
    }
    // the plan by its newest state: a newer list of finished items replaces the older ones
    const older2 = h === 'Done' && n.some((x) => x.key === 'todo-done') ? o.filter((x) => !x.key?.startsWith('todo')) : o;
    const merged: Item[] = [];
    for (const it of [...older2, ...n]) {
      const i = merged.findIndex((x) => (it.key !== undefined && x.key === it.key) || repeats(x.text, it.text));
      if (i >= 0) merged.splice(i, 1);
      merged.push(it);
    }
    out.set(h, merged);
  }
  // In progress may have been extended by the goal rule after it was copied
  if (newer.get('In progress')?.length) out.set('In progress', [...newer.get('In progress')!]);
  return out;
}

/**
 * A prior checkpoint's Done items without the sentences about a file the span changed again
 * (`files`: the span's own Files items, keyed by path): what that file holds now is the span's to
 * say, the prior's report of it is history ("src/alerts.ts sent e-mail" before the span rewrote it).
 * An item left with no sentence goes.
 */
function withoutChangedAgain(done: readonly Item[], files: readonly Item[]): Item[] {
  const changed = files.filter((it) => it.key && it.key !== 'branch' && !/\(read\)$/.test(it.text)).map((it) => it.key!);
  if (!changed.length) return [...done];
  const names = (s: string) => changed.some((p) => new RegExp(`(?:^|[\\s\`'"(/])${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w/-])`).test(s));
  const out: Item[] = [];
  for (const it of done) {
    if (it.text.includes('\n') || !names(it.text)) {
      out.push(it);
      continue;
    }
    const kept = splitSentences(it.text).filter((x) => !names(x));
    if (kept.length) out.push({ ...it, text: kept.join(' ') });
  }
  return out;
}

/** Merge prior checkpoints (oldest first) and the span's own sections into one section map. */
export function mergePrior(priors: readonly ParsedCheckpoint[], current: readonly Section[]): Map<string, Section> {
  const cur: ParsedCheckpoint = new Map(current.map((s) => [s.heading, s.items]));
  let acc: ParsedCheckpoint = new Map();
  for (const p of priors) acc = mergeTwo(acc, p);
  // the span went on after its last prior checkpoint: what that checkpoint had under way is stale
  // ... but a correction it notes ("der Nutzer hat den Agenten korrigiert") is a lasting rule
  if ([...cur.values()].some((items) => items.length)) {
    const corrected = (acc.get('In progress') ?? []).filter((it) => CORRECTED_NOTE.test(it.text));
    if (corrected.length) acc.set('Constraints and preferences', [...(acc.get('Constraints and preferences') ?? []), ...corrected.map((it) => ({ text: it.text, prior: true }))]);
    acc.delete('In progress');
  }
  const done = acc.get('Done');
  if (done) acc.set('Done', withoutChangedAgain(done, cur.get('Files') ?? []));
  const merged = priors.length ? mergeTwo(acc, cur) : cur;
  const out = new Map<string, Section>();
  for (const [h, items] of merged) out.set(h, { heading: h, items, keep: 0 });
  return out;
}
