import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium, seriousA11yViolations, type Browser } from '../../../test-support/chromium.js';

/** Repository root, computed from this file. */
export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
/** The built CLI launcher. */
const CLI = join(REPO, 'packages/cli/bin/hive-mind.js');
/**
 * Where the tests write their screenshots: the README's folder with `HIVE_MIND_UI_SCREENSHOTS=1`
 * (how the committed ones were made), else a temporary folder, so a test run leaves the
 * working tree as it was.
 */
const SHOTS = process.env.HIVE_MIND_UI_SCREENSHOTS === '1' ? join(REPO, 'packages/ui/docs') : join(tmpdir(), 'hive-mind-ui-screenshots');

/** Throw a clear error when the CLI or the page has not been built (these tests run the real command). */
export function requireBuilt(): void {
  for (const f of ['packages/cli/dist/bin.js', 'packages/ui/dist/index.js', 'packages/ui/dist/web/index.html'])
    if (!existsSync(join(REPO, f))) throw new Error(`${f} is missing: run \`npm run build\` first`);
}

/** A fresh HIVE_MIND_HOME; `cleanup()` removes it. */
export function tempHome(prefix = 'hm-ui-'): { home: string; cleanup: () => void } {
  const home = mkdtempSync(join(tmpdir(), prefix));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** A running `hive-mind ui --no-open`: the URL it printed (with the token) and how to stop it. */
export interface RunningUi {
  url: string;
  origin: string;
  port: number;
  token: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Spawn the real `hive-mind ui --no-open --port 0` with HIVE_MIND_HOME=home (in `cwd`, default this process's) and wait for its URL. */
export async function startUi(home: string, env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<RunningUi> {
  const child = spawn(process.execPath, [CLI, 'ui', '--no-open', '--port', '0'], { env: { ...process.env, HIVE_MIND_HOME: home, ...env }, stdio: ['ignore', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hive-mind ui printed no URL in 20 s; stderr: ${err}`)), 20_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /hive-mind ui: (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64})/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`hive-mind ui exited ${code}; stderr: ${err}`)));
  });
  const u = new URL(url);
  return {
    url,
    origin: u.origin,
    port: Number(u.port),
    token: u.searchParams.get('token')!,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Run the real CLI (`hive-mind ...args`) and return its output; throws on a non-zero exit. */
export function cli(home: string, args: string[], input?: string, env: NodeJS.ProcessEnv = {}): { stdout: string; stderr: string; status: number } {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, HIVE_MIND_HOME: home, ...env }, input, encoding: 'utf8' });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status ?? -1 };
}

/** The frame as `hive-mind mind show ID --json` prints it, or undefined when the CLI finds none. */
export function mindShow(home: string, id: number, mindArgs: string[] = []): { frame: Record<string, unknown>; history: unknown[] } | undefined {
  const r = cli(home, ['mind', ...mindArgs, 'show', String(id), '--json']);
  if (r.status !== 0) return undefined;
  return JSON.parse(r.stdout);
}

/** A raw HTTP request with headers exactly as given (fetch cannot set Host). */
export function rawRequest(port: number, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers ?? {}, setHost: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    if (opts.body) req.write(opts.body);
    req.end();
  });
}

/** Make sure the screenshots folder exists and return the path of `name`. */
export function shotPath(name: string): string {
  mkdirSync(SHOTS, { recursive: true });
  return join(SHOTS, name);
}

/**
 * axe-core's serious and critical violations on `view` (`''` for Frames, `notes`, `next`,
 * `compaction`), one line each, in a new headless Chromium (CSP bypassed there only, to inject
 * axe). `prepare` brings the page to the state to check.
 */
export async function a11yViolations(ui: RunningUi, view: string, prepare: (p: Page) => Promise<void>, opts: { colorScheme?: 'light' | 'dark'; shot?: string } = {}): Promise<string[]> {
  const b = await launchChromium({ bypassCSP: true, colorScheme: opts.colorScheme ?? 'light' });
  try {
    const p = await b.newPage();
    await p.goto(view ? `${ui.url}#/${view}` : ui.url);
    await prepare(p);
    if (opts.shot) await p.screenshot({ path: shotPath(opts.shot) });
    return (await seriousA11yViolations(p)).map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  } finally {
    await b.close();
  }
}

/** The end of a browser test file: the browser, the UI process, the temporary home. */
export async function closeAll(browser: Browser | undefined, ui: RunningUi | undefined, home: { cleanup: () => void } | undefined): Promise<void> {
  await browser?.close();
  await ui?.stop();
  home?.cleanup();
}
