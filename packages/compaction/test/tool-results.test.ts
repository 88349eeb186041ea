// Tool results read by what they establish (issue 22, items 5 and 6), on tool results shaped as
// the hosts write them: Claude Code's Task text with its agentId line and <usage> block and its
// interruption notice, Hermes' delegate_task JSON and terminal JSON, Codex's exec_command
// framing with `workdir` and its spawn_agent / wait results, a shell start-up error printed into
// every result, a help page after an error, one command printing two files.
import { describe, expect, it } from 'vitest';
import { blockText, MemorySessionLog, type NewEvent } from '@hive-mind/session';
import { BasicCompactionEngine, ExtractiveSummarizer, TokenMeter, extractAnchors, extractSections, planRetention, pruneReport, renderSections, resolveConfig } from '@hive-mind/compaction';
import { bigOutput, LogBuilder } from './helpers.js';

const meter = new TokenMeter();
const summarize = async (b: LogBuilder, maxTokens = 3000, cwd?: string) => (await new ExtractiveSummarizer().summarize({ span: b.log.surface(), tail: [], maxTokens, meter, ...(cwd ? { cwd } : {}) })).text;
const section = (text: string, h: string) => (new RegExp(`## ${h}\\n([\\s\\S]*?)(?:\\n\\n## |$)`).exec(text)?.[1] ?? '').split('\n').filter((l) => l.startsWith('- '));
/** The sections before budget fitting (a small checkpoint gives Findings only a quarter of itself). */
const unfitted = (b: LogBuilder, cwd?: string) => renderSections(extractSections(b.log.surface(), cwd ? { cwd } : {}));
const codexOut = (code: number, out: string) => `Chunk ID: 4f1a2b\nWall time: 0.2100 seconds\nProcess exited with code ${code}\nOriginal token count: 120\nOutput:\n${out}`;
const hermesTerminal = (output: string, exitCode = 0, error: string | null = null) => JSON.stringify({ output, exit_code: exitCode, error });

/** A Claude Code Task result: the sub-agent's last message, then the host's agentId line and usage block (2.x). */
const claudeTask = (answer: string) => `${answer}\n\nagentId: a4c91e7 (for resuming to continue this agent's work if needed)\n<usage>total_tokens: 21937\ntool_uses: 14\nduration_ms: 53210</usage>`;

