// 日本語、OpenAI のメッセージ配列：先頭は pi のコンパクション要約（pi が LLM に送る形：
// 「The conversation history before this point was compacted…」と <summary>）。その後、通知時刻の
// 変更（7時→6時半）、エージェントが入れた Redis をユーザーが却下、認めた訂正（気象庁の JSON は
// ある）、pytest の失敗から成功、コミット、サブエージェントの結果と中断された1件、シェル初期化
// エラー、大きな出力（pip list、env）と大きく有用な結果（予報 JSON）。
import { Script, pathList, configDump } from '../build/script.mjs';
import { PI_SUMMARY_PREFIX, PI_SUMMARY_SUFFIX } from '../build/hosts.mjs';

const P = '/home/yuki/dev/ame-tsuuchi';
const INIT = 'bash: /home/yuki/.pyenv/bin/pyenv: そのようなファイルやディレクトリはありません';
const bash = (command, out, opts = {}) => ({ name: 'bash', input: { command }, output: `${INIT}\n${out}`, ...opts });

export function build() {
  const s = new Script({ id: 'ja-openai-ame-tsuuchi', seed: 71, cwd: P, start: '2026-11-30T21:10:00.000Z', model: 'claude-sonnet-4-5' });
  s.user(`${PI_SUMMARY_PREFIX}${PI_SUMMARY}${PI_SUMMARY_SUFFIX}`);
  s.user('続けて。まず今の状態を確認して');
  s.tools([bash('cd ~/dev/ame-tsuuchi && git status --short && git log --oneline -3 && python -m pytest -q 2>&1 | tail -2', ' M ame/kishou.py\n?? ame/cache.py\n5c8e2a0 LINE Notify の代わりに Messaging API の push で送る\n0b7f3d1 設定を config.toml に\n8e1a4c6 初期コミット\n9 passed in 0.31s')]);
  s.say('`ame/kishou.py` が変更中、`ame/cache.py` が未追跡です。テストは 9 件すべて成功。次は気象庁の予報取得です。');
  s.say('気象庁は JSON の API を公開していないので、予報ページの HTML を解析する必要があります。');
  s.user('違う。気象庁は JSON を出してる。https://www.jma.go.jp/bosai/forecast/data/forecast/130000.json を見て。HTML の解析はしないで。');
  s.say('ご指摘のとおりです、私の誤りでした。`bosai/forecast/data/forecast/130000.json`（東京都）が公式の JSON です。HTML 解析はやめて、この JSON を読みます。');
  s.tools([bash('curl -s https://www.jma.go.jp/bosai/forecast/data/forecast/130000.json | python -m json.tool | head -120', FORECAST_JSON)]);
  s.tools([{ name: 'delegate', input: { task: '130000.json の構造を調べて、東京地方（130010）の降水確率を 6 時間ごとに取り出す方法と、時刻のタイムゾーン、更新時刻を報告して。' }, output: JSON.stringify({ status: 'completed', summary: SUBAGENT }) }, { name: 'delegate', input: { task: 'LINE Messaging API の月間送信数の上限を調べて。' }, output: JSON.stringify({ status: 'interrupted', summary: '', error: 'interrupted by the user' }) }], '構造の調査をサブエージェントに任せます（LINE の送信上限の調査も並行で）。');
  s.tools([{ name: 'write_file', input: { path: 'ame/kishou.py', content: KISHOU_PY }, output: 'wrote ame/kishou.py (1402 bytes)' }]);
  s.tools([{ name: 'write_file', input: { path: 'ame/cache.py', content: CACHE_REDIS }, output: 'wrote ame/cache.py (512 bytes)' }], '同じ予報を何度も取りに行かないよう、Redis に 30 分キャッシュします。');
  s.tools([bash('pip install redis && python -m pytest -q 2>&1 | tail -12', PYTEST_FAIL, { error: true })]);
  s.user('Redis は使わない。サーバーに Redis なんてないし、依存も増やしたくない。キャッシュはファイル（~/.cache/ame-tsuuchi/forecast.json）で十分。それと通知時刻は朝 7 時じゃなくて 6 時半に変更。7 時だと家を出た後になる。');
  s.say('了解です。Redis はやめて、`~/.cache/ame-tsuuchi/forecast.json` にファイルキャッシュします（30 分有効）。通知は毎朝 6 時半に変更します。');
  s.tools([bash('pip uninstall -y redis && pip list 2>/dev/null | head -200', pathList(72, 'site-packages', 70))]);
  s.tools([{ name: 'write_file', input: { path: 'ame/cache.py', content: CACHE_FILE }, output: 'wrote ame/cache.py (688 bytes)' }]);
  s.tools([{ name: 'edit_file', input: { path: 'config.toml', old: 'notify_at = "07:00"', new: 'notify_at = "06:30"' }, output: 'edited config.toml (1 replacement)' }]);
  s.tools([{ name: 'edit_file', input: { path: 'deploy/ame.timer', old: 'OnCalendar=*-*-* 07:00:00', new: 'OnCalendar=*-*-* 06:30:00' }, output: 'edited deploy/ame.timer (1 replacement)' }]);
  s.tools([bash('python -m pytest -q 2>&1 | tail -6', 'FAILED tests/test_cache.py::test_expires_after_30_minutes - FileNotFoundError: [Errno 2] No such file or directory: \'/tmp/pytest-of-yuki/pytest-3/cache/forecast.json\'\n1 failed, 11 passed in 0.42s', { error: true })]);
  s.tools([{ name: 'edit_file', input: { path: 'ame/cache.py', old: '    path.write_text(json.dumps(data))', new: '    path.parent.mkdir(parents=True, exist_ok=True)\n    path.write_text(json.dumps(data))' }, output: 'edited ame/cache.py (1 replacement)' }]);
  s.tools([bash('python -m pytest -q 2>&1 | tail -2', '............                                                             [100%]\n12 passed in 0.37s')]);
  s.tools([bash('env | sort | head -120', configDump(73, 80, '', ['LANG=ja_JP.UTF-8', 'TZ=Asia/Tokyo']))]);
  s.tools([bash('python -m ame --dry-run', '[dry-run] 2026-12-01 06:30 JST 東京地方 降水確率 06-12時 20% 12-18時 60% 18-24時 50% → 通知: 「今日は傘を持って行って（最大 60%）」')]);
  s.tools([bash('git add -A && git commit -qm "気象庁 JSON から降水確率、ファイルキャッシュ、通知は 6:30" && git log --oneline -1', 'a41d9b7 気象庁 JSON から降水確率、ファイルキャッシュ、通知は 6:30')]);
  s.say('コミット `a41d9b7`：テスト 12 件成功。降水確率が 50% 以上の時間帯があれば、毎朝 6 時半に LINE に通知します（dry-run では 12-18時 60% で通知）。');
  s.user('いいね。次は、週末（土日）は 8 時に通知するようにして');
  s.tools([{ name: 'read_file', input: { path: 'deploy/ame.timer' }, output: '[Unit]\nDescription=雨の通知\n\n[Timer]\nOnCalendar=*-*-* 06:30:00\nPersistent=true\n\n[Install]\nWantedBy=timers.target' }]);
  s.say('`deploy/ame.timer` に `OnCalendar=Sat,Sun *-*-* 08:00:00` を追加し、平日は `Mon..Fri *-*-* 06:30:00` にします。`config.toml` にも `notify_at_weekend = "08:00"` を足します。');
  return { file: 'ja-openai-ame-tsuuchi.json', host: 'openai', script: s, options: { system: 'あなたはユーザーのリポジトリで作業するコーディングエージェントです。ツールでファイルを読み書きし、コマンドを実行します。日本語で簡潔に答えてください。' } };
}

