/**
 * Usage text of `hive-mind hook HOST EVENT` (printed for `--help`, `-h` or missing
 * arguments). Built from the adapters' own event tables, so it lists exactly the native
 * event names the runner accepts per host.
 */
import { CLAUDE_CODE_EVENTS } from './hosts/claude-code.js';
import { CODEX_EVENTS } from './hosts/codex.js';
import { CURSOR_EVENTS } from './hosts/cursor.js';
import { HERMES_EVENTS } from './hosts/hermes.js';
import { OPENCLAW_EVENTS } from './hosts/openclaw.js';

/** Native event names per host, in the adapters' order. */
export function hookEventsByHost(): Record<string, string[]> {
  return {
    'claude-code': [...CLAUDE_CODE_EVENTS],
    codex: [...CODEX_EVENTS],
    cursor: Object.keys(CURSOR_EVENTS),
    openclaw: Object.keys(OPENCLAW_EVENTS),
    hermes: Object.keys(HERMES_EVENTS),
  };
}

/** The multi-line usage text (ends with a newline). */
export function hookUsage(): string {
  const rows = Object.entries(hookEventsByHost()).map(([h, ev]) => `  ${h.padEnd(12)} ${ev.join(', ')}`);
  return [
    'Usage: hive-mind hook <host> <event>',
    '',
    'Runs one lifecycle hook the way an agent host does: reads the host\'s JSON payload on',
    'stdin, stores/recalls memory, prints what the host expects on stdout. Always exits 0;',
    'failures go to <hive-mind home>/logs/hooks.log. `hive-mind install <host>` registers it.',
    '',
    'Hosts and events:',
    ...rows,
    '',
  ].join('\n');
}
