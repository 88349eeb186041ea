/**
 * A sub-agent's result read by what it found and how it ended, in every host's shape:
 *
 * - Claude Code's Task/Agent tool: the sub-agent's last message as text, then the host's
 *   `agentId: …` line and (2.x) a `<usage>…</usage>` block; an interrupted call's result is
 *   `[Request interrupted by user for tool use]` (is_error).
 * - Hermes' `delegate_task` (hermes-agent tools/delegate_tool.py): JSON `{"results": [{task_index,
 *   status: completed|failed|interrupted|timeout|error, summary, error?, exit_reason, api_calls,
 *   duration_seconds, tool_trace}], "total_duration_seconds"}`; a background dispatch returns
 *   `{"status": "dispatched", "delegation_id", "goal"}`.
 * - Codex's multi-agent tools (codex-rs core/src/tools/handlers/multi_agents): `spawn_agent`
 *   answers `{"agent_id": …}`; `wait` / `wait_agent` answers `{"status": {<agent>: <AgentStatus>},
 *   "timed_out": bool}`, an AgentStatus being `"running"`, `"pending_init"`, `"interrupted"`,
 *   `"shutdown"`, `"not_found"`, `{"completed": <last message or null>}` or `{"errored": <message>}`.
 *
 * An interrupted or timed-out sub-agent is never "ok", whatever text it left.
 */
import { parseJson, withoutHostTrailer } from './results.js';
import { leadSentences, splitSentences } from './sentences.js';

/** How a sub-agent ended. */
type SubAgentStatus = 'ok' | 'failed' | 'interrupted' | 'timed out' | 'running';

/** One sub-agent's outcome: its status, what it reported (prose, host trailer removed), its error. */
export interface SubAgentOutcome {
  status: SubAgentStatus;
  /** What the sub-agent said it found (its final message), empty when it said nothing. */
  report: string;
  /** The error it ended with (failed, interrupted, timed out). */
  error?: string;
  /** The task it was given when the result names it (a Hermes batch entry's goal). */
  task?: string;
}

/** An interruption notice in place of a result (Claude Code, and hosts that say it in words). */
const INTERRUPTED = /^\s*\[?(?:Request interrupted by user(?: for tool use)?|Interrupted by user|Tool (?:use|call) (?:was )?interrupted|Operation (?:was )?(?:interrupted|aborted|cancelled))\b/i;

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** A status word of a sub-agent record, as ours. */
function statusOf(word: string, hasReport: boolean): SubAgentStatus {
  const w = word.toLowerCase().replace(/[\s-]+/g, '_');
  if (/^(?:completed?|success(?:ful)?|succeeded|ok|done|finished)$/.test(w)) return 'ok';
  if (/^(?:interrupted|cancel+ed|aborted|killed|shutdown|stopped)$/.test(w)) return 'interrupted';
  if (/^(?:timeout|timed_out)$/.test(w)) return 'timed out';
  if (/^(?:running|pending(?:_init)?|dispatched|started|in_progress|queued)$/.test(w)) return 'running';
  if (/^(?:failed|failure|error|errored|not_found)$/.test(w)) return 'failed';
  return hasReport ? 'ok' : 'failed';
}

/** Codex's AgentStatus value (a string, or an object with one key). */
function codexStatus(v: unknown): SubAgentOutcome {
  if (typeof v === 'string') return { status: statusOf(v, false), report: '', ...(v === 'not_found' ? { error: 'the agent was not found' } : {}) };
  if (v && typeof v === 'object') {
    const [k, x] = Object.entries(v as Record<string, unknown>)[0] ?? ['', undefined];
    const text = str(x);
    if (k === 'completed') return { status: 'ok', report: text };
    if (k === 'errored') return { status: 'failed', report: '', error: text || 'errored' };
    return { status: statusOf(k, !!text), report: text };
  }
  return { status: 'failed', report: '' };
}

/**
 * The outcomes a sub-agent tool result reports (one per sub-agent: a Hermes batch or a Codex
 * `wait` on several agents gives several), or undefined when the result is no sub-agent's answer
 * (a spawn acknowledgement `{"agent_id": …}` carries nothing yet). `isError` is the result's error
 * flag; `structuredOnly` for a tool whose answer is JSON only (Codex's `wait`, a name other hosts'
 * tools may share), so its text is nobody's report.
 */
export function subAgentOutcomes(resultText: string, isError: boolean, structuredOnly = false): SubAgentOutcome[] | undefined {
  const json = parseJson(resultText);
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const o = json as Record<string, unknown>;
    if (Array.isArray(o.results)) {
      return o.results
        .filter((r): r is Record<string, unknown> => !!r && typeof r === 'object')
        .map((r) => {
          const report = str(r.summary) || str(r.result) || str(r.output);
          const status = statusOf(str(r.status) || (report ? 'completed' : 'failed'), !!report);
          const error = str(r.error) || (status !== 'ok' && str(r.exit_reason) && str(r.exit_reason) !== str(r.status) ? str(r.exit_reason) : '');
          return { status, report, ...(error ? { error } : {}), ...(str(r.goal) ? { task: str(r.goal) } : {}) };
        });
    }
    if (o.status && typeof o.status === 'object' && !Array.isArray(o.status)) {
      const entries = Object.entries(o.status as Record<string, unknown>);
      if (!entries.length) return o.timed_out === true ? [{ status: 'running', report: '', error: 'the wait timed out before any agent finished' }] : undefined;
      return entries.map(([agent, v]) => ({ ...codexStatus(v), task: agent }));
    }
    if (typeof o.status === 'string') {
      const report = str(o.summary) || str(o.result) || str(o.output) || str(o.message) || str(o.final_response);
      const status = statusOf(o.status, !!report);
      const error = str(o.error);
      return [{ status, report: status === 'running' ? '' : report, ...(error ? { error } : {}), ...(str(o.goal) ? { task: str(o.goal) } : {}) }];
    }
    if (typeof o.error === 'string' && o.error) return [{ status: 'failed', report: '', error: o.error }];
    const report = str(o.final_response) || str(o.summary) || str(o.result) || str(o.output);
    // anything else (a spawn's `{"agent_id": …}`, a send's `{"submission_id": …}`) reports nothing yet
    return report ? [{ status: 'ok', report }] : undefined;
  }
  // a tool that answers only in JSON (Codex's wait): a plain text answer is no sub-agent's report
  if (structuredOnly) return undefined;
  const text = withoutHostTrailer(resultText).trim();
  if (INTERRUPTED.test(text)) return [{ status: 'interrupted', report: '', error: leadSentences(text.replace(/^\[|\]$/g, ''), 160) }];
  if (isError) return [{ status: 'failed', report: '', error: leadSentences(text, 200) || 'failed' }];
  if (!text) return undefined;
  return [{ status: 'ok', report: text }];
}

