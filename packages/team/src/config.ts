import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { checkTeamName, connectionFor, readTeamFile, teamFilePath, urlHasPassword, type TeamConnection, type TeamFile } from '@hive-mind/mind';
import { writeFileAtomic } from '@hive-mind/mind/atomic';
import { TeamError } from './errors.js';

/**
 * Writing team connections (`<home>/team.json`, mode 0600; read by the mind's team-config.ts, which
 * the hooks use too). A URL with a password is refused: the password comes from `PGPASSWORD`,
 * `PGPASSFILE` (default `~/.pgpass`) or the service file, never from our files.
 */

export { cacheMindPath, connectionFor, readTeamFile, teamFilePath, type TeamConnection, type TeamFile } from '@hive-mind/mind';

/** Default age of the team cache after which a SessionStart starts a background sync, in minutes (`HIVE_MIND_TEAM_SYNC_AGE_MIN`). */
export const DEFAULT_SYNC_AGE_MIN = 15;

export function writeTeamFile(file: TeamFile, env: NodeJS.ProcessEnv = process.env): void {
  mkdirSync(dirname(teamFilePath(env)), { recursive: true, mode: 0o700 });
  writeFileAtomic(teamFilePath(env), JSON.stringify(file, null, 2) + '\n', { mode: 0o600 });
}

/** Throws `TeamError` (exit 2) when a connection URL carries a password, or is not a URL. */
export function refusePassword(url: string, where = 'the URL'): void {
  try {
    new URL(url);
  } catch {
    throw new TeamError(`${where}: not a postgres:// URL or a service name: ${JSON.stringify(url)}`, 'INVALID');
  }
  if (urlHasPassword(url))
    throw new TeamError(
      `${where} holds a password; hive-mind never stores one. Remove it and put it in PGPASSFILE (default ~/.pgpass, mode 0600), a pg_service.conf entry, or PGPASSWORD`,
      'INVALID',
    );
}

/** Whether `target` is a URL (else a service name). */
export const isUrl = (target: string) => /^postgres(ql)?:\/\//i.test(target);

/** Record (or replace) the connection for `team` on `workspace` (or every workspace). Returns the file written. */
export function addConnection(c: Omit<TeamConnection, 'connectedAt'>, env: NodeJS.ProcessEnv = process.env): TeamFile {
  checkTeamName(c.team);
  if (c.url) refusePassword(c.url);
  const file = readTeamFile(env);
  file.connections = file.connections.filter((x) => x.workspace !== c.workspace);
  file.connections.push({ ...c, connectedAt: new Date().toISOString() });
  writeTeamFile(file, env);
  return file;
}

/** Remove the connection of `workspace` (or the one for every workspace). Returns the removed one. */
export function removeConnection(opts: { workspace?: string; team?: string }, env: NodeJS.ProcessEnv = process.env): TeamConnection | undefined {
  const file = readTeamFile(env);
  const c = connectionFor(file, opts);
  if (!c) return undefined;
  file.connections = file.connections.filter((x) => x !== c);
  writeTeamFile(file, env);
  return c;
}
