/**
 * Import cycles inside one package: every relative import of `packages/<name>/src` (static,
 * `import type`, `export ... from`, and lazy `import('./x.js')`, as madge counts them), and the
 * strongly connected components of that graph (Tarjan). A component of more than one file is a
 * circle: each of its files reaches every other. Dependency-free and quick (a regex over the
 * sources, ~100 ms for the repo), so the test can run on every change.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// `from './x.js'` (import/export ... from), `import './x.js'`, `import('./x.js')`; comments are stripped first
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The file a relative specifier names: `./x.js` -> `x.ts` / `x.tsx`, `./dir` -> `dir/index.ts`. */
function target(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  for (const c of [stem + '.ts', stem + '.tsx', base, join(base, 'index.ts')]) if (existsSync(c) && statSync(c).isFile()) return c;
  return undefined;
}

/** Each source file of `srcDir` -> the source files it imports (relative imports only). */
export function importGraph(srcDir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(srcDir)) {
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
    const deps = new Set<string>();
    for (const m of text.matchAll(IMPORT)) {
      const t = target(file, m[2]!);
      if (t) deps.add(t);
    }
    graph.set(file, [...deps]);
  }
  return graph;
}

/** The import circles of `srcDir`: each a sorted list of files (relative to `srcDir`) that all reach each other. Empty when there is none. */
export function importCycles(srcDir: string): string[][] {
  const graph = importGraph(srcDir);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(scc.map((f) => relative(srcDir, f)).sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}
