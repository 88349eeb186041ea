// Errors and fixes as state: a command that failed again and again while the agent fixed it is
// one item with its error kinds and final status, not one line per attempt; a run the user or
// the host stopped ("Command aborted") is no error of the work, whatever it printed before.
import { describe, expect, it } from 'vitest';
import { extractSections } from '@hive-mind/compaction';
import { LogBuilder } from './helpers.js';

const items = (secs: ReturnType<typeof extractSections>, h: string) => secs.find((s) => s.heading === h)?.items.map((i) => i.text) ?? [];

describe('Errors and fixes', () => {
  it('says a command failing again and again once: how many times, the error kinds, the final status', () => {
    const b = new LogBuilder();
    b.user('fix the type errors in the tests');
    const errs = [
      "test/a.test.ts(3,1): error TS2345: Argument of type 'undefined' is not assignable to parameter of type 'Theme'.",
      "test/b.test.ts(9,5): error TS2322: Type 'string' is not assignable to type 'Color'.",
      "test/b.test.ts(40,2): error TS2304: Cannot find name 'chalk'.",
    ];
    errs.forEach((e, i) => {
      b.tool('bash', { command: `npm run check 2>&1 | grep "error TS"${i ? ' | head -5' : ''}` }, e, true);
      b.tool('edit', { path: `test/${i ? 'b' : 'a'}.test.ts`, oldText: 'x', newText: 'y' }, 'ok');
    });
    b.tool('bash', { command: 'npm run check' }, 'Checked 22 files. No errors.');
    const errors = items(extractSections(b.log.surface()), 'Errors and fixes');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^`npm run check` failed 3 times \(TS2345, TS2322, TS2304\); the last: .*Cannot find name 'chalk'.* -> fixed by changing `test\/a\.test\.ts`, `test\/b\.test\.ts`; `npm run check` then passed\.$/);
  });

  it('leaves out a run the user stopped, whatever it printed first', () => {
    const b = new LogBuilder();
    b.user('lance les tests du composant');
    b.tool('bash', { command: 'npm test -- truncated.test.ts 2>&1' }, 'Debugger attached.\nError in the js-debug bootloader, please report to https://aka.ms/js-dbg-issue\n\nCommand aborted', true);
    b.tool('bash', { command: 'sleep 5 && echo fini' }, 'Command aborted', true);
    b.tool('bash', { command: 'node build.js' }, 'Error: Cannot find module ./gen.js', true);
    const errors = items(extractSections(b.log.surface()), 'Errors and fixes').join('\n');
    expect(errors).not.toMatch(/bootloader|sleep|aborted/);
    expect(errors).toMatch(/node build\.js` failed: Error: Cannot find module/);
  });
});
