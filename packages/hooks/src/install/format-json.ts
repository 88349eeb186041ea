/**
 * JSON / JSONC config format (Claude Code `settings.json`, Codex `hooks.json`, Cursor
 * `hooks.json`): jsonc-parser parses (comments and trailing commas tolerated) and locates
 * every node; the edits are the line-preserving ones of text-edits.ts. jsonc-parser's own
 * `modify` is not used: it re-formats the neighbouring elements (a compact one-line entry
 * of the user's would come back expanded).
 */
import { findNodeAtLocation, parse, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { HostConfigError } from './errors.js';
import { UnsupportedEdit, type ConfigFormat, type Path } from './format.js';
import { bracketEdits, eolOf, indentUnit, type Container } from './text-edits.js';

const OPTS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };

/** jsonc-parser's error codes (`ParseErrorCode`) in words. */
const JSON_ERRORS: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'a number is malformed',
  PropertyNameExpected: 'a property name (in double quotes) is expected',
  ValueExpected: 'a value is expected',
  ColonExpected: 'a colon is expected',
  CommaExpected: 'a comma is expected',
  CloseBraceExpected: 'a closing } is expected',
  CloseBracketExpected: 'a closing ] is expected',
  EndOfFileExpected: 'nothing may follow the top-level value',
  InvalidCommentToken: 'a comment (strict JSON has none)',
  UnexpectedEndOfComment: 'a comment is not closed',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a number is cut short',
  InvalidUnicode: 'a \\u escape is malformed',
  InvalidEscapeCharacter: 'an escape character is invalid',
  InvalidCharacter: 'a string holds a control character',
};
const describeError = (e: ParseError): string => {
  const code = printParseErrorCode(e.error);
  return JSON_ERRORS[code] ?? code;
};

function tree(text: string): Node | undefined {
  return parseTree(text, [], OPTS);
}

function nodeAt(text: string, path: Path): Node {
  const root = tree(text);
  const n = root && (path.length ? findNodeAtLocation(root, path) : root);
  if (!n) throw new UnsupportedEdit(undefined, `nothing at ${path.join('.')}`);
  return n;
}

function container(n: Node): Container {
  const kids = n.children ?? [];
  return { start: n.offset, end: n.offset + n.length, children: kids.map((c) => ({ start: c.offset, end: c.offset + c.length })), ...(n.type === 'object' ? { keys: kids.map((p) => String(p.children?.[0]?.value)) } : {}) };
}

/** One-line JSON with a space after `:` and `,` and inside non-empty brackets: `{ "command": "x", "timeout": 30 }`. */
function inlineJson(v: unknown): string {
  if (Array.isArray(v)) return v.length ? `[ ${v.map(inlineJson).join(', ')} ]` : '[]';
  if (v && typeof v === 'object') {
    const e = Object.entries(v as Record<string, unknown>);
    return e.length ? `{ ${e.map(([k, x]) => `${JSON.stringify(k)}: ${inlineJson(x)}`).join(', ')} }` : '{}';
  }
  return JSON.stringify(v);
}

/** Multi-line JSON indented with `unit`, continuation lines starting at `indent`. */
function blockJson(v: unknown, indent: string, unit: string, eol: string): string {
  return JSON.stringify(v, null, unit).split('\n').join(eol + indent);
}

function render(text: string, key: string | undefined, v: unknown) {
  const unit = indentUnit(text);
  const eol = eolOf(text);
  const prefix = key === undefined ? '' : `${JSON.stringify(key)}: `;
  return (indent: string, multiline: boolean) => prefix + (multiline ? blockJson(v, indent, unit, eol) : inlineJson(v));
}

export const JSON_FORMAT: ConfigFormat = {
  name: 'JSON',
  empty: '{}\n',
  parse(file, text) {
    if (!text.trim()) return {};
    // a leading byte order mark parses as blank (same offsets); the installer core keeps it out of edits
    text = text.replace(/^\uFEFF/, ' ');
    const errors: ParseError[] = [];
    const value = parse(text, errors, OPTS) as unknown;
    if (errors.length) throw HostConfigError.at(file, text, errors[0]!.offset, `${describeError(errors[0]!)}; fix the file or move it aside`);
    if (value === undefined) return {};
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw HostConfigError.at(file, text, tree(text)?.offset ?? 0, 'the top level must be a JSON object');
    return value as Record<string, unknown>;
  },
  ...bracketEdits({ container: (text, path) => container(nodeAt(text, path)), render }),
  replaceValue(text, path, value) {
    const n = nodeAt(text, path);
    const multiline = value !== null && typeof value === 'object' && text.includes('\n');
    const indent = /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', n.offset - 1) + 1))![0];
    return text.slice(0, n.offset) + render(text, undefined, value)(indent, multiline) + text.slice(n.offset + n.length);
  },
  offsetOf(text, path) {
    const root = tree(text);
    const n = root && (path.length ? findNodeAtLocation(root, path) : root);
    return n ? (n.parent?.type === 'property' ? n.parent.offset : n.offset) : undefined;
  },
};

/**
 * Why `text` is not strict JSON (comments, trailing commas, ...) as `file: line L, column C:
 * <error>`, or undefined when it is. Claude Code 2.1.332 and Codex 0.171.0 both refuse a
 * hooks config with comments (seen with the real binaries), so their installers warn. A
 * leading byte order mark is a problem unless `bomAllowed` (Claude Code 2.1.332 loads it;
 * Codex 0.171.0 does not: "expected value at line 1 column 1").
 */
export function strictJsonProblem(file: string, text: string, opts: { bomAllowed?: boolean } = {}): string | undefined {
  if (text.startsWith('\uFEFF')) {
    if (!opts.bomAllowed) return `${file}: line 1, column 1: starts with a byte order mark (U+FEFF)`;
    text = text.slice(1);
  }
  if (!text.trim()) return undefined;
  const errors: ParseError[] = [];
  parse(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (!errors.length) return undefined;
  return HostConfigError.at(file, text, errors[0]!.offset, describeError(errors[0]!)).message.replace(/; nothing was changed$/, '');
}