/** A sentence in Japanese, Chinese or Korean script at its end: it closes with their full stop. */
const CJK_END = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}）」]$/u;

/** Headings under which a report gives its conclusion: read first. */
const CONCLUSION = /^(?:summary|conclusions?|findings|key findings|answer|results?|root cause|recommendations?|tl;?dr|verdict|what i found)\b/i;
/** Opening pleasantries of a report ("Excellent! Now I have a complete picture. Let me..."). */
const FILLER = /^(?:excellent|great|perfect|good|ok(?:ay)?|done|now i (?:have|understand|see)|let me|i'll|i will|here(?:'s| is| are)|based on|i have (?:now )?(?:gathered|analy[sz]ed|explored))\b/i;
/** Words that carry no subject (for matching a report's lines to the task it was given). */
const STOP = new Set('the a an and or of to in on for with from by at is are be was were it its this that these those what which how any all every each into over your you me my our their there here then than them they not no do does did can could should would will just also only about as if so but use using used report list find show tell'.split(' '));

/** A name in code form: backticked, snake_case, an UPPER_CASE environment name, a dashed header name. */
const SPECIFIC = /`[^`\s]{2,}[^`]*`|\b[a-z]+_[a-z_]+\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[A-Z][a-z]*(?:-[A-Z][a-z]*)+\b/g;

/** Longest report form (characters) whose sentences leave out their asides. */
const SHORT_FORM_CHARS = 240;

/** The distinct names in code form a sentence carries (at most 3 counted): what a colleague needs verbatim. */
const specifics = (s: string) => Math.min(3, new Set(s.match(SPECIFIC) ?? []).size);

/** The subject words of a text: lowercase words of three letters or more, stop words left out. */
function words(text: string): Set<string> {
  // a plural and its singular are one word ("tests", "test")
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}_]{3,}/gu) ?? []).filter((w) => !STOP.has(w)).map((w) => (w.length > 4 ? w.replace(/(?:es|s)$/, '') : w)));
}

/** One unit of a report: a sentence with the section it is in and where it came from. */
interface Unit {
  text: string;
  order: number;
  section: string;
  /** Items of its list (a long run of parallel items is an inventory). */
  siblings: number;
  conclusion: boolean;
}

