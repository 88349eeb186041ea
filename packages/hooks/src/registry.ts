/**
 * Host adapter registry: HostId -> lazy loader of the module exporting `adapter`.
 * The hook path loads only the adapter of the host being run. To add a host, add one
 * line here (its module must `export const adapter: HostAdapter`).
 */
import type { HostAdapter, HostId } from './types.js';

type AdapterModule = { adapter: HostAdapter };

const loaders: Partial<Record<HostId, () => Promise<AdapterModule>>> = {
  'claude-code': () => import('./hosts/claude-code.js'),
  codex: () => import('./hosts/codex.js'),
  cursor: () => import('./hosts/cursor.js'),
  openclaw: () => import('./hosts/openclaw.js'),
  hermes: () => import('./hosts/hermes.js'),
  // cursor, openclaw, hermes: one line each, e.g. `cursor: () => import('./hosts/cursor.js'),`
};

/** Every host id hive-mind knows, registered or not. */
export const HOST_IDS: readonly HostId[] = ['claude-code', 'codex', 'cursor', 'openclaw', 'hermes'];

/** Host ids with a registered adapter. */
export function registeredHosts(): HostId[] {
  return HOST_IDS.filter((h) => loaders[h]);
}

/** The adapter of `host`, or undefined for an unknown or unregistered host. */
export async function loadAdapter(host: string): Promise<HostAdapter | undefined> {
  const load = (loaders as Record<string, (() => Promise<AdapterModule>) | undefined>)[host];
  if (!load || !Object.prototype.hasOwnProperty.call(loaders, host)) return undefined;
  return (await load()).adapter;
}
