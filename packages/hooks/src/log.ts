import { appendFileSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { hooksLogPath } from '@hive-mind/mind/paths';
import { redactSecrets } from '@hive-mind/mind/redact';
import { ensureDir } from './mkdir.js';

/** Rotate `hooks.log` to `hooks.log.1` once it reaches this many bytes (one generation kept: at most ~2 × 512 KiB on disk). */
export const HOOK_LOG_MAX_BYTES = 512 * 1024;

/** `<home>/logs/hooks.log`: the mind's `hooksLogPath`, from its paths module alone (no SQLite load for a failing run). */
export function hookLogPath(env: NodeJS.ProcessEnv): string {
  return hooksLogPath(env);
}

/**
 * The fallback log used when `<home>/logs/hooks.log` cannot be written (read-only or
 * missing home): `<os tmpdir>/hive-mind-hooks-<uid>.log`.
 */
export function fallbackHookLogPath(): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return join(tmpdir(), `hive-mind-hooks-${uid}.log`);
}

/** One log line's field: secrets redacted, line breaks and tabs as spaces, other control characters (C0, DEL, C1) as `\xNN`, at most 2,000 characters. */
function oneLine(s: string): string {
  return redactSecrets(s.slice(0, 8000))
    .text.replace(/[\r\n\t]+/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .slice(0, 2000);
}

function appendRotating(path: string, line: string): void {
  ensureDir(dirname(path)); // bounded: recursive mkdir can spin forever (see ensureDir)
  try {
    if (statSync(path).size >= HOOK_LOG_MAX_BYTES) renameSync(path, path + '.1');
  } catch {
    // no log yet
  }
  appendFileSync(path, line, { encoding: 'utf8', mode: 0o600 });
}

/**
 * Append one line `ISO-time host event: message` (secrets redacted) to the hooks log at `path`
 * (normally `<home>/logs/hooks.log`), rotating it at {@link HOOK_LOG_MAX_BYTES}.
 * When that fails, writes to {@link fallbackHookLogPath}; when that fails too, the line
 * is dropped. Never throws. Returns the path written, or undefined.
 */
export function logHookLine(path: string | undefined, host: string, event: string, message: string): string | undefined {
  const line = `${new Date().toISOString()} ${oneLine(host || '-')} ${oneLine(event || '-')}: ${oneLine(message)}\n`;
  for (const p of [path, fallbackHookLogPath()]) {
    if (!p) continue;
    try {
      appendRotating(p, line);
      return p;
    } catch {
      // try the next location
    }
  }
  return undefined;
}
