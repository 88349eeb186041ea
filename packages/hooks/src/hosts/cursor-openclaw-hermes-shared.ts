/**
 * File plumbing shared by the Cursor, OpenClaw and Hermes installers: atomic
 * writes, timestamped backups, a unified line diff for `--dry-run`, the hook
 * command resolution, and running an installed hook command for `verify`.
 *
 * Kept deliberately small and dependency-free (node:fs, node:child_process).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InstallOptions } from '../types.js';

/** Home directory the installers work in (`opts.home`, else `os.homedir()`). */
export function homeOf(opts?: InstallOptions): string {
  return opts?.home ?? os.homedir();
}

/** Read a text file, or `undefined` when it does not exist. Other errors propagate. */
export function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** `2026-11-30T16-54-27-123Z`: an ISO-8601 UTC timestamp safe in file names on every OS. */
export function fileTimestamp(now: Date = new Date()): string {
  return now.toISOString().replace(/:/g, '-').replace('.', '-');
}

/**
 * Copy `file` to `<file>.hive-mind-backup-<timestamp>` (never overwriting an
 * existing backup: a numeric suffix is added). Returns the backup path.
 */
export function backupFile(file: string, now: Date = new Date()): string {
  const base = `${file}.hive-mind-backup-${fileTimestamp(now)}`;
  let target = base;
  for (let i = 1; fs.existsSync(target); i++) target = `${base}-${i}`;
  fs.copyFileSync(file, target, fs.constants.COPYFILE_EXCL);
  return target;
}

/**
 * Write `content` to `file` atomically: a temporary file in the same directory
 * is written, fsynced and renamed over the target, so a crash leaves either the
 * old or the new file, never a torn one. The existing file's mode is kept
 * (new files get `mode`, default 0o644). Parent directories are created.
 */
export function writeFileAtomic(file: string, content: string, mode?: number): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  let fileMode = mode ?? 0o644;
  try {
    fileMode = fs.statSync(file).mode & 0o7777;
  } catch {
    /* new file */
  }
  const tmp = path.join(dir, `.${path.basename(file)}.hive-mind-${process.pid}-${Date.now()}.tmp`);
  const fd = fs.openSync(tmp, 'w', fileMode);
  try {
    fs.writeFileSync(fd, content, 'utf8');
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      /* ignore */
    }
    throw err;
  }
}

/**
 * A unified diff (`---`/`+++`/`@@` hunks, 3 lines of context) between two texts,
 * computed with a longest-common-subsequence over lines. Returns '' when equal.
 * `before === undefined` means the file does not exist yet (shown as /dev/null).
 */
export function unifiedDiff(file: string, before: string | undefined, after: string | undefined, context = 3): string {
  if (before === after) return '';
  const a = before === undefined || before === '' ? [] : splitLines(before);
  const b = after === undefined || after === '' ? [] : splitLines(after);
  // LCS table (config files are small: a few hundred lines at most).
  const n = a.length;
  const m = b.length;
  const dp: Uint32Array[] = [];
  for (let i = 0; i <= n; i++) dp.push(new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i]![j] = a[i] === b[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
    }
  }
  type Op = { t: ' ' | '-' | '+'; line: string; ai: number; bi: number };
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ t: ' ', line: a[i]!, ai: i, bi: j });
      i++;
      j++;
    } else if (j < m && (i >= n || dp[i]![j + 1]! >= dp[i + 1]![j]!)) {
      ops.push({ t: '+', line: b[j]!, ai: i, bi: j });
      j++;
    } else {
      ops.push({ t: '-', line: a[i]!, ai: i, bi: j });
      i++;
    }
  }
  const out: string[] = [`--- ${before === undefined ? '/dev/null' : file}`, `+++ ${after === undefined ? '/dev/null' : file}`];
  let k = 0;
  while (k < ops.length) {
    if (ops[k]!.t === ' ') {
      k++;
      continue;
    }
    let start = Math.max(0, k - context);
    let end = k;
    // extend the hunk while changes are within 2*context of each other
    let last = k;
    while (end < ops.length) {
      if (ops[end]!.t !== ' ') last = end;
      if (end - last > 2 * context) break;
      end++;
    }
    end = Math.min(ops.length, last + context + 1);
    const hunk = ops.slice(start, end);
    const aStart = hunk[0]!.ai;
    const bStart = hunk[0]!.bi;
    const aLen = hunk.filter((o) => o.t !== '+').length;
    const bLen = hunk.filter((o) => o.t !== '-').length;
    out.push(`@@ -${aLen === 0 ? aStart : aStart + 1},${aLen} +${bLen === 0 ? bStart : bStart + 1},${bLen} @@`);
    for (const o of hunk) out.push(`${o.t}${o.line}`);
    k = end;
    start = end;
  }
  return out.join('\n') + '\n';
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Quote one argv word for a POSIX shell and for Python's `shlex.split` (both accept single quotes). */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Split a command line the way POSIX `sh` / Python `shlex.split` do for the
 * subset we write: bare words, single quotes, double quotes with backslash escapes.
 */
