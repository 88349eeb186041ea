import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The hosts whose own folder (config, sessions, plugins) hive-mind reads or writes. */
export type HostDirHost = 'claude-code' | 'codex' | 'pi' | 'hermes' | 'cursor' | 'openclaw';

/** Where a host keeps its files, and why there. */
export interface HostDir {
  host: HostDirHost;
  /** Absolute path of the folder. */
  dir: string;
  /** The variable that moves the folder (none for Cursor). */
  variable?: string;
  /** `env`: the variable is set and gives `dir`; `default`: it is unset (or empty) and `dir` is the host's default. */
  source: 'env' | 'default';
  /** The default folder, under `HOME` (where the host reads when the variable is unset). */
  defaultDir: string;
  /** One line for the user: the folder and why, e.g. `/tmp/c (from CLAUDE_CONFIG_DIR)` or `/home/u/.claude (default; CLAUDE_CONFIG_DIR is not set)`. */
  why: string;
}

/**
 * Each host's rule, from its own source or docs:
 * - Claude Code: `$CLAUDE_CONFIG_DIR`, else `~/.claude` (Claude Code docs, "Claude Code settings":
 *   the variable moves every file Claude Code keeps, settings.json, plugins and projects/ included;
 *   the pinned 2.1.332 reads its hooks from `$CLAUDE_CONFIG_DIR/settings.json`, hooks e2e test).
 * - Codex: `$CODEX_HOME` when set and not empty, else `~/.codex` (codex-rs `find_codex_home`; a set
 *   CODEX_HOME must be an existing directory, else Codex refuses to start).
 * - pi: `$PI_CODING_AGENT_DIR` (`~` and `~/…` expanded), else `~/.pi/agent` (pi-mono
 *   `packages/coding-agent` `getAgentDir`).
 * - Hermes: `$HERMES_HOME`, else `~/.hermes` (hermes-agent `hermes_constants.get_hermes_home`).
 * - OpenClaw: `$OPENCLAW_STATE_DIR`, else `~/.openclaw` (OpenClaw CLI docs, environment variables;
 *   `$OPENCLAW_CONFIG_PATH` moves only its config file, hooks/openclaw-install.ts).
 * - Cursor: always `~/.cursor` (user hooks in `~/.cursor/hooks.json`, cursor.com/docs/agent/hooks;
 *   no variable moves it).
 */
const RULES: Readonly<Record<HostDirHost, { variable?: string; base: string[]; tilde?: boolean }>> = {
  'claude-code': { variable: 'CLAUDE_CONFIG_DIR', base: ['.claude'] },
  codex: { variable: 'CODEX_HOME', base: ['.codex'] },
  pi: { variable: 'PI_CODING_AGENT_DIR', base: ['.pi', 'agent'], tilde: true },
  hermes: { variable: 'HERMES_HOME', base: ['.hermes'] },
  cursor: { base: ['.cursor'] },
  openclaw: { variable: 'OPENCLAW_STATE_DIR', base: ['.openclaw'] },
};

/** The user's home: `$HOME` when set and not empty, else the OS's idea of it. */
export function userHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.HOME && env.HOME.trim() ? env.HOME : homedir());
}

/**
 * The folder `host` reads its files from under `env` (`HOME` and the host's variable), with the
 * reason (variable or default). The one resolver for both `hive-mind sessions` (session folders)
 * and the hook installers (config files), so both act on the folder the host actually reads.
 */
export function hostDir(host: HostDirHost, env: NodeJS.ProcessEnv = process.env): HostDir {
  const rule = RULES[host];
  const home = userHome(env);
  const defaultDir = join(home, ...rule.base);
  const raw = rule.variable ? env[rule.variable]?.trim() : undefined;
  if (rule.variable && raw) {
    const expanded = rule.tilde && (raw === '~' || raw.startsWith('~/')) ? join(home, raw.slice(1)) : raw;
    const dir = resolve(expanded);
    return { host, dir, variable: rule.variable, source: 'env', defaultDir, why: `${dir} (from ${rule.variable})` };
  }
  return {
    host,
    dir: defaultDir,
    ...(rule.variable ? { variable: rule.variable } : {}),
    source: 'default',
    defaultDir,
    why: rule.variable ? `${defaultDir} (default; ${rule.variable} is not set)` : `${defaultDir} (the only place it reads)`,
  };
}
