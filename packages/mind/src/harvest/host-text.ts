/**
 * Text the host wrote into the user's turn: never the user's own words, so never a standing
 * instruction (standing.ts). Recognized by its structure (a wrapper tag, the host's fixed
 * wording of a hook's feedback or an interrupted turn, a document with headings and a task's
 * usage notes, a command's output block) rather than by what it asks.
 *
 * Sources of the wordings: Claude Code 2.1.x transcripts (../shared/data/transcripts/claude-code:
 * `<command-name>`, `<local-command-stdout>`, `<system-reminder>`, "Caveat: The messages below…",
 * "[Request interrupted by user…]", "<Event> hook feedback:", the compaction summary "This session is
 * being continued…", the `/init` prompt "Please analyze this codebase and create a CLAUDE.md file…"),
 * Codex 0.171 rollouts (`<environment_context>`, `<user_instructions>`, "# AGENTS.md instructions for"),
 * pi sessions (a bash execution written as "Ran `cmd`" with its output fenced; a pasted checkpoint).
 */

/** Host and tool protocol text: tool ids, hook feedback, interrupted turns, API errors, host wrappers. */
const PROTOCOL =
  /\b(?:tool_use|tool_result|toolCall|toolu_)\w*|^\s*(?:[\w-]+(?::[\w*|-]+)? hooks? (?:feedback|error|blocking error|says?)|\[Request interrupted|\[Tool |The user doesn't want to proceed|API Error|Caveat: The messages below|<[a-z][\w-]*[\s>])|hook (?:feedback|blocking error)\s*:/i;

/** The host's wordings that open a message it wrote (see the module comment for their sources). */
const HOST_OPENINGS: ReadonlyArray<[RegExp, string]> = [
  [/^\s*#\s*AGENTS\.md instructions for\b|<INSTRUCTIONS>/i, 'project instructions injected by the host'],
  [/^\s*This session is being continued from a previous conversation/i, 'a compaction summary'],
  [/^\s*#+\s*(?:Context )?Checkpoint\b/i, 'a checkpoint summary'],
  [/^\s*Ran `[^`\n]+`\s*\n/, 'a command and its output'],
  [/^\s*Please analyze this codebase and create an? [\w.]+ file/i, "a host command's prompt template"],
];

/** Section labels of a host command's prompt template ("What to add:", "Usage notes:", "## Your task"). */
const TEMPLATE_LABEL = /^(?:#{1,3}\s+(?:Context|Your task|Instructions|Usage notes|Requirements|Steps|Git Safety Protocol)\b|(?:What to add|Usage notes|Instructions|Requirements|Guidelines|Rules|Steps|Output format|Notes):\s*$)/im;
const LIST_ITEM = /^\s*(?:[-*•]|\d+[.)])\s+\S/gm;
const HEADING = /^#{1,6}\s+\S/gm;

/**
 * Why `text` was written by the host rather than typed by the user, or undefined when it reads as
 * the user's own. A prompt template is told by its shape: labelled sections ("Usage notes:", "## Your
 * task") over three or more list items; a document by three or more Markdown headings.
 */
export function hostWritten(text: string): string | undefined {
  const t = text.trim();
  if (!t) return undefined;
  if (PROTOCOL.test(t)) return 'host or hook protocol';
  for (const [re, why] of HOST_OPENINGS) if (re.test(t)) return why;
  const items = t.match(LIST_ITEM)?.length ?? 0;
  if (TEMPLATE_LABEL.test(t) && items >= 3) return 'a prompt template (labelled sections over a list)';
  if ((t.match(HEADING)?.length ?? 0) >= 3 && t.length > 300) return 'a document (three or more headings)';
  return undefined;
}

/** True for host and hook protocol text (hook feedback, interrupted-turn markers, tool ids, host wrappers). */
export function isProtocol(text: string): boolean {
  return PROTOCOL.test(text);
}
