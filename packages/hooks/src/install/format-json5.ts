/**
 * JSON5 config format (OpenClaw `openclaw.json`): the `json5` package validates and gives
 * the data; a small locator (below) finds where each member and item starts and ends, and
 * the edits are the line-preserving ones of text-edits.ts, so comments, unquoted keys,
 * single quotes, trailing commas, hex numbers and blank lines stay byte for byte
 * (`JSON5.stringify` would drop the comments, so the file is never re-serialised).
 */
import JSON5 from 'json5';
import { HostConfigError } from './errors.js';
import { UnsupportedEdit, type ConfigFormat, type Path } from './format.js';
import { bracketEdits, eolOf, indentUnit, skipTrivia, type Container } from './text-edits.js';

/** A located value: `start`/`end` are offsets into the text (end exclusive). */
export interface J5Node {
  type: 'object' | 'array' | 'value';
  start: number;
  end: number;
  /** object members, in order */
  members?: J5Member[];
  /** array items, in order */
  items?: J5Node[];
}

interface J5Member {
  key: string;
  /** offset of the key's first character */
  start: number;
  /** end of the member's value */
  end: number;
  value: J5Node;
}

function scanString(t: string, i: number): { value: string; end: number } {
  const q = t[i]!;
  let j = i + 1;
  while (j < t.length && t[j] !== q) j += t[j] === '\\' ? 2 : 1;
  const raw = t.slice(i, j + 1);
  return { value: JSON5.parse(raw) as string, end: j + 1 };
}

/**
 * Locate the values of a document `json5` already accepted. Offsets only; the data
 * itself always comes from `JSON5.parse`.
 */
export function locate(t: string): J5Node {
  let i = 0;
  const value = (): J5Node => {
    i = skipTrivia(t, i);
    const start = i;
    const c = t[i];
    if (c === '{') {
      i++;
      const members: J5Member[] = [];
      for (;;) {
        i = skipTrivia(t, i);
        if (t[i] === '}') {
          i++;
          break;
        }
        const kStart = i;
        let key: string;
        if (t[i] === '"' || t[i] === "'") {
          const s = scanString(t, i);
          key = s.value;
          i = s.end;
        } else {
          const m = /^(?:[\p{ID_Start}$_]|\\u[0-9a-fA-F]{4})(?:[\p{ID_Continue}$_\u200C\u200D]|\\u[0-9a-fA-F]{4})*/u.exec(t.slice(i));
          if (!m) throw new Error(`json5 locator: key expected at offset ${i}`);
          key = Object.keys(JSON5.parse(`{${m[0]}:0}`) as object)[0] ?? m[0];
          i += m[0].length;
        }
        i = skipTrivia(t, i);
        i++; // ':'
        const v = value();
        members.push({ key, start: kStart, end: v.end, value: v });
        i = skipTrivia(t, i);
        if (t[i] === ',') i++;
      }
      return { type: 'object', start, end: i, members };
    }
    if (c === '[') {
      i++;
      const items: J5Node[] = [];
      for (;;) {
        i = skipTrivia(t, i);
        if (t[i] === ']') {
          i++;
          break;
        }
        items.push(value());
        i = skipTrivia(t, i);
        if (t[i] === ',') i++;
      }
      return { type: 'array', start, end: i, items };
    }
    if (c === '"' || c === "'") {
      i = scanString(t, i).end;
      return { type: 'value', start, end: i };
    }
    const m = /^[^\s,\]}/]+/.exec(t.slice(i));
    if (!m) throw new Error(`json5 locator: value expected at offset ${i}`);
    i += m[0].length;
    return { type: 'value', start, end: i };
  };
  return value();
}


/** The node at `path` (object keys and array indexes), or undefined. */
export function nodeAtPath(root: J5Node, path: Path): J5Node | undefined {
  let n: J5Node | undefined = root;
  for (const k of path) {
    if (!n) return undefined;
    if (n.type === 'object') n = n.members!.find((m) => m.key === k)?.value;
    else if (n.type === 'array' && typeof k === 'number') n = n.items![k];
    else return undefined;
  }
  return n;
}

