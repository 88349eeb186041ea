/**
 * The Findings section: what each tool call of the span established, one line per call, so a
 * run of reads, searches and status checks with little prose still hands over what it found:
 * what a sub-agent or a research tool reported and how it ended, the names a file defines, the
 * settings it holds, where a search hit (the file and line of one hit, the files and counts of
 * many) or that it hit nothing, the state `git status` showed. Calls that other sections already
 * state are left to them: file changes (Files), failures (Errors and fixes), builds and tests
 * (Commands), todo lists. A newer call on the same file or command replaces the older line; a
 * read of a file the span then rewrote or deleted is no longer a finding. Each line carries a
 * weight (what it establishes), and budget fitting gives up the lightest first.
 */
import type { CallFact, SpanFacts } from './analyze.js';
import { commandKey, displayCommand, programs, runsMatteringProgram } from './commands.js';
import { reportsDone } from './done.js';
import { diffGist, fileGist, gitStatusGist, headSections, listed, brief, printingPipelines, resultLines, searchGist, searchProgram } from './gists.js';
import { MASK_MARKER } from './prune.js';
import { projectRulesOf, RULES_FILE } from './project-rules.js';
import { resultValue } from './results.js';
import type { Add } from './sections.js';
import { leadSentences, shortenWhole } from './sentences.js';
import { reportFindings, type SubAgentOutcome } from './subagents.js';
import { modifiesFiles } from './toolinfo.js';

/** Longest finding (characters): at most what budget fitting keeps whole (it shortens longer items by sentences, which would cut a quoted rule), so a longer finding names fewer items. */
const FINDING_CHARS = 240;

/** The search program of a call's shell command, if it is one. */
function searchProgramOf(c: CallFact): string | undefined {
  return c.info.kind === 'shell' && c.info.command ? searchProgram(c.info.command) : undefined;
}

/** A finding and what it establishes: 3 a sub-agent's or research result, the work tree's state, what a file the user named or a rules file holds; 2 a fact (what a file defines or sets, what `git log` showed, a single hit or no match), 1 a pointer (where many hits are, a listing, a first line), 0 a note on the environment. */
interface Finding {
  text: string;
  weight: number;
}

