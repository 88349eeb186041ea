/**
 * Errors and fixes: the failed calls of a span, each with what fixed it (the changes made before
 * the same command next passed) or that it stayed unresolved; a command failing again and again
 * said once with its error kinds and final status; runs the user or host stopped left out.
 */
import type { CallFact, SpanFacts } from './analyze.js';
import { commandKey, displayCommand, failingTests, wholeLine } from './commands.js';
import type { Add } from './sections.js';
import { modifiesFiles, stripHeredocs } from './toolinfo.js';

/** True when a failed call `c` was fixed in the span: the same command (or a broader or narrower run of it), or the same tool on the same path, later succeeded. */
export function fixedLater(c: CallFact, later: readonly CallFact[]): boolean {
  const cmd = c.info.command;
  return later.some((d) => !d.failed && !!d.result && (cmd ? !!d.info.command && reruns(cmd, d.info.command) : d.call.name === c.call.name && d.info.paths[0] === c.info.paths[0]));
}

/** A file tool that failed and then succeeded on the same path: a retry, not an error worth keeping (`later`: the calls after it). */
function retried(c: CallFact, later: readonly CallFact[]): boolean {
  return !c.info.command && c.info.paths.length > 0 && later.some((d) => !d.failed && d.call.name === c.call.name && d.info.paths[0] === c.info.paths[0]);
}

/** A result that only says the run was stopped ("Command aborted", "Interrupted by user"): its last line, with no exit status given. */
const STOPPED_LINE = /^\[?(?:(?:the )?command (?:was )?)?(?:aborted|interrupted|cancell?ed|killed)(?: by (?:the )?user)?\.?\]?$/i;

/**
 * True when a failed shell call was stopped rather than failing: its output ends with the host's
 * note that it was aborted and states no exit status. What it printed before (a `sleep` with
 * nothing, a debugger's bootloader complaint) is no error of the work.
 */
