/**
 * What each hook event loads, pinned: every event runs in a real process, payload on stdin, with a
 * tracer (fixtures/trace-loads.mjs) recording each module it loads, twice:
 * - unbundled (`node packages/cli/dist/bin.js hook claude-code EVENT`, the launcher's fallback):
 *   the list must equal the event's row of fixtures/hook-imports.json;
 * - as the host runs it (`hive-mind hook claude-code EVENT`: bin/hive-mind.js runs the hook bundle,
 *   dist/hook.cjs): only the launcher's own modules and better-sqlite3 load (row `bundled EVENT`).
 * The bundle's inputs (dist/hook-bundle.json, written by `npm run build`) are pinned too (row
 * `bundle`), and must be what the unbundled events load, less what the bundle leaves to run time.
 * A hook's cost is mostly module loading, so a module that joins the hook path is a decision: rerun
 * with `HIVE_MIND_UPDATE_HOOK_IMPORTS=1` to write the new lists and commit the diff with the change.
 * Heavy modules fail whatever the fixture says.
 *
 * Needs the CLI and the bundle built (`npm run build`; `npm ci` runs it).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { CLI, sandbox } from './helpers.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/hook-imports.json', import.meta.url));
const TRACER = fileURLToPath(new URL('./fixtures/trace-loads.mjs', import.meta.url));
const UPDATE = process.env.HIVE_MIND_UPDATE_HOOK_IMPORTS === '1';
/** The unbundled entry (what bin/hive-mind.js runs when the bundle is missing or stale). */
const UNBUNDLED = join(dirname(CLI), '..', 'dist', 'bin.js');
const BUNDLE_INPUTS = join(dirname(CLI), '..', 'dist', 'hook-bundle.json');
/** What the unbundled path loads that the bundle does not hold: the unbundled entry, the preset's ESM loader (the bundle requires the preset itself), and better-sqlite3 (a native addon, loaded at run time). */
const NOT_IN_BUNDLE = ['cli/bin.js', 'mind/safety/secret-preset-load.js', 'npm:better-sqlite3', 'npm:bindings', 'npm:file-uri-to-path'];
/** What the bundle holds beyond the events run here: the other hosts' adapters (and the host folders one of them reads), the launcher's home lookup. */
const BUNDLE_ONLY = /^(?:hooks\/hosts\/(?!claude-code\.js|payload\.js)|hooks\/hermes-gate\.js$|mind\/home\.js$|transcripts\/user-home\.js$|transcripts\/host-dirs\.js$)/;

/** Never on a hook path: the CLI framework, the tokenizer, LLM and MCP clients, the installers' config parsers, the team server client, the compaction engine and the transcript readers. */
const HEAVY = [
  'npm:commander',
  'npm:gpt-tokenizer',
  'npm:openai',
  'npm:@anthropic-ai/sdk',
  'npm:@modelcontextprotocol/sdk',
  'npm:yaml',
  'npm:jsonc-parser',
  'npm:json5',
  'npm:smol-toml',
  'npm:pg',
  'compaction/',
  'transcripts/formats/',
  'transcripts/read.js',
  'transcripts/index.js',
];
/** Heavy only where nothing is redacted: the secret rule set (a 218 kB module) on events that store no text. */
const HEAVY_WHEN_READING = ['npm:@secretlint/secretlint-rule-preset-recommend'];
const READ_ONLY_EVENTS = new Set(['SessionStart', 'PreCompact']);

/** A loaded URL as the fixture names it: `<package>/<path in dist or bin>` for ours, `npm:<name>` for a dependency (`npm:<name>/package.json` for its manifest alone); builtins left out. */
function moduleName(url: string): string | undefined {
  if (!url.startsWith('file:')) return undefined;
  const path = fileURLToPath(url);
  const dep = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  // a dependency's package.json (its version read, the package itself not loaded) is named apart
  if (dep) return `npm:${dep[1]}${path.endsWith(`${dep[1]}/package.json`) ? '/package.json' : ''}`;
  const own = /packages\/([^/]+)\/(?:dist|bin)\/(.+)$/.exec(path);
  if (own) return `${own[1]}/${own[2]!.startsWith('hive-mind.js') ? 'bin/' : ''}${own[2]}`;
  return undefined; // the tracer itself
}

let box: ReturnType<typeof sandbox>;
let loads: Record<string, string[]>;
let outputs: Record<string, string>;

/** The home of the bundled runs: the same session again from an empty home, so each answer can be compared with the unbundled one. */
const bundledHome = () => join(box.root, 'hm-bundled');

