/**
 * @hive-mind/mind: the .mind frame store (search, recall, cleanup), secret redaction, threat scan,
 * and curated notes. Import cost is kept small (no tokenizer, no transcript readers at load time):
 * the hooks package imports this on every hook process.
 */
export { MindError, type MindErrorCode } from './errors.js';
export { mindHome, personalMindPath, workspaceMindPath, memoriesDir, hooksLogPath, safeFileName, teamSyncStampPath } from './paths.js';
export { redactSecrets, redactJson, redactionTypes, presetStamp, secretRuleSet, looksRandom, shannonEntropy, type RedactOptions } from './safety/redact.js';
export { scanThreats, isLegitJoiner, stripInvisible } from './safety/threats.js';
export { ENV_SETTINGS, envNumber, envFlag, envProblems, envProblem, formatEnvProblem, setting, settingDefault, SettingError, type EnvSetting, type EnvProblem, type EnvKind } from './settings.js';
export { spoolPrefix, spoolFrames, spoolFramesAnywhere, fallbackSpoolDirs, fallbackSpoolPrefix, replaySpool, pendingSpooled, SPOOL_CLAIM_STALE_MS, type SpoolRecord, type ReplayReport, type SpoolOutcome } from './store/spool.js';
export { neutralize, escapeStructure, imitatesStructure, frameInjection, newNonce, FRAME_TAG, FRAME_OVERHEAD_CHARS, type InjectionSection } from './safety/neutralize.js';
export { cleanText, decodeUtf8, contentHash, normalizeForHash, chunkText, preview } from './text.js';
export { SCHEMA_VERSION } from './store/schema.js';
export { estimateTokens } from './estimate.js';
export { analyzeQuery, indexText, STOP_WORDS, type AnalyzedQuery } from './recall/analyze.js';
export { nearDuplicate, NEAR_DUPLICATE_JACCARD } from './text.js';
export { Mind } from './store/store.js';
export { teamFilePath, readTeamFile, connectionFor, cacheMindPath, urlHasPassword, type TeamConnection, type TeamFile } from './team/team-config.js';
export { TeamLocal, checkTeamName, type TeamOrigin, type TeamFramePayload, type OutboxEntry, type OutboxStatus, type PulledEvent, type ApplyReport } from './team/team-local.js';
export { ftsQuery } from './recall/search.js';
export {
  evidenceBudget,
  excerpt,
  EVIDENCE_MIN_SHARE,
  EVIDENCE_MIN_WEIGHT,
  EVIDENCE_MIN_RELATIVE,
  EVIDENCE_ITEM_WEIGHT,
  TIME_WORDS,
  evidenceTopic,
  EVIDENCE_MAX_ITEMS,
  EVIDENCE_ITEM_CHARS,
  type EvidenceItem,
  type EvidenceOptions,
} from './recall/evidence.js';
export { inPassing, type SentencePlace } from './recall/in-passing.js';
export { historyTurnsOf } from './history/history-import.js';
export {
  HISTORY_KINDS,
  HISTORY_TURN_MAX_CHARS,
  DEFAULT_HISTORY_RETENTION,
  isHistoryKind,
  turnFrame,
  cutTurn,
  historyRetention,
  type HistoryKind,
  type TurnInput,
  type HistoryRetention,
} from './history/history.js';
export { RECALL_HEADER, RECALL_LIST_LIMIT, RECALL_RULE_KINDS, RECALL_FACT_KINDS, type RecallSection } from './recall/recall.js';
export { recallBlockLabel, recallBlockLabels } from './recall/recall-label.js';
export { topicWords, TASK_WORDS, PROMPT_MIN_SHARE, PROMPT_MIN_BM25_RATIO, PROMPT_MAX_ITEMS, PROMPT_MIN_COSINE, PROMPT_MIN_COSINE_RATIO, type PromptHitsOptions } from './recall/prompt-floor.js';
export {
  validateEmbeddingsConfig,
  embeddingsConfigFromEnv,
  embedTexts,
  EmbeddingsError,
  EMBEDDINGS_ENV,
  type EmbeddingsConfig,
} from './recall/embeddings.js';
export { RRF_K, LAZY_BACKFILL, type EmbedReport, type HybridSearchOptions, type HybridSearchResult, type QueryEmbedding } from './recall/vectors.js';
export {
  IMPORTANCES,
  SCOPES,
  SOURCES,
  IMPORTANCE_WEIGHT,
  type Importance,
  type Scope,
  type FrameSource,
  type FrameInput,
  type Frame,
  type SaveResult,
  type SearchHit,
  type SearchOptions,
  type RecallOptions,
  type RecallResult,
  type CleanupReport,
  type MindStats,
  type MindOptions,
  type RankingWeights,
  type TokenCounter,
  ESTIMATE_METER,
} from './frame.js';
export {
  Notes,
  STRUCTURE_WARNING,
  NOTES_DELIMITER,
  DEFAULT_MEMORY_CHAR_LIMIT,
  DEFAULT_USER_CHAR_LIMIT,
  DEFAULT_FAILURE_CAP,
  parseEntries,
  renderEntries,
  isPinned,
  type NotesTarget,
  type NotesFileInventory,
  type NotesUsage,
  type NotesState,
  type NotesOp,
  type NotesResult,
  type NotesOptions,
  type WriteOptions,
  type EntrySize,
  type ArchiveRecord,
} from './notes/notes.js';
export { hermesHome, readHermesFiles, parseHermesBlocks, readHermesSessionBlocks, adoptHermesNotes, type HermesStore, type AdoptedEntry, type AdoptReport } from './notes/notes-import.js';
export { withFileLock, atomicWrite, readLock, breakLock, describeLock, LOCK_STALE_MS, UNREADABLE_LOCK_STALE_MS, type LockInfo, type LockState } from './store/lock.js';
export { writeFileAtomic, realTarget, backupFile, backupStamp, type AtomicWriteOptions } from './store/atomic.js';
export { doctor, repairMind, repairLocks, tailHookLog, DEFAULT_MIND_SIZE_WARN, type DoctorReport, type RepairReport } from './store/doctor.js';
export { harvestEvents, harvestTranscriptFile, transcriptCwd, transcriptSessionId, type Harvest, type HarvestCounts } from './harvest/harvest.js';
export { promptStanding, replyStanding, acknowledgesRule, acknowledgesOnly, mayAcknowledge, hookPolicyOf, PROMPT_FRAMES_MAX, REPLY_FRAMES_MAX, STANDING_CHARS, STANDING_INPUT_CHARS, type StandingFrame, type StandingKind } from './harvest/standing.js';
export { correctionOf, replaces as correctionReplaces, type Correction } from './harvest/correction.js';
export { hostWritten } from './harvest/host-text.js';
export { harvestEventsWithLlm, parseLlmFacts, LLM_FACT_KINDS, LLM_HARVEST_SYSTEM, type LlmHarvest, type LlmHarvestOptions } from './harvest/harvest-llm.js';
export type { ListOptions } from './store/inspect.js';
export type { FrameSnapshot } from './store/snapshot.js';
export { mergeRanked, mergeRecent, type FromMind } from './recall/merge.js';
