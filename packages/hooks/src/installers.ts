/**
 * Installer registry: HostId -> lazy loader of the module exporting `installer`.
 * To add a host, add one line here (its module must `export const installer: HostInstaller`).
 */
import type { HostId, HostInstaller } from './types.js';
import { HOST_IDS } from './registry.js';

type InstallerModule = { installer: HostInstaller };

const loaders: Partial<Record<HostId, () => Promise<InstallerModule>>> = {
  'claude-code': () => import('./hosts/claude-code-install.js'),
  codex: () => import('./hosts/codex-install.js'),
  cursor: () => import('./hosts/cursor-install.js'),
  openclaw: () => import('./hosts/openclaw-install.js'),
  hermes: () => import('./hosts/hermes-install.js'),
  // cursor, openclaw, hermes: one line each, e.g. `cursor: () => import('./hosts/cursor-install.js'),`
};

/** Host ids with a registered installer. */
export function installableHosts(): HostId[] {
  return HOST_IDS.filter((h) => loaders[h]);
}

/** The installer of `host`, or undefined for an unknown or unregistered host. */
export async function loadInstaller(host: string): Promise<HostInstaller | undefined> {
  if (!Object.prototype.hasOwnProperty.call(loaders, host)) return undefined;
  const load = (loaders as Record<string, () => Promise<InstallerModule>>)[host]!;
  return (await load()).installer;
}
