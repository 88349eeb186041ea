/**
 * Hermes installer: adds hive-mind shell hooks to the `hooks:` block of
 * `~/.hermes/config.yaml` (or `$HERMES_HOME/config.yaml`), per the "Shell Hooks"
 * section of Hermes Agent's hooks documentation:
 *
 * ```yaml
 * hooks:
 *   pre_llm_call:
 *     - command: "<shell command>"   # argv via shlex.split, no shell
 *       timeout: 30                  # seconds; Hermes default 60, capped at 300
 * ```
 *
 * Editing approach: the file is parsed with the `yaml` Document API, which
 * locates every node (source ranges); our entries are then inserted or removed
 * as whole lines at those positions, so the user's bytes (comments, spacing,
 * quoting, key order) are untouched outside our lines. Every targeted edit is
 * checked by re-parsing and comparing the data with the same change made
 * through the Document API; if the layout is one we do not edit by lines
 * (flow style such as `hooks: {}`), the Document API's own output is written
 * instead, which keeps comments and key order but may normalise whitespace.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isMap, isScalar, isSeq, parseDocument, type Document, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import type { HostInstaller, InstallOptions, InstallReport, VerifyReport } from '../types.js';
import { HERMES_INSTALLED_EVENTS } from './hermes.js';
import { hookCommand } from '../install/command.js';
import { commitFile, missingDirs, readText, unifiedDiff } from '../install/files.js';
import { dropState, homeOf, readState, withPriorDirs, writeState } from '../install/state.js';
import { verifyCommands, type VerifyTarget } from '../install/verify.js';
import { isOurHookCommand, resolveHookCommand, withStdoutCheck } from './cursor-openclaw-hermes-shared.js';

/** Per-hook timeout we write (seconds). Our runner has its own, shorter, time cap. */
export const HERMES_HOOK_TIMEOUT_S = 30;

/** Hermes home: `$HERMES_HOME` when the given environment sets it, else `<home>/.hermes`. */
export function hermesHome(opts: InstallOptions = {}): string {
  const env = opts.env ?? (opts.home ? {} : process.env);
  return env.HERMES_HOME ? path.resolve(env.HERMES_HOME) : path.join(homeOf(opts), '.hermes');
}

export function hermesConfigPath(opts: InstallOptions = {}): string {
  return path.join(hermesHome(opts), 'config.yaml');
}

export class HermesConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HermesConfigError';
  }
}

function parseOrThrow(file: string, text: string): Document.Parsed {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    const pos = e.linePos?.[0];
    throw new HermesConfigError(`${file}:${pos ? `${pos.line}:${pos.col}` : '1:1'}: ${e.message.split('\n')[0]} (nothing was changed)`);
  }
  const c = doc.contents;
  if (c !== null && !isMap(c)) throw new HermesConfigError(`${file}:1:1: the top level must be a mapping (key: value) (nothing was changed)`);
  return doc;
}

function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

function hooksMap(doc: Document.Parsed, file: string, text: string): YAMLMap | undefined {
  const node = doc.get('hooks', true);
  if (node === undefined || node === null) return undefined;
  if (isScalar(node) && (node.value === null || node.value === undefined)) return undefined;
  if (!isMap(node)) {
    const r = (node as { range?: [number, number, number] }).range;
    throw new HermesConfigError(`${file}:${r ? lineOf(text, r[0]) : 1}: field "hooks" must be a mapping of event names to lists (nothing was changed)`);
  }
  return node;
}

function eventSeq(map: YAMLMap | undefined, event: string, file: string, text: string): YAMLSeq | undefined {
  if (!map) return undefined;
  const node = map.get(event, true);
  if (node === undefined || node === null) return undefined;
  if (isScalar(node) && node.value === null) return undefined;
  if (!isSeq(node)) {
    const r = (node as { range?: [number, number, number] }).range;
    throw new HermesConfigError(`${file}:${r ? lineOf(text, r[0]) : 1}: field "hooks.${event}" must be a list of {command: …} entries (nothing was changed)`);
  }
  return node;
}

function itemCommand(item: unknown): unknown {
  return isMap(item) ? (item as YAMLMap).get('command') : undefined;
}

