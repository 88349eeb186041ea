/**
 * One child process, bounded: its own process group, its input on stdin (never on the command
 * line, where argument limits and `ps` would see it), its output captured up to a cap, and the
 * whole group killed when the caller's signal fires (a timeout, Ctrl-C), when the output passes
 * the cap, when the child exits (what it left running: an MCP server, a hook) and when this
 * process exits first. Used by the host CLI summarizers (`claude -p`, `codex exec`).
 */
import { spawn } from 'node:child_process';

/** Most bytes of stdout (and, apart, of stderr) kept from one child: past it the group is killed. */
export const MAX_CHILD_OUTPUT_BYTES = 8 * 1024 * 1024;
/** After SIGTERM, how long the group has to exit before SIGKILL (ms). */
export const KILL_GRACE_MS = 1000;

/** How a bounded child ended. */
export interface BoundedRun {
  /** Exit code, or null when a signal ended it (or it never started). */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The command was not found (ENOENT) or could not be run (EACCES): `startError` says which. */
  startError?: { code: string; message: string };
  /** Why hive-mind ended it: the caller's signal fired, or the output passed {@link MAX_CHILD_OUTPUT_BYTES}. */
  killed?: 'signal' | 'output';
}

export interface BoundedRunOptions {
  /** Written to stdin, which is then closed. */
  input: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Ends the run: the process group gets SIGTERM, then SIGKILL after {@link KILL_GRACE_MS}. */
  signal?: AbortSignal;
  /** Default {@link MAX_CHILD_OUTPUT_BYTES}. */
  maxOutputBytes?: number;
}

/**
 * Run `command args` in a new process group (see the module comment). Never rejects: a command
 * that cannot start resolves with `startError`, a killed one with `killed`.
 */
export function runBounded(command: string, args: readonly string[], opts: BoundedRunOptions): Promise<BoundedRun> {
  const max = opts.maxOutputBytes ?? MAX_CHILD_OUTPUT_BYTES;
  return new Promise((resolve) => {
    if (opts.signal?.aborted) return resolve({ code: null, signal: null, stdout: '', stderr: '', killed: 'signal' });
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32', windowsHide: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let killed: BoundedRun['killed'];
    let startError: BoundedRun['startError'];
    let graceTimer: NodeJS.Timeout | undefined;
    const killGroup = (sig: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        if (process.platform === 'win32') child.kill(sig);
        else process.kill(-child.pid, sig);
      } catch {
        // the group is gone already
      }
    };
    const stop = (why: NonNullable<BoundedRun['killed']>) => {
      if (killed) return;
      killed = why;
      killGroup('SIGTERM');
      graceTimer = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
      graceTimer.unref();
    };
    const onAbort = () => stop('signal');
    // a detached group outlives this process unless it is killed on the way out
    const onExit = () => killGroup('SIGKILL');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    process.once('exit', onExit);
    child.stdout.on('data', (d: Buffer) => {
      outBytes += d.length;
      if (outBytes > max) stop('output');
      else out.push(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      errBytes += d.length;
      if (errBytes <= max) err.push(d);
    });
    child.stdin.on('error', () => {
      // the child exited (or closed stdin) before reading all of it: its exit says what happened
    });
    let done = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (done) return;
      done = true;
      if (graceTimer) clearTimeout(graceTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      process.removeListener('exit', onExit);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ...(startError ? { startError } : {}),
        ...(killed ? { killed } : {}),
      });
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      startError = { code: e.code ?? 'ERROR', message: e.message };
      // it never started: no exit or close may follow
      if (child.pid === undefined) finish(null, null);
    });
    // what the child left running (a hook, an MCP server) goes with it
    child.on('exit', () => killGroup('SIGKILL'));
    child.on('close', finish);
    if (child.pid !== undefined) child.stdin.end(opts.input);
  });
}
