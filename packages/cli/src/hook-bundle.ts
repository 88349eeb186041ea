/**
 * Runs `hive-mind hook HOST EVENT` from the hook bundle (`dist/hook.cjs`, built by
 * build-hook-bundle.ts) with a V8 code cache, which is what bin/hive-mind.js does for `hook`: one
 * file read and, from the second run of an event on, compiled from the cache instead of from source
 * (Node 20 has no `module.enableCompileCache`, so the bundle is compiled with `vm.Script` and its
 * `cachedData`).
 *
 * The cache: `<hive-mind home>/cache/hook-<host>-<event>.v8` (one per event: each holds the
 * functions its event ran), written after the hook has answered when there is none or V8 refused
 * it, atomically (a temporary file renamed over it). A cache file starts with a line naming the
 * bundle (its hash, size and mtime), node's version and arch, and the SHA-1 of the V8 data: V8 itself
 * accepts data made for another text of the same length and does not check its bytes, so a cache
 * whose line does not match, or whose data does not hash to it, is ignored (and written anew).
 *
 * Not used (the caller runs the unbundled path, dist/bin.js, instead) when the bundle is missing,
 * unreadable or not ours, when a `tsc -b` ran after it was built (a package's `.tsbuildinfo` is
 * newer than the header says: the bundle holds older code), or when loading it throws.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { mindHome } from '@hive-mind/mind/home';

/** The bundle's file name, beside this module in dist/. */
export const HOOK_BUNDLE_FILE = 'hook.cjs';
/** The list of the bundle's inputs, beside it (for the import-graph test). */
export const HOOK_BUNDLE_INPUTS_FILE = 'hook-bundle.json';
/** The bundle's first line is `BUNDLE_HEADER_PREFIX + JSON(HookBundleHeader) + BUNDLE_HEADER_SUFFIX`. */
export const BUNDLE_HEADER_PREFIX = '/* hive-mind hook bundle ';
export const BUNDLE_HEADER_SUFFIX = ' */';
/** The first line of a cache file starts with this. */
const CACHE_MAGIC = 'hive-mind hook code cache 1';
/** Host and event names a cache file is named after (anything else runs without a cache). */
const CACHE_NAME_PART = /^[A-Za-z0-9_-]{1,64}$/;

/** What the bundle's first line says of it. */
export interface HookBundleHeader {
  /** Hash of the bundle's text after the header line (hex). */
  id: string;
  /** mtime (ms) of each package's `.tsbuildinfo` the bundle was built from, by path relative to dist/. */
  builds: Record<string, number>;
}

/** A bundle ready to run: its file, text (header line included), header and the stat of the file. */
interface HookBundle {
  file: string;
  source: string;
  header: HookBundleHeader;
  size: number;
  mtimeMs: number;
}

/** Options of {@link runHookBundle}; default to the real process and the bundle beside this module. */
export interface RunHookBundleOptions {
  /** The bundle to run (default dist/hook.cjs). */
  file?: string;
  env?: NodeJS.ProcessEnv;
}

/** What {@link runHookBundle} did: `false` when the bundle is not usable (run the unbundled path). */
export type HookBundleRun = false | { cache: 'used' | 'written' | 'none' };

/** The default bundle: dist/hook.cjs beside this module. */
export function hookBundlePath(): string {
  return join(dirname(fileURLToPath(import.meta.url)), HOOK_BUNDLE_FILE);
}

/** The bundle at `file` with its header, or undefined when missing, unreadable, without our header, or older than a later `tsc -b`. */
export function readHookBundle(file: string): HookBundle | undefined {
  let source: string;
  let st: { size: number; mtimeMs: number };
  try {
    source = readFileSync(file, 'utf8');
    st = statSync(file);
  } catch {
    return undefined;
  }
  const nl = source.indexOf('\n');
  const first = nl < 0 ? '' : source.slice(0, nl);
  if (!first.startsWith(BUNDLE_HEADER_PREFIX) || !first.endsWith(BUNDLE_HEADER_SUFFIX)) return undefined;
  let header: HookBundleHeader;
  try {
    header = JSON.parse(first.slice(BUNDLE_HEADER_PREFIX.length, first.length - BUNDLE_HEADER_SUFFIX.length)) as HookBundleHeader;
  } catch {
    return undefined;
  }
  if (typeof header?.id !== 'string' || !header.builds || typeof header.builds !== 'object') return undefined;
  const dir = dirname(file);
  for (const [rel, mtimeMs] of Object.entries(header.builds)) {
    // a published package has no .tsbuildinfo: nothing to compare; a checkout rebuilt since has a newer one
    const now = statSync(resolve(dir, rel), { throwIfNoEntry: false });
    if (now && now.mtimeMs > mtimeMs) return undefined;
  }
  return { file, source, header, size: st.size, mtimeMs: st.mtimeMs };
}

