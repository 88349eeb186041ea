// Pack the workspace packages with `npm pack` and install the tarballs into an empty folder,
// as a user installs from the registry: no workspace links, no repository node_modules above it.
// Plain JavaScript so both the tests (test-support/packaging.test.ts) and bench/install-size.mjs
// use it; types in pack.d.mts.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (the folder holding `test-support/`). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * This environment without the lowercase `npm_*` variables an enclosing `npm test` sets
 * (`npm_config_local_prefix`, `npm_package_json`, ...), which would point a nested npm at the repository.
 */
function cleanEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('npm_')) env[k] = v;
  return { ...env, ...extra };
}

/**
 * The workspace packages the root package.json lists (`workspaces`, entries with one trailing
 * `*` expanded), in its order, with their manifests. Private packages are left out: they are
 * never published.
 */
export function workspacePackages(root = REPO_ROOT) {
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const dirs = [];
  for (const ws of rootManifest.workspaces ?? []) {
    if (ws.endsWith('/*')) {
      const parent = join(root, ws.slice(0, -2));
      for (const d of readdirSync(parent).sort()) if (existsSync(join(parent, d, 'package.json'))) dirs.push(join(ws.slice(0, -2), d));
    } else dirs.push(ws);
  }
  return dirs
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) }))
    .filter((p) => !p.manifest.private)
    .map(({ dir, manifest }) => ({ dir, name: manifest.name, version: manifest.version, manifest }));
}

/**
 * `names` plus every workspace package they need at run time (dependencies and non-optional
 * peer dependencies, transitively), in workspace order.
 */
export function internalClosure(names, packages = workspacePackages()) {
  const byName = new Map(packages.map((p) => [p.name, p]));
  const need = new Set();
  const visit = (name) => {
    const p = byName.get(name);
    if (!p || need.has(name)) return;
    need.add(name);
    const m = p.manifest;
    const optional = m.peerDependenciesMeta ?? {};
    for (const d of Object.keys(m.dependencies ?? {})) visit(d);
    for (const d of Object.keys(m.peerDependencies ?? {})) if (!optional[d]?.optional) visit(d);
  };
  for (const n of names) {
    if (!byName.has(n)) throw new Error(`${n} is not a workspace package (known: ${[...byName.keys()].join(', ')})`);
    visit(n);
  }
  return packages.filter((p) => need.has(p.name));
}

/**
 * `npm pack` each package (default: all workspace packages) into `dest`. Needs a build (dist/).
 * Returns package name -> absolute tarball path.
 */
export function packWorkspaces(dest, packages = workspacePackages(), root = REPO_ROOT) {
  mkdirSync(dest, { recursive: true });
  const args = ['pack', '--json', '--pack-destination', dest, ...packages.flatMap((p) => ['--workspace', p.dir])];
  const out = execFileSync(NPM, args, { cwd: root, env: cleanEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const tarballs = {};
  for (const entry of JSON.parse(out)) tarballs[entry.name] = join(dest, entry.filename);
  return tarballs;
}

/**
 * Install tarballs into `dir` (created; it must not lie inside a folder with a node_modules of
 * this repository): a package.json naming each tarball as a `file:` dependency, then
 * `npm install`. Other dependencies come from the registry (the npm cache first). Native
 * builds (better-sqlite3) run, as for a user. Returns npm's output.
 */
export function installTarballs(dir, tarballs, opts = {}) {
  mkdirSync(dir, { recursive: true });
  const dependencies = {};
  for (const [name, file] of Object.entries(tarballs)) dependencies[name] = `file:${file}`;
  const manifest = { name: 'hive-mind-tarball-install', private: true, version: '0.0.0', dependencies, allowScripts: { 'better-sqlite3': true } };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  return execFileSync(NPM, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--install-links', ...(opts.args ?? [])], {
    cwd: dir,
    encoding: 'utf8',
    env: cleanEnv(opts.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: opts.timeoutMs ?? 600_000,
    maxBuffer: 64 * 1024 * 1024,
  });
}
