export * from './blocks.js';
export * from './events.js';
export * from './errors.js';
export * from './surface.js';
export * from './pairing.js';
export * from './invariants.js';
export { BaseSessionLog, MemorySessionLog, type SessionLog } from './log.js';
