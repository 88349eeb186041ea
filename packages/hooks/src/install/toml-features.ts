/**
 * Targeted text edits of Codex `config.toml` for `[features] hooks = true` (the flag
 * Codex 0.171.0 needs before it runs user hooks; shared/data/README.md). The user's
 * TOML is kept byte for byte apart from the one line we add or change, which carries
 * the marker comment {@link TOML_MARKER}. smol-toml validates the file before and after:
 * if the edit would change any other value, nothing is written.
 */
import { parse, TomlError } from 'smol-toml';
import { ConfigError } from './json-hooks.js';

/** Comment ending the line we write. */
export const TOML_MARKER = '# added by hive-mind';

/** How {@link enableHooksFeature} changed the file (stored in the install state so uninstall can undo exactly that). */
export type FeatureEdit = { kind: 'none' } | { kind: 'inserted' } | { kind: 'replaced'; previous: string } | { kind: 'appended-table' };

function parseToml(file: string, text: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TomlError) throw new ConfigError(`${file}: line ${e.line}, column ${e.column}: ${e.message.split('\n')[0]}; fix the file, nothing was changed`);
    throw e;
  }
}

const HEADER = /^[ \t]*\[[ \t]*features[ \t]*\][ \t]*(?:#.*)?$/;
const ANY_HEADER = /^[ \t]*\[/;
const HOOKS_LINE = /^[ \t]*(?:hooks|"hooks"|'hooks')[ \t]*=/;

function featuresRange(lines: string[]): { header: number; end: number } | undefined {
  const header = lines.findIndex((l) => HEADER.test(l));
  if (header < 0) return undefined;
  let end = header + 1;
  while (end < lines.length && !ANY_HEADER.test(lines[end]!)) end++;
  return { header, end };
}

function sameExceptFeatureHooks(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const strip = (o: Record<string, unknown>) => {
    const c = structuredClone(o);
    const f = c.features as Record<string, unknown> | undefined;
    if (f && typeof f === 'object') {
      delete f.hooks;
      if (Object.keys(f).length === 0) delete c.features;
    }
    return JSON.stringify(c, (_k, v) => (v instanceof Date ? v.toISOString() : typeof v === 'bigint' ? v.toString() : v));
  };
  return strip(a) === strip(b);
}

/**
 * Ensure `[features] hooks = true`. Returns the new text and what changed. Throws
 * {@link ConfigError} (file, line, field) when the file is not valid TOML, or when
 * `features` is written as dotted keys or an inline table that a line edit cannot
 * change safely.
 */
export function enableHooksFeature(file: string, text: string): { text: string; edit: FeatureEdit } {
  const before = parseToml(file, text);
  const features = before.features as Record<string, unknown> | undefined;
  if (features && features.hooks === true) return { text, edit: { kind: 'none' } };
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const range = featuresRange(lines);
  const ourLine = `hooks = true ${TOML_MARKER}`;
  let edit: FeatureEdit;
  if (range) {
    const idx = lines.slice(range.header + 1, range.end).findIndex((l) => HOOKS_LINE.test(l));
    if (idx >= 0) {
      const at = range.header + 1 + idx;
      edit = { kind: 'replaced', previous: lines[at]! };
      lines[at] = ourLine;
    } else {
      lines.splice(range.header + 1, 0, ourLine);
      edit = { kind: 'inserted' };
    }
  } else if (features === undefined) {
    while (lines.length && lines[lines.length - 1] === '') lines.pop();
    if (lines.length) lines.push('');
    lines.push('[features]', ourLine, '');
    edit = { kind: 'appended-table' };
  } else {
    throw new ConfigError(`${file}: field "features" is written as dotted keys or an inline table; add \`hooks = true\` to it yourself (nothing was changed)`);
  }
  let out = lines.join(eol);
  if (edit.kind === 'appended-table' && !out.endsWith(eol)) out += eol;
  const after = parseToml(file, out);
  if ((after.features as Record<string, unknown> | undefined)?.hooks !== true || !sameExceptFeatureHooks(before, after)) {
    throw new ConfigError(`${file}: could not add [features] hooks = true without changing other settings; add it yourself (nothing was changed)`);
  }
  return { text: out, edit };
}

/**
 * Undo {@link enableHooksFeature}: only a line still carrying {@link TOML_MARKER} in
 * `[features]` is touched (a line the user edited since is theirs). `replaced` restores
 * the previous line, `inserted` removes ours, `appended-table` removes the table when
 * ours is its only line. Returns the text unchanged when there is nothing of ours.
 */
export function disableHooksFeature(file: string, text: string, edit: FeatureEdit | undefined): string {
  if (!edit || edit.kind === 'none') return text;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const range = featuresRange(lines);
  if (!range) return text;
  const rel = lines.slice(range.header + 1, range.end).findIndex((l) => HOOKS_LINE.test(l) && l.includes(TOML_MARKER) && /=\s*true\b/.test(l));
  if (rel < 0) return text;
  const at = range.header + 1 + rel;
  if (edit.kind === 'replaced') lines[at] = edit.previous;
  else {
    lines.splice(at, 1);
    if (edit.kind === 'appended-table') {
      const body = lines.slice(range.header + 1, range.end - 1).filter((l) => l.trim() !== '');
      if (body.length === 0) {
        lines.splice(range.header, range.end - 1 - range.header);
      }
    }
  }
  const out = lines.join(eol);
  parseToml(file, out);
  return out;
}
