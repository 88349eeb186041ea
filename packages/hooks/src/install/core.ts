/**
 * The installer core shared by every host: parse a host config, add our entries, remove
 * our entries, list ours. A host describes *what* is ours ({@link HostConfigSpec}: hook
 * lists keyed by event, settings we switch on, keys we own); the core computes the data the
 * file should hold, then turns the difference into located edits of a {@link ConfigFormat}
 * (one editor per format), so bytes outside our entries never change.
 *
 * Pipeline (pure, no I/O; installer.ts does the files):
 * - install: `parse -> installTarget (data) -> applyDiff (edits, each recorded: our text
 *   and a hash of its lines) -> check (re-parse equals the target)`;
 * - uninstall: `undo the recorded edits whose lines are unchanged (gives the user's exact
 *   bytes back) -> uninstallTarget (data) -> applyDiff -> check`, and the undo is kept only
 *   when it leads to the same data as structural removal alone. What the user changed since
 *   install is never undone: those lines no longer hash as recorded, so only our entries
 *   are removed, structurally.
 */
import { HostConfigError } from './errors.js';
import { UnsupportedEdit, type ConfigFormat, type Path } from './format.js';
import { recordEdit, undoEdit, type TextEdit } from './text-edits.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const clone = <T>(v: T): T => structuredClone(v);
/** Deep equality of parsed data, key order included (a reordered object is a different text). */
const sameData = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
/** Deep equality of parsed data, key order ignored: what a host reads (TOML gives a table's keys and sub-tables in file order, so an added key may come before a sub-table in the data). */
const sorted = (v: unknown): unknown => (Array.isArray(v) ? v.map(sorted) : isObj(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v);
const sameContent = (a: unknown, b: unknown): boolean => sameData(sorted(a), sorted(b));

/** A list of hook entries per event: `<at>.<event>: [item, …]` (Claude Code, Codex, Cursor, Hermes). */
export interface HookListSpec {
  /** Path of the object whose keys are event names, e.g. `['hooks']`. */
  at: string[];
  /** The item install wants per event (empty for uninstall). */
  entries: Array<{ event: string; item: unknown }>;
  /** The event an item of ours is for; undefined for the user's items. */
  ours(item: unknown): string | undefined;
  /** Our hook command in an item of ours (for verify). */
  command(item: unknown): string | undefined;
  /** An item of ours brought up to date with `wanted` (default: `{...item, ...wanted}`: a moved CLI updates the command in place). */
  update?(item: unknown, wanted: unknown): unknown;
  /** An item of ours without our part, or undefined when nothing of the user's is in it (default: undefined). */
  strip?(item: unknown): unknown;
}

/** A value we set (an enable flag). Uninstall removes it when install created it, and restores the previous text when install changed it. */
export interface SettingSpec {
  path: string[];
  value: unknown;
  /** Set it only when the file has no value there (a value of the user's is theirs: Cursor's `version`). */
  ifMissing?: boolean;
}

/** One host config file and what in it is ours. */
export interface HostConfigSpec {
  file: string;
  format: ConfigFormat;
  lists?: HookListSpec[];
  settings?: SettingSpec[];
  /** Members that are ours whatever they hold (OpenClaw `hooks.internal.entries["hive-mind"]`): removed on uninstall. */
  owned?: string[][];
  /** What to tell the user to add by hand when the layout cannot be edited safely. */
  snippet: string;
}

/** What install did to one file, kept in the install state for uninstall. */
export interface ConfigRecord {
  /** The file did not exist (uninstall deletes it when nothing else is left in it). */
  createdFile?: boolean;
  /** Containers and settings install created. */
  created: string[][];
  /** Settings install changed from a value of the user's (restored only by undoing the recorded edit). */
  replaced?: string[][];
  /** Containers that were an empty value (`hooks:` in YAML, `null`) before install filled them: uninstall empties them back to null. */
  wasNull?: string[][];
  /** The text edits install made, in order (our text and a hash of the lines around it, text-edits.ts). */
  edits: TextEdit[];
}

function get(data: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Obj)[k as string] : undefined), data);
}
const has = (list: string[][], p: string[]) => list.some((c) => c.length === p.length && c.every((k, i) => k === p[i]));

function fieldError(spec: HostConfigSpec, text: string, path: string[], what: string): HostConfigError {
  return HostConfigError.at(spec.file, text, spec.format.offsetOf(text, path) ?? 0, `field "${path.join('.')}" must be ${what}`);
}

