/**
 * YAML config format (Hermes `config.yaml`): the `yaml` Document API parses and locates
 * every node (source ranges); members and list items are inserted or removed as whole
 * lines at those positions, so comments, spacing, quoting and key order stay byte for
 * byte. Layouts not edited by lines (flow style such as `hooks: {}`, an empty `hooks:`,
 * removing the last item of a list) go through the Document API's own output, which keeps
 * comments and key order but may normalise whitespace; the core checks the data either way.
 */
import { isMap, isScalar, isSeq, parseDocument, stringify, type Document, type Node, type Pair } from 'yaml';
import { HostConfigError } from './errors.js';
import type { ConfigFormat, Path } from './format.js';
import { eolOf, indentUnit, lineEndIncl, lineStart } from './text-edits.js';

type Ranged = Node & { range?: [number, number, number] | null; flow?: boolean };

function doc(text: string): Document.Parsed {
  return parseDocument(text);
}
function nodeAt(d: Document.Parsed, path: Path): Ranged | undefined {
  return (path.length ? d.getIn(path, true) : d.contents) as Ranged | undefined;
}
const block = (n: Ranged | undefined): n is Ranged => !!n && !!n.range && !n.flow;
const col = (t: string, off: number) => off - lineStart(t, off);
/** Offset just past the line holding the last character of node `n`'s value. */
const endOf = (t: string, n: Ranged) => lineEndIncl(t, Math.max(n.range![1] - 1, n.range![0]));

/** `lines` (ending in `\n`) re-indented by `indent` with the text's line break. */
function indented(lines: string, indent: string, eol: string): string {
  return lines
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => indent + l + eol)
    .join('');
}

/** Insert `chunk` (whole lines) at `at`; at the end of a text without a final line break, the break goes before it instead. */
function insertLines(t: string, at: number, chunk: string, eol: string): string {
  if (at === t.length && t !== '' && !t.endsWith('\n')) return t + eol + chunk.slice(0, -eol.length);
  return t.slice(0, at) + chunk + t.slice(at);
}
/** Delete lines `[s, e)`; at the end of a text without a final line break, the break before them goes too. */
function deleteLines(t: string, s: number, e: number): string {
  if (e === t.length && !t.endsWith('\n') && s > 0) s = t[s - 2] === '\r' ? s - 2 : s - 1;
  return t.slice(0, s) + t.slice(e);
}

/** The change made through the Document API alone (for layouts not edited by lines). */
function viaDocument(text: string, edit: (d: Document.Parsed) => void): string {
  const d = doc(text);
  edit(d);
  return d.toString();
}

function yamlOf(v: unknown, unit: string): string {
  return stringify(v, { indent: unit.length || 2, lineWidth: 0 });
}

export const YAML_FORMAT: ConfigFormat = {
  name: 'YAML',
  empty: '',
  parse(file, text) {
    const d = parseDocument(text, { prettyErrors: true });
    if (d.errors.length) {
      const e = d.errors[0]!;
      const pos = e.linePos?.[0];
      // yaml ends its first line with the location (`… at line 3, column 1:`), which the error already gives
      throw new HostConfigError(file, pos?.line ?? 1, pos?.col ?? 1, e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''));
    }
    const c = d.contents;
    if (c !== null && !isMap(c) && !(isScalar(c) && c.value === null)) throw HostConfigError.at(file, text, (c as Ranged).range?.[0] ?? 0, 'the top level must be a mapping (key: value)');
    return (d.toJS() ?? {}) as Record<string, unknown>;
  },
  insertMember(text, path, key, value) {
    const d = doc(text);
    const map = nodeAt(d, path);
    const eol = eolOf(text);
    const unit = indentUnit(text);
    const chunk = (indent: string) => indented(yamlOf({ [key]: value }, unit.length === 1 ? '  ' : unit), indent, eol);
    if (path.length === 0 && (map === null || map === undefined || (isScalar(map) && map.value === null))) {
      return insertLines(text, text.length, chunk(''), eol);
    }
    if (isMap(map) && block(map) && map.items.length) {
      const first = map.items[0]!.key as Ranged;
      return insertLines(text, endOf(text, map), chunk(' '.repeat(col(text, first.range![0]))), eol);
    }
    return viaDocument(text, (x) => x.setIn([...path, key], value));
  },
  removeMember(text, path, key) {
    const d = doc(text);
    const map = nodeAt(d, path);
    if (!isMap(map)) return text;
    const pair = map.items.find((p) => isScalar(p.key) && p.key.value === key) as Pair<Ranged, Ranged> | undefined;
    if (!pair) return text;
    const kr = pair.key?.range;
    if (block(map) && kr && (path.length === 0 || map.items.length > 1)) {
      const end = pair.value?.range ? endOf(text, pair.value) : lineEndIncl(text, kr[1]);
      return deleteLines(text, lineStart(text, kr[0]), end);
    }
    return viaDocument(text, (x) => x.deleteIn([...path, key]));
  },
  appendItem(text, path, value) {
    const d = doc(text);
    const seq = nodeAt(d, path);
    const eol = eolOf(text);
    if (isSeq(seq) && block(seq) && seq.items.length) {
      const first = seq.items[0] as Ranged;
      const dash = text.lastIndexOf('-', first.range![0]);
      const unit = indentUnit(text);
      return insertLines(text, endOf(text, seq), indented(yamlOf([value], unit.length === 1 ? '  ' : unit), ' '.repeat(col(text, dash)), eol), eol);
    }
    return viaDocument(text, (x) => {
      const node = x.getIn(path, true);
      if (isSeq(node)) node.add(x.createNode(value));
      else x.setIn(path, [value]);
    });
  },
  removeItem(text, path, index) {
    const d = doc(text);
    const seq = nodeAt(d, path);
    if (!isSeq(seq)) return text;
    const item = seq.items[index] as Ranged | undefined;
    if (block(seq) && item?.range && seq.items.length > 1) return deleteLines(text, lineStart(text, item.range[0]), endOf(text, item));
    return viaDocument(text, (x) => x.deleteIn([...path, index]));
  },
  replaceValue(text, path, value) {
    const n = nodeAt(doc(text), path);
    if (isScalar(n) && n.range && n.value !== null && (value === null || typeof value !== 'object')) {
      const s = yamlOf(value, '  ').replace(/\n$/, '');
      return text.slice(0, n.range[0]) + s + text.slice(n.range[1]);
    }
    return viaDocument(text, (x) => x.setIn(path, value));
  },
  offsetOf(text, path) {
    const n = nodeAt(doc(text), path);
    return n?.range?.[0];
  },
};
