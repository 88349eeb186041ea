/**
 * OpenClaw: adapter contract tests, the installed Gateway handler (real module, real
 * child processes), installer round trips on a JSON5 config with comments and the
 * user's own hooks. Shapes from OpenClaw's hooks documentation (docs.openclaw.ai/automation/hooks;
 * openclaw/openclaw docs/automation/hooks.md): event `{type, action, sessionKey, timestamp,
 * messages, context}`, per-event context fields (see fixtures/openclaw/README.md), HOOK.md
 * frontmatter `metadata.openclaw.events`, config `hooks.internal.entries.<name>.enabled`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import JSON5 from 'json5';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Mind, workspaceMindPath } from '@hive-mind/mind';
import { openclawAdapter } from '../src/hosts/openclaw.js';
import { openclawConfigPath, openclawHookDir, openclawInstaller, openclawSpec } from '../src/hosts/openclaw-install.js';
import { installConfig } from '../src/install/core.js';
import { logLines, runCli, sandbox } from './helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtureText = (name: string) => fs.readFileSync(path.join(here, 'fixtures', 'openclaw', name), 'utf8');
const fixture = (name: string, cwd?: string): Record<string, unknown> => {
  let t = fixtureText(name);
  if (cwd) t = t.split('/home/user/project').join(cwd);
  return JSON.parse(t) as Record<string, unknown>;
};

describe('openclaw adapter (contract)', () => {
  it('maps the four events and reads the documented context fields', () => {
    const b = openclawAdapter.normalize('agent:bootstrap', fixture('agent-bootstrap.json'));
    expect(b).toMatchObject({ lifecycle: 'session-start', host: 'openclaw', sessionId: '5f0c1d2e-0000-4000-8000-000000000001', cwd: '/home/user/project', workspaceRoots: ['/home/user/project'] });
    const r = openclawAdapter.normalize('message:received', fixture('message-received.json'));
    expect(r).toMatchObject({ lifecycle: 'user-prompt-submit', prompt: 'Remember that the office Wi-Fi password rotates every Monday.', turnId: 'in:tg-1001', sessionId: 'agent:main:main' });
    const s = openclawAdapter.normalize('message:sent', fixture('message-sent.json'));
    expect(s).toMatchObject({ lifecycle: 'stop', turnId: 'reply:tg-1001' });
    expect(s.assistantText).toContain('rotates every Monday');
    expect(openclawAdapter.normalize('session:compact:before', fixture('session-compact-before.json')).lifecycle).toBe('pre-compact');
    expect(openclawAdapter.lifecycleOf('command:new')).toBeUndefined();
  });

  it('refuses a payload of another event, and reads wrong shapes as missing', () => {
    expect(() => openclawAdapter.normalize('message:sent', fixture('message-received.json'))).toThrow(/payload is for event "message:received"/);
    const i = openclawAdapter.normalize('message:received', { type: 'message', action: 'received', context: { content: 7, messageId: [] } });
    expect(i.prompt).toBeUndefined();
    expect(i.turnId).toBeUndefined();
  });

  it('renders {"context": …} for agent:bootstrap, {} otherwise', () => {
    expect(JSON.parse(openclawAdapter.render('agent:bootstrap', { additionalContext: 'x' }))).toEqual({ context: 'x' });
    expect(openclawAdapter.render('agent:bootstrap', {})).toBe('{}');
    expect(openclawAdapter.render('message:sent', { additionalContext: 'ignored' })).toBe('{}');
  });
});

describe('openclaw hooks through the real CLI', () => {
  it('a stated fact from message:received is recalled at the next agent:bootstrap; the reply is saved once', async () => {
    const s = sandbox();
    const run = (ev: string, p: unknown) => runCli(['hook', 'openclaw', ev], JSON.stringify(p), s.env);
    expect((await run('message:received', fixture('message-received.json', s.project))).code).toBe(0);
    for (let i = 0; i < 2; i++) expect((await run('message:sent', fixture('message-sent.json', s.project))).stdout.trim()).toBe('{}');
    const b = await run('agent:bootstrap', { ...fixture('agent-bootstrap.json', s.project), sessionKey: 'agent:main:other' });
    expect(b.code).toBe(0);
    expect((JSON.parse(b.stdout) as { context: string }).context).toContain('Wi-Fi password rotates every Monday');
    expect((await run('session:compact:before', fixture('session-compact-before.json', s.project))).code).toBe(0);
    const m = Mind.open(workspaceMindPath(s.project, s.env), { readonly: true });
    try {
      // the reply is a turn of the history, kept once
      expect(m.list({ kind: 'reply' })).toHaveLength(1);
      // the reply, sent twice, restates what the user asked to remember: one frame holds it
      expect(m.list().filter((f) => f.importance !== 'temporary' && /rotates every Monday/.test(f.content)).map((f) => [f.kind, f.importance])).toEqual([['fact', 'important']]);
    } finally {
      m.close();
    }
    expect(logLines(path.join(s.home, 'logs', 'hooks.log'))).toEqual([]);
  });
});

describe('openclaw installer and Gateway handler', () => {
  let home: string;
  let bin: string;
  let record: string;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-openclaw-'));
    bin = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-bin-'));
    record = path.join(bin, 'record.jsonl');
    // a stand-in hive-mind (real node script): records each call, answers agent:bootstrap with a context
    fs.writeFileSync(
      path.join(bin, 'hive-mind.js'),
      `const fs=require('fs');let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const ev=process.argv[4];` +
        `fs.appendFileSync(${JSON.stringify(record)},JSON.stringify({ev,payload:JSON.parse(s)})+'\\n');` +
        `process.stdout.write(ev==='agent:bootstrap'?JSON.stringify({context:'- recalled: Wi-Fi rotates Mondays'}):'{}')});`,
    );
    fs.writeFileSync(path.join(bin, 'package.json'), '{"type":"commonjs"}');
  });
  afterEach(() => {
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(bin, { recursive: true, force: true });
    delete process.env.HIVE_MIND_OPENCLAW_DEBOUNCE_MS;
  });
  const opts = () => ({ home, command: `${process.execPath} ${path.join(bin, 'hive-mind.js')}`, env: { ...process.env, HOME: home, HIVE_MIND_HOME: path.join(home, '.hive-mind') } });
  const cfg = () => openclawConfigPath({ home, env: {} });
  const records = (): Array<{ ev: string; payload: Record<string, any> }> =>
    fs.existsSync(record) ? fs.readFileSync(record, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  const waitFor = async (pred: () => boolean) => {
    for (let i = 0; i < 200 && !pred(); i++) await new Promise((r) => setTimeout(r, 50));
  };
  let importN = 0;
  const loadHandler = async () => (await import(pathToFileURL(path.join(openclawHookDir({ home, env: {} }), 'handler.mjs')).href + `?n=${++importN}`)) as { default: (e: unknown) => Promise<void>; flushAll: () => Promise<void> };
  const ev = (type: string, action: string, context: Record<string, unknown>) => ({ type, action, sessionKey: 'agent:main:main', timestamp: new Date('2026-11-30T12:00:00Z'), messages: [], context });

  it('installs the hook directory (HOOK.md + handler) and enables it in a commented JSON5 config, keeping every user byte', async () => {
    const original = fixtureText('openclaw.with-comments.json5');
    fs.mkdirSync(path.dirname(cfg()), { recursive: true });
    fs.writeFileSync(cfg(), original);
    const r = await openclawInstaller.install(opts());
    const dir = openclawHookDir({ home, env: {} });
    expect(fs.readdirSync(dir).sort()).toEqual(['HOOK.md', 'handler.mjs', 'handler.ts']);
    const md = fs.readFileSync(path.join(dir, 'HOOK.md'), 'utf8');
    const front = /^---\n([\s\S]*?)\n---/.exec(md)![1]!;
    expect(front).toMatch(/^name: hive-mind$/m);
    expect(JSON.parse(/^metadata: (.*)$/m.exec(front)![1]!).openclaw.events).toEqual(['agent:bootstrap', 'message:received', 'message:sent', 'session:compact:before']);
    const after = fs.readFileSync(cfg(), 'utf8');
    expect(after).toBe(original.replace(`        "command-logger": { enabled: false }, // too noisy\n`, `        "command-logger": { enabled: false }, // too noisy\n        "hive-mind": { enabled: true },\n`));
    expect(JSON5.parse(after).hooks.internal.entries['hive-mind']).toEqual({ enabled: true });
    const cfgEntry = r.files.find((f) => f.path === cfg())!;
    expect(fs.readFileSync(cfgEntry.backup!, 'utf8')).toBe(original);
  });

  it('install twice equals install once', async () => {
    fs.mkdirSync(path.dirname(cfg()), { recursive: true });
    fs.writeFileSync(cfg(), fixtureText('openclaw.with-comments.json5'));
    await openclawInstaller.install(opts());
    const once = fs.readFileSync(cfg(), 'utf8');
    const r = await openclawInstaller.install(opts());
    expect(r.files.every((f) => !f.changed)).toBe(true);
    expect(fs.readFileSync(cfg(), 'utf8')).toBe(once);
  });

  it('dry-run prints the diffs and writes nothing', async () => {
    fs.mkdirSync(path.dirname(cfg()), { recursive: true });
    fs.writeFileSync(cfg(), fixtureText('openclaw.with-comments.json5'));
    const r = await openclawInstaller.install({ ...opts(), dryRun: true });
    expect(r.files.find((f) => f.path === cfg())!.diff).toMatch(/^\+ +"hive-mind": \{ enabled: true \},$/m);
    expect(r.files.find((f) => f.path.endsWith('HOOK.md'))!.diff).toMatch(/^\+name: hive-mind$/m);
    expect(fs.existsSync(openclawHookDir({ home, env: {} }))).toBe(false);
    expect(fs.readFileSync(cfg(), 'utf8')).toBe(fixtureText('openclaw.with-comments.json5'));
  });

  it('uninstall removes only our files and entry, keeping edits made after install', async () => {
    const original = fixtureText('openclaw.with-comments.json5');
    fs.mkdirSync(path.dirname(cfg()), { recursive: true });
    fs.writeFileSync(cfg(), original);
    await openclawInstaller.install(opts());
    const dir = openclawHookDir({ home, env: {} });
    fs.writeFileSync(path.join(dir, 'NOTES.md'), 'my notes next to the hook');
    const edited = fs.readFileSync(cfg(), 'utf8').replace("gateway: { port: 0x4A3F },", "gateway: { port: 0x4A3F, bind: 'loopback' }, // changed later");
    fs.writeFileSync(cfg(), edited);
    await openclawInstaller.uninstall(opts());
    expect(fs.readdirSync(dir)).toEqual(['NOTES.md']);
    expect(fs.readFileSync(cfg(), 'utf8')).toBe(original.replace("gateway: { port: 0x4A3F },", "gateway: { port: 0x4A3F, bind: 'loopback' }, // changed later"));
  });

  it('on a config without hooks: install adds the block, uninstall restores the exact bytes and removes the directory', async () => {
    const original = "// minimal\n{\n  agents: { defaults: { model: 'x' } }, // trailing comma style\n}\n";
    fs.mkdirSync(path.dirname(cfg()), { recursive: true });
    fs.writeFileSync(cfg(), original);
    await openclawInstaller.install(opts());
    const data = JSON5.parse(fs.readFileSync(cfg(), 'utf8'));
    expect(data.hooks).toEqual({ internal: { enabled: true, entries: { 'hive-mind': { enabled: true } } } });
    const u = await openclawInstaller.uninstall(opts());
    expect(fs.readFileSync(cfg(), 'utf8')).toBe(original);
    // no internal hook of the user's is left needing the flag: nothing to say about it
    expect(u.notes.join('\n')).not.toMatch(/removed the hooks\.internal/);
    expect(fs.existsSync(openclawHookDir({ home, env: {} }))).toBe(false);
  });

  it('internal hooks switched off by the user: install turns them on, uninstall puts back false', async () => {
    const original = '{\n  hooks: {\n    internal: {\n      enabled: false,\n      entries: {},\n    },\n  },\n}\n';
    fs.mkdirSync(path.dirname(cfg()), { recursive: true });
    fs.writeFileSync(cfg(), original);
    await openclawInstaller.install(opts());
    expect(JSON5.parse(fs.readFileSync(cfg(), 'utf8')).hooks.internal).toEqual({ enabled: true, entries: { 'hive-mind': { enabled: true } } });
    await openclawInstaller.uninstall(opts());
    expect(fs.readFileSync(cfg(), 'utf8')).toBe(original);
  });

  it('an internal hook the user enabled after install: uninstall takes out our enabled flag and says their hook now needs it', async () => {
    const original = "{\n  agents: { defaults: { model: 'x' } },\n}\n";
    fs.mkdirSync(path.dirname(cfg()), { recursive: true });
    fs.writeFileSync(cfg(), original);
    await openclawInstaller.install(opts());
    fs.writeFileSync(cfg(), fs.readFileSync(cfg(), 'utf8').replace('"hive-mind": { enabled: true },', '"hive-mind": { enabled: true },\n        "session-memory": { enabled: true },'));
    const r = await openclawInstaller.uninstall(opts());
    expect(JSON5.parse(fs.readFileSync(cfg(), 'utf8')).hooks).toEqual({ internal: { entries: { 'session-memory': { enabled: true } } } });
    expect(r.notes).toContain(
      `removed the hooks.internal.enabled: true that hive-mind added to ${cfg()}; it still enables 1 internal hook of yours (session-memory), which OpenClaw runs only with that flag on: set \`hooks.internal.enabled: true\` yourself if you want it.`,
    );
  });

  it('creates openclaw.json when missing and deletes it on uninstall', async () => {
    await openclawInstaller.install(opts());
    expect(JSON5.parse(fs.readFileSync(cfg(), 'utf8'))).toEqual({ hooks: { internal: { enabled: true, entries: { 'hive-mind': { enabled: true } } } } });
    await openclawInstaller.uninstall(opts());
    expect(fs.existsSync(cfg())).toBe(false);
  });

  it('rejects invalid JSON5 and wrong field types, naming file and line, writing nothing', async () => {
    fs.mkdirSync(path.dirname(cfg()), { recursive: true });
    fs.writeFileSync(cfg(), '{\n  hooks: {\n    internal: [1, 2\n}\n');
    await expect(openclawInstaller.install(opts())).rejects.toThrow(/openclaw\.json: line \d+, column \d+: /);
    const spec = { ...openclawSpec.configs({ home, env: {} })[0]!, file: 'c.json5' };
    expect(() => installConfig(spec, '{\n  hooks: {\n    internal: "on",\n  },\n}\n')).toThrow(/^c\.json5: line 3, column 5: field "hooks\.internal" must be an object; nothing was changed$/);
  });

  it('verify loads the handler and runs each event with a documented sample payload', async () => {
    expect((await openclawInstaller.verify(opts())).ok).toBe(false);
    await openclawInstaller.install(opts());
    const v = await openclawInstaller.verify(opts());
    expect(v.hooks.map((h) => [h.event, h.exitCode, h.ok])).toEqual([
      ['handler.mjs', 0, true],
      ['agent:bootstrap', 0, true],
      ['message:received', 0, true],
      ['message:sent', 0, true],
      ['session:compact:before', 0, true],
    ]);
    expect(v.ok).toBe(true);
  });

  it('handler: agent:bootstrap appends the recall as a bootstrap file; cfg never leaves the Gateway', async () => {
    await openclawInstaller.install(opts());
    const h = await loadHandler();
    const bootstrapFiles: Array<Record<string, unknown>> = [{ name: 'AGENTS.md', path: '/w/AGENTS.md', content: 'x', missing: false }];
    await h.default(ev('agent', 'bootstrap', { workspaceDir: '/w', bootstrapFiles, cfg: { secret: 'sk-live-123' }, sessionKey: 'agent:main:main', sessionId: 's1', agentId: 'main' }));
    expect(bootstrapFiles).toHaveLength(2);
    expect(bootstrapFiles[1]).toEqual({ name: 'MEMORY.md', path: path.join('/w', '.hive-mind', 'recall.md'), content: '- recalled: Wi-Fi rotates Mondays', missing: false });
    const rec = records();
    expect(rec.map((r) => r.ev)).toEqual(['agent:bootstrap']);
    expect(JSON.stringify(rec[0]!.payload)).not.toContain('sk-live-123');
    expect(rec[0]!.payload.context).toEqual({ workspaceDir: '/w', sessionKey: 'agent:main:main', sessionId: 's1', agentId: 'main' });
  });

  it('handler: message:sent is debounced per turn (one forward with every part), tied to the inbound message', async () => {
    process.env.HIVE_MIND_OPENCLAW_DEBOUNCE_MS = '300';
    await openclawInstaller.install(opts());
    const h = await loadHandler();
    await h.default(ev('agent', 'bootstrap', { workspaceDir: '/w', bootstrapFiles: [] }));
    await h.default(ev('message', 'received', { from: '+1', content: 'hi', channelId: 'telegram', messageId: 'in-1' }));
    for (const [i, part] of ['part one', 'part two', 'part three'].entries()) await h.default(ev('message', 'sent', { to: '+1', content: part, success: true, channelId: 'telegram', messageId: `out-${i}` }));
    await h.default(ev('message', 'sent', { to: '+1', content: 'failed send', success: false, channelId: 'telegram' }));
    await waitFor(() => records().some((r) => r.ev === 'message:sent'));
    await new Promise((r) => setTimeout(r, 400));
    const sent = records().filter((r) => r.ev === 'message:sent');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.payload.context.content).toBe('part one\n\npart two\n\npart three');
    expect(sent[0]!.payload.hiveMind).toEqual({ workspaceDir: '/w', turn: { messageIds: ['out-0', 'out-1', 'out-2'], count: 3, inReplyTo: 'in-1' } });
    expect(records().find((r) => r.ev === 'message:received')!.payload.hiveMind).toEqual({ workspaceDir: '/w' });
  });

  it('handler: the next inbound message and compaction flush the pending turn first', async () => {
    process.env.HIVE_MIND_OPENCLAW_DEBOUNCE_MS = '600000';
    await openclawInstaller.install(opts());
    const h = await loadHandler();
    await h.default(ev('message', 'received', { content: 'q1', messageId: 'in-1' }));
    await h.default(ev('message', 'sent', { content: 'a1', success: true, messageId: 'out-1' }));
    await h.default(ev('message', 'received', { content: 'q2', messageId: 'in-2' }));
    await waitFor(() => records().filter((r) => r.ev !== 'message:received').length >= 1);
    await h.default(ev('message', 'sent', { content: 'a2', success: true, messageId: 'out-2' }));
    await h.default(ev('session', 'compact:before', { sessionId: 's1', messageCount: 3, tokenCount: 100 }));
    const rec = records();
    const sent = rec.filter((r) => r.ev === 'message:sent');
    expect(sent.map((r) => [r.payload.context.content, r.payload.hiveMind.turn.inReplyTo])).toEqual([
      ['a1', 'in-1'],
      ['a2', 'in-2'],
    ]);
    // the second turn was forwarded before the compaction event
    expect(rec.findIndex((r) => r.payload.context.content === 'a2')).toBeLessThan(rec.findIndex((r) => r.ev === 'session:compact:before'));
    await h.flushAll();
  });

  it('handler: a failing hive-mind never throws into the Gateway', async () => {
    await openclawInstaller.install({ ...opts(), command: `${process.execPath} ${path.join(bin, 'missing-hive-mind.js')}` });
    const h = await loadHandler();
    const files: unknown[] = [];
    await expect(h.default(ev('agent', 'bootstrap', { workspaceDir: '/w', bootstrapFiles: files }))).resolves.toBeUndefined();
    expect(files).toEqual([]);
    await expect(h.default(null)).resolves.toBeUndefined();
  });
});
