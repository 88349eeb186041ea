import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built CLI entry (build first: npx tsc -b packages/cli). */
export const CLI = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'bin/hive-mind.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the built `hive-mind` with `args` in `cwd`, the test's environment plus `env` (a value `undefined` removes a variable). */
export function runCli(args: string[], opts: { cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<Run> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...opts.env })) if (v !== undefined) env[k] = v;
  return new Promise((res, rej) => {
    const p = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('error', rej);
    p.on('close', (code) => res({ code, stdout, stderr }));
  });
}

/** Set a file's times into the past: a session the user left a while ago (no host has written it since). */
export { age } from '../../transcripts/test/session-homes.js';

/** `lines` numbered lines of filler text, each with a tag the tests can look for. */
export function bigText(lines: number, tag: string): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`${tag} ${i}: ${'abcdefghij '.repeat(6)}value=${(i * 7919) % 1000}`);
  return out.join('\n');
}
