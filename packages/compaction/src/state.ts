/**
 * The merged checkpoint as one state: what a prior checkpoint said that the newer state
 * contradicts is dropped (a prior "keep the old code working" once the old files were removed,
 * a prior "X stays in place" once X is deleted, a prior rule or decision the newer one replaces),
 * and the next step is checked against the tail kept verbatim after the checkpoint, so it never
 * asks for work the tail shows done.
 */
import type { SurfaceNode } from '@hive-mind/session';
import { analyzeSpan } from './analyze.js';
import { isPoliteRequest, isQuestion, normalizeQuotes, readLength } from './cues.js';
import { reportsDone } from './done.js';
import { replaces } from './rules.js';
import type { Section } from './sections.js';
import { leadSentences, shortenWhole, splitSentences } from './sentences.js';
import { contentTokens, overlap } from './subject.js';
import { modifiesFiles } from './toolinfo.js';

/** Saying something stays ("keep", "stays in place", "still work", "for reference", "garder", "behalten", "残す", "유지"). */
const KEEPS = /\b(?:keep|keeps|kept|stays?|staying|remains?|preserved?|still works?|alongside|for reference|in place|leave|left as is|don't (?:remove|delete)|do not (?:remove|delete)|garde[rz]?|conserve[rz]?|mantener|mantén|conservar|behalten|beibehalten|bleibt)\b|残す|維持|유지|남겨/iu;
/** Saying something is gone ("removed", "delete", "(deleted)", "supprimé", "eliminado", "gelöscht", "削除", "삭제"). */
const REMOVES = /\b(?:remove[sd]?|removing|delete[sd]?|deleting|drop(?:ped|s)?|rm|got rid of|get rid of|replaced|supprim\p{L}*|retir\p{L}*|elimin\p{L}*|borr\p{L}*|quit\p{L}*|entfern\p{L}*|gelöscht|lösch\p{L}*)\b|\(deleted\)|削除|消し|삭제|제거/iu;

/** Telling the agent to go on ("looks good, continue", "weiter", "続けて", "계속해"): the step before it still stands. */
const CONTINUE = /\b(?:continue|go on|go ahead|proceed|carry on|keep going|next|weiter|mach weiter|continúa|sigue|adelante|continue[sz]?|vas-y)\b|続けて|進めて|계속|진행해/iu;

/** True when `text` only tells the agent to go on (a continue cue and little else). */
/** What makes a short nudge an instruction: a number, code or a path it points at ("go on with 15", "continue with `parse.go`"). */
const POINTER = /\d|`|\/\w/;

function isNudge(text: string): boolean {
  if (!CONTINUE.test(text)) return false;
  return readLength(text.replace(CONTINUE, '').replace(/\b(?:ok(?:ay)?|good|great|nice|thanks?|looks good|it's good|perfect|alright|yes)\b/gi, '')) < 60;
}

/** File names without an extension that projects use (`Justfile`, `Makefile`, `Dockerfile`). */
const EXTENSIONLESS = /\b(?:[A-Z][a-z]*file|Makefile|makefile|justfile|LICENSE|README|CHANGELOG|Procfile|Gemfile|Rakefile)\b/g;

/** Words for the code a project is made of ("code", "files", "implementation", "module"): one word when two statements are compared. */
const ARTIFACT = /\b(?:code|files?|implementations?|modules?|sources?|fichiers?|archivos?|dateien|código|ファイル|コード|파일|코드)\b/giu;

/** The file names an item mentions (basenames with an extension, and the usual extensionless ones), lowercase. */
function fileNames(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/[\w.-]+\.[A-Za-z]\w{0,7}\b/g)) {
    const base = m[0].split('/').pop()!;
    if (!/^\d|^(?:e\.g|i\.e|etc)$/.test(base)) out.add(base.toLowerCase());
  }
  for (const m of text.matchAll(EXTENSIONLESS)) out.add(m[0].toLowerCase());
  return out;
}

/** True when `older` says something stays that `newer` says is gone (the same file, or the same words). */
function removedSince(older: string, newer: string): boolean {
  if (!KEEPS.test(normalizeQuotes(older)) || !REMOVES.test(normalizeQuotes(newer))) return false;
  const a = fileNames(older);
  const b = fileNames(newer);
  for (const n of a) if (b.has(n)) return true;
  // "keep the old code" and "removed the old implementation files" speak of the same thing
  const strip = (s: string) => s.replace(new RegExp(KEEPS.source, 'giu'), ' ').replace(new RegExp(REMOVES.source, 'giu'), ' ').replace(ARTIFACT, 'code');
  return overlap(strip(older), strip(newer)).shared >= 2;
}

/** Sections whose prior items can be contradicted by the newer state. */
const LASTING = new Set(['Constraints and preferences', 'Decisions', 'Done', 'Files', 'Earlier context']);
/** Sections that state the newer state. */
const STATE = new Set(['Constraints and preferences', 'Decisions', 'Done', 'Files', 'Rejected or reverted']);

/**
 * Drop the prior items the newer state contradicts, in place: a prior item (`prior` set) that
 * says something stays when a newer item says it was removed, a prior Files item about a file
 * a newer Files item states, a prior rule or decision a newer one replaces.
 */
export function resolveContradictions(sections: readonly Section[]): void {
  const newer = sections.filter((s) => STATE.has(s.heading)).flatMap((s) => s.items.filter((it) => !it.prior).map((it) => ({ it, heading: s.heading })));
  if (!newer.length) return;
  for (const s of sections) {
    if (!LASTING.has(s.heading)) continue;
    s.items = s.items.filter((p) => {
      if (!p.prior) return true;
      for (const { it, heading } of newer) {
        if (removedSince(p.text, it.text)) return false;
        if (heading === s.heading && (s.heading === 'Constraints and preferences' || s.heading === 'Decisions') && replaces(p.text, it.text)) return false;
        if (s.heading === 'Files' && heading === 'Files' && p.key && it.key && sameFile(p.key, it.key)) return false;
      }
      return true;
    });
  }
}

/** Two paths of one file: equal, or one ends with the other (a path relative to a folder inside the project). */
function sameFile(a: string, b: string): boolean {
  if (a === b) return true;
  const [s, l] = a.length <= b.length ? [a, b] : [b, a];
  return s.includes('/') && l.endsWith('/' + s);
}

/** The agent's sentence right before `u` that names the number `u` points at ("Step 15 of 20 is next: …" before "go on with 15"). */
function pointedAt(u: { seq: number; text: string }, t: ReturnType<typeof analyzeSpan>): string | undefined {
  const nums = u.text.match(/\d+/g);
  const before = [...t.assistantTexts].reverse().find((a) => a.seq < u.seq);
  if (!nums || !before || t.userTexts.some((x) => x.seq > before.seq && x.seq < u.seq)) return undefined;
  const s = splitSentences(before.text).find((x) => nums.some((n) => new RegExp(`(?<!\\d)${n}(?!\\d)`).test(x)));
  return s ? shortenWhole(s.replace(/"/g, "'"), NEWEST_LEAD_CHARS) : undefined;
}

/** Longest reply read as an answer to the agent's question (Latin-letter equivalents). */
const ANSWER_CHARS = 60;

/**
 * The agent's question a user message answers, or undefined: the agent's last text before it
 * (after the user's previous message) ends with a question, and the message is short, asks
 * nothing itself and is no request for work ("can you ...?").
 */
function answeredQuestion(u: { seq: number; text: string }, t: ReturnType<typeof analyzeSpan>): string | undefined {
  if (readLength(u.text.trim()) > ANSWER_CHARS || isQuestion(u.text) || isPoliteRequest(u.text)) return undefined;
  const prevUser = [...t.userTexts].reverse().find((x) => x.seq < u.seq)?.seq ?? -1;
  const before = [...t.assistantTexts].reverse().find((a) => a.seq < u.seq && a.seq > prevUser);
  const q = before && splitSentences(before.text.trim()).pop();
  return q && isQuestion(q) ? shortenWhole(q.replace(/"/g, "'"), NEWEST_LEAD_CHARS) : undefined;
}

/** Characters of the user's newest request (kept verbatim in the tail) that the next step quotes: at least its first sentence. */
const NEWEST_LEAD_CHARS = 120;

/**
 * The span's next step checked against the tail kept verbatim after the checkpoint: when the
 * user asked for something newer there, the step is that request; when the tail already does the
 * step (a commit it asks for, a change to the file it names, a report of it done), the step says
 * so and asks to go on from the tail's newest message instead of redoing it. `isRequest` tells a
 * request from an acknowledgement.
 */
export function nextStepAgainstTail(step: string, tail: readonly SurfaceNode[], isRequest: (text: string) => boolean): string {
  if (!step || !tail.length) return step;
  const t = analyzeSpan(tail);
  // the user asked for something newer after the span: that is where the work goes on; a short
  // "go on with 15" after a request there points further than the request it follows
  const last = t.userTexts[t.userTexts.length - 1];
  // a short reply to the agent's question ("minor, this is a big change" to "minor or patch?") answers, it does not ask: the request is the one before it
  const requests = [...t.userTexts].reverse().filter((u) => isRequest(u.text));
  const answer = requests[0] && answeredQuestion(requests[0], t);
  const newest = last && POINTER.test(last.text) && isNudge(last.text) ? last : answer ? requests.find((u) => !answeredQuestion(u, t)) : requests[0];
  if (answer && !newest) return `Go on from the messages after this summary: the user's newest message there answers the agent's question "${answer}": "${shortenWhole(requests[0]!.text.replace(/"/g, "'"), NEWEST_LEAD_CHARS)}".`;
  if (newest && (!isNudge(newest.text) || POINTER.test(newest.text))) {
    // what it asks, without the acknowledgement it opens with ("いいね。次は、…", "great. now …")
    const asked = splitSentences(newest.text).filter((x, i, all) => i === all.length - 1 || isRequest(x) || readLength(x) >= 24).join(' ');
    // the request itself is kept verbatim after the checkpoint: its lead names it, the budget goes to the state
    const quoted = shortenWhole(leadSentences(asked.replace(/"/g, "'"), NEWEST_LEAD_CHARS), NEWEST_LEAD_CHARS + 40);
    // a pointer ("go on with 15") answers the agent's sentence just before it that names the same number
    const pointed = isNudge(newest.text) ? pointedAt(newest, t) : undefined;
    const then = answer && newest !== requests[0] ? ` (then answered the agent's question "${answer}": "${shortenWhole(requests[0]!.text.replace(/"/g, "'"), NEWEST_LEAD_CHARS)}")` : '';
    return `Go on from the user's newest request, in the messages after this summary: "${quoted}"${pointed ? ` (answering the agent's "${pointed}")` : ''}${then}.`;
  }
  // what the step asks, without how the span's last call ended (that call is not the step)
  const at = step.lastIndexOf(' (the span ended with ');
  const core = at > 0 ? step.slice(0, at).replace(/[.]$/, '') : step;
  const committed = t.calls.some((c) => !c.failed && c.result && c.info.command && /\bgit\s+commit\b/.test(c.info.command));
  const changedPaths = t.calls.filter((c) => !c.failed && modifiesFiles(c.info)).flatMap((c) => c.info.paths);
  const changed = new Set(changedPaths.map((p) => p.split('/').pop()!.toLowerCase()));
  const stepTokens = contentTokens(core);
  const reported = t.assistantTexts.some((a) => splitSentences(a.text).some((s) => reportsDone(s) && overlap(contentTokens(s), stepTokens).shared >= Math.min(2, stepTokens.size)));
  const touched = [...fileNames(core)].filter((n) => changed.has(n));
  const commitAsked = /\bcommit/i.test(core) && committed;
  // the tail goes on from the step as a matter of course; it is said only when the tail already did it
  if (!commitAsked && !touched.length && !reported) return step;
  // the finished step is not said again (a resumed agent reads a step as work to do): what the tail did to it is
  const did = [
    ...(touched.length ? [`change ${touched.map((n) => '`' + (changedPaths.find((p) => p.split('/').pop()!.toLowerCase() === n) ?? n).split('/').pop() + '`').join(', ')}`] : []),
    ...(committed ? ['commit it'] : []),
    ...(reported && !touched.length && !committed ? ['report it done'] : []),
  ];
  // a plan item is named (its status is the state); other work is not quoted again
  const todo = /^Continue the open todo item: ([\s\S]*?)\.?$/.exec(core)?.[1];
  const label = STEP_LABEL.exec(core.replace(/^[^:]*: (?=\S+[^:]*:)/, ''))?.[1];
  const what = todo ? `the open todo item "${todo.replace(/"/g, "'")}"` : label ? `the step ${label}` : stepKind(core);
  return `The messages after this summary already take up ${what} (they ${did.join(' and ')}): go on from the newest of them, do not redo it.`;
}

/** A plan step's label before its colon ("Next is WP14: Create main-new.ts", "Step 3: ..."): a short name with a number. */
const STEP_LABEL = /^(?:next(?: step)?(?: is| up)?[:,]?\s+)?([\p{L}][\p{L}\p{N} ._-]{0,16}\d[\p{L}\p{N}.]{0,4}):\s/iu;

/** What a next step was, by the words it opens with ("Continue the work under way: X" -> "the work under way"). */
function stepKind(step: string): string {
  const m = /^(?:Continue (the work under way|the latest request)|(Answer the user's latest message)):/.exec(step);
  if (!m) return 'the next step the span ended on';
  return m[1] ?? "the answer to the user's latest message";
}