/** `<home>/cache/hook-<host>-<event>.v8`, or undefined for a host or event name no cache is kept for. */
export function hookCachePath(env: NodeJS.ProcessEnv, host: string | undefined, event: string | undefined): string | undefined {
  if (!host || !event || !CACHE_NAME_PART.test(host) || !CACHE_NAME_PART.test(event)) return undefined;
  return join(mindHome(env), 'cache', `hook-${host}-${event}.v8`);
}

/** The line a cache for `bundle` on this node starts with (without the data's hash). */
function cacheKey(bundle: HookBundle): string {
  return `${CACHE_MAGIC} ${bundle.header.id} ${bundle.size} ${bundle.mtimeMs} ${process.version} ${process.arch}`;
}

/** The V8 data of the cache at `path` when it was made for `key` and is intact, else undefined. */
export function readHookCache(path: string, key: string): Buffer | undefined {
  let raw: Buffer;
  try {
    raw = readFileSync(path);
  } catch {
    return undefined;
  }
  const nl = raw.indexOf(10);
  if (nl < 0) return undefined;
  const line = raw.subarray(0, nl).toString('latin1');
  const data = raw.subarray(nl + 1);
  if (line !== `${key} ${sha1(data)}`) return undefined;
  return data;
}

/** Write the cache for `key` atomically; never throws (a cache that cannot be written is no cache). */
export function writeHookCache(path: string, key: string, data: Buffer): boolean {
  const tmp = `${path}.${process.pid}.tmp`;
  const bytes = Buffer.concat([Buffer.from(`${key} ${sha1(data)}\n`, 'latin1'), data]);
  try {
    try {
      writeFileSync(tmp, bytes, { mode: 0o600 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      // cache/ and, on a first run, the home above it: two plain mkdirs (Node 20's recursive mkdir can hang, mind/dirs.ts)
      try {
        mkdirSync(dirname(path), { mode: 0o700 });
      } catch (m) {
        if ((m as NodeJS.ErrnoException).code !== 'ENOENT') throw m;
        mkdirSync(dirname(dirname(path)), { mode: 0o700 });
        mkdirSync(dirname(path), { mode: 0o700 });
      }
      writeFileSync(tmp, bytes, { mode: 0o600 });
    }
    renameSync(tmp, path);
    return true;
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing was written
    }
    return false;
  }
}

function sha1(data: Buffer): string {
  return createHash('sha1').update(data).digest('hex');
}

/**
 * Run `hive-mind hook ...argv` from the bundle (`argv` as after `hook`: `[HOST, EVENT]`, or
 * `--help`). Resolves `false`, having run nothing, when the bundle is not usable (see the file
 * comment); else once the hook has answered (it never rejects: the hook path catches everything
 * and exits 0), saying whether the code cache was used, written or neither.
 */
export async function runHookBundle(argv: string[], opts: RunHookBundleOptions = {}): Promise<HookBundleRun> {
  const bundle = readHookBundle(opts.file ?? hookBundlePath());
  if (!bundle) return false;
  const env = opts.env ?? process.env;
  const cachePath = argv.length === 2 ? hookCachePath(env, argv[0], argv[1]) : undefined;
  const key = cacheKey(bundle);
  const cachedData = cachePath ? readHookCache(cachePath, key) : undefined;
  const mod: { exports: { runHookEntry?: (argv: string[]) => Promise<void> } } = { exports: {} };
  let script: Script;
  try {
    // the CommonJS wrapper on the header's line, so the bundle's line numbers stay the file's
    script = new Script(`(function (exports, require, module, __filename, __dirname) {${bundle.source}\n})`, { filename: bundle.file, cachedData });
    const init = script.runInThisContext() as (e: unknown, r: NodeJS.Require, m: unknown, f: string, d: string) => void;
    init(mod.exports, createRequire(bundle.file), mod, bundle.file, dirname(bundle.file));
  } catch {
    return false;
  }
  if (typeof mod.exports.runHookEntry !== 'function') return false;
  await mod.exports.runHookEntry(argv);
  if (!cachePath || (cachedData && !script.cachedDataRejected)) return { cache: cachedData ? 'used' : 'none' };
  return { cache: writeHookCache(cachePath, key, script.createCachedData()) ? 'written' : 'none' };
}
