/**
 * Faults a tester found in what the hooks inject, each through the REAL built CLI in a child
 * process (`npx tsc -b packages/cli` first) on real .mind and notes files: a corrupt mind that
 * silenced everything, the same fact injected three times, `get_memory` pointers that did not say
 * which mind, a MEMORY.md that vanished at a small budget, and Hermes' later turns.
 */
import { openSync, readFileSync, readdirSync, truncateSync, writeSync, closeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Mind, Notes, personalMindPath, workspaceMindPath } from '@hive-mind/mind';
import { logLines, payload, runCli, sandbox } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));

async function hook(env: NodeJS.ProcessEnv, event: 'SessionStart' | 'UserPromptSubmit', body: Record<string, unknown>): Promise<string> {
  const r = await runCli(['hook', 'claude-code', event], JSON.stringify(body), env);
  expect(r.code).toBe(0);
  return r.stdout.trim() ? ((JSON.parse(r.stdout) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? '') : '';
}

const prompt = (cwd: string, text: string, session = 'sess-faults') => ({ ...payload('claude-code', 'UserPromptSubmit', 0, cwd), prompt: text, session_id: session });
const start = (cwd: string, session = 'sess-faults') => ({ ...payload('claude-code', 'SessionStart', 0, cwd), session_id: session });

/** A sandbox with a USER.md note and a workspace mind holding one fact. */
function seeded(): ReturnType<typeof sandbox> {
  const s = sandbox();
  new Notes({ env: s.env }).add({ file: 'user' }, 'Prefers terse answers; no summary at the end');
  const w = Mind.open(workspaceMindPath(s.project, s.env));
  w.save({ content: 'the database is postgres 16', scope: 'workspace', importance: 'important' });
  w.close();
  const p = Mind.open(personalMindPath(s.env));
  p.save({ content: 'the user reviews diffs in vim' });
  p.close();
  return s;
}

describe('a corrupt .mind is skipped, never the whole injection', () => {
  for (const damage of ['truncated', 'garbage header'] as const) {
    it(`personal.mind ${damage}: notes and the workspace mind are injected, the capture is saved, the file is untouched`, async () => {
      const s = seeded();
      const pm = personalMindPath(s.env);
      if (damage === 'truncated') truncateSync(pm, 3000);
      else {
        const fd = openSync(pm, 'r+');
        writeSync(fd, Buffer.from('this is not a database at all!!'), 0, 31, 0);
        closeSync(fd);
      }
      const before = readFileSync(pm);
      const text = await hook(s.env, 'SessionStart', start(s.project));
      expect(text).toContain('Prefers terse answers');
      expect(text).toContain('the database is postgres 16');
      expect(text).toContain(`## hive-mind memory (personal): skipped, ${pm} is not a readable .mind file`);
      expect(text).toContain('hive-mind mind doctor --repair');
      const log = logLines(join(s.home, 'logs', 'hooks.log'));
      expect(log.some((l) => l.includes('personal mind skipped (CORRUPT)') && l.includes(pm))).toBe(true);

      // a prompt: its recall still comes from the workspace mind, its capture goes there, and the
      // preference meant for the corrupt personal mind waits in its spool instead of being lost
      const per = await hook(s.env, 'UserPromptSubmit', prompt(s.project, 'Which postgres database version do we run?', 'sess-other'));
      expect(per).toContain('the database is postgres 16');
      expect(per).not.toContain('skipped'); // said once, at session start; the hook log has it
      await hook(s.env, 'UserPromptSubmit', prompt(s.project, 'I prefer short answers without a summary.', 'sess-third'));
      const w = Mind.open(workspaceMindPath(s.project, s.env), { readonly: true });
      expect(w.list({ kind: 'prompt' }).map((f) => f.content)).toEqual(expect.arrayContaining(['Which postgres database version do we run?', 'I prefer short answers without a summary.']));
      w.close();
      expect(readFileSync(pm).equals(before)).toBe(true);
      const spools = readdirSync(dirname(pm)).filter((f) => f.startsWith('personal.mind.pending-'));
      expect(spools.length).toBe(1);
      expect(readFileSync(join(dirname(pm), spools[0]!), 'utf8')).toContain('I prefer short answers');
      expect(logLines(join(s.home, 'logs', 'hooks.log')).some((l) => l.includes('spooled to') && l.includes('doctor --repair'))).toBe(true);
    });
  }
});

describe('one fact is injected once', () => {
  it('a frame near-duplicating a notes entry, or a frame of the other mind, is left out (the notes entry and the higher importance kept)', async () => {
    const s = sandbox();
    new Notes({ env: s.env }).add({ file: 'memory' }, 'Never push directly to main; always open a pull request');
    const w = Mind.open(workspaceMindPath(s.project, s.env));
    w.save({ content: 'Never push directly to main; always open a pull request.', scope: 'workspace', importance: 'important' });
    w.save({ content: 'Tests run with npm test -- --run in the repository root', scope: 'workspace', importance: 'normal' });
    w.close();
    const p = Mind.open(personalMindPath(s.env));
    p.save({ content: 'Never push directly to the main branch; always open a pull request', importance: 'critical' });
    p.save({ content: 'Tests run with npm test --run in the repository root', importance: 'important' });
    p.close();
    const text = await hook(s.env, 'SessionStart', start(s.project));
    expect(text.match(/always open a pull request/g)?.length).toBe(1);
    expect(text).toContain('## hive-mind notes: MEMORY.md');
    // of the two minds' test-command frames, the personal (important) one is kept, not the workspace (normal) one
    expect(text.match(/Tests run with npm test/g)?.length).toBe(1);
    expect(text).toMatch(/## hive-mind memory \(personal\): important\n(?:- [^\n]*\n)*- \[#2 important[^\n]*Tests run with npm test --run/);

    // per prompt: the two minds' near-duplicates come back once, and nothing the notes say
    const s2 = sandbox();
    new Notes({ env: s2.env }).add({ file: 'memory' }, 'Never push directly to main; always open a pull request');
    const w2 = Mind.open(workspaceMindPath(s2.project, s2.env));
    w2.save({ content: 'Never push directly to main; always open a pull request.', scope: 'workspace' });
    w2.save({ content: 'The release branch is cut from main every Friday by the release captain', scope: 'workspace' });
    w2.close();
    const p2 = Mind.open(personalMindPath(s2.env));
    p2.save({ content: 'The release branch is cut from main every Friday by the release captain.' });
    p2.close();
    const per = await hook(s2.env, 'UserPromptSubmit', prompt(s2.project, 'when is the release branch cut from main, and should I push to main?', 'sess-dup'));
    expect(per.match(/release branch is cut from main/g)?.length).toBe(1);
    expect(per).not.toContain('always open a pull request');
  });
});

describe('the order of SessionStart', () => {
  it("what is important in either mind comes before normal frames; the workspace's normal frames first, the personal mind keeps a share", async () => {
    const s = sandbox();
    const w = Mind.open(workspaceMindPath(s.project, s.env));
    w.save({ content: 'Payments go through the Stripe sandbox in staging.', kind: 'fact', scope: 'workspace', importance: 'important' });
    for (let i = 0; i < 40; i++) w.save({ content: `Decided to keep module m${i} behind the flag f${i} until review ${i}.`, kind: 'decision', scope: 'workspace', sessionId: 'ws', turnId: `w${i}` });
    w.close();
    const p = Mind.open(personalMindPath(s.env));
    for (let i = 0; i < 80; i++) p.save({ content: `Personal decision ${i}: read the changelog of package p${i} before upgrading it.`, kind: 'decision', sessionId: 'ps', turnId: `p${i}` });
    p.save({ content: 'The user prefers short answers without a summary at the end.', kind: 'preference', importance: 'normal', sessionId: 'ps', turnId: 'pref' });
    p.close();
    const env = { ...s.env, HIVE_MIND_RECALL_TOKENS: '600' };
    const text = await hook(env, 'SessionStart', start(s.project));
    const headings = text.split('\n').filter((l) => l.startsWith('## hive-mind memory'));
    expect(headings).toEqual([
      `## hive-mind memory (workspace ${s.project}): important`,
      `## hive-mind memory (workspace ${s.project}): instructions and decisions`,
      '## hive-mind memory (personal): instructions and decisions',
    ]);
    // the important workspace fact is in, ahead of 120 normal decisions; both minds' normal decisions share the rest
    expect(text).toMatch(/: important\n- \[#1 important · fact[^\n]*Stripe sandbox/);
    expect(text).toContain('The user prefers short answers');
    expect(text.match(/Decided to keep module/g)!.length).toBeGreaterThan(2);
    expect(text.match(/Personal decision \d+/g)!.length).toBeGreaterThan(0);
    expect(text.match(/Personal decision \d+/g)!.length).toBeLessThan(text.match(/Decided to keep module/g)!.length);
  });
});

describe('get_memory pointers name the mind', () => {
  it('a cut item says `get_memory id N mind workspace|personal`, as the MCP tool takes it', async () => {
    const s = sandbox();
    const long = (what: string) => `The ${what} runbook: ` + Array.from({ length: 40 }, (_, i) => `step ${i}, check dashboard ${i} and its alerts;`).join(' ');
    const w = Mind.open(workspaceMindPath(s.project, s.env));
    const wid = w.save({ content: long('deploy'), scope: 'workspace', importance: 'important' }).id;
    w.close();
    const p = Mind.open(personalMindPath(s.env));
    const pid = p.save({ content: 'How the user likes reviews: ' + Array.from({ length: 30 }, (_, i) => `point ${i} of the checklist, read slowly;`).join(' '), importance: 'important' }).id;
    p.close();
    const text = await hook(s.env, 'SessionStart', start(s.project));
    expect(text).toContain(`(cut; get_memory id ${wid} mind workspace for the whole text)`);
    expect(text).toContain(`(cut; get_memory id ${pid} mind personal for the whole text)`);
    const per = await hook(s.env, 'UserPromptSubmit', prompt(s.project, 'what does the deploy runbook check on the dashboards?', 'sess-ptr'));
    expect(per).toMatch(new RegExp(`## hive-mind memory \\(workspace [^)]+\\)\\n[^\\n]*get_memory id ${wid} mind workspace`));
  });
});

describe('every notes file with entries is pointed to, whatever the budget', () => {
  it('at 300 tokens, USER.md and MEMORY.md both appear (entries or a one-line pointer)', async () => {
    const s = sandbox();
    const notes = new Notes({ env: s.env });
    for (let i = 0; i < 6; i++) notes.add({ file: 'user' }, `User fact ${i}: uses editor ${i} with theme ${i}`);
    for (let i = 0; i < 12; i++) notes.add({ file: 'memory' }, `Release note ${i}: the staging host db${i}.internal listens on port 84${i}`);
    for (const budget of [300, 450, 600]) {
      const text = await hook({ ...s.env, HIVE_MIND_RECALL_TOKENS: String(budget) }, 'SessionStart', start(s.project));
      for (const [file, n] of [['USER.md', 6], ['MEMORY.md', 12]] as const) {
        const shown = text.includes(`## hive-mind notes: ${file} (`);
        const pointed = text.includes(`## hive-mind notes: ${file}: ${n} entries in ${join(s.home, 'memories', file)}, not shown: budget`);
        expect(shown || pointed, `${file} at ${budget}`).toBe(true);
      }
    }
  });
});

describe('the per-prompt block says what it carries', () => {
  it('its header does not claim notes; Hermes later turns get the per-prompt recall (pre_llm_call is per turn)', async () => {
    const s = seeded();
    const per = await hook(s.env, 'UserPromptSubmit', prompt(s.project, 'Which postgres database version do we run?'));
    expect(per).toContain('the database is postgres 16');
    expect(per).not.toMatch(/\bnotes\b/);
    const later = JSON.parse(readFileSync(join(here, 'fixtures', 'hermes', 'pre_llm_call.later.json'), 'utf8').split('/home/user/project').join(s.project)) as { extra: Record<string, unknown> };
    later.extra.user_message = 'Which postgres database version do we run?';
    const r = await runCli(['hook', 'hermes', 'pre_llm_call'], JSON.stringify(later), s.env);
    expect(r.code).toBe(0);
    const ctx = (JSON.parse(r.stdout) as { context?: string }).context ?? '';
    expect(ctx).toContain('the database is postgres 16');
    expect(ctx).not.toContain('Prefers terse answers'); // notes come with the first turn only
  });
});
