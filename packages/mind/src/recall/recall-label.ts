/**
 * The label of one mind's block in an injection (`## hive-mind memory (<label>)`), shared by the
 * session-start hook, the MCP `recall` tool and the web page's "Next session" view, so a block of
 * team frames is never headed as personal memory.
 */
import type { Frame } from '../frame.js';

/**
 * `label` (`workspace <id>`, `personal`) as it is when no frame is a team frame; `<label> and
 * team` when some are (the team cache is pulled into the local mind, so its frames come out of the
 * same recall); `team` when all are. Each team frame's own line names its team and member.
 */
export function recallBlockLabel(label: string, frames: ReadonlyArray<Pick<Frame, 'scope'>>): string {
  const team = frames.filter((f) => f.scope === 'team').length;
  if (team === 0) return label;
  return team === frames.length ? 'team' : `${label} and team`;
}

/** Every heading label a block of the mind labelled `label` can have (see {@link recallBlockLabel}). */
export function recallBlockLabels(label: string): string[] {
  return [label, `${label} and team`, 'team'];
}
