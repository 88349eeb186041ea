/**
 * The shapes every host adapter and installer implements. One adapter per host
 * maps the host's native hook events and payload fields to hive-mind lifecycles,
 * and renders a lifecycle's output in the host's expected stdout JSON.
 */

import type { HookHost } from '@hive-mind/transcripts/hosts';

/**
 * Hosts hive-mind installs into: the host table's rows with `hooks` (`@hive-mind/transcripts/hosts`).
 * Imported from the table, not from registry.ts, so the adapters that import this file are not
 * in an import circle with the registry that loads them.
 */
export type HostId = HookHost;

/** hive-mind's lifecycle events (DESIGN.md "Hooks"). */
export type Lifecycle = 'session-start' | 'user-prompt-submit' | 'stop' | 'pre-compact' | 'session-end';

/** A host payload normalized by an adapter. Unknown/missing fields are undefined, never guessed. */
export interface LifecycleInput {
  lifecycle: Lifecycle;
  host: HostId;
  /** The host's own event name as given on the command line, e.g. `Stop`. */
  nativeEvent: string;
  sessionId?: string;
  /**
   * The host's own key of the conversation thread when it differs from `sessionId` (OpenClaw
   * `sessionKey`, stable across a chat's session resets). The notes thread is this, else `sessionId`.
   */
  threadKey?: string;
  /** Idempotency key of the turn/prompt (Claude Code `prompt_id`, Codex `turn_id`, ...). */
  turnId?: string;
  cwd?: string;
  /** Workspace roots (Cursor `workspace_roots`) or [cwd]. */
  workspaceRoots?: string[];
  /** The user's prompt text (user-prompt-submit). */
  prompt?: string;
  /** The assistant's final text for the turn (stop), when the payload has it. */
  assistantText?: string;
  /** Path of the host's transcript file, when the payload gives one. */
  transcriptPath?: string;
  /** SessionStart source: startup | resume | clear | compact (Claude Code). */
  source?: string;
  /** PreCompact trigger: manual | auto. */
  trigger?: string;
  /** The raw parsed payload, for adapter-specific needs. */
  raw: unknown;
}

/** What a lifecycle handler produced; the adapter renders it for the host. */
export interface LifecycleOutput {
  /** Text to inject into the model's context (session-start recall, etc.). */
  additionalContext?: string;
}

/** Maps one host's events and payloads (each adapter cites its source for every field). */
export interface HostAdapter {
  host: HostId;
  /** The native event names this adapter accepts, in the host's documented order (`hive-mind hook --help` lists them). */
  readonly events: readonly string[];
  /** Native event name -> lifecycle, or undefined for events we do not handle. */
  lifecycleOf(nativeEvent: string): Lifecycle | undefined;
  /** Parse a payload (already JSON-parsed, possibly of the wrong shape) into a LifecycleInput. */
  normalize(nativeEvent: string, payload: unknown): LifecycleInput;
  /**
   * Render the output the host expects on stdout: a JSON string, or '' to print
   * nothing. Must be valid for the host even when `out` is empty.
   */
  render(nativeEvent: string, out: LifecycleOutput): string;
  /**
   * Optional: replace the shared dispatch for this host. Call `ctx.runLifecycle(input)`
   * for the shared behaviour, then add host extras (e.g. Hermes compact-on-stop calls
   * `ctx.cleanup(input)` after the Stop save). Must not throw for expected failures;
   * anything thrown is logged by the runner, which then prints `render(event, {})`.
   */
  handle?(input: LifecycleInput, ctx: HookContext): Promise<LifecycleOutput>;
}

/** What the runner hands to {@link HostAdapter.handle}. */
export interface HookContext {
  env: NodeJS.ProcessEnv;
  /** Clock (tests inject one). */
  now(): Date;
  /** The shared lifecycle behaviour (lifecycles.ts `runLifecycle`). */
  runLifecycle(input: LifecycleInput): Promise<LifecycleOutput>;
  /** Run mind cleanup for the input's workspace and the personal mind (what `pre-compact` does). Rejects on failure. */
  cleanup(input: LifecycleInput): Promise<void>;
  /** Append one line to the hooks log (never throws). */
  log(message: string): void;
}

