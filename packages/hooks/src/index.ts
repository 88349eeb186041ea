/**
 * @hive-mind/hooks: the hook runner, the lifecycles shared by all hosts, one adapter
 * and one installer per host. The hook process itself uses the lean `@hive-mind/hooks/run`
 * entry; this index also exports the installers (jsonc-parser, smol-toml, ...).
 */
export * from './types.js';
export { runHook, hookLogPath, HOOK_TIMEOUT_MS, STDIN_TIMEOUT_MS, type RunHookOptions, type RunHookResult } from './runner.js';
export { runLifecycle, cleanupMinds, mindsFor, recallBudget, DEFAULT_RECALL_TOKENS, type LifecycleOptions } from './lifecycles.js';
export { loadAdapter, registeredHosts, HOST_IDS, HOSTS } from './registry.js';
export { loadInstaller, installableHosts } from './installers.js';
export { summarizeExtractive, splitSentences } from './extract.js';
export { lastTurnFromTranscript, lastTurnFromLines, readTailLines, TRANSCRIPT_TAIL_BYTES, type TranscriptTurn } from './transcript-tail.js';
export { workspaceOf } from './workspace.js';
export { recallBlocks, type RecallBlocks, type RecallSource, type SkippedMind } from './inject.js';
export { logHookLine, fallbackHookLogPath, HOOK_LOG_MAX_BYTES } from './log.js';
export { readStdinCapped, STDIN_MAX_BYTES } from './stdin.js';
export { HostConfigError } from './install/errors.js';
export { installConfig, uninstallConfig, listOurs, type HostConfigSpec, type HookListSpec, type SettingSpec, type ConfigRecord } from './install/core.js';
export type { ConfigFormat } from './install/format.js';
export { JSON_FORMAT } from './install/format-json.js';
export { JSON5_FORMAT } from './install/format-json5.js';
export { YAML_FORMAT } from './install/format-yaml.js';
export { TOML_FORMAT } from './install/format-toml.js';
export { runInstaller, installedHooks, verifyInstalled, commandPrefix, HOST_HOOK_TIMEOUT_S, type InstallerSpec, type VerifyPlan } from './install/installer.js';
export { unifiedDiff, writeAtomic, backupFile, commitFile } from './install/files.js';
export { shQuote, hookCommand, ourHookEvent, defaultHookCommand, locateCli } from './install/command.js';
export { launcherScript, launcherRecord, isLauncher, type LauncherRecord } from './install/launcher.js';
export { commandHealth, type CommandHealth } from './install/health.js';
export { launcherPath } from './install/state.js';
export { claudeCodePlugin, codexPlugin, pluginCli, PLUGIN_ID, type InstalledPlugin } from './install/plugins.js';
export { removePlugin, MARKETPLACE, type PluginRemovalReport } from './install/plugin-remove.js';
export { verifyCommands, type VerifyTarget } from './install/verify.js';
export { statePath, readState, homeOf, type InstallState } from './install/state.js';
