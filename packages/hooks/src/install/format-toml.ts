/**
 * TOML config format, for the few edits an installer makes (Codex `config.toml`:
 * `[features] hooks = true`). smol-toml parses and validates; edits are whole lines: a
 * key line added after the last key line of its `[table]`, a key line replaced, a table appended
 * at the end, or removed. Every line we write ends with {@link TOML_MARKER}. Keys written
 * as dotted keys (`features.hooks = …`) or inline tables are not edited (UnsupportedEdit).
 */
import { parse, TomlError } from 'smol-toml';
import { HostConfigError } from './errors.js';
import { UnsupportedEdit, type ConfigFormat, type Path } from './format.js';
import { eolOf, lineEndIncl } from './text-edits.js';

/** Comment ending every line we write. */
const TOML_MARKER = '# added by hive-mind';

const bare = (k: string) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k));
const keyRe = (k: string) => new RegExp(`^[ \\t]*(?:${k.replace(/[-]/g, '\\-')}|"${k}"|'${k}')[ \\t]*=`);
const HEADER = /^[ \t]*\[[ \t]*([^\]\s]+)[ \t]*\][ \t]*(?:#.*)?\r?$/;
/** A header's table name without quotes (`["features"]` and `['features']` name the table `features`). */
const headerName = (line: string): string | undefined => HEADER.exec(line)?.[1]?.replace(/^"([^"]*)"$|^'([^']*)'$/, '$1$2');
/** Offset of the first line defining `name` as dotted keys (`name.x = …`) or an inline table (`name = {…}`), for error locations. */
function dottedAt(t: string, name: string): number | undefined {
  const n = name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  const m = new RegExp(`^([ \\t]*)(?:${n}|"${n}"|'${n}')[ \\t]*[.=]`, 'm').exec(t);
  return m ? m.index + m[1]!.length : undefined;
}

/** Line offsets of a text: `[start, end incl. break]` per line. */
function lines(t: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let s = 0; s < t.length; ) {
    const e = lineEndIncl(t, s);
    out.push([s, e]);
    s = e;
  }
  return out;
}

/** The `[name]` table: header line index and the index past its last line. */
function table(t: string, name: string): { ls: Array<[number, number]>; header: number; end: number } | undefined {
  const ls = lines(t);
  const header = ls.findIndex(([s, e]) => headerName(t.slice(s, e).replace(/\n$/, '')) === name);
  if (header < 0) return undefined;
  let end = header + 1;
  while (end < ls.length && !/^[ \t]*\[/.test(t.slice(...ls[end]!))) end++;
  return { ls, header, end };
}

function keyLine(t: string, path: Path): { s: number; e: number } {
  if (path.length !== 2) throw new UnsupportedEdit(undefined, 'only keys of a top-level [table] are edited');
  const tb = table(t, String(path[0]));
  if (!tb) throw new UnsupportedEdit(dottedAt(t, String(path[0])), `"${path[0]}" is written as dotted keys or an inline table`);
  for (let i = tb.header + 1; i < tb.end; i++) {
    const [s, e] = tb.ls[i]!;
    if (keyRe(String(path[1])).test(t.slice(s, e))) return { s, e };
  }
  throw new UnsupportedEdit(tb.ls[tb.header]![0], `no "${path[1]}" line in [${path[0]}]`);
}

const ourLine = (key: string, value: unknown, eol: string) => `${bare(key)} = ${JSON.stringify(value)} ${TOML_MARKER}${eol}`;

export const TOML_FORMAT: ConfigFormat = {
  name: 'TOML',
  empty: '',
  parse(file, text) {
    try {
      return parse(text) as Record<string, unknown>;
    } catch (e) {
      if (e instanceof TomlError) throw new HostConfigError(file, e.line, e.column, e.message.split('\n')[0]!.replace(/^Invalid TOML document: /, ''));
      throw e;
    }
  },
  insertMember(text, path, key, value) {
    const eol = eolOf(text);
    if (path.length === 0) {
      if (!value || typeof value !== 'object' || Object.values(value).some((v) => v !== null && typeof v === 'object')) throw new UnsupportedEdit(undefined, 'only a table of plain values is appended');
      // a blank line before the table; a text without a final line break gets none after it either
      const open = text !== '' && !text.endsWith('\n');
      const sep = text === '' ? '' : open ? eol + eol : eol;
      const table = `[${bare(key)}]${eol}` + Object.entries(value).map(([k, v]) => ourLine(k, v, eol)).join('');
      return text + sep + (open ? table.slice(0, -eol.length) : table);
    }
    if (path.length !== 1) throw new UnsupportedEdit(undefined, 'only keys of a top-level [table] are edited');
    const tb = table(text, String(path[0]));
    if (!tb) throw new UnsupportedEdit(dottedAt(text, String(path[0])), `"${path[0]}" is written as dotted keys or an inline table`);
    // after the table's last key line (its trailing blank and comment lines stay below)
    let last = tb.header;
    for (let i = tb.header + 1; i < tb.end; i++) if (!/^[ \t]*(#.*)?\r?\n?$/.test(text.slice(...tb.ls[i]!))) last = i;
    const at = tb.ls[last]![1];
    const brk = text.slice(0, at).endsWith('\n') ? '' : eol;
    return text.slice(0, at) + brk + ourLine(key, value, brk ? '' : eol) + text.slice(at);
  },
  // the exact inverse of insertMember for what it wrote: a table or key line at the end also takes the line break (and blank line) put before it
  removeMember(text, path, key) {
    if (path.length === 0) {
      const tb = table(text, key);
      if (!tb) throw new UnsupportedEdit(dottedAt(text, key), `"${key}" is written as dotted keys or an inline table`);
      let s = tb.ls[tb.header]![0];
      const e = tb.end < tb.ls.length ? tb.ls[tb.end]![0] : text.length;
      if (e === text.length && s > 0) {
        const before = text.slice(0, s);
        const brk = (t: string) => (t.endsWith('\r\n') ? 2 : t.endsWith('\n') ? 1 : 0);
        // `text␤␤[table]…` without a final break: both breaks were ours; with one: the blank line was
        const n = brk(before);
        const m = n ? brk(before.slice(0, -n)) : 0;
        if (m) s -= text.endsWith('\n') ? n : n + m;
      }
      return text.slice(0, s) + text.slice(e);
    }
    let { s, e } = keyLine(text, [...path, key]);
    if (e === text.length && !text.endsWith('\n') && s > 0) s -= text[s - 2] === '\r' ? 2 : 1;
    return text.slice(0, s) + text.slice(e);
  },
  appendItem() {
    throw new UnsupportedEdit(undefined, 'arrays are not edited');
  },
  removeItem() {
    throw new UnsupportedEdit(undefined, 'arrays are not edited');
  },
  replaceValue(text, path, value) {
    const { s, e } = keyLine(text, path);
    const brk = text.slice(s, e).endsWith('\r\n') ? '\r\n' : text.slice(s, e).endsWith('\n') ? '\n' : '';
    return text.slice(0, s) + ourLine(String(path[path.length - 1]), value, brk) + text.slice(e);
  },
  offsetOf(text, path) {
    if (path.length === 0) return 0;
    const tb = table(text, String(path[0]));
    if (!tb) return undefined;
    if (path.length === 1) return tb.ls[tb.header]![0];
    try {
      return keyLine(text, path).s;
    } catch {
      return tb.ls[tb.header]![0];
    }
  },
};
