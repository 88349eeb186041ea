import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostId, VerifyReport } from '../types.js';
import { commandHealth } from './health.js';

/** One installed hook to verify: its event, command and a sample payload (stdin). */
export interface VerifyTarget {
  event: string;
  command: string;
  /** Builds the stdin payload; `cwd` is a fresh temp directory to use as the session's cwd. */
  payload: (cwd: string) => unknown;
}

function runOne(command: string, stdin: string, env: NodeJS.ProcessEnv, timeoutMs: number, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string; ms: number; error?: string }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn('/bin/sh', ['-c', command], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr, ms: performance.now() - t0, error: e.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - t0, error: code === null ? `killed after ${timeoutMs} ms` : undefined });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

/**
 * Run each target's command through `/bin/sh -c` with its payload on stdin, the way the
 * host does, against a throw-away hive-mind home (`HIVE_MIND_HOME` in a temp dir, so
 * verification never writes into the user's memory). A hook passes when it exits 0
 * within `timeoutMs`, prints nothing or one valid JSON value, and logged no failure to
 * the temp home's `logs/hooks.log`. Targets run in order (so a UserPromptSubmit can
 * seed what a later SessionStart recalls).
 */
export async function verifyCommands(host: HostId, targets: VerifyTarget[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number; launcher?: string } = {}): Promise<VerifyReport> {
  const home = mkdtempSync(join(tmpdir(), 'hive-mind-verify-'));
  const env = { ...(opts.env ?? process.env), HIVE_MIND_HOME: home };
  const cwd = join(home, 'project');
  mkdirSync(cwd);
  const hooks: VerifyReport['hooks'] = [];
  const logFile = join(home, 'logs', 'hooks.log');
  let logged = 0;
  try {
    for (const t of targets) {
      const r = await runOne(t.command, JSON.stringify(t.payload(cwd)), env, opts.timeoutMs ?? 30_000, cwd);
      let error = r.error;
      const out = r.stdout.trim();
      if (!error && r.code !== 0) error = `exit code ${r.code}${r.stderr.trim() ? `: ${r.stderr.trim().split('\n')[0]}` : ''}`;
      if (!error && out) {
        try {
          JSON.parse(out);
        } catch {
          error = 'stdout is not valid JSON';
        }
      }
      let lines: string[] = [];
      try {
        lines = readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
      } catch {
        lines = [];
      }
      if (!error && lines.length > logged) error = `hook logged a failure: ${lines[lines.length - 1]}`;
      logged = lines.length;
      hooks.push({ event: t.event, command: t.command, exitCode: r.code, ms: Math.round(r.ms), stdout: out, ok: !error, ...(error ? { error } : {}) });
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  // the paths the commands name (health.ts): once per distinct command prefix
  const notes: string[] = [];
  const prefixes = new Set(targets.map((t) => t.command.replace(/\s+hook\s+\S+\s+\S+\s*$/, '')));
  for (const prefix of prefixes) {
    const health = commandHealth(`${prefix} hook ${host} -`, host, opts.env ?? process.env, opts.launcher);
    for (const p of health.problems) hooks.unshift({ event: '(paths)', command: prefix, exitCode: null, ms: 0, stdout: '', ok: false, error: p });
    notes.push(...health.notes);
  }
  return { host, ok: hooks.length > 0 && hooks.every((h) => h.ok), installed: hooks.length > 0, hooks, ...(notes.length ? { notes } : {}) };
}
