import { describe, it, expect, beforeAll, beforeEach, afterEach } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Mind, MindError, SCHEMA_VERSION, analyzeQuery, indexText } from '@hive-mind/mind';
import { emojiToken } from '../src/recall/analyze.js';
import { tmp, ensureBuilt, runNode, CLI_BIN } from './helpers.js';

let t: ReturnType<typeof tmp>;
let path: string;
beforeAll(() => ensureBuilt('cli'), 300_000);
beforeEach(() => {
  t = tmp('hm-emoji-');
  path = join(t.dir, 'e.mind');
});
afterEach(() => t.cleanup());

const FRAMES = ['Loves yoga 🧘‍♀️ every morning', 'family 👨‍👩‍👧 trip to Kyoto in May', 'pride 🏳️‍🌈 parade on Saturday', 'the build uses pnpm'];

describe('emoji are searchable (unicode61 drops them; analyze.ts indexes their tokens)', () => {
  it('each ZWJ sequence finds its frame, with or without U+FE0F; a part finds the sequence', () => {
    const m = Mind.open(path);
    const ids = FRAMES.map((c) => m.save({ content: c }).id);
    expect(m.search('🧘‍♀️').map((h) => h.id)).toEqual([ids[0]]);
    expect(m.search('👨‍👩‍👧').map((h) => h.id)).toEqual([ids[1]]);
    expect(m.search('🏳️‍🌈').map((h) => h.id)).toEqual([ids[2]]);
    expect(m.search('🏳\u200D🌈').map((h) => h.id)).toEqual([ids[2]]); // typed without the variation selector
    expect(m.search('🌈').map((h) => h.id)).toEqual([ids[2]]); // a part of the sequence
    expect(m.search('🧘').map((h) => h.id)).toEqual([ids[0]]);
    expect(m.search('yoga 🧘‍♀️').map((h) => h.id)).toEqual([ids[0]]);
    // the emoji is not in another frame: nothing, rather than every frame
    expect(m.search('🎸')).toEqual([]);
    m.close();
  });

  it('a query of symbols only (no word, no emoji) is EMPTY_QUERY, whatever its selectors', () => {
    const m = Mind.open(path);
    m.save({ content: FRAMES[0]! });
    for (const q of ['→ %%', '\uFE0F', '\u200D\uFE0F', '—']) {
      expect(analyzeQuery(q).words, JSON.stringify(q)).toEqual([]);
      expect(() => m.search(q), JSON.stringify(q)).toThrow(MindError);
    }
    m.close();
  });

  it('tokens: letters and digits only, selectors and joiners left out, skin tones kept on the whole', () => {
    expect(emojiToken('🧘‍♀️')).toBe('emo1f9d8x2640');
    expect(emojiToken('❤️')).toBe(emojiToken('❤'));
    expect(indexText('ok 👍🏽')).toBe('ok 👍🏽 emo1f44dx1f3fd emo1f44d');
    expect(indexText('🇯🇵 trip')).toBe('🇯🇵 trip emo1f1efx1f1f5');
    expect(indexText('the build uses pnpm')).toBeNull(); // no emoji, no CJK: unicode61 reads content
    expect(indexText('日本語 🏳️‍🌈')).toBe('日本語 emo1f3f3x1f308 emo1f3f3 emo1f308');
  });

  it('a v6 file: only the frames holding emoji are re-indexed by the v7 migration, and become searchable', () => {
    const m = Mind.open(path);
    const ids = FRAMES.map((c) => m.save({ content: c }).id);
    m.save({ content: '日本語のメモ: ビルドは pnpm' });
    m.close();
    // as v6 left it: no emoji tokens (search_text only for CJK)
    let db = new Database(path);
    db.prepare('UPDATE frames SET search_text = NULL WHERE id IN (?, ?, ?)').run(ids[0], ids[1], ids[2]);
    db.pragma('user_version = 6');
    const before = db.prepare('SELECT id, search_text FROM frames ORDER BY id').all();
    db.close();
    const m2 = Mind.open(path);
    expect(m2.schemaVersion).toBe(SCHEMA_VERSION);
    expect(m2.search('👨‍👩‍👧').map((h) => h.id)).toEqual([ids[1]]);
    expect(m2.search('日本語')).toHaveLength(1);
    m2.close();
    db = new Database(path);
    const after = db.prepare('SELECT id, search_text FROM frames ORDER BY id').all() as Array<{ id: number; search_text: string | null }>;
    db.close();
    const changed = after.filter((r, i) => r.search_text !== (before[i] as { search_text: string | null }).search_text).map((r) => r.id);
    expect(changed).toEqual([ids[0], ids[1], ids[2]]);
  });

  it('the CLI: `mind search` of each emoji answers with its frame (exit 0), a symbol-only query exits 2', async () => {
    const env = { HIVE_MIND_HOME: t.dir };
    for (const c of FRAMES) expect((await runNode([CLI_BIN, 'mind', 'save', c], { env, cwd: t.dir })).code).toBe(0);
    for (const [q, want] of [['🧘‍♀️', 'yoga'], ['👨‍👩‍👧', 'Kyoto'], ['🏳️‍🌈', 'parade']] as const) {
      const r = await runNode([CLI_BIN, 'mind', 'search', q, '--json'], { env, cwd: t.dir });
      expect(r.code, r.stderr).toBe(0);
      const hits = (JSON.parse(r.stdout) as { results: Array<{ content: string }> }).results;
      expect(hits.map((h) => h.content.includes(want))).toEqual([true]);
    }
    const sym = await runNode([CLI_BIN, 'mind', 'search', '→'], { env, cwd: t.dir });
    expect(sym.code).toBe(2);
    expect(sym.stderr).toContain('search query is empty');
  });
});
