/**
 * @hive-mind/ui: the local web app behind `hive-mind ui`. A hono server on 127.0.0.1 with a
 * per-run token (security.ts) serving a page built at build time (dist/web) and a JSON API over
 * the mind, the notes, the next session's injection and compaction.
 */
export { startUiServer, createApp, UI_HOST, type UiServer, type UiServerOptions } from './server.js';
export { newToken, cookieName, TOKEN_HEADER, SECURITY_HEADERS } from './security.js';
export { highlight, type Marks } from './highlight.js';
export { framePage, parseFrameQuery, facets, PAGE_MAX, SEARCH_MAX, type FramePage, type FrameQuery, type FrameRow } from './api/frames.js';
export { MindRegistry, type MindEntry } from './minds.js';
export { notesFiles, pinned, type NotesFile } from './api/notes.js';
export { nextSession, findInjection, PREVIEW_HOSTS, PREVIEW_SESSION, type NextSession, type ItemVerdict } from './api/next.js';
export { compactionPreview, compactInMemory, DEFAULT_WINDOW, type CompactionIO } from './api/compaction.js';
