/**
 * Edits a Claude-Code-style hooks document, `{"hooks": {"<Event>": [{"matcher"?, "hooks":
 * [{"type": "command", "command", "timeout"}]}]}}` (Claude Code `settings.json`, Codex
 * `hooks.json`), as text with jsonc-parser: comments, key order, formatting and the
 * user's own hooks are kept; only our entries (recognized by {@link ourHookEvent}) change.
 */
import { applyEdits, findNodeAtLocation, modify, parse, parseTree, printParseErrorCode, type FormattingOptions, type ParseError } from 'jsonc-parser';
import type { HostId } from '../types.js';
import { ourHookEvent } from './command.js';

/** One hook we want installed. `timeout` is in seconds (both hosts' unit). */
export interface HookEntry {
  event: string;
  command: string;
  timeout: number;
}

/** An error in a config file, naming the file, line, column and what is wrong. */
export class ConfigError extends Error {
  readonly exitCode = 1;
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const col = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${col}`;
}

/** Parse JSON/JSONC text (comments and trailing commas allowed) or throw {@link ConfigError} naming `file`, line and column. '' parses as `{}`. */
export function parseJsonc(file: string, text: string): Record<string, unknown> {
  if (!text.trim()) return {};
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true }) as unknown;
  if (errors.length) {
    const e = errors[0]!;
    throw new ConfigError(`${file}: ${lineCol(text, e.offset)}: ${printParseErrorCode(e.error)}; fix the file or move it aside, nothing was changed`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(`${file}: the top level must be a JSON object; nothing was changed`);
  return value as Record<string, unknown>;
}

/**
 * Why `text` is not strict JSON (comments, trailing commas, ...): `file: line L, column C:
 * <error>`, or undefined when it is strict JSON. Claude Code 2.1.332 and Codex 0.171.0 both
 * refuse a hooks config with comments (seen with the real binaries), so installers warn.
 */
export function strictJsonProblem(file: string, text: string): string | undefined {
  if (!text.trim()) return undefined;
  const errors: ParseError[] = [];
  parse(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (!errors.length) return undefined;
  const e = errors[0]!;
  return `${file}: ${lineCol(text, e.offset)}: ${printParseErrorCode(e.error)}`;
}

/** Formatting of new text: the file's own indentation (tabs or N spaces, default 2) and line ending. */
export function detectFormatting(text: string): FormattingOptions {
  const m = /\n([ \t]+)\S/.exec(text);
  const indent = m?.[1] ?? '  ';
  return { insertSpaces: !indent.startsWith('\t'), tabSize: indent.startsWith('\t') ? 1 : indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

type Group = { hooks?: unknown };

function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

function unit(fmt: FormattingOptions): string {
  return fmt.insertSpaces ? ' '.repeat(fmt.tabSize ?? 2) : '\t';
}

/**
 * Append `value` to the array at `path` as a text insertion right after its last
 * element, indented like that element. Unlike jsonc-parser's `modify`, this never
 * re-formats the neighbouring element (a one-line user entry stays one line).
 */
function appendArrayElement(text: string, path: Array<string | number>, value: unknown, fmt: FormattingOptions): string {
  const arr = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, path);
  const kids = arr?.children ?? [];
  if (!arr || arr.type !== 'array' || kids.length === 0) return applyEdits(text, modify(text, [...path, -1], value, { formattingOptions: fmt, isArrayInsertion: true }));
  const last = kids[kids.length - 1]!;
  const eol = fmt.eol ?? '\n';
  const ownLine = /\n[ \t]*$/.test(text.slice(0, last.offset));
  const indent = ownLine ? lineIndent(text, last.offset) : lineIndent(text, arr.offset) + unit(fmt);
  const json = JSON.stringify(value, null, unit(fmt)).split('\n').join(eol + indent);
  const at = last.offset + last.length;
  return text.slice(0, at) + `,${eol}${indent}${json}` + text.slice(at);
}

/** Remove element `index` of the array at `path` as a text deletion (with its separating comma), touching nothing else. */
function removeArrayElement(text: string, path: Array<string | number>, index: number): string {
  const arr = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, path);
  const kids = arr?.children ?? [];
  const el = kids[index];
  if (!arr || !el) return text;
  if (index > 0) {
    const prev = kids[index - 1]!;
    return text.slice(0, prev.offset + prev.length) + text.slice(el.offset + el.length);
  }
  if (kids.length > 1) return text.slice(0, el.offset) + text.slice(kids[1]!.offset);
  // only element: leave `[]`
  return text.slice(0, arr.offset + 1) + text.slice(arr.offset + arr.length - 1);
}

function hooksObject(file: string, doc: Record<string, unknown>): Record<string, unknown> | undefined {
  const h = doc.hooks;
  if (h === undefined) return undefined;
  if (!h || typeof h !== 'object' || Array.isArray(h)) throw new ConfigError(`${file}: field "hooks" must be an object; nothing was changed`);
  return h as Record<string, unknown>;
}

/** Our installed hooks in a document: event -> commands (several when installed twice by hand). */
export function listOurHooks(file: string, text: string, host: HostId): Array<{ event: string; command: string; path: Array<string | number> }> {
  const hooks = hooksObject(file, parseJsonc(file, text));
  const out: Array<{ event: string; command: string; path: Array<string | number> }> = [];
  if (!hooks) return out;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((g: Group, gi) => {
      if (!g || !Array.isArray(g.hooks)) return;
      g.hooks.forEach((h: { command?: unknown }, hi) => {
        if (h && ourHookEvent(h.command, host) === event) out.push({ event, command: h.command as string, path: ['hooks', event, gi, 'hooks', hi] });
      });
    });
  }
  return out;
}

/** Result of {@link installJsonHooks}: the new text, and the containers it created (so uninstall removes them only when they are empty). */
export interface JsonHooksEdit {
  text: string;
  created: string[][];
}

/**
 * Add or update our hook entries. An entry already present with the same command and
 * timeout is left alone (idempotent); ours with another command (e.g. a moved install)
 * is updated in place; duplicates of ours are removed; missing ones are appended as a
 * new matcher group at the end of the event's array. Throws {@link ConfigError} on bad
 * input (file, line, field named); never changes anything it does not own.
 */
export function installJsonHooks(file: string, text: string, host: HostId, entries: HookEntry[]): JsonHooksEdit {
  const fmt = detectFormatting(text);
  let cur = text.trim() ? text : '{}\n';
  const created: string[][] = [];
  const doc = parseJsonc(file, cur);
  if (!hooksObject(file, doc)) created.push(['hooks']);
  for (const entry of entries) {
    const d = parseJsonc(file, cur);
    const hooks = hooksObject(file, d) ?? {};
    const groups = hooks[entry.event];
    if (groups !== undefined && !Array.isArray(groups)) throw new ConfigError(`${file}: field "hooks.${entry.event}" must be an array; nothing was changed`);
    const ours = listOurHooks(file, cur, host).filter((o) => o.event === entry.event);
    if (ours.length) {
      const [first, ...dupes] = ours;
      // remove duplicates from the end so earlier paths stay valid
      for (const dup of dupes.reverse()) cur = removeArrayElement(cur, dup.path.slice(0, -1), dup.path[dup.path.length - 1] as number);
      const h = (((parseJsonc(file, cur).hooks as Record<string, Group[]>)[entry.event]![first!.path[2] as number]!.hooks as unknown[])[first!.path[4] as number] ?? {}) as Record<string, unknown>;
      if (h.command !== entry.command) cur = applyEdits(cur, modify(cur, [...first!.path, 'command'], entry.command, { formattingOptions: fmt }));
      if (h.timeout !== entry.timeout) cur = applyEdits(cur, modify(cur, [...first!.path, 'timeout'], entry.timeout, { formattingOptions: fmt }));
      if (h.type !== 'command') cur = applyEdits(cur, modify(cur, [...first!.path, 'type'], 'command', { formattingOptions: fmt }));
      continue;
    }
    const group = { hooks: [{ type: 'command', command: entry.command, timeout: entry.timeout }] };
    if (groups === undefined) {
      created.push(['hooks', entry.event]);
      cur = applyEdits(cur, modify(cur, ['hooks', entry.event], [group], { formattingOptions: fmt }));
    } else {
      cur = appendArrayElement(cur, ['hooks', entry.event], group, fmt);
    }
  }
  if (!cur.endsWith('\n') && (text.endsWith('\n') || !text.trim())) cur += '\n';
  return { text: cur, created };
}

/**
 * Remove our entries only. A matcher group left with no hooks is removed when we
 * emptied it; an event array or the `hooks` object is removed only when it is empty
 * and listed in `created` (made by our install), so whatever the user had, or added
 * later, stays.
 */
export function uninstallJsonHooks(file: string, text: string, host: HostId, created: string[][] = []): string {
  if (!text.trim()) return text;
  const fmt = detectFormatting(text);
  let cur = text;
  const ours = listOurHooks(file, cur, host);
  // delete from the last path to the first so indexes stay valid
  ours.sort((x, y) => {
    for (let i = 0; i < x.path.length; i++) {
      const a = x.path[i]!;
      const b = y.path[i]!;
      if (a === b) continue;
      return typeof a === 'number' && typeof b === 'number' ? b - a : String(b).localeCompare(String(a));
    }
    return 0;
  });
  for (const o of ours) {
    const [, event, gi] = o.path as [string, string, number];
    const group = ((parseJsonc(file, cur).hooks as Record<string, Group[]>)[event] ?? [])[gi];
    const groupHooks = Array.isArray(group?.hooks) ? group.hooks : [];
    const onlyOurs = groupHooks.length === 1;
    cur = onlyOurs ? removeArrayElement(cur, ['hooks', event], gi) : removeArrayElement(cur, o.path.slice(0, -1), o.path[4] as number);
  }
  for (const path of [...created].sort((a, b) => b.length - a.length)) {
    if (path.length === 0) continue; // "the file itself": handled by the caller
    const d = parseJsonc(file, cur);
    let v: unknown = d;
    for (const k of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
    const empty = Array.isArray(v) ? v.length === 0 : !!v && typeof v === 'object' && Object.keys(v).length === 0;
    if (empty) cur = applyEdits(cur, modify(cur, path, undefined, { formattingOptions: fmt }));
  }
  return cur;
}
