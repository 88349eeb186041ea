/**
 * A host's own compaction summary recognized by its content, wherever a transcript carries it:
 * a user message of an OpenAI or Anthropic message array, a system message, a checkpoint node a
 * reader imported. Each host opens its summary with fixed wording; that wording is the table
 * below, with where each comes from. A recognized summary is a prior checkpoint: parsed into the
 * checkpoint sections and merged, never read as the user's request.
 */
/** One host's summary framing. */
export interface HostSummaryForm {
  /** The host whose wording it is: an id of the host table (compaction installs without it; test/host-ids.test.ts checks). */
  host: 'claude-code' | 'codex' | 'pi' | 'hermes';
  /** The opening, matched at the start of the message (leading host tags allowed before it). */
  opening: RegExp;
  /** Text that closes the summary (left out with everything after it). */
  closing?: RegExp;
  /** Where the wording comes from. */
  source: string;
}

/** The hosts' summary openings. */
const HOST_SUMMARY_FORMS: readonly HostSummaryForm[] = [
  {
    host: 'claude-code',
    // "... ran out of context. The conversation is summarized below:" (1.x), "... The summary below covers the earlier portion of the conversation." (2.x)
    opening: /^This session is being continued from a previous conversation that ran out of context\.[^\n]*\n?/,
    source: 'the isCompactSummary user line Claude Code writes after /compact (../shared/data/transcripts/claude-code/native-compact-2.1.332.jsonl)',
  },
  {
    host: 'codex',
    opening: /^Another language model started to solve this problem and produced a summary of its thinking process\.[\s\S]{0,400}?(?:use the information in this summary to assist with your own analysis:|\n\n)/,
    source: 'codex-rs core/templates/compact/summary_prefix.md (SUMMARY_PREFIX), prepended to the summary in the rebuilt history',
  },
  {
    host: 'pi',
    opening: /^The conversation history before this point was compacted into the following summary:\s*(?:<summary>)?/,
    closing: /<\/summary>\s*$/,
    source: 'pi-mono packages/coding-agent/src/core/messages.ts (COMPACTION_SUMMARY_PREFIX / _SUFFIX), also used by OpenClaw',
  },
  {
    host: 'pi',
    opening: /^The following is a summary of a branch that this conversation came back from:\s*(?:<summary>)?/,
    closing: /<\/summary>\s*$/,
    source: 'pi-mono packages/coding-agent/src/core/messages.ts (BRANCH_SUMMARY_PREFIX / _SUFFIX)',
  },
  {
    host: 'hermes',
    // "[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted ... avoid repeating it:" (current),
    // "[CONTEXT COMPACTION] Earlier turns in this conversation were compacted ... avoid repeating work:" (earlier), "[CONTEXT SUMMARY]:" (legacy)
    opening: /^\[CONTEXT COMPACTION[^\]\n]*\][\s\S]{0,4000}?(?:avoid repeating (?:it|work):|\n(?=#))|^\[CONTEXT SUMMARY\]:/,
    closing: /\n?-{3} END OF CONTEXT SUMMARY[\s\S]*$/,
    source: 'hermes-agent agent/context_compressor.py (SUMMARY_PREFIX, _HISTORICAL_SUMMARY_PREFIXES, LEGACY_SUMMARY_PREFIX, _SUMMARY_END_MARKER)',
  },
];

/**
 * What may come before a summary in the same message: host tags (`<system-reminder>` blocks),
 * and the message's own text when Hermes merged the summary into it (`[PRIOR CONTEXT ...]` up to
 * `[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]`).
 */
const LEADING_TAGS = /^(?:\s*<(system-reminder|environment_context)>[\s\S]*?<\/\1>)*\s*(?:\[PRIOR CONTEXT[^\]\n]*\][\s\S]*?\[END OF PRIOR CONTEXT[^\]\n]*\]\s*)?/;

/** The host and the summary body when `text` is a host's compaction summary, else undefined. */
export function hostSummary(text: string): { host: HostSummaryForm['host']; body: string } | undefined {
  const t = text.replace(LEADING_TAGS, '');
  for (const f of HOST_SUMMARY_FORMS) {
    const m = f.opening.exec(t);
    if (!m) continue;
    let body = t.slice(m[0].length);
    if (f.closing) body = body.replace(f.closing, '');
    return { host: f.host, body: body.trim() };
  }
  return undefined;
}

/** `text` without a host summary's opening (a body that still carries it, as a reader imported it). */
export function withoutHostOpening(text: string): string {
  return hostSummary(text)?.body ?? text;
}
