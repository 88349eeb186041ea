/**
 * One tool vocabulary for every host: each tool name a host gives the model, mapped to what
 * the call does (its kind) and where its path, command and outcome live. The checkpoint, the
 * anchors and the pruning all read tool calls through {@link toolInfo}.
 *
 * Sources of the names (the hosts' public sources and docs):
 * - Claude Code: the tools reference of docs.anthropic.com/en/docs/claude-code (Read, Write,
 *   Edit, MultiEdit, NotebookEdit, Bash, BashOutput, KillShell, Glob, Grep, LS, TodoWrite,
 *   Task, WebFetch, WebSearch, ExitPlanMode).
 * - Codex CLI (github.com/openai/codex, codex-rs/core/src/tools): `shell` (argv array) and
 *   `local_shell` / `local_shell_call` items (ShellHandler), `shell_command` (a command string,
 *   ShellCommandHandler, the shell tool of the 0.5x-0.6x rollouts), `exec_command` /
 *   `write_stdin` (unified exec), `apply_patch` (freeform patch body), `update_plan`
 *   (`plan: [{step, status}]`), `view_image`, `web_search`.
 * - pi (github.com/badlogic/pi-mono, packages/coding-agent/src/core/tools): read, write, edit,
 *   bash, grep, find, ls.
 * - Codex's multi-agent tools (codex-rs core/src/tools/handlers/multi_agents): `spawn_agent`,
 *   `send_input`, `wait` / `wait_agent`, `resume_agent` (their results: subagents.ts).
 * - Hermes Agent (github.com/NousResearch/hermes-agent, tools/ and docs/tools.md): terminal,
 *   read_file, write_file, patch, search_files, web_search, web_extract, web_crawl, todo,
 *   delegate_task, execute_code, browser_*.
 * - OpenClaw (docs.openclaw.ai/tools): read, write, edit, apply_patch, exec, process, bash,
 *   web_search, web_fetch, browser, sessions_spawn.
 * - Cursor (its agent tools): read_file, edit_file, search_replace, delete_file,
 *   run_terminal_cmd, codebase_search, grep_search, file_search, list_dir, todo_write, web_search.
 * - Editors' and MCP file tools: str_replace_based_edit_tool / str_replace_editor (the Anthropic
 *   text editor tool, `command: view|create|str_replace|insert`), create_file, edit_file.
 *
 * Unknown tools are `other`, still summarized by name (and by any path field they carry).
 */

import { scriptFiles } from './scripts.js';

/** What a tool call does. */
export type ToolKind = 'read' | 'write' | 'edit' | 'patch' | 'shell' | 'search' | 'todo' | 'web' | 'task' | 'other';

/** Where a tool's result says how it went. */
export type OutcomeSource =
  /** an exit code in the result text (`Exit code: 1`, `Process exited with code 2`), else the error flag */
  | 'exit-code'
  /** the error flag of the result (a file tool: "has been updated" or an error) */
  | 'error-flag'
  /** the result is findings to keep (a sub-agent's report, a research or web result) */
  | 'findings';

/** One row of the vocabulary: a tool name and how to read its calls. */
export interface ToolSpec {
  /** Tool names, lowercase (matching is case-insensitive; `mcp__server__` prefixes are removed). */
  names: readonly string[];
  kind: ToolKind;
  /** Input fields holding a file path, in order of preference. */
  pathFields?: readonly string[];
  /** Input fields holding the command (a string, or an argv array). */
  commandFields?: readonly string[];
  /** Input field holding a patch body (or the whole input when it is a string). */
  patchField?: string;
  /** Input field holding a task or research description (sub-agents, web). */
  subjectFields?: readonly string[];
  /** A delete tool: its paths are gone afterwards. */
  deletes?: boolean;
  outcome: OutcomeSource;
  /** Hosts (ids of the host table; test/host-ids.test.ts checks) and MCP servers (`mcp`) that use these names (documentation; not used for matching). */
  hosts: readonly string[];
}

const PATHS = ['file_path', 'path', 'filePath', 'notebook_path', 'target_file', 'filename', 'file', 'target_notebook'] as const;

