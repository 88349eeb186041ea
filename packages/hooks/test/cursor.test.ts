/**
 * Cursor: adapter contract tests and installer round trips.
 * Payloads (test/fixtures/cursor/*.json) are built from Cursor's hooks documentation,
 * https://cursor.com/docs/agent/hooks (common fields conversation_id, generation_id,
 * hook_event_name, workspace_roots, model, cursor_version, user_email; per-event fields
 * listed in fixtures/cursor/README.md). Process tests spawn the REAL built CLI
 * (`npx tsc -b packages/cli` first).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Mind, workspaceMindPath } from '@hive-mind/mind';
import { cursorAdapter } from '../src/hosts/cursor.js';
import { cursorHooksPath, cursorInstaller } from '../src/hosts/cursor-install.js';
import { CLI, configOf, logLines, payload, runCli, sandbox } from './helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtureText = (name: string) => fs.readFileSync(path.join(here, 'fixtures', 'cursor', name), 'utf8');
const fixture = (name: string, cwd?: string): Record<string, unknown> => {
  let t = fixtureText(name);
  if (cwd) t = t.split('/home/user/project').join(cwd);
  return JSON.parse(t) as Record<string, unknown>;
};

describe('cursor adapter (contract)', () => {
  it('maps events and reads workspace_roots, conversation_id and generation_id', () => {
    const i = cursorAdapter.normalize('beforeSubmitPrompt', fixture('beforeSubmitPrompt.json'));
    expect(i).toMatchObject({
      lifecycle: 'user-prompt-submit',
      host: 'cursor',
      sessionId: '668320d2-2fd8-4888-b33c-2a466fec86e7',
      turnId: '9a7e1e08-5d4c-4f34-9f3b-0c1f3f3f7d11',
      cwd: '/home/user/project',
      workspaceRoots: ['/home/user/project'],
      prompt: 'Remember that the billing service must never call the payments API synchronously.',
    });
    expect(cursorAdapter.normalize('sessionStart', fixture('sessionStart.json')).lifecycle).toBe('session-start');
    expect(cursorAdapter.normalize('preCompact', fixture('preCompact.json'))).toMatchObject({ lifecycle: 'pre-compact', trigger: 'auto' });
    expect(cursorAdapter.lifecycleOf('beforeShellExecution')).toBeUndefined();
  });

  it('afterAgentResponse: the text is the outcome; turn id is stable per message, distinct across messages', () => {
    const a = cursorAdapter.normalize('afterAgentResponse', fixture('afterAgentResponse.json'));
    expect(a.lifecycle).toBe('stop');
    expect(a.assistantText).toMatch(/outbox queue/);
    expect(a.turnId).toBe(cursorAdapter.normalize('afterAgentResponse', fixture('afterAgentResponse.json')).turnId);
    const other = cursorAdapter.normalize('afterAgentResponse', { ...fixture('afterAgentResponse.json'), text: 'A second message.' });
    expect(other.turnId).not.toBe(a.turnId);
    expect(other.turnId!.startsWith('9a7e1e08-5d4c-4f34-9f3b-0c1f3f3f7d11:')).toBe(true);
  });

  it('renders Cursor JSON per event', () => {
    expect(JSON.parse(cursorAdapter.render('sessionStart', { additionalContext: 'ctx' }))).toEqual({ continue: true, additional_context: 'ctx' });
    expect(JSON.parse(cursorAdapter.render('sessionStart', {}))).toEqual({ continue: true });
    expect(JSON.parse(cursorAdapter.render('beforeSubmitPrompt', {}))).toEqual({ continue: true });
    expect(JSON.parse(cursorAdapter.render('stop', {}))).toEqual({});
    expect(JSON.parse(cursorAdapter.render('afterAgentResponse', {}))).toEqual({});
    expect(JSON.parse(cursorAdapter.render('preCompact', {}))).toEqual({});
  });

  it('wrong shapes are read as missing, never guessed', () => {
    const i = cursorAdapter.normalize('beforeSubmitPrompt', { workspace_roots: 'not-an-array', prompt: 42, conversation_id: '' });
    expect(i.workspaceRoots).toBeUndefined();
    expect(i.prompt).toBeUndefined();
    expect(i.sessionId).toBeUndefined();
    expect(() => cursorAdapter.normalize('nope', {})).toThrow(/unsupported hook event "nope"/);
  });
});

describe('cursor hooks through the real CLI', () => {
  it('a stated fact is saved by beforeSubmitPrompt and injected by the next sessionStart; the response is captured', async () => {
    expect(fs.existsSync(CLI)).toBe(true);
    const s = sandbox();
    const r1 = await runCli(['hook', 'cursor', 'beforeSubmitPrompt'], JSON.stringify(fixture('beforeSubmitPrompt.json', s.project)), s.env);
    expect(r1.code).toBe(0);
    expect(JSON.parse(r1.stdout)).toEqual({ continue: true });
    const r2 = await runCli(['hook', 'cursor', 'afterAgentResponse'], JSON.stringify(fixture('afterAgentResponse.json', s.project)), s.env);
    expect(r2.code).toBe(0);
    expect(JSON.parse(r2.stdout)).toEqual({});
    // retried hook: nothing stored twice
    await runCli(['hook', 'cursor', 'afterAgentResponse'], JSON.stringify(fixture('afterAgentResponse.json', s.project)), s.env);
    const r3 = await runCli(['hook', 'cursor', 'sessionStart'], JSON.stringify({ ...fixture('sessionStart.json', s.project), conversation_id: 'next-chat' }), s.env);
    expect(r3.code).toBe(0);
    const out = JSON.parse(r3.stdout) as { continue: boolean; additional_context?: string };
    expect(out.continue).toBe(true);
    expect(out.additional_context).toContain('payments API synchronously');
    const m = Mind.open(workspaceMindPath(s.project, s.env), { readonly: true });
    try {
      // the response is a turn of the history, kept once
      expect(m.list({ kind: 'reply' }).filter((f) => f.content.includes('outbox queue'))).toHaveLength(1);
      // what the reply established (the call moved behind the outbox queue), saved once
      expect(m.list().filter((f) => f.source === 'agent_inferred' && f.importance === 'normal' && f.content.includes('outbox queue'))).toHaveLength(1);
    } finally {
      m.close();
    }
    const r4 = await runCli(['hook', 'cursor', 'preCompact'], JSON.stringify(fixture('preCompact.json', s.project)), s.env);
    expect(r4.code).toBe(0);
    expect(JSON.parse(r4.stdout)).toEqual({});
    expect(logLines(path.join(s.home, 'logs', 'hooks.log'))).toEqual([]);
  });

  it("another host's payload (real Claude Code UserPromptSubmit) is refused: exit 0, valid Cursor JSON, one log line, nothing stored", async () => {
    const s = sandbox();
    const r = await runCli(['hook', 'cursor', 'beforeSubmitPrompt'], JSON.stringify(payload('claude-code', 'UserPromptSubmit', 0, s.project)), s.env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ continue: true });
    const lines = logLines(path.join(s.home, 'logs', 'hooks.log'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/payload is for event "UserPromptSubmit", not cursor beforeSubmitPrompt/);
    expect(fs.existsSync(workspaceMindPath(s.project, s.env))).toBe(false);
  });

  it('bad input: exits 0, prints valid Cursor JSON, one log line', async () => {
    const s = sandbox();
    const r = await runCli(['hook', 'cursor', 'beforeSubmitPrompt'], '{"prompt": "trunc', s.env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ continue: true });
    expect(logLines(path.join(s.home, 'logs', 'hooks.log'))).toHaveLength(1);
  });
});

describe('cursor installer', () => {
  let home: string;
  let bin: string;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-cursor-'));
    bin = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-bin-'));
    // A stand-in hive-mind (a real node script) so installer tests do not depend on the CLI build.
    fs.writeFileSync(
      path.join(bin, 'hive-mind.js'),
      `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const e=process.argv[4];` +
        `process.stdout.write(e==='beforeSubmitPrompt'||e==='sessionStart'?'{"continue":true}':'{}')});`,
    );
  });
  afterEach(() => {
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(bin, { recursive: true, force: true });
  });
  const opts = () => ({ home, command: `${process.execPath} ${path.join(bin, 'hive-mind.js')}`, env: { ...process.env, HOME: home } });
  const file = () => cursorHooksPath(home);
  const ours = (text: string) => {
    const hooks = (parse(text) as { hooks: Record<string, Array<{ command: string }>> }).hooks;
    return Object.fromEntries(Object.entries(hooks).map(([k, v]) => [k, v.map((e) => (e.command.includes('hive-mind.js') ? 'ours' : e.command))]));
  };

  it('installs next to the user hooks, keeping comments; backup holds the original', async () => {
    fs.mkdirSync(path.dirname(file()), { recursive: true });
    fs.writeFileSync(file(), fixtureText('hooks.with-comments.json'));
    const r = await cursorInstaller.install(opts());
    expect(r.files[0]).toMatchObject({ changed: true });
    expect(fs.readFileSync(r.files[0]!.backup!, 'utf8')).toBe(fixtureText('hooks.with-comments.json'));
    const after = fs.readFileSync(file(), 'utf8');
    for (const c of ['// my Cursor hooks (user-level)', '// keep pushes off main', '/* audit every prompt */']) expect(after).toContain(c);
    expect(ours(after)).toEqual({
      beforeShellExecution: ['./hooks/block-git-push-main.sh'],
      afterFileEdit: ['./hooks/format.sh'],
      beforeSubmitPrompt: ['./hooks/audit-prompt.sh', 'ours'],
      sessionStart: ['ours'],
      afterAgentResponse: ['ours'],
      preCompact: ['ours'],
    });
    expect((parse(after) as { version: number }).version).toBe(1);
  });

  it('install twice equals install once', async () => {
    fs.mkdirSync(path.dirname(file()), { recursive: true });
    fs.writeFileSync(file(), fixtureText('hooks.with-comments.json'));
    await cursorInstaller.install(opts());
    const once = fs.readFileSync(file(), 'utf8');
    const r = await cursorInstaller.install(opts());
    expect(r.files[0]!.changed).toBe(false);
    expect(fs.readFileSync(file(), 'utf8')).toBe(once);
  });

  it('dry-run prints the diff and writes nothing', async () => {
    fs.mkdirSync(path.dirname(file()), { recursive: true });
    fs.writeFileSync(file(), fixtureText('hooks.with-comments.json'));
    const r = await cursorInstaller.install({ ...opts(), dryRun: true });
    expect(r.files[0]!.diff).toMatch(/^--- .*hooks\.json\n\+\+\+ .*hooks\.json\n@@ /);
    expect(r.files[0]!.diff).toMatch(/^\+.*hook cursor sessionStart/m);
    expect(fs.readFileSync(file(), 'utf8')).toBe(fixtureText('hooks.with-comments.json'));
    expect(fs.readdirSync(path.dirname(file()))).toEqual(['hooks.json']);
  });

  it('uninstall removes only ours and keeps the edits the user made after install', async () => {
    fs.mkdirSync(path.dirname(file()), { recursive: true });
    fs.writeFileSync(file(), fixtureText('hooks.with-comments.json'));
    await cursorInstaller.install(opts());
    // after install the user adds a hook of their own to one of "our" events, and a comment
    let edited = fs.readFileSync(file(), 'utf8');
    edited = edited.replace('"preCompact": [', '"preCompact": [\n      { "command": "./hooks/snapshot.sh" }, // mine, added later');
    edited = edited.replace('// my Cursor hooks (user-level)', '// my Cursor hooks (user-level), edited');
    fs.writeFileSync(file(), edited);
    const r = await cursorInstaller.uninstall(opts());
    expect(r.files[0]!.changed).toBe(true);
    const after = fs.readFileSync(file(), 'utf8');
    expect(after).not.toContain('hive-mind.js');
    expect(after).toContain('// my Cursor hooks (user-level), edited');
    expect(after).toContain('// mine, added later');
    expect(ours(after)).toEqual({
      beforeShellExecution: ['./hooks/block-git-push-main.sh'],
      afterFileEdit: ['./hooks/format.sh'],
      beforeSubmitPrompt: ['./hooks/audit-prompt.sh'],
      preCompact: ['./hooks/snapshot.sh'],
    });
  });

  it('install then uninstall on the untouched file gives back the original bytes', async () => {
    fs.mkdirSync(path.dirname(file()), { recursive: true });
    fs.writeFileSync(file(), fixtureText('hooks.with-comments.json'));
    await cursorInstaller.install(opts());
    await cursorInstaller.uninstall(opts());
    expect(fs.readFileSync(file(), 'utf8')).toBe(fixtureText('hooks.with-comments.json'));
  });

  it('creates hooks.json when missing (version 1) and deletes it again on uninstall', async () => {
    const r = await cursorInstaller.install(opts());
    expect(r.files[0]!.backup).toBeUndefined();
    const created = parse(fs.readFileSync(file(), 'utf8')) as { version: number; hooks: Record<string, unknown[]> };
    expect(created.version).toBe(1);
    expect(Object.keys(created.hooks)).toEqual(['sessionStart', 'beforeSubmitPrompt', 'afterAgentResponse', 'preCompact']);
    await cursorInstaller.uninstall(opts());
    expect(fs.existsSync(file())).toBe(false);
  });

  it('rejects malformed JSON naming file, line and column, changing nothing', async () => {
    fs.mkdirSync(path.dirname(file()), { recursive: true });
    fs.writeFileSync(file(), '{\n  "version": 1,\n  "hooks": { "stop": [ { "command": "x" } }\n}\n');
    await expect(cursorInstaller.install(opts())).rejects.toThrow(/hooks\.json: line 3, column \d+: /);
    fs.writeFileSync(file(), `{"version":1,"hooks":{"preCompact":{"command":"x"}}}`);
    await expect(cursorInstaller.install(opts())).rejects.toThrow(/hooks\.json: line 1, column 23: field "hooks\.preCompact" must be an array/);
  });

  it('keeps what the user had: an empty event array of theirs, a file without "version"', async () => {
    fs.mkdirSync(path.dirname(file()), { recursive: true });
    const original = '{\n  "hooks": {\n    "preCompact": [],\n    "stop": [{ "command": "./s.sh" }]\n  }\n}\n';
    fs.writeFileSync(file(), original);
    await cursorInstaller.install(opts());
    expect((parse(fs.readFileSync(file(), 'utf8')) as { version: number }).version).toBe(1);
    await cursorInstaller.uninstall(opts());
    expect(fs.readFileSync(file(), 'utf8')).toBe(original);
  });

  it('verify runs each installed hook with a documented sample payload', async () => {
    expect((await cursorInstaller.verify(opts())).ok).toBe(false);
    await cursorInstaller.install(opts());
    const v = await cursorInstaller.verify(opts());
    expect(v.hooks.map((h) => [h.event, h.exitCode, h.ok])).toEqual([
      ['sessionStart', 0, true],
      ['beforeSubmitPrompt', 0, true],
      ['afterAgentResponse', 0, true],
      ['preCompact', 0, true],
    ]);
    expect(v.ok).toBe(true);
  });

  it('verify flags a hook whose output Cursor would misread', async () => {
    await cursorInstaller.install(opts());
    fs.writeFileSync(path.join(bin, 'hive-mind.js'), `process.stdin.resume();process.stdin.on('end',()=>process.stdout.write('{}'));`);
    const v = await cursorInstaller.verify(opts());
    expect(v.ok).toBe(false);
    expect(v.hooks.find((h) => h.event === 'beforeSubmitPrompt')!.error).toMatch(/continue/);
  });
});

