/**
 * The real agent hosts for end-to-end tests: Claude Code and Codex CLI, pinned
 * in `test-support/hosts.package.json` and installed with npm into
 * `<repo>/.e2e-hosts/` (git-ignored), then run hermetically against a
 * loopback model server from `llm-servers.ts`.
 *
 * Facts this relies on (checked on linux x64 with the pinned versions; see
 * test-support/README.md for the full list):
 * - `@anthropic-ai/claude-code` ships its native binary in the optional
 *   dependency `@anthropic-ai/claude-code-<platform>` (file `claude`); its
 *   postinstall only copies that file over `bin/claude.exe`. We run the
 *   platform package's file directly and install with `--ignore-scripts`.
 * - `@openai/codex` ships the native binary in the optional dependency
 *   `@openai/codex-<platform>` (an alias of `@openai/codex@<v>-<platform>`) at
 *   `vendor/<target-triple>/bin/codex`; `bin/codex.js` only execs it.
 */
import { spawn, execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, copyFileSync, rmSync, statSync, readdirSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';

const execFileP = promisify(execFile);

/** Repository root (the folder holding `test-support/`). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the pinned hosts are installed. Override with `HIVE_MIND_E2E_HOSTS_DIR`. */
export const HOSTS_DIR = process.env.HIVE_MIND_E2E_HOSTS_DIR ? resolve(process.env.HIVE_MIND_E2E_HOSTS_DIR) : join(REPO_ROOT, '.e2e-hosts');

/** The manifest naming the pinned versions (single source of truth, also used by .ci/run). */
export const HOSTS_MANIFEST = join(REPO_ROOT, 'test-support', 'hosts.package.json');

const manifest = JSON.parse(readFileSync(HOSTS_MANIFEST, 'utf8')) as { dependencies: Record<string, string> };

/** Pinned Claude Code version (from hosts.package.json). */
export const CLAUDE_CODE_VERSION: string = manifest.dependencies['@anthropic-ai/claude-code']!;
/** Pinned Codex CLI version (from hosts.package.json). */
export const CODEX_VERSION: string = manifest.dependencies['@openai/codex']!;

function isMusl(): boolean {
  if (process.platform !== 'linux') return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime === undefined;
}

/** `@anthropic-ai/claude-code-<key>` platform key, e.g. `linux-x64`, `linux-x64-musl`, `darwin-arm64`. */
function claudePlatformKey(): string {
  const base = `${process.platform}-${process.arch}`;
  return process.platform === 'linux' && isMusl() ? `${base}-musl` : base;
}

/** Codex target triple, as `@openai/codex`'s bin/codex.js maps it. */
function codexTargetTriple(): string {
  const map: Record<string, string> = {
    'linux-x64': 'x86_64-unknown-linux-musl',
    'linux-arm64': 'aarch64-unknown-linux-musl',
    'darwin-x64': 'x86_64-apple-darwin',
    'darwin-arm64': 'aarch64-apple-darwin',
    'win32-x64': 'x86_64-pc-windows-msvc',
    'win32-arm64': 'aarch64-pc-windows-msvc',
  };
  const t = map[`${process.platform}-${process.arch}`];
  if (!t) throw new Error(`Codex CLI ships no binary for ${process.platform}-${process.arch}`);
  return t;
}

/** Absolute path where the native Claude Code binary lives once installed in `dir`. */
export function claudeBinaryPath(dir = HOSTS_DIR): string {
  const exe = process.platform === 'win32' ? 'claude.exe' : 'claude';
  return join(dir, 'node_modules', '@anthropic-ai', `claude-code-${claudePlatformKey()}`, exe);
}

/** Absolute path where the native Codex binary lives once installed in `dir`. */
export function codexBinaryPath(dir = HOSTS_DIR): string {
  const exe = process.platform === 'win32' ? 'codex.exe' : 'codex';
  const pkg = `codex-${process.platform}-${process.arch}`;
  return join(dir, 'node_modules', '@openai', pkg, 'vendor', codexTargetTriple(), 'bin', exe);
}

function installedVersion(pkgJson: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(pkgJson, 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** Why the pinned Claude Code is not usable in `dir`, or undefined when it is. */
function claudeProblem(dir: string): string | undefined {
  const bin = claudeBinaryPath(dir);
  if (!existsSync(bin)) return `missing ${bin}`;
  const v = installedVersion(join(dirname(bin), 'package.json'));
  if (v !== CLAUDE_CODE_VERSION) return `${bin} is version ${v ?? '?'}, want ${CLAUDE_CODE_VERSION}`;
  return undefined;
}

/** Why the pinned Codex is not usable in `dir`, or undefined when it is. */
function codexProblem(dir: string): string | undefined {
  const bin = codexBinaryPath(dir);
  if (!existsSync(bin)) return `missing ${bin}`;
  const pkgDir = join(dir, 'node_modules', '@openai', `codex-${process.platform}-${process.arch}`);
  const v = installedVersion(join(pkgDir, 'package.json'));
  // The platform package is published as `@openai/codex@<version>-<platform>`.
  if (!v || !v.startsWith(`${CODEX_VERSION}-`)) return `${bin} is version ${v ?? '?'}, want ${CODEX_VERSION}`;
  return undefined;
}

async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

/**
 * Serializes installs across processes (vitest runs test files in parallel
 * forks) with an mkdir lock in `dir`. A lock older than 10 minutes is stale.
 */
export async function withInstallLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, '.install.lock');
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      try {
        if (Date.now() - statSync(lock).mtimeMs > 10 * 60_000) {
          rmSync(lock, { recursive: true, force: true });
          continue;
        }
      } catch {
        continue; // removed between mkdir and stat
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for install lock ${lock}`);
      await sleep(500);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Installs both pinned hosts into `dir` with
 * `npm install --prefix <dir> --ignore-scripts --include=optional`, using
 * hosts.package.json as `<dir>/package.json`. Idempotent; serialized across
 * processes. Throws with npm's output when npm fails.
 */
export async function installHosts(dir = HOSTS_DIR): Promise<void> {
  await withInstallLock(dir, async () => {
    if (!claudeProblem(dir) && !codexProblem(dir)) return;
    copyFileSync(HOSTS_MANIFEST, join(dir, 'package.json'));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const args = ['install', '--prefix', dir, '--ignore-scripts', '--include=optional', '--no-package-lock', '--no-audit', '--no-fund', '--engine-strict=false'];
    try {
      await execFileP(npm, args, { cwd: dir, timeout: 10 * 60_000, maxBuffer: 16 * 1024 * 1024 });
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string; message: string };
      throw new Error(`npm ${args.join(' ')} failed: ${err.message}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
    }
    const problem = claudeProblem(dir) ?? codexProblem(dir);
    if (problem) throw new Error(`after npm install the hosts are still not usable: ${problem}`);
  });
}