/** The vocabulary table. First match wins; names are unique across rows. */
export const TOOL_VOCABULARY: readonly ToolSpec[] = [
  { names: ['read', 'read_file', 'readfile', 'view', 'view_file', 'notebookread', 'open_file', 'get_file_contents', 'fs_read', 'view_image'], kind: 'read', pathFields: PATHS, outcome: 'error-flag', hosts: ['claude-code', 'pi', 'hermes', 'openclaw', 'cursor', 'codex'] },
  { names: ['write', 'write_file', 'writefile', 'create_file', 'fs_write'], kind: 'write', pathFields: PATHS, outcome: 'error-flag', hosts: ['claude-code', 'pi', 'hermes', 'openclaw', 'mcp'] },
  { names: ['edit', 'multiedit', 'notebookedit', 'edit_file', 'search_replace', 'replace', 'str_replace', 'insert', 'edit_notebook'], kind: 'edit', pathFields: PATHS, outcome: 'error-flag', hosts: ['claude-code', 'pi', 'openclaw', 'cursor'] },
  { names: ['delete_file', 'remove_file'], kind: 'write', pathFields: PATHS, deletes: true, outcome: 'error-flag', hosts: ['cursor'] },
  { names: ['apply_patch', 'patch'], kind: 'patch', pathFields: PATHS, patchField: 'input', outcome: 'error-flag', hosts: ['codex', 'openclaw', 'hermes'] },
  {
    names: ['bash', 'shell', 'shell_command', 'exec_command', 'local_shell', 'local_shell_call', 'container.exec', 'terminal', 'run_terminal_cmd', 'run_command', 'execute_command', 'exec', 'bash_execution', 'powershell', 'execute_code'],
    kind: 'shell',
    commandFields: ['command', 'cmd', 'script', 'commandLine', 'code'],
    outcome: 'exit-code',
    hosts: ['claude-code', 'codex', 'pi', 'hermes', 'openclaw', 'cursor'],
  },
  { names: ['write_stdin', 'bashoutput', 'killshell', 'kill_shell', 'process'], kind: 'shell', outcome: 'exit-code', hosts: ['codex', 'claude-code', 'openclaw'] },
  { names: ['glob', 'grep', 'find', 'ls', 'list_dir', 'search', 'search_files', 'codebase_search', 'grep_search', 'file_search', 'list_files', 'list_directory'], kind: 'search', pathFields: ['path', 'target_directory', 'directory'], outcome: 'error-flag', hosts: ['claude-code', 'pi', 'hermes', 'cursor'] },
  { names: ['todowrite', 'todo_write', 'update_plan', 'todo'], kind: 'todo', outcome: 'error-flag', hosts: ['claude-code', 'codex', 'hermes', 'cursor'] },
  { names: ['websearch', 'webfetch', 'web_search', 'web_fetch', 'web_extract', 'web_crawl', 'fetch', 'browser'], kind: 'web', subjectFields: ['query', 'url', 'urls', 'prompt'], outcome: 'findings', hosts: ['claude-code', 'codex', 'hermes', 'openclaw', 'cursor'] },
  { names: ['task', 'agent', 'delegate_task', 'delegate', 'dispatch_agent', 'sessions_spawn', 'subagent', 'spawn_agent', 'mixture_of_agents', 'wait', 'wait_agent', 'send_input', 'resume_agent'], kind: 'task', subjectFields: ['description', 'goal', 'task', 'prompt', 'message', 'tasks'], outcome: 'findings', hosts: ['claude-code', 'hermes', 'openclaw', 'codex'] },
];

/** Anthropic's text editor tool: its kind depends on `command`. */
const EDITOR_TOOLS = new Set(['str_replace_based_edit_tool', 'str_replace_editor', 'text_editor']);

const BY_NAME = new Map<string, ToolSpec>();
for (const row of TOOL_VOCABULARY) for (const n of row.names) if (!BY_NAME.has(n)) BY_NAME.set(n, row);

/** What one tool call did, read through the vocabulary. */
export interface ToolInfo {
  kind: ToolKind;
  /** File paths the call reads, writes, edits, patches or (shell) writes by redirection. */
  paths: string[];
  /** Shell command line, for `shell` tools. */
  command?: string;
  /** Todo items with their status, for `todo` tools. */
  todos?: Array<{ text: string; status: string }>;
  /** Paths deleted by the call (a delete tool, `*** Delete File:`, `rm`, `git rm`). */
  deleted?: string[];
  /** Renames by the call (`*** Move to:`, `mv`, `git mv`). */
  renamed?: Array<{ from: string; to: string }>;
  /** Paths the call creates (`*** Add File:` of a patch, also one given to a shell's `apply_patch`). */
  created?: string[];
  /**
   * Files a shell command reads or searches (`cat`, `nl`, `head`, `tail`, `sed -n`, `less`,
   * `bat`, `rg`/`grep` with file operands): how Codex reads files, through `exec_command` /
   * `shell`. Relative to a `cd` of the same command line when it has one.
   */
  reads?: string[];
  /** What a sub-agent or research call was about (its description, query or URL). */
  subject?: string;
  /** Where the outcome lives. */
  outcome: OutcomeSource;
}

