#!/usr/bin/env node
// Thin launcher: the compiled entry point lives in ../dist (built by `npm ci` via the root `prepare` script).
import('../dist/bin.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/bin.js')) {
    process.stderr.write('hive-mind: not built yet; run `npm run build` in the repository root\n');
    process.exit(2);
  }
  throw err;
});
