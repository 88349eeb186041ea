import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built CLI launcher (tests that spawn it need `npx tsc -b packages/cli` first). */
export const CLI = fileURLToPath(new URL('../../cli/bin/hive-mind.js', import.meta.url));
/** shared/data beside the repository. */
export const DATA = fileURLToPath(new URL('../../../../shared/data/', import.meta.url));

/** Line `n` (0-based) of a recorded host payload file, parsed, with `/home/user/project` replaced by `cwd`. */
export function payload(host: 'claude-code' | 'codex', event: string, n: number, cwd?: string): Record<string, unknown> {
  const lines = readFileSync(join(DATA, 'host-payloads', host, `${event}.jsonl`), 'utf8').split('\n').filter(Boolean);
  let text = lines[n]!;
  if (cwd) text = text.split('/home/user/project').join(cwd);
  return JSON.parse(text) as Record<string, unknown>;
}

/** A temp dir with `project/.git` (a workspace root) and an empty hive-mind home. */
/** The hosts' folder variables unset, so a test's temp HOME decides every host folder (a value undefined is not passed to a child). */
export const NO_HOST_DIRS = { CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined, PI_CODING_AGENT_DIR: undefined, HERMES_HOME: undefined, OPENCLAW_STATE_DIR: undefined, OPENCLAW_CONFIG_PATH: undefined };

export function sandbox(): { root: string; home: string; project: string; env: NodeJS.ProcessEnv } {
  const root = mkdtempSync(join(tmpdir(), 'hm-hooks-'));
  const project = join(root, 'project');
  mkdirSync(join(project, '.git'), { recursive: true });
  const home = join(root, 'hm');
  return { root, home, project, env: { ...process.env, ...NO_HOST_DIRS, HIVE_MIND_HOME: home, HOME: join(root, 'home') } };
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  killedByTest: boolean;
}

/** Spawn `node CLI ...args` with `stdin` (a string/Buffer, or 'hold' to keep stdin open). Killed after `killMs` (reported, not asserted on time). */
export function runCli(args: string[], stdin: string | Buffer | 'hold', env: NodeJS.ProcessEnv, killMs = 90_000): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killedByTest = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const t = setTimeout(() => {
      killedByTest = true;
      child.kill('SIGKILL');
    }, killMs);
    child.on('close', (code, signal) => {
      clearTimeout(t);
      resolve({ code, signal, stdout, stderr, killedByTest });
    });
    child.stdin.on('error', () => undefined);
    if (stdin !== 'hold') child.stdin.end(stdin);
  });
}

/** Lines of a log file ([] when missing). */
export function logLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** The first config of an installer spec, as install (with `prefix`) or uninstall sees it. */
export function configOf(spec: import('../src/install/installer.js').InstallerSpec, prefix?: string, home = '/home/user'): import('../src/install/core.js').HostConfigSpec {
  return spec.configs({ home, env: {} }, prefix)[0]!;
}
