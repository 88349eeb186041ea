import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { copyFileSync, existsSync, mkdirSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Mind, workspaceMindPath, personalMindPath } from '@hive-mind/mind';
import { runHook } from '../src/index.js';
import { DATA, payload, sandbox } from './helpers.js';

async function hook(env: NodeJS.ProcessEnv, host: 'claude-code' | 'codex', event: string, body: unknown) {
  return runHook([host, event], { stdin: Readable.from([typeof body === 'string' ? body : JSON.stringify(body)]), env, write: () => undefined });
}

function frames(path: string) {
  const m = Mind.open(path, { readonly: true });
  try {
    return m.list({ limit: 1000, history: true });
  } finally {
    m.close();
  }
}

describe('lifecycles through the runner (real .mind files)', () => {
  it('a correction supersedes the old fact, in one session and across sessions: only the new value comes back, at the old importance', async () => {
    const s = sandbox();
    const prompt = (session: string, n: number, text: string) => ({ ...payload('claude-code', 'UserPromptSubmit', 2, s.project), session_id: session, prompt_id: `${session}-${n}`, prompt: text });
    const start = async (session: string) => {
      const r = await hook(s.env, 'claude-code', 'SessionStart', { ...payload('claude-code', 'SessionStart', 0, s.project), session_id: session });
      return (JSON.parse(r.output) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    };
    await hook(s.env, 'claude-code', 'UserPromptSubmit', prompt('s1', 1, 'Remember that the admin dashboard runs on port 7142.'));
    await hook(s.env, 'claude-code', 'UserPromptSubmit', prompt('s1', 2, 'We switched the bundler from webpack to esbuild last sprint.'));
    expect(await start('s2')).toContain('port 7142');
    await hook(s.env, 'claude-code', 'UserPromptSubmit', prompt('s2', 1, 'The admin dashboard now runs on port 7200, not 7142 any more.'));
    await hook(s.env, 'claude-code', 'UserPromptSubmit', prompt('s2', 2, 'We moved off esbuild; the bundler is now Vite.'));
    const next = await start('s3');
    expect(next).toContain('port 7200');
    expect(next).toContain('Vite');
    expect(next).not.toMatch(/runs on port 7142\./);
    expect(next).not.toContain('from webpack to esbuild');
    const fs = frames(workspaceMindPath(s.project, s.env)).filter((f) => f.kind !== 'prompt');
    expect(fs.find((f) => f.content.includes('7200'))?.importance).toBe('important');
    // within one session: a correction said right after the fact retires it too
    await hook(s.env, 'claude-code', 'UserPromptSubmit', prompt('s3', 1, 'Remember that the billing database listens on port 5432.'));
    await hook(s.env, 'claude-code', 'UserPromptSubmit', prompt('s3', 2, 'Die Billing-Datenbank läuft jetzt auf Port 6432 statt 5432.'));
    const after = await start('s4');
    expect(after).toContain('6432');
    expect(after).not.toContain('listens on port 5432');
  });

  it('user-prompt-submit saves the prompt as a turn of the history (durable, with its session, turn id and folder) and a stated fact beside it, idempotently', async () => {
    const s = sandbox();
    const p = payload('claude-code', 'UserPromptSubmit', 2, s.project);
    for (let i = 0; i < 3; i++) expect((await hook(s.env, 'claude-code', 'UserPromptSubmit', p)).error).toBeUndefined();
    const fs = frames(workspaceMindPath(s.project, s.env));
    expect(fs.map((f) => [f.kind, f.importance, f.content]).sort()).toEqual([
      ['fact', 'important', 'The build uses pnpm'],
      ['prompt', 'normal', 'remember that the build uses pnpm'],
    ]);
    const turn = fs.find((f) => f.kind === 'prompt')!;
    expect(turn).toMatchObject({ expiresAt: null, source: 'user_stated', cwd: s.project, scope: 'workspace' });
    expect(turn.turnId.startsWith(`${p.prompt_id}#`)).toBe(true);
    expect(fs.every((f) => f.host === 'claude-code' && f.sessionId === p.session_id && f.workspace === s.project)).toBe(true);
  });

  it('user-prompt-submit keeps what mind import would: a stated value and a rule without a memory cue, never twice', async () => {
    const s = sandbox();
    const p = { ...payload('claude-code', 'UserPromptSubmit', 2, s.project), prompt: 'Never push directly to main. I would only want e2e tests for the parser. The staging API listens on port 8443.' };
    expect((await hook(s.env, 'claude-code', 'UserPromptSubmit', p)).error).toBeUndefined();
    const fs = frames(workspaceMindPath(s.project, s.env)).filter((f) => f.kind !== 'prompt');
    // a preference about the project is a rule of the work; the rules said one after another are one memory
    expect(fs.map((f) => [f.kind, f.importance, f.content]).sort()).toEqual([
      ['environment', 'normal', 'The staging API listens on port 8443.'],
      ['instruction', 'important', 'Never push directly to main. I would only want e2e tests for the parser.'],
    ]);
    expect(fs.every((f) => f.source === 'user_stated')).toBe(true);
  });

  it('session-start recalls the workspace memory in Claude Code and Codex formats, within the budget', async () => {
    const s = sandbox();
    await hook(s.env, 'claude-code', 'UserPromptSubmit', payload('claude-code', 'UserPromptSubmit', 2, s.project));
    const sub = join(s.project, 'packages', 'a');
    mkdirSync(sub, { recursive: true });
    for (const host of ['claude-code', 'codex'] as const) {
      const r = await hook(s.env, host, 'SessionStart', payload(host, 'SessionStart', 0, sub));
      const out = JSON.parse(r.output) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
      expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
      expect(out.hookSpecificOutput.additionalContext).toContain('The build uses pnpm');
    }
    // another project sees nothing
    const other = sandbox();
    const r = await hook({ ...other.env, HIVE_MIND_HOME: s.home }, 'claude-code', 'SessionStart', payload('claude-code', 'SessionStart', 0, other.project));
    expect(r.output).toBe('');
    expect(r.error).toBeUndefined();
  });

  it('session-start output stays within the token budget with many frames', async () => {
    const s = sandbox();
    const m = Mind.open(workspaceMindPath(s.project, s.env));
    m.saveMany(Array.from({ length: 300 }, (_, i) => ({ content: `Fact ${i}: the service module ${i} reads its settings from config/${i}.toml and retries three times.`, importance: 'important' as const, scope: 'workspace' as const })));
    m.close();
    for (const budget of [1500, 200]) {
      const r = await hook({ ...s.env, HIVE_MIND_RECALL_TOKENS: String(budget) }, 'claude-code', 'SessionStart', payload('claude-code', 'SessionStart', 0, s.project));
      const ctx = (JSON.parse(r.output) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
      expect(Math.ceil(ctx.length / 4)).toBeLessThanOrEqual(budget);
      expect(Math.ceil(ctx.length / 4)).toBeGreaterThan(budget / 2);
    }
  });

  it('session end keeps what a hook that blocked the agent requires, once per wording, as mind import does; the hook\'s steps and file lists are not kept', async () => {
    const s = sandbox();
    const t = join(s.root, 'transcript.jsonl');
    copyFileSync(join(DATA, 'transcripts/claude-code/coverage-test-fix.jsonl'), t);
    const end = { ...payload('claude-code', 'SessionEnd', 0, s.project), transcript_path: t };
    await hook(s.env, 'claude-code', 'SessionEnd', end);
    await hook(s.env, 'claude-code', 'SessionEnd', end);
    const policies = frames(workspaceMindPath(s.project, s.env)).filter((f) => f.tags.includes('hook'));
    expect(policies.length).toBeGreaterThan(0);
    for (const f of policies) {
      expect([f.kind, f.importance, f.source]).toEqual(['environment', 'normal', 'tool_verified']);
      expect(f.content).toMatch(/^The Stop hook \(stop\.sh\) blocks the agent: Uncommitted Changes Detected\. Cannot exit with (?:unstaged changes|untracked files)\.$/);
    }
    // the second SessionEnd added nothing
    expect(new Set(policies.map((f) => f.content)).size).toBe(policies.length);
  });

  it('stop keeps the reply as a turn and saves beside it what the reply established, from last_assistant_message or from the transcript tail when the payload has none; its status clause is left out', async () => {
    const s = sandbox();
    const long = 'I traced the failure to the lockfile. We decided to pin pnpm to 9.12 because 9.13 breaks workspace links. Fixed the CI config in .github/workflows/ci.yml accordingly.';
    await hook(s.env, 'codex', 'Stop', { ...payload('codex', 'Stop', 0, s.project), last_assistant_message: long });
    const t = join(s.root, 'transcript.jsonl');
    copyFileSync(join(DATA, 'transcripts/claude-code/native-compact-2.1.332.jsonl'), t);
    appendFileSync(t, JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'The migration to ESM failed on the CommonJS config loader; I reverted src/config.cjs.' }] } }) + '\n');
    const p = payload('claude-code', 'Stop', 2, s.project);
    delete p.last_assistant_message;
    p.transcript_path = t;
    expect((await hook(s.env, 'claude-code', 'Stop', p)).error).toBeUndefined();
    // SessionEnd for the same prompt id stores nothing twice
    await hook(s.env, 'claude-code', 'SessionEnd', { ...payload('claude-code', 'SessionEnd', 0, s.project), transcript_path: t });
    const all = frames(workspaceMindPath(s.project, s.env));
    // each reply is a turn of the history, whole, once (Stop's and SessionEnd's are one); SessionEnd
    // also kept the transcript's earlier reply the hooks had not seen
    expect(all.filter((f) => f.kind === 'reply').map((f) => [f.host, f.content]).sort()).toEqual([
      ['claude-code', 'Hello from fake model.'],
      ['claude-code', 'The migration to ESM failed on the CommonJS config loader; I reverted src/config.cjs.'],
      ['codex', long],
    ]);
    const outs = all.filter((f) => f.kind !== 'prompt' && f.kind !== 'reply');
    // beside them, what each reply established, never critical; the narration and the edit list around it are not kept
    expect(outs.map((f) => [f.host, f.kind, f.importance, f.source, f.content]).sort()).toEqual([
      ['claude-code', 'fact', 'normal', 'agent_inferred', 'The migration to ESM failed on the CommonJS config loader.'],
      ['codex', 'decision', 'normal', 'agent_inferred', 'Decided to pin pnpm to 9.12 because 9.13 breaks workspace links.'],
    ]);
  });

  it('stop keeps a reply that says nothing lasting ("Sure, here you go.") only in the history: a turn, found by search, never recalled at session start', async () => {
    const s = sandbox();
    const p = { ...payload('codex', 'Stop', 0, s.project), last_assistant_message: 'Sure, here you go. Let me know if you need anything else.' };
    await hook(s.env, 'codex', 'Stop', p);
    const fs = frames(workspaceMindPath(s.project, s.env));
    expect(fs.map((f) => [f.kind, f.importance])).toEqual([['reply', 'normal']]);
    expect(fs[0]!.turnId.startsWith(`${String((p as Record<string, unknown>).turn_id)}#`)).toBe(true);
    const m = Mind.open(workspaceMindPath(s.project, s.env), { readonly: true });
    expect(m.recall({ budgetTokens: 500 }).frames).toEqual([]);
    expect(m.search('anything else').map((h) => h.kind)).toEqual(['reply']);
    m.close();
  });

  it("an acknowledgement (\"Noted, I will write commit messages that way.\") is no memory of its own: only the user's rule is kept beside the turns, and the next session's prompt recall gives the rule, never the agent's echo of it", async () => {
    const s = sandbox();
    const t = join(s.root, 'transcript.jsonl');
    const line = (type: 'user' | 'assistant', text: string, i: number) =>
      JSON.stringify({ type, uuid: `u${i}`, sessionId: 's1', cwd: s.project, timestamp: new Date(Date.now() - (10 - i) * 60_000).toISOString(), message: type === 'user' ? { role: 'user', content: text } : { role: 'assistant', content: [{ type: 'text', text }] } }) + '\n';
    const turn = async (i: number, prompt: string, reply: string) => {
      await hook(s.env, 'claude-code', 'UserPromptSubmit', { ...payload('claude-code', 'UserPromptSubmit', 2, s.project), session_id: 's1', prompt_id: `p${i}`, prompt });
      appendFileSync(t, line('user', prompt, 2 * i) + line('assistant', reply, 2 * i + 1));
      await hook(s.env, 'claude-code', 'Stop', { ...payload('claude-code', 'Stop', 2, s.project), session_id: 's1', transcript_path: t, last_assistant_message: reply });
    };
    await turn(0, 'Write commit messages in the imperative mood, under 50 characters.', 'Noted, I will write commit messages that way.');
    await turn(1, 'la base de facturation tourne sur le port 5433 avec PostgreSQL 15.', "D'accord, c'est noté : la base de facturation est sur le port 5433.");
    const kept = frames(workspaceMindPath(s.project, s.env)).filter((f) => f.kind !== 'prompt' && f.kind !== 'reply');
    expect(kept.map((f) => [f.kind, f.source, f.content]).sort()).toEqual([
      ['environment', 'user_stated', 'la base de facturation tourne sur le port 5433 avec PostgreSQL 15.'],
      ['instruction', 'user_stated', 'Write commit messages in the imperative mood, under 50 characters.'],
    ]);
    const r = await hook(s.env, 'claude-code', 'UserPromptSubmit', { ...payload('claude-code', 'UserPromptSubmit', 2, s.project), session_id: 's2', prompt_id: 'q1', prompt: 'how should I write commit messages?' });
    const ctx = (JSON.parse(r.output) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(ctx).toContain('Write commit messages in the imperative mood');
    expect(ctx).not.toContain('Noted, I will');
  });

  it("session end keeps each turn of the transcript in the workspace of the folder the transcript says it was said in (a session that cd's elsewhere, a payload cwd that differs)", async () => {
    const s = sandbox();
    const other = join(s.root, 'other');
    mkdirSync(join(other, '.git'), { recursive: true });
    mkdirSync(join(other, 'src'), { recursive: true });
    const t = join(s.root, 'transcript.jsonl');
    const line = (type: 'user' | 'assistant', text: string, i: number, cwd: string) =>
      JSON.stringify({ type, uuid: `u${i}`, sessionId: 's1', cwd, timestamp: new Date(Date.now() - (10 - i) * 60_000).toISOString(), message: type === 'user' ? { role: 'user', content: text } : { role: 'assistant', content: [{ type: 'text', text }] } }) + '\n';
    appendFileSync(t, line('user', 'The billing db runs on port 5433.', 0, s.project) + line('assistant', 'OK, noted for the billing service.', 1, s.project));
    // the session moved to another repository (a subfolder of it) for its last turn
    appendFileSync(t, line('user', 'Here the deploy target is fly.io, region ams.', 2, other) + line('assistant', 'The deploy config in fly.toml targets region ams.', 3, join(other, 'src')));
    await hook(s.env, 'claude-code', 'SessionEnd', { ...payload('claude-code', 'SessionEnd', 0, s.project), session_id: 's1', transcript_path: t });
    const here = frames(workspaceMindPath(s.project, s.env)).filter((f) => f.kind === 'prompt' || f.kind === 'reply');
    const there = frames(workspaceMindPath(other, s.env)).filter((f) => f.kind === 'prompt' || f.kind === 'reply');
    expect(here.map((f) => f.content).sort()).toEqual(['OK, noted for the billing service.', 'The billing db runs on port 5433.']);
    expect(there.map((f) => [f.content, f.cwd]).sort()).toEqual([
      ['Here the deploy target is fly.io, region ams.', other],
      ['The deploy config in fly.toml targets region ams.', join(other, 'src')],
    ]);
    expect(there.every((f) => f.workspace === other)).toBe(true);
  });

  it('a fact session start gave is not given again for the prompt that asks it, but search and recall still show it, and a later prompt on another fact of the same session gets its evidence', async () => {
    const s = sandbox();
    const ctxOf = (r: { output: string }) => (r.output ? (JSON.parse(r.output) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext : '');
    const say = async (session: string, n: number, prompt: string, reply: string) => {
      const r = await hook(s.env, 'claude-code', 'UserPromptSubmit', { ...payload('claude-code', 'UserPromptSubmit', 2, s.project), session_id: session, prompt_id: `${session}-${n}`, prompt });
      if (reply) await hook(s.env, 'claude-code', 'Stop', { ...payload('claude-code', 'Stop', 2, s.project), session_id: session, last_assistant_message: reply });
      return ctxOf(r);
    };
    await say('s1', 1, 'the billing db is on port 5433', 'OK.');
    await say('s1', 2, 'Release branches are cut every second Tuesday.', 'Understood.');
    const start = ctxOf(await hook(s.env, 'claude-code', 'SessionStart', { ...payload('claude-code', 'SessionStart', 0, s.project), session_id: 's2' }));
    expect(start).toContain('the billing db is on port 5433');
    expect(await say('s2', 1, 'which port is the billing db on?', '')).toBe('');
    expect(await say('s2', 2, 'when do we cut release branches?', '')).toContain('Release branches are cut every second Tuesday.');
    const m = Mind.open(workspaceMindPath(s.project, s.env), { readonly: true });
    try {
      expect(m.search('which port is the billing db on?')[0]!.content).toBe('the billing db is on port 5433');
      expect(m.recall({ budgetTokens: 500 }).frames.map((f) => f.content)).toContain('the billing db is on port 5433');
    } finally {
      m.close();
    }
  });

  it('pre-compact runs mind cleanup (expired frames deleted) on the workspace and personal minds', async () => {
    const s = sandbox();
    const past = new Date(Date.now() - 3600_000).toISOString();
    for (const path of [workspaceMindPath(s.project, s.env), personalMindPath(s.env)]) {
      const m = Mind.open(path);
      m.save({ content: `expired note for ${path}`, importance: 'temporary', expiresAt: past });
      m.save({ content: `kept note for ${path}`, importance: 'important' });
      m.close();
    }
    const r = await hook(s.env, 'claude-code', 'PreCompact', payload('claude-code', 'PreCompact', 0, s.project));
    expect(r).toEqual({ output: '' });
    for (const path of [workspaceMindPath(s.project, s.env), personalMindPath(s.env)]) expect(frames(path).map((f) => f.content)).toEqual([`kept note for ${path}`]);
  });

  it('events we do not handle and payloads for another event are logged, output stays valid', async () => {
    const s = sandbox();
    const r1 = await hook(s.env, 'claude-code', 'PostCompact', payload('claude-code', 'PostCompact', 0, s.project));
    expect(r1.output).toBe('');
    expect(r1.error).toMatch(/not handled/);
    const r2 = await hook(s.env, 'claude-code', 'SessionStart', payload('claude-code', 'Stop', 0, s.project));
    expect(r2.output).toBe('');
    expect(r2.error).toMatch(/payload is for event "Stop"/);
    expect(existsSync(workspaceMindPath(s.project, s.env))).toBe(false);
  });
});
