/**
 * Installer lookup over the registry's loaders (registry.ts): HostId -> the module's `installer`,
 * loaded lazily (installers pull in jsonc-parser, json5, yaml and smol-toml).
 */
import type { HostId, HostInstaller } from './types.js';
import { HOSTS, HOST_IDS } from './registry.js';

/** Host ids with an installer (every row of the host table has one). */
export function installableHosts(): HostId[] {
  return [...HOST_IDS];
}

/** The installer of `host`, or undefined for an unknown host. */
export async function loadInstaller(host: string): Promise<HostInstaller | undefined> {
  const r = HOSTS.find((h) => h.id === host);
  return r ? (await r.installer()).installer : undefined;
}
