/**
 * Cursor installer: edits `~/.cursor/hooks.json` (Cursor's user-level hooks file,
 * https://cursor.com/docs/agent/hooks). Format (version 1):
 *
 * ```json
 * { "version": 1, "hooks": { "sessionStart": [ { "command": "…" } ], … } }
 * ```
 *
 * Editing approach: jsonc-parser parses (errors reported as file:line:col) and locates
 * nodes; our entry is inserted as one line after the event's last entry and removed as
 * that line plus its separating comma, so the user's comments, layout and own hooks stay
 * byte for byte. jsonc-parser's `modify` is used only for empty containers, `version`, and
 * replacing the command of our own entry. What install created (`version`, `hooks`,
 * `hooks.<event>`, the file) is recorded in `<hive-mind home>/installs/cursor.json`, so
 * uninstall removes only that.
 *
 * Our entries are recognised by their command (`<hive-mind bin> hook cursor <event>`);
 * no extra keys are written into Cursor's entries, because Cursor's schema for an
 * entry is only documented as `{ command }` (plus optional fields we do not use).
 */
import { applyEdits, findNodeAtLocation, modify, parse, parseTree, printParseErrorCode, type FormattingOptions, type Node, type ParseError } from 'jsonc-parser';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HostInstaller, InstallOptions, InstallReport, VerifyReport } from '../types.js';
import { CURSOR_INSTALLED_EVENTS } from './cursor.js';
import { commitFile, missingDirs, readText, unifiedDiff } from '../install/files.js';
import { hookCommand } from '../install/command.js';
import { dropState, homeOf, readState, withPriorDirs, writeState } from '../install/state.js';
import { verifyCommands, type VerifyTarget } from '../install/verify.js';
import { isOurHookCommand, resolveHookCommand, withStdoutCheck } from './cursor-openclaw-hermes-shared.js';

/** `~/.cursor/hooks.json` under `home`. */
export function cursorHooksPath(home: string): string {
  return path.join(home, '.cursor', 'hooks.json');
}

/** What a file we create from nothing looks like (uninstall deletes the file when it is back to exactly this). */
const SKELETON = '{\n  "version": 1,\n  "hooks": {}\n}\n';

/** Thrown for a hooks.json we cannot safely edit; names file, line, column and field. */
export class CursorConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CursorConfigError';
  }
}

/** Indentation and EOL of an existing JSON text, so our edits match the user's style. */
export function detectJsonFormatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const m = /\n([ \t]+)["'\w/]/.exec(text);
  if (m && m[1]!.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: m ? Math.min(m[1]!.length, 8) : 2, eol };
}

function lineCol(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, col: before[before.length - 1]!.length + 1 };
}

/** Parse JSONC strictly enough to edit safely: syntax errors are reported with file:line:col. */
export function parseJsoncOrThrow(file: string, text: string): unknown {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) {
    const e = errors[0]!;
    const { line, col } = lineCol(text, e.offset);
    throw new CursorConfigError(`${file}:${line}:${col}: ${printParseErrorCode(e.error)}; fix the file (nothing was changed)`);
  }
  return value;
}

interface CursorDoc {
  text: string;
  root: Record<string, unknown>;
}

function load(file: string, text: string): CursorDoc {
  if (text.trim() === '') return { text: SKELETON, root: { version: 1, hooks: {} } };
  const root = parseJsoncOrThrow(file, text);
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    throw new CursorConfigError(`${file}:1:1: the top level must be a JSON object like {"version":1,"hooks":{}} (nothing was changed)`);
  }
  return { text, root: root as Record<string, unknown> };
}

function edit(doc: CursorDoc, jsonPath: Array<string | number>, value: unknown, file: string): CursorDoc {
  const fmt = detectJsonFormatting(doc.text);
  const text = applyEdits(doc.text, modify(doc.text, jsonPath, value, { formattingOptions: fmt }));
  return load(file, text);
}

function hooksObject(doc: CursorDoc, file: string): Record<string, unknown> | undefined {
  const hooks = doc.root.hooks;
  if (hooks === undefined) return undefined;
  if (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks)) {
    const off = doc.text.indexOf('"hooks"');
    const { line, col } = lineCol(doc.text, Math.max(0, off));
    throw new CursorConfigError(`${file}:${line}:${col}: field "hooks" must be an object mapping event names to arrays (nothing was changed)`);
  }
  return hooks as Record<string, unknown>;
}

