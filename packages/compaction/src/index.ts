export * from './tokens.js';
