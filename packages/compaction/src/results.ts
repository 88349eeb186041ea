/**
 * What a tool result printed, told apart from what was added around it: the host's wrapping
 * (Codex's exec header, pi's exit line), text a host appends after a sub-agent's answer (Claude
 * Code's `agentId:` line and `<usage>` block), lines the environment prints into every result (a
 * shell start-up error), and a program's help text (never an error's cause). Lengths are
 * characters.
 */
import { PRUNE_MARKER } from './prune.js';

/** Lines a host wraps around a tool's output, not the output: Codex unified exec and shell headers, pi's exit line, Node's inspector notices. */
export const WRAPPER_LINE = /^(?:Chunk ID: \w+|Wall time: [\d.]+ ?s(?:econds)?|Process exited with code \d+|Process running with session ID \d+|Original token count: \d+|(?:Error: )?[Ee]xit code:? \d+|Output:|Command exited with code \d+|\(no output\)|Debugger attached\.|Waiting for the debugger to disconnect\.\.\.|Debugger listening on \S+|For help, see: https:\/\/nodejs\.org\/en\/docs\/inspector)$/;

/**
 * Text a host appends after what the tool (or the sub-agent) said: Claude Code's Task/Agent tool
 * ends its result with `agentId: a1b2c3 (for resuming to continue this agent's work if needed)`
 * and, since 2.x, a `<usage>total_tokens: N … duration_ms: N</usage>` block (the claude-code
 * transcripts and its tool results show both); a trailing token-usage line of other hosts
 * (`total_tokens: 1234`, `Tokens used: 1,234`).
 */
const TRAILER_BLOCK = /\n*<usage>[\s\S]*?<\/usage>\s*$/;
const TRAILER_LINE = /^(?:agentId: [\w-]+(?: \(.*\))?|(?:total_tokens|tool_uses|duration_ms|tokens_used|tokens used|token usage|total tokens)\s*[:=]\s*[\d,.]+(?:\s*\w+)?)$/i;

/** `text` without what a host appended after the tool's own answer (see {@link TRAILER_LINE}). */
export function withoutHostTrailer(text: string): string {
  let t = text.replace(TRAILER_BLOCK, '');
  const lines = t.split('\n');
  while (lines.length && (!lines[lines.length - 1]!.trim() || TRAILER_LINE.test(lines[lines.length - 1]!.trim()))) lines.pop();
  t = lines.join('\n');
  return t;
}

/**
 * A program's help text, not an error's cause: usage lines (`usage: git commit [<options>]`),
 * option descriptions (`  -e, --error-on-warnings  treat warnings as errors`), the headings of
 * a help page (`Options:`), git's and npm's `hint:` lines and a "run --help" pointer.
 */
export function isHelpLine(line: string): boolean {
  const l = line.trim();
  if (/^(?:usage|Usage|USAGE)\s*:/.test(l) || /^(?:hint|npm notice|note: run with|help: run|Try '[^']+ --help'|Run '[^']+ --help'|See '[^']+ --help'|For more information,? try '--help')/i.test(l)) return true;
  if (/^(?:Options|Commands|Flags|Arguments|Subcommands|Global options|Available commands)\s*:$/i.test(l)) return true;
  // an option with its description: "-e, --error-on-warnings  text", "--fail-on-error=<bool>  text"
  return /^-{1,2}[A-Za-z][\w-]*(?:[ ,=]\S*)*?\s{2,}\S/.test(l) || /^-[A-Za-z], --[\w-]+/.test(l);
}

/** Lines of a result without blanks, host wrapper lines and pruning markers (trimmed). */
function contentLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !WRAPPER_LINE.test(l) && !l.includes(PRUNE_MARKER));
}

/** How many leading and trailing content lines of each result are looked at for environment lines. */
const EDGE_LINES = 3;
/** Results an environment line must appear in (at the start or end of each), from at least two different programs; two for a line shaped like a shell's own message. */
const MIN_REPEATS = 3;
/** A shell's own message (`bash: …`, `zsh:1: …`, `/Users/tom/.zshrc:14: …`, `-bash: …`): what a start-up file prints. */
export const SHELL_MESSAGE = /^(?:-?(?:ba|z|k|da|fi)?sh(?::\d+)?|\/\S*\/\.(?:\w*rc|\w*profile|\w*env|zlogin)(?::\d+)?|\S+\/\.local\/bin\/env):\s/;

/**
 * Lines the environment prints into every result rather than the command: a shell's start-up
 * error (`bash: /Users/tom/.bashrc: line 12: pyenv: command not found` at the top of each
 * output), a locale warning, a version manager's notice. A line is one when it opens or closes
 * the output of results of at least two different programs, at least {@link MIN_REPEATS} and half
 * of the results that printed anything (two for a line shaped like a shell's message,
 * {@link SHELL_MESSAGE}), is at least 16 characters, and is not a summary a test or build prints
 * (those repeat because the same run was made again). `results` are the result texts with the
 * program that printed each.
 */
