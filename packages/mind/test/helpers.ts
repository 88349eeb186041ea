import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync, spawn } from 'node:child_process';

export const PKG_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_DIR = join(PKG_DIR, '..', '..');
export const DIST_INDEX = join(PKG_DIR, 'dist', 'index.js');
export const CLI_BIN = join(REPO_DIR, 'packages', 'cli', 'bin', 'hive-mind.js');

export function tmp(prefix = 'hm-mind-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function newestMtime(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Child processes run the compiled package: build it when dist is missing or older than src. */
export function ensureBuilt(project: 'mind' | 'cli' = 'mind'): void {
  const pkg = join(REPO_DIR, 'packages', project);
  const out = project === 'mind' ? DIST_INDEX : join(pkg, 'dist', 'bin.js');
  const srcs = project === 'mind' ? [join(PKG_DIR, 'src')] : [join(PKG_DIR, 'src'), join(pkg, 'src')];
  const dists = project === 'mind' ? [join(PKG_DIR, 'dist')] : [join(PKG_DIR, 'dist'), join(pkg, 'dist')];
  const stale = !existsSync(out) || srcs.some((s, i) => newestMtime(s) > newestMtime(dists[i]!));
  if (stale) execFileSync(process.execPath, [join(REPO_DIR, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', pkg], { cwd: REPO_DIR, stdio: 'inherit' });
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `node -e script` (ESM) or a file with args; resolves with exit code and output. */
export function runNode(args: string[], opts: { env?: NodeJS.ProcessEnv; input?: Buffer | string; cwd?: string; uid?: number; gid?: number } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const ids = opts.uid !== undefined ? { uid: opts.uid, gid: opts.gid ?? opts.uid } : {};
    const child = spawn(process.execPath, args, { env: { ...process.env, ...opts.env }, cwd: opts.cwd ?? REPO_DIR, stdio: ['pipe', 'pipe', 'pipe'], ...ids });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}

/** Every byte of a .mind file and its WAL/SHM companions, as latin1 text (for grepping secrets). */
export function rawBytes(path: string): string {
  let s = '';
  for (const p of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) if (existsSync(p)) s += readFileSync(p).toString('latin1');
  return s;
}
