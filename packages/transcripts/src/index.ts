export { TranscriptError } from './errors.js';
export { FORMATS, type TranscriptFormat, type ImportReport, type Transcript, type TranscriptSource, type TranscriptOrigin, type ReadOptions } from './types.js';
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
