import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

/**
 * Worker processes for tests of processes racing each other: each is a real `node` child that loads
 * its modules first, then runs one command per line it is sent, so that a test can start the same
 * step in N processes at the same moment (a process start takes 100-600 ms here, far longer than
 * the races under test). Commands go in on stdin, one JSON value a line; each answer comes back on
 * file descriptor 3 (not stdout, which the code under test may write to), one JSON line per
 * command, in order.
 */

/** One worker process. */
export interface Worker {
  /** The child process. */
  readonly child: ChildProcess;
  /** Send `cmd` (a JSON value); resolves with the worker's answer, or `{ error }` with the stack of what the handler threw. */
  send(cmd: unknown): Promise<any>;
  /** Close stdin (the worker's loop ends) and wait for the exit; resolves with the exit code and stderr. */
  close(): Promise<{ code: number | null; stderr: string }>;
}

/**
 * Start `node` running an ES module made of `prelude` (top-level code: imports, set-up), then a
 * loop calling `handler` (the body of `async (cmd) => { … }`, returning a JSON value) for each
 * command. Resolves once the prelude has run (the worker said it is ready).
 * Rejects with the worker's stderr when it exits before it is ready; a command sent to a worker
 * that exits is answered `{ error }` with its exit code and stderr.
 */
export function startWorker(prelude: string, handler: string, env: NodeJS.ProcessEnv = process.env): Promise<Worker> {
  const code = `
import { createInterface } from 'node:readline';
import { writeSync } from 'node:fs';
${prelude}
const handle = async (cmd) => { ${handler} };
const answer = (v) => writeSync(3, JSON.stringify(v ?? null) + '\\n');
answer({ ready: true });
for await (const line of createInterface({ input: process.stdin })) {
  let out;
  try { out = await handle(JSON.parse(line)); } catch (e) { out = { error: String(e?.stack ?? e) }; }
  answer(out);
}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { env, stdio: ['pipe', 'ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const waiting: Array<(v: any) => void> = [];
  let buf = '';
  let ready: (() => void) | undefined;
  const fd3 = child.stdio[3] as Readable;
  fd3.on('data', (d: Buffer) => {
    buf += d.toString('utf8');
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const v = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      if (ready && v?.ready) {
        ready();
        ready = undefined;
      } else waiting.shift()?.(v);
    }
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (c) => {
      // commands still waiting get an answer: a test never hangs on a dead worker
      for (const w of waiting.splice(0)) w({ error: `worker exited (${c}): ${stderr.trim()}` });
      resolve({ code: c, stderr });
    }),
  );
  const stdin = child.stdin as Writable;
  const worker: Worker = {
    child,
    send(cmd) {
      return new Promise((resolve) => {
        waiting.push(resolve);
        stdin.write(JSON.stringify(cmd) + '\n');
      });
    },
    close() {
      stdin.end();
      return exited;
    },
  };
  return new Promise((resolve, reject) => {
    ready = () => resolve(worker);
    void exited.then((r) => reject(new Error(`worker exited (${r.code}) before it was ready: ${r.stderr.trim()}`)));
  });
}
