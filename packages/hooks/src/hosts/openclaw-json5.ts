/**
 * Targeted edits of a JSON5 document (OpenClaw's `openclaw.json`) that keep every byte
 * the user wrote outside the edited member: comments, unquoted keys, single quotes,
 * trailing commas, hex numbers, blank lines.
 *
 * Approach: the `json5` package validates the text and gives the data; a small
 * locator (below) finds where each object member starts and ends in the text; new
 * members are inserted as whole lines after the last member of their object, and
 * removed members are deleted as whole lines with their separating comma. Every edit
 * is checked by re-parsing with `json5` and comparing with the intended data; an edit
 * that does not check out is refused (nothing written) instead of re-serializing the
 * file, because `JSON5.stringify` would drop the user's comments.
 */
import JSON5 from 'json5';

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

export interface J5Member {
  key: string;
  /** offset of the key's first character */
  start: number;
  /** end of the member's value */
  end: number;
  value: J5Node;
}

/** Thrown for a document that is not valid JSON5; names file, line and column. */
export class Json5ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Json5ConfigError';
  }
}

/** Parse with `json5`, turning its SyntaxError into `file:line:col: message`. */
export function parseJson5(file: string, text: string): unknown {
  try {
    return JSON5.parse(text);
  } catch (e) {
    const err = e as SyntaxError & { lineNumber?: number; columnNumber?: number };
    throw new Json5ConfigError(`${file}:${err.lineNumber ?? 1}:${err.columnNumber ?? 1}: ${err.message.replace(/^JSON5: /, '')} (nothing was changed)`);
  }
}

const isWs = (c: string) => /[\s\uFEFF\u2028\u2029]/.test(c);

/** Skip whitespace and comments from `i`. */
export function skipTrivia(t: string, i: number): number {
  for (;;) {
    while (i < t.length && isWs(t[i]!)) i++;
    if (t.startsWith('//', i)) {
      const e = t.indexOf('\n', i);
      i = e < 0 ? t.length : e;
    } else if (t.startsWith('/*', i)) {
      const e = t.indexOf('*/', i + 2);
      i = e < 0 ? t.length : e + 2;
    } else return i;
  }
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

/** The node at `path` (object keys only), or undefined. */
export function nodeAtPath(root: J5Node, path: string[]): J5Node | undefined {
  let n: J5Node | undefined = root;
  for (const k of path) {
    if (!n || n.type !== 'object') return undefined;
    n = n.members!.find((m) => m.key === k)?.value;
  }
  return n;
}

const lineStart = (t: string, off: number) => t.lastIndexOf('\n', off - 1) + 1;
const lineEnd = (t: string, off: number) => {
  const i = t.indexOf('\n', off);
  return i < 0 ? t.length : i;
};
const indentAt = (t: string, off: number) => /^[ \t]*/.exec(t.slice(lineStart(t, off)))![0];

/** Indentation unit of a text: a tab, or the smallest run of leading spaces (default 2). */
export function indentUnit(t: string): string {
  if (/\n\t+\S/.test(t)) return '\t';
  let min = Infinity;
  for (const m of t.matchAll(/\n( +)\S/g)) min = Math.min(min, m[1]!.length);
  return ' '.repeat(Number.isFinite(min) ? min : 2);
}

/** A JSON5 key: bare identifier when possible, else double-quoted. */
export function json5Key(k: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k);
}

