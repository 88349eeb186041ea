// The checkpoint states the state as it stands, read by structure, in six languages: the same
// small session (test/sessions/reflex-game.ts) in English, French, Spanish, German, Japanese and
// Korean keeps its goal (not the "give me a plan" part), the rule in its final form with what
// changed, the user's correction of the agent with what is now true, the rejected change once,
// the decision, the error and its fix, and Done as the end state (the last test count, the
// last commit).
import { describe, expect, it } from 'vitest';
import { ExtractiveSummarizer, TokenMeter } from '@hive-mind/compaction';
import { PHRASEBOOKS, reflexGameSession } from './sessions/reflex-game.js';

const meter = new TokenMeter();
const section = (text: string, h: string) => (new RegExp(`## ${h}\\n([\\s\\S]*?)(?:\\n\\n## |$)`).exec(text)?.[1] ?? '').split('\n').filter((l) => l.startsWith('- '));

describe.each(PHRASEBOOKS)('a session in $lang', (p) => {
  it('keeps the goal, the rules and corrections as they stand, the rejection once, the decision and Done as the end state', async () => {
    const b = reflexGameSession(p);
    const t = (await new ExtractiveSummarizer().summarize({ span: b.log.surface(), tail: [], maxTokens: 3000, meter })).text;
    const goal = section(t, 'Goal');
    expect(goal, t).toHaveLength(1);
    expect(goal[0]).toContain(p.gameWord);
    expect(goal[0]).toContain('pygame');
    expect(goal[0], 'the "give me a plan" part is how to answer, not the goal').not.toContain(p.planWord);

    const rules = section(t, 'Constraints and preferences').join('\n');
    // the rule in its final form, marked as changed; the old value is nowhere in Constraints
    expect(rules).toMatch(/3\s?(?:seconds|secondes|segundos|Sekunden|秒|초)/);
    expect(rules).toContain('(changed)');
    expect(section(t, 'Constraints and preferences').filter((l) => /\b10\b|10秒|10초/.test(l))).toEqual([]);
    // the correction, with what is now true and what the agent had claimed
    const correction = section(t, 'Constraints and preferences').find((l) => l.includes('Correction by the user'));
    expect(correction, rules).toBeDefined();
    expect(correction).toContain('2.6.1');
    expect(correction).toContain('3.13');
    // what it corrects, by subject: the refuted claim is not restated for the resumed agent to repeat
    expect(correction).toMatch(/^- Correction by the user, agreed by the agent: .*\(the agent was wrong about .*3\.13.*\)\.$/);
    expect(t).not.toContain(p.claim.replace(/\.$/, ''));

    const rejected = section(t, 'Rejected or reverted');
    expect(rejected.filter((l) => l.includes('ui.py')), t).toHaveLength(1);
    expect(t.match(new RegExp(p.reject.slice(0, 12).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g')) ?? []).toHaveLength(1);

    expect(section(t, 'Decisions').join('\n'), t).toContain('pygame.time.Clock');
    expect(section(t, 'Errors and fixes').join('\n')).toMatch(/AssertionError.*fixed by changing `tests\/test_cooldown\.py`/);

    const done = section(t, 'Done').join('\n');
    expect(done).toContain('14');
    expect(done, 'an older test count is a snapshot, not the end state').not.toMatch(/\b12\b/);
    expect(done).toContain('First cooldown 3 s');
    expect(section(t, 'Next step')).toHaveLength(1);
  });
});