function eventArray(doc: CursorDoc, event: string, file: string): unknown[] | undefined {
  const arr = hooksObject(doc, file)?.[event];
  if (arr === undefined) return undefined;
  if (!Array.isArray(arr)) {
    const off = doc.text.indexOf(`"${event}"`);
    const { line, col } = lineCol(doc.text, Math.max(0, off));
    throw new CursorConfigError(`${file}:${line}:${col}: field "hooks.${event}" must be an array of {"command": …} entries (nothing was changed)`);
  }
  return arr;
}

function commandOf(entry: unknown): unknown {
  return entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>).command : undefined;
}

// ---- targeted text edits: jsonc-parser locates nodes, we insert or delete whole lines, so a
// neighbour's layout and comments are never re-formatted (jsonc-parser's `modify` re-formats
// the edited range and drops a comment that sits between two array elements).

const lineStartOf = (t: string, off: number) => t.lastIndexOf('\n', off - 1) + 1;
const lineEndOf = (t: string, off: number) => {
  const i = t.indexOf('\n', off);
  return i < 0 ? t.length : i;
};

/** Index of the next character that is not whitespace or a comment. */
function skipTrivia(t: string, i: number): number {
  for (;;) {
    while (i < t.length && /\s/.test(t[i]!)) i++;
    if (t.startsWith('//', i)) i = lineEndOf(t, i);
    else if (t.startsWith('/*', i)) {
      const e = t.indexOf('*/', i + 2);
      i = e < 0 ? t.length : e + 2;
    } else return i;
  }
}

function nodeAt(text: string, jsonPath: Array<string | number>): Node | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true });
  return root ? findNodeAtLocation(root, jsonPath) : undefined;
}

/** Append `snippet` (already-serialized JSON) as the last child of the container `node`. */
function appendChild(text: string, node: Node, snippetFor: (indent: string) => string, fmt: FormattingOptions): string {
  const kids = node.children ?? [];
  const eol = fmt.eol ?? '\n';
  const unit = fmt.insertSpaces === false ? '\t' : ' '.repeat(fmt.tabSize ?? 2);
  const last = kids[kids.length - 1]!;
  const lastEnd = last.offset + last.length;
  const after = skipTrivia(text, lastEnd);
  const trailingComma = text[after] === ',';
  const ownLine = /^[ \t]*$/.test(text.slice(lineStartOf(text, last.offset), last.offset));
  const indent = ownLine ? /^[ \t]*/.exec(text.slice(lineStartOf(text, last.offset)))![0] : /^[ \t]*/.exec(text.slice(lineStartOf(text, node.offset)))![0] + unit;
  const rest = text.slice(trailingComma ? after + 1 : lastEnd, lineEndOf(text, lastEnd));
  if (ownLine && /^[ \t]*(\/\/.*)?$/.test(rest)) {
    // the last child ends its line (maybe with a comment): comma after it, ours on the next line
    const at = lineEndOf(text, lastEnd) + 1;
    const ins = `${indent}${snippetFor(indent)}${trailingComma ? ',' : ''}${eol}`;
    const withComma = trailingComma ? text : text.slice(0, lastEnd) + ',' + text.slice(lastEnd);
    const shift = trailingComma ? 0 : 1;
    return withComma.slice(0, at + shift) + ins + withComma.slice(at + shift);
  }
  const at = trailingComma ? after + 1 : lastEnd;
  return text.slice(0, at) + `${trailingComma ? '' : ','} ${snippetFor(indent)}` + text.slice(at);
}