/**
 * Absolute path of the pinned native Claude Code binary, installing the hosts
 * first if needed (`install: false` to only check). Throws if unavailable.
 */
export async function ensureClaude(opts: { install?: boolean; dir?: string } = {}): Promise<string> {
  const dir = opts.dir ?? HOSTS_DIR;
  let problem = claudeProblem(dir);
  if (problem && opts.install !== false) {
    await installHosts(dir);
    problem = claudeProblem(dir);
  }
  if (problem) throw new Error(`Claude Code ${CLAUDE_CODE_VERSION} unavailable: ${problem}`);
  return claudeBinaryPath(dir);
}

/** Absolute path of the pinned native Codex binary; same contract as {@link ensureClaude}. */
export async function ensureCodex(opts: { install?: boolean; dir?: string } = {}): Promise<string> {
  const dir = opts.dir ?? HOSTS_DIR;
  let problem = codexProblem(dir);
  if (problem && opts.install !== false) {
    await installHosts(dir);
    problem = codexProblem(dir);
  }
  if (problem) throw new Error(`Codex CLI ${CODEX_VERSION} unavailable: ${problem}`);
  return codexBinaryPath(dir);
}

/** True when running under CI (`CI=true` or `CI=1`). */
export function inCI(): boolean {
  return /^(true|1)$/i.test(process.env.CI ?? '');
}

