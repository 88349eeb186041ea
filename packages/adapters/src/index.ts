export { compactMessages, MessageCompactor, DEFAULT_MAX_CONVERSATIONS, type CompactMessagesOptions, type CompactMessagesReport, type CompactMessagesResult } from './compact-messages.js';
export type { MessageCodec, ReadMessage } from './codec.js';
export { AdapterInputError, MissingPeerError } from './errors.js';
