import { join, resolve } from 'node:path';
import { HOSTS, type ConfigDirRule, type HostName } from './host-table.js';
import { userHome } from './user-home.js';

export { userHome };

/** The hosts whose own folder (config, sessions, plugins) hive-mind reads or writes: every row of the host table. */
export type HostDirHost = HostName;

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
 * The folder `host` reads its files from under `env` (`HOME` and the host's variable), with the
 * reason (variable or default), by the host's rule in the host table (host-table.ts, with its sources). The one resolver for both `hive-mind sessions` (session folders)
 * and the hook installers (config files), so both act on the folder the host actually reads.
 */
export function hostDir(host: HostDirHost, env: NodeJS.ProcessEnv = process.env): HostDir {
  const rule: ConfigDirRule | undefined = HOSTS.find((r) => r.id === host)?.config;
  if (!rule) throw new TypeError(`unknown host ${JSON.stringify(host)} (the host table has ${HOSTS.map((r) => r.id).join(', ')})`);
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
