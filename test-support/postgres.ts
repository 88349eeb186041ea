import { spawnSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A temporary, real PostgreSQL cluster for tests: `initdb` on a fresh data directory, `pg_ctl start`
 * on a free loopback port with its socket in the same temporary directory, removed by `stop()`.
 *
 * Debian's `postgresql` package installs the binaries in `/usr/lib/postgresql/<major>/bin`
 * (`PG_BIN` overrides). The server refuses to run as root, so as root every server program runs as
 * the `postgres` user the package creates (`runuser -u postgres`), on a directory chowned to it.
 *
 * Authentication: the superuser `postgres` connects over the Unix socket without a password
 * (`trust`); every other role connects over TCP with SCRAM passwords, so tests exercise the path a
 * team member uses (password from a PGPASSFILE, never from our files).
 */

/** Where Debian's postgresql 15 puts its programs. */
export const DEFAULT_PG_BIN = '/usr/lib/postgresql/15/bin';

/** Why PostgreSQL tests cannot run here, or undefined when they can (tests skip loudly with this reason). */
export function postgresUnavailable(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const bin = env.PG_BIN ?? DEFAULT_PG_BIN;
  for (const p of ['initdb', 'pg_ctl', 'postgres']) {
    if (!existsSync(join(bin, p))) return `PostgreSQL tests skipped: ${join(bin, p)} is missing (apt-get install -y postgresql, or set PG_BIN)`;
  }
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0)
    return 'PostgreSQL tests skipped: running as root and there is no `postgres` user to run the server as';
  return undefined;
}

export interface PgCluster {
  /** Loopback TCP port. */
  port: number;
  /** Directory of the Unix socket (libpq `host=`). */
  socketDir: string;
  /** Superuser connection over the socket: `{host: socketDir, port, user: 'postgres', database: 'postgres'}`. */
  admin: { host: string; port: number; user: string; database: string };
  /** A `postgresql://` URL for `user` over TCP 127.0.0.1 (no password in it: pass one through PGPASSFILE). */
  url(user: string, database?: string): string;
  /** Start the server again after {@link stopServer} (same data directory and port). */
  start(): Promise<void>;
  /** Stop the server: `fast` closes sessions cleanly, `immediate` is a crash (kill -9 like, recovery on start). */
  stopServer(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Stop the server and remove the data directory. Idempotent. */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function asServerUser(cmd: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

function run(cmd: string, args: string[], timeoutMs = 120_000): Promise<void> {
  const [c, a] = asServerUser(cmd, args);
  return new Promise((resolve, reject) => {
    const p = spawn(c, a, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    const t = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.on('error', reject);
    p.on('close', (code) => {
      clearTimeout(t);
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${out.slice(-2000)}`));
    });
  });
}

/**
 * Create and start a temporary cluster. Throws when a program fails (its output is in the message).
 * `settings` are extra `postgres -c` settings (name -> value).
 */
export async function startPostgres(opts: { settings?: Record<string, string>; env?: NodeJS.ProcessEnv } = {}): Promise<PgCluster> {
  const bin = (opts.env ?? process.env).PG_BIN ?? DEFAULT_PG_BIN;
  const root = mkdtempSync(join(tmpdir(), 'hm-pg-'));
  const data = join(root, 'data');
  const socketDir = join(root, 'sock');
  const logFile = join(root, 'server.log');
  if (process.getuid?.() === 0) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chmodSync(root, 0o755);
    chownSync(root, uid, gid);
  }
  await run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  await run('mkdir', ['-m', '0700', socketDir]);
  const port = await freePort();
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    port: String(port),
    unix_socket_directories: socketDir,
    fsync: 'off',
    max_connections: '100',
    shared_buffers: '64MB',
    ...opts.settings,
  };
  writeFileSync(join(root, 'settings.conf'), Object.entries(settings).map(([k, v]) => `${k} = '${v}'`).join('\n') + '\n');
  // include the settings from postgresql.conf (written by initdb as the server user: append via the server user)
  await run('sh', ['-c', `echo "include '${join(root, 'settings.conf')}'" >> ${join(data, 'postgresql.conf')}`]);
  let stopped = false;
  const cluster: PgCluster = {
    port,
    socketDir,
    admin: { host: socketDir, port, user: 'postgres', database: 'postgres' },
    url: (user, database = 'postgres') => `postgresql://${encodeURIComponent(user)}@127.0.0.1:${port}/${database}`,
    start: () => run(join(bin, 'pg_ctl'), ['-D', data, '-l', logFile, '-w', '-t', '60', 'start']),
    stopServer: (mode = 'fast') => run(join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      try {
        await cluster.stopServer('immediate');
      } catch {
        // already stopped
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}
