// Issue 22, second pass: what the last checkpoints missed, pinned on built sessions. A rule
// that rules something out keeps what replaces it (said in the same message, named in code form);
// the user stating the value of a named thing is a rule, and it replaces the earlier rule on that thing.
import { describe, expect, it } from 'vitest';
import { ExtractiveSummarizer, TokenMeter } from '@hive-mind/compaction';
import type { SurfaceNode } from '@hive-mind/session';
import { isRuleSentence, lastingInstructions, latestRules } from '../src/rules.js';
import { reportFindings } from '../src/subagents.js';
import { LogBuilder } from './helpers.js';

const meter = new TokenMeter();
const section = (text: string, h: string) => (new RegExp(`## ${h}\\n([\\s\\S]*?)(?:\\n\\n## |$)`).exec(text)?.[1] ?? '').split('\n').filter((l) => l.startsWith('- '));
const summarize = async (b: LogBuilder, tail: readonly SurfaceNode[] = [], maxTokens = 3000) => (await new ExtractiveSummarizer().summarize({ span: b.log.surface(), tail, maxTokens, meter })).text;

describe('a rule that rules something out keeps what replaces it', () => {
  it('joins the sentence naming the replacement, past the reason between them, in any language', () => {
    expect(lastingInstructions('Redis は使わない。サーバーに Redis なんてないし、依存も増やしたくない。キャッシュはファイル（~/.cache/ame-tsuuchi/forecast.json）で十分。それと通知時刻は朝 7 時じゃなくて 6 時半に変更。')[0]).toBe(
      'Redis は使わない。 キャッシュはファイル（~/.cache/ame-tsuuchi/forecast.json）で十分。',
    );
    const en = lastingInstructions("Don't use Redis. There is no Redis on the server and I don't want more dependencies. A file cache in ~/.cache/app/forecast.json is enough. Also move the notification to 6:30.");
    expect(en[0]).toBe("Don't use Redis. A file cache in ~/.cache/app/forecast.json is enough.");
    // the replacement is said once, with the first rule it follows
    expect(en.filter((r) => r.includes('forecast.json'))).toHaveLength(1);
    expect(lastingInstructions("N'utilise pas Redis. Il n'y a pas de Redis sur le serveur. Un cache fichier dans ~/.cache/app/forecast.json suffit.")[0]).toBe(
      "N'utilise pas Redis. Un cache fichier dans ~/.cache/app/forecast.json suffit.",
    );
  });

  it('a sentence naming no code, or a question, is not taken as the replacement', () => {
    expect(lastingInstructions("Don't use Redis. It is overkill for this. What else could we use?").join(" ")).not.toContain("What else");
    expect(lastingInstructions("Never push to main. Is ~/.gitconfig set up? Also keep the tests green.").join(' ')).not.toContain('gitconfig');
  });

  it('the checkpoint states the rule with its replacement', async () => {
    const b = new LogBuilder();
    b.user('毎朝、雨が降りそうなら LINE に通知するスクリプトを作って。');
    b.tool('write_file', { path: '/home/yuki/dev/ame/ame/cache.py', content: 'import redis\n' }, 'wrote ame/cache.py');
    b.assistant('同じ予報を何度も取りに行かないよう、Redis に 30 分キャッシュします。');
    b.user('Redis は使わない。サーバーに Redis なんてないし、依存も増やしたくない。キャッシュはファイル（~/.cache/ame/forecast.json）で十分。');
    b.assistant('了解です。Redis はやめて、ファイルキャッシュにします。');
    const rules = section(await summarize(b), 'Constraints and preferences').join('\n');
    expect(rules).toContain('Redis は使わない。 キャッシュはファイル（~/.cache/ame/forecast.json）で十分。');
  });
});

