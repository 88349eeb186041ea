import { existsSync, readdirSync, lstatSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the marketplace root of `.claude-plugin/marketplace.json` and `.agents/plugins/marketplace.json`. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');

/** This process's PATH without the directories that hold an executable `name` (e.g. the `node_modules/.bin` npm prepends under `npm test`). */
export function pathWithout(name: string): string {
  return (process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin')
    .split(delimiter)
    .filter((d) => d && !existsSync(join(d, name)))
    .join(delimiter);
}

/** Every file and directory under `dir` (absolute paths; symlinks not followed). */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      out.push(p);
      if (lstatSync(p).isDirectory()) walk(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}
