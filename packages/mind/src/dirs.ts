import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Most directory levels {@link ensureDir} creates or walks up (a guard, far above any real home). */
export const ENSURE_DIR_MAX_DEPTH = 128;

/**
 * Create directory `dir` and its missing parents, like `mkdirSync(dir, { recursive: true })`
 * but with a bounded loop of plain `mkdirSync` calls. Node 20's recursive mkdir never
 * returns for some paths (e.g. under `/proc`, where mkdir says ENOENT although the parent
 * exists), and the hook's watchdog timer cannot interrupt a synchronous loop. Walks up on
 * ENOENT, stops at the first existing ancestor (EEXIST), then creates downwards; any other
 * error (EACCES, EROFS, ENOTDIR, ENOENT on the way down...) is thrown.
 * @throws the fs error, or Error when more than {@link ENSURE_DIR_MAX_DEPTH} levels are missing.
 */
export function ensureDir(dir: string, mode = 0o777): void {
  const missing: string[] = [];
  let d = resolve(dir);
  for (;;) {
    try {
      mkdirSync(d, { mode });
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        if (!statSync(d).isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${d}'`), { code: 'ENOTDIR' });
        break;
      }
      if (code !== 'ENOENT') throw e;
      const up = dirname(d);
      if (up === d || missing.length >= ENSURE_DIR_MAX_DEPTH) throw e;
      missing.push(d);
      d = up;
    }
  }
  // `d` exists now; create the levels below it, top down (an ENOENT here is thrown: no retry loop)
  for (const m of missing.reverse()) {
    try {
      mkdirSync(m, { mode });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}
