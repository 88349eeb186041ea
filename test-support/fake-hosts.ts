/**
 * Small fake `claude` and `codex` executables for the host CLI summarizers' bad-input tests: real
 * child processes on PATH that answer as the real hosts' non-interactive modes do (Claude Code's
 * `-p --output-format json` result object; Codex's `exec --json` events and its
 * `--output-last-message` file, as recorded from the pinned versions), or hang, exit non-zero,
 * print nothing or garbage. The happy path with the real binaries is tested against the loopback
 * model servers (packages/cli/test/summarizer-hosts.e2e.test.ts); these fakes cover what a real
 * host cannot be made to do on demand.
 *
 * Each run appends a record (argv, stdin, cwd, the environment variables the summarizers set, the
 * system prompt file's text while it exists, its pid and a grandchild's) to `<dir>/runs/`, and
 * takes the next reply of the script (the last one repeats).
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One reply of a fake host. */
export type FakeReply =
  /** A successful run whose final message is `reply` (Claude Code: `result`; Codex: the agent message and the last-message file). */
  | { reply: string; model?: string }
  /** Start a grandchild `sleep`, record both pids, never answer. */
  | { hang: true }
  /** Print `stderr` (and `stdout`) and exit with `exit`. */
  | { exit: number; stderr?: string; stdout?: string }
  /** Print `raw` on stdout verbatim and exit 0 (nothing, or garbage). */
  | { raw: string }
  /** The host's own "prompt is too long" failure when stdin has more than `above` characters, else `reply`. */
  | { tooLongAbove: number; reply: string };

/** What one run of a fake host saw. */
export interface FakeRun {
  host: 'claude' | 'codex';
  argv: string[];
  stdin: string;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Claude Code: the text of `--system-prompt-file` during the run. */
  systemPrompt?: string;
  pid: number;
  /** A hanging run: the pid of the `sleep` it started. */
  grandchild?: number;
}

export interface FakeHosts {
  /** The folder to put first on PATH: it holds `claude` and `codex`. */
  bin: string;
  /** Set the replies of the next runs (in order; the last repeats). */
  script(replies: FakeReply[]): void;
  /** Every run so far, in order. */
  runs(): FakeRun[];
  /** PATH with {@link bin} first. */
  path(rest?: string): string;
  cleanup(): void;
}

const RECORDED_ENV = ['HIVE_MIND_NO_HOOKS', 'CLAUDE_CODE_MAX_OUTPUT_TOKENS', 'DISABLE_AUTOUPDATER', 'HOME', 'CODEX_HOME', 'CLAUDE_CONFIG_DIR'];

/** The fake's program: plain Node, no import of the repository (it runs as a child of the CLI). */
function program(host: 'claude' | 'codex', dir: string): string {
  return `#!${process.execPath}
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const HOST = ${JSON.stringify(host)};
const DIR = ${JSON.stringify(dir)};
const argv = process.argv.slice(2);
let stdin = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => (stdin += d));
process.stdin.on('end', main);
function next() {
  const script = JSON.parse(fs.readFileSync(path.join(DIR, 'script.json'), 'utf8'));
  const runs = fs.readdirSync(path.join(DIR, 'runs')).filter((f) => f.endsWith('.json')).length;
  return { n: runs, reply: script[Math.min(runs, script.length - 1)] };
}
function main() {
  const { n, reply } = next();
  const rec = { host: HOST, argv, stdin, cwd: process.cwd(), env: {}, pid: process.pid };
  for (const k of ${JSON.stringify(RECORDED_ENV)}) rec.env[k] = process.env[k];
  const sp = argv.indexOf('--system-prompt-file');
  if (sp >= 0 && fs.existsSync(argv[sp + 1])) rec.systemPrompt = fs.readFileSync(argv[sp + 1], 'utf8');
  const file = path.join(DIR, 'runs', String(n).padStart(4, '0') + '.json');
  // written whole or not at all: a run the test aborts may be killed while it saves
  const save = () => (fs.writeFileSync(file + '.part', JSON.stringify(rec)), fs.renameSync(file + '.part', file));
  if (reply.hang) {
    const g = spawn('sleep', ['1000'], { stdio: 'ignore' });
    rec.grandchild = g.pid;
    save();
    setInterval(() => {}, 1000);
    return;
  }
  save();
  if (reply.exit !== undefined) {
    if (reply.stdout) process.stdout.write(reply.stdout);
    if (reply.stderr) process.stderr.write(reply.stderr);
    process.exitCode = reply.exit;
    return;
  }
  if (reply.raw !== undefined) return void process.stdout.write(reply.raw);
  const tooLong = reply.tooLongAbove !== undefined && stdin.length > reply.tooLongAbove;
  if (HOST === 'claude') {
    const out = tooLong
      ? { type: 'result', subtype: 'success', is_error: true, api_error_status: 400, terminal_reason: 'prompt_too_long', result: 'Prompt is too long · the request is ~' + Math.ceil(stdin.length / 3) + ' tokens (limit ' + Math.ceil(reply.tooLongAbove / 3) + ')' }
      : { type: 'result', subtype: 'success', is_error: false, stop_reason: 'end_turn', result: reply.reply, usage: { input_tokens: Math.ceil(stdin.length / 4), output_tokens: Math.ceil(reply.reply.length / 4) }, modelUsage: { [reply.model || 'claude-fake-1']: {} } };
    process.stdout.write(JSON.stringify(out) + '\\n');
    process.exitCode = tooLong ? 1 : 0;
    return;
  }
  const events = [{ type: 'thread.started', thread_id: 'fake' }, { type: 'item.completed', item: { id: 'item_0', type: 'error', message: 'Model metadata for \`fake\` not found.' } }, { type: 'turn.started' }];
  if (tooLong) {
    const message = "Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying.";
    events.push({ type: 'error', message }, { type: 'turn.failed', error: { message } });
  } else {
    events.push({ type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: reply.reply } }, { type: 'turn.completed', usage: { input_tokens: Math.ceil(stdin.length / 4), output_tokens: 9 } });
    const o = argv.indexOf('--output-last-message');
    if (o >= 0) fs.writeFileSync(argv[o + 1], reply.reply);
  }
  process.stdout.write(events.map((e) => JSON.stringify(e)).join('\\n') + '\\n');
  process.exitCode = tooLong ? 1 : 0;
}
`;
}

/** Make the fake hosts in a new temp folder (see the module comment). */
export function makeFakeHosts(): FakeHosts {
  const dir = mkdtempSync(join(tmpdir(), 'hm-fake-hosts-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  mkdirSync(join(dir, 'runs'));
  for (const host of ['claude', 'codex'] as const) {
    writeFileSync(join(bin, host), program(host, dir));
    chmodSync(join(bin, host), 0o755);
  }
  writeFileSync(join(dir, 'script.json'), JSON.stringify([{ reply: '## Goal\n- fake' }]));
  return {
    bin,
    script(replies) {
      rmSync(join(dir, 'runs'), { recursive: true, force: true });
      mkdirSync(join(dir, 'runs'));
      writeFileSync(join(dir, 'script.json'), JSON.stringify(replies));
    },
    runs() {
      const d = join(dir, 'runs');
      return existsSync(d) ? readdirSync(d).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(join(d, f), 'utf8')) as FakeRun) : [];
    },
    path(rest = process.env.PATH ?? '/usr/bin:/bin') {
      return `${bin}:${rest}`;
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** True while a process with this pid exists (signal 0). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