describe('sub-agent results by their findings and how they ended', () => {
  it('a Claude Code Task answer is the answer, not the token usage the host appended after it', async () => {
    const b = new LogBuilder().user('Check whether anything still imports the old auth module before we delete it.');
    b.tool('Task', { description: 'Find imports of legacy auth', prompt: 'Search the repo for imports of src/auth/legacy.ts', subagent_type: 'Explore' }, claudeTask('No'));
    const found = section(unfitted(b), 'Findings').join('\n');
    expect(found).toContain('- Sub-agent "Find imports of legacy auth" (Task, ok) found: No');
    expect(found).not.toMatch(/total_tokens|agentId|duration_ms/);
  });

  it('an interrupted Task is said interrupted under In progress (to re-run), never ok, and the next step says how it ended', async () => {
    const b = new LogBuilder().user('Map the billing module and then refactor the invoice totals.');
    b.tool('Task', { description: 'Map the billing module', prompt: 'List every file of src/billing and what it exports' }, '[Request interrupted by user for tool use]', true);
    const t = await summarize(b);
    // unfinished work, said under In progress; nothing was found
    expect(section(t, 'In progress')).toContain('- Sub-agent "Map the billing module" (Task) was interrupted before it finished; re-run it if still needed.');
    expect(section(t, 'Findings')).toEqual([]);
    expect(t).not.toMatch(/Map the billing module[^\n]*\bok\b/);
    expect(section(t, 'Next step')[0]).toContain('-> interrupted: Request interrupted by user for tool use');
    expect(section(t, 'Errors and fixes')).toEqual([]);
  });

  it("Hermes' delegate_task batch: each task by its goal, what it found and its status, no raw JSON", async () => {
    const b = new LogBuilder().user('Figure out where the bus arrival times come from and whether the API has rate limits.');
    const result = {
      results: [
        {
          task_index: 0,
          status: 'completed',
          summary: "I read the OpenAPI spec at docs/openapi.yaml.\n\n## Summary\n- Arrival times come from GET /v2/stops/{stop_id}/arrivals, refreshed every 30 s.\n- The API allows 60 requests per minute per key and answers 429 above that.",
          api_calls: 9,
          duration_seconds: 41.2,
          model: 'anthropic/claude-sonnet-4',
          exit_reason: 'completed',
          tokens: { input: 18211, output: 902 },
          tool_trace: [{ tool: 'read_file', args_bytes: 40, result_bytes: 9120, status: 'ok' }],
        },
        { task_index: 1, status: 'interrupted', summary: null, error: 'Parent agent interrupted — child did not finish in time', api_calls: 0, duration_seconds: 0 },
      ],
      total_duration_seconds: 41.9,
    };
    b.tool('delegate_task', { tasks: [{ goal: 'Read the transit API spec', context: 'docs/openapi.yaml' }, { goal: 'Measure the API latency', context: 'use curl' }] }, JSON.stringify(result));
    const found = section(unfitted(b), 'Findings');
    expect(found[0]).toBe('- Sub-agent "Read the transit API spec" (delegate_task, ok) found: I read the OpenAPI spec at docs/openapi.yaml. Arrival times come from GET /v2/stops/{stop_id}/arrivals, refreshed every 30 s. The API allows 60 requests per minute per key and answers 429 above that.');
    expect(found).toHaveLength(1);
    expect(section(unfitted(b), 'In progress')).toContain('- Sub-agent "Measure the API latency" (delegate_task) was interrupted before it finished (Parent agent interrupted — child did not finish in time); re-run it if still needed.');
    expect(unfitted(b)).not.toMatch(/task_index|tool_trace|"status"/);
  });

  it("Codex's spawn_agent then wait: the waited agent is named by the task it was given, its last message is what it found", async () => {
    const b = new LogBuilder().user('Find where the board state is serialized, then add an undo stack.');
    b.tool('spawn_agent', { message: 'Find where the board state is serialized and list the functions involved', agent_type: 'explorer' }, JSON.stringify({ agent_id: '019a2f3c-77d1-7e42-b0a4-6c1f0f0e9d21', nickname: 'Halley' }));
    b.tool('wait', { targets: ['019a2f3c-77d1-7e42-b0a4-6c1f0f0e9d21'], timeout_ms: 120000 }, JSON.stringify({ status: { '019a2f3c-77d1-7e42-b0a4-6c1f0f0e9d21': { completed: 'Board state is serialized in src/board/serde.rs by `encode_board` and `decode_board`; the move log is a Vec<Move> in src/game.rs.' } }, timed_out: false }));
    const found = section(unfitted(b), 'Findings');
    expect(found).toEqual(['- Sub-agent "Find where the board state is serialized and list the functions involved" (wait, ok) found: Board state is serialized in src/board/serde.rs by `encode_board` and `decode_board`; the move log is a Vec<Move> in src/game.rs.']);
  });
});

