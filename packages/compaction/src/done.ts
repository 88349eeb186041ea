/**
 * The Done section as the end state: what exists and passes when the span ends, not the trail
 * of snapshots that led there. Commits by message (the last one said so), a created branch, the
 * plan's items that ended done (one item, from the last todo list: an item a later list dropped
 * is obsolete), and the agent's reports of finished work, where a later report of the same
 * measure replaces the earlier one ("All 34 tests pass" then "39 total now": the last stands),
 * so does a later report that changes the same code or file again, and the last test run that
 * passed gives the test count. What a sub-agent or research tool found is under Findings
 * (findings.ts).
 */
import type { SpanFacts } from './analyze.js';
import { commandKey, commitMessage, displayCommand, outcomeOf } from './commands.js';
import { ADMIT_CUE, DECISION_CUE, DONE_CUE, NARRATION_CUE, normalizeQuotes, readLength } from './cues.js';
import type { Add } from './sections.js';
import { itemKey, leadSentences, shortenWhole, splitSentences, stripMarker } from './sentences.js';

/** Work reported complete (English). */
const DONE = /^(?:done|fixed|updated|created|added|implemented|completed|finished|all set)\b|^now (?:the |our |this |your )?[\w` -]{2,40}? (?:has|have|supports?)\b(?![^.!?]*\b(?:errors?|fail\w*|broken|crash\w*|bugs?|warnings?)\b)|\b(?:is|are|now) (?:now )?(?:complete|completed|done|finished|fixed|passing)\b|\b(?:we've|i've|have|has) (?:now )?(?:completed|finished|fixed|implemented|ported)\b|\bcomplete[d]?[.!]$|\ball (?:tests|checks) pass|\btests? pass(?:es|ed)?\b|\bbuilds? (?:successfully|passes|succeeds)\b|\bsuccessfully\b/i;
/** Step-by-step narration (English): never a report. */
export const NARRATION = /\blet me\b|\blet's\b|^(?:now|first|next|then|ok(?:ay)?|great|perfect|good|alright)\b[,!]?\s+(?:i|let|i'll|we)\b|^i(?:'ll| will| need to| am going to|'m going to) (?:now |first |also )?(?:read|look|check|update|add|create|run|open|fix|edit|write|search|see|start|try|examine|test|verify|get|find|make)\b/i;
/** Code rather than prose. */
export const CODE_LIKE = /[{};]\s*$|=>|\bthis\.\w+\(|^\s*(?:const|let|var|import|export|function|class|def|return|if|for)\b|\w\(\)\s*[;{]|^[`'"][^`'"]+[`'"]\s*$/;
/** A past tense of looking, in Japanese and Korean ("確認しました", "확인했습니다"): narration, not finished work. */
const LOOKED = /(?:確認|調査|調べ|読み|見)(?:しました|ました)|확인했|살펴봤|읽었|봤습니다/u;

/** A report of finished work in the agent's prose, in any of the languages of cues.ts (a decision, "〜ことにしました", is not one). */
export function reportsDone(s: string): boolean {
  const t = normalizeQuotes(s);
  if (NARRATION.test(t) || NARRATION_CUE.test(t) || LOOKED.test(t) || CODE_LIKE.test(t) || (DECISION_CUE.test(t) && !DONE.test(t))) return false;
  return DONE.test(t) || DONE_CUE.test(t);
}

/** A statement of a test count ("All 34 tests pass", "39 total now", "34 tests réussis", "テスト34件", "테스트 34개"). */
const TEST_COUNT = /\b\d+\s*(?:\/\s*\d+\s*)?(?:tests?|specs?|passed|passing|pass|cases?|total|essais|tests réussis|pruebas|casos|Tests)\b|\btests?:\s*\d+|\d+\s*件?の?テスト|テスト\s*\d+|테스트\s*\d+|\d+\s*개의?\s*테스트/iu;

/** A command that runs tests. */
const TEST_COMMAND = /\b(?:test|tests|pytest|vitest|jest|mocha|spec|rspec|ctest|tox|nox)\b/i;

