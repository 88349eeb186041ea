// What a checkpoint carries that the span alone does not say: a sub-agent tool named `delegate`
// (a generic harness's name) read by its findings and status, a Japanese report closed with its
// own full stop, and a user's correction that a prior checkpoint noted under its state section
// kept as a rule once the span went on; a side task with what the agent answered; a short
// pointer in the tail ("go on with 15") with the agent's sentence it answers; the last test run
// said once (Done), not again under Commands.
import { describe, expect, it } from 'vitest';
import { extractSections } from '@hive-mind/compaction';
import { LogBuilder } from './helpers.js';

const items = (secs: ReturnType<typeof extractSections>, h: string) => secs.find((s) => s.heading === h)?.items.map((i) => i.text) ?? [];

describe('state carried into the checkpoint', () => {
  it('reads a `delegate` result as a sub-agent: its findings, and an interrupted one as not finished', () => {
    const b = new LogBuilder();
    b.user('天気の JSON を調べて、東京地方の降水確率の取り出し方を教えて。');
    b.tool('delegate', { task: '130000.json の構造を調べて' }, JSON.stringify({ status: 'completed', summary: '東京地方は area.code 130010 で探す\n降水確率は timeSeries[1] の pops' }));
    b.tool('delegate', { task: 'LINE の送信上限を調べて' }, JSON.stringify({ status: 'interrupted', summary: '', error: 'interrupted by the user' }));
    const secs = extractSections(b.log.surface());
    const found = items(secs, 'Findings').join('\n');
    expect(found).toContain('130010');
    expect(found).not.toContain('"status"');
    expect(found).not.toMatch(/。\./);
    expect(items(secs, 'In progress').join('\n')).toMatch(/interrupted/);
  });

  it("keeps a prior checkpoint's note of the user's correction as a rule when its state section is stale", () => {
    const b = new LogBuilder();
    b.user(`The conversation history before this point was compacted into the following summary:\n\n<summary>\n## Ziel\nDienstplan-Werkzeug (Rust) für die Feuerwehr.\n\n## Stand\n- src/plan.rs: die Woche ist iso_week() — der Nutzer hat den Agenten korrigiert, chrono kennt iso_week.\n- Letzter Testlauf: 11 passed, 1 failed.\n\n## Nächster Schritt\nrand entfernen, Tests, Commit.\n</summary>`);
    b.user('Mach weiter: rand entfernen und die Tests laufen lassen.');
    b.tool('bash', { command: 'cargo remove rand && cargo test' }, 'test result: ok. 14 passed');
    const secs = extractSections(b.log.surface());
    expect(items(secs, 'Constraints and preferences').join('\n')).toContain('iso_week');
    expect(items(secs, 'In progress').join('\n')).not.toContain('11 passed');
  });

  it('says a side task with its outcome, and the last passing test run once', () => {
    const b = new LogBuilder();
    b.user('check how much disk space is left on the bot server first');
    b.tool('bash', { command: 'df -h /' }, 'Filesystem Size Used Avail Use% Mounted on\n/dev/vda1 78G 61G 14G 82% /');
    b.assistant('The root disk has 14G free (82% used).');
    b.user('now the actual work: add a daily summary command to the discord bot in ~/bots/summarybot, posting to the summary channel');
    b.tool('write_file', { path: 'cogs/summary.py', content: 'x' }, 'ok');
    b.tool('bash', { command: 'python -m pytest -q' }, '4 passed in 0.2s');
    b.assistant('The summary cog is in place; the daily summary command posts to the summary channel.');
    b.user('make the daily summary skip days with fewer than 20 messages in the channel');
    b.tool('edit_file', { path: 'cogs/summary.py', old: 'x', new: 'y' }, 'ok');
    b.assistant('The daily summary now skips a channel day with fewer than 20 messages.');
    const secs = extractSections(b.log.surface());
    expect(items(secs, 'Done').join('\n')).toMatch(/Side task .*disk.* -> The root disk has 14G free/);
    expect(items(secs, 'Done').join('\n')).toContain('4 passed');
    expect(items(secs, 'Commands').join('\n')).not.toContain('4 passed');
  });

  it('reads a pointer in the tail by the sentence of the agent it answers', () => {
    const span = new LogBuilder();
    span.user('build the report command of the ledger tool, step by step from docs/PLAN.md');
    span.tool('bash', { command: 'go test ./...' }, 'ok ledger 0.01s');
    const tail = new LogBuilder();
    tail.assistant('Committed e47b0c3. Step 15 of 20 is next: `ledger report --month`.');
    tail.user('go on with 15');
    const secs = extractSections(span.log.surface(), { tail: tail.log.surface() });
    expect(items(secs, 'Next step')[0]).toMatch(/"go on with 15" \(answering the agent's "Step 15 of 20 is next: `ledger report --month`\."\)/);
  });
});
