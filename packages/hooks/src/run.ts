/**
 * Lean entry of the hook path (`@hive-mind/hooks/run`): the runner only, without the
 * installers (jsonc-parser, yaml, json5, smol-toml) that the package index exports.
 */
export { runHook, hookLogPath, HOOK_TIMEOUT_MS, STDIN_TIMEOUT_MS, type RunHookOptions, type RunHookResult } from './runner.js';
export { hookUsage, hookEventsByHost } from './usage.js';
