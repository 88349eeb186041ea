// Each defect issue 9 lists, on a realistic synthetic session (host tool names and result
// shapes as the hosts write them), and the bad inputs: a checkpoint or a clear error, never a
// loop, never an orphaned tool result.
import { describe, expect, it } from 'vitest';
import { blockText, checkInvariants, MemorySessionLog, type ToolResultBlock } from '@hive-mind/session';
import { BasicCompactionEngine, BudgetTooSmallError, ExtractiveSummarizer, TokenMeter, extractAnchors, pruneToolResult, extractSections, parseCheckpoint, renderSections } from '@hive-mind/compaction';
import { bigOutput, LogBuilder } from './helpers.js';

const meter = new TokenMeter();
const summarize = async (b: LogBuilder, maxTokens = 3000) => (await new ExtractiveSummarizer().summarize({ span: b.log.surface(), tail: [], maxTokens, meter })).text;
const section = (text: string, h: string) => (new RegExp(`## ${h}\\n([\\s\\S]*?)(?:\\n\\n## |$)`).exec(text)?.[1] ?? '').split('\n').filter((l) => l.startsWith('- '));
const codexOut = (code: number, out: string) => `Exit code: ${code}\nWall time: 0.4 seconds\nOutput:\n${out}`;

describe('goal and requests', () => {
  it('a pasted stack trace becomes "pasted an error: <the error line>"; "ls" is no instruction; an answered question is not the next step', async () => {
    const b = new LogBuilder();
    b.user(['TypeError: Cannot read properties of undefined (reading \'map\')', '    at renderList (/app/src/list.ts:42:17)', '    at Object.render (/app/src/app.ts:10:5)', '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)'].join('\n'));
    b.tool('read', { path: 'src/list.ts' }, 'export function renderList(items) { return items.map(String); }');
    b.user('ls');
    b.tool('bash', { command: 'ls' }, 'src\npackage.json');
    b.user('what did i just execute?');
    b.assistant('You ran `ls`, which listed `src` and `package.json`.');
    const t = await summarize(b);
    expect(section(t, 'Goal')[0]).toBe("- pasted an error: TypeError: Cannot read properties of undefined (reading 'map')");
    expect(section(t, 'Constraints and preferences')).toEqual([]);
    expect(section(t, 'Next step')[0]).toMatch(/answered; wait for the user's next request/);
  });
});

describe('decisions', () => {
  it('code and narration are not decisions; a change the user undid is rejected once and not a decision; a repeated decision is one item', async () => {
    const b = new LogBuilder();
    b.user('Make the status line show the model name.');
    b.assistant('Now update WP15-17 to use new files instead of modifying in place:');
    b.assistant('this.showMessage(`model: ${name}`);');
    b.tool('edit', { path: 'src/status.ts', oldText: 'a', newText: 'b' }, 'Successfully replaced text in src/status.ts.', false, 'I decided to render the model name in the footer instead of the header.');
    b.user('undo the last change, it broke the layout');
    b.tool('edit', { path: 'src/status.ts', oldText: 'b', newText: 'a' }, 'Successfully replaced text in src/status.ts.');
    for (let i = 0; i < 3; i++) b.assistant('We will use a single status component instead of three separate ones.');
    const t = await summarize(b);
    const decisions = section(t, 'Decisions');
    expect(decisions).toEqual(['- Use a single status component instead of three separate ones.']);
    const rejected = section(t, 'Rejected or reverted');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toContain('`src/status.ts`');
    expect(rejected[0]).toContain('do not re-apply it');
  });
});

describe('errors and commands (Codex shell_command)', () => {
  it('recognises shell_command; a search that found nothing and exit 0 are not errors; the real error is paired with its fix; commands show their outcome', async () => {
    const b = new LogBuilder();
    b.user('Fix the failing test in python_utils and keep the public API unchanged.');
    b.tool('shell_command', { command: 'rg -n "def flatten" src', workdir: '/repo' }, codexOut(1, ''));
    b.tool('shell_command', { command: 'ls src', workdir: '/repo' }, codexOut(0, 'lib.rs\nlist_utils.rs'));
    b.tool('shell_command', { command: 'cargo test', workdir: '/repo' }, codexOut(101, `   Compiling python_utils v0.1.0 (/repo)\n${bigOutput(5, 'warn')}\nerror[E0308]: mismatched types\n  --> src/list_utils.rs:12:5\ntest result: FAILED. 28 passed; 1 failed`));
    b.tool('apply_patch', { input: '*** Begin Patch\n*** Update File: src/list_utils.rs\n@@\n-    x\n+    vec![x]\n*** End Patch' }, 'Success. Updated the following files:\nM src/list_utils.rs');
    b.tool('shell_command', { command: 'cargo test', workdir: '/repo' }, codexOut(0, '   Compiling python_utils v0.1.0 (/repo)\n    Finished test profile\ntest result: ok. 29 passed; 0 failed; 0 ignored'));
    const t = await summarize(b);
    const errors = section(t, 'Errors and fixes');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('error[E0308]: mismatched types');
    expect(errors[0]).toContain('fixed by changing `src/list_utils.rs`; it then passed');
    // the search that found nothing is a finding, neither an error nor a command that matters
    expect([...errors, ...section(t, 'Commands')].join('\n')).not.toMatch(/rg -n/);
    expect(section(t, 'Findings')).toContain('- `rg -n "def flatten" src` found no match.');
    expect(section(t, 'Findings')).toContain('- `ls src` 2 entries: lib.rs, list_utils.rs.');
    expect(t).not.toMatch(/Exit code: 0/);
    // the outcome is the count, its zero counts left out; the last passing run is said once, in Done
    expect(section(t, 'Done')).toContain('- Tests pass now: `cargo test` -> test result: ok. 29 passed.');
    expect(section(t, 'Commands')).toEqual([]);
  });

  it('a failing run of one test file is fixed when the whole suite then passes (and the other way round)', async () => {
    const b = new LogBuilder();
    b.user('tests/test_totals.py::test_rounding_half_cent fails since the refactor. Fix it; run the tests with pytest -q.');
    b.tool('shell_command', { command: 'pytest -q tests/test_totals.py', workdir: '/home/dev/invoicekit' }, codexOut(1, "E       AssertionError: assert Decimal('10.00') == Decimal('10.01')\n1 failed, 7 passed in 0.31s"));
    b.tool('apply_patch', { input: '*** Begin Patch\n*** Update File: invoicekit/totals.py\n@@\n-ROUND_HALF_EVEN\n+ROUND_HALF_UP\n*** End Patch' }, 'Success. Updated the following files:\nM invoicekit/totals.py');
    b.tool('shell_command', { command: 'pytest -q', workdir: '/home/dev/invoicekit' }, codexOut(0, '42 passed in 1.02s'));
    b.tool('shell_command', { command: 'npm test', workdir: '/home/dev/web' }, codexOut(1, "FAIL test/format.test.ts\nTypeError: Cannot read properties of undefined (reading 'temp')"));
    b.tool('shell_command', { command: 'ls src', workdir: '/home/dev/web' }, codexOut(0, 'format.ts'));
    b.tool('apply_patch', { input: '*** Begin Patch\n*** Update File: src/format.ts\n@@\n-a\n+b\n*** End Patch' }, 'Success. Updated the following files:\nM src/format.ts');
    b.tool('shell_command', { command: 'npm test -- test/format.test.ts', workdir: '/home/dev/web' }, codexOut(0, 'Tests  4 passed (4)'));
    const errors = section(await summarize(b), 'Errors and fixes');
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain("AssertionError: assert Decimal('10.00') == Decimal('10.01') -> fixed by changing `invoicekit/totals.py`; `pytest -q` then passed.");
    expect(errors[1]).toContain('-> fixed by changing `src/format.ts`; `npm test -- test/format.test.ts` then passed.');
    expect(errors.join('\n')).not.toContain('not re-run');
  });

  it('a heredoc script is shown by what it does and what runs after it, never flattened', async () => {
    const b = new LogBuilder();
    b.user('Generate the report and build the site.');
    b.tool('terminal', { command: "cat > /tmp/gen.py <<'EOF'\nimport json\nprint(json.dumps({'a': 1}))\nEOF\npython3 /tmp/gen.py && npm run build" }, '<html><body>' + 'x'.repeat(500) + '</body></html>\nbuild ok');
    const t = await summarize(b);
    const cmds = section(t, 'Commands');
    expect(cmds).toHaveLength(1);
    expect(cmds[0]).toMatch(/^- `cat > \/tmp\/gen\.py <<'EOF' \(writes a 2-line Python script that starts with print\(json\.dumps\(\{'a': 1\}\)\), then runs it, then npm run build\)` -> ok/);
    expect(t).not.toContain('<html>');
  });
});

describe('files', () => {
  it('no globs, import specifiers or bare duplicates; a file deleted later says so', async () => {
    const b = new LogBuilder();
    b.user('Move the theme helpers into core and delete the old module.');
    b.tool('bash', { command: "sed -i 's/a/b/' core/*.ts" }, '');
    b.tool('edit', { path: '../theme/theme', oldText: 'a', newText: 'b' }, 'ok');
    b.tool('edit', { path: '/repo/packages/app/src/core/theme.ts', oldText: 'a', newText: 'b' }, 'ok');
    b.tool('edit', { path: 'theme.ts', oldText: 'a', newText: 'b' }, 'ok');
    b.tool('write', { path: '/repo/packages/app/src/old/helpers.ts', content: 'x' }, 'ok');
    b.tool('bash', { command: 'rm /repo/packages/app/src/old/helpers.ts && npm run check' }, 'Checked 12 files. No errors.');
    const t = await summarize(b);
    const files = section(t, 'Files').join('\n');
    expect(files).not.toContain('*');
    expect(files).not.toContain('../theme/theme');
    expect(files).not.toMatch(/^- `theme\.ts`/m);
    expect(files).toMatch(/`(?:\/repo\/packages\/app\/src\/)?old\/helpers\.ts` \(deleted\)/);
    expect(files).toMatch(/`(?:\/repo\/packages\/app\/src\/)?core\/theme\.ts` \(modified\)/);
  });
});

describe('merging prior checkpoints', () => {
  const piSummary = [
    '## Goal',
    'Refactor the coding agent so all run modes share one AgentSession.',
    '',
    '## Constraints & Preferences',
    '- E2E tests only',
    '',
    '## Progress',
    '### Done',
    '- [x] WP1: bash-executor.ts',
    '### In Progress',
    '- [ ] Current Task: move files into src/core',
    '',
    '## Branch',
    '`refactor`',
    '',
    '### Agreed Structure',
    '```',
    'src/',
    '├── core/',
    '│   ├── tools/        # MOVE from src/tools/',
    '│   └── oauth/        # MOVE from src/oauth/',
    '└── utils/',
    '```',
    '',
    '## Next Steps',
    '1. Move the remaining files',
  ].join('\n');

  it("pi's summary: its file tree stays whole, its stale task does not follow our next step, one of each section", async () => {
    const b = new LogBuilder();
    b.log.append({ type: 'user/message', kind: 'checkpoint', surfaceOp: 'append', content: [{ type: 'text', text: piSummary }] });
    b.user('ok, now also split main.ts into cli/args.ts and keep the old main.ts for reference');
    b.tool('write', { path: 'src/cli/args.ts', content: 'x' }, 'ok');
    b.assistant('Created src/cli/args.ts. Next I will move parseArgs into it.');
    const t = await summarize(b);
    for (const h of ['Goal', 'Constraints and preferences', 'Done', 'In progress', 'Next step', 'Earlier context']) expect(t.match(new RegExp(`^## ${h}$`, 'gm')) ?? [], h).toHaveLength(1);
    expect(t).toContain('│   ├── tools/        # MOVE from src/tools/');
    expect(t).toContain('├── core/');
    expect(section(t, 'Goal')[0]).toBe('- Refactor the coding agent so all run modes share one AgentSession.');
    // the stale task of the prior summary is superseded by the newer state, not listed after it
    expect(t).not.toContain('Current Task: move files');
    expect(t.lastIndexOf('## Next step')).toBeGreaterThan(t.lastIndexOf('## In progress'));
    expect(section(t, 'Next step')).toEqual(['- Next I will move parseArgs into it.']);
    expect(t).toContain('E2E tests only');
    expect(t).toContain('WP1: bash-executor.ts');
  });

  it('a prior checkpoint that is not ours and has no sections becomes Earlier context, paragraphs whole', () => {
    const p = parseCheckpoint('The user is migrating the billing service to Postgres. The schema is done.\n\nNext they want the data backfill script, which must be idempotent.');
    expect([...p.keys()]).toEqual(['Earlier context']);
    expect(p.get('Earlier context')!.map((i) => i.text)).toEqual([
      'The user is migrating the billing service to Postgres. The schema is done.',
      'Next they want the data backfill script, which must be idempotent.',
    ]);
  });

  it('five successive compactions of one growing session keep the first span facts and stay within budget', async () => {
    const e = new BasicCompactionEngine({ budget: 6000, meter: new TokenMeter() });
    const log = new MemorySessionLog('growing');
    const b = new LogBuilder();
    (b as unknown as { log: MemorySessionLog }).log = log;
    b.user('Port the lexer in src/lexer.py to Rust. Never use unsafe code.');
    b.tool('Bash', { command: 'cargo test' }, 'error[E0425]: cannot find value `state` in this scope\ntest result: FAILED', true);
    b.tool('Edit', { file_path: '/repo/rust/src/lexer.rs', old_string: 'a', new_string: 'b' }, 'ok', false, 'I decided to use a match on TokenKind instead of a lookup table, because it is exhaustive.');
    b.tool('Bash', { command: 'cargo test' }, 'test result: ok. 12 passed');
    let compactions = 0;
    for (let step = 0; compactions < 5 && step < 200; step++) {
      b.user(`Continue with module ${step}; its tests are in tests/m${step}.rs.`);
      b.tool('Read', { file_path: `/repo/src/m${step}.py` }, bigOutput(40, `m${step}`));
      b.tool('Write', { file_path: `/repo/rust/src/m${step}.rs`, content: 'x' }, 'ok');
      const r = await e.compactIfNeeded(log);
      if (r.compacted && r.action === 'summarize') {
        compactions++;
        expect(r.tokensAfter).toBeLessThanOrEqual(6000);
        expect(checkInvariants(log.events()).ok).toBe(true);
      }
    }
    expect(compactions).toBe(5);
    const ck = log.surface().find((n) => n.kind === 'checkpoint')!;
    const text = (ck.content[0] as { text: string }).text;
    expect(text).toContain('Port the lexer in src/lexer.py to Rust.');
    expect(text).toContain('Never use unsafe code.');
    expect(text).toContain('match on TokenKind');
    expect(text).toContain('error[E0425]');
    expect(text.match(/^## Goal$/gm)).toHaveLength(1);
  });
});

describe('cut text', () => {
  it('no item is cut mid-word or mid-sentence at any budget; blocks are whole or absent', async () => {
    const b = new LogBuilder();
    b.user('Please refactor the renderer so that it is easier to test, split it into separate modules where appropriate, with a clear boundary between layout and painting. Keep the public API. Never add dependencies.');
    for (let i = 0; i < 12; i++) b.tool('edit', { path: `src/render/part${i}.ts`, oldText: 'a', newText: 'b' }, 'ok', false, `Part ${i} is done now. I decided to keep part ${i} pure instead of stateful, because tests get simpler.`);
    b.assistant('Here is the tree:\n```\nsrc/render/\n├── layout.ts\n└── paint.ts\n```\nNext I will write the tests.');
    for (const max of [120, 200, 400, 800]) {
      const t = await summarize(b, max);
      expect(meter.countText(t)).toBeLessThanOrEqual(max);
      for (const l of t.split('\n')) expect(l, `${max}: ${l}`).not.toMatch(/…$|chars clipped/);
      expect((t.match(/```/g) ?? []).length % 2, String(max)).toBe(0);
    }
  });
});

describe('research and sub-agent results', () => {
  it("a delegated sub-agent's work is summarized by its findings and how it ended, under Findings", async () => {
    const b = new LogBuilder();
    b.user('Find out why the nightly job is slow and tell me what to change.');
    b.tool('delegate_task', { goal: 'profile the nightly job' }, 'Great, I have analyzed the job.\n\n## Findings\n- The export step runs one query per customer (N+1), 41 minutes of the 46.\n- The index on orders.customer_id is missing.\n\n```sql\nEXPLAIN SELECT * FROM orders WHERE customer_id = 1;\n```');
    const t = await summarize(b);
    const found = section(t, 'Findings').join('\n');
    expect(found).toContain('Sub-agent "profile the nightly job" (delegate_task, ok) found:');
    expect(found).toContain('N+1');
    expect(found).toContain('orders.customer_id is missing');
    expect(found).not.toContain('EXPLAIN');
    expect(found).not.toContain('Great, I have analyzed');
    expect(section(t, 'Done').join('\n')).not.toContain('Sub-agent');
  });
});

describe('bad input', () => {
  it('a transcript whose tool results are all huge: a checkpoint, results pruned, pairing intact', async () => {
    const b = new LogBuilder();
    b.user('Index the whole monorepo and report the largest packages.');
    for (let i = 0; i < 6; i++) b.tool('bash', { command: `du -a packages/p${i}` }, bigOutput(2500, `p${i}`));
    const e = new BasicCompactionEngine({ budget: 20000, meter: new TokenMeter() });
    const r = await e.compactIfNeeded(b.log);
    expect(r.compacted).toBe(true);
    expect(r.tokensAfter).toBeLessThanOrEqual(20000);
    expect(checkInvariants(b.log.events()).ok).toBe(true);
  });

  it('a session that is one giant user message: a clear error naming the smallest budget, nothing appended', async () => {
    const b = new LogBuilder();
    b.user('Here is everything:\n' + bigOutput(3000));
    const e = new BasicCompactionEngine({ budget: 10000, meter: new TokenMeter() });
    const err = await e.compactIfNeeded(b.log).catch((x: unknown) => x);
    // a single message has nothing older to compact: a no-op, or the budget error; never a loop
    if (err instanceof Error) expect(err).toBeInstanceOf(BudgetTooSmallError);
    else expect((err as { compacted: boolean }).compacted).toBe(false);
    expect(b.log.events().filter((x) => x.type === 'compaction/summary')).toHaveLength(0);
    b.assistant('I read it.');
    b.user('Now summarize the errors in it.');
    const again = await e.compactIfNeeded(b.log);
    expect(again.compacted).toBe(true);
    const goal = section((again.summary[0] as { text: string }).text, 'Goal')[0]!;
    expect(goal.length).toBeLessThan(600);
  });

  it('a prior checkpoint that is not ours and has no sections: merged as earlier context', async () => {
    const b = new LogBuilder();
    b.log.append({ type: 'user/message', kind: 'checkpoint', surfaceOp: 'append', content: [{ type: 'text', text: 'Summary of the earlier work: the API client was rewritten to use fetch; retries are exponential.' }] });
    b.user('Now add a timeout option to the client.');
    b.tool('edit', { path: 'src/client.ts', oldText: 'a', newText: 'b' }, 'ok');
    const secs = extractSections(b.log.surface());
    const text = renderSections(secs);
    expect(text).toContain('## Earlier context\n- Summary of the earlier work: the API client was rewritten to use fetch; retries are exponential.');
    expect(text).toContain('## Goal\n- Add a timeout option to the client.');
  });
});

describe('budget', () => {
  it('a session over budget whose conversation fits the verbatim tail once its large tool results are pruned is brought under budget', async () => {
    // A research session: few turns, three large tool results (an extracted page, a search
    // result, a monitoring query). Pruned, all of it fits the tail, so there is no span to
    // summarize, but the session is still four times over budget.
    const b = new LogBuilder();
    b.system('You are a research assistant.');
    b.user('Compare pg_upgrade and logical replication for moving our 412 GB database from PostgreSQL 14 to 16 with at most 5 minutes of downtime.');
    b.tool('web_extract', { urls: ['https://www.postgresql.org/docs/16/pgupgrade.html'] }, 'pg_upgrade --link needs the old and new data directories on one file system.\n' + bigOutput(700, 'doc'));
    b.assistant('Logical replication it is: the switchover takes under a minute; DDL and sequences are not replicated.');
    b.user('Create the subscription on db-prod-3.');
    b.tool('terminal', { command: 'psql -c "CREATE SUBSCRIPTION app_sub ..."' }, 'NOTICE: created replication slot\nCREATE SUBSCRIPTION');
    b.user('How long will the initial copy take?');
    b.tool('terminal', { command: 'psql -c "select * from pg_stat_subscription"' }, bigOutput(500, 'app_sub'));
    const before = new TokenMeter().countEvents(b.log.surface());
    expect(before).toBeGreaterThan(4 * 9000);
    const e = new BasicCompactionEngine({ budget: 9000, retainTokens: 3150, meter: new TokenMeter() });
    const r = await e.compactIfNeeded(b.log);
    expect(r.compacted).toBe(true);
    expect(r.tokensAfter).toBeLessThanOrEqual(9000);
    expect(checkInvariants(b.log.events()).ok).toBe(true);
    // the conversation itself is still verbatim
    const texts = b.log.surface().flatMap((n) => n.content.map((c) => (c.type === 'text' ? c.text : '')));
    expect(texts).toContain('How long will the initial copy take?');
  });
});

describe('preserved identifiers', () => {
  it("the tools' own JSON keys and status words are not identifiers still in use; the work's are", async () => {
    // Codex: apply_patch outputs are JSON with exit_code/duration_seconds, update_plan steps carry status: in_progress
    const patchOut = (files: string) => JSON.stringify({ output: `Success. Updated the following files:\n${files}\n`, metadata: { exit_code: 0, duration_seconds: 0.0 } });
    const turn = (b: LogBuilder, file: string) => {
      b.tool('update_plan', { plan: [{ step: `Add to_csv to ${file}`, status: 'in_progress' }, { step: 'Run pytest -q', status: 'pending' }] }, 'Plan updated');
      b.tool('apply_patch', { input: `*** Begin Patch\n*** Update File: ${file}\n@@\n+def to_csv(invoice):\n+    return csv_writer(invoice.lines)\n*** End Patch` }, patchOut(`M ${file}`));
    };
    const span = new LogBuilder();
    span.user('Export invoices as CSV with to_csv(invoice); use the csv module, not pandas.');
    turn(span, 'invoicekit/exporter.py');
    const tail = new LogBuilder();
    tail.user('Also call to_csv from the CLI.');
    turn(tail, 'invoicekit/cli.py');
    const ids = extractAnchors(span.log.surface(), tail.log.surface()).filter((a) => a.kind === 'identifier').map((a) => a.text);
    expect(ids).toContain('to_csv');
    expect(ids).toContain('invoice.lines');
    for (const noise of ['exit_code', 'duration_seconds', 'in_progress']) expect(ids).not.toContain(noise);
  });

  it("an e-mail address's domain (a commit trailer's) is no identifier in use; the work's names beside it are", () => {
    const commit = (b: LogBuilder, msg: string) =>
      b.tool('bash', { command: `git commit -m "$(cat <<'EOF'\n${msg}\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)"` }, `[master 6322cf4] ${msg}`);
    const span = new LogBuilder();
    span.user('Add multiply_numbers to src/math_utils.py with a test.');
    commit(span, 'Add multiply_numbers');
    const tail = new LogBuilder();
    tail.user('Now add divide_numbers beside multiply_numbers.');
    commit(tail, 'Add divide_numbers next to multiply_numbers');
    const ids = extractAnchors(span.log.surface(), tail.log.surface()).filter((a) => a.kind === 'identifier').map((a) => a.text);
    expect(ids).toContain('multiply_numbers');
    expect(ids.filter((id) => /anthropic|noreply/.test(id))).toEqual([]);
  });
});

describe('error lines', () => {
  it("Python exception lines (ModuleNotFoundError, KeyError) are the error, not the '1 error in 0.12s' summary; pruning keeps them", async () => {
    const b = new LogBuilder();
    b.user('Add CSV export; the existing test imports invoicekit.exporter.');
    b.tool('shell_command', { command: 'pytest -q tests/test_export.py', workdir: '/home/dev/invoicekit' }, codexOut(2, "ImportError while importing test module '/home/dev/invoicekit/tests/test_export.py'.\nE   ModuleNotFoundError: No module named 'invoicekit.exporter'\n1 error in 0.12s"));
    b.tool('shell_command', { command: 'python scripts/load.py', workdir: '/home/dev/invoicekit' }, codexOut(1, `${bigOutput(400, 'row')}\nTraceback (most recent call last):\n  File "scripts/load.py", line 12, in <module>\n    price = row["sku"]\nKeyError: 'sku'\n${bigOutput(60, 'tail')}`));
    const errors = section(await summarize(b), 'Errors and fixes');
    expect(errors[0]).toContain("ModuleNotFoundError: No module named 'invoicekit.exporter'");
    expect(errors[1]).toContain("KeyError: 'sku'");
    const big = b.log.surface().at(-1)!.content[0]!;
    expect(blockText(pruneToolResult(big as ToolResultBlock, { headLines: 5, tailLines: 5 }))).toContain("KeyError: 'sku'");
  });
});

describe('constraints', () => {
  it('the items of a request list are not constraints, even with a modal in a relative clause; a real rule still is', async () => {
    const b = new LogBuilder();
    b.user('Refactor the invoice exporter in src/exporter.py.');
    b.tool('read', { path: 'src/exporter.py' }, bigOutput(20, 'src'));
    b.user('Good start. All tests must pass before each commit, and never push to main.');
    b.user("alright, let's tackle exporter.py. read it in full, suggest how we can\n\n- remove any code duplication\n- split it into separate modules, with a description of each module\n- locations where those modules should go");
    b.assistant('Here is the plan: three modules, csv_writer.py, totals.py and cli.py.');
    b.user('Tell me which files should change first.');
    const cons = section(await summarize(b), 'Constraints and preferences').join('\n');
    expect(cons).toContain('never push to main');
    expect(cons).not.toContain('locations where those modules should go');
    expect(cons).not.toContain('which files should change');
  });
});

describe('Hermes terminal results', () => {
  it('a JSON-wrapped terminal result ({output, exit_code, error}) gives its error line, not raw JSON', async () => {
    const b = new LogBuilder();
    b.user('Set up logical replication from db-prod-2 to db-prod-3.');
    const out = (output: string, code: number) => JSON.stringify({ output, exit_code: code, error: null });
    b.tool('terminal', { command: "ssh db-prod-3 'psql -c \"CREATE SUBSCRIPTION app_sub CONNECTION ...\"'" }, out('ERROR:  could not connect to the publisher: connection to server at "db-prod-2" (10.0.0.12), port 5432 failed: FATAL:  no pg_hba.conf entry for replication connection from host "10.0.0.13", user "postgres"', 1));
    b.tool('terminal', { command: 'psql --version' }, out('psql (PostgreSQL) 14.9', 0));
    const errors = section(await summarize(b), 'Errors and fixes');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('FATAL:  no pg_hba.conf entry for replication');
    expect(errors[0]).not.toContain('{"output"');
  });
});