/** Delete child `idx` of a container with at least two children, with its separating comma, keeping neighbours' comments. */
function removeChild(text: string, kids: Node[], idx: number): string {
  const el = kids[idx]!;
  let start = el.offset;
  let end = el.offset + el.length;
  let commaAt = -1;
  if (idx < kids.length - 1) {
    const j = skipTrivia(text, end);
    if (text[j] === ',') end = j + 1;
  } else {
    const prev = kids[idx - 1]!;
    const j = skipTrivia(text, prev.offset + prev.length);
    if (text[j] === ',') commaAt = j;
    const k = skipTrivia(text, end);
    if (text[k] === ',') end = k + 1; // a trailing comma after the last child goes with it
  }
  const ls = lineStartOf(text, start);
  const le = lineEndOf(text, end);
  if (/^[ \t]*$/.test(text.slice(ls, start)) && /^[ \t]*$/.test(text.slice(end, le))) {
    start = ls;
    end = Math.min(le + 1, text.length);
  } else if (commaAt >= 0) {
    start = commaAt; // inline: drop ", element" as one run
    commaAt = -1;
  } else {
    while (end < text.length && (text[end] === ' ' || text[end] === '\t')) end++; // inline: drop "element, "
  }
  let out = text.slice(0, start) + text.slice(end);
  if (commaAt >= 0 && commaAt < start) out = out.slice(0, commaAt) + out.slice(commaAt + 1);
  return out;
}

function entrySnippet(command: string): string {
  return `{ "command": ${JSON.stringify(command)} }`;
}

/** Compute the hooks.json text with our entries present (pure; used by install and dry-run). */
export function cursorConfigWithHooks(file: string, before: string | undefined, prefix: string): string {
  return cursorInstallEdit(file, before, prefix).text;
}

/**
 * Install edit plus what it created (`version`, `hooks`, `hooks.<event>`), recorded in the
 * install state so uninstall removes exactly those and leaves what the user had (an empty
 * `"stop": []` of theirs stays).
 */
export function cursorInstallEdit(file: string, before: string | undefined, prefix: string): { text: string; created: string[][] } {
  const created: string[][] = [];
  let doc = load(file, before ?? '');
  if (doc.root.version === undefined) {
    created.push(['version']);
    doc = edit(doc, ['version'], 1, file);
  }
  if (hooksObject(doc, file) === undefined) {
    created.push(['hooks']);
    doc = edit(doc, ['hooks'], {}, file);
  }
  const fmt = detectJsonFormatting(doc.text);
  for (const event of CURSOR_INSTALLED_EVENTS) {
    const command = hookCommand(prefix, 'cursor', event);
    const arr = eventArray(doc, event, file);
    if (arr === undefined) {
      created.push(['hooks', event]);
      const hooksNode = nodeAt(doc.text, ['hooks'])!;
      if (!hooksNode.children?.length) doc = edit(doc, ['hooks', event], [{ command }], file);
      else {
        const eol = fmt.eol ?? '\n';
        const unit = fmt.insertSpaces === false ? '\t' : ' '.repeat(fmt.tabSize ?? 2);
        doc = load(file, appendChild(doc.text, hooksNode, (ind) => `${JSON.stringify(event)}: [${eol}${ind}${unit}${entrySnippet(command)}${eol}${ind}]`, fmt));
      }
      continue;
    }
    const ours = arr.map((e, i) => (isOurHookCommand(commandOf(e), 'cursor', event) ? i : -1)).filter((i) => i >= 0);
    if (ours.length === 0) {
      const arrNode = nodeAt(doc.text, ['hooks', event])!;
      if (!arrNode.children?.length) doc = edit(doc, ['hooks', event, -1], { command }, file);
      else doc = load(file, appendChild(doc.text, arrNode, () => entrySnippet(command), fmt));
      continue;
    }
    if (commandOf(arr[ours[0]!]) !== command) doc = edit(doc, ['hooks', event, ours[0]!, 'command'], command, file);
    // a second copy of ours (e.g. a hand-made duplicate) would run every hook twice
    for (const i of ours.slice(1).reverse()) doc = load(file, removeChild(doc.text, nodeAt(doc.text, ['hooks', event])!.children!, i));
  }
  return { text: doc.text, created };
}

/**
 * Compute the hooks.json text with every hive-mind cursor entry removed (pure). `created`
 * (from the install state) names what install added: an event array is deleted only when
 * install created it (else it is left as the user had it, maybe `[]`), and `hooks` /
 * `version` only when install created them and nothing else is in `hooks`. Without a state,
 * an event array holding only our entry is deleted.
 */
