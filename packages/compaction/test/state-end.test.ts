// The checkpoint as the state at the end of the span (issue 22, items 1-3): the goal as the user
// last framed it (a side task first is a task, a restatement wins, the answer format is no goal),
// rules in their final form, Done as the end state (the last test count, the last commit, the
// plan by its final statuses, no work the user then ruled out), and a next step that never asks
// for what the verbatim tail already did.
import { describe, expect, it } from 'vitest';
import { ExtractiveSummarizer, TokenMeter, fitSections, type Section } from '@hive-mind/compaction';
import type { SurfaceNode } from '@hive-mind/session';
import { finalForm, lastingInstructions, latestRules, stateForm } from '../src/rules.js';
import { LogBuilder } from './helpers.js';

const meter = new TokenMeter();
const section = (text: string, h: string) => (new RegExp(`## ${h}\\n([\\s\\S]*?)(?:\\n\\n## |$)`).exec(text)?.[1] ?? '').split('\n').filter((l) => l.startsWith('- '));
const summarize = async (b: LogBuilder, tail: readonly SurfaceNode[] = [], maxTokens = 3000) => (await new ExtractiveSummarizer().summarize({ span: b.log.surface(), tail, maxTokens, meter })).text;
const todo = (items: Array<[string, string]>) => ({ todos: items.map(([content, status]) => ({ content, status, activeForm: content })) });

describe('the goal as it stands', () => {
  it('a side task asked first is a task; the request the work serves, as the user framed it, is the goal', async () => {
    const b = new LogBuilder();
    b.user('make a python script i can run at the end of this chat session that copies the newest session log into ~/chat-archive');
    b.tool('Write', { file_path: '/home/tom/bin/archive_chat.py', content: 'import shutil\n' }, 'File created successfully at: /home/tom/bin/archive_chat.py');
    b.assistant('Done: ~/bin/archive_chat.py copies the newest session log into ~/chat-archive.');
    b.user("thanks. now the actual work: cd into tmp/tenant-library. it's the book-lending app of our building. people spam the 'Request this book' button, so I want a cooldown on it, enforced on the server.");
    for (let i = 0; i < 4; i++) {
      b.tool('Edit', { file_path: '/home/tom/tmp/tenant-library/server/routes/requests.js', old_string: `a${i}`, new_string: `b${i}` }, 'The file has been updated.');
      b.assistant(`The cooldown check on the request route is in place (step ${i + 1}); the button shows the cooldown too.`);
    }
    const t = await summarize(b);
    const goal = section(t, 'Goal');
    expect(goal).toHaveLength(1);
    expect(goal[0]).toContain('cooldown');
    expect(goal[0]).not.toMatch(/python script|chat-archive|cd into/);
    expect(section(t, 'Done').join('\n')).toMatch(/Side task \(before the main work\): make a python script/);
  });

  it('how the user wants the answer ("then give me a plan", "read it in full first") is no goal; a later restatement replaces what it restates', async () => {
    const b = new LogBuilder();
    b.user('alright, read src/game.py and src/board.py in full. I want a chess game where both sides move at any time, with a cooldown per piece. I want you to do a deep analysis, then provide me with a plan.');
    b.assistant('Plan: a board model, a cooldown per piece, a pygame UI with turn order and a move clock.');
    b.user("to be clear, since you wrote 'turn order' in the plan: it is a chess game where both sides move at any time, no turns at all, each piece frozen for a cooldown after it moves.");
    b.tool('Write', { file_path: '/repo/chess/cooldown.py', content: 'x' }, 'ok');
    const goal = section(await summarize(b), 'Goal')[0]!;
    expect(goal).toMatch(/no turns at all/);
    expect(goal).not.toMatch(/provide me with a plan|deep analysis|in full/);
  });

  it('what comes after "then" is work only with its own verb: "read A in full, then B, and then C" is how, the files it names are what the work is based on', async () => {
    for (const [lang, text] of [
      ['en', 'read packages/app/docs/theme.md in full, then theme.ts, and then oauth-selector or any of the other selectors. we still need to port over user-message-selector.ts based on the patterns you find in the other files'],
      ['fr', "lis packages/app/docs/theme.md en entier, puis theme.ts, puis oauth-selector ou un des autres sélecteurs. Reste à porter user-message-selector.ts sur le modèle des autres fichiers."],
    ] as const) {
      const b = new LogBuilder();
      b.user(text);
      b.tool('Read', { file_path: '/repo/packages/app/docs/theme.md' }, '# Themes');
      b.tool('Edit', { file_path: '/repo/packages/app/src/user-message-selector.ts', old_string: 'chalk', new_string: 'theme' }, 'ok');
      const goal = section(await summarize(b), 'Goal');
      expect(goal, lang).toHaveLength(1);
      expect(goal[0], lang).toMatch(/user-message-selector\.ts/);
      expect(goal[0], lang).toContain('(read first: `packages/app/docs/theme.md`, `theme.ts`, `oauth-selector`)');
      expect(goal[0], lang).not.toMatch(/in full|en entier/);
    }
  });
});

