/**
 * What an inline script does: a heredoc given to an interpreter (`python - <<'PY' … PY`,
 * `node --input-type=module <<'EOF'`) or written to a file and run (`cat > /tmp/fix.py <<'EOF' …
 * EOF && python3 /tmp/fix.py`), read for the files it reads and writes (literal paths given to
 * `open()`, `Path(…).read_text()` / `.write_text()`, `readFileSync` / `writeFileSync`), the
 * programs it runs and the databases and URLs it opens. So a checkpoint says "a 24-line Python
 * script that rewrites src/app.ts by regex" instead of labelling every script `python - <<'PY'`.
 * Conservative: only literal paths count; a script that computes its paths says what it runs or
 * its first statement. Lengths are characters.
 */

/** One heredoc of a command line: the line that opens it, its body, and the commands after its terminator. */
interface Heredoc {
  /** The line holding `<<TAG` (what the body is given to). */
  head: string;
  body: string;
  /** Command text after the terminator line (`python3 /tmp/fix.py`). */
  after: string;
}

/** The heredocs of a command line, in order. */
function heredocs(cmd: string): Heredoc[] {
  const out: Heredoc[] = [];
  const re = /^([^\n]*?<<-?\s*(['"]?)(\w+)\2[^\n]*)\n([\s\S]*?)\n\s*\3\s*(?:\n|$)/gm;
  let m: RegExpExecArray | null;
  while ((m = re.exec(cmd))) {
    const rest = cmd.slice(m.index + m[0].length);
    out.push({ head: m[1]!.trim(), body: m[4]!, after: rest.trim() });
  }
  return out;
}

/** Interpreters a heredoc can be given to, by the language they run. */
const INTERPRETER: Array<[RegExp, string]> = [
  [/\b(?:python3?(?:\.\d+)?|uv run(?: python3?)?|poetry run python3?|pipenv run python3?)\b/, 'Python'],
  [/\b(?:node|deno|bun|tsx|ts-node)\b/, 'JavaScript'],
  [/\bruby\b/, 'Ruby'],
  [/\bperl\b/, 'Perl'],
  [/\bphp\b/, 'PHP'],
  [/\b(?:bash|sh|zsh)\b/, 'shell'],
  [/\b(?:psql|sqlite3|mysql)\b/, 'SQL'],
];

/** The language of a script file by its extension. */
const BY_EXT: Record<string, string> = { py: 'Python', js: 'JavaScript', mjs: 'JavaScript', cjs: 'JavaScript', ts: 'JavaScript', rb: 'Ruby', pl: 'Perl', php: 'PHP', sh: 'shell', bash: 'shell', sql: 'SQL' };

/** A literal that looks like a file path: no spaces, an extension or a folder part, not a URL. */
function pathLike(s: string): boolean {
  return s.length >= 3 && s.length <= 200 && !/\s|^[a-z]+:\/\//i.test(s) && !/[{}$%*?<>|]/.test(s) && (/\.\w{1,8}$/.test(s) || /\//.test(s));
}

const STR = String.raw`(?:'([^'\n]+)'|"([^"\n]+)"|` + '`([^`\\n$]+)`)';

/** Files a script reads and writes by literal paths, the programs it runs, what else it opens. */
interface ScriptEffects {
  reads: string[];
  writes: string[];
  deletes: string[];
  /** Other things it does, in words: "runs `git status`", "queries app.db", "fetches https://…". */
  other: string[];
  /** It replaces text (`re.sub`, `.replace(`, `sed`). */
  replaces: boolean;
}

/** What a script body does (see the module comment). */
function scriptEffects(body: string): ScriptEffects {
  const fx: ScriptEffects = { reads: [], writes: [], deletes: [], other: [], replaces: /\bre\.sub\b|\.replace(?:All)?\(|\bsed\s+-i\b|\.sub\(/.test(body) };
  const lit = (m: RegExpMatchArray, from = 1) => m[from] ?? m[from + 1] ?? m[from + 2];
  // names bound to a literal path (`p = Path('src/a.ts')`, `const f = 'data.json'`)
  const vars = new Map<string, string>();
  for (const m of body.matchAll(new RegExp(String.raw`(?:^|\n)\s*(?:const |let |var )?([A-Za-z_]\w*)\s*=\s*(?:(?:pathlib\.)?Path\()?` + STR, 'g'))) {
    const v = lit(m, 2);
    if (v && pathLike(v)) vars.set(m[1]!, v);
  }
  const arg = String.raw`(?:` + STR + String.raw`|([A-Za-z_]\w*))`;
  const val = (m: RegExpMatchArray, from: number) => lit(m, from) ?? (m[from + 3] ? vars.get(m[from + 3]!) : undefined);
  const add = (list: string[], p: string | undefined) => {
    if (p && pathLike(p) && !list.includes(p)) list.push(p);
  };
  for (const m of body.matchAll(new RegExp(String.raw`\bopen\(\s*` + arg + String.raw`\s*(?:,\s*(?:mode\s*=\s*)?['"]([rwxab+t]+)['"])?`, 'g'))) {
    const mode = m[5] ?? 'r';
    add(/[wax+]/.test(mode) ? fx.writes : fx.reads, val(m, 1));
  }
  for (const m of body.matchAll(new RegExp(String.raw`(?:\bPath\(\s*` + STR + String.raw`\s*\)|\b([A-Za-z_]\w*))\.(read_text|read_bytes|write_text|write_bytes|unlink|open)\(`, 'g'))) {
    const p = lit(m, 1) ?? (m[4] ? vars.get(m[4]) : undefined);
    const op = m[5]!;
    add(op.startsWith('write') ? fx.writes : op === 'unlink' ? fx.deletes : fx.reads, p);
  }
  for (const m of body.matchAll(new RegExp(String.raw`\b(readFileSync|readFile|writeFileSync|writeFile|appendFileSync|unlinkSync|rmSync)\(\s*` + arg, 'g'))) {
    const op = m[1]!;
    add(/write|append/i.test(op) ? fx.writes : /unlink|rm/.test(op) ? fx.deletes : fx.reads, val(m, 2));
  }
  for (const m of body.matchAll(new RegExp(String.raw`\bos\.(?:remove|unlink)\(\s*` + arg, 'g'))) add(fx.deletes, val(m, 1));
  const run = /\bsubprocess\.(?:run|check_output|check_call|call|Popen)\(\s*\[\s*['"]([^'"]+)['"](?:\s*,\s*['"]([^'"]+)['"])?|\b(?:execSync|execFileSync|spawnSync)\(\s*['"`]([^'"`]+)['"`]|\bos\.system\(\s*['"]([^'"]+)['"]/.exec(body);
  if (run) fx.other.push(`runs ${(run[3] ?? run[4] ?? [run[1], run[2]].filter(Boolean).join(' ')).split(/\s+/).slice(0, 3).join(' ')}`);
  const db = /\b(?:sqlite3\.connect|new Database)\(\s*['"]([^'"]+)['"]/.exec(body);
  if (db) fx.other.push(`queries ${db[1]}`);
  const url = /['"](https?:\/\/[^'"\s]{4,120})['"]/.exec(body);
  if (url && /\b(?:requests\.|urlopen|fetch\(|httpx\.|axios)/.test(body)) fx.other.push(`fetches ${url[1]}`);
  return fx;
}

/** "a 24-line" or "an 11-line": the article as the number is spoken. */
function aLines(n: number): string {
  const an = /^8/.test(String(n)) || n === 11 || n === 18 || (n >= 11000 && n < 12000) || (n >= 18000 && n < 19000);
  return `${an ? 'an' : 'a'} ${n}-line`;
}

/** `a, b and N more` of at most two paths. */
function few(ps: readonly string[]): string {
  return ps.slice(0, 2).join(', ') + (ps.length > 2 ? ` and ${ps.length - 2} more` : '');
}

/** What a script does in a few words: "rewrites src/a.ts by regex", "reads a.json; writes b.json", "runs git log", else its first statement. */
function scriptDoes(body: string): string {
  const fx = scriptEffects(body);
  const both = fx.writes.filter((p) => fx.reads.includes(p));
  const reads = fx.reads.filter((p) => !both.includes(p));
  const writes = fx.writes.filter((p) => !both.includes(p));
  const parts: string[] = [];
  if (both.length) parts.push(`rewrites ${few(both)}${fx.replaces ? ' by text replacement' : ''}`);
  if (reads.length) parts.push(`reads ${few(reads)}`);
  if (writes.length) parts.push(`writes ${few(writes)}`);
  if (fx.deletes.length) parts.push(`deletes ${few(fx.deletes)}`);
  parts.push(...fx.other);
  if (parts.length) return parts.join('; ');
  // nothing literal to go by: its first statement
  const first = body
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l && !/^(?:#|\/\/|import\b|from\s+\S+\s+import\b|require\(|const \w+ = require\(|use strict|set -[euxo]|"use strict")/.test(l));
  if (!first) return 'imports only';
  return `starts with ${first.length > 60 ? `${first.slice(0, first.lastIndexOf(' ', 60) > 20 ? first.lastIndexOf(' ', 60) : 60)} …` : first}`;
}

/** The language a heredoc's body is in: the interpreter it is given to, else the extension of the file it is written to. */
function language(head: string, file: string | undefined): string | undefined {
  for (const [re, lang] of INTERPRETER) if (re.test(head.replace(/<<.*$/, ''))) return lang;
  const ext = file ? /\.(\w+)$/.exec(file)?.[1]?.toLowerCase() : undefined;
  return ext ? BY_EXT[ext] : undefined;
}

/** The file a heredoc is written to (`cat > F <<EOF`, `cat <<EOF > F`, `tee F <<EOF`). */
function writtenTo(head: string): string | undefined {
  const m = /\b(?:cat|tee(?:\s+-a)?)\b[^\n]*?(?:>>?\s*|tee(?:\s+-a)?\s+)(['"]?)([^\s'";&|<>]+)\1/.exec(head);
  return m && !m[2]!.startsWith('/dev/') ? m[2] : undefined;
}

/**
 * A command line holding a heredoc, said by what it does, or undefined for one without: the
 * interpreter it runs and a few words on the script ("python3 - <<'PY' (a 24-line Python script
 * that rewrites src/app.ts by text replacement)"), or the file it writes ("cat > /tmp/fix.py
 * <<'EOF' (writes a 19-line Python script that reads data.json, then runs it)"). No backticks,
 * so it can be shown inside a code span.
 */
export function heredocDisplay(cmd: string): string | undefined {
  const [h] = heredocs(cmd);
  if (!h) return undefined;
  const head = h.head.replace(/^cd\s+(?:"[^"]+"|'[^']+'|\S+)\s*&&\s*/, '').replace(/\s*<<-?\s*(['"]?)(\w+)\1/, " <<'$2'");
  const lines = h.body.split('\n').filter((l) => l.trim()).length;
  const file = writtenTo(h.head);
  const lang = language(h.head, file);
  const what = lang && lang !== 'SQL' ? `${lang} script` : lang === 'SQL' ? 'SQL script' : 'text';
  const does = lang ? scriptDoes(h.body) : '';
  // what the command line runs after the heredoc: the script it wrote, other programs
  const base = file?.split('/').pop();
  const runsIt = (stage: string) => !!base && new RegExp(`(?:^|[\\s/])${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:\\s|$)`).test(stage);
  const stages = h.after.split(/&&|\|\||;|\n/).map((x) => x.trim()).filter((x) => x && !/^(?:EOF|fi|done)$/.test(x));
  const runs = stages.some(runsIt);
  const others = stages.filter((x) => !runsIt(x) && !/^(?:chmod|cd|rm)\b/.test(x)).map((x) => x.split(/\s+/).slice(0, 3).join(' '));
  const then = `${runs ? ', then runs it' : ''}${others.length ? `, then ${others.slice(0, 2).join(' and ')}${others.length > 2 ? ` and ${others.length - 2} more` : ''}` : ''}`;
  if (file) return `${head} (writes ${aLines(lines)} ${what}${does ? ` that ${does}` : ''}${then})`;
  return `${head} (${aLines(lines)} ${what}${does ? ` that ${does}` : ''}${then})`;
}

/**
 * The files the scripts of a command line read, write and delete, by literal paths: a heredoc
 * given to an interpreter, or written to a script file the same command line then runs. Plain
 * text written to a file is no script (its own path is the redirection's, toolinfo.ts).
 */
export function scriptFiles(cmd: string): { reads: string[]; writes: string[]; deletes: string[] } {
  const out = { reads: [] as string[], writes: [] as string[], deletes: [] as string[] };
  for (const h of heredocs(cmd)) {
    const file = writtenTo(h.head);
    const lang = language(h.head, file);
    if (!lang || lang === 'SQL') continue;
    if (file && !new RegExp(`(?:^|[\\s;&|/])${file.split('/').pop()!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:\\s|$)`).test(h.after)) continue;
    const fx = scriptEffects(h.body);
    out.reads.push(...fx.reads);
    out.writes.push(...fx.writes);
    out.deletes.push(...fx.deletes);
  }
  return out;
}