describe('what a command printed, apart from what surrounds it', () => {
  const shellInit = 'bash: /Users/tom/.bash_profile: line 7: /opt/homebrew/bin/brew: No such file or directory';

  it('a shell start-up error printed into every result is said once, and never taken for a command\'s error', async () => {
    const b = new LogBuilder().user('Make the overdue-fine job pass its tests.');
    b.tool('exec_command', { cmd: 'git status --short', workdir: '/Users/tom/tmp/tenant-library' }, codexOut(0, `${shellInit}\n M src/fines.py`));
    b.tool('exec_command', { cmd: 'ls src', workdir: '/Users/tom/tmp/tenant-library' }, codexOut(0, `${shellInit}\nfines.py\nloans.py`));
    b.tool('exec_command', { cmd: 'python -m pytest -q', workdir: '/Users/tom/tmp/tenant-library' }, codexOut(1, `${shellInit}\n.F.\nE   AssertionError: assert 0.5 == 0.25\nFAILED tests/test_fines.py::test_daily_rate\n1 failed, 2 passed in 0.41s`));
    b.tool('apply_patch', { input: '*** Begin Patch\n*** Update File: src/fines.py\n@@\n-RATE = 0.5\n+RATE = 0.25\n*** End Patch' }, JSON.stringify({ output: 'Success. Updated the following files:\nM src/fines.py\n', metadata: { exit_code: 0 } }));
    b.tool('exec_command', { cmd: 'python -m pytest -q', workdir: '/Users/tom/tmp/tenant-library' }, codexOut(0, `${shellInit}\n...\n3 passed in 0.38s`));
    const t = await summarize(b);
    // said once (a note the budget may drop first), never as a command's output or error
    expect(t.split(shellInit).length - 1).toBeLessThanOrEqual(1);
    expect(section(unfitted(b), 'Findings').join('\n')).toContain(`Every shell result also printed \`${shellInit}\`: the environment, not the commands`);
    expect(section(t, 'Errors and fixes')[0]).toBe('- `python -m pytest -q` failed: E   AssertionError: assert 0.5 == 0.25; failing: tests/test_fines.py::test_daily_rate -> fixed by changing `src/fines.py`; it then passed.');
    // the last passing run is said once, in Done
    expect(section(t, 'Done')).toContain('- Tests pass now: `python -m pytest -q` -> 3 passed in 0.38s.');
    expect(section(t, 'Commands').join('\n')).not.toContain('`python -m pytest -q` -> ok');
  });

  it('a configuration listing is no command run, and a failed last run is said once, under Errors and fixes', async () => {
    const b = new LogBuilder().user('Why does npm install the wrong registry packages?');
    b.tool('Bash', { command: 'npm config ls -l 2>/dev/null | head -300' }, [...Array(120)].map((_, i) => `key-${i} = "value ${i}"`).join('\n'));
    b.tool('Bash', { command: 'python manage.py diffsettings --all' }, [...Array(80)].map((_, i) => `SETTING_${i} = 'value ${i}'`).join('\n'));
    b.tool('Bash', { command: 'npm test' }, 'FAIL test/registry.test.ts > resolves the scoped registry\nTests  1 failed | 4 passed (5)\nexit code 1', true);
    const t = await summarize(b);
    expect(section(t, 'Commands')).toEqual([]);
    expect(section(t, 'Errors and fixes')).toEqual(['- `npm test` failed: FAIL test/registry.test.ts > resolves the scoped registry -> unresolved in this span.']);
  });

  it('the first lines of one file read three ways are the file, not the environment; a short output of a dump command is a finding', async () => {
    const b = new LogBuilder().user('Why does the app ignore FLASK_ENV?');
    const file = 'from flask import Flask, request\nimport os\napp = Flask(__name__)\napp.config["ENV"] = os.environ.get("APP_ENV")';
    for (let i = 0; i < 12; i++) b.tool('Bash', { command: `ls src/pkg${i}` }, `mod${i}.py\n__init__.py`);
    b.tool('Bash', { command: 'cat src/app.py' }, file);
    b.tool('Bash', { command: 'head -20 src/app.py' }, file);
    b.tool('Bash', { command: "sed -n '1,40p' src/app.py" }, file);
    b.tool('Bash', { command: 'du -sh node_modules' }, '1.2G\tnode_modules');
    const t = unfitted(b);
    expect(t).not.toContain('Every shell result also printed');
    expect(section(t, 'Findings')).toContain("- `src/app.py` (4 lines) starts \"from flask import Flask, request\" (`sed -n '1,40p' src/app.py`).");
    expect(section(t, 'Findings')).toContain('- `du -sh node_modules` -> "1.2G node_modules".');
  });

  it("a plain-text answer from a tool named like Codex's wait is no sub-agent's report", async () => {
    const b = new LogBuilder().user('Open the page and wait for it to load.');
    b.tool('wait', { seconds: 2 }, 'Waited 2 seconds.');
    expect(unfitted(b)).not.toContain('Sub-agent');
  });

  it("a program's help page after its error is not the error's cause", async () => {
    const b = new LogBuilder().user('Lint the project and fix what it reports.');
    const help = ['error: unexpected argument \'--fix-all\' found', '', "  tip: a similar argument exists: '--fix'", '', 'Usage: ruff check [OPTIONS] [FILES]...', '', 'Options:', '  -e, --exit-zero               Exit with status code "0", even upon detecting lint violations', '      --exit-non-zero-on-fix    Exit with a non-zero status code if any files were modified via fix, even if no lint violations remain', "For more information, try '--help'."].join('\n');
    b.tool('Bash', { command: 'ruff check --fix-all .' }, `${help}\nexit code 2`, true);
    const t = await summarize(b);
    expect(section(t, 'Errors and fixes')[0]).toMatch(/^- `ruff check --fix-all \.` failed: error: unexpected argument '--fix-all' found /);
    expect(t).not.toContain('--exit-non-zero-on-fix');
  });

  it('settings printed by one command beside another file are not attributed to the first file', async () => {
    const b = new LogBuilder().user('Set up Codex for this repo the way AGENTS.md asks.');
    const out = ['model = "gpt-5-codex"', 'approval_policy = "on-request"', '---', '# AGENTS.md', 'model: o4-mini', 'sandbox: workspace-write', '- Never run the e2e suite locally.'].join('\n');
    b.tool('shell', { command: ['bash', '-lc', 'cat ~/.codex/config.toml; echo ---; cat AGENTS.md'], workdir: '/Users/tom/code/kungfu' }, codexOut(0, out));
    const found = section(unfitted(b), 'Findings').join('\n');
    expect(found).not.toMatch(/config\.toml`[^\n]*sets[^\n]*o4-mini/);
    expect(found).not.toMatch(/config\.toml` sets/);
    // the settings and the rules are said as what the command printed, not as one file's
    expect(found).toContain('- `cat ~/.codex/config.toml; echo ---; cat AGENTS.md` -> 7 lines (`~/.codex/config.toml`, `AGENTS.md`); the settings it printed: model = "gpt-5-codex", approval_policy = "on-request", model = o4-mini, sandbox = workspace-write; the rules it printed say: "Never run the e2e suite locally.".');
  });

  it('`head` of several files says each file by its own lines', async () => {
    const b = new LogBuilder().user('Compare the two configs.');
    b.tool('bash', { command: 'head -n 5 config/dev.toml config/prod.toml' }, '==> config/dev.toml <==\nport = 8080\ndebug = true\n\n==> config/prod.toml <==\nport = 80\ndebug = false');
    const found = section(unfitted(b), 'Findings').join('\n');
    expect(found).toContain('`config/dev.toml` sets port = 8080, debug = true; `config/prod.toml` sets port = 80, debug = false');
  });
});