/** The finding of one call, one line, with its weight; undefined when the call established nothing another section does not state. */
function findingOfCall(c: CallFact, lim = 6): Finding | undefined {
  if (!c.result || c.repaired || c.failed || c.resultText === undefined) return undefined;
  if (c.resultText.startsWith(MASK_MARKER)) return undefined;
  const kind = c.info.kind;
  if (kind === 'todo' || kind === 'task' || kind === 'web' || kind === 'write' || kind === 'edit' || kind === 'patch') return undefined;
  const { lines, more, total } = resultLines(c.resultText);
  // how much of the file the result shows: all of it, or a part of a longer output
  const extent = total !== undefined && total > lines.length ? ` (${total} lines, ${lines.length} shown)` : more !== undefined ? ` (${lines.length} lines read, ${more} more)` : lines.length >= 2 ? ` (${lines.length} lines)` : '';
  const input = (typeof c.call.input === 'object' && c.call.input ? c.call.input : {}) as Record<string, unknown>;
  const gistWeight = (g: string) => (/^starts |^is empty/.test(g) ? 1 : 2);
  if (kind === 'read' && c.info.paths[0]) {
    const p = c.info.paths[0];
    const from = Number(input.offset ?? input.start_line ?? 0);
    const range = from > 1 ? ` (from line ${from})` : '';
    const gist = fileGist(p, lines, lim);
    return { text: `\`${p}\`${range}${extent} ${gist}.`, weight: gistWeight(gist) };
  }
  if (kind === 'search') {
    const what = [input.pattern, input.query, input.glob].find((v) => typeof v === 'string') as string | undefined;
    const where = c.info.paths[0] ?? (typeof input.path === 'string' ? input.path : undefined);
    const label = `${c.call.name}${what ? ` \`${brief(what, 60)}\`` : ''}${where ? ` in \`${where}\`` : ''}`;
    const listing = !/grep|search/i.test(c.call.name) || /files_with_matches|count/.test(String(input.output_mode ?? ''));
    // a JSON search result may state its total beyond the matches it lists
    const beyond = more ?? (total !== undefined && total > lines.length ? total - lines.length : undefined);
    const gist = searchGist(lines, listing, beyond, lim, ['-A', '-B', '-C'].some((k) => input[k] !== undefined) || Number(input.context) > 0);
    return { text: `${label} ${gist}.`, weight: searchWeight(gist) };
  }
  const cmd = c.info.command;
  if (kind === 'shell' && cmd) {
    if (modifiesFiles(c.info) || c.info.deleted?.length || c.info.renamed?.length) return undefined;
    const progs = programs(cmd);
    if (runsMatteringProgram(cmd)) return undefined; // Commands says how it went
    // file operations (rm, mv, cp, mkdir... with globs the vocabulary cannot follow) establish no finding
    if (progs.some((p) => /^(?:rm|mv|cp|mkdir|rmdir|touch|chmod|chown|ln|kill|pkill)\b/.test(p))) return undefined;
    const shown = commandKey(displayCommand(cmd));
    const first = progs[0]?.trim() ?? '';
    const printers = printingPipelines(cmd);
    // the state of the work tree is state, not a look-up
    if (/^git status\b/.test(first) && printers === 1) return { text: `\`${shown}\`: ${gitStatusGist(lines, lim) || 'no changes'}.`, weight: 3 };
    if (/^git diff\b/.test(first) && printers === 1 && !/--(?:stat|name-only|name-status|shortstat)\b/.test(cmd)) return { text: `\`${shown}\`: ${diffGist(lines)}.`, weight: 2 };
    if (/^git (?:log|show)\b/.test(first) && printers === 1) return lines.length ? { text: `\`${shown}\`: ${listed(lines.slice(0, 3).map((l) => `"${brief(l, 80)}"`), Math.min(3, lim))}.`, weight: 2 } : undefined;
    const search = searchProgram(cmd);
    if (search && printers === 1) {
      const gist = searchGist(lines, !/grep|rg|ag|ack/.test(search), more, lim, /\s-[ABC]\s*\d|\s--(?:after-|before-)?context\b/.test(cmd));
      return { text: `\`${shown}\` ${gist}.`, weight: searchWeight(gist) };
    }
    const reads = c.info.reads ?? [];
    // the output is one file's only when one pipeline printed it; `head a b` labels each file
    const sections = reads.length >= 2 ? headSections(lines) : undefined;
    if (sections) {
      const parts = sections.filter((x) => reads.includes(x.path) || reads.some((r) => r.endsWith('/' + x.path) || x.path.endsWith('/' + r))).map((x) => `\`${x.path}\` ${fileGist(x.path, x.lines, Math.min(3, lim))}`);
      if (parts.length) return { text: `${parts.join('; ')} (\`${brief(shown, 60)}\`).`, weight: 2 };
    }
    if (reads.length === 1 && printers === 1) {
      const gist = fileGist(reads[0]!, lines, lim);
      // how it was read matters when it was a part (`sed -n '1,80p'`, `head -50`), not for a whole `cat`
      const how = /^(?:cat|nl(?: -\w+)*|bat|less|more)\s+\S+$/.test(shown.replace(/^cd\s+\S+\s*&&\s*/, '')) ? '' : ` (\`${brief(shown, 60)}\`)`;
      return { text: `\`${reads[0]}\`${extent} ${gist}${how}.`, weight: gistWeight(gist) };
    }
    if (!lines.length) return undefined;
    // several files or programs printed into one output: what it shows cannot be said of one of them
    const of = reads.length ? ` (${reads.length === 1 ? `\`${reads[0]}\` and the output of ${printers - 1} more command${printers > 2 ? 's' : ''}` : listed(reads.map((r) => `\`${r}\``), 4)})` : '';
    // a rules file among them: its rules are said as the output's, not as one file's
    // ... and a config file's settings likewise, as the settings the output printed
    const rulesFile = reads.find((r) => RULES_FILE.test(r));
    const configFile = reads.find((r) => CONFIG_FILE.test(r));
    if ((rulesFile || configFile) && lines.length > 1) {
      const rules = rulesFile ? fileGist(rulesFile, lines, lim) : '';
      const settings = configFile ? fileGist(configFile, lines, lim) : '';
      const parts = [
        ...(/^sets /.test(settings) ? [`the settings it printed: ${settings.replace(/^sets /, '')}`] : []),
        ...(/^says: /.test(rules) ? [`the rules it printed ${rules.replace(/^says: /, 'say: ').replace(/; sections .*$/, '')}`] : []),
      ];
      if (parts.length) return { text: `\`${shown}\` -> ${lines.length} lines${of}; ${parts.join('; ')}.`, weight: 3 };
    }
    return { text: `\`${shown}\` -> ${lines.length === 1 ? `"${brief(lines[0]!, 140)}"` : `${lines.length} lines${of}, first "${brief(lines[0]!, 100)}"`}.`, weight: 1 };
  }
  if (kind === 'other' && lines.length && lines.join(' ').length > 2) {
    return { text: `${c.call.name}${c.info.paths[0] ? ` \`${c.info.paths[0]}\`` : ''} -> "${brief(lines[0]!, 140)}"${lines.length > 1 ? ` (${lines.length} lines)` : ''}.`, weight: 1 };
  }
  return undefined;
}

/** A search's weight: a single hit or none is a fact (2), where many hits are or a listing is a pointer (1). */
function searchWeight(gist: string): number {
  return /^(?:found no match|listed nothing|[123] hits?:)/.test(gist) ? 2 : 1;
}

/** A configuration file by its extension (what `fileGist` reads settings from). */
const CONFIG_FILE = /\.(?:toml|ini|cfg|conf|ya?ml|jsonc?|env|properties)$/i;

/**
 * The weight of a Findings item said in a text without one (an item a prior checkpoint carried):
 * read back from its wording, as {@link Finding} gives it (a report or the work tree's state 3,
 * a pointer 1, the environment note 0, a fact 2).
 */
export function findingWeight(text: string): number {
  if (/^(?:Sub-agent\b|Research\b)|^`git status[^`]*`:/.test(text)) return 3;
  if (/^Every shell result also printed\b/.test(text)) return 0;
  if (/ \d+ hits in \d+\+? files:| \d+ hits (?:in `[^`]+` )?at lines | \d+ entries: |matched \(\d+ lines with context\)| -> \d+ lines\b/.test(text)) return 1;
  return 2;
}

/** The finding of one call, one line; undefined when the call established nothing another section does not state. */
export function findingOf(c: CallFact, lim = 6): string | undefined {
  return findingOfCall(c, lim)?.text;
}

/**
 * How a sub-agent's or a research finding reads: `facts` when its report states what it found,
 * `work` when it opens with work it did ("Added 3 tests to …", which Done and Files say as
 * well), undefined for any other finding.
 */
export function reportKind(text: string): 'facts' | 'work' | undefined {
  const report = /^(?:Sub-agent|Research)\b[\s\S]*?\bfound: ([\s\S]*)$/.exec(text)?.[1];
  if (report === undefined) return undefined;
  return reportsDone(leadSentences(report, 1)) ? 'work' : 'facts';
}

/** Longest sub-agent or research finding (characters): its report in whole sentences. */
const REPORT_CHARS = 420;
/** A report's shorter form, for budget fitting (characters). */
const SHORT_REPORT_CHARS = 160;
/** How much of a sub-agent's task its report's shorter form names (characters). */
const SHORT_SUBJECT_CHARS = 48;

/** A sub-agent's outcome as a finding: its status, then what it reported (or its error). */
function subAgentFinding(name: string, subject: string | undefined, o: SubAgentOutcome, task: string, max = REPORT_CHARS): string {
  // the short form names the task shorter too: the room goes to what it found
  const who = `Sub-agent${subject ? ` "${shortenWhole(subject, max <= SHORT_REPORT_CHARS ? SHORT_SUBJECT_CHARS : 80)}"` : ''}`;
  const report = o.report ? reportFindings(o.report, max, task) : '';
  const error = o.error ? shortenWhole(o.error, 160).replace(/[.!]?$/, '') : '';
  switch (o.status) {
    case 'ok':
      return report ? `${who} (${name}, ok) found: ${report}` : `${who} (${name}, ok) finished without a report.`;
    case 'failed':
      return `${who} (${name}) failed${error ? `: ${error}` : ''}.${report ? ` It had reported: ${report}` : ''}`;
    default:
      // unfinished work is said under In progress (unfinishedSubAgents); here only what it had reported
      return report ? `${who} (${name}, ${o.status}) had reported: ${report}` : '';
  }
}

/** An unfinished sub-agent (interrupted, timed out, still running) as the In progress item it is. */
function unfinished(name: string, subject: string | undefined, o: SubAgentOutcome): string {
  const who = `Sub-agent${subject ? ` "${shortenWhole(subject, 80)}"` : ''}`;
  const error = o.error ? shortenWhole(o.error, 160).replace(/[.!]?$/, '') : '';
  // the host's own notice ("Request interrupted by user for tool use") adds nothing to "interrupted"
  const said = error && !/^\[?request interrupted\b/i.test(error) ? ` (${error})` : '';
  if (o.status === 'running') return `${who} (${name}) is still running${said}; its result comes later.`;
  return `${who} (${name}) was ${o.status === 'timed out' ? 'stopped by a timeout' : 'interrupted'} before it finished${said}; re-run it if still needed.`;
}

/** Agent ids a spawn call's result names (Codex `spawn_agent` answers `{"agent_id": …}`), for a later wait's subject. */
function spawnedIds(c: CallFact): string[] {
  try {
    const o = JSON.parse(c.resultText ?? '') as Record<string, unknown>;
    return [o.agent_id, o.id, o.agent_path, o.nickname].filter((v): v is string => typeof v === 'string');
  } catch {
    return [];
  }
}

/**
 * The sub-agent and research findings of a span: one line per sub-agent (a later result on the
 * same one replaces it). Returns the sub-agents left unfinished (interrupted, timed out, still
 * running) at the end of the span, by key, as the In progress items they are.
 */
function reports(f: SpanFacts, add: Add): Map<string, string> {
  const subjects = new Map<string, string>();
  const open = new Map<string, string>();
  for (const c of f.calls) {
    if (c.info.kind === 'web' && c.resultText && !c.failed && c.result && !c.repaired) {
      const what = `Research${c.info.subject ? ` (${shortenWhole(c.info.subject, 80)})` : ''} found: `;
      const found = reportFindings(c.resultText, REPORT_CHARS, c.info.subject ?? '');
      if (found) add('Findings', what + found, `research:${c.info.subject ?? c.seq}`, 3, what + reportFindings(c.resultText, SHORT_REPORT_CHARS, c.info.subject ?? ''));
      continue;
    }
    if (c.info.kind !== 'task') continue;
    if (!c.result || c.repaired) continue; // an unanswered call: In progress says so
    for (const id of spawnedIds(c)) if (c.info.subject) subjects.set(id, c.info.subject);
    const input = (typeof c.call.input === 'object' && c.call.input ? c.call.input : {}) as Record<string, unknown>;
    const tasks = Array.isArray(input.tasks) ? (input.tasks as Array<Record<string, unknown> | null>) : undefined;
    (c.subAgents ?? []).forEach((o, i) => {
      // a Hermes batch entry is one of the call's tasks; a Codex wait names the agent it waited for
      const subject = (tasks && typeof tasks[i]?.goal === 'string' ? (tasks[i]!.goal as string) : undefined) ?? (o.task ? subjects.get(o.task) ?? (tasks ? undefined : c.info.subject) : c.info.subject) ?? o.task;
      // what it was asked, in full: the report's lines that answer it come first
      const task = [subject, ...['prompt', 'context', 'message', 'goal'].map((k) => (tasks ? tasks[i]?.[k] : input[k]))].filter((v): v is string => typeof v === 'string').join('\n');
      const key = `subagent:${subject ?? `${c.seq}:${i}`}`;
      const found = subAgentFinding(c.call.name, subject, o, task);
      if (found) add('Findings', found, key, 3, subAgentFinding(c.call.name, subject, o, task, SHORT_REPORT_CHARS));
      else open.set(key, unfinished(c.call.name, subject, o));
      if (o.status === 'ok' || o.status === 'failed') open.delete(key);
    });
  }
  return open;
}

/** Add the In progress items of the sub-agents the span left unfinished (interrupted, timed out, still running): work to re-run or wait for. */
export function unfinishedSubAgents(f: SpanFacts, add: Add): void {
  for (const [key, text] of reports(f, () => {})) add('In progress', text, key);
}

/** The merge key of a finding: its first backticked subject (the file, the command, the pattern), so a newer call on it replaces the older line. */
export function findingKey(text: string): string | undefined {
  return /`([^`]+)`/.exec(text)?.[1];
}

/** True when a later call of `calls` (after index `i`) rewrote `path` whole or deleted it: what a read of it showed is gone. */
function replacedLater(calls: readonly CallFact[], i: number, path: string): boolean {
  return calls.slice(i + 1).some((d) => !d.failed && ((d.info.kind === 'write' && d.info.paths.includes(path)) || d.info.deleted?.includes(path) || d.info.renamed?.some((r) => r.from === path)));
}

/** A write tool's whole new text of one file (`content` of Claude Code's Write and pi's write, `file_text` of the text editor tool), when it succeeded. */
function rewrite(c: CallFact): { path: string; lines: string[] } | undefined {
  if (c.info.kind !== 'write' || c.failed || !c.result || c.repaired || !c.info.paths[0] || c.info.deleted) return undefined;
  const input = (typeof c.call.input === 'object' && c.call.input ? c.call.input : {}) as Record<string, unknown>;
  const body = [input.content, input.file_text, input.contents, input.text].find((v): v is string => typeof v === 'string');
  return body === undefined ? undefined : { path: c.info.paths[0], lines: body.split('\n').filter((l) => l.trim()) };
}

/**
 * Add the Findings section: what the sub-agents and research tools reported, then one line per
 * tool call that established something (newer calls on the same subject replacing older ones,
 * a read of a file the span later rewrote or deleted left out), and once, the lines the
 * environment printed into every shell result.
 */
export function findings(f: SpanFacts, addItem: Add): void {
  // the call findings are gathered first (a newer one on a subject replacing the older), then reads of one shape are said together
  const gathered = new Map<string, { text: string; weight: number }>();
  const add = (_h: string, text: string, key?: string, weight = 1) => {
    const k = key ?? text;
    gathered.delete(k);
    gathered.set(k, { text, weight });
  };
  const said = f.userTexts.map((u) => u.text).join('\n');
  const asked = (path: string) => {
    const base = path.split('/').pop()!;
    return base.length >= 4 && new RegExp(`(?<![\\w.-])${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(said);
  };
  reports(f, addItem);
  const readBefore = new Set<string>();
  f.calls.forEach((c, i) => {
    // a project rule file's rules are Constraints (project-rules.ts), not a finding
    if (projectRulesOf(c)) return;
    const written = rewrite(c);
    // a file read, then written whole: what it holds now is the finding
    if (written && readBefore.has(written.path)) {
      const gist = fileGist(written.path, written.lines, 6);
      const text = `\`${written.path}\` as written (${written.lines.length} lines) ${gist}.`;
      if (text.length <= FINDING_CHARS && !/^starts |^is empty/.test(gist)) add('Findings', text, written.path, 2);
      return;
    }
    const subject = c.info.kind === 'read' ? c.info.paths[0] : c.info.reads?.length === 1 ? c.info.reads[0] : undefined;
    // a long finding names fewer items before it is left out; the rules of a rules file get the room of a report
    const max = (subject && RULES_FILE.test(subject)) || c.info.reads?.some((r) => RULES_FILE.test(r)) ? REPORT_CHARS : FINDING_CHARS;
    let found: Finding | undefined;
    for (const lim of [6, 3, 1]) {
      found = findingOfCall(c, lim);
      if (!found || found.text.length <= max) break;
    }
    if (!found || found.text.length > max) return;
    // a dump (`strings` of a binary, an environment, a long path list) establishes little: said as a pointer at most
    const dump = c.resultText !== undefined && resultValue(c.info.kind, c.info.command, subject, c.resultText) === 'dump';
    if (dump && c.info.kind !== 'search' && !searchProgramOf(c)) return;
    if (dump) found = { ...found, weight: 0 };
    if (subject) readBefore.add(subject);
    if (subject && replacedLater(f.calls, i, subject)) return;
    // what a file the user named holds weighs more than what the agent looked up on its way
    const named = subject && (asked(subject) || RULES_FILE.test(subject));
    add('Findings', found.text, findingKey(found.text), named ? Math.min(3, found.weight + 1) : found.weight);
  });
  for (const [key, it] of sameShape([...gathered])) addItem('Findings', it.text, key, it.weight);
  if (f.environment.length) {
    const lines = f.environment.slice(0, 2).map((l) => `\`${brief(l, 100)}\``).join(', ');
    addItem('Findings', `Every shell result also printed ${lines}${f.environment.length > 2 ? ` and ${f.environment.length - 2} more lines` : ''}: the environment, not the commands (left out above).`, 'environment', 0);
  }
}

/** A read finding's parts: the file, how much was shown, the verb and what follows it. */
const READ_SHAPE = /^`([^`]+)` (\([^)]*\) )?(defines|sets|creates) (.+)\.$/;

/**
 * Read findings of one shape in a row (the same extent and verb: three modules of 300 lines that
 * each define a handler) said as one line, "`a.py` defines `f`; `b.py` `g` (300 lines each, 31
 * shown)", so many similar reads take the room of a few. A group that would be too long is split.
 */
function sameShape(entries: Array<[string, { text: string; weight: number }]>): Array<[string, { text: string; weight: number }]> {
  const out: Array<[string, { text: string; weight: number }]> = [];
  let group: Array<{ key: string; path: string; what: string; weight: number; text: string }> = [];
  let shape = '';
  const flush = () => {
    if (group.length === 1) out.push([group[0]!.key, { text: group[0]!.text, weight: group[0]!.weight }]);
    else if (group.length > 1) {
      const [, , extent, verb] = READ_SHAPE.exec(group[0]!.text)!;
      const each = extent ? ` (${extent.slice(1, -2).replace(/^(\d+ lines)/, '$1 each')})` : '';
      let part: typeof group = [];
      const text = (g: typeof group) => `${g.map((x, i) => (i ? `\`${x.path}\` ${x.what}` : `\`${x.path}\` ${verb} ${x.what}`)).join('; ')}${each}.`;
      for (const x of group) {
        if (part.length && text([...part, x]).length > FINDING_CHARS) {
          out.push([part[0]!.key, { text: text(part), weight: Math.max(...part.map((p) => p.weight)) }]);
          part = [];
        }
        part.push(x);
      }
      out.push([part[0]!.key, { text: part.length > 1 ? text(part) : part[0]!.text, weight: Math.max(...part.map((p) => p.weight)) }]);
    }
    group = [];
  };
  for (const [key, it] of entries) {
    const m = READ_SHAPE.exec(it.text);
    const here = m ? `${m[2] ?? ''}|${m[3]}` : '';
    if (!m || here !== shape) flush();
    shape = here;
    if (m) group.push({ key, path: m[1]!, what: m[4]!, weight: it.weight, text: it.text });
    else out.push([key, it]);
  }
  flush();
  return out;
}