describe('rules as they stand', () => {
  it('a rule in its final form: the value it replaces is left out, the change is said', () => {
    expect(finalForm('The first cooldown is 3 s, not 10 s.')).toBe('The first cooldown is 3 s.');
    expect(finalForm('poll every 5 minutes, not every 60 seconds: the API allows 100 requests a day')).toBe('Poll every 5 minutes: the API allows 100 requests a day');
    expect(finalForm('それと通知時刻は朝 7 時じゃなくて 6 時半に変更。')).toBe('それと通知時刻は朝 6 時半に変更。');
    // what is ruled out by name is part of the rule
    expect(finalForm('use pnpm, not npm.')).toBe('use pnpm, not npm.');
  });

  it('questions, venting and self-talk are no rules; the rule inside a vented line is kept in state form', () => {
    expect(lastingInstructions("i'm a python noob, but should we run venv here?")).toEqual([]);
    expect(lastingInstructions('omfg use fucking rgb values in the themes, no rgb indices!')).toEqual(['Use rgb values in the themes, no rgb indices.']);
    expect(lastingInstructions('ok so please never push to main, ok?')).toEqual(['Never push to main.']);
    expect(stateForm('ok, now also: keep the old main.ts for reference')).toBe('Keep the old main.ts for reference.');
    // an identifier opening the rule keeps its case: `DimGray` is not in the session
    expect(stateForm('dimGray should be that, no need for linkGray')).toBe('dimGray should be that, no need for linkGray.');
    // a relative clause describes: "what needs restocking" is no rule
    expect(lastingInstructions('y avisa de lo que hay que reponer.')).toEqual([]);
  });

  it('a sentence that sets a quantity is a rule, in every language; a narrower case stands beside the rule, a new value replaces it', async () => {
    for (const s of ['the cooldown is 10 seconds.', 'Le créneau est de 30 minutes.', 'El umbral es de 5 unidades.', 'Die Pause ist 15 Minuten.', '通知は朝 7 時。', '요약은 밤 11시.']) expect(lastingInstructions(s), s).toHaveLength(1);
    // a report, a complaint or a name is no rule
    for (const s of ['it took 10 seconds.', 'the test suite is 10 seconds slower than before, can you look?', 'the build is 3 hours old', 'my name is Tom']) expect(lastingInstructions(s), s).toEqual([]);
    const rules = (texts: string[]) => latestRules(texts.map((text, seq) => ({ text, seq }))).map((r) => r.text);
    expect(rules(['The cooldown is 10 seconds.', 'The very first cooldown is 3 seconds instead, so the opening is quick.'])).toEqual(['The cooldown is 10 seconds.', 'The very first cooldown is 3 seconds instead, so the opening is quick.']);
    expect(rules(['Poll every 60 seconds.', 'Poll every 5 minutes instead.'])).toEqual(['Poll every 5 minutes instead (changed).']);
    // French spacing before a semicolon is no change
    expect(rules(['réponses en français ; tests avec pytest -q.'])).toEqual(['réponses en français ; tests avec pytest -q.']);
    // a later rule that says nothing the earlier one does not is said already
    expect(rules(['Deterministic: no randomness (rand goes), ties go to the lower member id.', 'No randomness!'])).toEqual(['Deterministic: no randomness (rand goes), ties go to the lower member id.']);
    // through the summarizer: the value said in a restatement is kept, the exception beside it
    const b = new LogBuilder();
    b.user('make a chess game in python with pygame, in ~/code/kungfu-chess');
    b.tool('Write', { file_path: '/home/dev/code/kungfu-chess/chess/board.py', content: 'x' }, 'ok');
    b.user("to be clear: it is kung fu chess, both sides move whenever they want and a piece that moved is frozen for a cooldown. the cooldown is 10 seconds.");
    b.tool('Write', { file_path: '/home/dev/code/kungfu-chess/chess/cooldown.py', content: 'x' }, 'ok');
    b.user('also the very first cooldown is 3 seconds instead, so the opening is quick.');
    const rulesSaid = section(await summarize(b), 'Constraints and preferences').join('\n');
    expect(rulesSaid).toMatch(/cooldown is 10 seconds/);
    expect(rulesSaid).toMatch(/very first cooldown is 3 seconds/);
  });

  it('at a tight budget the correction outranks an unfinished sub-agent, which outranks finished work; an unfinished sub-agent is never forced in', async () => {
    const b = new LogBuilder();
    b.user('Add a delay alert to the bus poller in ~/src/bus-alerts.');
    b.assistant('The transit API has no realtime endpoint, so I will scrape the timetable page.');
    b.user("that's wrong, there is a realtime endpoint: GET /v2/realtime/trips in their API (docs/openapi.yaml).");
    b.assistant("You're right, GET /v2/realtime/trips returns delay_seconds per trip.");
    b.tool('Write', { file_path: '/home/sam/src/bus-alerts/alerts/poll.py', content: 'x' }, 'ok');
    b.assistant('Done: the poller reads delay_seconds from the realtime endpoint and all 10 tests pass.');
    b.tool('Task', { description: 'Look for other bus lines at stop 1187', prompt: 'List the other lines at stop 1187' }, '[Request interrupted by user for tool use]', true);
    const full = await summarize(b);
    const correction = section(full, 'Constraints and preferences').find((l) => /realtime endpoint/.test(l))!;
    const sub = section(full, 'In progress').find((l) => /^- Sub-agent/.test(l))!;
    expect(correction).toBeDefined();
    expect(sub).toBeDefined();
    const goal = section(full, 'Goal')[0]!;
    const next = section(full, 'Next step')[0]!;
    // room for the goal, the next step, the correction and little else
    const room = meter.countText(['## Goal', goal, '', '## Constraints and preferences', correction, '', '## Next step', next].join('\n')) + 12;
    const tight = await summarize(b, [], room);
    expect(tight).toContain(correction);
    expect(tight).not.toContain(sub);
  });

  it("'it is not called X, it is called Y' is a rule in each language; an opener ('ojo:', 'otra cosa:') is left out; a host summary's rules run together are replaced one by one", async () => {
    expect(lastingInstructions('ojo: en las ventas la columna no se llama cantidad, se llama unidades.')).toEqual(['En las ventas la columna no se llama cantidad, se llama unidades.']);
    expect(lastingInstructions("la colonne ne s'appelle pas quantite, elle s'appelle unites.")).toHaveLength(1);
    expect(lastingInstructions('die Spalte heißt nicht Menge, sondern Einheiten.')).toHaveLength(1);
    expect(lastingInstructions('otra cosa: hemos cambiado a pnpm, usa pnpm, nunca npm.')[0]).toMatch(/^Hemos cambiado a pnpm/);
    const b = new LogBuilder();
    b.user(['This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.', '', 'Summary:', '1. Primary Request and Intent:', '   Build the stock alerts of panaderia-stock.', '', '2. Constraints:', '   - Use pnpm, never npm. All text in Spanish. Tests with vitest before every commit.'].join('\n'));
    b.tool('Write', { file_path: '/home/lucia/panaderia-stock/src/alertas.ts', content: 'x' }, 'ok');
    b.user('from now on use bun, never npm.');
    const rulesSaid = section(await summarize(b), 'Constraints and preferences');
    expect(rulesSaid).toContain('- All text in Spanish.');
    expect(rulesSaid).toContain('- Tests with vitest before every commit.');
    expect(rulesSaid.join('\n')).toMatch(/use bun, never npm/i);
    expect(rulesSaid.join('\n')).not.toMatch(/pnpm/);
  });

  it("a slash command's template is the host's, not the user's rules", async () => {
    const b = new LogBuilder();
    b.user('Add a cooldown to the request button.');
    b.user('<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>');
    b.user(['Please analyze this codebase and create a CLAUDE.md file, which will be given to future instances of Claude Code to operate in this repository.', '', 'Usage notes:', '- If there\'s already a CLAUDE.md, suggest improvements to it.', '- When you make the initial CLAUDE.md, do not repeat yourself and do not include obvious instructions.', '- Avoid listing every component or file structure that can be easily discovered.', '- Don\'t include generic development practices.'].join('\n') + '\n' + 'x'.repeat(900));
    b.tool('Write', { file_path: '/repo/CLAUDE.md', content: '# CLAUDE.md' }, 'ok');
    const t = await summarize(b);
    expect(section(t, 'Constraints and preferences').join('\n')).not.toMatch(/repeat yourself|generic development|CLAUDE\.md/);
  });
});