/**
 * For test files: `const claude = await hostOrSkip('claude')` then
 * `describe.skipIf(!claude)`. Returns the binary path, or null (with a note on
 * stderr) when the host cannot be installed here. Under CI it never returns
 * null: it throws, so the e2e tests fail instead of silently skipping.
 * `HIVE_MIND_SKIP_E2E=1` skips outside CI without trying to install.
 */
export async function hostOrSkip(host: 'claude' | 'codex'): Promise<string | null> {
  if (!inCI() && process.env.HIVE_MIND_SKIP_E2E === '1') return null;
  try {
    return host === 'claude' ? await ensureClaude() : await ensureCodex();
  } catch (e) {
    if (inCI()) throw e;
    process.stderr.write(`[test-support] skipping ${host} e2e tests: ${(e as Error).message}\n`);
    return null;
  }
}

// ---------------------------------------------------------------------------
// Running

export interface HostRunOptions {
  /** Temp home directory (created if missing); becomes HOME. */
  home: string;
  /** Loopback model server URL, e.g. `server.url` (`http://127.0.0.1:<port>`). */
  baseUrl: string;
  /** Working directory (created if missing). */
  cwd: string;
  /** Hard timeout in milliseconds; the whole process group is SIGKILLed. Default 120000. */
  timeoutMs?: number;
  /** Extra environment, applied last; an `undefined` value removes a variable. */
  env?: Record<string, string | undefined>;
  /** Text written to stdin, then stdin is closed. Default: '' (closed at once). */
  input?: string;
  /** Kill the process group (hooks, MCP servers the host left behind) after exit. Default true. */
  killGroupOnExit?: boolean;
}

export interface HostRunResult {
  /** Exit code, or null when killed by a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when the hard timeout killed the process. */
  timedOut: boolean;
  /** Wall-clock milliseconds from spawn to exit. */
  durationMs: number;
  /** argv[0..] as spawned. */
  command: string[];
  /** The environment the host ran with. */
  env: Record<string, string>;
}

/** The base of every host environment: nothing from the caller's environment but PATH, locale and TMPDIR. */
function baseEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    USER: process.env.USER ?? 'test',
    LOGNAME: process.env.LOGNAME ?? process.env.USER ?? 'test',
    SHELL: existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh',
    TERM: 'dumb',
    NO_COLOR: '1',
  };
  for (const k of ['LANG', 'LC_ALL', 'TMPDIR']) {
    const v = process.env[k];
    if (v) env[k] = v;
  }
  return env;
}

function applyEnv(env: Record<string, string>, extra: Record<string, string | undefined> | undefined): Record<string, string> {
  for (const [k, v] of Object.entries(extra ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/**
 * Spawns `command` in its own process group with a hard timeout; never throws
 * for a non-zero exit (inspect the result). Throws only if spawning fails.
 */
export function runProcess(
  command: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs: number; input?: string; killGroupOnExit?: boolean },
): Promise<HostRunResult> {
  mkdirSync(opts.cwd, { recursive: true });
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const killGroup = (sig: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        if (process.platform !== 'win32') process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch {
        /* group already gone */
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGKILL');
    }, opts.timeoutMs);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.stdin.on('error', () => {
      /* host exited before reading stdin */
    });
    child.stdin.end(opts.input ?? '');
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (opts.killGroupOnExit !== false) killGroup('SIGKILL');
      resolvePromise({
        exitCode: code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        timedOut,
        durationMs: Date.now() - started,
        command: [command, ...args],
        env: opts.env,
      });
    });
  });
}

/** Throws a readable error (exit status, stdout, stderr) unless the run exited 0. Returns the result. */
export function expectSuccess(r: HostRunResult): HostRunResult {
  if (r.exitCode === 0 && !r.timedOut) return r;
  const why = r.timedOut ? 'timed out' : r.signal ? `killed by ${r.signal}` : `exited ${r.exitCode}`;
  throw new Error(`${r.command.slice(0, 2).join(' ')} ... ${why}\n--- stdout ---\n${r.stdout.slice(-4000)}\n--- stderr ---\n${r.stderr.slice(-4000)}`);
}

