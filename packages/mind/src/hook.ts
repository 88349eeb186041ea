/**
 * `@hive-mind/mind/hook`: what the hook lifecycles (packages/hooks) use of the mind, and nothing
 * else. A hook runs in a new process on every host event and most of its cost is loading modules:
 * this entry leaves out what no hook runs (the transcript harvest and its LLM variant, `mind import`'s
 * history reader, the Hermes notes import, doctor, the team mind's sync side) and the modules they
 * alone bring (the session log package). Everything here is also exported by the package index.
 * packages/hooks/test/hook-imports.test.ts pins what each hook event loads.
 */
export { MindError } from './errors.js';
export { Mind } from './store/store.js';
export { mindHome, personalMindPath, workspaceMindPath, safeFileName, teamSyncStampPath } from './paths.js';
export { estimateTokens } from './estimate.js';
export { frameInjection } from './safety/neutralize.js';
export { nearDuplicate, normalizeForHash } from './text.js';
export { IMPORTANCES, type FrameInput, type Importance, type RecallResult } from './frame.js';
export { turnFrame, historyRetention, isHistoryKind } from './history/history.js';
export { replaySpool, spoolFramesAnywhere } from './store/spool.js';
export { embeddingsConfigFromEnv, type EmbeddingsConfig } from './recall/embeddings.js';
export { evidenceBudget, type EvidenceItem } from './recall/evidence.js';
export { recallBlockLabel } from './recall/recall-label.js';
export type { RecallSection } from './recall/recall.js';
export { promptStanding, replyStanding, acknowledgesRule, acknowledgesOnly, mayAcknowledge, hookPolicyOf, type StandingFrame } from './harvest/standing.js';
export { Notes, parseEntries, type NotesTarget } from './notes/notes.js';
export { cacheMindPath, connectionFor, readTeamFile, teamFilePath, type TeamConnection } from './team/team-config.js';
