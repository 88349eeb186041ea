import { describe, it, expect } from 'vitest';
import { Mind } from '@hive-mind/mind';
import { statedRange } from '../src/recall/query-dates.js';
import { join } from 'node:path';
import { tmp } from './helpers.js';

const NOW = new Date('2026-06-10T15:00:00Z');
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const D = 86_400_000;

describe('statedRange: the time a query names', () => {
  it('a named day, with a day of slack either side', () => {
    for (const q of ['What did Maria start, as mentioned on 3 June, 2023?', 'the week before June 3rd, 2023', 'notes of 2023-06-03', 'on the 3rd of June 2023'])
      expect(statedRange(q, NOW), q).toMatchObject({ from: day('2023-06-02'), to: day('2023-06-05') });
  });

  it('a named month', () => {
    expect(statedRange('What was John doing as a volunteer in August 2023?', NOW)).toMatchObject({ from: day('2023-08-01'), to: day('2023-09-01') });
    expect(statedRange('release notes 2023-12', NOW)).toMatchObject({ from: day('2023-12-01'), to: day('2024-01-01') });
    expect(statedRange('in Sept. 2024', NOW)).toMatchObject({ from: day('2024-09-01'), to: day('2024-10-01') });
  });

  it('relative to now', () => {
    expect(statedRange('what did we decide yesterday?', NOW)).toMatchObject({ from: day('2026-06-09'), to: day('2026-06-10') });
    expect(statedRange('the bug we fixed today', NOW)).toMatchObject({ from: day('2026-06-10'), to: day('2026-06-11') });
    expect(statedRange('the port we chose 3 days ago', NOW)).toMatchObject({ from: day('2026-06-07') - D, to: day('2026-06-08') + D });
    expect(statedRange('what broke last week', NOW)).toMatchObject({ from: day('2026-05-28'), to: day('2026-06-04') });
    expect(statedRange('what did we change last month', NOW)).toMatchObject({ from: day('2026-05-01'), to: day('2026-06-01') });
  });

  it('no time named, or no real day: undefined', () => {
    for (const q of ['postgres 16 on port 5432', 'step 3 of 2023 items', 'June', 'on 31 June, 2023', 'error E0425 in src/a.ts', '', 'Was hat Maria am 3. Juni 2023 gemacht?', '6/3/2023'])
      expect(statedRange(q, NOW), q).toBeUndefined();
  });
});

describe('search: frames stated in the time the query names rank up', () => {
  it('the numbers of a date are not exact lookups; a query that finds no word gives the frames of that day', () => {
    const t = tmp();
    const m = Mind.open(join(t.dir, 'dates.mind'), { now: () => NOW });
    m.save({ content: 'family photo saved under ~/Pictures/2023' });
    const decision = m.save({ content: 'We chose SQLite over Postgres for the local store', kind: 'decision', importance: 'important', createdAt: '2023-06-03T10:00:00Z' }).id;
    const other = m.save({ content: 'lunch was late', createdAt: '2023-06-03T13:00:00Z' }).id;
    m.save({ content: 'We chose tabs', kind: 'decision', createdAt: '2023-07-01T10:00:00Z' });
    // "decide" matches nothing (the frames say "chose"): the day's frames come back, the important decision first
    expect(m.search('what did we decide on 3 June, 2023').map((h) => h.id)).toEqual([decision, other]);
    expect(m.search('2023-06-03').map((h) => h.id)).toEqual([decision, other]);
    // a year alone is still a word and an exact lookup
    expect(m.search('2023').map((h) => h.content)).toEqual(['family photo saved under ~/Pictures/2023']);
    m.close();
    t.cleanup();
  });

  it('of two frames on the subject, the one stated that day comes first', () => {
    const t = tmp();
    const m = Mind.open(join(t.dir, 'stated.mind'), { now: () => NOW });
    const early = m.save({ content: 'Maria: I started volunteering at the animal shelter', createdAt: '2023-05-01T10:00:00Z' }).id;
    const onDay = m.save({ content: 'Maria: I started volunteering at the dog shelter once a month', createdAt: '2023-06-03T18:00:00Z' }).id;
    const late = m.save({ content: 'Maria: still volunteering at the shelter', createdAt: '2023-09-01T10:00:00Z' }).id;
    for (let i = 0; i < 20; i++) m.save({ content: `John: errand ${String.fromCharCode(97 + i)} at the bakery`, createdAt: '2023-06-03T12:00:00Z' });
    expect(m.search('What did Maria start volunteering at, as mentioned on 3 June, 2023?').map((h) => h.id)[0]).toBe(onDay);
    // without the date another frame comes first: the date is what moved it
    const plain = m.search('What did Maria start volunteering at?').map((h) => h.id);
    expect(plain[0]).not.toBe(onDay);
    expect(plain).toEqual(expect.arrayContaining([early, onDay, late]));
    // the word matches first; fewer than asked, so the other frames of that day follow them
    const both = m.search('volunteering shelter on 3 June, 2023', { limit: 10 });
    const firstOther = both.findIndex((h) => !/shelter|volunteer/i.test(h.content));
    expect(firstOther).toBeGreaterThan(0);
    expect(both.slice(firstOther).every((h) => h.matched === 0 && h.createdAt.startsWith('2023-06-03'))).toBe(true);
    m.close();
    t.cleanup();
  });
});
