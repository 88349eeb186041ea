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
import { MASK_MARKER, PRUNE_MARKER } from './prune.js';
import { resultValue, SHELL_MESSAGE, WRAPPER_LINE } from './results.js';
import type { Add } from './sections.js';
import { shortenWhole } from './sentences.js';
import { reportFindings, type SubAgentOutcome } from './subagents.js';
import { modifiesFiles, stripHeredocs } from './toolinfo.js';

/** Longest finding (characters): at most what budget fitting keeps whole (it shortens longer items by sentences, which would cut a quoted rule), so a longer finding names fewer items. */
export const FINDING_CHARS = 240;

/** A truncation notice stating how long the output really was. */
const TOTAL_LINES = /^(?:Total output lines: (\d+)|\.\.\. \((\d+) more lines not shown\b.*\)|\[(\d+) more lines in file\b.*\]|Warning: truncated output\b.*)$/;
/** A line-number prefix: Claude Code's Read (`   12→`), `cat -n` and `nl -ba` (`    12\t`). */
const LINE_NO = /^\s*(\d+)(?:→|\t)/;

/**
 * The text a JSON tool result wraps: a tool that returns an object (Hermes' file and terminal
 * tools return JSON, hermes-agent tools/) holds its output under `content`, `output` or `stdout`,
 * its length under `total_lines`. Undefined for any other text.
 */
function jsonBody(text: string): { body: string; total?: number } | undefined {
  if (!/^\s*\{/.test(text)) return undefined;
  try {
    const o = JSON.parse(text) as Record<string, unknown>;
    const body = [o.content, o.output, o.stdout].find((v): v is string => typeof v === 'string');
    if (body === undefined) return undefined;
    return { body, ...(typeof o.total_lines === 'number' ? { total: o.total_lines } : {}) };
  } catch {
    return undefined;
  }
}

/** The output a tool result holds without its host wrapping: lines, with the length it states when truncated. */
export function resultLines(text: string): { lines: string[]; numbered: boolean; more?: number; total?: number } {
  const json = jsonBody(text);
  const body = (json?.body ?? text).replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '');
  const lines: string[] = [];
  let numbered = 0;
  let more: number | undefined;
  let total: number | undefined = json?.total;
  for (const raw of body.split('\n')) {
    const t = raw.trim();
    if (!t || WRAPPER_LINE.test(t) || t.includes(PRUNE_MARKER)) continue;
    const m = TOTAL_LINES.exec(t);
    if (m) {
      if (m[1]) total = Number(m[1]);
      else if (m[2] ?? m[3]) more = (more ?? 0) + Number(m[2] ?? m[3]);
      continue;
    }
    if (LINE_NO.test(raw)) numbered++;
    lines.push(raw.replace(LINE_NO, '').replace(/\s+$/, ''));
  }
  return { lines, numbered: numbered > 0 && numbered >= lines.length / 2, ...(more !== undefined ? { more } : {}), ...(total !== undefined ? { total } : {}) };
}

/** `a, b, c` of at most `max` names, then "and N more". */
function listed(names: readonly string[], max: number): string {
  const u = [...new Set(names)];
  return u.slice(0, max).join(', ') + (u.length > max ? ` and ${u.length - max} more` : '');
}

/** A line with runs of spaces collapsed, whole when short, else its first words labelled as an excerpt of the line. */
function brief(l: string, max = 100): string {
  const t = l.trim().replace(/\s+/g, ' ');
  if (t.length <= max) return t;
  const sp = t.lastIndexOf(' ', max);
  return `${t.slice(0, sp > max / 2 ? sp : max)} [excerpt of a ${t.length}-char line]`;
}

