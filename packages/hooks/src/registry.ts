/**
 * The host table: one row per host hive-mind installs into, with lazy loaders of its
 * adapter (the hook path loads only the adapter of the host being run) and its installer.
 * `HostId`, `HOST_IDS`, the CLI's host lists and the README's host list all derive from
 * it (test/registry.test.ts checks the README). Adding a host is its own files plus one
 * row here (the adapter module exports `adapter: HostAdapter`, the installer module
 * `installer: HostInstaller`).
 */
import type { HostAdapter, HostInstaller } from './types.js';

/** The hosts, in the order help texts list them. */
export const HOSTS = [
  { id: 'claude-code', name: 'Claude Code', adapter: () => import('./hosts/claude-code.js'), installer: () => import('./hosts/claude-code-install.js') },
  { id: 'codex', name: 'Codex', adapter: () => import('./hosts/codex.js'), installer: () => import('./hosts/codex-install.js') },
  { id: 'cursor', name: 'Cursor', adapter: () => import('./hosts/cursor.js'), installer: () => import('./hosts/cursor-install.js') },
  { id: 'openclaw', name: 'OpenClaw', adapter: () => import('./hosts/openclaw.js'), installer: () => import('./hosts/openclaw-install.js') },
  { id: 'hermes', name: 'Hermes', adapter: () => import('./hosts/hermes.js'), installer: () => import('./hosts/hermes-install.js') },
] as const satisfies ReadonlyArray<{ id: string; name: string; adapter: () => Promise<{ adapter: HostAdapter }>; installer: () => Promise<{ installer: HostInstaller }> }>;

/** Hosts hive-mind installs into (derived from {@link HOSTS}). */
export type HostId = (typeof HOSTS)[number]['id'];

/** Every host id, in table order. */
export const HOST_IDS: readonly HostId[] = HOSTS.map((h) => h.id);

function row(host: string) {
  return HOSTS.find((h) => h.id === host);
}

/** Host ids with a registered adapter (every row has one). */
export function registeredHosts(): HostId[] {
  return [...HOST_IDS];
}

/** The adapter of `host`, or undefined for an unknown host. */
export async function loadAdapter(host: string): Promise<HostAdapter | undefined> {
  const r = row(host);
  return r ? (await r.adapter()).adapter : undefined;
}
