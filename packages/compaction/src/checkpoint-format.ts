/**
 * The sections of a checkpoint body, in the order the model reads them: what a colleague
 * would write to hand the work over. Every summarizer (extractive, openai, anthropic) writes
 * these `## ` headings in this order, and the merge of a prior checkpoint parses them back.
 * `holds` says what a section holds (the LLM prompts quote it).
 */
export const CHECKPOINT_SECTIONS = [
  { heading: 'Goal', holds: "the user's overall objective as it stands at the end of the messages, the project the work serves, in one or two sentences: a later restatement or refinement wins over the first request; a side task asked first is a task, not the goal; how the user wants the answer (\"give me a plan first\") is no goal (a pasted log or stack trace is said as \"pasted an error: <the error line>\")" },
  { heading: 'Constraints and preferences', holds: "the user's rules as they stand (only / never / always / don't / keep / use X / a value the user set): a later rule replaces the earlier one, said in its final form only and marked \"(changed)\"; a correction of the agent with what is now true and what the agent had claimed; no questions or venting" },
  { heading: 'Done', holds: 'the end state: what exists and passes now (the last test count, the last commit), plan items by their final status; no earlier snapshots, nothing the user then ruled out' },
  { heading: 'Decisions', holds: 'choices that still stand, each with its reason' },
  { heading: 'Rejected or reverted', holds: 'changes the user rejected or that were undone, each said once, so they are not re-applied' },
  { heading: 'Errors and fixes', holds: 'each real error paired with the change that fixed it, or marked unresolved' },
  { heading: 'Commands', holds: 'the commands that matter (build, test, run, deploy) with their outcome; a multi-line script by its purpose and first line' },
  { heading: 'Findings', holds: 'what the tool calls established, one line each: what a file read holds, what a search found (file:line) or that it found nothing, the state a status check showed' },
  { heading: 'Files', holds: 'the files that exist at the end (created or modified; deleted or renamed ones said so), then the files read' },
  { heading: 'In progress', holds: 'the latest request and the work under way when the span ended, with open todo items' },
  { heading: 'Next step', holds: "the one next action: when the span ends inside a tool loop, the work under way (the open todo item, the last stated intent, how the last call ended); else the user's pending request or the last stated plan; never work already done; a host's injected text (hook feedback, notifications) is the host's, never the user's words" },
] as const;

/** A checkpoint section heading. */
export type CheckpointSection = (typeof CHECKPOINT_SECTIONS)[number]['heading'];

/** The headings of {@link CHECKPOINT_SECTIONS}, in order. */
export const CHECKPOINT_HEADINGS: readonly CheckpointSection[] = CHECKPOINT_SECTIONS.map((s) => s.heading);