/** Declarations of code: `def f`, `function f`, `class C`, `fn f`, `struct S`, `export const X =`... */
const DECL = /^\s*(?:export\s+(?:default\s+)?)?(?:pub(?:\([\w:]+\))?\s+)?(?:async\s+)?(?:unsafe\s+)?(?:function\*?|def|class|interface|type|struct|enum|trait|fn|func|module|mod|impl(?:<[^>]*>)?|const|let|var)\s+([A-Za-z_$][\w$]*(?:\s+for\s+[A-Za-z_]\w*)?)/;
/** A `key = value` / `"key": value` setting with a scalar value (config files). */
const SETTING = /^\s*"?([\w.-]+)"?\s*[:=]\s*("[^"]{0,60}"|'[^']{0,60}'|[\w.@/:+-]{1,60}),?\s*$/;
/** A rule in prose (AGENTS.md, a README's instructions). */
const RULE = /\b(?:must|never|do not|don't|always|only)\b/i;

/** What a file's text shows, in a few names: declarations (code), settings (config), headings and rules (prose), recipes (a Justfile or Makefile). */
export function fileGist(path: string, lines: readonly string[], lim = 8): string {
  const base = path.split('/').pop() ?? path;
  const ext = /\.(\w+)$/.exec(base)?.[1]?.toLowerCase() ?? '';
  if (/^(?:justfile|makefile|gnumakefile)$/i.test(base) || ext === 'mk') {
    const recipes: string[] = [];
    for (let i = 0; i < lines.length; i++) {
      const m = /^([\w.-]+)(?:\s+[\w\s=*+]*)?:(?!=)/.exec(lines[i]!);
      const body = lines[i + 1];
      if (m && body && /^\s+\S/.test(body)) recipes.push(`${m[1]} (\`${brief(body, 70)}\`)`);
    }
    if (recipes.length) return `recipes ${listed(recipes, Math.min(4, lim))}`;
  }
  if (['md', 'mdx', 'txt', 'rst', 'adoc'].includes(ext) || /^(?:README|AGENTS|CLAUDE|CONTRIBUTING)/i.test(base)) {
    const all = lines.map((l) => l.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').trim()).filter((l) => RULE.test(l) && l.length >= 16 && l.length <= 140 && !/^#/.test(l));
    // the emphatic rules first ("You must NEVER run `npm run dev`", "Do NOT commit unless asked"), kept in file order
    const emphasis = (l: string) => (l.match(/\b(?:MUST|NEVER|NOT|ALWAYS|ONLY|IMPORTANT|CRITICAL)\b/g) ?? []).length;
    const top = new Set([...all].sort((a, b) => emphasis(b) - emphasis(a)).slice(0, Math.min(3, lim)));
    const rules = [...all.filter((l) => top.has(l)), ...all.filter((l) => !top.has(l))];
    const heads = lines.filter((l) => /^#{1,3}\s+\S/.test(l)).map((l) => l.replace(/^#+\s+/, '').trim());
    const parts: string[] = [];
    if (rules.length) parts.push(`says: ${listed(rules.map((r) => `"${r.replace(/\*\*/g, '')}"`), Math.min(3, lim))}`);
    if (heads.length) parts.push(`sections ${listed(heads, Math.min(rules.length ? 3 : 6, lim))}`);
    if (parts.length) return parts.join('; ');
  }
  if (['toml', 'ini', 'cfg', 'conf', 'yaml', 'yml', 'json', 'jsonc', 'env', 'properties'].includes(ext) || /^\.\w+rc$/.test(base)) {
    const settings = lines.map((l) => SETTING.exec(l)).filter((m): m is RegExpExecArray => !!m).map((m) => `${m[1]} = ${m[2]}`);
    if (settings.length) return `sets ${listed(settings, Math.min(5, lim))}`;
  }
  if (ext === 'sql') {
    const tables = lines.map((l) => /^\s*create\s+(?:(?:virtual|temp(?:orary)?)\s+)?(table|view|index|trigger)\s+(?:if\s+not\s+exists\s+)?[`"[]?([\w.]+)/i.exec(l)).filter((m): m is RegExpExecArray => !!m).map((m) => `${m[1]!.toLowerCase()} \`${m[2]}\``);
    if (tables.length) return `creates ${listed(tables, Math.min(6, lim))}`;
  }
  // a const/let/var counts at the top level only (a local variable is not what a file defines)
  const decls = lines.map((l) => (/^\s+(?:const|let|var)\s/.test(l) ? undefined : DECL.exec(l)?.[1])).filter((n): n is string => !!n && !/^(?:if|for|while|return|new)$/.test(n));
  if (decls.length) return `defines ${listed(decls.map((d) => `\`${d}\``), Math.min(8, lim))}`;
  const first = lines.find((l) => l.trim().length >= 3);
  return first ? `starts "${brief(first, 90)}"` : 'is empty';
}

/** The search program of a call's shell command, if it is one. */
function searchProgramOf(c: CallFact): string | undefined {
  return c.info.kind === 'shell' && c.info.command ? searchProgram(c.info.command) : undefined;
}

/** A shell command line's search program (`rg`, `grep`, `git grep`, `find`, `fd`, `ls`), if its first stage is one. */
function searchProgram(cmd: string): string | undefined {
  const p = programs(cmd)[0]?.trim() ?? '';
  return /^(?:rg|grep|egrep|fgrep|ag|ack|git grep|find|fd|ls|tree)\b/.test(p) ? p.split(' ')[0] : undefined;
}

/** A search hit's file and line: `path:12:text` (rg -n, grep -rn, Claude Code's Grep), `path:text` (grep -r), `12:text` (one file with -n). */
function hitOf(l: string): { file?: string; line?: number } {
  const t = l.trim();
  const m = /^([^\s:][^:]*?):(\d+)[:-]/.exec(t);
  if (m && /[./]/.test(m[1]!)) return { file: m[1]!, line: Number(m[2]) };
  const n = /^(\d+)[:-]/.exec(t);
  if (n) return { line: Number(n[1]) };
  const f = /^([\w./@~-]+\/[\w.@-]+|[\w.@-]+\.\w{1,8}):/.exec(t);
  return f ? { file: f[1]! } : {};
}

/**
 * What a search's output established: "found no match"; one hit as its `file:line: text`; many as
 * where they are (the files and how many hits each, or the lines of one file), not the hit lines
 * themselves; a listing by its count and first entries.
 */
function searchGist(lines: readonly string[], listing: boolean, more?: number, lim = 6, context = false): string {
  const all = lines.map((l) => l.trim()).filter((l) => l && !/^(?:No files found|No matches found|Found 0 \w+)$/i.test(l) && !/^Found \d+ (?:files?|matches?|lines?)\b/i.test(l) && l !== '--');
  // the search program's own complaints (a missing file, a bad pattern) are not hits
  const complaints = all.filter((l) => /^(?:grep|egrep|rg|ag|ack|find|fd|ls|git): /.test(l) || SHELL_MESSAGE.test(l));
  let hits = all.filter((l) => !complaints.includes(l));
  // `ls -l`: the names, not the modes, sizes and dates
  if (listing && hits.some((l) => /^[-dlcbps][rwxsStT@+.-]{9}/.test(l))) hits = hits.filter((l) => !/^total \d+$/.test(l)).map((l) => (/^[-dlcbps][rwxsStT@+.-]{9}/.test(l) ? l.split(/\s+/).slice(8).join(' ') : l)).filter((n) => n && n !== '.' && n !== '..');
  const said = complaints.length ? ` (${brief(complaints[0]!, 100)})` : '';
  if (!hits.length) return (listing ? 'listed nothing' : 'found no match') + said;
  const n = (more ?? 0) + hits.length;
  if (listing) return `${n} ${n === 1 ? 'entry' : 'entries'}: ${listed(hits, Math.min(6, lim))}${said}`;
  // with context lines (-A/-B/-C) the lines are not all matches: say how much, show the start
  if (context) return `matched (${n} lines with context), starting \`${brief(hits[0]!, 90)}\``;
  // a few hits are facts in themselves; many are said by where they are
  if (n <= 3) return `${n} ${n === 1 ? 'hit' : 'hits'}: ${listed(hits.map((h) => `\`${brief(h, n === 1 ? 90 : 70)}\``), 3)}`;
  const parsed = hits.map(hitOf);
  const byFile = new Map<string, number>();
  for (const h of parsed) if (h.file) byFile.set(h.file, (byFile.get(h.file) ?? 0) + 1);
  const counted = [...byFile.values()].reduce((x, y) => x + y, 0);
  if (byFile.size >= 2 && counted >= hits.length / 2) {
    const files = [...byFile].sort((x, y) => y[1] - x[1]);
    return `${n} hits in ${byFile.size}${more ? '+' : ''} files: ${listed(files.map(([f, k]) => `\`${f}\` (${k})`), Math.min(4, lim))}`;
  }
  const lineNos = parsed.map((h) => h.line).filter((x): x is number => x !== undefined);
  const where = byFile.size === 1 ? ` in \`${[...byFile.keys()][0]}\`` : '';
  if (lineNos.length >= hits.length / 2) return `${n} hits${where} at lines ${listed(lineNos.map(String), Math.min(6, lim + 2))}, the first \`${brief(hits[0]!, 80)}\``;
  return `${n} hits${where}, the first \`${brief(hits[0]!, 90)}\``;
}

