/**
 * What a tool call did, across hosts' tool vocabularies: Claude Code (`Read`, `Edit`,
 * `MultiEdit`, `Write`, `NotebookEdit`, `Bash`, `Glob`, `Grep`, `TodoWrite`), pi
 * (`read`, `edit`, `write`, `bash`), Codex (`shell`, `exec_command`, `apply_patch`,
 * `update_plan`), Hermes (`read_file`, `write_file`, `patch`, `terminal`) and common
 * MCP/editor tools (`str_replace_based_edit_tool`, `create_file`...).
 */
export type ToolKind = 'read' | 'modify' | 'command' | 'search' | 'todo' | 'other';

export interface ToolInfo {
  kind: ToolKind;
  /** File paths the call reads or modifies. */
  paths: string[];
  /** Shell command line, for `command` tools. */
  command?: string;
  /** Todo items with their status, for `todo` tools. */
  todos?: Array<{ text: string; status: string }>;
}

const READ = new Set(['read', 'read_file', 'readfile', 'view', 'view_file', 'notebookread', 'open_file', 'cat', 'get_file_contents', 'fs_read']);
const MODIFY = new Set(['edit', 'multiedit', 'write', 'write_file', 'writefile', 'patch', 'apply_patch', 'notebookedit', 'create_file', 'replace', 'str_replace', 'edit_file', 'fs_write', 'insert', 'delete_file', 'search_replace']);
const COMMAND = new Set(['bash', 'shell', 'exec_command', 'terminal', 'run_command', 'local_shell', 'container.exec', 'run_terminal_cmd', 'execute_command', 'bash_execution', 'powershell']);
const SEARCH = new Set(['glob', 'grep', 'find', 'ls', 'list_dir', 'search', 'search_files', 'codebase_search', 'file_search', 'list_files', 'websearch', 'webfetch']);
const TODO = new Set(['todowrite', 'todo_write', 'update_plan', 'todo']);
const EDITOR_TOOLS = new Set(['str_replace_based_edit_tool', 'str_replace_editor', 'text_editor']);

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

/** Paths named in an `apply_patch` body (`*** Add File:`, `*** Update File:`, `*** Delete File:`, `*** Move to:`). */
export function patchPaths(patch: string): string[] {
  const out: string[] = [];
  for (const m of patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm)) out.push((m[1] ?? m[2]!).trim());
  // unified diff headers
  for (const m of patch.matchAll(/^\+\+\+ (?:b\/)?(\S+)/gm)) if (m[1] !== '/dev/null') out.push(m[1]!);
  return [...new Set(out)];
}

function commandOf(o: Record<string, unknown>): string | undefined {
  const c = o.command ?? o.cmd ?? o.script ?? o.commandLine;
  if (Array.isArray(c)) {
    const parts = c.filter((x): x is string => typeof x === 'string');
    // ["bash", "-lc", "cmd"] -> cmd
    if (parts.length >= 3 && /^(ba|z|)sh$|\/(ba|z)?sh$/.test(parts[0]!) && /^-\w*c$/.test(parts[1]!)) return parts.slice(2).join(' ');
    return parts.join(' ');
  }
  return str(c);
}

/** Classify a tool call by name and input. Unknown tools are `other` (paths still collected from common fields). */
export function toolInfo(name: string, rawInput: unknown): ToolInfo {
  const input = parseInput(rawInput);
  const n = name.toLowerCase().replace(/^mcp__[^_]+(?:_[^_]+)*?__/, '');
  const o = (input && typeof input === 'object' && !Array.isArray(input) ? input : {}) as Record<string, unknown>;
  const paths: string[] = [];
  for (const k of ['file_path', 'path', 'filePath', 'notebook_path', 'target_file', 'filename', 'file']) {
    const v = str(o[k]);
    if (v) paths.push(v);
  }
  if (Array.isArray(o.paths)) for (const p of o.paths) if (typeof p === 'string') paths.push(p);
  if (Array.isArray(o.edits)) for (const e of o.edits) { const p = str((e as Record<string, unknown> | null)?.path ?? (e as Record<string, unknown> | null)?.file_path); if (p) paths.push(p); }
  if (n === 'apply_patch' || n === 'patch') {
    const body = typeof input === 'string' ? input : str(o.input) ?? str(o.patch) ?? str(o.diff);
    if (body) paths.push(...patchPaths(body));
  }
  const uniq = [...new Set(paths)];
  if (EDITOR_TOOLS.has(n)) {
    const cmd = str(o.command);
    return { kind: cmd === 'view' ? 'read' : 'modify', paths: uniq };
  }
  if (READ.has(n)) return { kind: 'read', paths: uniq };
  if (MODIFY.has(n)) return { kind: 'modify', paths: uniq };
  if (COMMAND.has(n)) {
    const command = commandOf(o) ?? (typeof input === 'string' ? input : undefined);
    const mod = command ? redirectPaths(command) : [];
    return { kind: 'command', paths: [...new Set([...uniq, ...mod])], command };
  }
  if (SEARCH.has(n)) return { kind: 'search', paths: uniq };
  if (TODO.has(n)) {
    const list = (Array.isArray(o.todos) ? o.todos : Array.isArray(o.plan) ? o.plan : []) as Array<Record<string, unknown>>;
    const todos = list
      .map((t) => ({ text: str(t?.content) ?? str(t?.step) ?? str(t?.text) ?? str(t?.title) ?? '', status: str(t?.status) ?? 'pending' }))
      .filter((t) => t.text);
    return { kind: 'todo', paths: uniq, todos };
  }
  return { kind: 'other', paths: uniq };
}

/** Files a shell command writes through `>`/`>>` redirection, `tee`, `sed -i`, `touch`, `mv`/`cp` targets. Conservative. */
function redirectPaths(cmd: string): string[] {
  const out: string[] = [];
  for (const m of cmd.matchAll(/(?:^|[^>&0-9])>>?\s*([^\s;&|<>'"]+)/g)) if (!m[1]!.startsWith('/dev/')) out.push(m[1]!);
  for (const m of cmd.matchAll(/\btee\s+(?:-a\s+)?([^\s;&|<>'"]+)/g)) out.push(m[1]!);
  for (const m of cmd.matchAll(/\bsed\s+-i(?:\s*'[^']*'|\S*)?(?:\s+-e)?\s+(?:'[^']*'|"[^"]*")\s+([^\s;&|<>'"]+)/g)) out.push(m[1]!);
  // drop what the patterns catch inside quoted code (`=> x)`, `$VAR`, `a=b`): not file names
  return out.filter((p) => p !== '&1' && p !== '&2' && !/[()$`=]/.test(p));
}
