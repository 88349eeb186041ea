/**
 * The hooks' half of the host table: each hook host's adapter and installer, as lazy loaders
 * (the hook path loads only the adapter of the host being run). The hosts themselves (id, name,
 * folders, SessionStart sample) are rows of the host table in `@hive-mind/transcripts/hosts`;
 * `HostId` is its `HookHost`, and {@link LOADERS} is typed against it, so a table row with
 * `hooks` but no loader here (or a loader for a host not in the table) does not compile.
 * `HOST_IDS`, the CLI's host lists and the README's host list derive from the table
 * (test/registry.test.ts checks the README). Adding a host: README "Adding a host".
 */
import { HOOK_HOSTS, HOSTS as HOST_ROWS, type HookHost } from '@hive-mind/transcripts/hosts';
import type { HostAdapter, HostInstaller } from './types.js';

/** Hosts hive-mind installs into (the host table's rows with `hooks`). */
export type HostId = HookHost;

/** Each hook host's adapter module (exports `adapter: HostAdapter`) and installer module (exports `installer: HostInstaller`). */
const LOADERS: { readonly [H in HostId]: { adapter: () => Promise<{ adapter: HostAdapter }>; installer: () => Promise<{ installer: HostInstaller }> } } = {
  'claude-code': { adapter: () => import('./hosts/claude-code.js'), installer: () => import('./hosts/claude-code-install.js') },
  codex: { adapter: () => import('./hosts/codex.js'), installer: () => import('./hosts/codex-install.js') },
  cursor: { adapter: () => import('./hosts/cursor.js'), installer: () => import('./hosts/cursor-install.js') },
  openclaw: { adapter: () => import('./hosts/openclaw.js'), installer: () => import('./hosts/openclaw-install.js') },
  hermes: { adapter: () => import('./hosts/hermes.js'), installer: () => import('./hosts/hermes-install.js') },
};

/** One hook host: its id and name (from the host table) with its loaders. */
export interface HookHostEntry {
  id: HostId;
  name: string;
  adapter: () => Promise<{ adapter: HostAdapter }>;
  installer: () => Promise<{ installer: HostInstaller }>;
}

/** Every hook host id, in table order (the order help texts list them). */
export const HOST_IDS: readonly HostId[] = HOOK_HOSTS;

/** The hook hosts, in table order. */
export const HOSTS: readonly HookHostEntry[] = HOST_IDS.map((id) => ({ id, name: HOST_ROWS.find((r) => r.id === id)!.name, ...LOADERS[id] }));

function row(host: string): HookHostEntry | undefined {
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