describe('fitting by value', () => {
  it("a prior checkpoint's context that the other sections already say goes first, however recent", () => {
    const sections = (): Section[] => [
      { heading: 'Goal', items: [{ text: 'A real-time chess game in Python with pygame.' }], keep: 1 },
      { heading: 'Constraints and preferences', items: [{ text: 'No AI: both colours are controlled by the user.' }, { text: 'The cooldown is 10 seconds.' }, { text: 'There is no check in kung fu chess: you win by capturing the king.' }, { text: 'The very first cooldown is 3 seconds instead, so the opening is quick.' }], keep: 0 },
      { heading: 'Done', items: [{ text: 'Last commit: "Board, cooldowns, UI" (5e1b7d2); 18 tests passed with python -m pytest -q.' }, { text: 'Plan items done: Board model and legal moves (chess/board.py); Per-piece cooldown (chess/cooldown.py); pygame UI: board, drag and drop.' }], keep: 0 },
      { heading: 'Findings', items: [{ text: 'Sub-agent "Research timers" (wait, ok) found: use time.monotonic() for the cooldowns, not pygame.time.get_ticks().', weight: 3 }], keep: 0 },
      { heading: 'Earlier context', items: [{ text: 'AGENTS.md: black with line length 100, no dependencies beyond pygame.', prior: true }, { text: 'No AI (both colours are controlled by the user); the cooldown is 10 seconds, the very first one 3 seconds.', prior: true }], keep: 0 },
      { heading: 'Next step', items: [{ text: 'Draw the cooldown as a shrinking pie over each frozen piece.' }], keep: 1 },
    ];
    const all = fitSections(sections(), 3000, meter);
    // room for all but the restated line
    const budget = meter.countText(all) - 20;
    const fitted = fitSections(sections(), budget, meter);
    expect(fitted).toContain('time.monotonic()');
    expect(fitted).toContain('AGENTS.md: black');
    expect(fitted).not.toContain('No AI (both colours');
  });
});