describe('searches by what they establish', () => {
  it('many hits are said by the files they are in, not as a hit list; a few hits are the hits; none is "found no match"', async () => {
    const b = new LogBuilder().user('Rename fetchAll to fetchEvery across the app.');
    const hits = [...Array(12)].map((_, i) => `src/api/client.ts:${10 + i}:  const rows = await fetchAll(db, "q${i}");`).concat([...Array(5)].map((_, i) => `src/jobs/sync.ts:${40 + i}:    await fetchAll(conn, batch);`), ['test/client.test.ts:7:  expect(fetchAll).toBeDefined();']);
    b.tool('Bash', { command: 'rg -n fetchAll src test' }, hits.join('\n'));
    b.tool('Bash', { command: 'rg -n "fetchAll\\(" scripts' }, 'scripts/seed.ts:3:await fetchAll(db, "seed");\nscripts/seed.ts:9:await fetchAll(db, "more");');
    b.tool('Bash', { command: 'grep -rn fetchAll docs' }, 'exit code 1');
    const found = section(unfitted(b), 'Findings');
    expect(found[0]).toBe('- `rg -n fetchAll src test` 18 hits in 3 files: `src/api/client.ts` (12), `src/jobs/sync.ts` (5), `test/client.test.ts` (1).');
    expect(found[1]).toBe('- `rg -n "fetchAll\\(" scripts` 2 hits: `scripts/seed.ts:3:await fetchAll(db, "seed");`, `scripts/seed.ts:9:await fetchAll(db, "more");`.');
    expect(found[2]).toBe('- `grep -rn fetchAll docs` found no match.');
  });

  it("a search program's complaint is not a hit: a missing file is said as such", async () => {
    const b = new LogBuilder().user('Where is borderColor set?');
    b.tool('bash', { command: 'grep -n borderColor packages/tui/src/editor.ts' }, 'grep: packages/tui/src/editor.ts: No such file or directory');
    expect(section(unfitted(b), 'Findings')).toEqual(['- `grep -n borderColor packages/tui/src/editor.ts` found no match (grep: packages/tui/src/editor.ts: No such file or directory).']);
  });

  it('Findings take at most a quarter of the checkpoint: the hit lists go first, what was established stays', async () => {
    const b = new LogBuilder().user('Find why the invoice totals are off by a cent and fix it.');
    for (let i = 0; i < 14; i++) b.tool('Grep', { pattern: `round${i}`, path: 'src', output_mode: 'content' }, [...Array(6)].map((_, k) => `src/m${k}.ts:${k + 3}: round${i}(x)`).join('\n'));
    b.tool('Read', { file_path: '/repo/src/totals.ts' }, '     1→export function invoiceTotal(lines: Line[]): number {\n     2→  return lines.reduce((s, l) => s + Math.round(l.cents), 0);\n     3→}');
    b.tool('Bash', { command: 'git status' }, 'On branch fix/cents\nChanges not staged for commit:\n\tmodified:   src/totals.ts');
    b.tool('Edit', { file_path: '/repo/src/totals.ts', old_string: 'Math.round(l.cents)', new_string: 'l.cents' }, 'The file /repo/src/totals.ts has been updated.');
    b.assistant('The total rounded each line before summing; it now sums cents and rounds once.');
    const t = await summarize(b);
    const found = section(t, 'Findings');
    expect(meter.countText(['## Findings', ...found].join('\n'))).toBeLessThanOrEqual(0.25 * meter.countText(t));
    // the state the work tree is in is kept first, then facts; the hit lists go
    expect(found[0]).toBe('- `git status`: on branch fix/cents; modified: src/totals.ts.');
    expect(found.join('\n')).not.toContain('round0');
    expect(section(unfitted(b), 'Findings').join('\n')).toContain('`src/totals.ts` (3 lines) defines `invoiceTotal`.');
    expect(section(t, 'Files')[0]).toBe('- Paths are relative to `/repo`.');
  });
});

