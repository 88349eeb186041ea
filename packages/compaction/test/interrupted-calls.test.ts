// Tool calls a host recorded without a result (a model message cut off mid-turn, pi's
// `stopReason: "error"`): open work only at the span's end with nothing later touching their
// target; never "re-run" (an edit re-applied to a file edited since would break it).
import { describe, expect, it } from 'vitest';
import { extractSections } from '@hive-mind/compaction';
import { LogBuilder } from './helpers.js';

const items = (secs: ReturnType<typeof extractSections>, h: string) => secs.find((s) => s.heading === h)?.items.map((i) => i.text) ?? [];

/** An assistant message with edit calls and no results, as a cut-off turn leaves it. */
function cutOffEdits(b: LogBuilder, path: string, n: number): void {
  b.log.append({
    type: 'assistant/message',
    surfaceOp: 'append',
    content: Array.from({ length: n }, (_, i) => ({ type: 'tool-call' as const, id: `cut_${path}_${i}`, name: 'edit', input: { path, oldText: `a${i}`, newText: `b${i}` } })),
  });
}

describe('calls without a result', () => {
  it('are no state once later work went past them (the file edited again, a build run)', () => {
    const b = new LogBuilder();
    b.user('replace chalk with the theme in src/render.ts');
    cutOffEdits(b, 'src/render.ts', 5);
    b.user('ok, I removed most of it by hand; go on');
    b.tool('edit', { path: 'src/render.ts', oldText: 'x', newText: 'y' }, 'Successfully replaced text in src/render.ts.');
    b.tool('bash', { command: 'npm run check' }, 'Checked 22 files. No errors.');
    const progress = items(extractSections(b.log.surface()), 'In progress').join('\n');
    expect(progress).not.toMatch(/without a result|re-run/);
  });

  it('are no state when the verbatim tail touches their target', () => {
    const b = new LogBuilder();
    b.user('rename the option in src/config.ts');
    cutOffEdits(b, 'src/config.ts', 2);
    const tail = new LogBuilder();
    tail.tool('read', { path: 'src/config.ts' }, 'export const x = 1;');
    expect(items(extractSections(b.log.surface(), { tail: tail.log.surface() }), 'In progress').join('\n')).not.toMatch(/without a result/);
  });

  it('are open work at the span end, said with their target and never as "re-run"', () => {
    const b = new LogBuilder();
    b.user('Ersetze chalk durch das Theme in src/render.ts');
    b.tool('read', { path: 'src/render.ts' }, 'import chalk from "chalk";');
    cutOffEdits(b, 'src/render.ts', 3);
    const progress = items(extractSections(b.log.surface()), 'In progress').join('\n');
    expect(progress).toMatch(/3 edit calls on `src\/render\.ts` were cut off at the end of this span without a result: check that file/);
    expect(progress).not.toMatch(/re-run/);
  });
});
