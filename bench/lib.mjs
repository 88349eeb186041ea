// Small helpers shared by the benchmarks (not a benchmark itself: run.mjs skips it).
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** Repository root. */
export const root = fileURLToPath(new URL('..', import.meta.url));
/** The hive-mind launcher (needs `npm run build`). */
export const cli = join(root, 'packages/cli/bin/hive-mind.js');

/** Numeric value of command-line flag `name` (e.g. `--runs`), else `def`. */
export function arg(name, def) {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : def;
}

/** The p-th percentile (nearest rank, p in 0..100) of a list of numbers. */
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
