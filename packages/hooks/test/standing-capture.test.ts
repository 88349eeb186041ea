import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Mind, workspaceMindPath } from '@hive-mind/mind';
import { payload, runCli, sandbox } from './helpers.js';

/** One hook event through the real CLI in a child process, as a host runs it. */
async function hook(env: NodeJS.ProcessEnv, event: string, body: Record<string, unknown>): Promise<string> {
  const r = await runCli(['hook', 'claude-code', event], JSON.stringify(body), env);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

function standing(path: string) {
  const m = Mind.open(path, { readonly: true });
  try {
    return m.list({ limit: 1000 }).filter((f) => f.importance !== 'temporary');
  } finally {
    m.close();
  }
}

describe('what a session leaves as standing memory, through the hook runner', () => {
  it('facts said in prompts and reported in replies are kept; remarks in passing and status chatter are not; nothing is critical without the user\'s mark', async () => {
    const s = sandbox();
    const turns: Array<{ prompt: string; reply: string }> = [
      { prompt: 'The billing database is PostgreSQL 16 on port 5433.', reply: 'Noted. I checked the connection string in config/db.toml and it matches.' },
      { prompt: 'I prefer short answers without a summary at the end.', reply: 'Understood.' },
      { prompt: 'Migrate the unit tests from jest to vitest.', reply: 'Switched the test runner from jest to vitest; all 34 tests pass.' },
      { prompt: 'Where is staging?', reply: 'The staging API is served at https://staging.example.com:8443.' },
      { prompt: 'Release branches are cut every Monday from main.', reply: 'Got it.' },
      { prompt: 'Why did the invoice export crash?', reply: 'The bug was caused by a stale cache key in src/cache.ts; fixed by keying on the invoice id.' },
      { prompt: 'Never mind, revert that last change to the navbar.', reply: 'Reverted the navbar change.' },
      { prompt: 'run the tests again', reply: 'All clean, all committed.' },
      { prompt: "don't worry about the lint warnings for now", reply: 'OK, leaving them.' },
      { prompt: 'Make sure this is all implemented and functional', reply: 'Done! Committed as 3f2a9c1.' },
    ];
    const up = payload('claude-code', 'UserPromptSubmit', 0, s.project);
    const stop = payload('claude-code', 'Stop', 0, s.project);
    for (const [i, t] of turns.entries()) {
      await hook(s.env, 'UserPromptSubmit', { ...up, prompt_id: `p-${i}`, prompt: t.prompt });
      await hook(s.env, 'Stop', { ...stop, prompt_id: `p-${i}`, last_assistant_message: t.reply });
    }
    const kept = standing(workspaceMindPath(s.project, s.env));
    const text = kept.map((f) => f.content).join('\n');
    for (const fact of ['PostgreSQL 16 on port 5433', 'vitest', 'staging.example.com:8443', 'every Monday', 'stale cache key']) expect(text, fact).toContain(fact);
    for (const remark of ['Never mind', 'navbar', 'run the tests again', 'lint warnings', 'implemented and functional', 'All clean', 'Committed as', '34 tests pass']) expect(text, remark).not.toContain(remark);
    expect(kept.filter((f) => f.importance === 'critical')).toEqual([]);
    expect(kept.filter((f) => f.source === 'agent_inferred').every((f) => f.importance === 'normal')).toBe(true);

    // a new session is given the facts, and not one of the remarks
    const start = await hook(s.env, 'SessionStart', { ...payload('claude-code', 'SessionStart', 0, s.project), session_id: 'session-2' });
    const injected = (JSON.parse(start) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    for (const fact of ['port 5433', 'vitest', ':8443', 'every Monday', 'stale cache key']) expect(injected, fact).toContain(fact);
    for (const remark of ['Never mind', 'navbar', 'tests again', 'lint warnings', 'All clean', 'Committed as']) expect(injected, remark).not.toContain(remark);
    expect(injected).not.toMatch(/critical/);
  }, 120_000);

  it('the user\'s explicit mark makes a prompt critical; the same rule without it is important', async () => {
    const s = sandbox();
    const up = payload('claude-code', 'UserPromptSubmit', 0, s.project);
    await hook(s.env, 'UserPromptSubmit', { ...up, prompt_id: 'p-1', prompt: 'critical: never run migrations against the production database' });
    await hook(s.env, 'UserPromptSubmit', { ...up, prompt_id: 'p-2', prompt: 'Never push directly to main.' });
    const kept = standing(workspaceMindPath(s.project, s.env)).map((f) => [f.kind, f.importance, f.content]);
    expect(kept.sort()).toEqual([
      ['instruction', 'critical', 'never run migrations against the production database'],
      ['instruction', 'important', 'Never push directly to main.'],
    ]);
  }, 60_000);

  it('a rule the reply acknowledges as lasting is kept at Stop from the transcript\'s prompt; a one-off order the agent just carries out is not', async () => {
    const s = sandbox();
    const line = (role: 'user' | 'assistant', i: number, text: string) =>
      JSON.stringify({ type: role, uuid: `u${i}`, parentUuid: i ? `u${i - 1}` : null, sessionId: 'sess-ack', message: role === 'user' ? { role, content: text } : { role, id: `m${i}`, content: [{ type: 'text', text }] } });
    const ack = join(s.root, 'ack.jsonl');
    writeFileSync(ack, [line('user', 0, 'Use vitest for new tests.'), line('assistant', 1, "Got it — I'll use vitest for new tests from now on.")].join('\n') + '\n');
    const oneOff = join(s.root, 'one-off.jsonl');
    writeFileSync(oneOff, [line('user', 0, 'Use vitest for the new parser test.'), line('assistant', 1, 'Added src/parser.test.ts with vitest; all 3 tests pass.')].join('\n') + '\n');
    const up = payload('claude-code', 'UserPromptSubmit', 0, s.project);
    const stop = payload('claude-code', 'Stop', 0, s.project);
    await hook(s.env, 'UserPromptSubmit', { ...up, prompt_id: 'p-ack', prompt: 'Use vitest for new tests.' });
    await hook(s.env, 'Stop', { ...stop, prompt_id: 'p-ack', transcript_path: ack, last_assistant_message: "Got it — I'll use vitest for new tests from now on." });
    await hook(s.env, 'UserPromptSubmit', { ...up, prompt_id: 'p-one', prompt: 'Use vitest for the new parser test.' });
    await hook(s.env, 'Stop', { ...stop, prompt_id: 'p-one', transcript_path: oneOff, last_assistant_message: 'Added src/parser.test.ts with vitest; all 3 tests pass.' });
    const rules = standing(workspaceMindPath(s.project, s.env)).filter((f) => f.kind === 'instruction');
    expect(rules.map((f) => [f.kind, f.importance, f.source, f.content])).toEqual([['instruction', 'normal', 'user_stated', 'Use vitest for new tests.']]);
  }, 60_000);
});
