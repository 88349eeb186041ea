/**
 * The newest framework lines the adapters accept, beside the ones the root devDependencies hold:
 * `ai` 7 and `@openai/agents` 0.20, pinned in `test-support/frameworks.package.json` and
 * installed with npm into `<repo>/.e2e-frameworks/` (git-ignored). Both declare
 * `engines.node >=22` (`ai` itself; `@openai/agents-core` through `openai` 7), so npm installs
 * them here with `--engine-strict=false` and the tests run them on this Node.
 *
 * The built adapters and compaction packages are copied (package.json + dist) into
 * `.e2e-frameworks/node_modules/@hive-mind/`, as an install would put them, so their
 * `import('ai')` and `import('openai')` find the pinned lines there; their other dependencies
 * (`@hive-mind/session`, `gpt-tokenizer`) resolve further up, in the repository's node_modules. The examples are
 * copied into `.e2e-frameworks/examples/` for the same reason.
 */
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT, withInstallLock } from './hosts.js';

const execFileP = promisify(execFile);

/** Where the pinned frameworks are installed. */
export const FRAMEWORKS_DIR = join(REPO_ROOT, '.e2e-frameworks');

/** The manifest naming the pinned versions (single source, also used by .ci/run). */
export const FRAMEWORKS_MANIFEST = join(REPO_ROOT, 'test-support', 'frameworks.package.json');

/** The pinned versions, by package name. */
export const FRAMEWORK_VERSIONS: Record<string, string> = (JSON.parse(readFileSync(FRAMEWORKS_MANIFEST, 'utf8')) as { dependencies: Record<string, string> }).dependencies;

/** The installed version of `name` in `dir`, or undefined. */
function installedVersion(dir: string, name: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/**
 * The packages copied in, whose optional peers must resolve to the pinned lines: the adapters
 * (`ai`, `@openai/agents-core`) and compaction (`openai`, which `@openai/agents` 0.20 brings at 7).
 */
const COPIED = ['adapters', 'compaction'];

/** What is missing or at another version in `dir`, or undefined when every pin is installed. */
function frameworksProblem(dir: string): string | undefined {
  for (const [name, version] of Object.entries(FRAMEWORK_VERSIONS)) {
    const got = installedVersion(dir, name);
    if (got !== version) return `${name}: want ${version}, ${got ? `found ${got}` : 'not installed'}`;
  }
  return undefined;
}

/**
 * Install the pinned frameworks into {@link FRAMEWORKS_DIR} when they are not (npm from the
 * registry, serialized across test processes), then refresh the copies of the built adapters and
 * of `examples/`. Needs `npm run build`. Throws with npm's output when npm fails.
 * @returns the folder holding `examples/` and `node_modules/`
 */
export async function ensureFrameworks(dir = FRAMEWORKS_DIR): Promise<string> {
  await withInstallLock(dir, async () => {
    if (frameworksProblem(dir)) {
      copyFileSync(FRAMEWORKS_MANIFEST, join(dir, 'package.json'));
      const args = ['install', '--prefix', dir, '--no-package-lock', '--no-audit', '--no-fund', '--engine-strict=false'];
      try {
        await execFileP('npm', args, { cwd: dir, timeout: 10 * 60_000, maxBuffer: 16 * 1024 * 1024 });
      } catch (e) {
        const err = e as { stdout?: string; stderr?: string; message: string };
        throw new Error(`npm ${args.join(' ')} failed: ${err.message}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
      }
      const problem = frameworksProblem(dir);
      if (problem) throw new Error(`after npm install the frameworks are still not as pinned: ${problem}`);
    }
    for (const name of COPIED) {
      const pkg = join(REPO_ROOT, 'packages', name);
      if (!existsSync(join(pkg, 'dist', 'index.js'))) throw new Error(`${pkg}/dist is missing: run npm run build first`);
      const target = join(dir, 'node_modules', '@hive-mind', name);
      rmSync(target, { recursive: true, force: true });
      mkdirSync(target, { recursive: true });
      copyFileSync(join(pkg, 'package.json'), join(target, 'package.json'));
      cpSync(join(pkg, 'dist'), join(target, 'dist'), { recursive: true });
    }
    rmSync(join(dir, 'examples'), { recursive: true, force: true });
    cpSync(join(REPO_ROOT, 'examples'), join(dir, 'examples'), { recursive: true, filter: (src) => !src.includes(`${join(REPO_ROOT, 'examples', 'sessions')}`) });
  });
  return dir;
}

/** Run `node <dir>/<file> ...args` (a script path relative to the frameworks folder). */
export function runFrameworkScript(dir: string, file: string, args: string[], timeoutMs = 120_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runIn(dir, join(dir, file), args, timeoutMs);
}

/** Run `examples/<file>` from the frameworks folder with this Node; resolves with its exit code and output. */
export function runFrameworkExample(dir: string, file: string, args: string[], timeoutMs = 120_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runIn(dir, join(dir, 'examples', file), args, timeoutMs);
}

/** Run `script` with this Node in `dir`, killed after `timeoutMs`; resolves with its exit code and output. */
export function runIn(dir: string, script: string, args: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