describe('the user stating a value for a named thing', () => {
  it('is a rule, the value first or the thing first, in any language; a bare number or hex word is not', () => {
    expect(isRuleSentence('81a2be is what link text is in md in old pi.')).toBe(true);
    expect(isRuleSentence('The link text is #81a2be.')).toBe(true);
    expect(isRuleSentence('Le texte des liens est 81a2be.')).toBe(true);
    expect(isRuleSentence('Der Linktext ist #81a2be.')).toBe(true);
    expect(isRuleSentence('42 is what I got.')).toBe(false);
    expect(isRuleSentence('deadbeef is what it printed')).toBe(false);
  });

  it('replaces the earlier rule on that thing, sentence by sentence; a later rule with no value adds to it', () => {
    const rules = latestRules([
      { text: 'Bullet in markdown should be same as in line code in markdown. Link text should be same as accent.', seq: 1 },
      { text: '81a2be is what link text is in md in old pi. 8abeb7 is what bullet is in old pi.', seq: 2 },
      { text: 'We have link text and link url, they are different in old pi.', seq: 3 },
    ]).map((r) => r.text);
    expect(rules.join('\n')).not.toMatch(/same as accent|same as in line code/);
    expect(rules.join('\n')).toMatch(/81a2be is what link text is/);
    expect(rules.join('\n')).toMatch(/link url, they are different/);
    // only the sentence a later one replaces goes
    const partly = latestRules([
      { text: 'Link text should be same as accent. Never touch the theme files.', seq: 1 },
      { text: 'The link text is #81a2be.', seq: 2 },
    ]).map((r) => r.text);
    expect(partly).toEqual(['Never touch the theme files.', 'The link text is #81a2be (changed).']);
    const fr = latestRules([
      { text: "Le texte des liens doit être comme l'accent. Ne touche pas aux fichiers de thème.", seq: 1 },
      { text: 'Le texte des liens est 81a2be.', seq: 2 },
    ]).map((r) => r.text);
    expect(fr).toEqual(['Ne touche pas aux fichiers de thème.', 'Le texte des liens est 81a2be (changed).']);
    // a rule on another thing that happens to name it stays
    expect(latestRules([{ text: 'Never change the timeout of the login page.', seq: 1 }, { text: 'The timeout is 30 seconds.', seq: 2 }])).toHaveLength(2);
  });

  it('the checkpoint keeps the value the user stated, not the rule it replaced', async () => {
    const b = new LogBuilder();
    b.user('port the markdown theme colors from old pi.');
    b.assistant('Done: `mdLink` now uses `accent`.');
    b.user('link text should be same as accent.');
    b.tool('edit', { path: '/repo/src/theme.json', oldText: '"mdLink": "dimGray"', newText: '"mdLink": "accent"' }, 'ok');
    b.assistant('Done: `mdLink` is `accent` now.');
    b.user('81a2be is what link text is in md in old pi.');
    b.tool('edit', { path: '/repo/src/theme.json', oldText: '"mdLink": "accent"', newText: '"mdLink": "#81a2be"' }, 'ok');
    b.assistant('Fixed: `mdLink` is `#81a2be`.');
    const rules = section(await summarize(b), 'Constraints and preferences').join('\n');
    expect(rules).toContain('81a2be is what link text is');
    expect(rules).not.toMatch(/same as accent/i);
  });
});

describe('a report of finished work that introduces a list', () => {
  it('keeps the first point of its list, past a bold label, in any language', async () => {
    for (const [lang, intro, label, point] of [
      ['en', 'Perfect! Now the theme system has live reload:', '**How it works:**', '1. When a custom theme is selected, `startThemeWatcher()` sets up an `fs.watch()` on the theme file'],
      ['fr', 'Le rechargement à chaud est terminé :', '**Fonctionnement :**', "1. Quand un thème personnalisé est choisi, `startThemeWatcher()` pose un `fs.watch()` sur son fichier"],
    ] as const) {
      const b = new LogBuilder();
      b.user('add live reload for custom themes');
      b.tool('edit', { path: '/repo/src/theme.ts', oldText: 'a', newText: 'b' }, 'ok');
      b.assistant(`${intro}\n\n${label}\n${point}\n2. The renderer invalidates all components`);
      const doneItems = section(await summarize(b), 'Done').join('\n');
      expect(doneItems, lang).toContain('`fs.watch()`');
      expect(doneItems, lang).not.toMatch(/\*\*/);
    }
  });

  it('a state with errors is no finished work', async () => {
    const b = new LogBuilder();
    b.user('build it');
    b.assistant('Now the build has 3 errors:\n\n1. `src/a.ts` misses an import of the theme module');
    expect(section(await summarize(b), 'Done')).toEqual([]);
  });
});

