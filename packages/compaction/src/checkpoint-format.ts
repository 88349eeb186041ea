/**
 * The sections of a checkpoint body, in the order the model reads them: what a colleague
 * would write to hand the work over. Every summarizer (extractive, openai, anthropic) writes
 * these `## ` headings in this order, and the merge of a prior checkpoint parses them back.
 * `holds` says what a section holds (the LLM prompts quote it).
 */
export const CHECKPOINT_SECTIONS = [
  { heading: 'Goal', holds: "what the user wants overall, from the first substantive request (a pasted log or stack trace is said as \"pasted an error: <the error line>\")" },
  { heading: 'Constraints and preferences', holds: "the user's lasting instructions that still hold (only / never / always / don't / keep / use X)" },
  { heading: 'Done', holds: 'work reported or verified complete: commits, passing checks, finished todo items' },
  { heading: 'Decisions', holds: 'choices that still stand, each with its reason' },
  { heading: 'Rejected or reverted', holds: 'changes the user rejected or that were undone, each said once, so they are not re-applied' },
  { heading: 'Errors and fixes', holds: 'each real error paired with the change that fixed it, or marked unresolved' },
  { heading: 'Commands', holds: 'the commands that matter (build, test, run, deploy) with their outcome; a multi-line script by its purpose and first line' },
  { heading: 'Findings', holds: 'what the tool calls established, one line each: what a file read holds, what a search found (file:line) or that it found nothing, the state a status check showed' },
  { heading: 'Files', holds: 'the files that exist at the end (created or modified; deleted or renamed ones said so), then the files read' },
  { heading: 'In progress', holds: 'the latest request and the work under way when the span ended, with open todo items' },
  { heading: 'Next step', holds: "the one next action: when the span ends inside a tool loop, the work under way (the open todo item, the last stated intent, how the last call ended); else the user's pending request or the last stated plan; a host's injected text (hook feedback, notifications) is the host's, never the user's words" },
] as const;

/** A checkpoint section heading. */
export type CheckpointSection = (typeof CHECKPOINT_SECTIONS)[number]['heading'];

/** The headings of {@link CHECKPOINT_SECTIONS}, in order. */
export const CHECKPOINT_HEADINGS: readonly CheckpointSection[] = CHECKPOINT_SECTIONS.map((s) => s.heading);