describe('cursor installer (property)', () => {
  it('install then uninstall restores any user hooks.json byte for byte', async () => {
    const { cursorSpec } = await import('../src/hosts/cursor-install.js');
    const { installConfig, uninstallConfig } = await import('../src/install/core.js');
    const prefix = '/usr/bin/node /x/hive-mind.js';
    const fc = (await import('fast-check')).default;
    const event = fc.constantFrom('beforeShellExecution', 'afterFileEdit', 'beforeSubmitPrompt', 'stop', 'sessionStart', 'preCompact');
    const entry = fc.record({ command: fc.stringMatching(/^\.\/hooks\/[a-z-]{1,10}\.sh$/), comment: fc.boolean(), oneLine: fc.boolean() });
    fc.assert(
      fc.property(fc.dictionary(event, fc.array(entry, { maxLength: 3 }), { maxKeys: 4 }), fc.boolean(), fc.constantFrom('  ', '    ', '\t'), (hooks, topComment, ind) => {
        const evs = Object.entries(hooks).map(([ev, entries]) => {
          const items = entries.map((e, i) => {
            const body = e.oneLine ? `{ "command": ${JSON.stringify(e.command)} }` : `{\n${ind.repeat(4)}"command": ${JSON.stringify(e.command)}\n${ind.repeat(3)}}`;
            return `${ind.repeat(3)}${body}${i < entries.length - 1 ? ',' : ''}${e.comment ? ' // note' : ''}`;
          });
          return `${ind.repeat(2)}${JSON.stringify(ev)}: [${items.length ? `\n${items.join('\n')}\n${ind.repeat(2)}` : ''}]`;
        });
        const text = `{\n${topComment ? `${ind}// mine\n` : ''}${ind}"version": 1,\n${ind}"hooks": {${evs.length ? `\n${evs.join(',\n')}\n${ind}` : ''}}\n}\n`;
        const { text: installed, record } = installConfig(configOf(cursorSpec, prefix), text);
        expect(installConfig(configOf(cursorSpec, prefix), installed, record).text).toBe(installed);
        const data = parse(installed) as { hooks: Record<string, Array<{ command: string }>> };
        for (const ev of ['sessionStart', 'beforeSubmitPrompt', 'afterAgentResponse', 'preCompact']) {
          expect(data.hooks[ev]!.filter((e) => e.command.includes('hive-mind.js'))).toHaveLength(1);
        }
        expect(uninstallConfig(configOf(cursorSpec), installed, record)).toBe(text);
        // without the recorded edits (structural removal only) the bytes come back too
        expect(uninstallConfig(configOf(cursorSpec), installed, { created: record.created, edits: [] })).toBe(text);
      }),
      { numRuns: 150 },
    );
  });
});