describe('what a read or a diff holds', () => {
  it('reads of one shape in a row are said in one line', async () => {
    const b = new LogBuilder().user('Port the three handlers to Rust.');
    for (let i = 0; i < 3; i++) b.tool('exec_command', { cmd: `cat module_${i}.py`, workdir: '/w' }, codexOut(0, `def handler_${i}(event):\n    return event\n`));
    expect(section(unfitted(b), 'Findings')).toEqual(['- `module_0.py` defines `handler_0`; `module_1.py` `handler_1`; `module_2.py` `handler_2` (2 lines each).']);
  });

  it("Hermes' read_file gutter and search_files matches are read like any other host's", async () => {
    const b = new LogBuilder().user('Where is the poll interval set?');
    b.tool('read_file', { path: 'alerts/poll.py' }, JSON.stringify({ content: '1|import os\n2|POLL_SECONDS = int(os.environ.get("POLL_SECONDS", "300"))\n3|def poll(stop_id):\n4|    ...', total_lines: 4 }));
    b.tool('search_files', { pattern: 'POLL_SECONDS', path: '.' }, JSON.stringify({ matches: [{ path: 'alerts/poll.py', line: 2, content: 'POLL_SECONDS = int(os.environ.get("POLL_SECONDS", "300"))' }, { path: 'deploy/bus-alerts.service', line: 9, content: 'Environment=POLL_SECONDS=300' }, { path: 'README.md', line: 40, content: 'Set POLL_SECONDS to change the interval.' }, { path: 'tests/test_poll.py', line: 5, content: 'monkeypatch.setenv("POLL_SECONDS", "1")' }], total_count: 4 }));
    const found = section(unfitted(b), 'Findings');
    expect(found).toContain('- `alerts/poll.py` (4 lines) defines `poll`.');
    expect(found).toContain('- search_files `POLL_SECONDS` in `.` 4 hits in 4 files: `alerts/poll.py` (1), `deploy/bus-alerts.service` (1), `README.md` (1), `tests/test_poll.py` (1).');
  });

  it('a diff by the files it touches and the lines it adds and removes; a SQL file by what it creates', async () => {
    const b = new LogBuilder().user('Check what changed in the loans route and the schema.');
    b.tool('Bash', { command: 'git diff src/routes/loans.ts' }, ['diff --git a/src/routes/loans.ts b/src/routes/loans.ts', 'index 3f1c2aa..8d0e1b2 100644', '--- a/src/routes/loans.ts', '+++ b/src/routes/loans.ts', '@@ -10,4 +10,5 @@ router.post(', '-  const due = addDays(now, 14);', '+  const due = addDays(now, 21);', '+  log.info({ due });', '   res.status(201).json(loan);'].join('\n'));
    b.tool('Read', { file_path: '/srv/lib/src/db/schema.sql' }, '     1→CREATE TABLE tenants (id INTEGER PRIMARY KEY, last_login_at INTEGER);\n     2→CREATE TABLE IF NOT EXISTS requests (book_id INTEGER, borrower_id INTEGER NOT NULL);\n     3→CREATE INDEX requests_borrower ON requests(borrower_id);');
    const found = section(unfitted(b), 'Findings');
    expect(found).toContain('- `git diff src/routes/loans.ts`: `src/routes/loans.ts`, +2 -1 lines.');
    expect(found.join('\n')).toContain('(3 lines) creates table `tenants`, table `requests`, index `requests_borrower`.');
  });
});

describe('inline scripts by what they do', () => {
  it('a python heredoc is shown by the file it rewrites, and that file is in Files', async () => {
    const b = new LogBuilder().user('Replace every print call in the CLI with the logger.');
    const script = ["python3 - <<'PY'", 'import re', 'from pathlib import Path', "p = Path('src/cli.py')", 's = p.read_text()', "s = re.sub(r'print\\((.*)\\)', r'log.info(\\1)', s)", 'p.write_text(s)', "print('ok')", 'PY'].join('\n');
    b.tool('exec_command', { cmd: script, workdir: '/Users/tom/code/tool' }, codexOut(0, 'ok'));
    b.tool('exec_command', { cmd: "python3 - <<'PY'\nimport json\nprint(json.load(open('pyproject.json'))['name'])\nPY", workdir: '/Users/tom/code/tool' }, codexOut(0, 'tool'));
    const t = await summarize(b);
    const cmds = section(t, 'Commands');
    expect(cmds[0]).toBe("- `python3 - <<'PY' (a 7-line Python script that rewrites src/cli.py by text replacement)` -> ok");
    expect(cmds[1]).toBe("- `python3 - <<'PY' (a 2-line Python script that reads pyproject.json)` -> ok");
    expect(section(t, 'Files')).toContain('- `src/cli.py` (modified)');
  });
});

