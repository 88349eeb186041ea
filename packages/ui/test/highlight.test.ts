import { describe, expect, it } from 'vitest';
import { highlight } from '../src/highlight.js';

const marked = (text: string, q: string) => highlight(text, q).map(([s, e]) => text.slice(s, e));

describe('highlight', () => {
  it('marks the words of the query as the search stems them, to the end of the word', () => {
    expect(marked('Deploys go through npm run deploy:prod.', 'deploy prod')).toEqual(['Deploys', 'deploy', 'prod']);
    expect(marked('The deployment failed', 'deploying')).toEqual(['deployment']);
  });
  it('marks exact lookups and phrases, drops stop words, merges overlaps', () => {
    expect(marked('edit src/store.ts then run it', 'the src/store.ts')).toEqual(['src/store.ts']);
    expect(marked('a flaky login test', '"login test"')).toEqual(['login', 'test']);
    expect(highlight('anything', '   ')).toEqual([]);
  });
  it('does not mark inside a word', () => {
    expect(marked('reprod and prod', 'prod')).toEqual(['prod']);
  });
});