/** A JSON5 key: bare identifier when possible, else double-quoted. */
function json5Key(k: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k);
}

/** Serialize a plain value as JSON5 text indented to sit at `indent` (nested objects multi-line). */
function json5Value(v: unknown, indent: string, unit: string, eol: string): string {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    // a small object of plain values stays on one line: { enabled: true }
    if (entries.length <= 3 && entries.every(([, x]) => x === null || typeof x !== 'object')) {
      return `{ ${entries.map(([k, x]) => `${json5Key(k)}: ${JSON.stringify(x)}`).join(', ')} }`;
    }
    const inner = indent + unit;
    return `{${eol}${entries.map(([k, x]) => `${inner}${json5Key(k)}: ${json5Value(x, inner, unit, eol)}`).join(`,${eol}`)},${eol}${indent}}`;
  }
  return JSON.stringify(v);
}

/** One-line JSON5: `{ enabled: true }`. */
function json5Inline(v: unknown): string {
  if (Array.isArray(v)) return v.length ? `[ ${v.map(json5Inline).join(', ')} ]` : '[]';
  if (v && typeof v === 'object') {
    const e = Object.entries(v as Record<string, unknown>);
    return e.length ? `{ ${e.map(([k, x]) => `${json5Key(k)}: ${json5Inline(x)}`).join(', ')} }` : '{}';
  }
  return JSON.stringify(v);
}

function container(n: J5Node): Container {
  const children = n.type === 'object' ? n.members!.map((m) => ({ start: m.start, end: m.end })) : (n.items ?? []).map((i) => ({ start: i.start, end: i.end }));
  return { start: n.start, end: n.end, children, ...(n.type === 'object' ? { keys: n.members!.map((m) => m.key) } : {}) };
}

function at(text: string, path: Path): J5Node {
  const n = nodeAtPath(locate(text), path);
  if (!n || n.type === 'value') throw new UnsupportedEdit(undefined, `no object or array at ${path.join('.')}`);
  return n;
}

function render(text: string, key: string | undefined, v: unknown) {
  const unit = indentUnit(text);
  const eol = eolOf(text);
  return (indent: string, multiline: boolean) => (key === undefined ? '' : `${json5Key(key)}: `) + (multiline ? json5Value(v, indent, unit, eol) : json5Inline(v));
}

export const JSON5_FORMAT: ConfigFormat = {
  name: 'JSON5',
  empty: '{}\n',
  parse(file, text) {
    if (!text.trim()) return {};
    let v: unknown;
    try {
      v = JSON5.parse(text);
    } catch (e) {
      const err = e as SyntaxError & { lineNumber?: number; columnNumber?: number };
      // json5 ends its message with the location (`… at 3:6`), which the error already gives
      throw new HostConfigError(file, err.lineNumber ?? 1, err.columnNumber ?? 1, err.message.replace(/^JSON5: /, '').replace(/ at \d+:\d+$/, ''));
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw HostConfigError.at(file, text, skipTrivia(text, 0), 'the top level must be an object');
    return v as Record<string, unknown>;
  },
  ...bracketEdits({ container: (text, path) => container(at(text, path)), render }),
  replaceValue(text, path, value) {
    const n = nodeAtPath(locate(text), path);
    if (!n) throw new UnsupportedEdit(undefined, `nothing at ${path.join('.')}`);
    return text.slice(0, n.start) + json5Inline(value) + text.slice(n.end);
  },
  offsetOf(text, path) {
    try {
      const root = locate(text);
      if (!path.length) return root.start;
      const parent = nodeAtPath(root, path.slice(0, -1));
      const m = parent?.members?.find((x) => x.key === path[path.length - 1]);
      return m?.start ?? nodeAtPath(root, path)?.start;
    } catch {
      return undefined;
    }
  },
};
