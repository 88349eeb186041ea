import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startPostgres, type PgCluster } from '../../../test-support/postgres.js';

const PKG_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_DIR = join(PKG_DIR, '..', '..');
export const CLI_BIN = join(REPO_DIR, 'packages', 'cli', 'bin', 'hive-mind.js');
export const MEMBER_SCRIPT = join(PKG_DIR, 'test', 'member.mjs');

/** Child processes run the compiled packages: build the CLI (and what it references) once. */
export function ensureBuilt(): void {
  execFileSync(process.execPath, [join(REPO_DIR, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', join(REPO_DIR, 'packages', 'cli')], { cwd: REPO_DIR, stdio: 'inherit' });
}

/** A team server for tests: a temporary cluster, an admin role owning database `team`, login roles with passwords in a PGPASSFILE. */
export interface TeamServer {
  pg: PgCluster;
  dir: string;
  /** `postgresql://<role>@127.0.0.1:<port>/team`, no password. */
  url(role: string): string;
  /** The PGPASSFILE holding every role's password. */
  passfile: string;
  /** A client as the superuser (Unix socket). */
  admin(): Promise<pg.Client>;
  /** A client as `role` over TCP with its password. */
  as(role: string): Promise<pg.Client>;
  /** Make login roles (password `<role>-pw`). */
  addRoles(...roles: string[]): Promise<void>;
  stop(): Promise<void>;
}

export async function startTeamServer(): Promise<TeamServer> {
  const cluster = await startPostgres();
  const dir = mkdtempSync(join(tmpdir(), 'hm-team-'));
  const passfile = join(dir, 'pgpass');
  const lines: string[] = [];
  const writePass = () => {
    writeFileSync(passfile, lines.join('\n') + '\n', { mode: 0o600 });
    chmodSync(passfile, 0o600);
  };
  const su = async () => {
    const c = new pg.Client({ ...cluster.admin });
    await c.connect();
    return c;
  };
  const server: TeamServer = {
    pg: cluster,
    dir,
    passfile,
    url: (role) => `postgresql://${role}@127.0.0.1:${cluster.port}/team`,
    admin: async () => {
      const c = new pg.Client({ ...cluster.admin, database: 'team' });
      await c.connect();
      return c;
    },
    as: async (role) => {
      const c = new pg.Client({ host: '127.0.0.1', port: cluster.port, user: role, password: `${role}-pw`, database: 'team' });
      await c.connect();
      return c;
    },
    addRoles: async (...roles) => {
      const c = await su();
      try {
        for (const r of roles) {
          await c.query(`CREATE ROLE ${r} LOGIN PASSWORD '${r}-pw'`);
          lines.push(`127.0.0.1:${cluster.port}:*:${r}:${r}-pw`);
        }
      } finally {
        await c.end();
      }
      writePass();
    },
    stop: async () => {
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const c = await su();
  try {
    await c.query("CREATE ROLE hm_admin LOGIN CREATEROLE PASSWORD 'hm_admin-pw'");
    await c.query('CREATE DATABASE team OWNER hm_admin');
  } finally {
    await c.end();
  }
  lines.push(`127.0.0.1:${cluster.port}:*:hm_admin:hm_admin-pw`);
  writePass();
  return server;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `node <script> ...args` with `env` added to this process's environment (PGPASSWORD removed). */
export function runNode(script: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<RunResult> {
  return new Promise((resolve) => {
    const full = { ...process.env, ...env };
    delete full.PGPASSWORD;
    execFile(process.execPath, [script, ...args], { env: full, timeout: timeoutMs, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** Run the real CLI as a member: `HIVE_MIND_HOME=home`, the test server's PGPASSFILE. */
export const cli = (server: TeamServer, home: string, args: string[]) => runNode(CLI_BIN, args, { HIVE_MIND_HOME: home, PGPASSFILE: server.passfile, HOME: home });
