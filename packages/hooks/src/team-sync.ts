import { isHistoryKind } from '@hive-mind/mind/history';
import { spawn } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Mind, cacheMindPath, connectionFor, mindHome, readTeamFile, teamFilePath, teamSyncStampPath, type FrameInput, type TeamConnection } from '@hive-mind/mind/hook';
import { envNumber, settingDefault } from '@hive-mind/mind/settings';
import { ensureDir } from './mkdir.js';
import { isStorageFailure } from './storage-failure.js';

/**
 * The SessionStart side of the team mind (mind README "Team mind", "When sync runs"): when this
 * home has a team connection and its last complete sync is older than `HIVE_MIND_TEAM_SYNC_AGE_MIN`
 * (default 15 minutes), start `command` (the CLI's `team sync --all --quiet`) as a detached child
 * and return at once. The hook itself never opens a network connection and never waits: the
 * child's output goes nowhere, its result lands in the mind and in `team status`.
 */

/** Default age of the team cache that starts a background sync, minutes. */
const DEFAULT_TEAM_SYNC_AGE_MIN = settingDefault('HIVE_MIND_TEAM_SYNC_AGE_MIN');

const mtimeMs = (p: string) => {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return 0;
  }
};

/**
 * Start a background team sync when one is due. A start is recorded in `<home>/team/sync-started`,
 * so a server that stays down is tried once per age window, not by every session. Returns whether
 * a child was started. Never throws.
 */
export function startTeamSyncIfStale(env: NodeJS.ProcessEnv, command: readonly string[], now = Date.now()): boolean {
  try {
    const home = mindHome(env);
    if (!command.length || !existsSync(join(home, 'team.json'))) return false;
    const ageMs = envNumber(env, 'HIVE_MIND_TEAM_SYNC_AGE_MIN') * 60_000;
    const stamp = teamSyncStampPath(env);
    const started = join(dirname(stamp), 'sync-started');
    if (mtimeMs(stamp) > now - ageMs || mtimeMs(started) > now - ageMs) return false;
    ensureDir(dirname(stamp), 0o700);
    writeFileSync(started, `${process.pid} ${new Date(now).toISOString()}\n`, { mode: 0o600 });
    const child = spawn(command[0]!, command.slice(1), { detached: true, stdio: 'ignore', env });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

/** Kinds of hook captures the user shares with the team: `HIVE_MIND_TEAM_KINDS`, comma-separated (e.g. `decision,instruction`); none by default. */
function teamKinds(env: NodeJS.ProcessEnv): Set<string> {
  return new Set((env.HIVE_MIND_TEAM_KINDS ?? '').split(',').map((k) => k.trim()).filter(Boolean));
}

/**
 * Save the captures whose kind the user opted into ({@link teamKinds}; never temporary ones) as
 * team frames: into the mind of the connection serving their workspace and its outbox, with this
 * home's member and machine (no network: the next sync sends them). Returns the captures to save
 * as usual: the others, and any that could not go to the team (no connection; that mind busy past
 * `busyTimeoutMs`: kept locally rather than lost). Throws other mind errors.
 */
export function shareCaptures(inputs: FrameInput[], env: NodeJS.ProcessEnv, busyTimeoutMs: number): FrameInput[] {
  const kinds = teamKinds(env);
  if (!kinds.size || !existsSync(teamFilePath(env))) return inputs;
  const file = readTeamFile(env);
  const rest: FrameInput[] = [];
  const byConn = new Map<TeamConnection, FrameInput[]>();
  for (const f of inputs) {
    // the history stays on this machine: a turn is what was said, not a fact for the team
    const c = kinds.has(f.kind ?? 'fact') && f.importance !== 'temporary' && !isHistoryKind(f.kind) ? connectionFor(file, f.workspace !== undefined ? { workspace: f.workspace } : {}) : undefined;
    if (!c) rest.push(f);
    else byConn.set(c, [...(byConn.get(c) ?? []), f]);
  }
  for (const [c, frames] of byConn) {
    try {
      const path = cacheMindPath(c, env);
      ensureDir(dirname(path), 0o700);
      const m = Mind.open(path, { busyTimeoutMs });
      try {
        const team = m.team(c.team);
        for (const f of frames) team.save(f, { member: c.member, machine: file.machine });
      } finally {
        m.close();
      }
    } catch (e) {
      // busy, or a full disk under the team cache: they go with the rest (saved or spooled as this member's own)
      if ((e as { code?: string }).code !== 'BUSY' && !isStorageFailure(e)) throw e;
      rest.push(...frames);
    }
  }
  return rest;
}
