/**
 * Tool calls left without a result, read by what came after them. A host records a call with no
 * result when the model's message was cut off (pi's `stopReason: "error"`, "terminated") or the
 * user interrupted the turn; what matters to the agent that resumes is whether the work went past
 * it. A call is still open only when it is at the end of the span (no call after it got a result)
 * and nothing later, in the span or the verbatim tail, touched its target; otherwise the later
 * work superseded it and it is no state at all.
 */
import type { SurfaceNode } from '@hive-mind/session';
import type { CallFact } from './analyze.js';
import { toolInfo } from './toolinfo.js';

/** The same file named two ways (absolute and relative to the project): equal, or one ends with `/` and the other. */
function samePath(a: string, b: string): boolean {
  const x = a.replace(/^\.\//, '');
  const y = b.replace(/^\.\//, '');
  return x === y || x.endsWith('/' + y) || y.endsWith('/' + x);
}

/** The paths the tail's tool calls name. */
function tailPaths(tail: readonly SurfaceNode[]): string[] {
  const out: string[] = [];
  for (const n of tail) for (const b of n.content) if (b.type === 'tool-call') out.push(...toolInfo(b.name, b.input).paths);
  return out;
}

/**
 * The calls of `calls` (the span's, in order) still open at the span's end: without a result (or
 * with only an importer's synthetic one), after which no call of the span got a result and no
 * call of `tail` names one of their paths (calls cut off together are one open piece of work).
 */
export function openInterruptedCalls(calls: readonly CallFact[], tail: readonly SurfaceNode[] = []): CallFact[] {
  const unanswered = (c: CallFact) => !c.result || c.repaired === true;
  const later = tailPaths(tail);
  return calls.filter((c, i) => {
    if (!unanswered(c)) return false;
    // a later call with a result: the work went on past this one
    if (calls.slice(i + 1).some((d) => !unanswered(d))) return false;
    return !c.info.paths.some((p) => later.some((q) => samePath(p, q)));
  });
}

/** One line for the open calls: how many, of which tools, on which targets; the agent checks the target, it does not blindly repeat the call. */
export function describeOpenCalls(open: readonly CallFact[]): string {
  const names = [...new Set(open.map((c) => c.call.name))];
  const paths = [...new Set(open.flatMap((c) => c.info.paths))];
  const on = paths.length ? ` on ${paths.slice(0, 3).map((p) => `\`${p}\``).join(', ')}${paths.length > 3 ? ` and ${paths.length - 3} more` : ''}` : '';
  const what = `${open.length} ${names.join('/')} call${open.length > 1 ? 's' : ''}${on}`;
  return `${what} ${open.length > 1 ? 'were' : 'was'} cut off at the end of this span without a result: check ${paths.length ? (paths.length > 1 ? 'those files' : 'that file') : 'its effect'} before going on.`;
}
