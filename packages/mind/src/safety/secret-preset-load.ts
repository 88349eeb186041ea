import { createRequire } from 'node:module';

/**
 * How the secret rule set's module (`@secretlint/secretlint-rule-preset-recommend`, an ES module of
 * 218 kB) is loaded: on first use with `require()`, so a hook that only reads never loads it; where
 * Node cannot `require()` an ES module (before 20.19), it is imported when this module loads.
 *
 * The one part of the redaction that the hook bundle replaces (packages/cli/src/build-hook-bundle.ts):
 * there the preset is inside the bundle, required on first use the same way, and this file (its
 * top-level await) is left out.
 */

/** The rule set's package name. */
export const PRESET_NAME = '@secretlint/secretlint-rule-preset-recommend';

const require = createRequire(import.meta.url);
// Node before 20.19 has no require(esm): the preset is imported up front there
const EAGER = (process.features as { require_module?: boolean }).require_module ? undefined : ((await import(PRESET_NAME)) as { rules: unknown }).rules;

/** The preset's rules, as its module exports them (loads it on the first call). */
export function presetModuleRules(): unknown {
  return EAGER ?? (require(PRESET_NAME) as { rules: unknown }).rules;
}

/** The installed preset's version, read from its package.json (the preset itself is not loaded). */
export function presetPackageVersion(): string {
  return (require(`${PRESET_NAME}/package.json`) as { version: string }).version;
}
