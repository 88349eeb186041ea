import { describe, expect, it } from 'vitest';
import { blockText } from '@hive-mind/session';
import { BasicCompactionEngine, TokenMeter } from '../src/index.js';
import { LogBuilder } from './helpers.js';

/**
 * The checkpoint's room follows what the span holds: when the verbatim tail takes all of
 * `retainTokens`, the default 15% share is too little for a span of facts in a script that costs
 * more tokens a character (Japanese), so the checkpoint may grow into the headroom the tail
 * leaves (up to `targetRatio` of the budget); a short span's checkpoint stays short.
 */
function japaneseSession(): LogBuilder {
  const b = new LogBuilder('ja-room');
  b.user('毎朝、雨が降りそうなら LINE に通知するスクリプトを作って。リポジトリは ~/dev/kasa-bot。');
  const facts = [
    ['config.toml', 'しきい値は threshold = 50（降水確率 50% 以上で通知）とすることにします。'],
    ['ame/fetch.py', '予報は bosai/forecast/data/forecast/130000.json から取ることにします。'],
    ['ame/area.py', '東京地方は area.code 130010 で探す（配列の位置では探さない）ことにします。'],
    ['ame/pops.py', 'timeSeries[1] の pops が 6 時間ごとの降水確率で、空文字は除外することにします。'],
    ['ame/line.py', 'トークンは環境変数 KASA_CHANNEL_TOKEN から読み、リポジトリには入れないことにします。'],
  ] as const;
  for (const [file, fact] of facts) {
    b.tool('write_file', { path: `/home/u/dev/kasa-bot/${file}`, content: 'x = 1\n' }, '書き込みました。', false, fact);
    b.user('了解。次へ進んで。');
    b.tool('terminal', { command: `python -m pytest -q tests/test_${file.split('/').pop()!.replace('.', '_')}` }, '.'.repeat(40) + '\n' + 'ログ：テストを実行しました。'.repeat(70) + '\n1 passed in 0.10s');
  }
  // the newest exchange is long: the verbatim tail takes all of retainTokens
  b.user('次は、週末（土日）は 8 時に通知するようにして。' + '理由：週末は起きるのが遅いから。'.repeat(12));
  b.assistant('週末の通知時刻を 8 時にします。' + 'deploy/kasa.timer の OnCalendar を平日と週末に分けます。'.repeat(70));
  return b;
}

describe('the checkpoint room', () => {
  it('the built session is larger than the budget', () => expect(new TokenMeter().countEvents(japaneseSession().log.surface())).toBeGreaterThan(5000));

  it('grows into the headroom the tail leaves when the span holds more than the default share', async () => {
    const b = japaneseSession();
    const meter = new TokenMeter();
    const budget = 2400;
    const e = new BasicCompactionEngine({ budget, retainTokens: Math.floor(budget / 2), meter });
    const r = await e.compactNow(b.log);
    expect(r.compacted).toBe(true);
    const ck = blockText(r.summary![0]!);
    // the default share (15% of the budget) could not hold these
    expect(r.summaryTokens!).toBeGreaterThan(e.config.summaryMaxTokens);
    for (const fact of ['130000.json', '130010', 'KASA_CHANNEL_TOKEN', 'threshold']) expect(ck).toContain(fact);
    // ... and the pass still lands within the headroom target
    expect(r.tokensAfter).toBeLessThanOrEqual(e.surfaceTarget());
  });

  it('keeps a given summaryMaxTokens as the bound', async () => {
    const b = japaneseSession();
    const meter = new TokenMeter();
    const budget = 2400;
    const cap = 300;
    const e = new BasicCompactionEngine({ budget, retainTokens: Math.floor(budget / 2), summaryMaxTokens: cap, meter });
    const r = await e.compactNow(b.log);
    expect(r.summaryTokens!).toBeLessThanOrEqual(cap);
  });
});
