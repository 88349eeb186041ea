#!/usr/bin/env node
// Install size of one package from its tarball, printed, never asserted: `npm pack` the package
// and the workspace packages it needs, install the tarballs into an empty folder (registry
// packages from the npm cache first; native modules built as for a user), then `du` of the
// folder's node_modules, with the largest packages in it.
//
// Needs a build (`npm run build`). Usage:
//   node bench/install-size.mjs [--package @hive-mind/compaction] [--root DIR]
// --root measures another checkout (built), e.g. an export of main to compare before/after.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { root as repoRoot } from './lib.mjs';
import { installTarballs, internalClosure, packWorkspaces, workspacePackages } from '../test-support/pack.mjs';

const flag = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : def;
};
const name = flag('--package', '@hive-mind/compaction');
const root = resolve(flag('--root', repoRoot));

/** Kilobytes (1024 bytes) `du -sk` reports for `path`. */
const duKb = (path) => Number(execFileSync('du', ['-sk', path], { encoding: 'utf8' }).split('\t')[0]);

const work = mkdtempSync(join(tmpdir(), 'hive-mind-install-size-'));
try {
  const need = internalClosure([name], workspacePackages(root));
  const tarballs = packWorkspaces(join(work, 'tarballs'), need, root);
  const t0 = performance.now();
  installTarballs(join(work, 'app'), tarballs);
  const took = performance.now() - t0;
  const nm = join(work, 'app', 'node_modules');
  const entries = [];
  for (const e of readdirSync(nm)) {
    if (e.startsWith('.')) continue;
    const dirs = e.startsWith('@') ? readdirSync(join(nm, e)).map((s) => `${e}/${s}`) : [e];
    for (const d of dirs) entries.push({ pkg: d, kb: duKb(join(nm, d)) });
  }
  entries.sort((a, b) => b.kb - a.kb);
  const total = duKb(nm);
  console.log(`install of ${name} alone from its tarball (checkout ${root})`);
  console.log(`  tarballs: ${need.map((p) => p.name).join(', ')}`);
  console.log(`  du -sk node_modules: ${total} KB (${(total / 1024).toFixed(1)} MB), ${entries.length} packages, npm install took ${(took / 1000).toFixed(1)} s`);
  for (const e of entries.slice(0, 8)) console.log(`    ${String(e.kb).padStart(7)} KB  ${e.pkg}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
