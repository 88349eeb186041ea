/**
 * Property tests (fast-check) of the installer core on generated user configs, one
 * generator per host format: indentation (2 or 4 spaces, tabs), CRLF or LF, with or
 * without a final newline, the whole document on one line, compact one-line entries,
 * comments and trailing commas where the format allows, user hooks on the events we use.
 *
 * For every generated file: install then uninstall gives back the exact bytes; a second
 * install changes nothing; a setting the user adds after install stays; and without the
 * recorded edits (structural removal only, as after a user edit inside our lines) the
 * data comes back exactly.
 */
import fc from 'fast-check';
import JSON5 from 'json5';
import { describe, expect, it } from 'vitest';
import { claudeCodeSpec } from '../src/hosts/claude-code-install.js';
import { codexSpec } from '../src/hosts/codex-install.js';
import { cursorSpec } from '../src/hosts/cursor-install.js';
import { hermesSpec } from '../src/hosts/hermes-install.js';
import { openclawSpec } from '../src/hosts/openclaw-install.js';
import { installConfig, uninstallConfig, type HostConfigSpec } from '../src/install/core.js';
import type { InstallerSpec } from '../src/install/installer.js';

const PREFIX = '/usr/bin/node /opt/hive-mind/bin/hive-mind.js';
/** Runs per property; HIVE_MIND_PROPERTY_RUNS raises it for a longer search. */
const RUNS = Number(process.env.HIVE_MIND_PROPERTY_RUNS) || 150;

const style = fc.record({
  indent: fc.constantFrom('  ', '    ', '\t'),
  eol: fc.constantFrom('\n', '\r\n'),
  finalNewline: fc.boolean(),
  oneLine: fc.boolean(),
  comments: fc.boolean(),
  trailingComma: fc.boolean(),
});
type Style = typeof style extends fc.Arbitrary<infer T> ? T : never;

const key = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,7}$/);
const scalar = fc.oneof(fc.integer({ min: -99, max: 9999 }), fc.boolean(), fc.stringMatching(/^[a-z ./-]{0,12}$/));
const command = fc.stringMatching(/^~\/bin\/[a-z-]{1,8}\.sh$/);

/** One user hook entry (an object of plain values) and whether it is written on one line. */
const entry = (shape: (cmd: string) => Record<string, unknown>) => fc.record({ value: command.map(shape), compact: fc.boolean() });

/** `structural: false` for a file where install changes a value of the user's (restored only from the record: a line of ours the user edited is theirs). */
function check(installer: InstallerSpec, pick: (specs: HostConfigSpec[]) => HostConfigSpec, text: string, structural = true): void {
  const ins = pick(installer.configs({ home: '/home/u', env: {} }, PREFIX));
  const un = pick(installer.configs({ home: '/home/u', env: {} }));
  const { text: installed, record } = installConfig(ins, text);
  expect(installed).not.toBe(text);
  // idempotent
  expect(installConfig(ins, installed, record).text).toBe(installed);
  // byte-exact with the record
  expect(uninstallConfig(un, installed, record)).toBe(text);
  // the user adds a setting of theirs after install: uninstall keeps it and removes only ours
  const added = ins.format.name === 'TOML' ? { x: 1 } : 1;
  const edited = uninstallConfig(un, ins.format.insertMember(installed, [], 'userAdded', added), record);
  expect(edited).toBeDefined();
  expect(edited).not.toContain('hive-mind.js');
  if (structural) expect(ins.format.parse('f', edited!)).toEqual({ ...ins.format.parse('f', text), userAdded: added });
  if (!structural) return;
  // structural removal only: the data comes back
  const removed = uninstallConfig(un, installed, { ...record, edits: [] });
  expect(ins.format.parse('f', removed ?? '')).toEqual(ins.format.parse('f', text));
}

// ---- JSON / JSONC (Claude Code, Codex, Cursor) ----

