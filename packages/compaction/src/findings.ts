/**
 * The Findings section: what each tool call of the span established, one line per call, so a
 * run of reads, searches and status checks with little prose still hands over what it found
 * (the names a file defines, the settings it holds, the file:line a search hit or that it hit
 * nothing, the state `git status` showed). Calls that other sections already state are left to
 * them: file changes (Files), failures (Errors and fixes), builds and tests (Commands), todo
 * lists, sub-agents and research (Done). A newer call on the same file or command replaces the
 * older line.
 */
import type { CallFact, SpanFacts } from './analyze.js';
import { commandKey, displayCommand, programs, runsMatteringProgram } from './commands.js';
import { MASK_MARKER, PRUNE_MARKER } from './prune.js';
import type { Add } from './sections.js';
import { modifiesFiles } from './toolinfo.js';

/** Longest finding (characters): at most what budget fitting keeps whole (it shortens longer items by sentences, which would cut a quoted rule), so a longer finding names fewer items. */
export const FINDING_CHARS = 240;

/** Lines a host wraps around a tool's output, not the output: Codex unified exec and shell headers, pi's exit line, Node's inspector notices. */
const WRAPPER_LINE = /^(?:Chunk ID: \w+|Wall time: [\d.]+ ?s(?:econds)?|Process exited with code \d+|Process running with session ID \d+|Original token count: \d+|Exit code: \d+|Output:|Command exited with code \d+|\(no output\)|Debugger attached\.|Waiting for the debugger to disconnect\.\.\.|Debugger listening on \S+|For help, see: https:\/\/nodejs\.org\/en\/docs\/inspector)$/;
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
  // a const/let/var counts at the top level only (a local variable is not what a file defines)
  const decls = lines.map((l) => (/^\s+(?:const|let|var)\s/.test(l) ? undefined : DECL.exec(l)?.[1])).filter((n): n is string => !!n && !/^(?:if|for|while|return|new)$/.test(n));
  if (decls.length) return `defines ${listed(decls.map((d) => `\`${d}\``), Math.min(8, lim))}`;
  const first = lines.find((l) => l.trim().length >= 3);
  return first ? `starts "${brief(first, 90)}"` : 'is empty';
}

/** A shell command line's search program (`rg`, `grep`, `git grep`, `find`, `fd`, `ls`), if its first stage is one. */
function searchProgram(cmd: string): string | undefined {
  const p = programs(cmd)[0]?.trim() ?? '';
  return /^(?:rg|grep|egrep|fgrep|ag|ack|git grep|find|fd|ls|tree)\b/.test(p) ? p.split(' ')[0] : undefined;
}

/** What a search's output found: "no match", or the count and the first hits (`file:line: text`). */
function searchGist(lines: readonly string[], listing: boolean, more?: number, lim = 6, context = false): string {
  const hits = lines.filter((l) => l.trim() && !/^(?:No files found|No matches found|Found 0 \w+)$/i.test(l.trim()));
  if (!hits.length) return listing ? 'listed nothing' : 'found no match';
  const n = (more ?? 0) + hits.length;
  if (listing) return `${n} ${n === 1 ? 'entry' : 'entries'}: ${listed(hits.map((h) => h.trim()), Math.min(6, lim))}`;
  // with context lines (-A/-B/-C) the lines are not all matches: say how much, show the start
  if (context) return `matched (${n} lines with context), starting \`${brief(hits[0]!, 90)}\``;
  return `${n} ${n === 1 ? 'hit' : 'hits'}: ${listed(hits.map((h) => `\`${brief(h, 90)}\``), Math.min(3, lim))}`;
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

/** The finding of one call, one line; undefined when the call established nothing another section does not state. */
export function findingOf(c: CallFact, lim = 6): string | undefined {
  if (!c.result || c.repaired || c.failed || c.resultText === undefined) return undefined;
  if (c.resultText.startsWith(MASK_MARKER)) return undefined;
  const kind = c.info.kind;
  if (kind === 'todo' || kind === 'task' || kind === 'web' || kind === 'write' || kind === 'edit' || kind === 'patch') return undefined;
  const { lines, more, total } = resultLines(c.resultText);
  // how much of the file the result shows: all of it, or a part of a longer output
  const extent = total !== undefined && total > lines.length ? ` (${total} lines, ${lines.length} shown)` : more !== undefined ? ` (${lines.length} lines read, ${more} more)` : lines.length >= 2 ? ` (${lines.length} lines)` : '';
  const input = (typeof c.call.input === 'object' && c.call.input ? c.call.input : {}) as Record<string, unknown>;
  if (kind === 'read' && c.info.paths[0]) {
    const p = c.info.paths[0];
    const from = Number(input.offset ?? input.start_line ?? 0);
    const range = from > 1 ? ` (from line ${from})` : '';
    return `\`${p}\`${range}${extent} ${fileGist(p, lines, lim)}.`;
  }
  if (kind === 'search') {
    const what = [input.pattern, input.query, input.glob].find((v) => typeof v === 'string') as string | undefined;
    const where = c.info.paths[0] ?? (typeof input.path === 'string' ? input.path : undefined);
    const label = `${c.call.name}${what ? ` \`${brief(what, 60)}\`` : ''}${where ? ` in \`${where}\`` : ''}`;
    const listing = !/grep|search/i.test(c.call.name) || /files_with_matches|count/.test(String(input.output_mode ?? ''));
    return `${label} ${searchGist(lines, listing, more, lim, ['-A', '-B', '-C'].some((k) => input[k] !== undefined))}.`;
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
    if (/^git status\b/.test(first)) return `\`${shown}\`: ${gitStatusGist(lines, lim) || 'no changes'}.`;
    if (/^git (?:log|show)\b/.test(first)) return lines.length ? `\`${shown}\`: ${listed(lines.slice(0, 3).map((l) => `"${brief(l, 80)}"`), Math.min(3, lim))}.` : undefined;
    const search = searchProgram(cmd);
    if (search) return `\`${shown}\` ${searchGist(lines, !/grep|rg|ag|ack/.test(search), more, lim, /\s-[ABC]\s*\d|\s--(?:after-|before-)?context\b/.test(cmd))}.`;
    const read = c.info.reads?.[0];
    if (read && c.info.reads!.length === 1) {
      return `\`${read}\`${extent} ${fileGist(read, lines, lim)} (\`${brief(shown, 60)}\`).`;
    }
    if (!lines.length) return undefined;
    return `\`${shown}\` -> ${lines.length === 1 ? `"${brief(lines[0]!, 140)}"` : `${lines.length} lines, first "${brief(lines[0]!, 100)}"`}.`;
  }
  if (kind === 'other' && lines.length && lines.join(' ').length > 2) {
    return `${c.call.name}${c.info.paths[0] ? ` \`${c.info.paths[0]}\`` : ''} -> "${brief(lines[0]!, 140)}"${lines.length > 1 ? ` (${lines.length} lines)` : ''}.`;
  }
  return undefined;
}

/** The merge key of a finding: its first backticked subject (the file, the command, the pattern), so a newer call on it replaces the older line. */
export function findingKey(text: string): string | undefined {
  return /`([^`]+)`/.exec(text)?.[1];
}

/** Add the Findings section: one line per tool call that established something, newer calls on the same subject replacing older ones. */
export function findings(f: SpanFacts, add: Add): void {
  for (const c of f.calls) {
    // a long finding names fewer items before it is left out
    let found: string | undefined;
    for (const lim of [6, 3, 1]) {
      found = findingOf(c, lim);
      if (!found || found.length <= FINDING_CHARS) break;
    }
    if (found && found.length <= FINDING_CHARS) add('Findings', found, findingKey(found));
  }
}