export function cursorConfigWithoutHooks(file: string, before: string, created?: string[][]): string {
  const made = (p: string[]) => created === undefined || created.some((c) => c.join('\u0000') === p.join('\u0000'));
  let doc = load(file, before);
  const hooks = hooksObject(doc, file);
  if (!hooks) return doc.text;
  for (const event of Object.keys(hooks)) {
    if (!Array.isArray(hooks[event])) continue; // not a hook list: nothing of ours can be in it
    const arr = eventArray(doc, event, file);
    if (!arr) continue;
    const ours = arr.map((e, i) => (isOurHookCommand(commandOf(e), 'cursor') ? i : -1)).filter((i) => i >= 0);
    if (ours.length === 0) continue;
    if (ours.length === arr.length && made(['hooks', event])) {
      // the event holds only ours and install created it: remove the whole "event": [...] property
      const hooksNode = nodeAt(doc.text, ['hooks'])!;
      const props = hooksNode.children ?? [];
      const pi = props.findIndex((p) => p.children?.[0]?.value === event);
      if (props.length > 1) doc = load(file, removeChild(doc.text, props, pi));
      else doc = load(file, doc.text.slice(0, hooksNode.offset) + '{}' + doc.text.slice(hooksNode.offset + hooksNode.length));
      continue;
    }
    for (const i of ours.reverse()) {
      const arrNode = nodeAt(doc.text, ['hooks', event])!;
      if (arrNode.children!.length === 1) doc = load(file, doc.text.slice(0, arrNode.offset) + '[]' + doc.text.slice(arrNode.offset + arrNode.length));
      else doc = load(file, removeChild(doc.text, arrNode.children!, i));
    }
  }
  if (created !== undefined) {
    const rootNode = () => nodeAt(doc.text, [])!;
    const dropRootKey = (key: string) => {
      const props = rootNode().children ?? [];
      const i = props.findIndex((p) => p.children?.[0]?.value === key);
      if (i < 0) return;
      if (props.length > 1) doc = load(file, removeChild(doc.text, props, i));
      else doc = load(file, doc.text.slice(0, rootNode().offset) + '{}' + doc.text.slice(rootNode().offset + rootNode().length));
    };
    const h = hooksObject(doc, file);
    if (made(['hooks']) && h && Object.keys(h).length === 0) dropRootKey('hooks');
    if (made(['version']) && doc.root.version === 1) dropRootKey('version');
  }
  return doc.text;
}

/** Sample stdin payloads per Cursor event, built from the documented fields (see cursor.ts). */
export function cursorSamplePayload(event: string, workspace: string): Record<string, unknown> {
  const common = {
    conversation_id: 'hive-mind-verify-conversation',
    generation_id: 'hive-mind-verify-generation',
    model: 'verify',
    hook_event_name: event,
    cursor_version: '1.7.0',
    workspace_roots: [workspace],
    user_email: null,
  };
  switch (event) {
    case 'sessionStart':
      return { ...common, session_id: 'hive-mind-verify-session', is_background_agent: false, composer_mode: 'agent' };
    case 'beforeSubmitPrompt':
      return { ...common, prompt: 'hive-mind verify: sample prompt', attachments: [] };
    case 'afterAgentResponse':
      return { ...common, text: 'hive-mind verify: sample assistant response.' };
    case 'stop':
      return { ...common, status: 'completed', loop_count: 0 };
    case 'preCompact':
      return { ...common, trigger: 'manual', context_usage_percent: 80, context_tokens: 100000, context_window_size: 128000, message_count: 10, messages_to_compact: 6, is_first_compaction: true };
    default:
      return common;
  }
}