function jsonObject(members: Array<[string, string]>, s: Style, depth: number, quote = JSON.stringify): string {
  if (members.length === 0) return '{}';
  if (s.oneLine) return `{${members.map(([k, v]) => `${quote(k)}:${v}`).join(',')}}`;
  const ind = s.indent.repeat(depth + 1);
  const body = members.map(([k, v], i) => `${ind}${quote(k)}: ${v}${i < members.length - 1 || s.trailingComma ? ',' : ''}${s.comments && i === 0 ? ' // mine' : ''}`);
  return `{${s.eol}${body.join(s.eol)}${s.eol}${s.indent.repeat(depth)}}`;
}
function jsonArray(items: Array<{ value: unknown; compact: boolean }>, s: Style, depth: number, str: (v: unknown, d: number) => string): string {
  if (items.length === 0) return '[]';
  if (s.oneLine) return `[${items.map((i) => str(i.value, depth + 1)).join(',')}]`;
  const ind = s.indent.repeat(depth + 1);
  const note = (n: number) => (s.comments ? (n % 2 ? ' /* why */' : ' // note') : '');
  return `[${s.eol}${items.map((i, n) => `${ind}${i.compact ? JSON.stringify(i.value) : str(i.value, depth + 1)}${n < items.length - 1 ? ',' : ''}${note(n)}`).join(s.eol)}${s.eol}${s.indent.repeat(depth)}]`;
}
function expanded(v: unknown, s: Style, depth: number): string {
  if (s.oneLine) return JSON.stringify(v);
  return JSON.stringify(v, null, s.indent).split('\n').join(s.eol + s.indent.repeat(depth));
}
function jsonDoc(top: Record<string, unknown>, hooks: Record<string, Array<{ value: unknown; compact: boolean }>> | undefined, s: Style, extra: Array<[string, string]> = []): string {
  const members: Array<[string, string]> = [...extra, ...Object.entries(top).map(([k, v]) => [k, JSON.stringify(v)] as [string, string])];
  if (hooks) members.push(['hooks', jsonObject(Object.entries(hooks).map(([ev, items]) => [ev, jsonArray(items, s, 2, (v, d) => expanded(v, s, d))]), s, 1)]);
  const body = jsonObject(members, s, 0);
  return `${s.comments && !s.oneLine ? `// settings${s.eol}` : ''}${body}${s.finalNewline ? s.eol : ''}`;
}

const groupEntry = entry((cmd) => ({ hooks: [{ type: 'command', command: cmd }] }));
const claudeEvents = fc.dictionary(fc.constantFrom('Stop', 'PreToolUse', 'SessionStart', 'Notification', 'PreCompact'), fc.array(groupEntry, { maxLength: 3 }), { maxKeys: 3 });