/** The object at `path`, creating missing containers (recorded in `created`); a non-object on the way is an error naming the field. */
function ensureObject(spec: HostConfigSpec, text: string, data: Obj, path: string[], created: string[][], wasNull: string[][]): Obj {
  let o = data;
  for (let i = 0; i < path.length; i++) {
    const k = path[i]!;
    if (o[k] === undefined || o[k] === null) {
      (o[k] === null ? wasNull : created).push(path.slice(0, i + 1));
      o[k] = {};
    } else if (!isObj(o[k])) throw fieldError(spec, text, path.slice(0, i + 1), 'an object');
    o = o[k] as Obj;
  }
  return o;
}

/** The data the file should hold with our entries installed, and the containers/settings that creates. */
function installTarget(spec: HostConfigSpec, text: string, data: Obj): { target: Obj; created: string[][]; wasNull: string[][]; replaced: string[][] } {
  const target = clone(data);
  const created: string[][] = [];
  const wasNull: string[][] = [];
  const replaced: string[][] = [];
  for (const s of spec.settings ?? []) {
    const parent = ensureObject(spec, text, target, s.path.slice(0, -1), created, wasNull);
    const key = s.path[s.path.length - 1]!;
    if (sameData(parent[key], s.value) || (s.ifMissing && parent[key] !== undefined)) continue;
    (parent[key] === undefined ? created : replaced).push(s.path);
    parent[key] = clone(s.value);
  }
  for (const list of spec.lists ?? []) {
    const obj = ensureObject(spec, text, target, list.at, created, wasNull);
    for (const { event, item } of list.entries) {
      if (obj[event] === undefined || obj[event] === null) {
        (obj[event] === null ? wasNull : created).push([...list.at, event]);
        obj[event] = [];
      }
      const arr = obj[event];
      if (!Array.isArray(arr)) throw fieldError(spec, text, [...list.at, event], 'an array of hook entries');
      const ours = arr.map((x, i) => (list.ours(x) === event ? i : -1)).filter((i) => i >= 0);
      if (ours.length === 0) {
        arr.push(clone(item));
        continue;
      }
      const first = arr[ours[0]!];
      arr[ours[0]!] = list.update ? list.update(first, item) : { ...(first as Obj), ...(item as Obj) };
      // a second copy of ours (a hand-made duplicate) would run every hook twice
      for (const i of ours.slice(1).reverse()) {
        const rest = list.strip?.(arr[i]);
        if (rest === undefined) arr.splice(i, 1);
        else arr[i] = rest;
      }
    }
  }
  return { target, created, wasNull, replaced };
}

/**
 * The data the file should hold without our entries: our items out of every list under
 * each `at` (a list we emptied goes when install created it, or when there is no record),
 * owned members out, settings install created out (when still our value), then every container
 * install created that is now empty.
 */
function uninstallTarget(spec: HostConfigSpec, data: Obj, record: ConfigRecord | undefined): Obj {
  const target = clone(data);
  const created = record?.created ?? [];
  for (const list of spec.lists ?? []) {
    const obj = get(target, list.at);
    if (!isObj(obj)) continue;
    for (const [event, arr] of Object.entries(obj)) {
      if (!Array.isArray(arr)) continue;
      let removed = 0;
      const left: unknown[] = [];
      for (const x of arr) {
        if (list.ours(x) === undefined) left.push(x);
        else {
          removed++;
          const rest = list.strip?.(x);
          if (rest !== undefined) left.push(rest);
        }
      }
      if (!removed) continue;
      if (left.length === 0 && (!record || has(created, [...list.at, event]))) delete obj[event];
      else obj[event] = left;
    }
  }
  for (const p of spec.owned ?? []) {
    const parent = get(target, p.slice(0, -1));
    if (isObj(parent)) delete parent[p[p.length - 1]!];
  }
  for (const s of spec.settings ?? []) {
    const parent = get(target, s.path.slice(0, -1));
    const key = s.path[s.path.length - 1]!;
    if (!isObj(parent) || !has(created, s.path)) continue;
    if (sameData(parent[key], s.value)) delete parent[key];
  }
  for (const p of [...created].sort((a, b) => b.length - a.length)) {
    const v = get(target, p);
    const parent = get(target, p.slice(0, -1));
    const empty = Array.isArray(v) ? v.length === 0 : isObj(v) && Object.keys(v).length === 0;
    if (empty && isObj(parent) && !(spec.settings ?? []).some((s) => has([s.path], p))) delete parent[p[p.length - 1]!];
  }
  for (const p of record?.wasNull ?? []) {
    const v = get(target, p);
    const parent = get(target, p.slice(0, -1));
    if (isObj(parent) && (Array.isArray(v) ? v.length === 0 : isObj(v) && Object.keys(v).length === 0)) parent[p[p.length - 1]!] = null;
  }
  return target;
}

type Op =
  | { kind: 'insertMember'; path: Path; key: string; value: unknown }
  | { kind: 'removeMember'; path: Path; key: string }
  | { kind: 'appendItem'; path: Path; value: unknown }
  | { kind: 'removeItem'; path: Path; index: number }
  | { kind: 'replaceValue'; path: Path; value: unknown };

