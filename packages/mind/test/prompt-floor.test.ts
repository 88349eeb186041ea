/**
 * The per-prompt floor (prompt-floor.ts) in the languages the mind analyzes: a prompt about a stored
 * fact gets it, a prompt about nothing stored, or of task words only, gets nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Mind, topicWords } from '@hive-mind/mind';
import { tmp } from './helpers.js';

let t: ReturnType<typeof tmp>;
beforeEach(() => (t = tmp('hm-floor-')));
afterEach(() => t.cleanup());

const FACTS = [
  'ステージングのAPIはポート 8443 で動いています。',
  'ビルドは必ず pnpm を使ってください。',
  'データベースは postgres 16 です。',
  '스테이징 API 서버는 포트 8443 에서 실행됩니다.',
  'Die Staging-Datenbank läuft auf db-staging.internal:5432.',
  'database is postgres 16',
  'Deploys run from the deploy/ folder with helm',
];

describe('per-prompt floor', () => {
  it.each([
    ['ステージングのAPIのポートは何番ですか？', FACTS[0]],
    ['データベースのバージョンは？', FACTS[2]],
    ['스테이징 API 포트가 뭐예요?', FACTS[3]],
    ['Wo läuft die Staging-Datenbank?', FACTS[4]],
    ['which database version do we use?', FACTS[5]],
  ])('%s brings back its fact first', (prompt, fact) => {
    const m = Mind.open(join(t.dir, 'x.mind'));
    for (const content of FACTS) m.save({ content });
    const r = m.recall({ query: prompt, budgetTokens: 300, promptFloor: true, header: false });
    m.close();
    expect(r.frames[0]?.content).toBe(fact);
    expect(r.frames.length).toBeLessThanOrEqual(3);
  });

  it.each(['今日はいい天気ですね', 'もう一度実行して', 'run it again', 'thanks, looks good', 'fix the typo in this file'])('%s gets nothing', (prompt) => {
    const m = Mind.open(join(t.dir, 'x.mind'));
    for (const content of FACTS) m.save({ content });
    let frames: unknown[] = [];
    try {
      frames = m.recall({ query: prompt, budgetTokens: 300, promptFloor: true }).frames;
    } catch (e) {
      expect((e as { code?: string }).code).toBe('EMPTY_QUERY');
    }
    m.close();
    expect(frames).toEqual([]);
  });

  it('topic words drop stop words and task words, keep the subject', () => {
    expect(topicWords('which database version do we use?')).toEqual(['database', 'version']);
    expect(topicWords('run it again')).toEqual([]);
  });
});

describe('per-prompt floor and conversation context', () => {
  it("a frame's share of the topic words counts its own text, not the neighbours' text the index holds beside it", () => {
    const m = Mind.open(join(t.dir, 'ctx.mind'));
    m.save({ content: 'The footer turns yellow above 70%', sessionId: 's1', host: 'pi', turnId: 't1' });
    m.save({ content: 'Deploys run with helm', sessionId: 's1', host: 'pi', turnId: 't2' });
    // "helm" is the second frame's own word; "footer" and "yellow" only its neighbour's
    const r = m.recall({ query: 'helm footer yellow', budgetTokens: 300, promptFloor: true });
    m.close();
    expect(r.frames.map((f) => f.content)).toEqual(['The footer turns yellow above 70%']);
  });
});

describe('the cosine floor setting', () => {
  it('HIVE_MIND_PROMPT_MIN_COSINE defaults to PROMPT_MIN_COSINE; a bad value is a problem naming it, and the default is used', async () => {
    const { ENV_SETTINGS, envNumber, envProblems, PROMPT_MIN_COSINE } = await import('@hive-mind/mind');
    expect(ENV_SETTINGS.find((s) => s.name === 'HIVE_MIND_PROMPT_MIN_COSINE')!.def).toBe(PROMPT_MIN_COSINE);
    expect(envNumber({}, 'HIVE_MIND_PROMPT_MIN_COSINE')).toBe(PROMPT_MIN_COSINE);
    expect(envNumber({ HIVE_MIND_PROMPT_MIN_COSINE: '0.62' }, 'HIVE_MIND_PROMPT_MIN_COSINE')).toBe(0.62);
    expect(envNumber({ HIVE_MIND_PROMPT_MIN_COSINE: 'high' }, 'HIVE_MIND_PROMPT_MIN_COSINE')).toBe(PROMPT_MIN_COSINE);
    expect(envProblems({ HIVE_MIND_PROMPT_MIN_COSINE: '1.5' })[0]).toMatchObject({ name: 'HIVE_MIND_PROMPT_MIN_COSINE', problem: expect.stringMatching(/must be a number from -1 to 1/) });
    expect(envNumber({ HIVE_MIND_PROMPT_EMBED_TIMEOUT_MS: '250' }, 'HIVE_MIND_PROMPT_EMBED_TIMEOUT_MS')).toBe(250);
  });
});
