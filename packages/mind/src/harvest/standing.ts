/**
 * What one message gives to the standing memory (README "Standing memory"): pure functions over
 * one message's text (already redacted), shared by the UserPromptSubmit capture (a prompt), the
 * Stop/SessionEnd capture (a reply) and `mind import` (harvest.ts), so every path keeps the same.
 *
 * A prompt gives a standing instruction or preference only when it is a lasting rule about the work
 * or the user. The decision is structural first: who wrote it (the host's text is never the user's
 * rule: host-text.ts), the sentence's form (an imperative, an obligation, a stated preference about
 * oneself; not a statement about something else, not a question, not told in the past), what makes
 * it last (a scope such as "from now on" or "whenever"; "always"/"never"; a contrast, a condition or
 * an order inside the rule), what ties it to the moment (deixis: "that", "this change", "again",
 * "last", "for now", "until"), a name, a path or a value that anchors it to the work, and what
 * follows (the agent acknowledging a lasting rule). The word lists of standing-lexicon.ts give the
 * words of each role in the ten languages the hooks see.
 *
 * `critical` comes only from the user's explicit mark ("critical:", "important:", "remember:" opening
 * the prompt, and their equivalents); an agent's reply is never critical.
 *
 * A reply gives what the agent established, not how the turn went: where something lives or runs
 * (a URL, a port, a path, a version, a rate limit), a switch or a pinned choice, a root cause, a
 * schedule or an order. Status ("all tests pass", "committed as …", "done"), narration, offers,
 * guesses and questions give nothing.
 */
export { PROMPT_FRAMES_MAX, REPLY_FRAMES_MAX, STANDING_CHARS, STANDING_INPUT_CHARS, type StandingFrame, type StandingKind } from './standing-clause.js';
export { promptStanding } from './standing-prompt.js';
export { acknowledgesRule, replyStanding } from './standing-reply.js';
export { acknowledgesOnly, mayAcknowledge } from './acknowledgement.js';
export { hookPolicyOf } from './harvest-rules.js';