const PI_SUMMARY = `## 目的
ame-tsuuchi（~/dev/ame-tsuuchi、Python 3.12）：毎朝、その日に雨が降りそうなら LINE に通知するスクリプト。対象は東京地方。

## 決定事項
- 通知は LINE Notify ではなく LINE Messaging API の push（LINE Notify は終了したため、ユーザーの指示）。コミット 5c8e2a0。
- 設定は config.toml（notify_at = "07:00"、しきい値 threshold = 50 [%]、line_user_id）。トークンは環境変数 LINE_CHANNEL_TOKEN、リポジトリには入れない。
- 実行は systemd のタイマー（deploy/ame.timer, deploy/ame.service）。cron は使わない（ユーザーの指示）。
- 依存は requests と tomli-w だけにする。

## 完了
- 送信部分 ame/line.py とそのテスト。テスト 9 件成功。

## 進行中
- ame/kishou.py：気象庁の予報取得（未完成）。

## 次
予報の取得、しきい値判定、キャッシュ、テスト、コミット。`;

const FORECAST_JSON = `[
    {
        "publishingOffice": "気象庁",
        "reportDatetime": "2026-11-30T17:00:00+09:00",
        "timeSeries": [
            {
                "timeDefines": [
                    "2026-11-30T17:00:00+09:00",
                    "2026-12-01T00:00:00+09:00",
                    "2026-12-02T00:00:00+09:00"
                ],
                "areas": [
                    {
                        "area": { "name": "東京地方", "code": "130010" },
                        "weatherCodes": ["200", "212", "101"],
                        "weathers": ["くもり　夜遅く　雨", "くもり　昼過ぎ　から　雨", "晴れ　時々　くもり"],
                        "winds": ["北の風", "北の風　後　南の風", "北の風"]
                    },
                    {
                        "area": { "name": "伊豆諸島北部", "code": "130020" },
                        "weatherCodes": ["203", "300", "200"],
                        "weathers": ["くもり　時々　雨", "雨", "くもり"]
                    }
                ]
            },
            {
                "timeDefines": [
                    "2026-11-30T18:00:00+09:00",
                    "2026-12-01T00:00:00+09:00",
                    "2026-12-01T06:00:00+09:00",
                    "2026-12-01T12:00:00+09:00",
                    "2026-12-01T18:00:00+09:00"
                ],
                "areas": [
                    { "area": { "name": "東京地方", "code": "130010" }, "pops": ["30", "40", "20", "60", "50"] },
                    { "area": { "name": "伊豆諸島北部", "code": "130020" }, "pops": ["50", "70", "80", "60", "40"] }
                ]
            },
            {
                "timeDefines": ["2026-12-01T00:00:00+09:00", "2026-12-01T09:00:00+09:00"],
                "areas": [
                    { "area": { "name": "東京", "code": "44132" }, "temps": ["9", "14"] }
                ]
            }
        ]
    },
    {
        "publishingOffice": "気象庁",
        "reportDatetime": "2026-11-30T17:00:00+09:00",
        "timeSeries": [
            { "timeDefines": ["2026-12-02T00:00:00+09:00", "2026-12-03T00:00:00+09:00"], "areas": [ { "area": { "name": "東京地方", "code": "130010" }, "pops": ["", "20"] } ] }
        ]
    }
]`;

