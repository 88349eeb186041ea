import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Mind, acknowledgesOnly, evidenceTopic, excerpt, inPassing, turnFrame } from '@hive-mind/mind';
import { tmp } from './helpers.js';

/**
 * The per-prompt evidence (evidence.ts, README "Recall per prompt") over a real .mind of history
 * turns: what clears the floor, what rides along with it, which neighbour is shown beside a turn,
 * and how a long turn is cut.
 */

let t: ReturnType<typeof tmp>;
let m: Mind;
beforeEach(() => {
  t = tmp();
  m = Mind.open(join(t.dir, 'w.mind'));
});
afterEach(() => {
  m.close();
  t.cleanup();
});

const T0 = Date.parse('2026-05-04T09:00:00Z');
/** A session of turns, each a minute after the previous: [role, text]. */
function session(id: string, turns: ReadonlyArray<readonly ['user' | 'assistant', string]>, start = T0): number[] {
  return turns.map(([role, text], i) => m.save(turnFrame({ role, text, host: 'claude-code', sessionId: id, hostTurnId: `${id}-${Math.floor(i / 2)}`, createdAt: new Date(start + i * 60_000).toISOString() })).id);
}
/** Unrelated turns, so the words of the tests are rare in the mind (as in a real history). */
function filler(n: number): void {
  const topics = ['the navbar colours', 'the login form', 'a flaky e2e test of checkout', 'the changelog wording', 'the docker image size', 'the cron schedule of reports'];
  for (let i = 0; i < n; i++)
    session(`f${i}`, [
      ['user', `Please look at ${topics[i % topics.length]} once more and tidy it up.`],
      ['assistant', `I tidied ${topics[i % topics.length]}; the diff is small and reviewed.`],
    ], T0 - (i + 1) * 86_400_000);
}