/** What `git status` showed: the branch, then the changed and untracked paths, or that the tree is clean. */
function gitStatusGist(lines: readonly string[], lim = 5): string {
  const branch = lines.map((l) => /^On branch (\S+)/.exec(l.trim())?.[1]).find(Boolean);
  const groups: Record<string, string[]> = {};
  let group = '';
  for (const l of lines) {
    const t = l.trim();
    if (/^Changes to be committed/.test(t)) group = 'staged';
    else if (/^Changes not staged/.test(t)) group = 'unstaged';
    else if (/^Untracked files/.test(t)) group = 'untracked';
    else if (/^\(use "/.test(t) || !group) continue;
    else {
      const m = /^(?:(modified|deleted|new file|renamed|typechange):\s+)?(.+)$/.exec(t);
      if (m && !/^no changes added|^nothing (?:added )?to commit/.test(t)) (groups[m[1] ? `${group} ${m[1]}` : group] ??= []).push(m[2]!.trim());
    }
  }
  const parts = Object.entries(groups).map(([g, ps]) => `${g.replace(/^unstaged /, '').replace(/^staged (\w)/, 'staged $1')}: ${listed(ps, Math.min(5, lim))}`);
  const clean = lines.some((l) => /nothing to commit, working tree clean/.test(l));
  return [branch ? `on branch ${branch}` : '', clean ? 'working tree clean' : '', ...parts].filter(Boolean).join('; ');
}

/** A finding and what it establishes: 3 a sub-agent's or research result, the work tree's state, what a file the user named or a rules file holds; 2 a fact (what a file defines or sets, what `git log` showed, a single hit or no match), 1 a pointer (where many hits are, a listing, a first line), 0 a note on the environment. */
interface Finding {
  text: string;
  weight: number;
}

/** Programs that print nothing of their own (their pipeline adds no text to the output). */
const SILENT = /^(?:cd|pushd|popd|export|set|unset|source|\.|true|false|:|mkdir|rm|mv|cp|touch|chmod|sleep|trap|shopt|alias|umask|ulimit|wait)$/;

/**
 * Pipelines of a command line that print to the output (`cat a; echo ---; cat b` has three):
 * stages joined by `;`, `&&`, `||` or a newline, each counted by its first program unless that
 * program prints nothing of its own (`cd`, `export`, `mkdir`...). A pipe's later stages filter
 * the first one's output, so they add no pipeline.
 */
function printingPipelines(cmd: string): number {
  let n = 0;
  for (const part of stripHeredocs(cmd).split(/&&|\|\||;|\n/)) {
    const w = part.trim().split('|')[0]!.trim().split(/\s+/).filter((x) => x && !/^\w+=/.test(x) && x !== 'sudo' && x !== 'time' && x !== 'command');
    if (w.length && !SILENT.test(w[0]!) && !/^(?:then|else|fi|do|done|esac|\{|\})$/.test(w[0]!)) n++;
  }
  return n;
}

/** The files of a `head`/`tail` of several files, by the `==> path <==` headers they print: each file's lines. */
function headSections(lines: readonly string[]): Array<{ path: string; lines: string[] }> | undefined {
  const out: Array<{ path: string; lines: string[] }> = [];
  for (const l of lines) {
    const m = /^==> (.+) <==$/.exec(l.trim());
    if (m) out.push({ path: m[1]!, lines: [] });
    else if (out.length) out[out.length - 1]!.lines.push(l);
  }
  return out.length >= 2 ? out : undefined;
}

/** What a unified diff shows: the files it touches and the lines added and removed, or that it is empty. */
function diffGist(lines: readonly string[]): string {
  const files = lines.map((l) => /^diff --git a\/(\S+) b\//.exec(l)?.[1] ?? /^\+\+\+ b\/(\S+)/.exec(l)?.[1]).filter((x): x is string => !!x);
  const add = lines.filter((l) => /^\+(?!\+\+ )/.test(l)).length;
  const del = lines.filter((l) => /^-(?!-- )/.test(l)).length;
  if (!lines.length) return 'no changes';
  const u = [...new Set(files)];
  return `${u.length ? `${u.length === 1 ? `\`${u[0]}\`` : `${u.length} files (${listed(u.map((f) => `\`${f}\``), 3)})`}, ` : ''}+${add} -${del} lines`;
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
    const gist = searchGist(lines, listing, more, lim, ['-A', '-B', '-C'].some((k) => input[k] !== undefined));
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
    const rulesFile = reads.find((r) => RULES_FILE.test(r));
    if (rulesFile && lines.length > 1) {
      const rules = fileGist(rulesFile, lines, lim);
      if (/^says: /.test(rules)) return { text: `\`${shown}\` -> ${lines.length} lines${of}; the rules it printed ${rules.replace(/^says: /, 'say: ').replace(/; sections .*$/, '')}.`, weight: 3 };
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

