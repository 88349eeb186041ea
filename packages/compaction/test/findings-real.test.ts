import { describe, expect, it } from 'vitest';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTranscriptFile } from '@hive-mind/transcripts';
import { blockText } from '@hive-mind/session';
import { BasicCompactionEngine, ExtractiveSummarizer, TokenMeter, extractSections, renderSections } from '@hive-mind/compaction';
import { LogBuilder } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = resolve(here, '../../../../shared/data/transcripts');
const meter = new TokenMeter();

/** The verbatim tail `hive-mind compact --budget N` keeps by default (packages/cli, cliRetainDefault). */
const cliRetain = (b: number) => Math.max(1, Math.min(Math.floor(b / 2), b - Math.min(4096, Math.floor(b * 0.15)) - 1));

/** The checkpoint `hive-mind compact FILE --budget N` lands, by section. */
async function checkpointAt(path: string, budget: number) {
  const t = await readTranscriptFile(path);
  const r = await new BasicCompactionEngine({ budget: budget, retainTokens: cliRetain(budget), meter: new TokenMeter() }).compactIfNeeded(t.log);
  expect(r.compacted).toBe(true);
  const text = r.summary.map((b) => blockText(b)).join('\n');
  const section = (h: string) => (new RegExp(`^## ${h}\\n([\\s\\S]*?)(?=^## |</compacted-summary>)`, 'm').exec(text)?.[1] ?? '').trim().split('\n').filter(Boolean);
  return { text, section, tokens: r.summaryTokens };
}

