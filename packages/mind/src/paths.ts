import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { mindHome } from './home.js';

export { mindHome };

/** `<home>/personal.mind`. */
export function personalMindPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(mindHome(env), 'personal.mind');
}

/**
 * `<home>/workspaces/<safe id>.mind`. The id is mapped by {@link safeFileName}, so any
 * string (a path, a URL, a key with `/`, `..`, NUL or control characters) stays inside
 * `<home>/workspaces`.
 */
export function workspaceMindPath(id: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(mindHome(env), 'workspaces', `${safeFileName(id)}.mind`);
}

/** `<home>/memories`. */
export function memoriesDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(mindHome(env), 'memories');
}

/**
 * `<home>/team/synced`: its mtime is the last complete team sync of this home (written by
 * `@hive-mind/team`; the SessionStart hook compares it with one `stat`).
 */
export function teamSyncStampPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(mindHome(env), 'team', 'synced');
}

/** `<home>/logs/hooks.log` (written by the hooks package; read by `doctor`). */
export function hooksLogPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(mindHome(env), 'logs', 'hooks.log');
}

const MAX_NAME = 80;

/**
 * Map any string to a safe single path component: `[A-Za-z0-9._-]` only, no leading dot,
 * never `.`/`..`, at most 80 + 9 characters. When anything had to change (or the
 * name was long), an 8-hex-digit SHA-256 prefix of the original is appended so distinct keys
 * stay distinct. Throws nothing; an empty key maps to `_empty-<hash>`.
 */
export function safeFileName(key: string): string {
  const cleaned = key
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/\.{2,}/g, '_')
    .replace(/^[._-]+/, '')
    .replace(/[._-]+$/, '')
    .slice(0, MAX_NAME);
  if (cleaned && cleaned === key) return cleaned;
  const h = createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 8);
  return `${cleaned || '_empty'}-${h}`;
}