describe('Done as the end state', () => {
  it('the last test count and the last commit, the plan by its final statuses, no snapshot and no work the user ruled out', async () => {
    const b = new LogBuilder();
    b.user('Add rate limiting to the API and keep the tests green.');
    b.tool('TodoWrite', todo([['Limiter middleware', 'in_progress'], ['Daily limit per user', 'pending'], ['Tests', 'pending']]), 'ok');
    b.tool('Bash', { command: 'npm test' }, 'Tests: 34 passed, 34 total');
    b.assistant('All 34 tests pass. I also added a daily limit of 3 requests per user.');
    b.user("no daily limit, I never asked for that. take it out, only the per-minute limit.");
    b.tool('Edit', { file_path: '/repo/src/limit.js', old_string: 'daily', new_string: '' }, 'ok');
    b.tool('Bash', { command: 'git commit -am "Limiter middleware"' }, '[main 1a2b3c4] Limiter middleware');
    b.tool('TodoWrite', todo([['Limiter middleware', 'completed'], ['Tests', 'completed']]), 'ok');
    b.tool('Bash', { command: 'npm test' }, 'Tests: 39 passed, 39 total');
    b.tool('Bash', { command: 'git commit -am "Tests for the limiter"' }, '[main 5d6e7f8] Tests for the limiter');
    b.assistant('39 total now.');
    const done = section(await summarize(b), 'Done').join('\n');
    expect(done).toContain('Last commit: "Tests for the limiter"');
    expect(done).toContain('Committed "Limiter middleware"');
    expect(done).toMatch(/39/);
    expect(done).not.toMatch(/\b34\b/);
    // the plan by its last list: the item it dropped is gone, nothing says "(todo completed)"
    expect(done).toContain('Plan items done: Limiter middleware; Tests.');
    expect(done).not.toMatch(/Daily limit per user|todo completed|daily limit of 3/);
  });
});

