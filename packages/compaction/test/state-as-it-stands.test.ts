// The checkpoint states what stands at the end of the span (issue 22, points 1, 2 and 7), read
// by structure: a goal request whose work the agent reported done and that later requests moved
// past is a task, the goal is the work they share; Constraints hold rules that stand alone (no
// remark, no fragment that only makes sense beside the agent's message, no one-off order); a
// project rule file a tool printed is carried as the project's rules, attributed, not as a
// finding, and an earlier rule it contradicts gives way; a short answer to the agent's question
// is not the newest request. Each on a small built session, one of them not in English.
import { describe, expect, it } from 'vitest';
import { ExtractiveSummarizer, TokenMeter } from '@hive-mind/compaction';
import type { SurfaceNode } from '@hive-mind/session';
import { lastingInstructions } from '../src/rules.js';
import { LogBuilder } from './helpers.js';

const meter = new TokenMeter();
const section = (text: string, h: string) => (new RegExp(`## ${h}\\n([\\s\\S]*?)(?:\\n\\n## |$)`).exec(text)?.[1] ?? '').split('\n').filter((l) => l.startsWith('- '));
const summarize = async (b: LogBuilder, tail: readonly SurfaceNode[] = [], maxTokens = 3000) => (await new ExtractiveSummarizer().summarize({ span: b.log.surface(), tail, maxTokens, meter })).text;

/** A session whose first request (port one selector) is done early, then moves on to the palette's work for several requests. */
function movedOn(lang: 'en' | 'fr'): LogBuilder {
  const say = {
    en: {
      first: 'we still need to port over user-message-selector.ts based on the patterns you find in the other selectors',
      done: 'I have ported `user-message-selector.ts` to the same patterns as the other selectors.',
      later: ['now add palette tokens for the editor border', 'the dark palette is too bright, tone down the grays', 'we need a light palette too, derived from the dark palette', 'write a section on palettes in the README', 'add a file watcher so custom palettes reload live'],
      report: 'Done, the palette changed.',
    },
    fr: {
      first: 'il reste à porter user-message-selector.ts sur le modèle des autres sélecteurs',
      done: "J'ai porté `user-message-selector.ts` sur le modèle des autres sélecteurs.",
      later: ["maintenant ajoute des jetons de palette pour la bordure de l'éditeur", 'la palette sombre est trop vive, adoucis les gris', 'il faut aussi une palette claire, dérivée de la palette sombre', 'écris une section sur les palettes dans le README', 'ajoute un observateur de fichiers pour recharger les palettes personnalisées'],
      report: "C'est fait, la palette est mise à jour.",
    },
  }[lang];
  const b = new LogBuilder();
  b.user(say.first);
  b.tool('Edit', { file_path: '/repo/src/tui/user-message-selector.ts', old_string: 'chalk', new_string: 'theme' }, 'ok');
  b.assistant(say.done);
  say.later.forEach((req, i) => {
    b.user(req);
    b.tool('Edit', { file_path: `/repo/src/palette/${['palette.ts', 'dark.json', 'light.json', 'palette.md', 'palette.ts'][i]}`, old_string: `a${i}`, new_string: `b${i}` }, 'ok');
    b.assistant(say.report);
  });
  return b;
}

describe('the goal as it stands', () => {
  it.each(['en', 'fr'] as const)('a request reported done that later requests moved past is a task; the goal is the work they share (%s)', async (lang) => {
    const t = await summarize(movedOn(lang));
    const goal = section(t, 'Goal');
    expect(goal, t).toHaveLength(1);
    expect(goal[0]).toMatch(/^- The work on the palette\b/);
    expect(goal[0]).toContain('`palette.ts`');
    // the finished request is left to Done, never said as the work to do
    expect(goal[0]).not.toContain('user-message-selector');
    expect(section(t, 'Done').join('\n')).toContain('user-message-selector.ts');
  });

  it('a request still being worked on stays the goal, whatever came after it', async () => {
    const b = new LogBuilder();
    b.user('port the user-message-selector.ts to the palette, like the other selectors');
    for (const ask of ['what do the other selectors use for borders?', 'and for the list items?', 'ok, which colours are left?']) {
      b.user(ask);
      b.assistant('They use the palette border tokens.');
    }
    expect(section(await summarize(b), 'Goal')[0]).toMatch(/user-message-selector\.ts/);
  });
});

