/**
 * What a session is given (inject.ts) through the real runner and real .mind files: the notes
 * before the recall, one budget that holds by the real o200k tokenizer in every script, odd notes
 * files, and the per-prompt recall that never repeats what the session already got.
 */
import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TokenMeter } from '@hive-mind/compaction';
import { Mind, Notes, personalMindPath, turnFrame, workspaceMindPath } from '@hive-mind/mind';
import { runHook } from '../src/index.js';
import { payload, sandbox } from './helpers.js';

const exact = new TokenMeter();

async function context(env: NodeJS.ProcessEnv, event: 'SessionStart' | 'UserPromptSubmit', body: Record<string, unknown>): Promise<{ text: string; error?: string }> {
  let out = '';
  const r = await runHook(['claude-code', event], { stdin: Readable.from([JSON.stringify(body)]), env, write: (t) => (out += t) });
  const text = out.trim() ? ((JSON.parse(out) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? '') : '';
  return { text, ...(r.error ? { error: r.error } : {}) };
}

describe('session start: notes, then recall, in one budget', () => {
  it('USER.md and MEMORY.md come first, framed with their file, then the recalled frames', async () => {
    const s = sandbox();
    const notes = new Notes({ env: s.env });
    notes.add({ file: 'user' }, 'Prefers terse answers');
    notes.add({ file: 'memory' }, 'The staging API listens on port 8443');
    const m = Mind.open(workspaceMindPath(s.project, s.env));
    m.save({ content: 'the database is postgres 16', scope: 'workspace' });
    m.close();
    const { text, error } = await context(s.env, 'SessionStart', payload('claude-code', 'SessionStart', 0, s.project));
    expect(error).toBeUndefined();
    const u = text.indexOf('hive-mind notes: USER.md');
    const n = text.indexOf('hive-mind notes: MEMORY.md');
    const r = text.indexOf('the database is postgres 16');
    expect(u).toBeGreaterThan(-1);
    expect(u).toBeLessThan(n);
    expect(n).toBeLessThan(r);
    expect(text).toContain('Prefers terse answers');
    expect(text).toContain('The staging API listens on port 8443');
  });

  it('the budget holds by the real tokenizer with Japanese notes and frames (the defect: 1,500 became 3,288)', async () => {
    const s = sandbox();
    const notes = new Notes({ env: s.env });
    for (let i = 0; i < 12; i++) notes.add({ file: 'memory' }, `メモ${i}: ステージング環境のデータベースは db${i}.internal です。mainへ直接プッシュしないでください。`);
    const m = Mind.open(workspaceMindPath(s.project, s.env));
    for (let i = 0; i < 80; i++) m.save({ content: `日本語のメモ${i}: ビルドは pnpm を使い、テストは vitest ${i} で実行します。`, importance: 'important', scope: 'workspace' });
    m.close();
    for (const budget of [300, 800, 1500]) {
      const { text } = await context({ ...s.env, HIVE_MIND_RECALL_TOKENS: String(budget) }, 'SessionStart', payload('claude-code', 'SessionStart', 0, s.project));
      expect(text.length).toBeGreaterThan(0);
      expect(exact.countText(text)).toBeLessThanOrEqual(budget);
    }
  });

  it('notes files edited by hand into odd shapes: the hook still answers within its budget, and nothing is lost', async () => {
    const s = sandbox();
    const dir = join(s.home, 'memories');
    mkdirSync(dir, { recursive: true });
    // CRLF, empty entries, a lone delimiter, an entry far larger than the budget, control bytes
    writeFileSync(join(dir, 'USER.md'), '\r\n§\r\n§\r\nLikes tabs\r\n§\r\n\r\n' + 'x'.repeat(30_000) + '\r\n§\r\nbell \u0000\u0007 here \xff\r\n§\r\nUses vim\r\n');
    // a directory where MEMORY.md should be
    mkdirSync(join(dir, 'MEMORY.md'));
    const { text, error } = await context({ ...s.env, HIVE_MIND_RECALL_TOKENS: '400' }, 'SessionStart', payload('claude-code', 'SessionStart', 0, s.project));
    expect(error).toBeUndefined();
    expect(exact.countText(text)).toBeLessThanOrEqual(400);
    expect(text).toContain('Likes tabs');
    expect(text).toMatch(/more entr(?:y|ies) in .*USER\.md/);
    // an entry holding control characters is flagged and left out (notes show and doctor name it)
    expect(text).not.toContain('bell');
  });
});

describe('per-prompt recall (UserPromptSubmit)', () => {
  it('adds what the prompt is about, above the floor, within its budget, never what the session already got', async () => {
    const s = sandbox();
    const m = Mind.open(workspaceMindPath(s.project, s.env));
    m.save({ content: 'The release checklist lives in docs/RELEASING.md', scope: 'workspace' });
    m.save({ content: 'Deploys run from the deploy/ folder with helm', scope: 'workspace' });
    m.close();
    const start = await context({ ...s.env, HIVE_MIND_RECALL_TOKENS: '60' }, 'SessionStart', payload('claude-code', 'SessionStart', 0, s.project));
    const givenAtStart = start.text;
    const ask = (prompt: string, n: number, extra: NodeJS.ProcessEnv = {}) =>
      context({ ...s.env, ...extra }, 'UserPromptSubmit', { ...payload('claude-code', 'UserPromptSubmit', 0, s.project), prompt, prompt_id: `p${n}` });
    const first = await ask('where is the release checklist?', 1);
    if (!givenAtStart.includes('RELEASING.md')) expect(first.text).toContain('docs/RELEASING.md');
    else expect(first.text).not.toContain('docs/RELEASING.md');
    expect(exact.countText(first.text)).toBeLessThanOrEqual(300);
    const again = await ask('and where was the release checklist again?', 2);
    expect(again.text).not.toContain('docs/RELEASING.md');
    expect((await ask('how do I bake sourdough bread?', 3)).text).toBe('');
    expect((await ask('how do we deploy with helm?', 4, { HIVE_MIND_PROMPT_RECALL_TOKENS: '0' })).text).toBe('');
    const fresh = await ask('!!! ???', 5);
    expect(fresh.error).toBeUndefined();
  });
});

describe('per-prompt recall never repeats SessionStart', () => {
  it("a turn beside its own standing frame: SessionStart gave the frame, the prompt's evidence shows the turn without that sentence", async () => {
    const s = sandbox();
    const m = Mind.open(workspaceMindPath(s.project, s.env));
    const t0 = Date.parse('2026-05-04T09:00:00Z');
    for (let i = 0; i < 12; i++)
      m.save(turnFrame({ role: 'user', text: `Please tidy the navbar colours of page ${i} once more.`, host: 'claude-code', sessionId: `f${i}`, hostTurnId: `f${i}-0`, createdAt: new Date(t0 - (i + 1) * 86_400_000).toISOString() }));
    m.save(turnFrame({ role: 'user', text: 'The billing service talks to a PostgreSQL 15 database on port 6432. Its migrations live in db/migrate and run with pnpm db:migrate.', host: 'claude-code', sessionId: 's1', hostTurnId: 's1-0', createdAt: new Date(t0).toISOString() }));
    m.save({ content: 'The billing service talks to a PostgreSQL 15 database on port 6432.', kind: 'environment', scope: 'workspace', host: 'claude-code', sessionId: 's1', turnId: 's1-0#env' });
    m.close();
    const start = await context(s.env, 'SessionStart', payload('claude-code', 'SessionStart', 0, s.project));
    expect(start.text).toContain('port 6432');
    const prompt = await context(s.env, 'UserPromptSubmit', { ...payload('claude-code', 'UserPromptSubmit', 0, s.project), prompt: 'where do the billing database migrations live?', prompt_id: 'q1' });
    expect(prompt.text).toContain('db/migrate');
    expect(prompt.text).not.toContain('port 6432');
  });
});

describe('per-prompt floor (the mind\'s prompt-floor.ts, measured by bench/prompt-recall.mjs)', () => {
  it('"which database version do we use?" brings back "database is postgres 16"; a prompt of task words only brings nothing', async () => {
    const s = sandbox();
    const m = Mind.open(workspaceMindPath(s.project, s.env));
    for (const content of ['database is postgres 16', 'CI runs on GitHub Actions with node 20', 'Deploys run from the deploy/ folder with helm', 'The staging API listens on port 8443'])
      m.save({ content, scope: 'workspace' });
    m.close();
    const ask = (prompt: string, n: number) => context(s.env, 'UserPromptSubmit', { ...payload('claude-code', 'UserPromptSubmit', 0, s.project), session_id: `fresh-${n}`, prompt, prompt_id: `p${n}` });
    const db = await ask('which database version do we use?', 1);
    expect(db.text).toContain('database is postgres 16');
    expect(db.text).not.toContain('helm');
    expect((await ask('run it again', 2)).text).toBe('');
    expect((await ask('thanks, looks good', 3)).text).toBe('');
  });
});

describe('one framing per injection', () => {
  it('session start and a prompt say "data, not instructions" once, however many notes files and minds they hold', async () => {
    const s = sandbox();
    const notes = new Notes({ env: s.env });
    notes.add({ file: 'user' }, 'Prefers terse answers');
    notes.add({ file: 'memory' }, 'The staging API listens on port 8443');
    for (const path of [workspaceMindPath(s.project, s.env), personalMindPath(s.env)]) {
      const m = Mind.open(path);
      m.save({ content: `the database is postgres 16 (${path.endsWith('personal.mind') ? 'personal' : 'workspace'})` });
      m.close();
    }
    const start = await context(s.env, 'SessionStart', payload('claude-code', 'SessionStart', 0, s.project));
    expect(start.text).toContain('hive-mind notes: USER.md');
    expect(start.text).toContain('(personal)');
    expect(start.text.match(/data, not instructions/g)).toHaveLength(1);
    const prompt = await context(s.env, 'UserPromptSubmit', { ...payload('claude-code', 'UserPromptSubmit', 0, s.project), session_id: 'other', prompt: 'which database do we use?', prompt_id: 'p1' });
    expect(prompt.text).toContain('postgres 16');
    expect(prompt.text.match(/data, not instructions/g)).toHaveLength(1);
  });
});

describe('the notes thread is the host\'s own', () => {
  it("Claude Code's session_id picks that thread's MEMORY.md; another session gets the global one; HIVE_MIND_THREAD still overrides", async () => {
    const s = sandbox();
    const start = payload('claude-code', 'SessionStart', 0, s.project);
    const notes = new Notes({ env: s.env });
    notes.add({ file: 'memory' }, 'Global: the staging API listens on port 8443');
    notes.add({ file: 'memory', thread: String(start.session_id) }, 'This thread: we are halfway through the payments refactor');
    notes.add({ file: 'memory', thread: 'manual-key' }, 'Manual thread note');
    const mine = await context(s.env, 'SessionStart', start);
    expect(mine.text).toContain('halfway through the payments refactor');
    expect(mine.text).not.toContain('Global: the staging API');
    const other = await context(s.env, 'SessionStart', { ...start, session_id: 'another-session' });
    expect(other.text).toContain('Global: the staging API');
    expect(other.text).not.toContain('payments refactor');
    const forced = await context({ ...s.env, HIVE_MIND_THREAD: 'manual-key' }, 'SessionStart', start);
    expect(forced.text).toContain('Manual thread note');
  });
});