const lineStart = (t: string, off: number) => t.lastIndexOf('\n', off - 1) + 1;
const lineEndIncl = (t: string, off: number) => {
  const i = t.indexOf('\n', off);
  return i < 0 ? t.length : i + 1;
};
const columnOf = (t: string, off: number) => off - lineStart(t, off);

/** YAML scalar for a command: plain when safe, else double-quoted JSON (valid YAML). */
function yamlScalar(s: string): string {
  return /^[A-Za-z0-9_./~-][^#:'"{}[\],&*!|>%@`]*$/.test(s) && !/\s$/.test(s) ? s : JSON.stringify(s);
}

function itemLines(indent: string, command: string): string {
  return `${indent}- command: ${yamlScalar(command)}\n${indent}  timeout: ${HERMES_HOOK_TIMEOUT_S}\n`;
}

type Edit = { start: number; end: number; text: string };

function applyTextEdits(text: string, edits: Edit[]): string {
  let out = text;
  // right to left; edits at the same offset keep their given order in the result
  const ordered = edits.map((e, i) => ({ ...e, i })).sort((a, b) => b.start - a.start || b.i - a.i);
  for (const e of ordered) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

function blockLayout(node: { range?: [number, number, number] | null; flow?: boolean } | undefined): boolean {
  return !!node && !node.flow && !!node.range;
}

/** Our change made through the Document API alone (reference result and fallback). */
function viaDocumentApi(text: string, file: string, mutate: (doc: Document.Parsed) => void): string {
  const doc = parseOrThrow(file, text);
  mutate(doc);
  return doc.toString();
}

function sameData(a: string, b: string): boolean {
  return JSON.stringify(parseDocument(a).toJS() ?? {}) === JSON.stringify(parseDocument(b).toJS() ?? {});
}

/** Compute config.yaml with our hooks present (pure; used by install and dry-run). */
export function hermesConfigWithHooks(file: string, before: string | undefined, prefix: string): string {
  return hermesInstallEdit(file, before, prefix).text;
}

/** Install edit plus what it created (`hooks`, `hooks.<event>`), recorded in the install state for uninstall. */
export function hermesInstallEdit(file: string, before: string | undefined, prefix: string): { text: string; created: string[][] } {
  const text = before ?? '';
  const created: string[][] = [];
  {
    const d0 = parseOrThrow(file, text);
    const m0 = hooksMap(d0, file, text);
    if (!m0) created.push(['hooks']);
    for (const event of HERMES_INSTALLED_EVENTS) if (!eventSeq(m0, event, file, text)) created.push(['hooks', event]);
  }
  const doc = parseOrThrow(file, text);
  const want = (event: string) => hookCommand(prefix, 'hermes', event);

  const reference = viaDocumentApi(text, file, (d) => {
    if (!hooksMap(d, file, text)) d.set('hooks', d.createNode({}));
    const map = hooksMap(d, file, text)!;
    for (const event of HERMES_INSTALLED_EVENTS) {
      const seq = eventSeq(map, event, file, text);
      if (!seq) {
        map.set(event, d.createNode([{ command: want(event), timeout: HERMES_HOOK_TIMEOUT_S }]));
        continue;
      }
      const ours = seq.items.map((it, i) => (isOurHookCommand(itemCommand(it), 'hermes', event) ? i : -1)).filter((i) => i >= 0);
      if (ours.length === 0) seq.add(d.createNode({ command: want(event), timeout: HERMES_HOOK_TIMEOUT_S }));
      else {
        (seq.items[ours[0]!] as YAMLMap).set('command', want(event));
        for (const i of ours.slice(1).reverse()) seq.delete(i);
      }
    }
  });

  // Targeted line edits at positions the Document API located.
  const edits: Edit[] = [];
  const map = hooksMap(doc, file, text);
  let ok = true;
  if (!map) {
    const hooksNode = doc.get('hooks', true) as { range?: [number, number, number] } | undefined;
    let block = 'hooks:\n';
    for (const event of HERMES_INSTALLED_EVENTS) block += `  ${event}:\n${itemLines('    ', want(event))}`;
    if (hooksNode && doc.contents && isMap(doc.contents)) {
      // `hooks:` present with an empty value: replace that key's line(s)
      const pair = (doc.contents as YAMLMap).items.find((p) => isScalar(p.key) && p.key.value === 'hooks') as Pair | undefined;
      const kr = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
      if (kr && columnOf(text, kr[0]) === 0) edits.push({ start: lineStart(text, kr[0]), end: lineEndIncl(text, kr[1]), text: block });
      else ok = false;
    } else {
      const sep = text === '' || text.endsWith('\n') ? '' : '\n';
      edits.push({ start: text.length, end: text.length, text: `${sep}${block}` });
    }
  } else if (blockLayout(map)) {
    const firstKey = map.items[0]?.key as { range?: [number, number, number] } | undefined;
    const keyIndent = firstKey?.range ? ' '.repeat(columnOf(text, firstKey.range[0])) : '  ';
    for (const event of HERMES_INSTALLED_EVENTS) {
      const seq = eventSeq(map, event, file, text);
      if (!seq) {
        const at = lineEndIncl(text, Math.max(map.range![1] - 1, 0));
        edits.push({ start: at, end: at, text: `${keyIndent}${event}:\n${itemLines(`${keyIndent}  `, want(event))}` });
        continue;
      }
      if (!blockLayout(seq) || seq.items.length === 0) {
        ok = false;
        break;
      }
      const ours = seq.items.map((it, i) => (isOurHookCommand(itemCommand(it), 'hermes', event) ? i : -1)).filter((i) => i >= 0);
      const firstItem = seq.items[0] as { range?: [number, number, number] };
      const dashCol = firstItem.range ? Math.max(columnOf(text, firstItem.range[0]) - 2, 0) : keyIndent.length + 2;
      const indent = ' '.repeat(dashCol);
      if (ours.length === 0) {
        const at = lineEndIncl(text, Math.max(seq.range![1] - 1, 0));
        edits.push({ start: at, end: at, text: itemLines(indent, want(event)) });
        continue;
      }
      const first = seq.items[ours[0]!] as YAMLMap;
      if (first.get('command') !== want(event)) {
        const cmdNode = first.get('command', true) as { range?: [number, number, number] } | undefined;
        if (!cmdNode?.range) {
          ok = false;
          break;
        }
        edits.push({ start: cmdNode.range[0], end: cmdNode.range[1], text: yamlScalar(want(event)) });
      }
      for (const i of ours.slice(1)) {
        const r = (seq.items[i] as { range?: [number, number, number] }).range;
        if (!r) {
          ok = false;
          break;
        }
        edits.push({ start: lineStart(text, r[0]), end: lineEndIncl(text, Math.max(r[1] - 1, r[0])), text: '' });
      }
    }
  } else ok = false;

  if (ok) {
    const result = applyTextEdits(text, edits);
    try {
      if (sameData(result, reference)) return { text: result, created };
    } catch {
      /* fall through to the Document API output */
    }
  }
  return { text: reference, created };
}

/** Compute config.yaml with every hive-mind hermes hook removed (pure). */
/**
 * `created` (from the install state) names what install added: an event list is deleted
 * only when install created it, `hooks` only when install created it and it is empty.
 * Without a state, a list left empty by removing ours is deleted.
 */
export function hermesConfigWithoutHooks(file: string, before: string, created?: string[][]): string {
  const made = (p: string[]) => created === undefined || created.some((c) => c.join('\u0000') === p.join('\u0000'));
  const doc = parseOrThrow(file, before);
  const map = hooksMap(doc, file, before);
  if (!map) return before;
  // only list-valued keys can hold our entries (`hooks.outbound` webhooks and the like are left alone)
  const events = map.items
    .filter((p) => isScalar(p.key) && isSeq(p.value))
    .map((p) => String((p.key as { value: unknown }).value));

  const anyOurs = events.some((event) => eventSeq(map, event, file, before)?.items.some((it) => isOurHookCommand(itemCommand(it), 'hermes')));
  if (!anyOurs) return before;

  const reference = viaDocumentApi(before, file, (d) => {
    const m = hooksMap(d, file, before)!;
    for (const event of events) {
      const seq = eventSeq(m, event, file, before);
      if (!seq) continue;
      let removed = 0;
      for (let i = seq.items.length - 1; i >= 0; i--) {
        if (isOurHookCommand(itemCommand(seq.items[i]), 'hermes')) {
          seq.delete(i);
          removed++;
        }
      }
      if (removed > 0 && seq.items.length === 0 && made(['hooks', event])) m.delete(event);
    }
    if (m.items.length === 0 && made(['hooks'])) d.delete('hooks');
  });

  const edits: Edit[] = [];
  let ok = blockLayout(map);
  let removedEvents = 0;
  for (const event of events) {
    if (!ok) break;
    const seq = eventSeq(map, event, file, before);
    if (!seq) continue;
    const ours = seq.items.map((it, i) => (isOurHookCommand(itemCommand(it), 'hermes') ? i : -1)).filter((i) => i >= 0);
    if (ours.length === 0) continue;
    if (!blockLayout(seq)) {
      ok = false;
      break;
    }
    if (ours.length === seq.items.length) {
      if (!made(['hooks', event])) {
        ok = false; // the user's list would be left empty: let the Document API write `[]`
        break;
      }
      const pair = map.items.find((p) => isScalar(p.key) && p.key.value === event) as Pair;
      const kr = (pair.key as { range?: [number, number, number] }).range!;
      edits.push({ start: lineStart(before, kr[0]), end: lineEndIncl(before, Math.max(seq.range![1] - 1, kr[0])), text: '' });
      removedEvents++;
      continue;
    }
    for (const i of ours) {
      const r = (seq.items[i] as { range?: [number, number, number] }).range!;
      edits.push({ start: lineStart(before, r[0]), end: lineEndIncl(before, Math.max(r[1] - 1, r[0])), text: '' });
    }
  }
  if (ok && removedEvents === map.items.length && made(['hooks'])) {
    // nothing of the user's is left under hooks: drop the key itself
    const pair = (doc.contents as YAMLMap).items.find((p) => isScalar(p.key) && p.key.value === 'hooks') as Pair;
    const kr = (pair.key as { range?: [number, number, number] }).range!;
    edits.length = 0;
    edits.push({ start: lineStart(before, kr[0]), end: lineEndIncl(before, Math.max(map.range![1] - 1, kr[0])), text: '' });
  }
  if (ok) {
    const result = applyTextEdits(before, edits);
    try {
      if (sameData(result, reference)) return result;
    } catch {
      /* fall through */
    }
  }
  return reference;
}

/** Sample shell-hook stdin per event, built from the documented wire protocol (see hermes.ts). */
export function hermesSamplePayload(event: string, cwd: string): Record<string, unknown> {
  const base = { hook_event_name: event, tool_name: null, tool_input: null, session_id: 'hive-mind-verify-session', cwd, profile: 'default' };
  switch (event) {
    case 'on_session_start':
      return { ...base, extra: { model: 'verify', platform: 'cli' } };
    case 'pre_llm_call':
      return { ...base, extra: { user_message: 'hive-mind verify: sample prompt', conversation_history: [], is_first_turn: true, model: 'verify', platform: 'cli' } };
    case 'post_llm_call':
      return {
        ...base,
        extra: {
          user_message: 'hive-mind verify: sample prompt',
          assistant_response: 'hive-mind verify: sample assistant response.',
          conversation_history: [],
          model: 'verify',
          platform: 'cli',
        },
      };
    default:
      return { ...base, extra: {} };
  }
}

/** Checks one hook's stdout against Hermes' documented response shapes. */
export function checkHermesStdout(stdout: string): string | undefined {
  const t = stdout.trim();
  if (t === '') return undefined;
  try {
    const v = JSON.parse(t) as unknown;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'stdout must be a JSON object';
    const ctx = (v as Record<string, unknown>).context;
    if (ctx !== undefined && typeof ctx !== 'string') return '"context" must be a string';
    return undefined;
  } catch {
    return `stdout is not JSON: ${t.slice(0, 120)}`;
  }
}

async function change(action: 'install' | 'uninstall', opts: InstallOptions = {}): Promise<InstallReport> {
  const file = hermesConfigPath(opts);
  const before = readText(file);
  let after: string | undefined = before;
  const state = readState('hermes', opts);
  const dirs = action === 'install' ? missingDirs(file) : [];
  let created: string[][] = [];
  if (action === 'install') {
    const e = hermesInstallEdit(file, before, resolveHookCommand(opts));
    after = e.text;
    created = [...(state?.created?.[file] ?? []), ...e.created];
  } else if (before !== undefined) {
    after = hermesConfigWithoutHooks(file, before, state?.created?.[file]);
    if (after.trim() === '' && before.trim() !== '') after = undefined; // the file only ever held our hooks
  }
  const changed = after !== before;
  const report: InstallReport = { host: 'hermes', action, dryRun: !!opts.dryRun, files: [{ path: file, changed, diff: changed ? unifiedDiff(file, before ?? '', after ?? '') : '' }], notes: [] };
  if (changed && !opts.dryRun) {
    // a file left holding only our hooks goes without a backup (nothing of the user's in it)
    const backup = commitFile(file, after);
    if (backup) report.files[0]!.backup = backup;
  }
  if (!opts.dryRun) {
    if (action === 'install') {
      const seen = new Set<string>();
      const unique = created.filter((p) => !seen.has(p.join('.')) && !!seen.add(p.join('.')));
      writeState({ host: 'hermes', installedAt: new Date().toISOString(), created: { [file]: unique }, dirs: withPriorDirs('hermes', opts, dirs) }, opts);
    } else dropState('hermes', opts, state);
  }
  if (action === 'install') {
    report.notes.push(
      'Hermes asks once per (event, command) before running a new shell hook. Approve the three hive-mind hooks at the first prompt (or review them with `hermes hooks list`). ' +
        'Non-interactive runs (gateway, cron, CI) skip unapproved hooks: start them once interactively, or use `hermes --accept-hooks`, HERMES_ACCEPT_HOOKS=1, or `hooks_auto_accept: true` if you accept that trade-off.',
    );
    report.notes.push('Compaction from the Stop hook is off by default; set HIVE_MIND_HERMES_COMPACT_ON_STOP=1 (window: HIVE_MIND_HERMES_COMPACT_WINDOW_MIN, default 10 minutes) to enable it.');
  }
  return report;
}

export const hermesInstaller: HostInstaller = {
  host: 'hermes',
  install: (opts) => change('install', opts),
  uninstall: (opts) => change('uninstall', opts),
  async verify(opts: InstallOptions = {}): Promise<VerifyReport> {
    const file = hermesConfigPath(opts);
    const text = readText(file);
    const map = text === undefined ? undefined : hooksMap(parseOrThrow(file, text), file, text);
    const targets: VerifyTarget[] = [];
    const missing: VerifyReport['hooks'] = [];
    for (const event of HERMES_INSTALLED_EVENTS) {
      const item = text !== undefined ? eventSeq(map, event, file, text)?.items.find((it) => isOurHookCommand(itemCommand(it), 'hermes', event)) : undefined;
      if (item) targets.push({ event, command: String(itemCommand(item)), payload: (cwd: string) => hermesSamplePayload(event, cwd) });
      else missing.push({ event, command: '', exitCode: null, ms: 0, stdout: '', ok: false, error: `not installed in ${file}` });
    }
    if (targets.length === 0) return { host: 'hermes', ok: false, installed: false, hooks: [] };
    // Hermes splits the command with shlex and runs it without a shell; for the commands we
    // write (plain or single-quoted words) /bin/sh -c yields the same argv.
    // HERMES_HOME points at a throw-away directory too, so a compact-on-stop gate enabled in
    // the user's environment stamps that directory, not the real ~/.hermes.
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'hive-mind-verify-hermes-'));
    let report: VerifyReport;
    try {
      const env = { ...(opts.env ?? process.env), HERMES_HOME: scratch };
      report = withStdoutCheck(await verifyCommands('hermes', targets, { env }), (_e, out) => checkHermesStdout(out));
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
    report.hooks.push(...missing);
    report.ok = report.ok && missing.length === 0;
    return report;
  },
};

/** Registry entry (installers.ts loads `installer`). */
export const installer = hermesInstaller;
