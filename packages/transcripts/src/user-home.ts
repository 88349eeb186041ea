import { homedir } from 'node:os';
import { resolve } from 'node:path';

/**
 * The user's home: `$HOME` when set and not empty, else the OS's idea of it. A module of its own
 * (`@hive-mind/transcripts/user-home`, node builtins only) so the hook launcher can find the
 * hive-mind home before it loads anything else.
 */
export function userHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.HOME && env.HOME.trim() ? env.HOME : homedir());
}