describe('rules the verbatim tail changes', () => {
  const rulesOf = (t: string) => section(t, 'Constraints and preferences').join('\n');
  it('a value the tail changes is said in its final form, marked; the rule it replaces goes; a quoted rule with "instead" after it is replaced too', async () => {
    for (const [lang, goal, change, value, old] of [
      ['en', 'I want a cooldown on the request button: the cooldown is 10 seconds, enforced on the server.', 'and the cooldown: 10 is too long, make it 6 seconds.', 'The cooldown: make it 6 seconds (changed', /10 (?:seconds|is)/],
      ['fr', "Je veux un délai sur le bouton de réservation : le délai est de 10 secondes, vérifié côté serveur.", 'et le délai : 10 secondes c’est trop long, mets 6 secondes.', 'mets 6 secondes (changed', /10 secondes c/],
    ] as const) {
      const b = new LogBuilder();
      b.user(goal);
      b.tool('Edit', { file_path: '/repo/server/routes/requests.js', old_string: 'a', new_string: 'b' }, 'ok');
      b.assistant('The cooldown check is in place.');
      const tail = new LogBuilder();
      tail.user(change);
      tail.tool('Edit', { file_path: '/repo/server/routes/requests.js', old_string: '10', new_string: '6' }, 'ok');
      const t = await summarize(b, tail.log.surface());
      const rules = rulesOf(t);
      expect(section(t, 'Goal')[0], lang).toMatch(/\(A rule in it changed after this summary: see Constraints\.\)$/);
      expect(rules, lang).toContain(value);
      expect(rules, lang).toContain('(changed in the messages after this summary)');
      expect(rules, lang).not.toMatch(old);
    }
    // a prior checkpoint's rule that the tail quotes and replaces ("we said X. make that Y instead") is dropped
    const b = new LogBuilder();
    b.user('Please add the import command. Always skip rows whose booking text starts with "UMBUCHUNG": they are internal transfers.');
    b.tool('Edit', { file_path: '/repo/cmd/import.go', old_string: 'a', new_string: 'b' }, 'ok');
    const tail = new LogBuilder();
    tail.user('one change to the import rule: we said skip rows whose booking text starts with "UMBUCHUNG". make that any row where the counterparty IBAN is one of our own accounts instead. our IBANs are in ledger.toml.');
    const rules = rulesOf(await summarize(b, tail.log.surface()));
    expect(rules).toContain('Make that any row where the counterparty IBAN is one of our own accounts instead; our IBANs are in ledger.toml (changed in the messages after this summary).');
    expect(rules).not.toMatch(/starts with "UMBUCHUNG"/);
  });

  it('what the tail pastes (a stack trace, a shell prompt) or asks is no rule change', async () => {
    const b = new LogBuilder();
    b.user('Load the theme from src/theme/theme.ts; the theme must never crash the app.');
    b.tool('Edit', { file_path: '/repo/src/theme/theme.ts', old_string: 'a', new_string: 'b' }, 'ok');
    const tail = new LogBuilder();
    tail.user('it crashes:\nError: bad color\n    at loadTheme (/repo/src/theme/theme.ts:393:9)\n    at setTheme (/repo/src/theme/theme.ts:433:10)\ndid you update the theme loader so it never crashes?');
    expect(rulesOf(await summarize(b, tail.log.surface()))).not.toContain('changed in the messages after this summary');
  });
});

describe('the next step against the verbatim tail', () => {
  it('never asks for what the tail already did; a newer request in the tail is where the work goes on', async () => {
    const b = new LogBuilder();
    b.user('Fix the failing test in tests/test_totals.py, then commit.');
    b.tool('Edit', { file_path: '/repo/invoicekit/totals.py', old_string: 'ROUND_HALF_EVEN', new_string: 'ROUND_HALF_UP' }, 'ok');
    b.assistant('Now let me commit the fix:');
    const tail = new LogBuilder();
    tail.tool('Bash', { command: 'git commit -am "Round half up"' }, '[main 9f8e7d6] Round half up');
    const t = await summarize(b, tail.log.surface());
    const next = section(t, 'Next step')[0]!;
    expect(next).toBe('- The messages after this summary already take up the work under way (they commit it): go on from the newest of them, do not redo it.');
    // the finished work is not asked for again
    expect(next).not.toMatch(/test_totals|Fix the failing/);
    expect(next).not.toMatch(/^- Continue/);
    tail.user('great. now also export the totals as CSV');
    const t2 = await summarize(b, tail.log.surface());
    expect(section(t2, 'Next step')[0]).toBe('- Go on from the user\'s newest request, in the messages after this summary: "now also export the totals as CSV".');
    // a short "go on with 3" after that request points further than the request; a bare "ok" does not
    tail.tool('Write', { file_path: '/repo/invoicekit/export.py', content: 'x' }, 'ok');
    tail.user('go on with 3');
    expect(section(await summarize(b, tail.log.surface()), 'Next step')[0]).toBe('- Go on from the user\'s newest request, in the messages after this summary: "go on with 3".');
    tail.user('ok thanks');
    expect(section(await summarize(b, tail.log.surface()), 'Next step')[0]).toBe('- Go on from the user\'s newest request, in the messages after this summary: "now also export the totals as CSV".');
  });
});