const SUBAGENT = `130000.json の構造（調査結果）:
1. トップレベルは 2 要素の配列。[0] が短期予報（今日・明日・明後日）、[1] が週間予報。通知には [0] だけを使う。
2. [0].timeSeries[1] が降水確率：timeDefines は 6 時間ごと（00/06/12/18 時、+09:00 付きの JST）、areas[].pops は文字列の百分率（"60"）。東京地方は area.code == "130010"（配列の位置ではなくコードで探すこと：伊豆諸島が先に来る日がある）。
3. 「今日」の降水確率は timeDefines の日付が当日のもの。6:30 に取得すると 06-12 時、12-18 時、18-24 時の 3 つが残る（00-06 時は過去）。
4. reportDatetime は 5 時・11 時・17 時に更新。6:30 の取得では前日 17 時の発表を読むことになる（5 時の発表が出ていればそちら）。
5. 空文字の pops（""）がある：週間予報の初日など。数値変換前に除外する。
6. User-Agent の指定は不要、認証なし、レート制限の記載なし。ただし同じ発表を何度も取りに行かないこと（30 分キャッシュで十分）。`;

const KISHOU_PY = `"""気象庁の予報 JSON（bosai/forecast）から東京地方の今日の降水確率を読む。"""
import datetime as dt

import requests

URL = "https://www.jma.go.jp/bosai/forecast/data/forecast/130000.json"
AREA = "130010"


def todays_pops(now: dt.datetime) -> list[int]:
    data = requests.get(URL, timeout=10).json()
    series = data[0]["timeSeries"][1]
    area = next(a for a in series["areas"] if a["area"]["code"] == AREA)
    out = []
    for t, p in zip(series["timeDefines"], area["pops"]):
        start = dt.datetime.fromisoformat(t)
        if p and start.date() == now.date() and start + dt.timedelta(hours=6) > now:
            out.append(int(p))
    return out`;

const CACHE_REDIS = `import json

import redis

r = redis.Redis()


def cached(key, fetch, ttl=1800):
    hit = r.get(key)
    if hit:
        return json.loads(hit)
    value = fetch()
    r.setex(key, ttl, json.dumps(value))
    return value`;

const CACHE_FILE = `"""予報のファイルキャッシュ（~/.cache/ame-tsuuchi/forecast.json、30 分）。"""
import json
import pathlib
import time

PATH = pathlib.Path.home() / ".cache" / "ame-tsuuchi" / "forecast.json"
TTL = 30 * 60


def cached(fetch, path=PATH, now=time.time):
    if path.exists() and now() - path.stat().st_mtime < TTL:
        return json.loads(path.read_text())
    data = fetch()
    path.write_text(json.dumps(data))
    return data`;

const PYTEST_FAIL = `Collecting redis
  Downloading redis-5.2.1-py3-none-any.whl (261 kB)
Successfully installed redis-5.2.1
FAILED tests/test_cache.py::test_cached_value_is_reused - redis.exceptions.ConnectionError: Error 111 connecting to localhost:6379. Connection refused.
1 failed, 10 passed in 0.55s`;
