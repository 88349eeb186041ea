/**
 * The real input data beside the checkout (`../shared/data`: pi, Claude Code and Codex sessions,
 * LoCoMo conversations, host payloads) and which test files read it. A clone has nothing beside
 * it; there `vitest.config.ts` leaves those files out and says so, so `npm test` (the README's
 * step 2) runs what can run instead of failing on ENOENT.
 *
 * A test file reads the data when its text, or the text of a local module it imports (test
 * helpers, transitively; `src/` is never scanned), names the folder: `shared/data` or
 * `'shared', 'data'` path segments. The rule errs on leaving out: a file importing a helper
 * module that reads the data is left out even when it never calls that helper.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This file, which names the folder without reading it. */
const THIS_FILE = fileURLToPath(import.meta.url);
/** The repository root (this file is `<root>/test-support/shared-data.ts`). */
const ROOT = resolve(dirname(THIS_FILE), '..');

/** `../shared/data` beside the repository root, absolute. */
export const SHARED_DATA = resolve(ROOT, '..', 'shared', 'data');

/** How a file names the shared data folder. */
const NAMES_SHARED_DATA = /shared\/data|['"]shared['"],\s*['"]data['"]/;
/** A relative import or re-export: `from './x.js'`, `import('./x.js')`. */
const LOCAL_IMPORT = /(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Whether `../shared/data` exists beside the repository. */
export function hasSharedData(): boolean {
  return existsSync(SHARED_DATA);
}

/** The module a relative import names: the `.ts` source of a `.js` specifier, else the path itself; undefined when neither exists. */
function resolveLocal(from: string, spec: string): string | undefined {
  const p = resolve(dirname(from), spec);
  return [p.replace(/\.js$/, '.ts'), p.replace(/\.mjs$/, '.mts'), p].find((c) => existsSync(c));
}

/** Whether `file` or a local non-`src/` module it imports (transitively) names the shared data. */
function readsSharedData(file: string, memo: Map<string, boolean>): boolean {
  const known = memo.get(file);
  if (known !== undefined) return known;
  memo.set(file, false); // an import cycle ends here
  const text = readFileSync(file, 'utf8');
  let reads = NAMES_SHARED_DATA.test(text);
  for (const m of reads ? [] : text.matchAll(LOCAL_IMPORT)) {
    const dep = resolveLocal(file, m[1]!);
    if (dep && !dep.split('/').includes('src') && /\.(ts|mts|mjs|js)$/.test(dep) && readsSharedData(dep, memo)) {
      reads = true;
      break;
    }
  }
  memo.set(file, reads);
  return reads;
}

/** Every `*.test.ts` under `dir` (absolute paths), skipping `node_modules` and `dist`. */
function testFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name))
    .filter((f) => !/\/(node_modules|dist)\//.test(f));
}

/**
 * The test files (paths relative to the repository root, `/`-separated, sorted) that read the
 * shared data, among `packages/<pkg>/test/**` and `test-support/**`.
 */
export function testsReadingSharedData(): string[] {
  const memo = new Map<string, boolean>([[THIS_FILE, false]]);
  const dirs = [join(ROOT, 'test-support'), ...readdirSync(join(ROOT, 'packages')).map((p) => join(ROOT, 'packages', p, 'test'))];
  return dirs
    .flatMap(testFiles)
    .filter((f) => readsSharedData(f, memo))
    .map((f) => relative(ROOT, f).split('\\').join('/'))
    .sort();
}
