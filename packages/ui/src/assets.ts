import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The page's files, built into `dist/web/` by Vite at build time (`npm run build`) and read into
 * memory at start-up: the server never reads a path a request names, and nothing is fetched
 * from anywhere else at run time.
 */

/** `packages/ui/dist/web`, found from this file in `src/` (tests) or `dist/` (the CLI). */
const DEFAULT_ASSETS_DIR = fileURLToPath(new URL('../dist/web/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** One file of the page. */
export interface Asset {
  type: string;
  body: Buffer;
}

/**
 * Every file under `dir`, keyed by its URL path (`/index.html`, `/assets/index-abc.js`).
 * Throws an Error naming the folder and the build command when the page was not built.
 */
export function loadAssets(dir: string = DEFAULT_ASSETS_DIR): Map<string, Asset> {
  if (!existsSync(join(dir, 'index.html'))) throw new Error(`the page of hive-mind ui is not built: ${join(dir, 'index.html')} is missing (run \`npm run build\` in the hive-mind repository)`);
  const out = new Map<string, Asset>();
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.set('/' + relative(dir, p).split(sep).join('/'), { type: TYPES[extname(n)] ?? 'application/octet-stream', body: readFileSync(p) });
    }
  };
  walk(dir);
  return out;
}
