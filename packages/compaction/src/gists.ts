/**
 * What a tool's output shows, said in a few names: the lines a result holds without its host
 * wrapping, what a file's text defines or sets (fileGist), what a search found (searchGist),
 * what `git status` and `git diff` showed, how many programs printed into one output. The
 * Findings section (findings.ts) says each call by these. Lengths are characters.
 */
import { RULE_CUE } from './cues.js';
import { PRUNE_MARKER } from './prune.js';
import { SHELL_MESSAGE, WRAPPER_LINE } from './results.js';
import { programs } from './commands.js';
import { stripHeredocs } from './toolinfo.js';

/** A truncation notice stating how long the output really was. */
const TOTAL_LINES = /^(?:Total output lines: (\d+)|\.\.\. \((\d+) more lines not shown\b.*\)|\[(\d+) more lines in file\b.*\]|Warning: truncated output\b.*)$/;
/** A line-number prefix: Claude Code's Read (`   12→`), `cat -n` and `nl -ba` (`    12\t`), Hermes' read_file gutter (`12|`, hermes-agent tools/file_operations.py). */
const LINE_NO = /^\s*(\d+)(?:→|\t|\|)/;

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
    if (body !== undefined) return { body, ...(typeof o.total_lines === 'number' ? { total: o.total_lines } : {}) };
    // a search tool's matches as objects (`{matches: [{path, line, content}], total_count}`): one `path:line:text` line each
    const list = [o.matches, o.results, o.files].find((v): v is unknown[] => Array.isArray(v));
    if (!list) return undefined;
    const lines = list.map((m) => {
      if (typeof m === 'string') return m;
      const r = (m && typeof m === 'object' ? m : {}) as Record<string, unknown>;
      const path = [r.path, r.file, r.filename, r.file_path].find((v): v is string => typeof v === 'string');
      const line = [r.line, r.line_number, r.lineNumber].find((v) => typeof v === 'number');
      const content = [r.content, r.text, r.match, r.snippet].find((v): v is string => typeof v === 'string');
      return [path, line, content?.trim()].filter((v) => v !== undefined && v !== '').join(':');
    });
    const total = [o.total_count, o.total, o.count].find((v): v is number => typeof v === 'number');
    return { body: lines.filter(Boolean).join('\n'), ...(total !== undefined && total > lines.length ? { total } : {}) };
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
export function listed(names: readonly string[], max: number): string {
  const u = [...new Set(names)];
  return u.slice(0, max).join(', ') + (u.length > max ? ` and ${u.length - max} more` : '');
}

/** A line with runs of spaces collapsed, whole when short, else its first words labelled as an excerpt of the line. */
export function brief(l: string, max = 100): string {
  const t = l.trim().replace(/\s+/g, ' ');
  if (t.length <= max) return t;
  const sp = t.lastIndexOf(' ', max);
  return `${t.slice(0, sp > max / 2 ? sp : max)} [excerpt of a ${t.length}-char line]`;
}