describe('paths from the project root', () => {
  /** A log whose messages carry the working folder as Claude Code records it (meta.cwd). */
  const ccLog = () => {
    const log = new MemorySessionLog('cc');
    const add = (e: NewEvent) => log.append(e);
    let n = 0;
    const tool = (name: string, input: unknown, out: string, cwd?: string) => {
      const id = `toolu_${++n}`;
      add({ type: 'assistant/message', surfaceOp: 'append', content: [{ type: 'tool-call', id, name, input }], ...(cwd ? { meta: { cwd } } : {}) });
      add({ type: 'tool/result', surfaceOp: 'append', content: [{ type: 'tool-result', callId: id, content: [{ type: 'text', text: out }], isError: false }] });
    };
    add({ type: 'user/message', surfaceOp: 'append', content: [{ type: 'text', text: 'Build the tenant library loan API in ~/tmp/tenant-library.' }], meta: { cwd: '/Users/tom' } });
    tool('Bash', { command: 'cd tmp/tenant-library' }, '');
    tool('Read', { file_path: '/Users/tom/.codex/config.toml' }, '     1→model = "o3"', '/Users/tom/tmp/tenant-library');
    tool('Read', { file_path: '/Users/tom/tmp/tenant-library/package.json' }, '     1→{ "name": "tenant-library" }');
    tool('Write', { file_path: '/Users/tom/tmp/tenant-library/src/loans.ts', content: 'export function lend() {}' }, 'File created successfully at: /Users/tom/tmp/tenant-library/src/loans.ts');
    tool('Bash', { command: 'mkdir -p test && mv src/old-loans.ts test/legacy.ts' }, '');
    tool('Edit', { file_path: '/Users/tom/tmp/tenant-library/src/app.ts', old_string: 'a', new_string: 'b' }, 'The file /Users/tom/tmp/tenant-library/src/app.ts has been updated.');
    return log;
  };

  it('the working folder followed through cd: relative to the project, never to the home folder; one base for every path', async () => {
    const log = ccLog();
    const t = (await new ExtractiveSummarizer().summarize({ span: log.surface(), tail: [], maxTokens: 3000, meter, cwd: '/Users/tom' })).text;
    const files = section(t, 'Files');
    expect(files[0]).toBe('- Paths are relative to `/Users/tom/tmp/tenant-library`.');
    expect(files).toContain('- `src/loans.ts` (created)');
    expect(files).toContain('- `src/app.ts` (modified)');
    // the mv ran in the folder the agent had cd-ed into
    expect(files).toContain('- `src/old-loans.ts` (renamed to `test/legacy.ts`)');
    // a file outside the project keeps its absolute path
    expect(files).toContain('- `/Users/tom/.codex/config.toml` (read)');
    expect(t.match(/Paths are relative to/g)).toHaveLength(1);
    expect(t).not.toContain('Paths are relative to `/Users/tom`.');
  });

  it('the engine gives the summarizer the working folder the log records (a session header before the span)', async () => {
    const log = new MemorySessionLog('pi');
    log.append({ type: 'session/meta', data: { host: 'pi', cwd: '/home/user/workspaces/shop' } } as unknown as NewEvent);
    let n = 0;
    const tool = (name: string, input: unknown, out: string) => {
      const id = `c${++n}`;
      log.append([
        { type: 'assistant/message', surfaceOp: 'append', content: [{ type: 'tool-call', id, name, input }] },
        { type: 'tool/result', surfaceOp: 'append', content: [{ type: 'tool-result', callId: id, content: [{ type: 'text', text: out }], isError: false }] },
      ]);
    };
    log.append({ type: 'user/message', surfaceOp: 'append', content: [{ type: 'text', text: 'Add a discount field to the cart and test it.' }] });
    for (let i = 0; i < 6; i++) tool('read', { path: `packages/cart/src/part${i}.ts` }, bigOutput(80, `p${i}`));
    tool('edit', { path: 'packages/cart/src/cart.ts', oldText: 'a', newText: 'b' }, 'Successfully replaced text in packages/cart/src/cart.ts.');
    log.append({ type: 'user/message', surfaceOp: 'append', content: [{ type: 'text', text: 'Now run the tests.' }] });
    tool('bash', { command: 'npm test' }, 'Tests  12 passed (12)');
    const r = await new BasicCompactionEngine({ budget: 6000, retainTokens: 600, meter: new TokenMeter() }).compactIfNeeded(log);
    expect(r.compacted).toBe(true);
    const t = blockText(r.summary[0]!);
    expect(t).toContain('- Paths are relative to `/home/user/workspaces/shop`.');
    expect(t).toContain('- `packages/cart/src/part0.ts` (read)');
  });
});