/** Result of an installer action. `diff` is a unified-style diff of each file changed. */
export interface InstallReport {
  host: HostId;
  action: 'install' | 'uninstall';
  dryRun: boolean;
  files: Array<{ path: string; changed: boolean; backup?: string; diff: string }>;
  /** Plain-language steps the user still has to do (e.g. Codex hook trust review). */
  notes: string[];
  /** The host's config folder this install acted on, and why that one (its variable, or the default). */
  configDir: HostConfigDir;
}

/** A host's config folder and why it is that one (from `@hive-mind/transcripts` `hostDir`). */
export interface HostConfigDir {
  dir: string;
  /** `env`: the host's variable (`variable`) gave it; `default`: the variable is unset (or the host has none). */
  source: 'env' | 'default';
  variable?: string;
  /** `<dir> (from CLAUDE_CONFIG_DIR)`, `<dir> (default; CLAUDE_CONFIG_DIR is not set)`. */
  why: string;
}

/** Result of `verify`: each installed hook run with a sample payload. */
export interface VerifyReport {
  host: HostId;
  ok: boolean;
  /** False when nothing of hive-mind's is installed for the host (then `ok` is false and `hooks` is empty). */
  installed: boolean;
  hooks: Array<{ event: string; command: string; exitCode: number | null; ms: number; stdout: string; ok: boolean; error?: string }>;
  /** Set when the hooks verified are those of the host's own install of the hive-mind plugin (no `hive-mind install` hooks in its config). */
  plugin?: { id: string; root: string; version?: string };
  /** The host's config folder verify read, and why that one. */
  configDir?: HostConfigDir;
  /** What works only through a run-time fallback (e.g. the node recorded at install is gone and node from PATH runs the hooks), with the command that fixes it. */
  notes?: string[];
}

/** Options common to installers. `home` replaces `os.homedir()` (tests use a temp HOME). */
export interface InstallOptions {
  home?: string;
  dryRun?: boolean;
  /**
   * The command prefix hosts should run (`<prefix> hook <host> <event>`), written as given.
   * Default: the launcher `<hive-mind home>/bin/run-hive-mind` (install/launcher.ts), which
   * records `cli` and finds the CLI at run time when that is gone.
   */
  command?: string;
  /** The node and CLI the launcher records (absolute paths); default this process's node and the `hive-mind` package's bin, when it can be found. */
  cli?: { node: string; cli: string };
  env?: NodeJS.ProcessEnv;
}

/** An installed, enabled hive-mind plugin: its cached folder, version and the hooks its hooks/hooks.json runs. */
export interface InstalledPlugin {
  id: string;
  root: string;
  version?: string;
  hooksFile: string;
  hooks: Array<{ event: string; command: string; file: string }>;
  /** The variables the host sets for the plugin's hooks (both hosts: the cached folder). */
  env: Record<string, string>;
}

/** The hosts with a hive-mind plugin (`plugins/<host>`; install/plugin-remove.ts holds one row each). */
export type PluginHost = Extract<HookHost, 'claude-code' | 'codex'>;

/** What `removePlugin` did (or, with `dryRun`, would do). */
export interface PluginRemovalReport {
  host: PluginHost;
  dryRun: boolean;
  /** Config files looked at: changed or not, the backup of a changed one, and the diff. */
  files: Array<{ path: string; changed: boolean; backup?: string; diff: string }>;
  /** Folders removed (the plugin's cached copies, a cloned marketplace). */
  removed: string[];
  configDir: HostConfigDir;
}

/** One host's installer: edits the host's own config file(s), preserving the user's content. */
export interface HostInstaller {
  host: HostId;
  install(opts?: InstallOptions): Promise<InstallReport>;
  uninstall(opts?: InstallOptions): Promise<InstallReport>;
  verify(opts?: InstallOptions): Promise<VerifyReport>;
  /** Our hooks as they are in the host's config files now (event, command, file), without running them; none when not installed. */
  installed(opts?: InstallOptions): Array<{ event: string; command: string; file: string }>;
  /** The host's enabled hive-mind plugin (hosts with a plugin format: Claude Code, Codex), undefined when none. */
  plugin?(opts?: InstallOptions): InstalledPlugin | undefined;
  /** Remove the hive-mind plugin with its marketplace entry and cached copies (Claude Code, Codex; see install/plugin-remove.ts). Throws HostConfigError for a config it cannot edit; nothing is changed then. */
  removePlugin?(opts?: InstallOptions): PluginRemovalReport;
}