/** Checks the stdout of one Cursor hook against what Cursor expects for that event. */
export function checkCursorStdout(event: string, stdout: string): string | undefined {
  const t = stdout.trim();
  if (t === '') return event === 'beforeSubmitPrompt' ? 'beforeSubmitPrompt must print {"continue": true}' : undefined;
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch {
    return `stdout is not JSON: ${t.slice(0, 120)}`;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'stdout must be a JSON object';
  const o = v as Record<string, unknown>;
  if (event === 'beforeSubmitPrompt' && o.continue !== true) return 'beforeSubmitPrompt must print {"continue": true}';
  if (event === 'sessionStart' && o.additional_context !== undefined && typeof o.additional_context !== 'string') return 'additional_context must be a string';
  if (event === 'stop' && o.followup_message !== undefined) return 'stop must not send a followup_message';
  return undefined;
}

function dedupe(paths: string[][]): string[][] {
  const seen = new Set<string>();
  return paths.filter((p) => {
    const k = p.join('\u0000');
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

async function change(action: 'install' | 'uninstall', opts: InstallOptions = {}): Promise<InstallReport> {
  const file = cursorHooksPath(homeOf(opts));
  const before = readText(file);
  let after: string | undefined;
  let created: string[][] = [];
  const state = readState('cursor', opts);
  const dirs = action === 'install' ? missingDirs(file) : [];
  if (action === 'install') {
    const e = cursorInstallEdit(file, before, resolveHookCommand(opts));
    after = e.text;
    created = [...(state?.created?.[file] ?? []), ...e.created];
    if (before === undefined) created.push(['<file>']);
  } else if (before !== undefined) {
    const recorded = state?.created?.[file];
    after = cursorConfigWithoutHooks(file, before, recorded);
    // we created the file from nothing and nothing else is left in it
    // (a file the user had before, even one equal to our skeleton, stays)
    if (recorded?.some((p) => p[0] === '<file>') && (after === SKELETON || /^\s*\{\s*\}\s*$/.test(after))) after = undefined;
  }
  const changed = after !== before;
  const report: InstallReport = {
    host: 'cursor',
    action,
    dryRun: !!opts.dryRun,
    files: [{ path: file, changed, diff: changed ? unifiedDiff(file, before ?? '', after ?? '') : '' }],
    notes: [],
  };
  if (changed && !opts.dryRun) {
    // a file our install created goes without a backup (nothing of the user's in it)
    const backup = commitFile(file, after);
    if (backup) report.files[0]!.backup = backup;
  }
  if (!opts.dryRun) {
    if (action === 'install') writeState({ host: 'cursor', installedAt: new Date().toISOString(), created: { [file]: dedupe(created) }, dirs: withPriorDirs('cursor', opts, dirs) }, opts);
    else dropState('cursor', opts, state);
  }
  if (action === 'install') {
    report.notes.push('Cursor reads ~/.cursor/hooks.json at start-up: restart Cursor (or reload the window) and check Settings > Hooks lists the hive-mind entries.');
    if (!opts.command) report.notes.push('The hooks run hive-mind by absolute path; re-run `hive-mind install cursor` if you move or reinstall hive-mind.');
  }
  return report;
}

export const cursorInstaller: HostInstaller = {
  host: 'cursor',
  install: (opts) => change('install', opts),
  uninstall: (opts) => change('uninstall', opts),
  async verify(opts: InstallOptions = {}): Promise<VerifyReport> {
    const file = cursorHooksPath(homeOf(opts));
    const text = readText(file);
    const doc = text === undefined ? undefined : load(file, text);
    const targets: VerifyTarget[] = [];
    const missing: VerifyReport['hooks'] = [];
    for (const event of CURSOR_INSTALLED_EVENTS) {
      const entry = (doc ? eventArray(doc, event, file) ?? [] : []).find((e) => isOurHookCommand(commandOf(e), 'cursor', event));
      if (entry) targets.push({ event, command: String(commandOf(entry)), payload: (cwd: string) => cursorSamplePayload(event, cwd) });
      else missing.push({ event, command: '', exitCode: null, ms: 0, stdout: '', ok: false, error: `not installed in ${file}` });
    }
    if (targets.length === 0) return { host: 'cursor', ok: false, installed: false, hooks: [] };
    // Cursor runs each command through a shell, as verifyCommands does (/bin/sh -c).
    const report = withStdoutCheck(await verifyCommands('cursor', targets, { env: opts.env }), checkCursorStdout);
    report.hooks.push(...missing);
    report.ok = report.ok && missing.length === 0;
    return report;
  },
};

/** Registry entry (installers.ts loads `installer`). */
export const installer = cursorInstaller;
