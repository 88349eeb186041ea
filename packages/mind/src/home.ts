import { userHome } from '@hive-mind/transcripts/user-home';
import { join, resolve } from 'node:path';

/**
 * The hive-mind home directory: `HIVE_MIND_HOME` when set (resolved to an absolute path),
 * else `~/.hive-mind`. A module of its own (`@hive-mind/mind/home`, node builtins and
 * transcripts' user-home only) so the hook launcher finds its code cache before it loads the hook.
 */
export function mindHome(env: NodeJS.ProcessEnv = process.env): string {
  const h = env.HIVE_MIND_HOME;
  if (h && h.trim()) return resolve(h);
  return join(userHome(env), '.hive-mind');
}