export function shellSplit(command: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated single quote in command: ${command}`);
      cur += command.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '"') {
      i++;
      while (i < command.length && command[i] !== '"') {
        if (command[i] === '\\' && i + 1 < command.length && '"\\$`'.includes(command[i + 1]!)) i++;
        cur += command[i];
        i++;
      }
      if (i >= command.length) throw new Error(`unterminated double quote in command: ${command}`);
      inWord = true;
    } else if (c === '\\' && i + 1 < command.length) {
      cur += command[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) out.push(cur);
  return out;
}

/**
 * The command prefix hosts run to reach hive-mind: `opts.command` when given,
 * else `<node> <packages/cli/bin/hive-mind.js>` as absolute, quoted paths (so the
 * host needs no PATH set-up), else plain `hive-mind` when that bin is not found.
 */
export function resolveHookCommand(opts?: InstallOptions): string {
  if (opts?.command) return opts.command;
  const here = path.dirname(fileURLToPath(import.meta.url));
  // src/hosts/ and dist/hosts/ are both three levels below packages/
  const bin = path.resolve(here, '..', '..', '..', 'cli', 'bin', 'hive-mind.js');
  if (fs.existsSync(bin)) return `${shellQuote(process.execPath)} ${shellQuote(bin)}`;
  return 'hive-mind';
}

/** The full command line for one host event: `<prefix> hook <host> <event>`. */
export function hookCommandLine(prefix: string, host: string, event: string): string {
  return `${prefix} hook ${host} ${shellQuote(event)}`;
}

/** True when `command` is a hive-mind hook command for `host` (any prefix), optionally for `event`. */
export function isOurHookCommand(command: unknown, host: string, event?: string): boolean {
  if (typeof command !== 'string') return false;
  let words: string[];
  try {
    words = shellSplit(command);
  } catch {
    return false;
  }
  const i = words.lastIndexOf('hook');
  if (i < 0 || words.length !== i + 3 || words[i + 1] !== host) return false;
  if (event !== undefined && words[i + 2] !== event) return false;
  // the prefix must name hive-mind (bin path or command name), so a user's own `hook` tool is never ours
  return words.slice(0, i).some((w) => /hive-mind/.test(path.basename(w)) || /hive-mind/.test(w));
}

/** Result of running one hook command with a sample payload. */
export interface CommandRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  error?: string;
}

/**
 * Run `argv` with `stdin` piped in, capture stdout/stderr, kill after `timeoutMs`.
 * Never rejects: spawn failures are reported in `error`.
 */
export function runCommand(argv: string[], stdin: string, opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<CommandRun> {
  const started = process.hrtime.bigint();
  const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let done = false;
    const finish = (r: Omit<CommandRun, 'ms' | 'stdout' | 'stderr'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...r, stdout, stderr, ms: ms() });
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(argv[0]!, argv.slice(1), { env: opts.env ?? process.env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (err) {
      resolve({ exitCode: null, stdout, stderr, ms: ms(), error: (err as Error).message });
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ exitCode: null, error: `timed out after ${opts.timeoutMs ?? 15_000} ms` });
    }, opts.timeoutMs ?? 15_000);
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', (err) => finish({ exitCode: null, error: err.message }));
    child.on('close', (code) => finish({ exitCode: code }));
    child.stdin!.on('error', () => {
      /* the hook may exit before reading stdin */
    });
    child.stdin!.end(stdin);
  });
}

/** A throwaway HIVE_MIND_HOME for `verify`, so sample payloads never land in the user's mind. */
export function verifyEnv(opts?: InstallOptions): { env: NodeJS.ProcessEnv; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hive-mind-verify-'));
  const env: NodeJS.ProcessEnv = { ...(opts?.env ?? process.env), HIVE_MIND_HOME: dir };
  if (opts?.home) env.HOME = opts.home;
  return { env, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Short stable id from parts (sha256, 16 hex chars): used for idempotency keys hosts do not give us. */
export function stableId(...parts: Array<string | undefined>): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(`${p ?? ''}\u0000`);
  return h.digest('hex').slice(0, 16);
}

/** Narrow helpers for defensive payload reading. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}
export function obj(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
export function strArray(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out = v.filter((x): x is string => typeof x === 'string' && x.length > 0);
  return out.length ? out : undefined;
}
