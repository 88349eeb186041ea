#!/usr/bin/env node
// Thin launcher: the compiled entry point lives in ../dist (built by `npm ci` via the root `prepare` script).
// `hook HOST EVENT` (what agent hosts run on every lifecycle event) runs from the hook bundle
// (dist/hook.cjs, with a V8 code cache; dist/hook-bundle.js), else from dist/bin.js like every other command.
const argv = process.argv.slice(2);
const bundled = argv[0] === 'hook' && (await import('../dist/hook-bundle.js').then((m) => m.runHookBundle(argv.slice(1)), () => false));
if (!bundled) {
  await import('../dist/bin.js').catch((err) => {
    if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/bin.js')) {
      process.stderr.write('hive-mind: not built yet; run `npm run build` in the repository root\n');
      process.exit(2);
    }
    throw err;
  });
}
