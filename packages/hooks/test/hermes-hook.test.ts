/**
 * Hermes contract tests. Payloads (test/fixtures/hermes/*.json) follow the shell-hook
 * wire protocol in Hermes Agent's hooks documentation, "Shell Hooks" > "JSON wire
 * protocol" (NousResearch/hermes-agent website/docs/user-guide/features/hooks.md):
 * `{hook_event_name, tool_name, tool_input, session_id, cwd, profile, extra}`, with the
 * event kwargs in `extra` (pre_llm_call: user_message, conversation_history,
 * is_first_turn, model, platform; post_llm_call: + assistant_response).
 * Process tests spawn the REAL built CLI (`npx tsc -b packages/cli` first).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Mind, personalMindPath, workspaceMindPath } from '@hive-mind/mind';
import { hermesAdapter } from '../src/hosts/hermes.js';
import { logLines, payload, runCli, sandbox } from './helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string, cwd?: string): Record<string, unknown> => {
  let t = fs.readFileSync(path.join(here, 'fixtures', 'hermes', name), 'utf8');
  if (cwd) t = t.split('/home/user/project').join(cwd);
  return JSON.parse(t) as Record<string, unknown>;
};

describe('hermes adapter (contract)', () => {
  it('maps the documented events', () => {
    expect(hermesAdapter.lifecycleOf('on_session_start')).toBe('session-start');
    expect(hermesAdapter.lifecycleOf('pre_llm_call')).toBe('user-prompt-submit');
    expect(hermesAdapter.lifecycleOf('post_llm_call')).toBe('stop');
    expect(hermesAdapter.lifecycleOf('pre_compact')).toBeUndefined(); // Hermes has no PreCompact
    expect(hermesAdapter.lifecycleOf('pre_tool_call')).toBeUndefined();
  });

  it('the first pre_llm_call of a session runs session-start (on_session_start output is ignored by Hermes)', () => {
    const i = hermesAdapter.normalize('pre_llm_call', fixture('pre_llm_call.first.json'));
    expect(i).toMatchObject({ lifecycle: 'session-start', host: 'hermes', sessionId: 'sess_20261130_a1', cwd: '/home/user/project', workspaceRoots: ['/home/user/project'] });
    expect(i.prompt).toBe('Which port does the staging API listen on?');
  });

  it('later pre_llm_call saves the prompt with a stable turn id', () => {
    const a = hermesAdapter.normalize('pre_llm_call', fixture('pre_llm_call.later.json'));
    const b = hermesAdapter.normalize('pre_llm_call', fixture('pre_llm_call.later.json'));
    expect(a.lifecycle).toBe('user-prompt-submit');
    expect(a.prompt).toBe('Remember that we deploy with blue-green on Fridays.');
    expect(a.turnId).toMatch(/^p-[0-9a-f]{16}$/);
    expect(a.turnId).toBe(b.turnId);
  });

  it('post_llm_call carries the assistant response and the user message', () => {
    const i = hermesAdapter.normalize('post_llm_call', fixture('post_llm_call.json'));
    expect(i).toMatchObject({ lifecycle: 'stop', assistantText: 'The staging API listens on port 8443 (see deploy/staging.env).', prompt: 'Which port does the staging API listen on?' });
    expect(i.turnId).toMatch(/^s-[0-9a-f]{16}$/);
    const withId = hermesAdapter.normalize('post_llm_call', { ...fixture('post_llm_call.json'), extra: { ...(fixture('post_llm_call.json').extra as object), turn_id: 't-42' } });
    expect(withId.turnId).toBe('t-42');
  });

  it('renders {"context": …} or an empty object', () => {
    expect(JSON.parse(hermesAdapter.render('pre_llm_call', { additionalContext: 'port 8443' }))).toEqual({ context: 'port 8443' });
    expect(hermesAdapter.render('pre_llm_call', {})).toBe('{}');
    expect(hermesAdapter.render('post_llm_call', {})).toBe('{}');
  });

  it('tolerates wrong shapes without guessing', () => {
    const i = hermesAdapter.normalize('post_llm_call', { session_id: 5, extra: 'nope' });
    expect(i.sessionId).toBeUndefined();
    expect(i.assistantText).toBeUndefined();
    expect(() => hermesAdapter.normalize('on_tool_call', {})).toThrow(/unsupported hook event/);
  });
});

describe('hermes hooks through the real CLI', () => {
  it('pre_llm_call saves what the user states; the next session\'s first pre_llm_call injects it as {"context": …}', async () => {
    const s = sandbox();
    const r1 = await runCli(['hook', 'hermes', 'pre_llm_call'], JSON.stringify(fixture('pre_llm_call.later.json', s.project)), s.env);
    expect(r1.code).toBe(0);
    expect(r1.stdout.trim()).toBe('{}');
    const r2 = await runCli(['hook', 'hermes', 'post_llm_call'], JSON.stringify(fixture('post_llm_call.json', s.project)), s.env);
    expect(r2.code).toBe(0);
    expect(r2.stdout.trim()).toBe('{}');
    const r3 = await runCli(['hook', 'hermes', 'pre_llm_call'], JSON.stringify({ ...fixture('pre_llm_call.first.json', s.project), session_id: 'sess_next' }), s.env);
    expect(r3.code).toBe(0);
    const out = JSON.parse(r3.stdout) as { context?: string };
    expect(out.context).toContain('blue-green on Fridays');
    const m = Mind.open(workspaceMindPath(s.project, s.env), { readonly: true });
    try {
      expect(m.list({ kind: 'reply' }).filter((f) => f.content.includes('8443'))).toHaveLength(1);
      // what the reply established (where the staging API listens), saved once
      expect(m.list().filter((f) => f.kind === 'environment' && f.source === 'agent_inferred' && f.content.includes('8443'))).toHaveLength(1);
    } finally {
      m.close();
    }
    expect(logLines(path.join(s.home, 'logs', 'hooks.log'))).toEqual([]);
  });

  it("another host's payload (real Codex Stop) is refused: exit 0, {}, one log line, nothing stored", async () => {
    const s = sandbox();
    const r = await runCli(['hook', 'hermes', 'post_llm_call'], JSON.stringify(payload('codex', 'Stop', 0, s.project)), s.env);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('{}');
    const lines = logLines(path.join(s.home, 'logs', 'hooks.log'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/payload is for event "Stop", not hermes post_llm_call/);
    expect(fs.existsSync(workspaceMindPath(s.project, s.env))).toBe(false);
  });

  it('compact-on-stop: a failing cleanup still exits 0, the save is done once, no stamp is written', async () => {
    const s = sandbox();
    const env = { ...s.env, HIVE_MIND_HERMES_COMPACT_ON_STOP: '1' };
    // a corrupt personal mind makes the (real) cleanup fail; the turn is saved in the workspace mind
    fs.mkdirSync(path.dirname(personalMindPath(env)), { recursive: true });
    fs.writeFileSync(personalMindPath(env), 'this is not a SQLite database'.repeat(200));
    const payload = JSON.stringify(fixture('post_llm_call.json', s.project));
    for (let i = 0; i < 2; i++) {
      const r = await runCli(['hook', 'hermes', 'post_llm_call'], payload, env);
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe('{}');
    }
    const m = Mind.open(workspaceMindPath(s.project, env), { readonly: true });
    try {
      expect(m.list({ kind: 'reply' }).filter((f) => f.content.includes('8443'))).toHaveLength(1);
      // what the reply established (where the staging API listens), saved once
      expect(m.list().filter((f) => f.kind === 'environment' && f.source === 'agent_inferred' && f.content.includes('8443'))).toHaveLength(1);
    } finally {
      m.close();
    }
    const lines = logLines(path.join(s.home, 'logs', 'hooks.log'));
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l).toMatch(/hermes post_llm_call: .*cleanup failed/);
    expect(fs.existsSync(path.join(s.root, 'home', '.hermes', '.hive-mind-last-compact'))).toBe(false);
  });

  it('compact-on-stop: a turn with no assistant response still runs cleanup (real CLI)', async () => {
    const s = sandbox();
    const p = fixture('post_llm_call.json', s.project);
    const extra = { ...(p.extra as Record<string, unknown>), assistant_response: '' };
    const r = await runCli(['hook', 'hermes', 'post_llm_call'], JSON.stringify({ ...p, extra }), { ...s.env, HIVE_MIND_HERMES_COMPACT_ON_STOP: '1' });
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(s.root, 'home', '.hermes', '.hive-mind-last-compact'))).toBe(true);
    expect(fs.existsSync(workspaceMindPath(s.project, s.env))).toBe(false); // nothing to save
    expect(logLines(path.join(s.home, 'logs', 'hooks.log'))).toEqual([]);
  });

  it('compact-on-stop on: a successful cleanup writes the stamp; default off writes none', async () => {
    const s = sandbox();
    const payload = JSON.stringify(fixture('post_llm_call.json', s.project));
    const stamp = path.join(s.root, 'home', '.hermes', '.hive-mind-last-compact');
    expect((await runCli(['hook', 'hermes', 'post_llm_call'], payload, s.env)).code).toBe(0);
    expect(fs.existsSync(stamp)).toBe(false);
    const r = await runCli(['hook', 'hermes', 'post_llm_call'], payload, { ...s.env, HIVE_MIND_HERMES_COMPACT_ON_STOP: 'true' });
    expect(r.code).toBe(0);
    expect(new Date(fs.readFileSync(stamp, 'utf8').trim()).getTime()).not.toBeNaN();
    expect(logLines(path.join(s.home, 'logs', 'hooks.log'))).toEqual([]);
  });
});