describe('constraints that are rules', () => {
  it('an observation whose modal describes the thing it reports on is no rule; a hedged rule still is', () => {
    expect(lastingInstructions("ok, i think the queued messages component doesn't adhere to the invariant that every line returned by render must not be wider than the width. investigate")).toEqual([]);
    expect(lastingInstructions("je pense que le composant de la file ne respecte pas l'invariant selon lequel chaque ligne doit tenir dans la largeur.")).toEqual([]);
    expect(lastingInstructions('i think it must never crash on an invalid theme')).toHaveLength(1);
  });

  it.each([
    ['en', 'what color are the codeblocks using in markdown? should be 8ABeB7'],
    ['en', 'no, the block should stay as is'],
    ['en', 'no, dimGray should be that, no need for linkGray'],
    ['en', "what's footer using? should be dimmer, don't modify the theme, look into the footer sources"],
    ['fr', 'non, le bloc doit rester tel quel'],
    ['fr', 'devrait être plus sombre, regarde le pied de page'],
    ['de', 'Sollte dunkler sein, schau dir die Fußzeile an.'],
    ['es', 'debe ser más oscuro, mira el pie de página'],
  ])('a fragment with no subject of its own is left out (%s: %s)', (_lang, line) => {
    expect(lastingInstructions(line)).toEqual([]);
  });

  it('what a pasted JSON error body says is data, not a rule; what the user wrote around it stays', () => {
    const pasted = 'this results in\n\n Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"messages.236: `tool_use`\n ids were found without `tool_result` blocks. Each\n `tool_use` block must have a corresponding `tool_result` block in the next\n message."},"request_id":"req_1"}\n\nand never inject a message between a tool call and its result.';
    expect(lastingInstructions(pasted)).toEqual(['Never inject a message between a tool call and its result.']);
    const fr = 'ça donne {"type":"error","error":{"message":"chaque bloc doit avoir un résultat juste après"}} : il ne faut jamais insérer de message entre un appel et son résultat.';
    expect(lastingInstructions(fr).join(' ')).not.toContain('chaque bloc');
  });

  it('a rule that names its subject stays, with its value', () => {
    expect(lastingInstructions('markdown code blocks should be #b5bd68')).toEqual(['Markdown code blocks should be #b5bd68.']);
    expect(lastingInstructions('le pied de page doit rester discret')).toHaveLength(1);
  });
});

describe('project rule files read by a tool', () => {
  const agentsMd = ['# Development Rules', '', '- NEVER commit unless the user asks', '- You must NEVER run `npm run dev` yourself', '- Always run `npm run check` after changes', '', 'The build is in dist/.'].join('\n');

  it('AGENTS.md printed by a tool: its rules are Constraints attributed to it, not Findings; an earlier rule it contradicts gives way, a later user rule stands', async () => {
    const b = new LogBuilder();
    b.user('refactor the run modes into one session class. make git commits after major changes');
    b.tool('Read', { file_path: '/repo/AGENTS.md' }, agentsMd);
    b.assistant('I read AGENTS.md.');
    b.user('port the rpc mode first, and always keep the e2e tests green');
    const t = await summarize(b);
    const rules = section(t, 'Constraints and preferences');
    expect(rules).toContain('- AGENTS.md: NEVER commit unless the user asks.');
    expect(rules.join('\n')).toContain('AGENTS.md: You must NEVER run `npm run dev` yourself.');
    // said before the file was read, and contradicted by it
    expect(rules.join('\n'), t).not.toMatch(/git commits after major changes/i);
    // said after: the user's later word
    expect(rules.join('\n')).toMatch(/keep the e2e tests green/i);
    expect(section(t, 'Findings').join('\n')).not.toContain('AGENTS.md');
  });

  it('a rule file found by its content, in German: imperative lines make it the project\'s rules', async () => {
    const b = new LogBuilder();
    b.user('Baue den Dienstplan-Export nach CSV, die Spalten wie im Beispiel.');
    b.tool('Bash', { command: 'cat docs/regeln.md' }, ['# Regeln', '- Niemals direkt auf main pushen.', '- Tests müssen vor jedem Commit grün sein.', '- Verwende immer pnpm statt npm.', '- Keine neuen Abhängigkeiten ohne Rückfrage hinzufügen, bitte nicht.', '- Kommentare sollen auf Deutsch sein.'].join('\n'));
    b.assistant('Ich habe die Regeln gelesen.');
    const t = await summarize(b);
    const rules = section(t, 'Constraints and preferences').join('\n');
    expect(rules, t).toMatch(/regeln\.md: Niemals direkt auf main pushen\./);
    expect(section(t, 'Findings').join('\n')).not.toContain('regeln.md');
  });
});

describe('the next step', () => {
  it.each([
    ['en', 'ok, we are ready for a release. read the README, it says how', 'It is a minor release, I suggest 0.8.0. Or do you want a patch release?', 'minor, this is a big change'],
    ['ja', 'リリースの準備ができた。README を読んで手順を確認して', 'マイナーリリース 0.8.0 を提案します。パッチリリースにしますか？', 'マイナーで。大きい変更なので'],
  ])('a short answer to the agent\'s question is not the newest request (%s)', async (_lang, request, question, answer) => {
    const span = new LogBuilder();
    span.user('add a release script to package.json that bumps the version');
    span.tool('Edit', { file_path: '/repo/package.json', old_string: 'a', new_string: 'b' }, 'ok');
    span.assistant('Added the release script.');
    const tail = new LogBuilder('tail');
    tail.user(request);
    tail.assistant(question);
    tail.user(answer);
    const t = await summarize(span, tail.log.surface());
    const next = section(t, 'Next step');
    expect(next).toHaveLength(1);
    expect(next[0]).toContain(request.split(/[.。]/)[0]!);
    expect(next[0]).toContain(`then answered the agent's question`);
    expect(next[0]).toContain(answer);
  });
});
