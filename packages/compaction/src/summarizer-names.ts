/**
 * The summarizer names, the one list: the offline rules, the API summarizers, the hosts whose own
 * CLI writes a checkpoint with the user's login. `createSummarizer`, the CLI's `--summarizer` and
 * the MCP tool's `summarizer` enum read it. A leaf (imports nothing), so the MCP server's tool
 * schemas load it (`@hive-mind/compaction/summarizers`) without the engine.
 */

/** The hosts with a CLI summarizer (host-cli.ts: `claude -p`, `codex exec`): ids of the host table (compaction installs without it; test/host-ids.test.ts checks). */
export const HOST_SUMMARIZERS = ['claude-code', 'codex'] as const;
/** Names of the host CLI summarizers. */
export type HostSummarizerName = (typeof HOST_SUMMARIZERS)[number];

/** Every summarizer name, in the order help texts list them; a non-empty tuple, as `z.enum` takes. */
export const SUMMARIZER_NAMES = ['extractive', 'openai', 'anthropic', ...HOST_SUMMARIZERS] as const;
/** A summarizer name. */
export type SummarizerName = (typeof SUMMARIZER_NAMES)[number];