/** Serialize a plain value as JSON5 text indented to sit at `indent` (nested objects multi-line). */
export function json5Value(v: unknown, indent: string, unit: string, eol: string): string {
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

/**
 * Insert `key: value` as the last member of the object `obj` (a located node of `t`).
 * The new member goes on its own line(s), indented like its siblings; a trailing comma
 * style (comma after the last member) is followed when the object already uses it.
 */
export function insertMember(t: string, obj: J5Node, key: string, value: unknown): string {
  const eol = t.includes('\r\n') ? '\r\n' : '\n';
  const unit = indentUnit(t);
  const members = obj.members!;
  if (members.length === 0) {
    const ind = indentAt(t, obj.start);
    const body = `${ind}${unit}${json5Key(key)}: ${json5Value(value, ind + unit, unit, eol)},`;
    const inner = t.slice(obj.start + 1, obj.end - 1);
    // keep comments that sat inside the empty object
    const keep = inner.trim() ? `${eol}${ind}${unit}${inner.trim()}` : '';
    return t.slice(0, obj.start) + `{${keep}${eol}${body}${eol}${ind}}` + t.slice(obj.end);
  }
  const last = members[members.length - 1]!;
  const ownLine = /^[ \t]*$/.test(t.slice(lineStart(t, last.start), last.start));
  const ind = ownLine ? indentAt(t, last.start) : indentAt(t, obj.start) + unit;
  const after = skipTrivia(t, last.end);
  const trailing = t[after] === ',';
  const member = `${json5Key(key)}: ${json5Value(value, ind, unit, eol)}`;
  const rest = t.slice(trailing ? after + 1 : last.end, lineEnd(t, last.end));
  if (ownLine && /^[ \t]*(\/\/.*|\/\*.*\*\/[ \t]*)?$/.test(rest)) {
    const commaFix = trailing ? t : t.slice(0, last.end) + ',' + t.slice(last.end);
    const at = lineEnd(commaFix, trailing ? after : last.end + 1) + 1;
    const tail = at > commaFix.length ? eol : '';
    return commaFix.slice(0, at) + tail + `${ind}${member}${trailing ? ',' : ''}${eol}` + commaFix.slice(at);
  }
  const at = trailing ? after + 1 : last.end;
  return t.slice(0, at) + `${trailing ? '' : ','} ${member}` + t.slice(at);
}

/** Delete member `index` of `obj` with its separating comma, as whole lines when it sits on its own lines. */
export function removeMember(t: string, obj: J5Node, index: number): string {
  const members = obj.members!;
  const m = members[index]!;
  if (members.length === 1) {
    // leave `{}` (with any comments that were inside, outside the member)
    let s = m.start;
    let e = m.end;
    const k = skipTrivia(t, e);
    if (t[k] === ',') e = k + 1;
    const ls = lineStart(t, s);
    if (/^[ \t]*$/.test(t.slice(ls, s)) && /^[ \t]*$/.test(t.slice(e, lineEnd(t, e)))) {
      s = ls;
      e = Math.min(lineEnd(t, e) + 1, t.length);
    }
    const out = t.slice(0, s) + t.slice(e);
    const inner = out.slice(obj.start + 1, obj.end - 1 - (e - s));
    return inner.trim() === '' ? out.slice(0, obj.start) + '{}' + out.slice(obj.end - (e - s)) : out;
  }
  let s = m.start;
  let e = m.end;
  let commaAt = -1;
  if (index < members.length - 1) {
    const k = skipTrivia(t, e);
    if (t[k] === ',') e = k + 1;
  } else {
    const prev = members[index - 1]!;
    const k = skipTrivia(t, prev.end);
    if (t[k] === ',') commaAt = k;
    const k2 = skipTrivia(t, e);
    if (t[k2] === ',') {
      e = k2 + 1;
      commaAt = -1; // trailing-comma style: the previous member keeps its comma
    }
  }
  const ls = lineStart(t, s);
  if (/^[ \t]*$/.test(t.slice(ls, s)) && /^[ \t]*$/.test(t.slice(e, lineEnd(t, e)))) {
    s = ls;
    e = Math.min(lineEnd(t, e) + 1, t.length);
  } else if (commaAt >= 0) {
    s = commaAt; // inline: drop ", member" as one run
    commaAt = -1;
  } else {
    while (e < t.length && (t[e] === ' ' || t[e] === '\t')) e++; // inline: drop "member, "
  }
  let out = t.slice(0, s) + t.slice(e);
  if (commaAt >= 0 && commaAt < s) out = out.slice(0, commaAt) + out.slice(commaAt + 1);
  return out;
}

/** Replace the text of a located value. */
export function replaceValue(t: string, node: J5Node, value: unknown): string {
  return t.slice(0, node.start) + JSON.stringify(value) + t.slice(node.end);
}

/** Deep equality of parsed JSON data. */
export function sameData(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  return v;
}
