import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pgpass from 'pgpass';
import { parse as parseUrl } from 'pg-connection-string';
import type { TeamConnection } from './config.js';
import { TeamError } from './errors.js';

/**
 * Opening a connection to the team server with node-postgres (`pg`). The password is never in our
 * files: it is `PGPASSWORD`, else the `PGPASSFILE` / `~/.pgpass` entry for host, port, database and
 * user (libpq's rules, read by `pgpass`, the reader `pg` itself uses), else the service file's; a
 * service name is looked up in the libpq service files.
 */

/** How long opening a connection may take before the server counts as unreachable, ms. */
export const CONNECT_TIMEOUT_MS = 5_000;
/** Longest a single statement may run on the server, ms (`statement_timeout`). */
export const STATEMENT_TIMEOUT_MS = 30_000;

/**
 * The entries of service `name` from the libpq service files, in libpq's order: `PGSERVICEFILE`
 * (default `~/.pg_service.conf`), then `PGSYSCONFDIR/pg_service.conf` (Debian: `/etc/postgresql-common`).
 * Source: PostgreSQL documentation, "The Connection Service File" (libpq-pgservice). Throws
 * `TeamError` `CONFIG` when no file defines it.
 */
export function readService(name: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const files = [env.PGSERVICEFILE ?? join(env.HOME || homedir(), '.pg_service.conf'), join(env.PGSYSCONFDIR ?? '/etc/postgresql-common', 'pg_service.conf')];
  for (const file of files) {
    if (!existsSync(file)) continue;
    let section: string | undefined;
    const out: Record<string, string> = {};
    let found = false;
    readFileSync(file, 'utf8').split(/\r?\n/).forEach((raw) => {
      const line = raw.trim();
      if (!line || line.startsWith('#')) return;
      const sec = /^\[(.+)\]$/.exec(line);
      if (sec) {
        section = sec[1]!.trim();
        if (section === name) found = true;
        return;
      }
      const eq = line.indexOf('=');
      if (section === name && eq > 0) out[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
    });
    if (found) return out;
  }
  throw new TeamError(`service ${JSON.stringify(name)} is not defined in ${files.join(' or ')}`, 'CONFIG');
}

/** The `pg` client settings of a recorded connection (or of a URL / service name given on the command line). */
export function clientConfig(target: Pick<TeamConnection, 'url' | 'service'>, env: NodeJS.ProcessEnv = process.env): pg.ClientConfig {
  const base: pg.ClientConfig = {
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: STATEMENT_TIMEOUT_MS + 5_000,
    application_name: 'hive-mind',
    keepAlive: true,
    // pg calls this with the resolved connection parameters (its types say no arguments); undefined: no password
    password: ((params: { host?: string; port?: number; database?: string; user?: string }) =>
      env.PGPASSWORD !== undefined ? Promise.resolve(env.PGPASSWORD) : new Promise<string | undefined>((resolve) => pgpass(params, resolve))) as unknown as () => Promise<string>,
  };
  if (target.url) {
    // parsed here, not passed as connectionString: pg would let the URL's (absent) password replace the lookup below
    const fields = Object.entries(parseUrl(target.url)).filter(([k, v]) => k !== 'password' && v !== undefined && v !== null);
    return { ...base, ...(Object.fromEntries(fields) as pg.ClientConfig) };
  }
  const s = readService(target.service!, env);
  const ssl = s.sslmode && s.sslmode !== 'disable' && s.sslmode !== 'allow' && s.sslmode !== 'prefer' ? { rejectUnauthorized: s.sslmode === 'verify-full' || s.sslmode === 'verify-ca' } : undefined;
  return {
    ...base,
    ...(s.host ? { host: s.host } : {}),
    ...(s.port ? { port: Number(s.port) } : {}),
    ...(s.dbname ? { database: s.dbname } : {}),
    ...(s.user ? { user: s.user } : {}),
    // a password in the user's own service file is libpq's business, not ours to store
    ...(s.password ? { password: s.password } : {}),
    ...(ssl ? { ssl } : {}),
  };
}

/** The login role a connection uses (URL user, service `user`, `PGUSER`, else the OS user), as `pg` resolves it. */
export function memberOf(target: Pick<TeamConnection, 'url' | 'service'>, env: NodeJS.ProcessEnv = process.env): string {
  const cfg = clientConfig(target, env);
  if (cfg.user) return cfg.user;
  return env.PGUSER || env.USER || 'postgres';
}

/** Codes of a failure to reach the server (the outbox waits; nothing is wrong with the frames). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004']);

/** Whether `e` means the server could not be reached or went away (rather than refusing something). */
export function isUnreachable(e: unknown): boolean {
  const err = e as { code?: string; message?: string } | null;
  if (!err) return false;
  if (err.code && UNREACHABLE_CODES.has(err.code)) return true;
  return /timeout|terminated|Connection terminated|connection ended|ECONNREFUSED|not queryable/i.test(err.message ?? '');
}

/** A one-line reason for a failure, for `team status` and the CLI. */
export function describeError(e: unknown): string {
  const err = e as { code?: string; message?: string } | null;
  const msg = (err?.message ?? String(e)).split('\n')[0]!;
  return err?.code && !msg.includes(err.code) ? `${msg} (${err.code})` : msg;
}

/** Open a connected client. Throws `TeamError` `UNREACHABLE` when the server cannot be reached in time, `SERVER` when it refuses the login. */
export async function connect(target: Pick<TeamConnection, 'url' | 'service'>, env: NodeJS.ProcessEnv = process.env): Promise<pg.Client> {
  const client = new pg.Client(clientConfig(target, env));
  // an idle client whose server goes away emits 'error'; without a listener that would crash the process
  client.on('error', () => undefined);
  try {
    await client.connect();
    return client;
  } catch (e) {
    await client.end().catch(() => undefined);
    const where = target.url ? new URL(target.url).host : `service ${target.service}`;
    throw new TeamError(`team server ${where}: ${describeError(e)}`, isUnreachable(e) ? 'UNREACHABLE' : 'SERVER');
  }
}
