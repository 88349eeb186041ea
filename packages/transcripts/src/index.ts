export { TranscriptError } from './errors.js';
export { EXPORT_FORMATS, FORMATS, FORMAT_TABLE, type ExportFormat, type WriteTarget, type FormatRow, type TranscriptFormat, type ImportReport, type Transcript, type TranscriptSource, type TranscriptOrigin, type ReadOptions } from './types.js';
export { detectFormat } from './detect.js';
export { readTranscriptFile, parseTranscript, hostSessionId } from './read.js';
export { recordedToolDefinitions } from './recorded.js';
export { unansweredText } from './builder.js';
export { transcriptStats, type TranscriptStats } from './stats.js';
export { writeTranscript } from './write/index.js';
export {
  toOpenAIMessages,
  toAnthropicMessages,
  toMarkdown,
  anthropicToolId,
  type OpenAIChatMessage,
  type OpenAIToolCall,
  type OpenAIContentPart,
  type AnthropicMessage,
  type AnthropicBlock,
} from './write/chat.js';
export {
  SESSION_HOSTS,
  HOST_TABLE,
  sessionRoots,
  hostVersionProblem,
  compareVersions,
  shellQuote,
  type SessionHost,
  type SessionHostSpec,
  type SessionHead,
  type ResumeCommand,
} from './sessions/hosts.js';
export { HOSTS, HOST_NAMES, HOOK_HOSTS, hostRow, hostList, type HostRow, type HostName, type HookHost, type ConfigDirRule, type SessionRule, type SessionStartSample } from './host-table.js';
export { hostDir, userHome, type HostDir, type HostDirHost } from './host-dirs.js';
export { listSessions, scanSessions, resolveSession, readSessionHead, SessionLookupError, HEAD_BYTES, type SessionFile, type ListOptions, type NotASessionFile } from './sessions/list.js';
export { sessionActivity, RECENT_WRITE_MS, type SessionActivity } from './sessions/activity.js';
export { recordedModel, compactionCounts } from './sessions/facts.js';