describe('per-prompt evidence from the history', () => {
  it('a prompt that matches nothing well gets nothing; a strong match gets its turn with the date', () => {
    filler(12);
    const [, reply] = session('s1', [
      ['user', 'Where does the staging API live now?'],
      ['assistant', 'The staging API is served at https://staging-api.example.com:8443 behind the gateway.'],
    ]);
    expect(m.promptEvidence('how do I bake sourdough bread at home?')).toEqual([]);
    const ev = m.promptEvidence("what's the address of the staging API?");
    expect(ev[0]!.frame.id).toBe(reply);
    expect(ev[0]!.line).toMatch(/^- \[#\d+ reply · claude-code · 2026-05-04\] user: Where does the staging API live now\? \| agent: The staging API is served at https:\/\/staging-api\.example\.com:8443/);
  });

  it('a status report ("All 34 tests pass.") never rides along with a better match; it is evidence only when it answers the prompt itself', () => {
    filler(12);
    session('s1', [
      ['user', "Let's move off jest and switch the test runner to vitest."],
      ['assistant', 'Switched the test runner from jest to vitest; jest.config.js is gone.'],
      ['user', 'run the tests again'],
      ['assistant', 'All 34 tests pass.'],
    ]);
    const runner = m.promptEvidence('what test runner do we use now?').map((e) => e.line).join('\n');
    expect(runner).toContain('Switched the test runner from jest to vitest');
    expect(runner).not.toContain('All 34 tests pass');
    // asked for itself, the status is the answer
    expect(m.promptEvidence('how many tests pass?').map((e) => e.line).join('\n')).toContain('All 34 tests pass.');
  });

  it('the answer a question got is shown beside it, unless it only announces the next step; a `?` in code is no question', () => {
    filler(12);
    session('s1', [
      ['user', 'Which port does the billing database listen on?'],
      ['assistant', 'Let me check the config first.'],
      ['user', 'The billing importer retries with the `?` operator on every row parse of the ledger.'],
      ['assistant', 'Noted; the ledger parser keeps that behaviour.'],
    ]);
    const port = m.promptEvidence('billing database port?');
    const line = port.find((e) => e.line.includes('Which port does the billing database listen on?'))?.line ?? '';
    expect(line).not.toContain('Let me check the config first');
    const ledger = m.promptEvidence('how does the billing importer parse ledger rows?').map((e) => e.line).join('\n');
    expect(ledger).toContain('`?` operator');
    expect(ledger).not.toContain('ledger parser keeps that behaviour');
  });

  it('a question of a word or two beside stop and task words ("alright, where were we?") is a remark: never shown beside the reply it got', () => {
    filler(12);
    session('s1', [
      ['user', 'alright, where were we?'],
      ['assistant', 'We moved the theme loader to src/theme/loader.ts and the refactoring lives on the branch theme-split.'],
      ['user', 'Which branch holds the invoice export?'],
      ['assistant', 'The invoice export lives on the branch invoice-csv, not merged yet.'],
    ]);
    const theme = m.promptEvidence('which branch is the theme refactoring on?');
    const line = theme.find((e) => e.line.includes('theme-split'))?.line ?? '';
    expect(line).toContain('refactoring lives on the branch theme-split');
    expect(line).not.toContain('where were we');
    expect(theme.find((e) => e.line.includes('theme-split'))?.neighbour).toBeUndefined();
    // a question that says what it asks about is still shown beside its answer
    const invoice = m.promptEvidence('which branch has the invoice export work?').map((e) => e.line).join('\n');
    expect(invoice).toContain('user: Which branch holds the invoice export? | agent: The invoice export lives on the branch invoice-csv');
  });

  it('a turn is shown without what it says in passing: an offer to be asked, an announced next step', () => {
    filler(12);
    session('s1', [
      ['user', 'Port the billing library to Rust as a standalone crate. You can ask me questions if you need clarification.'],
      ['assistant', 'The billing crate has 29 unit tests and full line coverage. Now let me update the Justfile for Rust.'],
    ]);
    const lines = m.promptEvidence('how many unit tests does the billing crate have?').map((e) => e.line).join('\n');
    expect(lines).toContain('The billing crate has 29 unit tests and full line coverage.');
    expect(lines).toContain('Port the billing library to Rust as a standalone crate.');
    expect(lines).not.toContain('ask me questions');
    expect(lines).not.toContain('update the Justfile');
  });

  it("what follows an agent's question (an offer) is not shown as its answer; the answer to the user's question is", () => {
    filler(12);
    session('s1', [
      ['user', 'Which branch holds the session refactor?'],
      ['assistant', 'The session refactor is on branch `refactor`, committed.'],
      ['user', 'Make the session refactor pass the linter.'],
      ['assistant', 'The session refactor is lint-clean on branch refactor. Want me to merge the refactor branch into main?'],
      ['user', 'jesus, everything works, you are a monster'],
      ['assistant', 'Thanks!'],
    ]);
    const all = m.promptEvidence('which branch is the session refactor on?').map((e) => e.line).join('\n');
    expect(all).toMatch(/user: Which branch holds the session refactor\? \| agent: The session refactor is on branch `refactor`/);
    expect(all).not.toContain('you are a monster');
  });

  it('an agent message of one or two sentences ending with a colon announces what follows: no evidence', () => {
    filler(12);
    session('s1', [
      ['user', 'What colour is the markdown link text in the old theme?'],
      ['assistant', 'The markdown link text in the old theme is #81a2be.'],
      ['user', 'Check how markdown links are rendered.'],
      ['assistant', 'Now find where markdown links are rendered in the markdown component:'],
    ]);
    const all = m.promptEvidence('which colour is markdown link text?').map((e) => e.line).join('\n');
    expect(all).toContain('#81a2be');
    expect(all).not.toContain('Now find where markdown links are rendered');
  });

  it('a prompt word no frame holds (a typo, a word the memory never used) does not keep the evidence from clearing the floor; a prompt the memory knows too few words of still gets nothing', () => {
    filler(12);
    const [, reply] = session('s1', [
      ['user', 'How is the watercolour going?'],
      ['assistant', 'I have been painting watercolour landscapes for seven years now, mostly lakes.'],
    ]);
    // "practising" is in no frame: as the rarest word it weighed more than the two the reply holds
    expect(m.promptEvidence('how long has she been practising watercolour landscapes?').map((e) => e.frame.id)).toContain(reply);
    // one word of four known: below the share of topic words the floor asks
    expect(m.promptEvidence('add a watercolour toggle to the gradient picker')).toEqual([]);
  });

  it('single digits are no topic words: the 3 and 4 of a regex tie no turn to the prompt', () => {
    filler(12);
    session('s1', [
      ['user', 'Bump the retries to 3 and the timeout to 4 seconds.'],
      ['assistant', 'Set 3 retries and a 4 second timeout in the client.'],
    ]);
    expect(m.promptEvidence('what does this regex do: ^\\d{3}-\\d{4}$')).toEqual([]);
  });

  it("never this session's own turns, nor the ids it was given", () => {
    filler(12);
    const [, reply] = session('s1', [
      ['user', 'Production runs on Fly.io in region fra, app name acme-billing.'],
      ['assistant', 'Added scripts/deploy.sh running fly deploy for acme-billing in fra.'],
    ]);
    expect(m.promptEvidence('where is acme-billing deployed on fly?').length).toBeGreaterThan(0);
    expect(m.promptEvidence('where is acme-billing deployed on fly?', { session: { host: 'claude-code', sessionId: 's1' } })).toEqual([]);
    expect(m.promptEvidence('where is acme-billing deployed on fly?', { exclude: [reply] }).map((e) => e.frame.id)).not.toContain(reply);
  });
});

describe('a question in French or German is about its topic words, not its verbs of use nor "now"', () => {
  it('"quel bundler on utilise maintenant ?" and "Welchen Bundler verwenden wir jetzt?" find the turn that names the bundler, as "what test runner do we use now?" does', () => {
    filler(12);
    const [fr] = session('s1', [
      ['user', 'on est passé de webpack à vite comme bundler.'],
      ['assistant', 'Parfait.'],
    ]);
    const [de] = session('s2', [
      ['user', 'Die Abrechnungsdatenbank läuft auf Port 5433, der Bundler ist jetzt Vite.'],
      ['assistant', 'Gut.'],
    ]);
    expect(m.promptEvidence('quel bundler on utilise maintenant ?').map((e) => e.frame.id)).toContain(fr);
    expect(m.promptEvidence('Welchen Bundler verwenden wir jetzt?').map((e) => e.frame.id)).toContain(de);
    expect(m.promptEvidence('auf welchem Port läuft die Abrechnungsdatenbank?').map((e) => e.frame.id)).toEqual([de]);
    // the topic words left: what the question is about
    expect(evidenceTopic('quel bundler on utilise maintenant ?')).toEqual(['bundler']);
    expect(evidenceTopic('sur quel port tourne la base de facturation ?')).toEqual(['port', 'base', 'facturation']);
    expect(evidenceTopic('welchen Testrunner benutzen wir jetzt?')).toEqual(['testrunner']);
    // a prompt of task words only gets nothing in these languages either
    expect(m.promptEvidence('tu peux relancer encore ?')).toEqual([]);
    expect(m.promptEvidence('kannst du das bitte nochmal machen?')).toEqual([]);
  });
});

describe('an acknowledgement is no memory of its own', () => {
  it("the agent's \"Noted, I will write commit messages that way.\" stands for nothing: the user's rule before it is the evidence", () => {
    filler(12);
    const [rule, ack] = session('s1', [
      ['user', 'Write commit messages in the imperative mood, under 50 characters.'],
      ['assistant', 'Noted, I will write commit messages that way.'],
    ]);
    const ev = m.promptEvidence('how should I write commit messages?');
    expect(ev.map((e) => e.frame.id)).toEqual([rule]);
    expect(ev[0]!.line).toContain('user: Write commit messages in the imperative mood');
    expect(ev.flatMap((e) => e.ids)).not.toContain(ack);
    // the rule was given to this session already: the acknowledgement does not stand in for it
    expect(m.promptEvidence('how should I write commit messages?', { exclude: [rule] })).toEqual([]);
  });

  it('in French and German too; a reply that adds a name of its own is a finding, not an acknowledgement', () => {
    expect(acknowledgesOnly("D'accord, c'est noté : la base de facturation est sur le port 5433.", 'la base de facturation tourne sur le port 5433 avec PostgreSQL 15.')).toBe(true);
    expect(acknowledgesOnly('Verstanden, ich schreibe Commit-Nachrichten ab jetzt so.', 'Schreib Commit-Nachrichten ab jetzt immer im Imperativ.')).toBe(true);
    expect(acknowledgesOnly('Noted, I will write commit messages that way.', 'Write commit messages in the imperative mood, under 50 characters.')).toBe(true);
    // a name, number or path the prompt does not hold: what the agent found
    expect(acknowledgesOnly('OK, the billing db is actually on port 5434.', 'The billing db runs on port 5433.')).toBe(false);
    // no agreement opening it, or a prompt that states nothing lasting
    expect(acknowledgesOnly('I will write commit messages that way.', 'Write commit messages in the imperative mood, under 50 characters.')).toBe(false);
    expect(acknowledgesOnly('Noted.', 'run the tests again')).toBe(false);
  });
});

describe('remarks in passing are never evidence', () => {
  it('a remark is unanchored, short and marked; an exclamation alone is no mark, a value or a name anchors a sentence', () => {
    for (const said of ['Perfect! Everything should be working smoothly now.', 'Ready for the new release whenever you are!', "That's all the markdown features tested!", "omfg that's it, now shit renders the same.", 'Thanks, Caroline!', 'All clean, all committed.', 'Alle Tests sind grün.', 'すべてのテストが成功しました。'])
      for (const x of said.split(/(?<=[.!?])\s+/)) expect(inPassing(x, { agent: true }), x).toBe(true);
    expect(inPassing("Here's a markdown sample with various elements:", { first: true, agent: true })).toBe(true);
    for (const said of ['I just signed up for a pottery class yesterday!', 'The billing database is on port 6432!', 'Switched the test runner to Vitest!', 'ok, make the dim grey in the dark theme lighter', 'Which port does the billing database listen on?'])
      expect(inPassing(said, { agent: true }), said).toBe(false);
  });

  it('a reply that is all chatter ("Perfect! … Ready for the new release whenever you are!") does not ride along; a reaction opening a prompt is cut out of it', () => {
    filler(12);
    session('s1', [
      ['user', 'which version should the theme release get?'],
      ['assistant', 'The theme release is 0.8.0: `npm run version:minor` bumps 0.7.29 to 0.8.0.'],
      ['user', 'ok, try the light theme, then we should be good to go for the release'],
      ['assistant', 'Perfect! Everything should be working smoothly now. Ready for the new release whenever you are!'],
    ]);
    session('s2', [
      ['assistant', 'VS Code ignores the RGB values of the greys: set terminal.integrated.minimumContrastRatio to 1 so they render distinctly.'],
      ['user', "omfg that's it, now shit renders the same. now make the dim grey in the dark theme lighter"],
    ], T0 + 3_600_000);
    const release = m.promptEvidence('what version number did the theme release get?').map((e) => e.line).join('\n');
    expect(release).toContain('0.8.0');
    expect(release).not.toContain('whenever you are');
    const greys = m.promptEvidence('which VS Code option makes the greys render distinctly?').map((e) => e.line).join('\n');
    expect(greys).toContain('minimumContrastRatio');
    expect(greys).not.toContain('now shit renders the same');
    // asked for in its own words, a remark is what answers
    expect(m.promptEvidence('when were we ready for the new release whenever you are?').map((e) => e.line).join('\n')).toContain('whenever you are');
  });

  it('the agent answering a remark answers in kind: its opening paragraph is cut, what follows stays', () => {
    filler(12);
    session('s1', [
      ['user', 'jesus, everything works, you are a monster'],
      ['assistant', 'Thanks. The structure was solid to begin with, just needed deduplication.\n\nNext: delete the old `main.ts` and rename `main-new.ts` to `main.ts` on the refactor branch.'],
    ]);
    const lines = m.promptEvidence('which refactor branch deletes old main.ts?').map((e) => e.line).join('\n');
    expect(lines).toContain('rename `main-new.ts`');
    expect(lines).not.toContain('structure was solid');
  });
});

describe('per-prompt evidence never repeats what the session was given', () => {
  it('a turn beside its own standing frame: the sentence the frame says is cut; a turn that says only that is left out', () => {
    filler(12);
    const [prompt] = session('s1', [
      ['user', 'The billing service talks to a PostgreSQL 15 database on port 6432. Migrations live in db/migrate and run with pnpm db:migrate.'],
      ['assistant', 'Understood.'],
      ['user', 'Release branches are cut every second Tuesday.'],
      ['assistant', 'Noted.'],
    ]);
    const fact = m.save({ content: 'The billing service talks to a PostgreSQL 15 database on port 6432.', kind: 'environment', host: 'claude-code', sessionId: 's1', turnId: 's1-0#env' }).id;
    const rule = m.save({ content: 'Release branches are cut every second Tuesday.', kind: 'instruction', host: 'claude-code', sessionId: 's1', turnId: 's1-1#rule' }).id;
    const db = m.promptEvidence('where do the billing database migrations live?', { exclude: [fact, rule] });
    const line = db.find((e) => e.frame.id === prompt)?.line ?? '';
    expect(line).toContain('db/migrate');
    expect(line).not.toContain('port 6432');
    expect(m.promptEvidence('when are release branches cut?', { exclude: [fact, rule] }).map((e) => e.line).join('\n')).not.toContain('second Tuesday');
    // not given: the turn is shown whole
    expect(m.promptEvidence('where do the billing database migrations live?').map((e) => e.line).join('\n')).toContain('port 6432');
  });
});

describe('excerpt', () => {
  it('a markdown reply is cut by its lines: the list item holding the words is shown, not the intro alone', () => {
    const reply = ['The port is complete. Here is a summary:', '', '## Summary', 'I ported the library to Rust.', '### Modules', '1. string_utils', '2. math_utils', '### Tests', '- **29 unit tests** across all modules', '- **5 doctests** (one per function)', '### Next', 'Nothing is left to do.'].join('\n');
    const x = excerpt(reply, ['unit', 'tests'], 90);
    expect(x).toContain('**29 unit tests** across all modules');
    // the item alone, not the headings and lines around it run together
    expect(x).not.toMatch(/math_utils|### Next|Nothing is left/);
  });

  it('a text that fits is shown whole', () => {
    const turn = 'Release branches are cut every second Tuesday. They are named release/DATE. Let me know if you need anything else.';
    expect(excerpt(turn, ['release', 'branches'], 480)).toBe(turn);
  });
});