function stoppedRun(c: CallFact): boolean {
  if (!c.info.command || c.exitCode !== undefined) return false;
  const lines = (c.resultText ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.length > 0 && STOPPED_LINE.test(lines[lines.length - 1]!);
}

/** Error codes an error line names (`TS2345`, `E0308`, `CS1002`, `F401`). */
const ERROR_CODE = /\b[A-Z]{1,4}\d{3,5}\b/g;

/** The kinds of error of failed runs, each once: their error codes, else their distinct error lines (at most two). */
function errorKinds(runs: readonly CallFact[]): string {
  const lines = runs.map((c) => wholeLine(c.errorLine ?? 'failed'));
  const codes = [...new Set(lines.flatMap((l) => l.match(ERROR_CODE) ?? []))];
  if (codes.length) return codes.slice(0, 6).join(', ') + (codes.length > 6 ? ` and ${codes.length - 6} more` : '');
  const distinct = [...new Set(lines)];
  return distinct.slice(0, 2).join('; ') + (distinct.length > 2 ? `; and ${distinct.length - 2} more` : '');
}

/**
 * Errors and fixes: each failed call with its error and what fixed it. A command that failed again
 * and again (`npm run check | grep "error TS"` run six times while fixing) is one item: how many
 * times, the error kinds once, the last error and the final status. A run stopped by the user or
 * the host ({@link stoppedRun}), a sub-agent's (Findings says how it ended) and a file tool that
 * succeeded on the same path next are left out.
 */
export function errorsAndFixes(f: SpanFacts, add: Add): void {
  const calls = f.calls;
  const grouped = new Set<CallFact>();
  for (let i = 0; i < calls.length; i++) {
    const c = calls[i]!;
    if (grouped.has(c) || !c.failed || !c.result || c.repaired) continue;
    if (c.subAgents) continue; // Findings says how the sub-agent ended
    if (stoppedRun(c)) continue;
    const later = calls.slice(i + 1);
    if (retried(c, later)) continue;
    const cmd = c.info.command;
    // the same command failing again later: one item for all its runs
    const again = cmd ? later.filter((d) => d.failed && d.result && !d.repaired && !d.subAgents && !!d.info.command && !stoppedRun(d) && reruns(cmd, d.info.command)) : [];
    if (again.length) {
      const runs = [c, ...again];
      for (const d of again) grouped.add(d);
      const last = again[again.length - 1]!;
      const shortest = runs.map((d) => commandKey(displayCommand(d.info.command!))).sort((a, b) => a.length - b.length)[0]!;
      // the fix: the changes from the first failure to the run that passed after the last one
      const after = calls.slice(calls.indexOf(last) + 1);
      const passed = after.findIndex((d) => !d.failed && d.result && !!d.info.command && reruns(cmd!, d.info.command));
      const through = passed >= 0 ? calls.indexOf(after[passed]!) : calls.indexOf(last) + 7;
      const window = calls.slice(i + 1, through).filter((d) => !again.includes(d));
      add('Errors and fixes', `\`${shortest}\` failed ${runs.length} times (${errorKinds(runs)}); the last: ${wholeLine(last.errorLine ?? 'failed')}${failingTests(last.resultText ?? '')} ${fixOf(last, passed >= 0 ? [...window, after[passed]!] : window)}`, `${shortest}|runs`);
      continue;
    }
    const what = cmd ? `\`${displayCommand(cmd)}\`` : `${c.call.name}${c.info.paths[0] ? ` \`${c.info.paths[0]}\`` : ''}`;
    const err = wholeLine(c.errorLine ?? 'failed');
    add('Errors and fixes', `${what} failed: ${err}${cmd ? failingTests(c.resultText ?? '') : ''} ${fixOf(c, later)}`, `${what}|${err}`);
  }
}

/**
 * True when `later` re-runs the failed command `failed`: the same command, or one whose words
 * (output plumbing left out) start with the other's, so a failing `pytest -q tests/test_x.py`
 * counts as re-run by a passing `pytest -q`, and a failing `npm test` by `npm test -- test/x.test.ts`.
 */
function reruns(failed: string, later: string): boolean {
  if (failed === later) return true;
  const words = (c: string) => commandKey(c.trim()).split(/\s+/).filter(Boolean);
  const prefix = (a: string[], b: string[]) => {
    const [short, long] = a.length <= b.length ? [a, b] : [b, a];
    return short.length > 0 && short.every((w, i) => long[i] === w);
  };
  if (prefix(words(displayCommand(failed)), words(displayCommand(later)))) return true;
  // a chain ("pip install redis && python -m pytest -q"): its last step run again is the rerun
  const steps = stripHeredocs(failed).split(/\s*(?:&&|;)\s*/).filter((x) => x.trim());
  const last = steps[steps.length - 1];
  return steps.length > 1 && !!last && stripHeredocs(later).split(/\s*(?:&&|;)\s*/).some((x) => prefix(words(last), words(x)));
}

/** What fixed a failed call: the changes made before the same command (or the same tool on the same path) next succeeded. */
function fixOf(c: CallFact, later: CallFact[]): string {
  const cmd = c.info.command;
  const sameAgain = later.findIndex((d) => !d.failed && d.result && (cmd ? !!d.info.command && reruns(cmd, d.info.command) : d.call.name === c.call.name && d.info.paths[0] === c.info.paths[0]));
  const window = sameAgain >= 0 ? later.slice(0, sameAgain) : later.slice(0, 6);
  const changed = [...new Set(window.filter((d) => !d.failed && modifiesFiles(d.info) && !d.info.command).flatMap((d) => d.info.paths))];
  const files = changed.slice(0, 3).map((p) => '`' + p + '`').join(', ') + (changed.length > 3 ? ` and ${changed.length - 3} more` : '');
  const rerun = sameAgain >= 0 ? later[sameAgain]!.info.command : undefined;
  const passed = rerun && rerun !== cmd ? `\`${commandKey(displayCommand(rerun))}\` then passed` : 'it then passed';
  if (sameAgain >= 0) return changed.length ? `-> fixed by changing ${files}; ${passed}.` : rerun && rerun !== cmd ? `-> ${passed}.` : '-> it passed when run again.';
  if (changed.length) return `-> followed by changes to ${files} (not re-run in this span).`;
  return '-> unresolved in this span.';
}