/** True for the kinds that change files. */
export function modifiesFiles(info: ToolInfo): boolean {
  return info.kind === 'write' || info.kind === 'edit' || info.kind === 'patch' || (info.kind === 'shell' && info.paths.length > 0);
}

function parseInput(input: unknown): unknown {
  if (typeof input === 'string') {
    const s = input.trim();
    if (s.startsWith('{') || s.startsWith('[')) {
      try {
        return JSON.parse(s);
      } catch {
        return input;
      }
    }
  }
  return input;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

/** Paths named in an `apply_patch` body (`*** Add File:`, `*** Update File:`, `*** Delete File:`, `*** Move to:`) or a unified diff. */
export function patchPaths(patch: string): string[] {
  const out: string[] = [];
  for (const m of patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm)) out.push((m[1] ?? m[2]!).trim());
  for (const m of patch.matchAll(/^\+\+\+ (?:b\/)?(\S+)/gm)) if (m[1] !== '/dev/null') out.push(m[1]!);
  return [...new Set(out)];
}

function patchEffects(patch: string): { deleted: string[]; renamed: Array<{ from: string; to: string }>; created: string[] } {
  const deleted = [...patch.matchAll(/^\*\*\* Delete File: (.+)$/gm)].map((m) => m[1]!.trim());
  const created = [...patch.matchAll(/^\*\*\* Add File: (.+)$/gm)].map((m) => m[1]!.trim());
  const renamed: Array<{ from: string; to: string }> = [];
  for (const m of patch.matchAll(/^\*\*\* Update File: (.+)\n\*\*\* Move to: (.+)$/gm)) renamed.push({ from: m[1]!.trim(), to: m[2]!.trim() });
  return { deleted, renamed, created };
}

/** Set what a patch body does on `info` (its paths go to `paths`). */
function applyPatchBody(info: ToolInfo, paths: string[], body: string): void {
  paths.push(...patchPaths(body));
  const fx = patchEffects(body);
  if (fx.deleted.length) info.deleted = [...(info.deleted ?? []), ...fx.deleted];
  if (fx.renamed.length) info.renamed = [...(info.renamed ?? []), ...fx.renamed];
  if (fx.created.length) info.created = fx.created;
}

function commandOf(o: Record<string, unknown>, fields: readonly string[]): string | undefined {
  for (const f of fields) {
    const c = o[f];
    if (Array.isArray(c)) {
      const parts = c.filter((x): x is string => typeof x === 'string');
      // ["bash", "-lc", "cmd"] -> cmd
      if (parts.length >= 3 && /^(ba|z|)sh$|\/(ba|z)?sh$/.test(parts[0]!) && /^-\w*c$/.test(parts[1]!)) return parts.slice(2).join(' ');
      if (parts.length) return parts.join(' ');
    }
    const s = str(c);
    if (s) return s;
  }
  return undefined;
}