function traced(event: string, payload: Record<string, unknown>, entry: string): string[] {
  const out = join(box.root, `loads-${event}-${entry === CLI ? 'bundled' : 'unbundled'}.txt`);
  const r = spawnSync(process.execPath, ['--import', TRACER, entry, 'hook', 'claude-code', event], {
    input: JSON.stringify(payload),
    env: { ...box.env, ...(entry === CLI ? { HIVE_MIND_HOME: bundledHome() } : {}), HM_TRACE_LOADS: out, HM_TRACE_LOADS_REGISTERED: undefined },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  outputs[`${entry === CLI ? 'bundled ' : ''}${event}`] = r.stdout;
  const names = readFileSync(out, 'utf8').split('\n').filter(Boolean).map(moduleName);
  return [...new Set(names.filter((n): n is string => !!n))].sort();
}

beforeAll(() => {
  box = sandbox();
  const transcript = join(box.root, 'transcript.jsonl');
  writeFileSync(
    transcript,
    [
      { type: 'user', sessionId: 's1', cwd: box.project, message: { role: 'user', content: 'Always run the linter before committing in this repo' } },
      { type: 'assistant', sessionId: 's1', cwd: box.project, message: { role: 'assistant', content: [{ type: 'text', text: 'Noted: the linter runs before every commit.' }] } },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n') + '\n',
  );
  const base = { session_id: 's1', cwd: box.project, transcript_path: transcript };
  // the events of one session, in the order a host sends them; the mind has frames by SessionStart #2
  const runs: Array<[string, Record<string, unknown>]> = [
    ['UserPromptSubmit', { ...base, hook_event_name: 'UserPromptSubmit', prompt_id: 'p1', prompt: 'From now on always run the linter before committing; the API lives in src/api.ts' }],
    ['Stop', { ...base, hook_event_name: 'Stop', prompt_id: 'p1', last_assistant_message: 'Done: the linter now runs in the pre-commit hook (lint-staged), and src/api.ts passes.' }],
    ['SessionStart', { ...base, hook_event_name: 'SessionStart', source: 'startup' }],
    ['PreCompact', { ...base, hook_event_name: 'PreCompact', trigger: 'auto' }],
    ['SessionEnd', { ...base, hook_event_name: 'SessionEnd', reason: 'exit' }],
  ];
  loads = {};
  outputs = {};
  for (const [event, payload] of runs) loads[event] = traced(event, payload, UNBUNDLED);
  // the same session again through the launcher (the bundle), from an empty home
  for (const [event, payload] of runs) loads[`bundled ${event}`] = traced(event, payload, CLI);
  const { inputs } = JSON.parse(readFileSync(BUNDLE_INPUTS, 'utf8')) as { inputs: string[] };
  loads.bundle = [...new Set(inputs.map((p) => moduleName(pathToFileURL(resolve(dirname(BUNDLE_INPUTS), p)).href)).filter((n): n is string => !!n))].sort();
  if (UPDATE) {
    mkdirSync(join(FIXTURE, '..'), { recursive: true });
    writeFileSync(FIXTURE, JSON.stringify(loads, null, 2) + '\n');
  }
}, 120_000);

afterAll(() => rmSync(box.root, { recursive: true, force: true }));

describe('the hook bundle', () => {
  it('runs every event: the launcher loads only itself, the home lookup and better-sqlite3, and answers as the unbundled path does', () => {
    for (const event of ['UserPromptSubmit', 'Stop', 'SessionStart', 'PreCompact', 'SessionEnd']) {
      const names = loads[`bundled ${event}`]!;
      expect(names, event).toContain('cli/bin/hive-mind.js');
      expect(names.filter((n) => n.startsWith('hooks/') || n === 'cli/bin.js' || n === 'cli/hook-entry.js'), event).toEqual([]);
      // the answer has the same shape (SessionStart's block differs only by its per-injection nonce)
      const nonce = (t: string) => t.replace(/hive-mind-memory-[0-9a-f]+/g, 'hive-mind-memory-N');
      expect(nonce(outputs[`bundled ${event}`]!), event).toBe(nonce(outputs[event]!));
    }
    expect(outputs.SessionStart).toContain('hookSpecificOutput');
    // each event's code cache is under the home
    for (const event of ['UserPromptSubmit', 'Stop', 'SessionStart', 'PreCompact', 'SessionEnd']) expect(existsSync(join(bundledHome(), 'cache', `hook-claude-code-${event}.v8`)), event).toBe(true);
  });

  it('holds what the unbundled events load, less what it leaves to run time, and nothing else', () => {
    const union = new Set(['UserPromptSubmit', 'Stop', 'SessionStart', 'PreCompact', 'SessionEnd'].flatMap((e) => loads[e]!));
    expect([...union].filter((n) => !loads.bundle!.includes(n) && !NOT_IN_BUNDLE.includes(n)).sort()).toEqual([]);
    expect(loads.bundle!.filter((n) => !union.has(n) && !BUNDLE_ONLY.test(n)).sort()).toEqual([]);
  });
});

describe('the modules each hook event loads', () => {
  it('no event loads a heavy module; SessionStart and PreCompact not the secret rule set', () => {
    for (const [event, names] of Object.entries(loads)) {
      if (event === 'bundle') continue;
      const heavy = [...HEAVY, ...(READ_ONLY_EVENTS.has(event) ? HEAVY_WHEN_READING : [])];
      expect(
        names.filter((n) => heavy.some((h) => n === h || (h.endsWith('/') && n.startsWith(h)))),
        event,
      ).toEqual([]);
    }
  });

  it('each event loads exactly the modules fixtures/hook-imports.json lists (HIVE_MIND_UPDATE_HOOK_IMPORTS=1 rewrites it)', () => {
    expect(existsSync(FIXTURE), 'fixtures/hook-imports.json is missing: run with HIVE_MIND_UPDATE_HOOK_IMPORTS=1').toBe(true);
    const pinned = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, string[]>;
    for (const [event, names] of Object.entries(loads)) {
      const want = pinned[event] ?? [];
      const added = names.filter((n) => !want.includes(n));
      const gone = want.filter((n) => !names.includes(n));
      expect({ event, added, gone }, `${event}: modules added or no longer loaded; if intended, rerun with HIVE_MIND_UPDATE_HOOK_IMPORTS=1 and commit the fixture`).toEqual({ event, added: [], gone: [] });
    }
  });
});