/** Declarations of code: `def f`, `function f`, `class C`, `fn f`, `struct S`, `export const X =`... */
const DECL = /^\s*(?:export\s+(?:default\s+)?)?(?:pub(?:\([\w:]+\))?\s+)?(?:async\s+)?(?:unsafe\s+)?(?:function\*?|def|class|interface|type|struct|enum|trait|fn|func|module|mod|impl(?:<[^>]*>)?|const|let|var)\s+([A-Za-z_$][\w$]*(?:\s+for\s+[A-Za-z_]\w*)?)/;
/** A `key = value` / `"key": value` setting with a scalar value (config files). */
const SETTING = /^\s*"?([\w.-]+)"?\s*[:=]\s*("[^"]{0,60}"|'[^']{0,60}'|[\w.@/:+-]{1,60}),?\s*$/;
/** A rule in prose in English (AGENTS.md, a README's instructions); the other languages by cues.ts's RULE_CUE. */
const RULE = /\b(?:must|never|do not|don't|always|only)\b/i;

/** The emphatic words of a rule line ("You must NEVER run `npm run dev`", "Do NOT commit unless asked"). */
const EMPHASIS = /\b(?:MUST|NEVER|NOT|ALWAYS|ONLY|IMPORTANT|CRITICAL|JAMAIS|TOUJOURS|NUNCA|SIEMPRE|NIE|NIEMALS|IMMER)\b|必ず|絶対|禁止|반드시|절대|금지/gu;

/**
 * The rule lines of a prose file (list markers and `**` left out), its `top` most emphatic first,
 * the others after them, each group in file order.
 */
export function ruleLines(lines: readonly string[], top: number): string[] {
  const all = lines.map((l) => l.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').replace(/\*\*/g, '').trim()).filter((l) => (RULE.test(l) || RULE_CUE.test(l)) && l.length >= 16 && l.length <= 140 && !/^#/.test(l));
  const emphasis = (l: string) => (l.match(EMPHASIS) ?? []).length;
  const first = new Set([...all].sort((a, b) => emphasis(b) - emphasis(a)).slice(0, top));
  return [...all.filter((l) => first.has(l)), ...all.filter((l) => !first.has(l))];
}

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
    const rules = ruleLines(lines, Math.min(3, lim));
    const heads = lines.filter((l) => /^#{1,3}\s+\S/.test(l)).map((l) => l.replace(/^#+\s+/, '').trim());
    const parts: string[] = [];
    if (rules.length) parts.push(`says: ${listed(rules.map((r) => `"${r}"`), Math.min(3, lim))}`);
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

/** A shell command line's search program (`rg`, `grep`, `git grep`, `find`, `fd`, `ls`), if its first stage is one. */
export function searchProgram(cmd: string): string | undefined {
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
export function searchGist(lines: readonly string[], listing: boolean, more?: number, lim = 6, context = false): string {
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
export function gitStatusGist(lines: readonly string[], lim = 5): string {
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

/** Programs that print nothing of their own (their pipeline adds no text to the output). */
const SILENT = /^(?:cd|pushd|popd|export|set|unset|source|\.|true|false|:|mkdir|rm|mv|cp|touch|chmod|sleep|trap|shopt|alias|umask|ulimit|wait)$/;

/**
 * Pipelines of a command line that print to the output (`cat a; echo ---; cat b` has three):
 * stages joined by `;`, `&&`, `||` or a newline, each counted by its first program unless that
 * program prints nothing of its own (`cd`, `export`, `mkdir`...). A pipe's later stages filter
 * the first one's output, so they add no pipeline.
 */
export function printingPipelines(cmd: string): number {
  let n = 0;
  for (const part of stripHeredocs(cmd).split(/&&|\|\||;|\n/)) {
    const w = part.trim().split('|')[0]!.trim().split(/\s+/).filter((x) => x && !/^\w+=/.test(x) && x !== 'sudo' && x !== 'time' && x !== 'command');
    if (w.length && !SILENT.test(w[0]!) && !/^(?:then|else|fi|do|done|esac|\{|\})$/.test(w[0]!)) n++;
  }
  return n;
}

/** The files of a `head`/`tail` of several files, by the `==> path <==` headers they print: each file's lines. */
export function headSections(lines: readonly string[]): Array<{ path: string; lines: string[] }> | undefined {
  const out: Array<{ path: string; lines: string[] }> = [];
  for (const l of lines) {
    const m = /^==> (.+) <==$/.exec(l.trim());
    if (m) out.push({ path: m[1]!, lines: [] });
    else if (out.length) out[out.length - 1]!.lines.push(l);
  }
  return out.length >= 2 ? out : undefined;
}

/** What a unified diff shows: the files it touches and the lines added and removed, or that it is empty. */
export function diffGist(lines: readonly string[]): string {
  const files = lines.map((l) => /^diff --git a\/(\S+) b\//.exec(l)?.[1] ?? /^\+\+\+ b\/(\S+)/.exec(l)?.[1]).filter((x): x is string => !!x);
  const add = lines.filter((l) => /^\+(?!\+\+ )/.test(l)).length;
  const del = lines.filter((l) => /^-(?!-- )/.test(l)).length;
  if (!lines.length) return 'no changes';
  const u = [...new Set(files)];
  return `${u.length ? `${u.length === 1 ? `\`${u[0]}\`` : `${u.length} files (${listed(u.map((f) => `\`${f}\``), 3)})`}, ` : ''}+${add} -${del} lines`;
}