describe('installer core, generated configs (property)', () => {
  it('claude-code settings.json (JSONC)', () => {
    fc.assert(
      fc.property(fc.dictionary(key.filter((k) => k !== 'hooks'), scalar, { maxKeys: 3 }), fc.option(claudeEvents, { nil: undefined }), style, (top, hooks, s) => {
        check(claudeCodeSpec, (c) => c[0]!, jsonDoc(top, hooks, s));
      }),
      { numRuns: RUNS },
    );
  });

  it('codex hooks.json (strict JSON)', () => {
    fc.assert(
      fc.property(fc.option(claudeEvents, { nil: undefined }), style, (hooks, s) => {
        check(codexSpec, (c) => c[0]!, jsonDoc({}, hooks, { ...s, comments: false, trailingComma: false }));
      }),
      { numRuns: RUNS },
    );
  });

  it('cursor hooks.json (JSONC, version 1)', () => {
    const cursorEntry = entry((cmd) => ({ command: cmd }));
    const events = fc.dictionary(fc.constantFrom('beforeShellExecution', 'afterFileEdit', 'beforeSubmitPrompt', 'stop', 'sessionStart', 'preCompact'), fc.array(cursorEntry, { maxLength: 3 }), { maxKeys: 4 });
    fc.assert(
      fc.property(fc.boolean(), fc.option(events, { nil: undefined }), style, (version, hooks, s) => {
        check(cursorSpec, (c) => c[0]!, jsonDoc({}, hooks, s, version ? [['version', '1']] : []));
      }),
      { numRuns: RUNS },
    );
  });

  // ---- JSON5 (OpenClaw) ----
  it('openclaw openclaw.json (JSON5)', () => {
    const bare = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
    const q = fc.constantFrom<(k: string) => string>(bare, (k) => `'${k}'`, (k) => JSON.stringify(k));
    const internal = fc.option(fc.record({ enabled: fc.option(fc.boolean(), { nil: undefined }), entries: fc.option(fc.dictionary(fc.constantFrom('session-memory', 'boot-md'), fc.record({ enabled: fc.boolean() }), { maxKeys: 2 }), { nil: undefined }) }), { nil: undefined });
    fc.assert(
      fc.property(fc.dictionary(key.filter((k) => k !== 'hooks'), scalar, { maxKeys: 3 }), internal, q, style, (top, inner, quote, s) => {
        const v = (x: unknown) => JSON5.stringify(x);
        const members: Array<[string, string]> = Object.entries(top).map(([k, x]) => [k, v(x)]);
        if (inner) {
          const im: Array<[string, string]> = [];
          if (inner.enabled !== undefined) im.push(['enabled', String(inner.enabled)]);
          if (inner.entries) im.push(['entries', jsonObject(Object.entries(inner.entries).map(([k, x]) => [k, v(x)]), s, 3, quote)]);
          members.push(['hooks', jsonObject([['internal', jsonObject(im, s, 2, quote)]], s, 1, quote)]);
        }
        const text = `${s.comments && !s.oneLine ? `// openclaw${s.eol}` : ''}${jsonObject(members, s, 0, quote)}${s.finalNewline ? s.eol : ''}`;
        check(openclawSpec, (c) => c[0]!, text, inner?.enabled !== false);
      }),
      { numRuns: RUNS },
    );
  });

  // ---- YAML (Hermes) ----
  it('hermes config.yaml (YAML)', () => {
    const yamlStyle = fc.record({ indent: fc.constantFrom('  ', '    '), eol: fc.constantFrom('\n', '\r\n'), finalNewline: fc.boolean(), comments: fc.boolean(), quote: fc.boolean() });
    const item = fc.record({ command, timeout: fc.option(fc.integer({ min: 1, max: 300 }), { nil: undefined }) });
    const events = fc.dictionary(fc.constantFrom('pre_llm_call', 'post_llm_call', 'on_session_start', 'post_tool_call'), fc.array(item, { minLength: 1, maxLength: 3 }), { maxKeys: 3 });
    fc.assert(
      fc.property(fc.dictionary(key.filter((k) => k !== 'hooks'), fc.stringMatching(/^[a-z][a-z0-9.-]{0,10}$/), { maxKeys: 3 }), fc.option(events, { nil: undefined }), yamlStyle, (top, hooks, s) => {
        const lines: string[] = [];
        if (s.comments) lines.push('# hermes config');
        for (const [k, x] of Object.entries(top)) lines.push(`${k}: ${s.quote ? JSON.stringify(x) : x}${s.comments ? '  # mine' : ''}`);
        if (hooks) {
          lines.push('hooks:');
          for (const [ev, items] of Object.entries(hooks)) {
            lines.push(`${s.indent}${ev}:`);
            for (const it of items) {
              lines.push(`${s.indent}${s.indent}- command: ${s.quote ? `'${it.command}'` : it.command}`);
              if (it.timeout !== undefined) lines.push(`${s.indent}${s.indent}  timeout: ${it.timeout}`);
            }
          }
        }
        const text = lines.join(s.eol) + (s.finalNewline && lines.length ? s.eol : '');
        check(hermesSpec, (c) => c[0]!, text);
      }),
      { numRuns: RUNS },
    );
  });

  // ---- TOML (Codex config.toml) ----
  it('codex config.toml (TOML)', () => {
    const tomlStyle = fc.record({ eol: fc.constantFrom('\n', '\r\n'), finalNewline: fc.boolean(), comments: fc.boolean(), blank: fc.boolean() });
    const features = fc.option(fc.record({ hooks: fc.constantFrom(undefined, false), web_search: fc.option(fc.boolean(), { nil: undefined }) }), { nil: undefined });
    fc.assert(
      fc.property(fc.dictionary(key.filter((k) => k !== 'features'), scalar, { maxKeys: 3 }), features, fc.boolean(), tomlStyle, (top, feat, provider, s) => {
        const lines: string[] = [];
        if (s.comments) lines.push('# codex');
        for (const [k, x] of Object.entries(top)) lines.push(`${k} = ${JSON.stringify(x)}${s.comments ? ' # mine' : ''}`);
        const table = (name: string, kv: Array<[string, unknown]>) => {
          if (s.blank && lines.length) lines.push('');
          lines.push(`[${name}]`);
          for (const [k, x] of kv) lines.push(`${k} = ${JSON.stringify(x)}`);
        };
        if (feat) table('features', Object.entries(feat).filter(([, x]) => x !== undefined));
        if (provider) table('model_providers.local', [['name', 'local']]);
        const text = lines.join(s.eol) + (s.finalNewline && lines.length ? s.eol : '');
        check(codexSpec, (c) => c[1]!, text, feat?.hooks !== false);
      }),
      { numRuns: RUNS },
    );
  });
});
