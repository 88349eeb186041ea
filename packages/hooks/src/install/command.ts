import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { HostId } from '../types.js';

/** Quote one word for POSIX `sh` (single quotes) when it holds anything but safe characters. */
export function shQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * This process's node and the real path of the `hive-mind` package's `bin/hive-mind.js`
 * (the CLI), or undefined when that package cannot be found from here.
 */
export function locateCli(): { node: string; cli: string } | undefined {
  const req = createRequire(import.meta.url);
  try {
    const bin = join(dirname(req.resolve('hive-mind/package.json')), 'bin', 'hive-mind.js');
    return existsSync(bin) ? { node: process.execPath, cli: realpathSync(bin) } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `<node> <absolute path of bin/hive-mind.js>`, both quoted for `sh` (what installs wrote before
 * the launcher, install/launcher.ts). Throws when the `hive-mind` package cannot be found.
 */
export function defaultHookCommand(): string {
  const found = locateCli();
  if (!found) throw new Error('cannot locate the hive-mind CLI (package "hive-mind"); pass the hook command explicitly');
  return `${shQuote(found.node)} ${shQuote(found.cli)}`;
}

/** `<prefix> hook <host> <event>`: the full command of one installed hook. */
export function hookCommand(prefix: string, host: HostId, event: string): string {
  return `${prefix} hook ${host} ${event}`;
}

/**
 * The marker of our entries: a command whose program word ends in `hive-mind`,
 * `hive-mind.js` or `run-hive-mind` (the launcher) and whose arguments are `hook <host>
 * <event>`. Returns the event, or undefined for any other command (the user's own hooks).
 */
export function ourHookEvent(command: unknown, host: HostId): string | undefined {
  if (typeof command !== 'string') return undefined;
  const re = new RegExp(`(?:^|[\\s'"/])(?:run-)?hive-mind(?:\\.js)?['"]?\\s+hook\\s+${host.replace(/[-]/g, '\\-')}\\s+([A-Za-z:_.-]+)\\s*$`);
  return re.exec(command)?.[1];
}