export function environmentLines(results: ReadonlyArray<{ text: string; program: string }>): Set<string> {
  const seen = new Map<string, { n: number; programs: Set<string> }>();
  const printed = results.filter((r) => contentLines(r.text).length).length;
  for (const r of results) {
    const lines = contentLines(r.text);
    const edges = new Set([...lines.slice(0, EDGE_LINES), ...lines.slice(-EDGE_LINES)]);
    for (const l of edges) {
      if (l.length < 16 || !/[a-z]{3}/i.test(l)) continue;
      const s = seen.get(l) ?? { n: 0, programs: new Set<string>() };
      s.n++;
      s.programs.add(r.program);
      seen.set(l, s);
    }
  }
  const out = new Set<string>();
  for (const [l, s] of seen) {
    // a shell's own message twice; any other line in most results (the first lines of one file read three ways are not the environment)
    if (SHELL_MESSAGE.test(l) ? s.n < 2 : s.n < MIN_REPEATS || s.n < printed / 2) continue;
    if (s.programs.size < 2) continue;
    // a run's summary repeats because the run was repeated; it is the outcome, not the environment
    if (/\b\d+ (?:passed|failed|tests?|errors?|warnings?)\b|test result:|^(?:TOTAL|ok|PASS|FAIL)\b/i.test(l)) continue;
    out.add(l);
  }
  return out;
}

/** `text` with the environment lines removed (each whole line, whatever its indentation). */
export function withoutLines(text: string, lines: ReadonlySet<string>): string {
  if (!lines.size) return text;
  return text
    .split('\n')
    .filter((l) => !lines.has(l.trim()))
    .join('\n');
}

/**
 * What a tool result is worth keeping verbatim, for pruning (plan.ts): `findings` for a
 * sub-agent's or research tool's report (its value is what it found), `dump` for output that is
 * bulk rather than a result (a list of paths, `strings` or a hex dump of a binary, an environment
 * or configuration dump, a lock file, base64 or minified text: cheap to produce again, little to
 * read), `normal` for the rest.
 */
export type ResultValue = 'findings' | 'normal' | 'dump';

/** Commands whose output is a dump whatever it holds. */
const DUMP_COMMAND = /^(?:strings|xxd|hexdump|od|objdump|nm|readelf|otool|env|printenv|set|export -p|declare -p|sysctl|defaults read|launchctl list|ps(?: aux| -ef)?|lsof|netstat|ss -|dpkg -l|rpm -qa|apt list|brew list|pip3? (?:list|freeze)|npm (?:ls|config (?:ls|list))|yarn list|pnpm list|conda list|gem list|cargo tree|go list -m all|git config (?:-l|--list)|git ls-files|find|fd|tree|ls -R|du)\b/;
/** Files whose text is a dump when read (lock files, minified bundles, source maps). */
const DUMP_FILE = /(?:^|\/)(?:package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|poetry\.lock|uv\.lock|Gemfile\.lock|composer\.lock|go\.sum)$|\.(?:min\.js|min\.css|map|lock)$/;

/** True for a command whose output is a dump whatever it holds (`strings x | head` still is; `find … | grep`, `| xargs`, `| wc` make it a query). */
export function dumpCommand(command: string): boolean {
  const first = command.replace(/^\s*(?:cd\s+\S+\s*&&\s*)?(?:sudo\s+)?/, '');
  return DUMP_COMMAND.test(first) && !/\|\s*(?:grep|egrep|rg|wc|xargs|awk|sort\s+\|\s*uniq)\b/.test(first);
}

/** The value of a tool result given the call's kind (toolinfo.ts), its command or path, and its text. */
export function resultValue(kind: string, command: string | undefined, path: string | undefined, text: string): ResultValue {
  if (kind === 'task' || kind === 'web') return 'findings';
  const lines = contentLines(text);
  // a short output is read whatever printed it (`du -sh node_modules` -> one line)
  if (lines.length < 20) return 'normal';
  if (command && dumpCommand(command)) return 'dump';
  if (path && DUMP_FILE.test(path)) return 'dump';
  const share = (re: RegExp) => lines.filter((l) => re.test(l)).length / lines.length;
  // a list of paths (find, rg --files, a glob), one per line
  if (share(/^(?:\.{0,2}\/)?[\w@.+-]+(?:\/[\w@.+ -]+)+\/?$|^[\w@+-]+\.\w{1,8}$/) >= 0.8) return 'dump';
  // key=value or key: value lines (an environment or a config printed whole)
  if (share(/^[A-Za-z_][\w.-]*\s*[=:]\s*\S/) >= 0.8 && share(/\s{2,}|[(){};]/) < 0.2) return 'dump';
  // base64, minified code, hex: long lines without spaces, or lines that are mostly not words
  if (share(/^\S{200,}$/) >= 0.5) return 'dump';
  if (share(/^(?:[0-9a-f]{4,8}:?\s+)?(?:[0-9a-f]{2,4}\s+){4,}/i) >= 0.6) return 'dump';
  return 'normal';
}

/** A tool result's text parsed when it is a JSON object or array (trimmed), else undefined; never throws. */
export function parseJson(text: string): unknown {
  const t = text.trim();
  if (!/^[[{]/.test(t)) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}
