/**
 * Bad input through the REAL built CLI (`node packages/cli/bin/hive-mind.js hook ...`):
 * every case exits 0, prints valid host JSON or nothing, and leaves one log line.
 * Needs `npx tsc -b packages/cli` first.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { Mind, workspaceMindPath } from '@hive-mind/mind';
import { logLines, payload, runCli, sandbox, type Run } from './helpers.js';

function expectFailOpen(r: Run, log: string, pattern: RegExp) {
  expect(r.killedByTest).toBe(false);
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('');
  if (r.stdout.trim()) JSON.parse(r.stdout);
  const lines = logLines(log);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

describe('hook runner as a child process: bad input fails open', { timeout: 60_000 }, () => {
  const cases: Array<[string, string | Buffer, RegExp]> = [
    ['empty stdin', '', /claude-code Stop: empty stdin/],
    ['truncated JSON', JSON.stringify(payload('claude-code', 'Stop', 0)).slice(0, 80), /not valid JSON/],
    ['a JSON array', '[1,2]', /not an object/],
    ['50 MB of stdin', Buffer.alloc(50 * 1024 * 1024, 0x61), /over the 8388608-byte cap/],
    [
      "another host's payload (Cursor beforeSubmitPrompt)",
      JSON.stringify({ conversation_id: 'c1', generation_id: 'g1', hook_event_name: 'beforeSubmitPrompt', workspace_roots: ['/tmp'], prompt: 'hi' }),
      /payload is for event "beforeSubmitPrompt"/,
    ],
  ];
  for (const [name, stdin, pattern] of cases) {
    it(name, async () => {
      const s = sandbox();
      const r = await runCli(['hook', 'claude-code', 'Stop'], stdin, s.env);
      expectFailOpen(r, join(s.home, 'logs', 'hooks.log'), pattern);
      expect(r.stdout).toBe('');
    });
  }

  it('SessionStart with bad input still prints nothing or valid JSON', async () => {
    const s = sandbox();
    const r = await runCli(['hook', 'codex', 'SessionStart'], '{"session_id": ', s.env);
    expectFailOpen(r, join(s.home, 'logs', 'hooks.log'), /codex SessionStart: stdin is not valid JSON/);
  });

  it('a host that never closes stdin: the time cap ends the read', async () => {
    const s = sandbox();
    const r = await runCli(['hook', 'claude-code', 'UserPromptSubmit'], 'hold', s.env);
    expectFailOpen(r, join(s.home, 'logs', 'hooks.log'), /no stdin within 3000 ms/);
  });

  it('unknown host', async () => {
    const s = sandbox();
    const r = await runCli(['hook', 'vim', 'Stop'], '{}', s.env);
    expectFailOpen(r, join(s.home, 'logs', 'hooks.log'), /unknown host "vim"/);
  });

  it('a missing .mind is created by UserPromptSubmit; SessionStart on a missing mind prints nothing and logs nothing', async () => {
    const s = sandbox();
    const r0 = await runCli(['hook', 'claude-code', 'SessionStart'], JSON.stringify(payload('claude-code', 'SessionStart', 0, s.project)), s.env);
    expect([r0.code, r0.stdout, logLines(join(s.home, 'logs', 'hooks.log'))]).toEqual([0, '', []]);
    const r = await runCli(['hook', 'claude-code', 'UserPromptSubmit'], JSON.stringify(payload('claude-code', 'UserPromptSubmit', 2, s.project)), s.env);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    const m = Mind.open(workspaceMindPath(s.project, s.env), { readonly: true });
    // the prompt, a turn of the history, and the fact it states
    expect(m.list({ history: true }).length).toBe(2);
    m.close();
  });

  it('a corrupted .mind is logged, skipped, its captures spooled, and left byte for byte as it was', async () => {
    const s = sandbox();
    const path = workspaceMindPath(s.project, s.env);
    mkdirSync(join(s.home, 'workspaces'), { recursive: true });
    const junk = Buffer.from('SQLite format 3\u0000' + 'garbage'.repeat(600));
    writeFileSync(path, junk);
    const r = await runCli(['hook', 'claude-code', 'UserPromptSubmit'], JSON.stringify(payload('claude-code', 'UserPromptSubmit', 2, s.project)), s.env);
    expect([r.killedByTest, r.code, r.stderr]).toEqual([false, 0, '']);
    const lines = logLines(join(s.home, 'logs', 'hooks.log'));
    // the recall says which mind it left out; the capture waits in the spool for the repair
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/claude-code UserPromptSubmit: workspace mind skipped \(CORRUPT\)/);
    expect(lines[1]).toMatch(/claude-code UserPromptSubmit: .* is not a readable \.mind file \(left untouched\); \d+ captures? spooled to .*\.pending-[\w-]+\.jsonl .*doctor --repair/);
    expect(readFileSync(path).equals(junk)).toBe(true);
    const r2 = await runCli(['hook', 'claude-code', 'SessionStart'], JSON.stringify(payload('claude-code', 'SessionStart', 0, s.project)), s.env);
    expect(r2.code).toBe(0);
    const ctx = (JSON.parse(r2.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(ctx).toContain(`## hive-mind memory (workspace ${s.project}): skipped, ${path} is not a readable .mind file`);
    expect(readFileSync(path).equals(junk)).toBe(true);
  });

  it('a .mind locked by another process past the busy timeout: the capture is spooled and logged, and the next write replays it', async () => {
    const s = sandbox();
    const path = workspaceMindPath(s.project, s.env);
    Mind.open(path).close();
    const db = new Database(path);
    db.exec('BEGIN EXCLUSIVE');
    try {
      const r = await runCli(['hook', 'claude-code', 'UserPromptSubmit'], JSON.stringify(payload('claude-code', 'UserPromptSubmit', 2, s.project)), s.env);
      expectFailOpen(r, join(s.home, 'logs', 'hooks.log'), /claude-code UserPromptSubmit: store busy past \d+ ms; \d+ captures? spooled to .*\.pending-[\w-]+\.jsonl/i);
    } finally {
      db.exec('ROLLBACK');
      db.close();
    }
    const spooled = () => readdirSync(dirname(path)).filter((n) => n.includes('.pending-'));
    expect(spooled().length).toBe(1);
    // the next hook that writes replays the spool: the first prompt's frames are there, the spool is gone
    const next = await runCli(['hook', 'claude-code', 'UserPromptSubmit'], JSON.stringify({ ...payload('claude-code', 'UserPromptSubmit', 2, s.project), prompt: 'run the linter before committing' }), s.env);
    expect(next.code).toBe(0);
    expect(spooled()).toEqual([]);
    const m = Mind.open(path, { readonly: true });
    const frames = m.list({ limit: 100, includeRetired: true, history: true });
    m.close();
    // the spooled capture (the stated fact of the first prompt) and the second prompt's own frames
    expect(frames.map((f) => f.content)).toContain('The build uses pnpm');
    expect(frames.filter((f) => f.sessionId === payload('claude-code', 'UserPromptSubmit', 2).session_id).length).toBeGreaterThanOrEqual(2);
  });


  it('an unwritable home: the line goes to the fallback log in the temp dir', async () => {
    const s = sandbox();
    // a regular file where the home directory should be: nothing can be created under it (works as root too)
    writeFileSync(join(s.root, 'blocker'), 'x');
    const tmp = join(s.root, 'tmp');
    mkdirSync(tmp);
    chmodSync(join(s.root, 'blocker'), 0o444);
    const env = { ...s.env, HIVE_MIND_HOME: join(s.root, 'blocker', 'hm'), TMPDIR: tmp };
    const r = await runCli(['hook', 'claude-code', 'UserPromptSubmit'], JSON.stringify(payload('claude-code', 'UserPromptSubmit', 2, s.project)), env);
    const uid = process.getuid!();
    expectFailOpen(r, join(tmp, `hive-mind-hooks-${uid}.log`), /claude-code UserPromptSubmit: .*(ENOTDIR|not a directory|IO)/i);
  });
});

describe('hook usage through the real CLI', { timeout: 60_000 }, () => {
  for (const args of [['hook', '--help'], ['hook', '-h'], ['hook'], ['hook', 'claude-code'], ['help', 'hook']]) {
    it(`\`hive-mind ${args.join(' ')}\` prints the usage on stdout and exits 0, storing nothing`, async () => {
      const s = sandbox();
      const r = await runCli(args, '', s.env);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^Usage: hive-mind hook <host> <event>\n/);
      expect(r.stdout).toMatch(/stdin/);
      expect(r.stdout).toMatch(/Always exits 0/);
      expect(r.stdout).toMatch(/^ {2}claude-code +SessionStart, UserPromptSubmit, Stop, PreCompact, SessionEnd$/m);
      expect(r.stdout).toMatch(/^ {2}hermes +on_session_start, pre_llm_call/m);
      expect(logLines(join(s.home, 'logs', 'hooks.log'))).toEqual([]);
    });
  }
});

describe('HIVE_MIND_NO_HOOKS (set on the host a summarizer of hive-mind starts)', { timeout: 60_000 }, () => {
  it('every lifecycle answers the empty response and stores, recalls and logs nothing', async () => {
    const { NO_HOOKS_ENV } = await import('@hive-mind/compaction');
    expect(NO_HOOKS_ENV).toBe('HIVE_MIND_NO_HOOKS');
    const s = sandbox();
    const on = { ...s.env, [NO_HOOKS_ENV]: '1' };
    for (const event of ['UserPromptSubmit', 'Stop']) {
      const r = await runCli(['hook', 'claude-code', event], JSON.stringify(payload('claude-code', event, 2, s.project)), on);
      expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    }
    expect(existsSync(workspaceMindPath(s.project, s.env))).toBe(false);
    // a mind with a rule SessionStart injects when the hooks are live
    const m = Mind.open(workspaceMindPath(s.project, s.env));
    m.save({ content: 'Always run the linter before committing.', importance: 'critical', kind: 'instruction' });
    m.close();
    const live = await runCli(['hook', 'claude-code', 'SessionStart'], JSON.stringify(payload('claude-code', 'SessionStart', 0, s.project)), s.env);
    expect(live.stdout).toContain('Always run the linter before committing.');
    const off = await runCli(['hook', 'claude-code', 'SessionStart'], JSON.stringify(payload('claude-code', 'SessionStart', 0, s.project)), on);
    expect([off.code, off.stdout, off.stderr]).toEqual([0, '', '']);
    expect(logLines(join(s.home, 'logs', 'hooks.log'))).toEqual([]);
  });
});

describe('a hive-mind home where mkdir never succeeds (/proc)', { timeout: 60_000 }, () => {
  // Node 20's mkdirSync(p, { recursive: true }) spins forever under /proc; the hook path
  // creates directories with a bounded loop, so the hook fails open instead of hanging.
  for (const event of ['UserPromptSubmit', 'Stop', 'SessionStart']) {
    it(`claude-code ${event} with HIVE_MIND_HOME=/proc/forbidden exits 0 (killed after 20 s otherwise)`, async () => {
      const s = sandbox();
      const r = await runCli(['hook', 'claude-code', event], JSON.stringify(payload('claude-code', event, 0, s.project)), { ...s.env, HIVE_MIND_HOME: '/proc/forbidden' }, 20_000);
      expect(r.killedByTest).toBe(false);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      if (r.stdout.trim()) JSON.parse(r.stdout);
    });
  }
});
