import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Mind, harvestTranscriptFile, harvestEvents, promptStanding } from '@hive-mind/mind';
import { majorVersionOf } from '../src/harvest/harvest-rules.js';
import { MemorySessionLog } from '@hive-mind/session';
import { tmp, REPO_DIR } from './helpers.js';

let t: ReturnType<typeof tmp>;
beforeEach(() => (t = tmp('hm-harvest-')));
afterEach(() => t.cleanup());

describe('harvest (mind import)', () => {
  const data = join(REPO_DIR, '..', 'shared', 'data', 'transcripts');
  // the codex sample is a "hello" exchange: nothing worth remembering, so it is not listed here
  it.each([
    ['claude-code/python-to-rust-port.jsonl', 'claude-code'],
    ['claude-code/native-compact-2.1.332.jsonl', 'claude-code'],
    ['pi/before-compaction.jsonl', 'pi'],
  ])('harvests %s into frames; re-import adds nothing', async (rel, format) => {
    const src = join(data, rel);
    if (!existsSync(src)) return; // data set not mounted
    const file = join(t.dir, 'input.jsonl');
    copyFileSync(src, file);
    let progressCalls = 0;
    const h = await harvestTranscriptFile(file, { onProgress: () => progressCalls++ });
    expect(h.format).toBe(format);
    expect(h.frames.filter((f) => f.kind !== 'file').length).toBeGreaterThan(0);
    expect(h.frames.every((f) => f.host === format && f.sessionId === h.sessionId && f.turnId)).toBe(true);
    const m = Mind.open(join(t.dir, 'x.mind'));
    const first = m.saveMany(h.frames);
    const inserted = first.filter((r) => r.status === 'inserted' || r.status === 'quarantined').length;
    expect(inserted).toBeGreaterThan(0);
    const count = m.stats().frames;
    const again = m.saveMany((await harvestTranscriptFile(file)).frames);
    // frames stored the first time answer `idempotent`; repeats of already-known text answer `duplicate`
    expect(again.filter((r) => r.status === 'inserted' || r.status === 'quarantined')).toEqual([]);
    expect(again.filter((r) => r.status === 'idempotent').length).toBe(inserted);
    expect(m.stats().frames).toBe(count);
    m.close();
  });

  it('keeps facts, not noise: tool chatter, bare exit codes, minified code, protocol errors, venting and status are left out', () => {
    const log = new MemorySessionLog('s-noise');
    const minified = 'var a=function(e){return e&&e.__esModule?e:{default:e}},b=a(require("x"));module.exports=function(t,n){for(var r=0;r<t.length;r++)n(t[r])};'.repeat(3);
    log.append([
      { type: 'user/message', surfaceOp: 'append', content: [{ type: 'text', text: 'why do you go 100 lines at a time you idiot ...' }] },
      { type: 'user/message', surfaceOp: 'append', content: [{ type: 'text', text: '{"type":"error","error":{"message":"messages.3: `tool_use` ids were found without `tool_result` blocks immediately after"}} never again' }] },
      { type: 'assistant/message', surfaceOp: 'append', content: [{ type: 'text', text: 'Let me fix this:' }, { type: 'tool-call', id: 'c1', name: 'bash', input: { command: 'node build.js' } }] },
      { type: 'tool/result', surfaceOp: 'append', content: [{ type: 'tool-result', callId: 'c1', isError: true, content: [{ type: 'text', text: `Error: ${minified}` }] }] },
      { type: 'assistant/message', surfaceOp: 'append', content: [{ type: 'text', text: 'Let me fix it:' }, { type: 'tool-call', id: 'c2', name: 'bash', input: { command: 'npm test' } }] },
      { type: 'tool/result', surfaceOp: 'append', content: [{ type: 'tool-result', callId: 'c2', isError: true, content: [{ type: 'text', text: '(no output) Command exited with code 1' }] }] },
      { type: 'assistant/message', surfaceOp: 'append', content: [{ type: 'text', text: 'Now I will implement the fix. The tests pass now and all five modules are ported with 100% coverage.' }] },
    ]);
    const h = harvestEvents(log.events(), { host: 'pi', sessionId: 's-noise' });
    const all = h.frames.map((f) => f.content).join('\n');
    expect(all).not.toMatch(/idiot|tool_use|__esModule|exited with code|Let me fix|tests pass now/);
    // only the file list is left: the turn's account is status ("the tests pass now"), not a finding
    expect(h.frames.map((f) => f.kind)).toEqual([]);
  });

  it('a Japanese and German session: standing instructions and environment facts in the session\'s language; the status report is not kept', () => {
    const log = new MemorySessionLog('sess-ja');
    const u = (text: string) => ({ type: 'user/message' as const, surfaceOp: 'append' as const, content: [{ type: 'text' as const, text }] });
    const a = (text: string) => ({ type: 'assistant/message' as const, surfaceOp: 'append' as const, content: [{ type: 'text' as const, text }] });
    log.append([
      u('このリポジトリでは必ず pnpm を使ってください。npm は使わないでください。'),
      a('了解しました。pnpm install を実行します。'),
      u('ステージングのAPIはポート 8443 で動いています。'),
      a('ありがとうございます。設定を確認しました。'),
      u('ありがとう'),
      u('Bitte niemals direkt auf main pushen, immer einen Pull-Request öffnen.'),
      u('Die Staging-Datenbank läuft auf db-staging.internal:5432.'),
      a('Erledigt: the migration is done and all tests pass.'),
    ]);
    const h = harvestEvents(log.events(), { host: 'hermes', sessionId: 'sess-ja' });
    const instr = h.frames.filter((f) => f.kind === 'instruction').map((f) => f.content);
    expect(instr).toEqual(['このリポジトリでは必ず pnpm を使ってください。npm は使わないでください。', 'Bitte niemals direkt auf main pushen, immer einen Pull-Request öffnen.']);
    const env = h.frames.filter((f) => f.kind === 'environment').map((f) => f.content);
    expect(env).toEqual(['ステージングのAPIはポート 8443 で動いています。', 'Die Staging-Datenbank läuft auf db-staging.internal:5432.']);
    expect(h.frames.some((f) => f.content === 'ありがとう')).toBe(false);
    expect(h.frames.some((f) => /migration is done/.test(f.content))).toBe(false);
    expect(h.frames.every((f) => f.sessionId === 'sess-ja')).toBe(true);
  });

  it('harvests only lasting instructions and real decisions, dated by the transcript', () => {
    const log = new MemorySessionLog('s-2');
    const user = (text: string, ts: string) => ({ type: 'user/message' as const, surfaceOp: 'append' as const, ts, content: [{ type: 'text' as const, text }] });
    const noise = ['/them', '/mode', 'continue', 'yeah, do it all', 'ok', 'sleep', 'thanks!', 'yes go ahead', 'does it capture the theme variable imported at creation time?', 'delete the file', "i don't think the cache works correctly."];
    log.append([
      ...noise.map((n, i) => user(n, `2025-11-21T00:0${i % 10}:00.000Z`)),
      user('omfg use rgb values in the themes, no rgb indices!', '2025-11-21T01:00:00.000Z'),
      user('no, the block should stay as it is in the old version', '2025-11-21T01:01:00.000Z'),
      user('Remember: invalid themes must never crash the app', '2025-11-21T01:02:00.000Z'),
      {
        type: 'assistant/message',
        surfaceOp: 'append',
        ts: '2025-11-21T01:03:00.000Z',
        content: [{ type: 'text', text: "I bet VS Code is detecting the color mode wrongly. Let me check the theme loader instead of guessing. We decided to keep truecolor themes only. this.showMessage(`Switched to ${name}`);" }],
      },
    ]);
    const h = harvestEvents(log.events(), { host: 'pi', sessionId: 's-2' });
    const instr = h.frames.filter((f) => f.kind === 'instruction');
    // venting words are dropped from a kept instruction; a one-off correction is not a rule; "Remember:" is the user's critical mark
    expect(instr.map((f) => f.content)).toEqual(['Use rgb values in the themes, no rgb indices!', 'invalid themes must never crash the app']);
    expect(instr.map((f) => f.importance)).toEqual(['normal', 'critical']);
    expect(instr.map((f) => f.createdAt)).toEqual(['2025-11-21T01:00:00.000Z', '2025-11-21T01:02:00.000Z']);
    const dec = h.frames.filter((f) => f.kind === 'decision');
    expect(dec.map((f) => f.content)).toEqual(['Decided to keep truecolor themes only.']);
    expect(dec[0]).toMatchObject({ importance: 'normal', createdAt: '2025-11-21T01:03:00.000Z' });
    // stored with the transcript's date, not the import time
    const m = Mind.open(join(t.dir, 'dated.mind'));
    m.saveMany(h.frames);
    expect(m.list({ limit: 10 }).map((f) => f.createdAt.slice(0, 10))).toEqual(h.frames.map(() => '2025-11-21'));
    m.close();
  });

  it('real transcripts: no slash commands or acknowledgements become frames; dates and cwd come from the file', async () => {
    const files = ['pi/large-session.jsonl', 'pi/before-compaction.jsonl', 'claude-code/python-to-rust-port.jsonl'].map((r) => join(data, r)).filter((f) => existsSync(f));
    const codex = join(data, 'codex/hello-0.171.jsonl');
    if (existsSync(codex)) {
      const h = await harvestTranscriptFile(codex);
      expect(h.cwd).toBe('/home/user/project');
      expect(h.counts.instruction).toBe(0); // "hello" and the host's <environment_context> wrapper
    }
    for (const file of files) {
      const h = await harvestTranscriptFile(file, { lenient: true });
      expect(h.cwd, file).toMatch(/^\//);
      for (const f of h.frames.filter((x) => x.kind === 'instruction')) {
        expect(f.content, file).not.toMatch(/^\/\S*$/);
        expect(f.content.split(/\s+/).length, f.content).toBeGreaterThanOrEqual(4);
        expect(f.content, file).not.toMatch(/^(?:continue|ok|yes|yeah, do it all)$/i);
      }
      for (const f of h.frames) {
        expect(f.createdAt, `${file} ${f.kind}`).toBeTruthy();
        expect(Date.parse(f.createdAt!)).toBeLessThan(Date.parse('2026-12-01T00:00:00Z'));
      }
      for (const f of h.frames.filter((x) => x.kind === 'decision')) expect(f.content).not.toMatch(/^(?:I bet|let me)\b/i);
      if (file.includes('large-session')) {
        expect(h.cwd).toBe('/home/user/workspaces/pi-mono');
        expect(h.counts.instruction).toBeLessThan(40);
        expect(h.frames.every((f) => /^2025-11-2[01]/.test(f.createdAt!))).toBe(true);
      }
    }
  });

  it('finds instructions, decisions, errors with their fix, and files touched', () => {
    const log = new MemorySessionLog('s-1');
    log.append([
      { type: 'user/message', surfaceOp: 'append', content: [{ type: 'text', text: 'Port the parser to Rust. Never use unsafe blocks in the parser.' }] },
      { type: 'assistant/message', surfaceOp: 'append', content: [{ type: 'text', text: "I'll use serde for the JSON layer instead of hand parsing." }, { type: 'tool-call', id: 'c1', name: 'Write', input: { file_path: 'src/parser.rs', content: 'fn main(){}' } }] },
      { type: 'tool/result', surfaceOp: 'append', content: [{ type: 'tool-result', callId: 'c1', isError: false, content: [{ type: 'text', text: 'ok' }] }] },
      { type: 'assistant/message', surfaceOp: 'append', content: [{ type: 'tool-call', id: 'c2', name: 'Bash', input: { command: 'cargo test' } }, { type: 'tool-call', id: 'c3', name: 'Read', input: { file_path: 'Cargo.toml' } }] },
      { type: 'tool/result', surfaceOp: 'append', content: [{ type: 'tool-result', callId: 'c2', isError: true, content: [{ type: 'text', text: 'error[E0432]: unresolved import `serde_json`' }] }, { type: 'tool-result', callId: 'c3', isError: false, content: [{ type: 'text', text: '[package]' }] }] },
      { type: 'assistant/message', surfaceOp: 'append', content: [{ type: 'text', text: 'The root cause was a missing serde_json dependency; fixed by adding it to Cargo.toml.' }] },
    ]);
    const h = harvestEvents(log.events(), { host: 'claude-code', sessionId: 's-1' });
    const kinds = h.frames.map((f) => f.kind);
    // the error is counted, and kept only with the fix that states its cause
    // the turn states a cause, not a result: a fix, not an outcome
    expect(h.counts).toEqual({ instruction: 1, preference: 0, decision: 1, fact: 0, environment: 0, error: 1, fix: 1, file: 1 });
    expect(kinds).toContain('instruction');
    expect(kinds).not.toContain('error');
    expect(h.frames.find((f) => f.kind === 'instruction')).toMatchObject({ content: 'Never use unsafe blocks in the parser.', importance: 'important' });
    expect(h.frames.find((f) => f.kind === 'fix')!.content).toMatch(/^Fix for "error\[E0432\].*root cause was a missing serde_json/);
    expect(h.frames.find((f) => f.kind === 'file')!.content).toBe('Files touched in session s-1 (claude-code): modified: src/parser.rs; read: Cargo.toml');
  });
});


/** One Claude Code transcript line (the shape of ../shared/data/transcripts/claude-code/*.jsonl). */
function ccLine(sessionId: string, i: number, role: 'user' | 'assistant', content: unknown): string {
  const msg = role === 'user' ? { role, content } : { model: 'claude-opus-4-5-20251101', id: `msg_${i}`, type: 'message', role, content, stop_reason: 'end_turn' };
  return JSON.stringify({ parentUuid: i ? `u-${i - 1}` : null, isSidechain: false, userType: 'external', cwd: '/home/user/shop', sessionId, version: '2.1.14', gitBranch: 'main', type: role, message: msg, uuid: `u-${i}`, timestamp: `2026-01-21T06:${String(10 + i).padStart(2, '0')}:00.000Z` });
}

describe('harvest of sessions in other languages and host protocol', () => {
  it('a Korean Claude Code session: rules and stated values in Korean; requests, questions and the status report are not kept, hook feedback only as what the hook requires; provenance is the host session id', async () => {
    const sid = 'b7e0c1f2-5a4d-4c3e-9f10-2a7d8e6b4c21';
    const lines = [
      ccLine(sid, 0, 'user', '결제 모듈을 리팩터링해 주세요. 앞으로는 항상 pnpm 을 사용하고 npm 은 쓰지 마세요.'),
      ccLine(sid, 1, 'assistant', [{ type: 'text', text: '알겠습니다. 먼저 구조를 살펴보겠습니다.' }, { type: 'tool_use', id: 'toolu_k1', name: 'Read', input: { file_path: '/home/user/shop/src/pay.ts' } }]),
      ccLine(sid, 2, 'user', [{ tool_use_id: 'toolu_k1', type: 'tool_result', content: 'export function pay() {}' }]),
      ccLine(sid, 3, 'user', '스테이징 API 서버는 포트 8443 에서 실행됩니다.'),
      ccLine(sid, 4, 'user', '이 파일 좀 읽어 줘?'),
      ccLine(sid, 5, 'user', 'Stop hook feedback:\n[${CLAUDE_PLUGIN_ROOT}/scripts/hooks/stop.sh]: # Running Quality Checks...\n\nCannot exit with unstaged changes.\n\nBefore stopping, please commit.'),
      ccLine(sid, 6, 'assistant', [{ type: 'text', text: '리팩터링이 완료되었습니다. 모든 테스트 통과, 변경 사항을 커밋했습니다.' }]),
    ];
    const file = join(t.dir, 'ko-session.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    const h = await harvestTranscriptFile(file);
    expect(h.sessionId).toBe(sid);
    const by = (k: string) => h.frames.filter((f) => f.kind === k).map((f) => f.content);
    expect(by('instruction')).toEqual(['앞으로는 항상 pnpm 을 사용하고 npm 은 쓰지 마세요.']);
    expect(h.frames.find((f) => f.kind === 'instruction')!.importance).toBe('important');
    // the hook's feedback is not the user's words: no instruction from it, one fact about what the hook requires
    expect(by('environment')).toEqual(['스테이징 API 서버는 포트 8443 에서 실행됩니다.', 'The Stop hook (stop.sh) blocks the agent: Cannot exit with unstaged changes.']);
    const all = h.frames.map((f) => f.content).join('\n');
    expect(all).not.toMatch(/Running Quality|Before stopping|읽어 줘|완료/);
    expect(h.frames.every((f) => f.sessionId === sid && f.host === 'claude-code')).toBe(true);
  });

  it('a rule written under a pasted stack trace is kept without the trace; values with a copula (percentages, bare hex colors, "a -> b") are environment facts', () => {
    const log = new MemorySessionLog('s-paste');
    const u = (text: string) => ({ type: 'user/message' as const, surfaceOp: 'append' as const, content: [{ type: 'text' as const, text }] });
    log.append([
      u('this exploded on restart. invalid configs must never crash the app\n\n➜  app git:(main) npx tsx src/cli.ts -r\nError: Invalid hex color: #000cc\n    at hexToRgb (/home/user/app/src/theme.ts:148:9)\n    at load (/home/user/app/src/theme.ts:20:3)'),
      u('the footer should be "warning" above 70% and "error" above 90%'),
      u('link text is 81a2be in the old version'),
      u('tools -> core/tools\ntui -> modes/interactive/components'),
      u('yeah you can undo that, it was actually the console.logs/errors in theme.ts that did that'),
      u('please read src/app.ts in full and tell me what it does'),
      u('should be dimmer, don\'t modify the theme, look into the footer sources'),
    ]);
    const h = harvestEvents(log.events(), { host: 'pi', sessionId: 's-paste' });
    const by = (k: string) => h.frames.filter((f) => f.kind === k).map((f) => f.content);
    // what the footer should show is a rule about the work with its values in it
    expect(by('instruction')).toEqual(['invalid configs must never crash the app', 'the footer should be "warning" above 70% and "error" above 90%']);
    // a one-segment path ("core/tools") is not told from prose ("and/or"), a deeper one is
    expect(by('environment')).toEqual(['link text is 81a2be in the old version', 'tui -> modes/interactive/components']);
    expect(h.frames.map((f) => f.content).join('\n')).not.toMatch(/hexToRgb|theme\.ts:148|undo|tell me/);
  });

  it('a turn\'s status is not kept; fixes need a stated cause of a project error, not the agent\'s own tool misuse', () => {
    const log = new MemorySessionLog('s-out');
    const u = (text: string) => ({ type: 'user/message' as const, surfaceOp: 'append' as const, content: [{ type: 'text' as const, text }] });
    const a = (text: string, calls: Array<{ id: string; cmd: string }> = []) => ({
      type: 'assistant/message' as const,
      surfaceOp: 'append' as const,
      content: [{ type: 'text' as const, text }, ...calls.map((c) => ({ type: 'tool-call' as const, id: c.id, name: 'bash', input: { command: c.cmd } }))],
    });
    const err = (callId: string, text: string) => ({ type: 'tool/result' as const, surfaceOp: 'append' as const, content: [{ type: 'tool-result' as const, callId, isError: true, content: [{ type: 'text' as const, text }] }] });
    log.append([
      u('port the selector to the new theme'),
      a("I've created the selector file and added the theme import. Fixed the loader constructor."),
      u('next step'),
      a('Editing.', [{ id: 'e1', cmd: 'edit' }]),
      err('e1', 'Error: Could not find the exact text in src/a.ts. The old text must match exactly.'),
      a('Now the issue is that the sed did not match. The root cause was a typo in my edit.'),
      a('Running the build.', [{ id: 'b1', cmd: 'npm run build' }]),
      err('b1', "error TS2305: Module '@example/tui' has no exported member 'EditorTheme'."),
      a('Maybe the issue is a stale build. The root cause was a stale dist of the tui package; fixed by rebuilding it first.'),
      a('It builds successfully.'),
      u('and the tests?'),
      a('The selector now uses the theme. All 42 tests pass and the change is committed.'),
    ]);
    const h = harvestEvents(log.events(), { host: 'pi', sessionId: 's-out' });
    const by = (k: string) => h.frames.filter((f) => f.kind === k).map((f) => f.content);
    expect(h.frames.map((f) => f.content).join('\n')).not.toMatch(/42 tests pass|builds successfully|I've created/);
    expect(by('fix')).toEqual([`Fix for "error TS2305: Module '@example/tui' has no exported member 'EditorTheme'.": The root cause was a stale dist of the tui package; fixed by rebuilding it first.`]);
  });
});

describe('a fact-rich Korean Hermes session', () => {
  it('gives its facts (a cause, a switch, where things run, a version, a rate limit, a rule and a stated fact), not one file list; requests, status and acknowledgements give nothing', async () => {
    const h = await harvestTranscriptFile(join(REPO_DIR, 'packages/mind/test/fixtures/hermes-ko-session.json'));
    expect(h.format).toBe('hermes');
    expect(h.sessionId).toBe('20260115_093012_5f2c1a');
    const rows = h.frames.filter((f) => f.kind !== 'file').map((f) => [f.kind, f.importance, f.content]);
    expect(rows).toEqual([
      ['fact', 'normal', '원인은 게이트웨이의 proxy_read_timeout 이 5초로 설정되어 있었기 때문이었습니다.'],
      ['instruction', 'important', '앞으로 설정은 항상 config/settings.yaml 에서만 바꾸고, .env 파일은 절대 건드리지 마세요.'],
      ['decision', 'normal', 'gateway/nginx.conf 의 proxy_read_timeout 을 30초로 변경했습니다.'],
      ['environment', 'normal', '스테이징 결제 API는 https://pay-staging.example.kr:9443 에서 제공됩니다.'],
      ['environment', 'normal', '결제 서비스는 Go 1.22 로 빌드되고, 컨테이너 안에서 포트 8080 에서 실행됩니다.'],
      ['environment', 'normal', '데이터베이스 드라이버는 pgx v5.5.1 을 사용합니다.'],
      ['environment', 'normal', '외부 PG사 API는 초당 20건으로 요청이 제한됩니다.'],
      ['fact', 'important', '스테이징 DB는 매일 새벽 3시에 초기화됩니다.'],
    ]);
    const all = h.frames.map((f) => f.content).join('\n');
    // the container log lines in the tool output, the one-off order, the status and the commit report are not memory
    expect(all).not.toMatch(/upstream timed out|listening on :8080|다시 돌려|통과했습니다|커밋했습니다|고마워요|확인해 보겠습니다/);
  });
});

describe('text the host wrote into the user\'s turn', () => {
  it('a slash command\'s expanded prompt and an isMeta record are not the user\'s rules; the user\'s own rule next to them is', async () => {
    const sid = '5d1c9a2e-0f3b-4b7e-9c11-8a0e2f6d7b43';
    const initPrompt = [
      'Please analyze this codebase and create a CLAUDE.md file, which will be given to future instances of Claude Code to operate in this repository.',
      '',
      'Usage notes:',
      '- When you make the initial CLAUDE.md, do not repeat yourself and do not include obvious instructions like "Provide helpful error messages to users".',
      '- Avoid listing every component or file structure that can be easily discovered.',
      "- Don't include generic development practices.",
    ].join('\n');
    const lines = [
      ccLine(sid, 0, 'user', '<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>'),
      ccLine(sid, 1, 'user', [{ type: 'text', text: initPrompt }]),
      ccLine(sid, 2, 'assistant', [{ type: 'text', text: 'I created CLAUDE.md with the build and test commands.' }]),
      JSON.stringify({ ...JSON.parse(ccLine(sid, 3, 'user', 'Always answer with a diff, never paste whole files.')), isMeta: true }),
      ccLine(sid, 4, 'user', 'From now on, run the linter before every commit.'),
      ccLine(sid, 5, 'assistant', [{ type: 'text', text: "Got it, I'll run the linter before every commit from now on." }]),
    ];
    const file = join(t.dir, 'init-session.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    const h = await harvestTranscriptFile(file);
    expect(h.frames.filter((f) => f.kind === 'instruction').map((f) => [f.importance, f.content])).toEqual([['important', 'From now on, run the linter before every commit.']]);
    expect(h.frames.map((f) => f.content).join('\n')).not.toMatch(/repeat yourself|generic development|whole files/);
  });
});

describe('hooks that block the agent', () => {
  it('what a blocking hook requires is one environment fact, in both of Claude Code\'s wordings; feedback without a refusal gives nothing', () => {
    const log = new MemorySessionLog('s-hook');
    const user = (seq: number, text: string) => ({ type: 'user/message' as const, surfaceOp: 'append' as const, ts: `2026-01-21T06:2${seq}:00.000Z`, content: [{ type: 'text' as const, text }] });
    log.append([
      user(0, 'Stop hook feedback:\n[${CLAUDE_PLUGIN_ROOT}/scripts/hooks/stop.sh]: # Running Quality Checks...\n\n# Uncommitted Changes Detected\n\nCannot exit with unstaged changes.\n\nBefore stopping, please:\n\n1. Run `git status`\n2. Commit'),
      user(1, '<system-reminder>\nPreToolUse:Bash hook blocking error from command: "python3 .claude/hooks/guard.py --strict": Direct pushes to main are not allowed. Open a pull request instead.\n</system-reminder>'),
      user(2, 'Stop hook blocking error from command: "npm run lint": 3 errors'),
      user(3, 'Stop hook feedback:\nkeep going'),
    ]);
    const h = harvestEvents(log.events(), { host: 'claude-code', sessionId: 's-hook' });
    expect(h.frames.map((f) => [f.kind, f.content])).toEqual([
      ['environment', 'The Stop hook (stop.sh) blocks the agent: Uncommitted Changes Detected. Cannot exit with unstaged changes.'],
      ['environment', 'The PreToolUse:Bash hook (guard.py) blocks the agent: Direct pushes to main are not allowed.'],
    ]);
    expect(h.frames.every((f) => f.tags?.includes('hook') && f.createdAt?.startsWith('2026-01-21'))).toBe(true);
    expect(h.counts.instruction).toBe(0);
  });
});

describe('harvest redacts before it extracts', () => {
  it('a secret cut by a frame\'s length limit is redacted whole: no part of it reaches the store', () => {
    const token = 'ghp_' + 'aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4';
    // the error line is clipped at 160 characters inside the frame: the token straddles that cut
    const line = `Error: git clone of https://github.com/acme/app.git failed (401 Unauthorized) for the ci-bot user of the nightly sync job on runner seven, using ${token} as given`;
    expect(line.indexOf(token)).toBeLessThan(160);
    expect(line.indexOf(token) + token.length).toBeGreaterThan(160);
    const log = new MemorySessionLog('s-secret');
    log.append([
      { type: 'assistant/message', surfaceOp: 'append', content: [{ type: 'text', text: 'Calling the API.' }, { type: 'tool-call', id: 'c1', name: 'bash', input: { command: 'node sync.js' } }] },
      { type: 'tool/result', surfaceOp: 'append', content: [{ type: 'tool-result', callId: 'c1', isError: true, content: [{ type: 'text', text: line }] }] },
      { type: 'assistant/message', surfaceOp: 'append', content: [{ type: 'text', text: 'The root cause was an expired API token in the sync job; fixed by reading it from the keychain.' }] },
      { type: 'user/message', surfaceOp: 'append', content: [{ type: 'text', text: `Never paste the token ${token} into the config again.` }] },
    ]);
    const h = harvestEvents(log.events(), { host: 'pi', sessionId: 's-secret' });
    expect(h.frames.find((f) => f.kind === 'fix')).toBeTruthy();
    const m = Mind.open(join(t.dir, 'secret.mind'));
    m.saveMany(h.frames);
    const stored = m.list({ limit: 100 }).map((f) => f.content).join('\n');
    m.close();
    expect(stored).toMatch(/expired API token/);
    expect(stored).not.toContain(token.slice(0, 12));
  });
});

describe('venting', () => {
  it('a clause left hanging by a removed venting word goes with it', () => {
    const log = new MemorySessionLog('s-vent');
    const u = (text: string) => ({ type: 'user/message' as const, surfaceOp: 'append' as const, content: [{ type: 'text' as const, text }] });
    log.append([u('i would only want e2e tests for AgentSession, anything else is shitty.'), u('the footer should be "error" above 90% so the user sees shit is about to get fucked')]);
    const h = harvestEvents(log.events(), { host: 'pi', sessionId: 's-vent' });
    expect(h.frames.map((f) => f.content)).toEqual(['I would only want e2e tests for AgentSession', 'The footer should be "error" above 90%']);
  });
});

describe('decisions the user states', () => {
  const u = (text: string) => ({ type: 'user/message' as const, surfaceOp: 'append' as const, content: [{ type: 'text' as const, text }] });
  it('a choice with its reason is a decision, not an instruction; a rule stays an instruction', () => {
    const log = new MemorySessionLog('s-dec');
    log.append([
      u("Let's cache prices in memory with a 60 second TTL instead of adding Redis, because the shop runs on a single server."),
      u('We decided to keep SQLite for the job queue since there is no other server to run.'),
      u('From now on, always run the test suite with make check before you commit.'),
    ]);
    const h = harvestEvents(log.events(), { host: 'claude-code', sessionId: 's-dec' });
    const byKind = (k: string) => h.frames.filter((f) => f.kind === k).map((f) => f.content);
    expect(byKind('decision')).toEqual([
      "Let's cache prices in memory with a 60 second TTL instead of adding Redis, because the shop runs on a single server.",
      'We decided to keep SQLite for the job queue since there is no other server to run.',
    ]);
    expect(byKind('instruction')).toEqual(['From now on, always run the test suite with make check before you commit.']);
    expect(h.counts.decision).toBe(2);
    expect(h.counts.instruction).toBe(1);
  });
});

describe('versions without a dot', () => {
  const u = (text: string) => ({ type: 'user/message' as const, surfaceOp: 'append' as const, content: [{ type: 'text' as const, text }] });
  const envOf = (...texts: string[]) => {
    const log = new MemorySessionLog('s-ver');
    log.append(texts.map(u));
    return harvestEvents(log.events(), { host: 'pi', sessionId: 's-ver' }).frames.filter((f) => f.kind === 'environment').map((f) => f.content);
  };

  it('a product or tool named with its major version is an environment fact, in English and German', () => {
    expect(
      envOf('the database is postgres 16', 'we run Node 20', 'The scripts need Python 3.', 'CI uses node v20 LTS', 'Die Datenbank ist Postgres 16', 'We upgraded to React 18 last month', 'Chrome 120 is the oldest browser we support'),
    ).toEqual(['the database is postgres 16', 'we run Node 20', 'The scripts need Python 3.', 'CI uses node v20 LTS', 'Die Datenbank ist Postgres 16', 'We upgraded to React 18 last month', 'Chrome 120 is the oldest browser we support']);
    expect(majorVersionOf('Python 3 and Node 20 are required')).toBe('Python 3');
    expect(majorVersionOf('the staging box runs Elasticsearch 8 on port 9200')).toBe('Elasticsearch 8');
  });

  it('counts, steps, lines, dates and quantities are not versions', () => {
    const not = [
      'I have 3 kids',
      'see step 2 of the guide, it is short',
      'the bug is on line 16',
      'the build takes 3 minutes',
      'the meeting is on March 5',
      'our team has 5 members',
      'exit code 1 is what the script returns',
      'I am 34',
      'the release is in sprint 14',
      'it needs at least 2.',
      'we waited 3 hours for the deploy',
      'the cluster is 8 GB of memory',
      'the answer is 42',
    ];
    for (const s of not) expect(majorVersionOf(s), s).toBeUndefined();
    expect(envOf(...not)).toEqual([]);
  });

  it('the prompt capture keeps it too (promptStanding, as the UserPromptSubmit hook calls it); "keep that in mind" after it makes it important', () => {
    expect(promptStanding('ok so the database is postgres 16, keep that in mind when you write the migration')).toEqual([
      { kind: 'environment', content: 'The database is postgres 16', importance: 'important', key: 'remember' },
    ]);
    expect(promptStanding('we run Node 20 on the build servers')).toEqual([{ kind: 'environment', content: 'we run Node 20 on the build servers', importance: 'normal', key: 'p0' }]);
  });
});