/** A report's prose units: code blocks, trees and tables left out; headings become the sections of what follows; a list item's short title joined to its text ("Timing source: Use …"). */
function units(text: string): Unit[] {
  const out: Unit[] = [];
  let fence = false;
  let section = '';
  let conclusion = false;
  let list: Unit[] = [];
  const endList = () => {
    for (const u of list) u.siblings = list.length;
    list = [];
  };
  for (const raw of text.split('\n')) {
    if (/^\s*```/.test(raw)) {
      fence = !fence;
      continue;
    }
    if (fence || /[│├└┌┐┘┬┴┼─]/.test(raw) || /^\s*\|/.test(raw) || /^\s*[-*_]{3,}\s*$/.test(raw)) continue;
    if (!raw.trim()) continue;
    const heading = /^\s*#+\s*(.+?)\s*$/.exec(raw) ?? /^\s*\*\*([^*]+?):?\*\*:?\s*$/.exec(raw);
    // a line of prose ending with a colon introduces what follows, inside the same section
    const intro = !heading && /^[^-*\d\s][^.!?]{2,80}:$/.test(raw.trim()) ? raw.trim().slice(0, -1) : undefined;
    if (heading) {
      endList();
      section = heading[1]!.replace(/^\d+[.)]\s*/, '').replace(/\*\*/g, '');
      conclusion = CONCLUSION.test(section);
      continue;
    }
    if (intro) {
      endList();
      if (CONCLUSION.test(intro)) conclusion = true;
      // a sentence of its own ("This is a small library with 5 modules:"), not a label ("Findings (timing):")
      else if (intro.split(/\s+/).length >= 6 && !FILLER.test(intro)) out.push({ text: `${intro.replace(/\*\*/g, '')}.`, order: out.length, section, siblings: 1, conclusion });
      section = section ? `${section} ${intro}` : intro;
      continue;
    }
    const item = /^\s*(?:[-*+]|\d+[.)])\s+/.test(raw);
    if (!item) endList();
    let line = raw.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').replace(/\*\*/g, '').trim();
    // "Timing source. Use time.monotonic() …": the item's title, then what it says
    line = line.replace(/^([^.!?:]{3,40})[.:]\s+(?=\S)/, (m, title: string) => (title.split(/\s+/).length <= 4 ? `${title}: ` : m));
    const ss = splitSentences(line).filter((x) => !FILLER.test(x) && !/:$/.test(x) && x.length >= 12);
    ss.forEach((x, i) => {
      const u: Unit = { text: /[.!?。！？]$/u.test(x) ? x : `${x}${CJK_END.test(x) ? '。' : '.'}`, order: out.length, section, siblings: 1, conclusion };
      out.push(u);
      if (item && i === 0) list.push(u);
    });
  }
  endList();
  return out;
}

/**
 * What a report found, in whole sentences (at most `max` characters), in the report's order:
 * when it is longer, the sentences that answer the task it was given (`task`: the words they
 * share with it and their section's heading), a conclusion section ("## Summary", "Findings:")
 * and specific ones (a `file:line`, a "no"/"only"/"not") first, an inventory (a long list of
 * parallel items) last. Code blocks, trees and tables are left out, so are opening
 * pleasantries. A one-word answer ("No") is the answer.
 */
export function reportFindings(text: string, max: number, task = ''): string {
  const t = withoutHostTrailer(text).trim();
  if (t.length <= 40 && !t.includes('\n')) return t;
  const all = units(t);
  const joined = (us: readonly Unit[]) => us.map((u) => u.text).join(' ');
  if (joined(all).length <= max) return joined(all);
  const asked = words(task);
  const score = (u: Unit) => {
    const w = words(u.text);
    const shared = [...w].filter((x) => asked.has(x)).length;
    const inSection = [...words(u.section)].filter((x) => asked.has(x)).length;
    const letters = (u.text.match(/\p{L}/gu) ?? []).length;
    return (
      (u.conclusion ? 6 : 0) +
      (letters < u.text.length / 2 ? -2 : 0) +
      Math.min(3, shared) +
      (inSection ? 1.5 : 0) +
      (/\b(?:no|not|only|never|none|must|missing|instead)\b/i.test(u.text) ? 1 : 0) +
      (/[\w./-]+\.\w+:\d+|:\d+\b/.test(u.text) ? 0.5 : 0) +
      // the specifics a colleague needs verbatim, by how many: names in code form (`x`, snake_case, an ENV_NAME, an X-Header)
      specifics(u.text) -
      (u.siblings > 6 ? 2 : 0) -
      u.order * 0.001
    );
  };
  const scored = new Map(all.map((u) => [u, score(u)]));
  // a short form says more sentences by leaving out their asides that name nothing in code form
  if (max <= SHORT_FORM_CHARS) for (const u of all) u.text = u.text.replace(/\s*\(([^()]{1,160})\)/g, (m, inside: string) => (new RegExp(SPECIFIC.source).test(inside) ? m : ''));
  const ranked = [...all].sort((a, b) => scored.get(b)! - scored.get(a)!);
  const chosen: Unit[] = [];
  let len = 0;
  let skipped: number | undefined;
  for (const u of ranked) {
    // once a better sentence did not fit, only as good ones fill the room left (no stray fragments)
    if (skipped !== undefined && scored.get(u)! < skipped - 1) break;
    if (len + u.text.length + 1 > max) {
      if (!chosen.length) chosen.push(u);
      skipped ??= scored.get(u)!;
      continue;
    }
    chosen.push(u);
    len += u.text.length + 1;
  }
  return joined(chosen.sort((a, b) => a.order - b.order));
}
