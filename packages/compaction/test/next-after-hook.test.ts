// A host's hook that answers the end of a turn whose request the agent reported finished: the
// next step is the hook's point, never to continue (redo) the finished request.
import { describe, expect, it } from 'vitest';
import { extractSections } from '@hive-mind/compaction';
import { LogBuilder } from './helpers.js';

const next = (b: LogBuilder) => extractSections(b.log.surface()).find((s) => s.heading === 'Next step')!.items.map((i) => i.text).join('\n');

describe('the next step after a Stop hook', () => {
  it('does not continue a request the agent reported done', () => {
    const b = new LogBuilder();
    b.user('Add a function divide_numbers(a, b) to src/calc.py with a test.');
    b.tool('Edit', { file_path: '/w/src/calc.py', old_string: 'x', new_string: 'y' }, 'The file has been updated.');
    b.tool('Bash', { command: 'python -m pytest -q' }, '3 passed in 0.01s');
    b.tool('Bash', { command: 'git commit -qam "Add divide_numbers" && git log --oneline -1' }, 'a1b2c3d Add divide_numbers');
    b.assistant("Done. I've added `divide_numbers` and its test, the tests pass, and the change is committed.");
    b.user('Stop hook feedback:\n[~/.claude/hooks/stop.sh]: Cannot exit with untracked files.');
    const step = next(b);
    expect(step).toMatch(/Cannot exit with untracked files.*act on it/);
    expect(step).not.toMatch(/continue the latest request/i);
  });

  it('still continues a request the agent had not finished', () => {
    const b = new LogBuilder();
    b.user('Ajoute une fonction divide_numbers(a, b) dans src/calc.py avec un test.');
    b.tool('Edit', { file_path: '/w/src/calc.py', old_string: 'x', new_string: 'y' }, 'The file has been updated.');
    b.assistant('Je lance les tests ensuite.');
    b.user('Stop hook feedback:\n[~/.claude/hooks/stop.sh]: Tests must pass before the turn ends.');
    expect(next(b)).toMatch(/act on it, then continue the latest request: Ajoute une fonction divide_numbers/);
  });
});
