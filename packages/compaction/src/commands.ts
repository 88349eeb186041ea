/**
 * The Commands section and the command display every section shares: a command shown by its
 * program (`cd dir &&` and output plumbing left out, a script by its first line) with its
 * outcome (the summary lines of its output, its error line, its failing tests).
 */
import type { CallFact, SpanFacts } from './analyze.js';
import type { Add } from './sections.js';
import { dumpCommand, resultValue, WRAPPER_LINE } from './results.js';
import { heredocDisplay } from './scripts.js';
import { stripHeredocs } from './toolinfo.js';

/** Commands that matter: build, test, run, deploy, version control that changes state. */
const MATTERS = /^(?:\.\/\S*(?:test|build|run|deploy|check|lint)|(?:\S+\/)?(?:test|build|check|lint|typecheck|tsc|make|cargo|npm|npx|pnpm|yarn|bun|pytest|go (?:test|build|run|vet)|mvn|gradle|just|deploy|docker|kubectl|terraform|pip3? install|uv (?:run|sync|add)|poetry|vitest|jest|mocha|eslint|biome|prettier|ruff|mypy|clippy|rustc|gcc|clang|dotnet|swift|git (?:commit|push|merge|rebase|checkout|switch|tag|reset|revert|cherry-pick|init|clone|apply|am)|node(?= )|python3?(?= )(?! -c\b)|deno|rake|bundle))\b/i;
/** First programs that only look (never a command that matters on their own). */
const LOOK_ONLY = /^(?:cat|ls|ll|grep|egrep|rg|ag|find|fd|head|tail|less|more|sed -n|awk|wc|echo|printf|pwd|which|type|tree|stat|file|du|df|env|date|whoami|sleep|true|git (?:status|log|diff|show|branch|remote|rev-parse|ls-files|blame|config --get))\b/;
/** A summary line of test/build output. */
const SUMMARY_LINE = /^TOTAL\s+\d|\b(?:\d+ (?:passed|failed|passing|failing|tests?|errors?|warnings?|skipped)|test result:|tests?:\s+\d|Tests?\s+\d+ (?:passed|failed)|Finished\b|Compiled\b|Built\b|Successfully\b|No (?:errors|issues|fixes)|found \d+ (?:error|problem)|Checked \d+ files|\d+(?:\.\d+)?% (?:coverage|lines)|coverage|ok\s+\S+\s+\d|PASS\b|FAIL\b|error TS\d+|\[main [0-9a-f]{6,}\]|\d+ files? changed)/i;

// --- Commands -----------------------------------------------------------------------

