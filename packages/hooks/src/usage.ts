/**
 * Usage text of `hive-mind hook HOST EVENT` (printed for `--help`, `-h` or missing
 * arguments). Built from the host table (via registry.ts) and each adapter's own event list,
 * so it lists exactly the hosts and native event names the runner accepts.
 */
import { HOSTS } from './registry.js';

/** Native event names per host, in table order (loads every adapter). */
export async function hookEventsByHost(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const h of HOSTS) out[h.id] = [...(await h.adapter()).adapter.events];
  return out;
}

/** The multi-line usage text (ends with a newline). */
export async function hookUsage(): Promise<string> {
  const rows = Object.entries(await hookEventsByHost()).map(([h, ev]) => `  ${h.padEnd(12)} ${ev.join(', ')}`);
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
