import { isPlaceholderToken, placeholder } from './secret-rules.js';
import { PRESET_NAME, presetModuleRules, presetPackageVersion } from './secret-preset-load.js';

/**
 * The maintained rule set of secret redaction (layer 2 of `redactSecrets`, see redact.ts): every
 * scanner rule of `@secretlint/secretlint-rule-preset-recommend` (MIT, pinned in package.json), run
 * in-process through its rule API (`create(context).file(source)`, synchronous for text sources).
 *
 * The preset (a 218 kB module) is loaded on the first text it scans, not when this module is
 * imported: a hook that only reads (SessionStart, PreCompact) never loads it (secret-preset-load.ts).
 */

/** The part of secretlint's rule API this module uses (see `@secretlint/types`). */
interface LintRule {
  meta: { id: string; type?: string };
  create(
    context: {
      createTranslator: (messages: unknown) => (id: string, props?: unknown) => string;
      report: (d: { message: string; range: readonly [number, number] | number[] }) => void;
      ignore: (d: unknown) => void;
    },
    options: Record<string, unknown>,
  ): { file?: (source: { content: string; filePath: string; ext: string; contentType: 'text' }) => unknown };
}

// secretlint-disable comments are not honoured: a stored text must not switch redaction off.
const PRESET_SKIPPED = new Set(['@secretlint/secretlint-rule-filter-comments']);
// options beyond the preset's defaults: AWS access key ids are off by default in secretlint (noise in
// code review); in memory text an access key id next to its secret is exactly what must not be kept.
const PRESET_OPTIONS: Record<string, Record<string, unknown>> = {
  '@secretlint/secretlint-rule-aws': { enableIDScanRule: true },
};
/**
 * What redacts differently when it changes, beside the preset's version: {@link PRESET_SKIPPED} and
 * {@link PRESET_OPTIONS}. Raise it with either; {@link presetStamp} carries it.
 */
const PRESET_CONFIG_REVISION = 1;

let presetRules: LintRule[] | undefined;

/** The preset's scanner rules (loaded on the first call). */
function rules(): LintRule[] {
  presetRules ??= (presetModuleRules() as LintRule[]).filter((r) => !PRESET_SKIPPED.has(r.meta.id));
  return presetRules;
}

let version: string | undefined;
/** The installed preset's version, read from its package.json (the preset itself is not loaded). */
function presetVersion(): string {
  version ??= presetPackageVersion();
  return version;
}

/**
 * What a text redacted with this rule set is stamped with (the preset's version and
 * {@link PRESET_CONFIG_REVISION}, e.g. `12.0.0+1`): a .mind file whose frames all carry the current
 * stamp needs no second pass of the preset when they are read (store/redaction-stamp.ts).
 */
export function presetStamp(): string {
  return `${presetVersion()}+${PRESET_CONFIG_REVISION}`;
}

/** The type a preset rule's finding is stored under: its id without the `@secretlint/secretlint-rule-` prefix. */
function presetType(id: string): string {
  return id.replace(/^@secretlint\/secretlint-rule-/, '');
}

/** The placeholder types of the preset's rules (loads the preset). */
export function presetTypes(): string[] {
  return rules().map((r) => presetType(r.meta.id));
}

/** The maintained rule set redaction runs, with its installed version (read from its package.json; loads the preset). */
export function secretRuleSet(): { name: string; version: string; rules: string[] } {
  return { name: PRESET_NAME, version: presetVersion(), rules: rules().map((r) => r.meta.id) };
}

const NO_TRANSLATION = () => () => '';
// where a reported range is widened to: the end of the token (quotes, spaces and brackets end it)
const TOKEN_TAIL = /[^\s"'`,;<>(){}[\]]*/y;

/**
 * Ranges the preset reports in `text`, each widened to the end of its token (some rules report a
 * range shorter than the secret), with the rule's type. A JSON text is also scanned as a `.json` file
 * (Google Cloud service-account keys are only looked for there).
 */
function presetFindings(text: string): Array<{ start: number; end: number; type: string }> {
  const found: Array<{ start: number; end: number; type: string }> = [];
  const exts = /^\s*\{/.test(text) ? ['.txt', '.json'] : ['.txt'];
  for (const rule of rules()) {
    const type = presetType(rule.meta.id);
    const handler = rule.create(
      {
        createTranslator: NO_TRANSLATION,
        report: (d) => {
          const start = Number(d.range[0]);
          TOKEN_TAIL.lastIndex = Number(d.range[1]);
          const end = Number(d.range[1]) + (TOKEN_TAIL.exec(text)?.[0].length ?? 0);
          if (end > start) found.push({ start, end, type });
        },
        ignore: () => {},
      },
      PRESET_OPTIONS[rule.meta.id] ?? {},
    );
    for (const ext of exts) handler.file?.({ content: text, filePath: `memory${ext}`, ext, contentType: 'text' });
  }
  return found;
}

/**
 * Replace the preset's findings in `text`, appending each type to `redactions`; skips findings that
 * overlap a placeholder already written and documentation placeholders ({@link isPlaceholderToken}).
 */
export function redactPreset(text: string, redactions: string[]): string {
  const found = presetFindings(text).sort((x, y) => x.start - y.start || y.end - x.end);
  if (found.length === 0) return text;
  let out = '';
  let at = 0;
  for (const f of found) {
    if (f.start < at) continue; // inside the previous finding
    const match = text.slice(f.start, f.end);
    if (match.includes('[REDACTED:')) continue; // a context rule kept the names around it
    if (isPlaceholderToken(match)) continue;
    out += text.slice(at, f.start) + placeholder(f.type);
    redactions.push(f.type);
    at = f.end;
  }
  return out + text.slice(at);
}
