/**
 * Build `dist/hook.cjs`, the hook path in one file: run by `npm run build` after `tsc -b`
 * (`node packages/cli/dist/build-hook-bundle.js`). esbuild bundles what `hive-mind hook HOST EVENT`
 * runs (dist/hook-entry.js and the compiled modules of hooks, mind and transcripts it reaches) into
 * one CommonJS file that bin/hive-mind.js compiles with a V8 code cache (hook-bundle.ts): one file
 * read instead of ninety modules resolved and compiled on every host event.
 *
 * What the bundle leaves out or changes, and why:
 * - better-sqlite3 (a native addon) is loaded at run time, from where `@hive-mind/mind` resolves it;
 * - the installers (`hosts/*-install.js`, loaded by the host registry only for `install`) are not in
 *   it: importing one from the bundle rejects with an error saying so;
 * - the secret rule set (`@secretlint/secretlint-rule-preset-recommend`) is inside it, required on
 *   first use in place of mind's safety/secret-preset-load.js (whose top-level await, for Node
 *   before 20.19, a CommonJS file cannot hold);
 * - nothing is loaded with `import()`, and nothing but node's builtins is left to load at run time
 *   (the build fails otherwise).
 *
 * Beside it, `dist/hook-bundle.json` lists the bundle's inputs (packages/hooks/test/hook-imports.test.ts
 * pins them). The bundle's first line is a header: a hash of its text (the key of the code cache)
 * and the time of each `tsc -b` output it was built from (`.tsbuildinfo`), so a bundle older than
 * a later `tsc -b` is not used (hook-bundle.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { BUNDLE_HEADER_PREFIX, BUNDLE_HEADER_SUFFIX, HOOK_BUNDLE_FILE, HOOK_BUNDLE_INPUTS_FILE, type HookBundleHeader } from './hook-bundle.js';

const DIST = dirname(fileURLToPath(import.meta.url));
const ENTRY = join(DIST, 'hook-entry.js');
const PRESET = '@secretlint/secretlint-rule-preset-recommend';

/** What the bundle does in place of the files esbuild would otherwise take as they are (see the file comment). */
function hookPathPlugin(): Plugin {
  return {
    name: 'hive-mind-hook-path',
    setup(b) {
      b.onResolve({ filter: /^better-sqlite3$/ }, (args) => ({ path: args.path, namespace: 'hm-sqlite', pluginData: args.resolveDir }));
      b.onLoad({ filter: /.*/, namespace: 'hm-sqlite' }, () => ({
        // the addon from where @hive-mind/mind resolves it, as `import Database from 'better-sqlite3'` in mind's open.js does
        contents: "const { createRequire } = require('node:module');\nmodule.exports = createRequire(createRequire(__filename).resolve('@hive-mind/mind/package.json'))('better-sqlite3');",
        loader: 'js',
      }));
      b.onResolve({ filter: /-install\.js$/ }, (args) => ({ path: args.path, namespace: 'hm-installer' }));
      b.onLoad({ filter: /.*/, namespace: 'hm-installer' }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`hive-mind: ${args.path} (an installer) is not in the hook bundle; run the hive-mind CLI for install, uninstall and verify`)});`,
        loader: 'js',
      }));
      b.onResolve({ filter: /\/secret-preset-load\.js$/ }, (args) => ({ path: resolve(args.resolveDir, args.path), namespace: 'hm-preset' }));
      b.onLoad({ filter: /.*/, namespace: 'hm-preset' }, (args) => ({
        contents: [
          `export const PRESET_NAME = ${JSON.stringify(PRESET)};`,
          `export function presetModuleRules() { return require(${JSON.stringify(PRESET)}).rules; }`,
          `export function presetPackageVersion() { return require(${JSON.stringify(`${PRESET}/package.json`)}).version; }`,
        ].join('\n'),
        resolveDir: dirname(args.path), // the preset as @hive-mind/mind resolves it
        loader: 'js',
      }));
    },
  };
}

/** The `.tsbuildinfo` of each package whose compiled files are inputs, by path from dist/, with its mtime. */
function builds(inputs: string[], root: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const input of inputs) {
    const pkg = /^(.*?\/)?packages\/[^/]+\/dist\//.exec(input)?.[0];
    if (!pkg) continue;
    const info = resolve(root, pkg, '.tsbuildinfo');
    if (existsSync(info)) out[relative(DIST, info)] = statSync(info).mtimeMs;
  }
  return out;
}

/** Bundle the hook path into dist/hook.cjs and write dist/hook-bundle.json; returns the bundle's path. */
export async function buildHookBundle(): Promise<string> {
  const root = process.cwd();
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // an import() left in the bundle (the preset's own `import('node:fs')`) becomes a require: a
    // script compiled by vm.Script has no module loader behind import()
    supported: { 'dynamic-import': false },
    write: false,
    metafile: true,
    outfile: join(DIST, HOOK_BUNDLE_FILE),
    plugins: [hookPathPlugin()],
    logLevel: 'silent',
    absWorkingDir: root,
  });
  for (const w of result.warnings) process.stderr.write(`hive-mind: hook bundle: ${w.text}${w.location ? ` (${w.location.file}:${w.location.line})` : ''}\n`);
  const [out] = Object.values(result.metafile.outputs);
  const left = out!.imports.filter((i) => i.kind === 'dynamic-import' || (i.external && !isBuiltin(i.path)));
  if (left.length > 0) throw new Error(`the hook bundle would load at run time: ${left.map((i) => `${i.path} (${i.kind})`).join(', ')}`);
  const inputs = Object.keys(out!.inputs).filter((p) => !p.includes(':'));
  const body = result.outputFiles[0]!.text;
  const header: HookBundleHeader = { id: createHash('sha256').update(body).digest('hex').slice(0, 32), builds: builds(inputs, root) };
  const file = join(DIST, HOOK_BUNDLE_FILE);
  writeFileSync(file, `${BUNDLE_HEADER_PREFIX}${JSON.stringify(header)}${BUNDLE_HEADER_SUFFIX}\n${body}`);
  writeFileSync(join(DIST, HOOK_BUNDLE_INPUTS_FILE), JSON.stringify({ id: header.id, inputs: inputs.map((p) => relative(DIST, resolve(root, p))).sort() }, null, 2) + '\n');
  return file;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = await buildHookBundle();
  process.stdout.write(`hook bundle: ${relative(process.cwd(), file)} (${Math.round(readFileSync(file).length / 1024)} kB)\n`);
}