describe('anchors', () => {
  it('a modified file the summary lost goes back into Files, never as a second "Modified file:" list', async () => {
    const b = new LogBuilder().user('Split the router into one file per resource.');
    for (const f of ['users', 'orders', 'items']) b.tool('Write', { file_path: `/srv/api/src/routes/${f}.ts`, content: 'export {}' }, `File created successfully at: /srv/api/src/routes/${f}.ts`);
    b.assistant('Split the router into three files.');
    b.user('Now add the index that re-exports them.');
    const e = new BasicCompactionEngine({ budget: 2000, retainTokens: 60, summaryMaxTokens: 400, meter: new TokenMeter(), summarizer: { name: 'terse', summarize: async () => ({ text: '## Goal\n- Split the router into one file per resource.\n\n## Files\n- `src/routes/users.ts` (created)\n\n## Next step\n- Add the index.' }) } });
    const r = await e.compactNow(b.log);
    const t = blockText(r.summary[0]!);
    expect(t).not.toContain('Modified file:');
    expect(section(t, 'Files')).toEqual(['- `src/routes/users.ts` (created)', '- `/srv/api/src/routes/orders.ts` (modified)', '- `/srv/api/src/routes/items.ts` (modified)']);
    // a summary with no Files section gets one, before the next step
    const none = new BasicCompactionEngine({ budget: 2000, retainTokens: 60, summaryMaxTokens: 400, meter: new TokenMeter(), summarizer: { name: 'terse', summarize: async () => ({ text: '## Goal\n- Split the router.\n\n## Next step\n- Add the index.' }) } });
    const b2 = new LogBuilder().user('Split the router into one file per resource.');
    for (const f of ['users', 'orders']) b2.tool('Write', { file_path: `/srv/api/src/routes/${f}.ts`, content: bigOutput(20, f) }, `File created successfully at: /srv/api/src/routes/${f}.ts`);
    b2.user('Now add the index that re-exports them.');
    const t2 = blockText((await none.compactNow(b2.log)).summary[0]!);
    expect(t2).toMatch(/## Files\n- `\/srv\/api\/src\/routes\/users\.ts` \(modified\)\n- `\/srv\/api\/src\/routes\/orders\.ts` \(modified\)\n\n## Next step/);
    expect(t2).not.toContain('Modified file:');
  });

  it('no identifier out of an escape: "\\\\nURL" in printed JSON is a newline and URL, not nURL', () => {
    const b = new LogBuilder().user('Why does the webhook body look wrong?');
    b.tool('bash', { command: 'cat payload.json' }, '{"text": "Deploy done\\nURL: https://ci.example/run/7\\nbuildNumber: 7"}');
    b.assistant('The payload escapes its newlines; buildNumber is 7.');
    const tail = new LogBuilder().assistant('I will unescape "\\nURL" before posting; buildNumber stays.').log.surface();
    const ids = extractAnchors(b.log.surface(), tail).filter((a) => a.kind === 'identifier').map((a) => a.text);
    expect(ids).not.toContain('nURL');
    expect(ids).toContain('buildNumber');
  });
});

describe('the verbatim tail keeps what was found and prunes dumps first', () => {
  it('a report that must be pruned loses its code blocks first; its prose (what it found) stays whole', () => {
    const code = (n: number) => ['```ts', ...[...Array(n)].map((_, i) => `const v${i} = compute(${i}); // step ${i}`), '```'];
    const report = ['## Findings', '- The cache key omits the tenant id, so tenants share entries (src/cache.ts:41).', ...code(300), '- Eviction runs every 60 s, not on write (src/evict.ts:12).', ...code(300), '## Summary', '- Add the tenant id to the key; evict on write.'].join('\n');
    const pruned = pruneReport(report, { headLines: 20, tailLines: 20 });
    expect(pruned).toContain('The cache key omits the tenant id, so tenants share entries (src/cache.ts:41).');
    expect(pruned).toContain('Eviction runs every 60 s, not on write (src/evict.ts:12).');
    expect(pruned).toContain('- Add the tenant id to the key; evict on write.');
    expect(pruned).toContain('[… 302-line code block elided by hive-mind (the report\'s prose kept) …]');
    expect(pruned).not.toContain('compute(');
    expect(pruneReport(pruned, { headLines: 20, tailLines: 20 })).toBe(pruned);
  });

  it('a research result stays whole beside a path list, a strings dump and an env dump, which are pruned', () => {
    const b = new LogBuilder().user('Find why the app binary is so large and what to strip.');
    for (let i = 0; i < 12; i++) b.tool('Read', { file_path: `/app/src/mod${i}.rs` }, bigOutput(200, `mod${i}`));
    b.user('Now look at the built binary.');
    const report = ['## Findings', ...[...Array(160)].map((_, i) => `- Section ${i}: the binary embeds asset bundle ${i} (${(i * 37) % 900} KB); it is loaded only by the debug menu, so release builds can drop it.`)].join('\n');
    b.tool('Task', { description: 'Analyse the binary size' }, claudeTask(report));
    b.tool('Bash', { command: 'find . -name "*.so"' }, [...Array(700)].map((_, i) => `./vendor/lib${i}/build/out/libmod${i}.so`).join('\n'));
    b.tool('Bash', { command: 'strings build/app | head -2000' }, [...Array(900)].map((_, i) => `_ZN4core3fmt${i}Formatter9write_str17h${(i * 7919).toString(16)}E`).join('\n'));
    b.tool('Bash', { command: 'env' }, [...Array(600)].map((_, i) => `VAR_${i}=/opt/toolchain/${i}/bin:/usr/local/bin`).join('\n'));
    b.assistant('The report says the debug assets are the bulk.');
    const config = resolveConfig({ budget: 60000, retainTokens: 30000, meter });
    const ctx = { meter, config, surfaceBudget: 60000, minCheckpoint: 200 };
    const nodes = b.log.surface();
    const plan = planRetention(ctx, nodes, meter.countEvents(nodes));
    expect(plan.kind).toBe('span');
    if (plan.kind !== 'span') return;
    const prunedSeqs = plan.tailPruned.map((r) => r.orig.seq);
    const resultSeq = (needle: string) => nodes.find((n) => n.content.some((c) => c.type === 'tool-result' && blockText(c).includes(needle)))!.seq;
    expect(prunedSeqs).not.toContain(resultSeq('asset bundle'));
    for (const dump of ['libmod0.so', 'Formatter9write_str', 'VAR_0=']) expect(prunedSeqs).toContain(resultSeq(dump));
    // the report is in the verbatim tail, whole
    expect(nodes.slice(plan.cut).some((n) => n.seq === resultSeq('asset bundle'))).toBe(true);
  });
});

describe('a sub-agent report in a small checkpoint', () => {
  it('what a sub-agent found outranks a command finding and a report of work it did, whatever its age; its specifics come first', async () => {
    const { ExtractiveSummarizer, TokenMeter } = await import('@hive-mind/compaction');
    const meter = new TokenMeter();
    const b = new LogBuilder().user('I want an alert when bus line 42 at stop 1187 is more than 4 minutes late.');
    const facts = [
      'How to get the delay (from docs/openapi.yaml):',
      '- Endpoint: GET {api.base}/realtime/trips?stop=1187&line=42 (both parameters optional).',
      '- Auth: header `X-Api-Key: <key>`; the key comes from TRANSIT_API_KEY.',
      '- Units: delay_seconds is an integer number of seconds (not minutes).',
      '- The realtime data refreshes every 30 s server side, and the city publishes it for every line.',
    ].join('\n');
    b.tool('delegate_task', { goal: 'Read docs/openapi.yaml and report how to get the delay of line 42: parameters, fields, units, auth.' }, JSON.stringify({ results: [{ task_index: 0, status: 'completed', summary: facts }] }));
    for (let i = 0; i < 4; i++) b.tool('Bash', { command: `grep -n 'late' -i alerts/poll_${i}.py` }, `alerts/poll_${i}.py:${10 + i}:    late = delay > 240`);
    b.tool('Write', { file_path: '/repo/alerts/poll.py', content: 'x' }, 'ok');
    b.tool('delegate_task', { goal: 'Write tests/test_poll.py cases for the 4 minute threshold.' }, JSON.stringify({ results: [{ task_index: 0, status: 'completed', summary: 'Added 3 tests to tests/test_poll.py: test_no_alert_at_exactly_4_minutes, test_alert_at_4_01, test_no_poll_outside_window.' }] }));
    b.assistant('The poller is written; the tests are in.');
    const text = (await new ExtractiveSummarizer().summarize({ span: b.log.surface(), tail: [], maxTokens: 330, meter })).text;
    const findings = /## Findings\n([\s\S]*?)(?:\n\n## |$)/.exec(text)?.[1] ?? '';
    expect(findings).toContain('Read docs/openapi.yaml');
    expect(findings).toMatch(/delay_seconds|X-Api-Key/);
  });
});