describe('the checkpoint states what the tool loop found (real sessions)', () => {
  it('pi/large-session at 50000: the searches that found nothing, the project rules and single hits are stated, within a quarter of the checkpoint; the next step follows the verbatim tail', async () => {
    const { text, section } = await checkpointAt(join(dataDir, 'pi/large-session.jsonl'), 50000);
    const findings = section('Findings').join('\n');
    expect(findings).toContain('- `grep -n "console" packages/coding-agent/src/theme/theme.ts` found no match.');
    expect(findings).toContain('- `grep -B 5 -A 15 "onSelect.*themeName" packages/coding-agent/src/tui/tui-renderer.ts` found no match.');
    // the project's rule file is Constraints, attributed, not a finding
    expect(findings).not.toContain('AGENTS.md');
    expect(section('Constraints and preferences')).toContain('- AGENTS.md: We must NEVER have type `any` anywhere, unless absolutely, positively necessary.');
    expect(section('Constraints and preferences')).toContain('- AGENTS.md: Do NOT commit unless asked to by the user.');
    expect(findings).toContain('- `grep -n "async init" packages/coding-agent/src/tui/tui-renderer.ts` 1 hit: `192: async init(): Promise<void> {`.');
    // what the tools found supports the state; it is not most of the checkpoint
    expect(meter.countText(`## Findings\n${findings}`)).toBeLessThanOrEqual(0.25 * meter.countText(text));
    // the three greps for console in theme.ts are three findings (different patterns), not one repeated
    expect(findings.match(/theme\/theme\.ts` found no match/g)).toHaveLength(3);
    // mid-task (the user said the logs in theme.ts caused it; the searches run): not "wait for the user";
    // the verbatim tail goes on past it (the user asked for more there), so the step is the newest request there;
    // "minor, this is a big change" answers the agent's question, it is said as that answer
    expect(section('Next step')).toEqual(['- Go on from the user\'s newest request, in the messages after this summary: "read README.md that details everything" (then answered the agent\'s question "Or do you want a patch release (0.7.29 -> 0.7.30)?": "minor, this is a big change").']);
  });

  it('claude-code/python-to-rust-port at 8000: settings read, recipes of the old Justfile, test counts, coverage total; next is the open todo', async () => {
    const { section } = await checkpointAt(join(dataDir, 'claude-code/python-to-rust-port.jsonl'), 8000);
    expect(section('Findings')).toContain('- `Cargo.toml` (7 lines) sets name = "python_utils", version = "0.1.0", edition = "2024".');
    expect(section('Findings').join('\n')).toContain('`Justfile` (16 lines) recipes check (`uv run pytest --cov=src --cov-report=term-missing --cov-fail-under=100`)');
    const commands = section('Commands').join('\n');
    // the last passing test run is said once, in Done
    expect(section('Done').join('\n')).toContain('Tests pass now: `cargo test` -> test result: ok. 29 passed; test result: ok. 5 passed');
    expect(commands).not.toContain('`cargo test` -> ok');
    expect(commands).toContain('`cargo install cargo-llvm-cov` -> ok: Ignored package `cargo-llvm-cov v0.6.23` is already installed');
    expect(commands).toContain('TOTAL 346 1 99.71%');
    expect(section('Next step')).toEqual(['- The messages after this summary already take up the open todo item "Update Justfile for Rust" (they change `Justfile` and commit it): go on from the newest of them, do not redo it.']);
  });

  it('claude-code/coverage-test-fix at 2500: git status is stated; the Stop hook is not quoted as the user; the next step says the tail takes up the work under way, without asking for it again', async () => {
    const { text, section } = await checkpointAt(join(dataDir, 'claude-code/coverage-test-fix.jsonl'), 2500);
    expect(section('Findings').join('\n')).toContain('`git status`: on branch master; modified: src/math_utils.py, tests/test_math_utils.py; untracked: .coverage, src/__pycache__/, tests/__pycache__/.');
    expect(text).not.toContain('Stop hook feedback');
    expect(section('Next step')).toEqual(['- The messages after this summary already take up the work under way (they commit it): go on from the newest of them, do not redo it.']);
  });

  it('pi/before-compaction at 50000: the span ends reading README.md to link DEVELOPMENT.md, done in the verbatim tail, so the next step is the newest request there; a piped check that reported TS2307 is an error with its fix', async () => {
    const { section } = await checkpointAt(join(dataDir, 'pi/before-compaction.jsonl'), 50000);
    // the span ended reading README.md to link DEVELOPMENT.md; the verbatim tail did it and the user asked more there
    expect(section('Next step')).toEqual(['- Go on from the user\'s newest request, in the messages after this summary: "what did i just execute?".']);
    // its runs said once: how many, the error kind, the last error, the final status
    expect(section('Errors and fixes').join('\n')).toMatch(/`npm run check` failed 2 times \(TS2307\); the last: \.\.\/coding-agent\/src\/cli\.ts\(8,22\): error TS2307: Cannot find module '\.\/main-new\.js'.* -> `npm run check` then passed\./);
    expect(section('Findings').join('\n')).toMatch(/`git status`: on branch refactor; deleted: packages\/coding-agent\/docs\/refactor\.md/);
  });
});

describe('next step: host-injected text is never the user, a task under way is never "wait"', () => {
  const summarize = async (b: LogBuilder) => (await new ExtractiveSummarizer().summarize({ span: b.log.surface(), tail: [], maxTokens: 2000, meter })).text;
  const stop = 'Stop hook feedback:\n[${CLAUDE_PLUGIN_ROOT}/scripts/hooks/stop.sh]: # Running Quality Checks...\n\n# Uncommitted Changes Detected\n\nCannot exit with unstaged changes.\n\nBefore stopping, please:\n\n1. Run `git status`';

  it('a Stop hook that answered the end of the turn is the host\'s, and the latest request stays the user\'s', async () => {
    const b = new LogBuilder().user('Add a --json flag to the export command and document it in the README.');
    b.tool('Edit', { file_path: 'src/export.ts', old_string: 'a', new_string: 'b' }, 'The file src/export.ts has been updated.');
    b.assistant('Added the --json flag and documented it.');
    b.user(stop);
    const t = await summarize(b);
    const next = /## Next step\n- (.*)/.exec(t)![1]!;
    // the agent reported the request done before the hook answered: the hook's point is what is left
    expect(next).toBe('The host\'s Stop hook answered the end of the turn ("Cannot exit with unstaged changes."): act on it (the latest request itself was reported done; do not redo it).');
    expect(t).not.toMatch(/user (?:then )?said "Stop hook/);
    expect(t).not.toContain('Latest request: Stop hook');
  });

  it('hook feedback is not a request, a goal or a constraint, whatever the hook says', async () => {
    const b = new LogBuilder().user(stop + '\nYou must never stop with a dirty tree.');
    b.tool('Bash', { command: 'git status' }, 'On branch main\nnothing to commit, working tree clean');
    const t = await summarize(b);
    expect(t).not.toContain('## Goal');
    expect(t).not.toContain('## Constraints');
    expect(t).toContain('- `git status`: on branch main; working tree clean.');
  });

  it('a span that ends on a tool call after a stated intent continues that intent; one that ends on the final answer waits', async () => {
    const b = new LogBuilder().user('Rename the `fetchAll` helper to `loadAll` everywhere.');
    b.tool('Grep', { pattern: 'fetchAll', path: 'src', output_mode: 'content', '-n': true }, 'src/api.ts:12:export function fetchAll() {\nsrc/ui.ts:40:  fetchAll();', false, 'Let me find every use of fetchAll first.');
    let t = await summarize(b);
    expect(/## Next step\n- (.*)/.exec(t)![1]).toBe('Continue the work under way: Find every use of fetchAll first (the span ended with Grep `fetchAll` in `src` -> 2 hits).');
    b.assistant('Renamed fetchAll to loadAll in src/api.ts and src/ui.ts; all done.');
    t = await summarize(b);
    expect(/## Next step\n- (.*)/.exec(t)![1]).toMatch(/; wait for the user's next request\.$/);
  });
});

describe('findings from each host\'s result shapes', () => {
  it('a Codex exec_command read, a Hermes JSON read_file, a Claude Code numbered Read: the extent and what the file defines', async () => {
    const b = new LogBuilder().user('Port the pager to Rust; keep the public API.');
    b.tool('exec_command', { cmd: "sed -n '1,40p' src/pager.py", workdir: '/w' }, 'Chunk ID: 9f1e2d\nWall time: 0.0100 seconds\nProcess exited with code 0\nOriginal token count: 300\nOutput:\nTotal output lines: 120\n\nclass Pager:\n    def next_page(self):\n        pass');
    b.tool('read_file', { path: 'src/config.toml' }, JSON.stringify({ content: 'page_size = 10\nwrap = true\n', total_lines: 2 }));
    b.tool('Read', { file_path: '/w/src/lib.rs' }, '     1→pub fn next_page(p: &mut Pager) -> Option<Page> {\n     2→    None\n     3→}\n');
    // the findings before budget fitting (a checkpoint this small gives Findings a quarter of it)
    const t = renderSections(extractSections(b.log.surface()));
    expect(t).toContain('- `src/pager.py` (120 lines, 3 shown) defines `Pager`, `next_page` (`sed -n \'1,40p\' src/pager.py`).');
    expect(t).toContain('- `src/config.toml` (2 lines) sets page_size = 10, wrap = true.');
    // one base: the folder Codex ran in, for the absolute path and the relative ones alike
    expect(t).toContain('- `src/lib.rs` (3 lines) defines `next_page`.');
    expect(t).toContain('- Paths are relative to `/w`.');
  });
});

describe('what an LLM summarizer is given', () => {
  it("a Stop hook's feedback is labelled as the host's, never as the user's", async () => {
    const { renderNode } = await import('../src/llm-prompt.js');
    const b = new LogBuilder().user('Stop hook feedback:\n[stop.sh]: Cannot exit with unstaged changes.').user('Please also update the changelog.');
    const [hook, user] = b.log.surface();
    expect(renderNode(hook!, 1000)).toMatch(/^### host \(Stop hook, not the user\)\nStop hook feedback:/);
    expect(renderNode(user!, 1000)).toMatch(/^### user\n/);
  });
});
