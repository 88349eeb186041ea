import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { HostId } from '../types.js';

/** Quote one word for POSIX `sh` (single quotes) when it holds anything but safe characters. */
export function shQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command prefix hosts run: `<node> <absolute path of bin/hive-mind.js>`, both
 * quoted for `sh`, so the hook works without `hive-mind` on the host's PATH. The bin is
 * found from the `hive-mind` package (the CLI); throws when it cannot be found (pass
 * `command` explicitly then).
 */
export function defaultHookCommand(): string {
  const req = createRequire(import.meta.url);
  let bin: string | undefined;
  try {
    bin = join(dirname(req.resolve('hive-mind/package.json')), 'bin', 'hive-mind.js');
  } catch {
    bin = undefined;
  }
  if (!bin || !existsSync(bin)) throw new Error('cannot locate the hive-mind CLI (package "hive-mind"); pass the hook command explicitly');
  return `${shQuote(process.execPath)} ${shQuote(realpathSync(bin))}`;
}

/** `<prefix> hook <host> <event>`: the full command of one installed hook. */
export function hookCommand(prefix: string, host: HostId, event: string): string {
  return `${prefix} hook ${host} ${event}`;
}

/**
 * The marker of our entries: a command whose program word ends in `hive-mind` or
 * `hive-mind.js` and whose arguments start with `hook <host> <event>`. Returns the event,
 * or undefined for any other command (the user's own hooks).
 */
export function ourHookEvent(command: unknown, host: HostId): string | undefined {
  if (typeof command !== 'string') return undefined;
  const re = new RegExp(`(?:^|[\\s'"/])hive-mind(?:\\.js)?['"]?\\s+hook\\s+${host.replace(/[-]/g, '\\-')}\\s+([A-Za-z:_.-]+)\\s*$`);
  return re.exec(command)?.[1];
}
