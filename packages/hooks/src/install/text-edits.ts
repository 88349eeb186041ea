import { createHash } from 'node:crypto';
import type { ConfigFormat, Path } from './format.js';

/**
 * Text-edit helpers shared by the config editors (format-*.ts). Every edit inserts or
 * deletes whole lines (or, inside a one-line container, one `, element` run) at
 * positions a real parser located, so the user's bytes around it never move: comments,
 * indentation (tabs or spaces), CRLF, a missing final newline, compact one-line entries.
 */

/** Start offset of the line holding `off`. */
export const lineStart = (t: string, off: number): number => t.lastIndexOf('\n', off - 1) + 1;
/** Offset of the `\n` ending the line holding `off` (or the text length). */
const lineEnd = (t: string, off: number): number => {
  const i = t.indexOf('\n', off);
  return i < 0 ? t.length : i;
};
/** Offset just past the line break ending the line holding `off` (or the text length). */
export const lineEndIncl = (t: string, off: number): number => Math.min(lineEnd(t, off) + 1, t.length);
/** The leading blanks of the line holding `off`. */
const indentAt = (t: string, off: number): string => /^[ \t]*/.exec(t.slice(lineStart(t, off)))![0];
/** True when only blanks precede `off` on its line. */
const startsLine = (t: string, off: number): boolean => /^[ \t]*$/.test(t.slice(lineStart(t, off), off));

/** The text's line break: `\r\n` when it uses it, else `\n`. */
export function eolOf(t: string): string {
  return t.includes('\r\n') ? '\r\n' : '\n';
}

/** Indentation unit of a text: a tab when lines are tab-indented, else the smallest run of leading spaces (default 2). */
export function indentUnit(t: string): string {
  if (/\n\t+\S/.test(t)) return '\t';
  let min = Infinity;
  for (const m of t.matchAll(/\n( +)\S/g)) min = Math.min(min, m[1]!.length);
  return ' '.repeat(Number.isFinite(min) ? Math.min(min, 8) : 2);
}

/** Skip whitespace and `//` / `/* *\/` comments (JSONC, JSON5) from `i`. */
export function skipTrivia(t: string, i: number): number {
  for (;;) {
    while (i < t.length && /[\s\uFEFF]/.test(t[i]!)) i++;
    if (t.startsWith('//', i)) i = lineEnd(t, i);
    else if (t.startsWith('/*', i)) {
      const e = t.indexOf('*/', i + 2);
      i = e < 0 ? t.length : e + 2;
    } else return i;
  }
}

/** True when `s` holds only blanks and at most one trailing comment (what may follow an element on its line). */
const restIsTrivia = (s: string) => /^[ \t]*(\/\/[^\n]*|\/\*[^\n]*?\*\/[ \t]*)?\r?$/.test(s);

/** A located container (`{…}` or `[…]`): offsets of its brackets and of each child (a member from its key, or an item). */
export interface Container {
  /** Offset of the opening bracket. */
  start: number;
  /** Offset just past the closing bracket. */
  end: number;
  children: Array<{ start: number; end: number }>;
  /** The members' keys, in order (objects only). */
  keys?: string[];
}

/**
 * Render a child for insertion: `indent` is the indentation of the line it starts on;
 * `multiline` says whether the child gets lines of its own (else it goes inline, one line).
 */
type RenderChild = (indent: string, multiline: boolean) => string;

/**
 * Insert a child after the last one of `c` (bracket languages: JSON, JSONC, JSON5).
 * - After a child that ends its line: a comma after it (unless the container already
 *   uses a trailing comma), then the new child on lines of its own, indented like it.
 * - After a child with more on its line (`[{…}]`, `{"a":1}`): inline, `, <child>`.
 * - In an empty container: `{` newline, the child one level deeper, newline `}` when the
 *   document spans several lines; `{ <child> }` in a one-line document.
 */
