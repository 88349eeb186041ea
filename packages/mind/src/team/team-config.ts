import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { MindError } from '../errors.js';
import { mindHome, personalMindPath, workspaceMindPath } from '../paths.js';

/**
 * The team connections file, `<home>/team.json` (written by `@hive-mind/team`: `hive-mind team
 * connect`), read here without any network code so the hooks can tell which team a capture goes to
 * and whether a sync is due. It holds a URL without a password, or a libpq service name: the
 * password comes from `PGPASSWORD`, `PGPASSFILE` (default `~/.pgpass`) or the service file, never
 * from our files.
 */

/** One recorded connection. Exactly one of `url` and `service` is set. */
export interface TeamConnection {
  team: string;
  /** `postgres://user@host:port/db?sslmode=...`, never with a password. */
  url?: string;
  /** A libpq service name (`pg_service.conf`). */
  service?: string;
  /** The workspace id this connection serves; absent: every workspace (the personal mind). */
  workspace?: string;
  /** The server login role, as the URL, the service or `PGUSER` names it (the server records its own `session_user`). */
  member: string;
  connectedAt: string;
}

/** `<home>/team.json`. */
export interface TeamFile {
  /** This home's machine id: `<hostname>-<8 hex>`, made once (two homes on one host are two machines). */
  machine: string;
  connections: TeamConnection[];
}

export function teamFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(mindHome(env), 'team.json');
}

/** Whether a connection URL carries a password (a user name alone is fine). Throws nothing; an unparsable URL is not one. */
export function urlHasPassword(url: string): boolean {
  try {
    const u = new URL(url);
    return !!u.password || u.searchParams.has('password');
  } catch {
    return false;
  }
}

/**
 * Read `<home>/team.json` (a fresh machine id and no connection when it does not exist yet).
 * Throws `MindError` `INVALID` naming the file and field for a malformed file.
 */
export function readTeamFile(env: NodeJS.ProcessEnv = process.env): TeamFile {
  const path = teamFilePath(env);
  if (!existsSync(path)) return { machine: `${hostname().replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 60)}-${randomBytes(4).toString('hex')}`, connections: [] };
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new MindError(`${path}: not valid JSON (${(e as Error).message}); fix or remove it`, 'INVALID', path);
  }
  const f = v as Partial<TeamFile>;
  if (typeof f.machine !== 'string' || !f.machine) throw new MindError(`${path}: field \`machine\` must be a non-empty string`, 'INVALID', path);
  if (!Array.isArray(f.connections)) throw new MindError(`${path}: field \`connections\` must be an array`, 'INVALID', path);
  f.connections.forEach((c, i) => {
    if (!c || typeof c.team !== 'string') throw new MindError(`${path}: field \`connections[${i}].team\` must be a string`, 'INVALID', path);
    if (!!c.url === !!c.service) throw new MindError(`${path}: connections[${i}] needs exactly one of \`url\` and \`service\``, 'INVALID', path);
    if (c.url && urlHasPassword(c.url)) throw new MindError(`${path}: field \`connections[${i}].url\` holds a password; remove it (use PGPASSFILE, a service file or PGPASSWORD)`, 'INVALID', path);
  });
  return f as TeamFile;
}

/**
 * The connection that serves `workspace` (its own, else the one for every workspace), or the one
 * for `team` when given. Undefined when none is recorded.
 */
export function connectionFor(file: TeamFile, opts: { workspace?: string; team?: string } = {}): TeamConnection | undefined {
  const cs = file.connections;
  if (opts.team) return cs.find((c) => c.team === opts.team && (opts.workspace === undefined || c.workspace === opts.workspace || c.workspace === undefined));
  return (opts.workspace !== undefined ? cs.find((c) => c.workspace === opts.workspace) : undefined) ?? cs.find((c) => c.workspace === undefined);
}

/** The local `.mind` that holds a connection's outbox and pulled cache: the workspace mind, or the personal mind. */
export function cacheMindPath(c: TeamConnection, env: NodeJS.ProcessEnv = process.env): string {
  return c.workspace !== undefined ? workspaceMindPath(c.workspace, env) : personalMindPath(env);
}