// --- Claude Code -----------------------------------------------------------

/** The API key handed to Claude Code; any value works against the loopback server. */
export const CLAUDE_TEST_API_KEY = 'sk-ant-loopback-test';

/**
 * Environment for a hermetic Claude Code run: HOME and CLAUDE_CONFIG_DIR in
 * the temp home, ANTHROPIC_BASE_URL/ANTHROPIC_API_KEY at the loopback server,
 * and every switch that stops traffic elsewhere (CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC
 * alone made strace show no non-loopback connection; the others are kept as
 * belt and braces).
 */
export function claudeEnv(opts: Pick<HostRunOptions, 'home' | 'baseUrl' | 'env'>): Record<string, string> {
  const env = baseEnv(opts.home);
  Object.assign(env, {
    CLAUDE_CONFIG_DIR: join(opts.home, '.claude'),
    ANTHROPIC_BASE_URL: opts.baseUrl.replace(/\/+$/, ''),
    ANTHROPIC_API_KEY: CLAUDE_TEST_API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
  });
  return applyEnv(env, opts.env);
}

/**
 * Runs the real Claude Code: `claude <args>` (e.g. `['-p', 'hello']`) in
 * `cwd` with {@link claudeEnv}. Installs the pinned binary if needed.
 */
export async function runClaude(args: string[], opts: HostRunOptions): Promise<HostRunResult> {
  const bin = await ensureClaude();
  mkdirSync(join(opts.home, '.claude'), { recursive: true });
  return runProcess(bin, args, {
    cwd: opts.cwd,
    env: claudeEnv(opts),
    timeoutMs: opts.timeoutMs ?? 120_000,
    input: opts.input,
    killGroupOnExit: opts.killGroupOnExit,
  });
}

/**
 * Claude Code's project folder name for a working directory: every character
 * that is not an ASCII letter or digit becomes `-` (observed with 2.1.332:
 * `/tmp/ch4/My_proj.v2 x@y` → `-tmp-ch4-My-proj-v2-x-y`).
 */
export function claudeProjectSlug(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

/** `<home>/.claude/projects/<slug>/<sessionId>.jsonl`: where Claude Code writes a session's transcript. */
export function claudeSessionPath(home: string, cwd: string, sessionId: string): string {
  return join(home, '.claude', 'projects', claudeProjectSlug(cwd), `${sessionId}.jsonl`);
}

/** Every session JSONL under `<home>/.claude/projects`, as absolute paths. */
export function listClaudeSessions(home: string): string[] {
  const root = join(home, '.claude', 'projects');
  if (!existsSync(root)) return [];
  const out: string[] = [];
  for (const proj of readdirSync(root)) {
    const d = join(root, proj);
    if (!statSync(d).isDirectory()) continue;
    for (const f of readdirSync(d)) if (f.endsWith('.jsonl')) out.push(join(d, f));
  }
  return out.sort();
}

/**
 * Parses the JSON printed by `claude -p --output-format json` (the last line
 * that parses as an object with `type: 'result'`). Throws naming the output
 * when there is none.
 */
export function parseClaudeJsonResult(stdout: string): { session_id: string; result: string; is_error: boolean; [k: string]: unknown } {
  const lines = stdout.split('\n').map((l) => l.trim()).filter(Boolean);
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      const v = JSON.parse(lines[i]!) as { type?: string };
      if (v && v.type === 'result') return v as never;
    } catch {
      /* not JSON */
    }
  }
  throw new Error(`no Claude Code result JSON in stdout: ${stdout.slice(0, 2000)}`);
}

// --- Codex CLI -------------------------------------------------------------

/** Provider id written into config.toml by {@link writeCodexConfig}. */
export const CODEX_PROVIDER_ID = 'hive-mind-test';
/** Environment variable holding the provider's API key (any value works). */
export const CODEX_API_KEY_ENV = 'HIVE_MIND_TEST_API_KEY';

type TomlTable = Record<string, unknown>;

