// A decision the agent wrote in the first person is kept as the decision ("Use an enum"), in
// each language the cues cover; a clause before it stays; a sentence in no such form is unchanged.
import { describe, expect, it } from 'vitest';
import { extractSections } from '@hive-mind/compaction';
import { LogBuilder } from './helpers.js';

const decisions = (say: string) => {
  const b = new LogBuilder();
  b.user('port the parser to Rust');
  b.tool('Read', { file_path: '/w/parser.py' }, 'def parse(x): ...');
  b.assistant(say);
  b.user('ok');
  return extractSections(b.log.surface()).find((s) => s.heading === 'Decisions')?.items.map((i) => i.text) ?? [];
};

describe('a first-person decision', () => {
  for (const [said, kept] of [
    ["In Rust, I'll use a generic enum to represent either a single value or a nested list.", 'In Rust, use a generic enum to represent either a single value or a nested list.'],
    ['I decided to keep the cache in a file instead of Redis.', 'Keep the cache in a file instead of Redis.'],
    ['Je vais utiliser SQLite plutôt que Postgres.', 'Utiliser SQLite plutôt que Postgres.'],
    ['Voy a usar pnpm en lugar de npm.', 'Usar pnpm en lugar de npm.'],
  ] as const) {
    it(`is said as the decision: ${kept}`, () => expect(decisions(said)).toContain(kept));
  }

  it('leaves a decision in another form as it is', () => {
    expect(decisions('The fix is to parse the dates as UTC instead of local time.')).toContain('The fix is to parse the dates as UTC instead of local time.');
  });
});