/** Classify a tool call by name and input through {@link TOOL_VOCABULARY}. Unknown tools are `other` (paths still collected from common fields). */
export function toolInfo(name: string, rawInput: unknown): ToolInfo {
  const input = parseInput(rawInput);
  const n = name.toLowerCase().replace(/^mcp__[^_]+(?:_[^_]+)*?__/, '');
  const o = (input && typeof input === 'object' && !Array.isArray(input) ? input : {}) as Record<string, unknown>;
  const spec = BY_NAME.get(n);
  const paths: string[] = [];
  for (const k of spec?.pathFields ?? PATHS) {
    const v = str(o[k]);
    if (v) paths.push(v);
  }
  if (Array.isArray(o.paths)) for (const p of o.paths) if (typeof p === 'string') paths.push(p);
  if (Array.isArray(o.edits)) for (const e of o.edits) { const p = str((e as Record<string, unknown> | null)?.path ?? (e as Record<string, unknown> | null)?.file_path); if (p) paths.push(p); }
  if (EDITOR_TOOLS.has(n)) {
    const cmd = str(o.command);
    return { kind: cmd === 'view' ? 'read' : cmd === 'create' ? 'write' : 'edit', paths: [...new Set(paths)], outcome: 'error-flag' };
  }
  if (!spec) return { kind: 'other', paths: [...new Set(paths)], outcome: 'error-flag' };
  const info: ToolInfo = { kind: spec.kind, paths: [], outcome: spec.outcome };
  if (spec.kind === 'patch') {
    const body = typeof input === 'string' ? input : str(o[spec.patchField ?? 'input']) ?? str(o.patch) ?? str(o.diff);
    if (body) applyPatchBody(info, paths, body);
  }
  if (spec.kind === 'shell' && spec.commandFields) {
    const command = commandOf(o, spec.commandFields) ?? (typeof input === 'string' ? input : undefined);
    if (command) {
      info.command = command;
      // Codex runs `apply_patch` through its shell tools too (an argv `["apply_patch", patch]`
      // or a heredoc), and intercepts it as a patch (codex-rs apply-patch, maybe_parse_apply_patch)
      if (/^(?:cd\s+\S+\s*&&\s*)?apply_patch\b/.test(command) && command.includes('*** Begin Patch')) applyPatchBody(info, paths, command);
      // an inline script's literal files count as the command's (scripts.ts)
      const script = scriptFiles(command);
      const reads = [...new Set([...shellReads(command), ...script.reads.filter((p) => !script.writes.includes(p))])];
      if (reads.length) info.reads = reads;
      paths.push(...redirectPaths(command), ...script.writes);
      const fx = shellEffects(command);
      fx.deleted.push(...script.deletes);
      if (fx.deleted.length) info.deleted = fx.deleted;
      if (fx.renamed.length) info.renamed = fx.renamed;
      for (const r of fx.renamed) paths.push(r.to);
    }
  }
  if (spec.deletes) info.deleted = [...paths];
  if (spec.kind === 'todo') {
    const list = (Array.isArray(o.todos) ? o.todos : Array.isArray(o.plan) ? o.plan : Array.isArray(o.items) ? o.items : []) as Array<Record<string, unknown>>;
    info.todos = list
      .map((t) => ({ text: str(t?.content) ?? str(t?.step) ?? str(t?.text) ?? str(t?.title) ?? '', status: str(t?.status) ?? 'pending' }))
      .filter((t) => t.text);
  }
  if (spec.subjectFields) {
    for (const f of spec.subjectFields) {
      const v = o[f];
      // Hermes' batch form: `tasks: [{goal, context}]`
      const s = Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : str((x as Record<string, unknown> | null)?.goal) ?? '')).filter(Boolean).join('; ') : str(v);
      if (s) {
        info.subject = s;
        break;
      }
    }
  }
  info.paths = [...new Set(paths)];
  return info;
}

