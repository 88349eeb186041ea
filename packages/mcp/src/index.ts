export { createMcpServer, SERVER_NAME } from './server.js';
export { ServerContext, type ServerOptions } from './context.js';
export { serveStdio, protectStdout } from './stdio.js';
export { serveHttp, isLoopbackOrigin, HTTP_HOST, HTTP_PATH, MAX_HTTP_BODY_BYTES, type HttpServerOptions, type RunningHttpServer } from './http.js';
export { DEFAULT_LIMITS, resolveLimits, type Limits } from './limits.js';
export { FieldError, type SessionInfo } from './guard.js';
export { MAX_SAVE_CHARS, MAX_QUERY_CHARS, MAX_SEARCH_LIMIT, MAX_SEARCH_OFFSET, DEFAULT_RECALL_TOKENS, MAX_RECALL_TOKENS } from './tools-mind.js';
export { TurnClock, MAX_NOTE_CHARS, MAX_BATCH_OPS, MAX_THREAD_CHARS } from './tools-notes.js';
export { MIN_COMPACT_BUDGET, MAX_COMPACT_BUDGET, MAX_INLINE_MESSAGES, type CompactReport } from './tools-compact.js';