function insertChild(t: string, c: Container, render: RenderChild): string {
  const eol = eolOf(t);
  const unit = indentUnit(t);
  const kids = c.children;
  if (kids.length === 0) {
    const ind = indentAt(t, c.start);
    const multiline = t.includes('\n');
    const inner = t.slice(c.start + 1, c.end - 1);
    // comments that sat inside the empty container stay, on their own line before the child
    const keep = inner.trim() ? `${eol}${ind}${unit}${inner.trim()}` : '';
    const body = multiline ? `${keep}${eol}${ind}${unit}${render(ind + unit, true)}${eol}${ind}` : `${keep} ${render(ind, false)} `;
    return t.slice(0, c.start + 1) + body + t.slice(c.end - 1);
  }
  const last = kids[kids.length - 1]!;
  const after = skipTrivia(t, last.end);
  const trailingComma = t[after] === ',' && after < c.end - 1;
  const restStart = trailingComma ? after + 1 : last.end;
  const rest = t.slice(restStart, lineEnd(t, restStart));
  if (startsLine(t, last.start) && restIsTrivia(rest) && lineEnd(t, restStart) < c.end - 1) {
    const ind = indentAt(t, last.start);
    const at = lineEndIncl(t, restStart);
    const child = `${ind}${render(ind, true)}${trailingComma ? ',' : ''}${eol}`;
    const withComma = trailingComma ? t : t.slice(0, last.end) + ',' + t.slice(last.end);
    const shift = trailingComma ? 0 : 1;
    return withComma.slice(0, at + shift) + child + withComma.slice(at + shift);
  }
  const ind = indentAt(t, last.start);
  if (trailingComma) return t.slice(0, after + 1) + ` ${render(ind, false)},` + t.slice(after + 1);
  return t.slice(0, last.end) + `, ${render(ind, false)}` + t.slice(last.end);
}

/**
 * Delete child `idx` of `c` with its separating comma: the exact inverse of
 * {@link insertChild} for what it inserted, and for any other child the smallest run that
 * keeps the rest valid (its own lines when it has lines of its own, else `child, `).
 * The only child leaves `{}`/`[]` (comments inside stay).
 */
function removeChild(t: string, c: Container, idx: number): string {
  const kids = c.children;
  const el = kids[idx]!;
  const afterEl = skipTrivia(t, el.end);
  const ownComma = t[afterEl] === ',' && afterEl < c.end - 1 ? afterEl : -1;
  const end = ownComma >= 0 ? ownComma + 1 : el.end;
  const ownLines = startsLine(t, el.start) && restIsTrivia(t.slice(end, lineEnd(t, end))) && lineEnd(t, end) < c.end - 1;
  if (kids.length === 1) {
    const s = ownLines ? lineStart(t, el.start) : el.start;
    const e = ownLines ? lineEndIncl(t, end) : end;
    const out = t.slice(0, s) + t.slice(e);
    const close = c.end - (e - s);
    const inner = out.slice(c.start + 1, close - 1);
    return inner.trim() === '' ? out.slice(0, c.start + 1) + out.slice(close - 1) : out;
  }
  const last = idx === kids.length - 1;
  if (ownLines) {
    let out = t.slice(0, lineStart(t, el.start)) + t.slice(lineEndIncl(t, end));
    if (last && ownComma < 0) {
      // the comma our insert put after the previous child goes again
      const prev = kids[idx - 1]!;
      const k = skipTrivia(out, prev.end);
      if (out[k] === ',') out = out.slice(0, k) + out.slice(k + 1);
    }
    return out;
  }
  if (last) {
    const prev = kids[idx - 1]!;
    const k = skipTrivia(t, prev.end);
    // `prev, el` -> `prev`; `prev, el,` (trailing-comma style) -> `prev,`
    const s = ownComma >= 0 ? k + 1 : prev.end;
    return t.slice(0, s) + t.slice(end);
  }
  let e = end;
  while (e < t.length && (t[e] === ' ' || t[e] === '\t')) e++;
  return t.slice(0, el.start) + t.slice(e);
}