/** Identity of a list item for alignment: ours by event, the user's by content. */
type Identity = (item: unknown) => string;

/**
 * The edits turning `a` into `b`, for the changes installers make: members added at the
 * end or removed, list items removed or appended (aligned by {@link Identity}, so our
 * updated entry stays in place), values replaced. Ops are ordered so earlier ones never
 * shift the paths of later ones (array work from the highest index down, appends last).
 */
function diff(path: Path, a: unknown, b: unknown, id: Identity, ops: Op[]): void {
  if (sameData(a, b)) return;
  if (isObj(a) && isObj(b)) {
    const ak = Object.keys(a);
    const bk = Object.keys(b);
    const kept = ak.filter((k) => k in b);
    // kept keys must stay in order and new ones come last; otherwise replace the object
    if (kept.join('\0') !== bk.slice(0, kept.length).join('\0')) return void ops.push({ kind: 'replaceValue', path, value: b });
    for (const k of ak) if (!(k in b)) ops.push({ kind: 'removeMember', path, key: k });
    for (const k of kept) diff([...path, k], a[k], b[k], id, ops);
    for (const k of bk.slice(kept.length)) ops.push({ kind: 'insertMember', path, key: k, value: b[k] });
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const ai = a.map(id);
    const bi = b.map(id);
    // LCS alignment of identities (lists are short)
    const L = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
    for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) L[i]![j] = ai[i] === bi[j] ? L[i + 1]![j + 1]! + 1 : Math.max(L[i + 1]![j]!, L[i]![j + 1]!);
    const pairs: Array<[number, number]> = [];
    for (let i = 0, j = 0; i < a.length && j < b.length; ) {
      if (ai[i] === bi[j]) pairs.push([i++, j++]);
      else if (L[i + 1]![j]! >= L[i]![j + 1]!) i++;
      else j++;
    }
    const matchedB = new Set(pairs.map(([, j]) => j));
    const lastMatched = pairs.length ? pairs[pairs.length - 1]![1] : -1;
    // anything new in b must come after the last kept item: an append
    if (b.some((_, j) => !matchedB.has(j) && j < lastMatched)) return void ops.push({ kind: 'replaceValue', path, value: b });
    const matchedA = new Map(pairs);
    for (let i = a.length - 1; i >= 0; i--) {
      const j = matchedA.get(i);
      if (j === undefined) ops.push({ kind: 'removeItem', path, index: i });
      else diff([...path, i], a[i], b[j], id, ops);
    }
    for (let j = lastMatched + 1; j < b.length; j++) ops.push({ kind: 'appendItem', path, value: b[j] });
    return;
  }
  ops.push({ kind: 'replaceValue', path, value: b });
}

function applyOp(f: ConfigFormat, text: string, op: Op): string {
  switch (op.kind) {
    case 'insertMember':
      return f.insertMember(text, op.path, op.key, op.value);
    case 'removeMember':
      return f.removeMember(text, op.path, op.key);
    case 'appendItem':
      return f.appendItem(text, op.path, op.value);
    case 'removeItem':
      return f.removeItem(text, op.path, op.index);
    case 'replaceValue':
      return f.replaceValue(text, op.path, op.value);
  }
}

function identity(spec: HostConfigSpec): Identity {
  return (item) => {
    for (const l of spec.lists ?? []) {
      const ev = l.ours(item);
      if (ev !== undefined) return `ours:${ev}`;
    }
    return JSON.stringify(item);
  };
}

/**
 * Edit `text` (parsing to `from`) until it parses to `to`, recording each edit. Throws
 * HostConfigError (naming where, and the line to add by hand) when the format cannot
 * make an edit, or when the result does not re-parse to exactly `to`.
 */
function applyDiff(spec: HostConfigSpec, text: string, from: Obj, to: Obj): { text: string; edits: TextEdit[] } {
  const ops: Op[] = [];
  diff([], from, to, identity(spec), ops);
  const edits: TextEdit[] = [];
  let cur = text;
  const refuse = (offset: number | undefined, why: string) =>
    HostConfigError.at(spec.file, text, offset ?? 0, `cannot edit this ${spec.format.name} layout safely (${why}); add this yourself and re-run: ${spec.snippet}`);
  for (const op of ops) {
    let next: string;
    try {
      next = applyOp(spec.format, cur, op);
    } catch (e) {
      if (e instanceof UnsupportedEdit) throw refuse(e.offset ?? spec.format.offsetOf(cur, op.path), e.message);
      if (e instanceof HostConfigError) throw e;
      // any other failure of an editor (e.g. the yaml Document API on a path through an alias) is a layout it cannot edit
      let at: number | undefined;
      try {
        at = spec.format.offsetOf(text, op.path.slice(0, 1));
      } catch {
        at = undefined;
      }
      throw refuse(at, (e as Error).message ?? String(e));
    }
    const d = recordEdit(cur, next);
    if (d) edits.push(d);
    cur = next;
  }
  let got: unknown;
  try {
    got = spec.format.parse(spec.file, cur);
  } catch {
    got = undefined;
  }
  if (!sameContent(got, to)) throw refuse(undefined, 'the edit would change other content');
  return { text: cur, edits };
}