/** A file that holds the project's rules for agents (AGENTS.md, CLAUDE.md, .cursorrules, CONTRIBUTING): what it says weighs like a sub-agent's report. */
const RULES_FILE = /(?:^|\/)(?:AGENTS|CLAUDE|GEMINI|CONTRIBUTING|CONVENTIONS)(?:\.\w+)?\.md$|(?:^|\/)\.(?:cursorrules|clinerules|windsurfrules)$/i;

/** The finding of one call, one line; undefined when the call established nothing another section does not state. */
export function findingOf(c: CallFact, lim = 6): string | undefined {
  return findingOfCall(c, lim)?.text;
}

/** Longest sub-agent or research finding (characters): its report in whole sentences. */
export const REPORT_CHARS = 420;
/** A report's shorter form, for budget fitting (characters). */
const SHORT_REPORT_CHARS = 160;

/** A sub-agent's outcome as a finding: its status, then what it reported (or its error). */
function subAgentFinding(name: string, subject: string | undefined, o: SubAgentOutcome, task: string, max = REPORT_CHARS): string {
  const who = `Sub-agent${subject ? ` "${shortenWhole(subject, 80)}"` : ''}`;
  const report = o.report ? reportFindings(o.report, max, task) : '';
  const error = o.error ? shortenWhole(o.error, 160).replace(/[.!]?$/, '') : '';
  switch (o.status) {
    case 'ok':
      return report ? `${who} (${name}, ok) found: ${report}` : `${who} (${name}, ok) finished without a report.`;
    case 'failed':
      return `${who} (${name}) failed${error ? `: ${error}` : ''}.${report ? ` It had reported: ${report}` : ''}`;
    case 'running':
      return `${who} (${name}) is still running${error ? ` (${error})` : ''}; its result comes later.`;
    default:
      return `${who} (${name}) was ${o.status === 'timed out' ? 'stopped by a timeout' : 'interrupted'} before it finished${error ? ` (${error})` : ''}; re-run it if still needed.${report ? ` It had reported: ${report}` : ''}`;
  }
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

/** The sub-agent and research findings of a span: one line per sub-agent (a later result on the same one replaces it). */
function reports(f: SpanFacts, add: Add): void {
  const subjects = new Map<string, string>();
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
      add('Findings', subAgentFinding(c.call.name, subject, o, task), `subagent:${subject ?? `${c.seq}:${i}`}`, 3, subAgentFinding(c.call.name, subject, o, task, SHORT_REPORT_CHARS));
    });
  }
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
export function findings(f: SpanFacts, add: Add): void {
  const said = f.userTexts.map((u) => u.text).join('\n');
  const asked = (path: string) => {
    const base = path.split('/').pop()!;
    return base.length >= 4 && new RegExp(`(?<![\\w.-])${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(said);
  };
  reports(f, add);
  const readBefore = new Set<string>();
  f.calls.forEach((c, i) => {
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
  if (f.environment.length) {
    const lines = f.environment.slice(0, 2).map((l) => `\`${brief(l, 100)}\``).join(', ');
    add('Findings', `Every shell result also printed ${lines}${f.environment.length > 2 ? ` and ${f.environment.length - 2} more lines` : ''}: the environment, not the commands (left out above).`, 'environment', 0);
  }
}