/** Files a shell command writes through `>`/`>>` redirection, `tee`, `sed -i`. Conservative. */
function redirectPaths(cmd: string): string[] {
  const out: string[] = [];
  // heredoc bodies are data, not commands
  const c = stripHeredocs(cmd);
  for (const m of c.matchAll(/(?:^|[^>&0-9<])>>?\s*([^\s;&|<>'"]+)/g)) if (!m[1]!.startsWith('/dev/')) out.push(m[1]!);
  for (const m of c.matchAll(/\btee\s+(?:-a\s+)?([^\s;&|<>'"]+)/g)) out.push(m[1]!);
  for (const m of c.matchAll(/\bsed\s+-i(?:\s*'[^']*'|\S*)?(?:\s+-e)?\s+(?:'[^']*'|"[^"]*")\s+([^\s;&|<>'"]+)/g)) out.push(m[1]!);
  // drop what the patterns catch inside quoted code (`=> x)`, `$VAR`, `a=b`): not file names
  return out.filter((p) => p !== '&1' && p !== '&2' && !/[()$`=*?]/.test(p));
}

/** Words of one shell stage, quotes removed (no expansion). */
function shellWords(stage: string): string[] {
  const out: string[] = [];
  for (const m of stage.matchAll(/'([^']*)'|"((?:\\.|[^"\\])*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** Programs that print or page a file given as an operand. */
const READERS = new Set(['cat', 'nl', 'head', 'tail', 'less', 'more', 'bat', 'batcat', 'wc', 'sed', 'awk']);
/** Options that take the next word as their value, per program (`head -n 40`, `rg -g '*.ts'`, `sed -e s/a/b/`); `grep -n` and `sed -n` take none. */
const VALUE_OPTS: Record<string, RegExp> = {
  head: /^-(?:n|c|-lines|-bytes)$/,
  tail: /^-(?:n|c|-lines|-bytes)$/,
  sed: /^-(?:e|f|-expression|-file)$/,
  awk: /^-(?:f|v|F)$/,
  search: /^-(?:e|f|g|m|A|B|C|t|T|-regexp|-file|-glob|-type|-max-count|-context|-after-context|-before-context)$/,
};

/**
 * Files a shell command line reads: operands of `cat`, `nl -ba`, `head`, `tail`, `sed -n '1,80p'`,
 * `less`, `bat`, `wc`, `awk` and the file operands of `rg`/`grep` (after the pattern). Literal
 * paths only (no globs, variables, option values); a relative path after `cd dir &&` is joined to
 * `dir`. Heredoc bodies are data, not commands.
 */
export function shellReads(cmd: string): string[] {
  const out: string[] = [];
  let dir = '';
  for (const stage of stripHeredocs(cmd).split(/&&|\|\||;|\||\n/)) {
    const w = shellWords(stage.trim()).filter((x) => !/^\w+=/.test(x));
    while (w[0] === 'sudo' || w[0] === 'command' || w[0] === 'env' || w[0] === 'time') w.shift();
    const prog = w[0]?.split('/').pop();
    if (!prog) continue;
    if (prog === 'cd') {
      const d = w[1];
      if (d && !/[$`*?~]/.test(d) && d !== '-') dir = d.startsWith('/') ? d : dir ? `${dir}/${d}` : d;
      continue;
    }
    const search = prog === 'rg' || prog === 'grep' || prog === 'egrep' || prog === 'fgrep' || (prog === 'git' && w[1] === 'grep');
    if (!READERS.has(prog) && !search) continue;
    const args = w.slice(prog === 'git' ? 2 : 1);
    const operands: string[] = [];
    let script = prog === 'sed' || prog === 'awk' || search;
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--') continue;
      if (a.startsWith('-') && a.length > 1) {
        if ((a === '-e' || a === '-f' || a === '--regexp') && (prog === 'sed' || search)) script = false;
        if (VALUE_OPTS[search ? 'search' : prog]?.test(a)) i++;
        continue;
      }
      if (/^[<>]|^\d*>/.test(a)) break; // a redirection ends the operands
      if (script) {
        script = false; // the sed/awk script or the search pattern
        continue;
      }
      operands.push(a);
    }
    for (const a of operands) {
      if (/[*?$`{}[\]()]/.test(a) || a.startsWith('/dev/') || !/\.\w+$|^\.[\w.-]+$|\/[A-Z][A-Za-z]*file$|^(?:Makefile|Justfile|Dockerfile|LICENSE|README)$/.test(a.split('/').pop()!)) continue;
      out.push(a.startsWith('/') || !dir ? a : `${dir}/${a.replace(/^\.\//, '')}`);
    }
  }
  return [...new Set(out)];
}

/** The command with heredoc bodies removed (`<<'EOF' ... EOF`). */
export function stripHeredocs(cmd: string): string {
  return cmd.replace(/<<-?\s*(['"]?)(\w+)\1[^\n]*\n[\s\S]*?\n\s*\2\s*(?=\n|$)/g, (m) => m.split('\n')[0]!);
}

/** Files a shell command deletes (`rm`, `git rm`) or renames (`mv`, `git mv`), literal paths only. */
function shellEffects(cmd: string): { deleted: string[]; renamed: Array<{ from: string; to: string }> } {
  const deleted: string[] = [];
  const renamed: Array<{ from: string; to: string }> = [];
  for (const part of stripHeredocs(cmd).split(/&&|\|\||;|\n/)) {
    const words = part.trim().split(/\s+/).filter(Boolean);
    const lit = (w: string) => !/[*?$`(){}<>|]/.test(w) && !w.startsWith('-');
    if (words[0] === 'git' && (words[1] === 'rm' || words[1] === 'mv')) words.shift();
    if (words[0] === 'rm') deleted.push(...words.slice(1).filter(lit).map(unquote));
    if (words[0] === 'mv') {
      const args = words.slice(1).filter(lit).map(unquote);
      if (args.length === 2) renamed.push({ from: args[0]!, to: args[1]! });
    }
  }
  return { deleted, renamed };
}

function unquote(w: string): string {
  return w.replace(/^(['"])(.*)\1$/, '$2');
}