/** Two reports of the same measure: equal once their numbers are left out, or both a test count. */
function sameMeasure(a: string, b: string): boolean {
  const skel = (s: string) => itemKey(s).replace(/\d+(?:[.,]\d+)?/g, '#').replace(/#(?:\s*[-–]\s*\w*#)+/g, '#');
  if (/\d/.test(a) && /\d/.test(b)) {
    const [x, y] = [skel(a), skel(b)];
    // "We've completed WP1-WP10. The class is now 885 lines." then "We've completed WP1-WP13."
    const [short, long] = x.length <= y.length ? [x, y] : [y, x];
    if (x === y || (short.length >= 16 && short.includes('#') && long.startsWith(short))) return true;
  }
  return TEST_COUNT.test(a) && TEST_COUNT.test(b);
}

/** A later report that changes again what an earlier one reported ("`mdLink` is now #666666" after "`mdLink` uses #81a2be"; "custom.json has been deleted" after "created custom.json"). */
const CHANGES_AGAIN = /\b(?:now|changed|instead|no longer|removed|deleted|renamed|replaced|reverted)\b|\b(?:maintenant|désormais|ahora|jetzt|nun)\b|変更|削除|변경|삭제/iu;

/** The code names and file names a report mentions (backticked, or a name with an extension). */
function objects(s: string): Set<string> {
  const out = new Set<string>();
  for (const m of s.matchAll(/`([^`]{2,80})`/g)) out.add(m[1]!.toLowerCase());
  for (const m of s.matchAll(/[\w-]+\.[a-z]{1,6}\b/gi)) if (!/^\d/.test(m[0])) out.add(m[0].toLowerCase());
  return out;
}

/** True when `later` changes again something `earlier` reported: it names the same code or file and says it changed. */
function changesAgain(earlier: string, later: string): boolean {
  if (!CHANGES_AGAIN.test(later)) return false;
  const a = objects(earlier);
  for (const o of objects(later)) if (a.has(o)) return true;
  return false;
}

export function done(f: SpanFacts, add: Add): void {
  const commits: string[] = [];
  for (const c of f.calls) {
    if (c.failed || !c.result || c.repaired) continue;
    if (c.info.command && /\bgit\s+commit\b/.test(c.info.command)) commits.push(commitMessage(c.info.command) ?? '');
    const branch = c.info.command ? /\bgit\s+(?:checkout\s+-b|switch\s+-c)\s+(\S+)/.exec(c.info.command) : null;
    if (branch) add('Done', `Created and switched to branch \`${branch[1]}\`.`);
  }
  commits.forEach((msg, i) => {
    const last = i === commits.length - 1 && commits.length > 1;
    add('Done', msg ? (last ? `Last commit: "${msg}".` : `Committed "${msg}".`) : last ? 'Last commit: the changes were committed.' : 'Committed the changes.');
  });
  // the plan by its final state: the items the last todo list marks done (open ones are In progress)
  const lastTodo = [...f.calls].reverse().find((c) => c.info.kind === 'todo' && c.info.todos?.length);
  const doneTodos = (lastTodo?.info.todos ?? []).filter((t) => /^(?:completed|done)/i.test(t.status)).map((t) => shortenWhole(t.text, 160).replace(/[.;]+$/, ''));
  if (doneTodos.length) add('Done', `Plan items done: ${doneTodos.join('; ')}.`, 'todo-done');

  // the agent's reports, a later report of the same measure replacing the earlier one
  const reports: Array<{ seq: number; text: string }> = [];
  for (const a of f.assistantTexts) {
    const ss = splitSentences(a.text).map(stripMarker);
    // an apology reports what it undid (Rejected or reverted says it), not finished work
    if (ADMIT_CUE.test(normalizeQuotes(ss[0] ?? ''))) continue;
    for (let i = 0; i < ss.length; i++) {
      const s = ss[i]!;
      // "Now the theme system has live reload:" then how: the report with the first point of its list
      const intro = /[:：]$/.test(s) && reportsDone(s.replace(/[:：]$/, '.')) ? ss.slice(i + 1).find((x) => readLength(x) >= 16 && !/[:：][*_]*$/.test(x)) : undefined;
      if (intro && readLength(s) + readLength(intro) <= 240) {
        const text = `${s.replace(/\s*[:：]$/, ':')} ${intro.replace(/^\p{Lu}(?=\p{Ll})/u, (c) => c.toLowerCase()).replace(/[^.!?。]$/u, (c) => `${c}.`)}`;
        for (let j = reports.length - 1; j >= 0; j--) if (sameMeasure(reports[j]!.text, text) || changesAgain(reports[j]!.text, text)) reports.splice(j, 1);
        reports.push({ seq: a.seq, text });
        continue;
      }
      if (!reportsDone(s) || s.endsWith('?') || /[:：]$/.test(s) || readLength(s) > 240) continue;
      // "Done." alone says nothing: take the sentence that says what
      const next = ss[i + 1];
      const text = readLength(s) < 30 && next && !/[:：]$/.test(next) && !NARRATION.test(next) && !NARRATION_CUE.test(next) ? `${s} ${next}` : s;
      if (readLength(text) < 16) continue;
      for (let j = reports.length - 1; j >= 0; j--) if (sameMeasure(reports[j]!.text, text) || changesAgain(reports[j]!.text, text)) reports.splice(j, 1);
      reports.push({ seq: a.seq, text });
    }
  }
  // the last test run that passed says the count now; a report of an older count goes
  // a test run: a test program, not a commit whose message says "tests"
  const isTestRun = (cmd: string) => !/^\s*git\b/.test(displayCommand(cmd)) && TEST_COMMAND.test(displayCommand(cmd).replace(/"[^"]*"|'[^']*'/g, ''));
  const run = [...f.calls].reverse().find((c) => c.info.command && isTestRun(c.info.command) && c.result && !c.repaired);
  const outcome = run && !run.failed ? outcomeOf(run) : undefined;
  const count = outcome && /^ok: .*\b\d+ (?:passed|passing|tests? passed)\b/i.test(outcome) ? outcome.slice(4) : undefined;
  if (run && count) for (let j = reports.length - 1; j >= 0; j--) if (TEST_COUNT.test(reports[j]!.text) && reports[j]!.seq < run.seq) reports.splice(j, 1);
  for (const r of reports) add('Done', r.text);
  if (run && count && !reports.some((r) => TEST_COUNT.test(r.text) && r.seq > run.seq)) add('Done', `Tests pass now: \`${commandKey(displayCommand(run.info.command!))}\` -> ${count}.`, 'last-test-run');
}