describe('an open plan item the verbatim tail rules out', () => {
  const todo = (items: Array<[string, string]>) => ({ todos: items.map(([content, status]) => ({ content, status, activeForm: content })) });
  it('leaves In progress when a short clause of the tail rules out what it names, in any language; a deferral or a longer request keeps it', async () => {
    for (const [lang, item, said, kept] of [
      ['en', 'Per-tenant daily request limit', 'no daily limit. I never asked for that, only the cooldown.', true],
      ['fr', 'Limite quotidienne par locataire', 'pas de limite quotidienne, je ne l’ai jamais demandée.', true],
      ['en', 'Per-tenant daily request limit', "don't do the daily limit yet, first the cooldown.", false],
      ['en', 'Per-tenant daily request limit', 'no, finish the daily limit first.', false],
    ] as const) {
      const b = new LogBuilder();
      b.user('add a cooldown on the request button, enforced on the server');
      b.tool('TodoWrite', todo([['Server-side cooldown', 'in_progress'], [item, 'pending']]), 'ok');
      b.assistant('The cooldown check is in place; a daily limit comes next.');
      const tail = new LogBuilder();
      tail.user(said);
      const prog = section(await summarize(b, tail.log.surface()), 'In progress').join('\n');
      expect(prog, `${lang}: ${said}`).toContain('Server-side cooldown');
      if (kept) expect(prog, `${lang}: ${said}`).not.toContain(item);
      else expect(prog, `${lang}: ${said}`).toContain(item);
    }
  });
});

describe("a sub-agent report's sentences, chosen by the specifics they carry", () => {
  const task = 'Read docs/openapi.yaml and report how to get the delay of line 42 at stop 1187: parameters, response fields, units, rate limits, auth.';
  it('the short form keeps the sentences naming most code-form names, their asides without one left out, in any language', () => {
    for (const [lang, report] of [
      [
        'en',
        'How to get the delay of line 42 at stop 1187 (from docs/openapi.yaml):\n\n- Endpoint: GET {api.base}/realtime/trips?stop=1187&line=42 (both query parameters optional; without line you get every line at the stop).\n- Auth: header `X-Api-Key: <key>`; the key comes from TRANSIT_API_KEY (config.yaml api.key_env).\n- Units: delay_seconds is an integer number of seconds (not minutes; there is no field named delay).\n- Rate limit: 100 requests per day per key; the realtime data refreshes every 30 s server side.',
      ],
      [
        'de',
        'So bekommt man die Verspätung der Linie 42 an der Haltestelle 1187 (aus docs/openapi.yaml):\n\n- Endpunkt: GET {api.base}/realtime/trips?stop=1187&line=42 (beide Parameter optional; ohne line kommen alle Linien der Haltestelle).\n- Authentifizierung: Header `X-Api-Key: <key>`; der Schlüssel kommt aus TRANSIT_API_KEY (config.yaml api.key_env).\n- Einheiten: delay_seconds ist eine ganze Zahl in Sekunden (nicht Minuten; ein Feld delay gibt es nicht).\n- Ratenlimit: 100 Anfragen pro Tag und Schlüssel; die Echtzeitdaten werden alle 30 s erneuert.',
      ],
    ] as const) {
      const short = reportFindings(report, 160, task);
      expect(short, lang).toContain('X-Api-Key');
      // the next by its specifics when it fits (the German sentences are longer: the endpoint's, which shares the task's words, comes first there)
      if (lang === 'en') expect(short, lang).toContain('delay_seconds');
      expect(short.length, lang).toBeLessThanOrEqual(160);
      expect(short, lang).not.toMatch(/not minutes|nicht Minuten|both query|beide Parameter/);
      // the long form keeps the asides
      expect(reportFindings(report, 420, task), lang).toMatch(/not minutes|nicht Minuten/);
    }
  });
});
