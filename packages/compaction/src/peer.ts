import { createRequire } from 'node:module';
import { MissingPackageError } from './errors.js';

/**
 * Load an optional peer dependency on first use. `load` is the caller's own `import()` of
 * `packageName` (so bundlers and type checkers see the specifier); when Node cannot find that
 * package, the error becomes a {@link MissingPackageError} that names it, the feature that
 * needs it and the install command with the range this package's `peerDependencies` declare.
 * Any other failure (a broken install, a missing dependency of the peer itself) is rethrown as is.
 * @throws MissingPackageError when `packageName` is not installed.
 */
export async function importPeer<T>(packageName: string, feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (!isNotFound(err, packageName)) throw err;
    const range = peerRange(packageName);
    throw new MissingPackageError(
      `${feature} needs the package ${packageName}, which is not installed (an optional peer dependency of @hive-mind/compaction): run \`npm install ${packageName}${range ? `@${range}` : ''}\``,
      packageName,
    );
  }
}

/** Node's "Cannot find package 'X'" for this package itself (ESM `ERR_MODULE_NOT_FOUND`, CJS `MODULE_NOT_FOUND`). */
function isNotFound(err: unknown, packageName: string): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || (e.code !== 'ERR_MODULE_NOT_FOUND' && e.code !== 'MODULE_NOT_FOUND')) return false;
  return String(e.message).includes(`'${packageName}'`);
}

/** The range our package.json declares for `packageName` (read only on this error path). */
function peerRange(packageName: string): string | undefined {
  try {
    const pkg = createRequire(import.meta.url)('../package.json') as { peerDependencies?: Record<string, string> };
    return pkg.peerDependencies?.[packageName];
  } catch {
    return undefined;
  }
}