/**
 * A leading byte order mark (U+FEFF, what Windows editors write) is kept out of the parse
 * and the edits, and put back on the result: the user's bytes stay, and line/column
 * locations are those an editor shows. Claude Code 2.1.332 loads a settings.json that
 * starts with one (seen with the real binary).
 */
const BOM = '\uFEFF';
function splitBom(text: string): [bom: string, body: string] {
  return text.startsWith(BOM) ? [BOM, text.slice(1)] : ['', text];
}

/** Install into one file: the new text and the record to keep (merged with an earlier install's). */
export function installConfig(spec: HostConfigSpec, before: string | undefined, prior?: ConfigRecord): { text: string; record: ConfigRecord } {
  const [bom, text] = splitBom(before ?? spec.format.empty);
  const data = spec.format.parse(spec.file, text);
  const { target, created, wasNull, replaced } = installTarget(spec, text, data);
  const merge = (a: string[][] | undefined, b: string[][]) => [...(a ?? []), ...b.filter((c) => !has(a ?? [], c))];
  const r = applyDiff(spec, text, data, target);
  const record: ConfigRecord = {
    ...(prior?.createdFile || (!prior && before === undefined) ? { createdFile: true } : {}),
    created: merge(prior?.created, created),
    ...(prior?.wasNull?.length || wasNull.length ? { wasNull: merge(prior?.wasNull, wasNull) } : {}),
    ...(prior?.replaced?.length || replaced.length ? { replaced: merge(prior?.replaced, replaced) } : {}),
    edits: [...(prior?.edits ?? []), ...r.edits],
  };
  return { text: bom + r.text, record };
}

/**
 * Uninstall from one file: the new text, or undefined when the file should be deleted
 * (install created it and nothing else is in it).
 */
export function uninstallConfig(spec: HostConfigSpec, withBom: string, record: ConfigRecord | undefined): string | undefined {
  const f = spec.format;
  const [bom, before] = splitBom(withBom);
  const data = f.parse(spec.file, before);
  // the structural result: every one of our entries out, everything else as it is now
  const structural = uninstallTarget(spec, data, record);
  // 1. put back the user's exact lines wherever our recorded edits are still there unchanged
  let t = before;
  for (const e of [...(record?.edits ?? [])].reverse()) {
    const u = undoEdit(t, e);
    if (u === undefined) continue;
    try {
      f.parse(spec.file, u);
      t = u;
    } catch {
      // an undo that would not parse is skipped; the structural pass below removes ours
    }
  }
  // 2. remove whatever of ours is left, structurally
  let undone = f.parse(spec.file, t);
  let target = uninstallTarget(spec, undone, record);
  // the undo path may differ from the structural one only in the values install replaced;
  // anything else (an undo that merged with a user's edit) and it is not used
  const withoutReplaced = (d: Obj) => {
    const c = clone(d);
    for (const p of record?.replaced ?? []) {
      const parent = get(c, p.slice(0, -1));
      if (isObj(parent)) delete parent[p[p.length - 1]!];
    }
    return c;
  };
  if (!sameData(withoutReplaced(target), withoutReplaced(structural))) {
    t = before;
    undone = data;
    target = structural;
  }
  const out = applyDiff(spec, t, undone, target).text;
  // a file install created goes again when it is back to an empty document (a comment of the user's keeps it)
  if (record?.createdFile && !bom && Object.keys(target).length === 0 && /^\s*(\{\s*\})?\s*$/.test(out)) return undefined;
  return bom + out;
}

/** Our installed entries in one file: event and command, in file order. */
export function listOurs(spec: HostConfigSpec, text: string): Array<{ event: string; command: string }> {
  const data = spec.format.parse(spec.file, splitBom(text)[1]);
  const out: Array<{ event: string; command: string }> = [];
  for (const l of spec.lists ?? []) {
    const obj = get(data, l.at);
    if (!isObj(obj)) continue;
    for (const arr of Object.values(obj)) {
      if (!Array.isArray(arr)) continue;
      for (const x of arr) {
        const event = l.ours(x);
        const command = event === undefined ? undefined : l.command(x);
        if (event !== undefined && command !== undefined) out.push({ event, command });
      }
    }
  }
  return out;
}
