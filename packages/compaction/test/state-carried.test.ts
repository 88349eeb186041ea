// What a checkpoint carries that the span alone does not say: a sub-agent tool named `delegate`
// (a generic harness's name) read by its findings and status, a Japanese report closed with its
// own full stop, and a user's correction that a prior checkpoint noted under its state section
// kept as a rule once the span went on.
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
});