/**
 * One recorded text edit: the exact bytes install replaced (`removed`, usually '') and
 * wrote (`inserted`, our own text), located by a hash of the whole lines around it, not by
 * a copy of them (those lines are the user's and may hold secrets, e.g. an API key in
 * `env`). Install keeps these in its record so uninstall can first put the user's exact
 * bytes back ({@link undoEdit}) before falling back to structural removal.
 */
export interface TextEdit {
  removed: string;
  inserted: string;
  /** Offset of `inserted` from the start of its first line. */
  column: number;
  /** sha256 (hex) of the whole lines holding `inserted`, as install left them. */
  lines: string;
  /** The edit reached the end of the text (which then had no final line break after it). */
  atEnd: boolean;
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
/** End of the whole lines holding `[start, end)`. */
const wideEnd = (t: string, start: number, end: number) => (end > start && t[end - 1] === '\n' ? end : lineEndIncl(t, end));

/** The edit turning `before` into `after` (one contiguous change), or undefined when equal. */
export function recordEdit(before: string, after: string): TextEdit | undefined {
  if (before === after) return undefined;
  let p = 0;
  while (p < before.length && p < after.length && before[p] === after[p]) p++;
  let s = 0;
  while (s < before.length - p && s < after.length - p && before[before.length - 1 - s] === after[after.length - 1 - s]) s++;
  const end = after.length - s;
  const ls = lineStart(after, p);
  return { removed: before.slice(p, before.length - s), inserted: after.slice(p, end), column: p - ls, lines: sha(after.slice(ls, wideEnd(after, p, end))), atEnd: s === 0 };
}

/**
 * Undo `e` on `t`: where `e.inserted` occurs exactly once within lines that hash as
 * recorded (so nothing on them changed since), put `e.removed` back. Undefined when it is
 * not there unchanged (the user edited it) or is ambiguous.
 */
export function undoEdit(t: string, e: TextEdit): string | undefined {
  if (e.inserted === '') return undefined;
  const at: number[] = [];
  for (let i = t.indexOf(e.inserted); i >= 0 && at.length < 2; i = t.indexOf(e.inserted, i + 1)) {
    const end = i + e.inserted.length;
    const ls = lineStart(t, i);
    if (i - ls === e.column && (!e.atEnd || end === t.length) && sha(t.slice(ls, wideEnd(t, i, end))) === e.lines) at.push(i);
  }
  if (at.length !== 1) return undefined;
  const i = at[0]!;
  return t.slice(0, i) + e.removed + t.slice(i + e.inserted.length);
}

/** What a bracket language (JSON, JSON5) gives {@link bracketEdits}: its containers located, and how it writes a value. */
export interface BracketLanguage {
  /** The object or array at `path` (throws UnsupportedEdit when there is none). */
  container(text: string, path: Path): Container;
  /** How to write `value` (as member `key` when given). */
  render(text: string, key: string | undefined, value: unknown): RenderChild;
}

/** The member and item edits of a bracket language, from its locator ({@link insertChild}, {@link removeChild}). */
export function bracketEdits(lang: BracketLanguage): Pick<ConfigFormat, 'insertMember' | 'removeMember' | 'appendItem' | 'removeItem'> {
  return {
    insertMember(text, path, key, value) {
      let t = text.trim() ? text : '{}\n';
      // a document of only comments has no object yet: one goes below them
      if (path.length === 0 && skipTrivia(t, 0) === t.length) t = `${t}${t.endsWith('\n') ? '' : eolOf(t)}{}${eolOf(t)}`;
      return insertChild(t, lang.container(t, path), lang.render(t, key, value));
    },
    removeMember(text, path, key) {
      const c = lang.container(text, path);
      const i = (c.keys ?? []).indexOf(key);
      return i < 0 ? text : removeChild(text, c, i);
    },
    appendItem: (text, path, value) => insertChild(text, lang.container(text, path), lang.render(text, undefined, value)),
    removeItem: (text, path, index) => removeChild(text, lang.container(text, path), index),
  };
}
