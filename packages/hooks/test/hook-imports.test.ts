/**
 * What each hook event loads, pinned: every event runs as the host runs it (`hive-mind hook
 * claude-code EVENT`, a real process, payload on stdin) with a tracer (fixtures/trace-loads.mjs)
 * recording each module it loads, and the list must equal the event's row of
 * fixtures/hook-imports.json. A hook's cost is mostly module loading, so a module that joins the
 * hook path is a decision: rerun with `HIVE_MIND_UPDATE_HOOK_IMPORTS=1` to write the new lists and
 * commit the diff with the change. Heavy modules fail whatever the fixture says.
 *
 * Needs the CLI built (`npx tsc -b`; `npm ci` builds it).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { CLI, sandbox } from './helpers.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/hook-imports.json', import.meta.url));
const TRACER = fileURLToPath(new URL('./fixtures/trace-loads.mjs', import.meta.url));
const UPDATE = process.env.HIVE_MIND_UPDATE_HOOK_IMPORTS === '1';

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

function traced(event: string, payload: Record<string, unknown>): string[] {
  const out = join(box.root, `loads-${event}.txt`);
  const r = spawnSync(process.execPath, ['--import', TRACER, CLI, 'hook', 'claude-code', event], {
    input: JSON.stringify(payload),
    env: { ...box.env, HM_TRACE_LOADS: out, HM_TRACE_LOADS_REGISTERED: undefined },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
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
  for (const [event, payload] of runs) loads[event] = traced(event, payload);
  if (UPDATE) {
    mkdirSync(join(FIXTURE, '..'), { recursive: true });
    writeFileSync(FIXTURE, JSON.stringify(loads, null, 2) + '\n');
  }
}, 120_000);

afterAll(() => rmSync(box.root, { recursive: true, force: true }));

describe('the modules each hook event loads', () => {
  it('no event loads a heavy module; SessionStart and PreCompact not the secret rule set', () => {
    for (const [event, names] of Object.entries(loads)) {
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