/** A command as the checkpoint shows it: `cd dir &&` removed, a heredoc by what its script does (scripts.ts), another multi-line script by its first line. */
export function displayCommand(cmd: string): string {
  let c = stripHeredocs(cmd).trim().replace(/^cd\s+(?:"[^"]+"|'[^']+'|\S+)\s*&&\s*/, '');
  const lines = c.split('\n').filter((l) => l.trim());
  const script = lines.length > 1 ? ` (a ${cmd.split('\n').length}-line script)` : '';
  c = lines[0] ?? c;
  if (/<<-?\s*['"]?\w+/.test(c) && /\bgit\s+commit\b/.test(c)) {
    const msg = commitMessage(cmd);
    if (msg) return `git commit -m "${msg}"`;
  }
  const here = /<<-?\s*['"]?\w+/.test(c) ? heredocDisplay(cmd) : undefined;
  if (here) return here;
  if (c.length > 160) {
    const steps = c.split(/\s*&&\s*/);
    if (steps.length > 1) return `${shortCommand(steps[0]!)} && … (${steps.length - 1} more step${steps.length > 2 ? 's' : ''})${script}`;
    return shortCommand(c) + script;
  }
  return c + script;
}

function shortCommand(c: string): string {
  if (c.length <= 160) return c;
  const sp = c.lastIndexOf(' ', 150);
  return `${c.slice(0, sp > 40 ? sp : 150)} … (${c.length} chars)`;
}

/** The program (and its subcommand) of each stage of a command line: `cd`, env assignments, `sudo` and heredoc bodies left out. */
export function programs(cmd: string): string[] {
  const out: string[] = [];
  for (const stage of stripHeredocs(cmd).split(/&&|\|\||;|\||\n/)) {
    const w = stage.trim().split(/\s+/).filter((x) => x && !/^\w+=/.test(x) && x !== 'sudo' && x !== 'time' && x !== 'env');
    if (!w.length || w[0] === 'cd') continue;
    out.push(w.slice(0, 3).join(' ') + ' ');
  }
  return out;
}

/** A command's merge key: its display with output plumbing (`2>&1`, `| tail -5`, `| grep ...`) removed. */
export function commandKey(shown: string): string {
  return shown.replace(/\s*2>&1/g, '').replace(/\s*\|\s*(?:tail|head|grep|egrep|rg|wc|less|cat|tee|sort|uniq)\b.*$/, '').trim();
}

/**
 * Add the Commands section: each command that matters by its last run and how it went. A command
 * whose last run failed is left to Errors and fixes, which says it with its error and failing
 * tests; a commit is said under Done; a configuration or environment listing (`npm config ls`,
 * `pip list`, any long output of key = value lines) is a dump, not a run.
 */
export function commands(f: SpanFacts, add: Add): void {
  const last = new Map<string, CallFact>();
  for (const c of f.calls) {
    if (c.info.kind !== 'shell' || !c.info.command) continue;
    if (!runsMatteringProgram(c.info.command)) continue;
    if (/\bgit\s+commit\b/.test(c.info.command) && !c.failed) continue; // said under Done
    if (dumpCommand(c.info.command) || (c.resultText !== undefined && resultValue('shell', c.info.command, undefined, c.resultText) === 'dump')) continue;
    const key = commandKey(displayCommand(c.info.command));
    last.delete(key);
    last.set(key, c);
  }
  for (const [key, c] of last) if (!c.failed || !c.result || c.repaired) add('Commands', `\`${key}\` -> ${outcomeOf(c)}`, key);
}

/** An output line whole, or (over 240 characters, minified code or a JSON blob) an excerpt labelled as one. */
export function wholeLine(l: string): string {
  if (l.length <= 240) return l;
  const sp = l.lastIndexOf(' ', 200);
  return `${l.slice(0, sp > 80 ? sp : 200).trim()} [excerpt of a ${l.length}-char line]`;
}

/** How a command went: its summary line (tests passed, build finished) or error line. */
export function outcomeOf(c: CallFact): string {
  if (!c.result || c.repaired) return 'no result recorded (interrupted)';
  const text = c.resultText ?? '';
  if (c.reported) return `reported errors: ${wholeLine(c.errorLine ?? 'error')}`;
  if (c.failed) return `failed${c.exitCode !== undefined ? ` (exit ${c.exitCode})` : ''}: ${wholeLine(c.errorLine ?? 'error')}${failingTests(text)}`;
  const lines = text.split('\n').map((l) => l.trim().replace(/\s+/g, ' ')).filter((l) => l && !WRAPPER_LINE.test(l));
  const reported = reportedError(lines);
  if (reported) return `reported errors: ${wholeLine(reported)}`;
  // the summary lines (a test runner prints one per suite: unit tests, then doctests), newest last
  const recent = lines.slice(-40).map(withoutZeroCounts).filter((l) => l.length <= 200 && !/^(?:exit code|wall time)/i.test(l));
  const counts = [...new Set(recent.filter((l) => COUNT_LINE.test(l)))].slice(-2);
  const lastCount = counts.length ? recent.lastIndexOf(counts[counts.length - 1]!) : -1;
  // a summary printed after the counts says what the run ended with ("Finished report saved to ...")
  const summaryAt = recent.findLastIndex((l) => SUMMARY_LINE.test(l) && !COUNT_LINE.test(l));
  const tail = summaryAt > lastCount ? [recent[summaryAt]!] : [];
  if (counts.length || tail.length) return `ok: ${[...counts, ...tail].join('; ')}`;
  // no summary: the last line says how it ended ("... is already installed, use --force to override")
  const last = [...lines].reverse().find((l) => l.length >= 12 && l.length <= 160 && !/^(?:exit code|wall time|process exited|waiting for the debugger|debugger attached|(?:note|hint|help|info|tip):)/i.test(l));
  return last ? `ok: ${last}` : lines.length ? 'ok' : 'ok (no output)';
}

/** A summary line that counts (tests passed or failed, errors, a coverage total): preferred over "Finished ..." lines. */
const COUNT_LINE = /^TOTAL\s+\d|\b\d+ (?:passed|failed|passing|failing|tests? (?:passed|failed|run)|errors?|warnings?|skipped)\b/i;

/** A summary line without its zero counts: "test result: ok. 29 passed; 0 failed; 0 ignored" -> "test result: ok. 29 passed". */
function withoutZeroCounts(l: string): string {
  return l.replace(/[;,]\s*0 [a-z]+(?: out)?(?=[;,]|$)/g, '').replace(/[;,]\s*finished in [\d.]+\s*m?s$/, '').trim();
}

/** Names of the failing tests a test run printed (exported for Errors and fixes) (pytest `FAILED a::b`, cargo `test a ... FAILED`, go `--- FAIL: T`, jest/vitest `✕`/`×`), as "; failing: a, b". */
export function failingTests(text: string): string {
  const names: string[] = [];
  for (const raw of text.split('\n')) {
    const l = raw.trim();
    const m = /^FAILED\s+(\S+)|^test\s+(\S+)\s+\.\.\.\s+FAILED\b|^--- FAIL:\s+(\S+)|^[×✕✗]\s+(.{3,100}?)(?:\s+\d+\s*ms)?$/.exec(l);
    const n = m?.[1] ?? m?.[2] ?? m?.[3] ?? m?.[4];
    if (n && !names.includes(n)) names.push(n);
  }
  return names.length ? `; failing: ${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''}` : '';
}

/** The first error line of an output whose exit status a pipe hid (`npm run check | grep error`), if it reports one. */
export function reportedError(lines: readonly string[]): string | undefined {
  return lines.find((l) => /\berror(?:\[\w+\])?:|\berror TS\d+|^FAIL\b|\b[1-9]\d* (?:failed|failing|errors?)\b/i.test(l) && !/\b0 errors?\b/i.test(l));
}

/** True when a command line runs a program that matters (build, test, run, deploy, version control). */
export function runsMatteringProgram(cmd: string): boolean {
  return programs(cmd).some((p) => MATTERS.test(p) && !LOOK_ONLY.test(p));
}

/** The first line of a `git commit -m` message (quoted, or a heredoc). */
export function commitMessage(cmd: string): string | undefined {
  const here = /<<-?\s*['"]?(\w+)['"]?\s*\n([\s\S]*?)\n\s*\1/.exec(cmd);
  if (here) return here[2]!.split('\n').map((l) => l.trim()).find(Boolean);
  const m = /\bcommit\b[^\n]*?\s-[a-z]*m\s+(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+))/.exec(cmd);
  const msg = m ? (m[1] ?? m[2] ?? m[3]) : undefined;
  return msg?.split('\n')[0]?.trim() || undefined;
}