function isTable(v: unknown): v is TomlTable {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function deepMerge(base: TomlTable, over: TomlTable): TomlTable {
  const out: TomlTable = { ...base };
  for (const [k, v] of Object.entries(over)) {
    out[k] = isTable(v) && isTable(out[k]) ? deepMerge(out[k] as TomlTable, v) : v;
  }
  return out;
}

export interface CodexConfigOptions {
  /** Model name sent to the server. Default `gpt-test`. */
  model?: string;
  /** Extra config merged over ours (e.g. `{features: {hooks: true}, model_context_window: 32000}`). */
  config?: TomlTable;
}

/**
 * Writes `<home>/.codex/config.toml` so Codex talks to the loopback Responses
 * server: `model_provider = "hive-mind-test"` with
 * `[model_providers.hive-mind-test] base_url = "<baseUrl>/v1", wire_api = "responses",
 * env_key = "HIVE_MIND_TEST_API_KEY"`, plus the switches that stopped every
 * non-loopback lookup in strace (check_for_update_on_startup = false,
 * [analytics] enabled = false, [feedback] enabled = false, [features]
 * plugins = false, apps = false). An existing config.toml (e.g. one a hook
 * installer edited) is parsed and merged, not replaced: its other keys and
 * tables stay; then `opts.config` is merged over the result. Returns the path.
 */
export function writeCodexConfig(home: string, baseUrl: string, opts: CodexConfigOptions = {}): string {
  const dir = join(home, '.codex');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'config.toml');
  let existing: TomlTable = {};
  if (existsSync(file)) {
    try {
      existing = parseToml(readFileSync(file, 'utf8')) as TomlTable;
    } catch (e) {
      throw new Error(`${file}: cannot parse existing Codex config: ${(e as Error).message}`);
    }
  }
  const v1 = baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '') + '/v1';
  const ours: TomlTable = {
    model: opts.model ?? 'gpt-test',
    model_provider: CODEX_PROVIDER_ID,
    check_for_update_on_startup: false,
    analytics: { enabled: false },
    feedback: { enabled: false },
    features: { plugins: false, apps: false },
    model_providers: {
      [CODEX_PROVIDER_ID]: { name: 'hive-mind loopback test server', base_url: v1, wire_api: 'responses', env_key: CODEX_API_KEY_ENV },
    },
  };
  const merged = deepMerge(deepMerge(existing, ours), opts.config ?? {});
  writeFileSync(file, stringifyToml(merged) + '\n');
  return file;
}

/** Environment for a hermetic Codex run: HOME, CODEX_HOME=<home>/.codex and the provider key. */
export function codexEnv(opts: Pick<HostRunOptions, 'home' | 'env'>): Record<string, string> {
  const env = baseEnv(opts.home);
  env.CODEX_HOME = join(opts.home, '.codex');
  env[CODEX_API_KEY_ENV] = 'sk-loopback-test';
  return applyEnv(env, opts.env);
}

export interface CodexRunOptions extends HostRunOptions, CodexConfigOptions {
  /** Skip writing config.toml (the caller wrote it). Default false. */
  skipConfig?: boolean;
}

/**
 * Runs the real Codex CLI: `codex <args>` (e.g.
 * `['exec', '--skip-git-repo-check', 'hello']`) after
 * {@link writeCodexConfig}. stdin is closed at once unless `input` is given
 * (`codex exec` otherwise waits to read extra prompt text from a non-TTY stdin).
 */
export async function runCodex(args: string[], opts: CodexRunOptions): Promise<HostRunResult> {
  const bin = await ensureCodex();
  if (!opts.skipConfig) writeCodexConfig(opts.home, opts.baseUrl, opts);
  return runProcess(bin, args, {
    cwd: opts.cwd,
    env: codexEnv(opts),
    timeoutMs: opts.timeoutMs ?? 120_000,
    input: opts.input,
    killGroupOnExit: opts.killGroupOnExit,
  });
}

/** Every rollout JSONL under `<home>/.codex/sessions/YYYY/MM/DD/`, sorted. */
export function listCodexSessions(home: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.startsWith('rollout-') && f.endsWith('.jsonl')) out.push(p);
    }
  };
  walk(join(home, '.codex', 'sessions'));
  return out.sort();
}
