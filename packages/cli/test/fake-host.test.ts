/**
 * The hooks README's "Adding a host", checked: a fake host (fixtures/fake-host: a Claude Code
 * fork with Claude-style hooks and Claude Code session files) added with only its table row, its
 * registry line, its adapter file and its installer file shows everywhere a host is listed, and
 * works: the CLI's help and usage, the MCP tool's host enum, the hooks' registry and `hook --help`,
 * the folder resolver, `listSessions`, the web page's preview list, an install and a hook run.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';

vi.mock('../../transcripts/src/host-table.ts', async () => {
  const { materialize } = await import('./fixtures/fake-host/materialize.js');
  return import(materialize().table);
});
vi.mock('../../hooks/src/registry.ts', async () => {
  const { materialize } = await import('./fixtures/fake-host/materialize.js');
  return import(materialize().registry);
});

const { HOST_IDS, loadAdapter } = await import('../../hooks/src/registry.js');
const { loadInstaller } = await import('../../hooks/src/installers.js');
const { hookUsage } = await import('../../hooks/src/usage.js');
const { runHook } = await import('../../hooks/src/runner.js');
const { hostDir, listSessions, HOST_TABLE, SESSION_HOSTS } = await import('@hive-mind/transcripts');
const { buildProgram } = await import('../src/main.js');
const { SHORT_USAGE } = await import('../src/commands/status.js');
const { registerCompactTool } = await import('../../mcp/src/tools-compact.js');
const { PREVIEW_HOSTS } = await import('../../ui/src/api/next.js');
const { TOUCHED } = await import('./fixtures/fake-host/materialize.js');

const home = mkdtempSync(join(tmpdir(), 'hm-fake-host-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
// the real table has no fakeclaw, so the type checker does not know it: the mocked modules do
const FAKE = 'fakeclaw' as never;
const table = HOST_TABLE as unknown as Record<string, (typeof HOST_TABLE)['claude-code']>;
const env = { HOME: home, HIVE_MIND_HOME: join(home, 'hm'), FAKECLAW_HOME: join(home, 'fc') };

describe('a host added by the recipe alone (fixtures/fake-host)', () => {
  it('touches four files: the table row, the registry line, the adapter, the installer', () => {
    expect(TOUCHED).toEqual(['packages/transcripts/src/host-table.ts', 'packages/hooks/src/registry.ts', 'packages/hooks/src/hosts/fakeclaw.ts', 'packages/hooks/src/hosts/fakeclaw-install.ts']);
  });

  it('is in the registry, with its adapter, and in `hive-mind hook --help`', async () => {
    expect(HOST_IDS).toEqual(['claude-code', 'codex', 'cursor', 'openclaw', 'hermes', 'fakeclaw']);
    expect((await loadAdapter('fakeclaw'))?.events).toEqual(['SessionStart', 'UserPromptSubmit', 'Stop']);
    expect(await hookUsage()).toMatch(/^ {2}fakeclaw +SessionStart, UserPromptSubmit, Stop$/m);
  });

  it("is in the CLI's help: hook <host>, install and verify, and the short usage", () => {
    const program = buildProgram();
    const cmd = (name: string) => program.commands.find((c) => c.name() === name)!;
    expect(cmd('hook').registeredArguments[0]!.description).toBe('claude-code | codex | cursor | openclaw | hermes | fakeclaw');
    expect(cmd('install').description()).toContain('hermes, fakeclaw');
    expect(cmd('verify').description()).toContain('hermes, fakeclaw');
    expect(SHORT_USAGE).toContain('lifecycle hooks for claude-code, codex, cursor, openclaw, hermes, fakeclaw');
  });

  it("is in the MCP compact tool's host enum", () => {
    const tools: Record<string, { inputSchema: { shape: Record<string, { unwrap(): { options: string[] } }> } }> = {};
    const server = { registerTool: (name: string, config: (typeof tools)[string]) => void (tools[name] = config) };
    registerCompactTool(server as never, { limits: { maxResultChars: 10_000 } } as never, {} as never);
    expect(tools.compact_transcript!.inputSchema.shape.host!.unwrap().options).toEqual(['claude-code', 'codex', 'pi', 'hermes', 'fakeclaw']);
  });

  it('has its folder from its own variable, and its sessions listed', () => {
    expect(hostDir(FAKE, env)).toMatchObject({ dir: join(home, 'fc'), variable: 'FAKECLAW_HOME', source: 'env' });
    expect(SESSION_HOSTS).toContain('fakeclaw');
    const id = '0f0f0f0f-0000-4000-8000-00000000fa6e';
    const cwd = join(home, 'proj');
    const dir = join(home, 'fc', 'projects', table.fakeclaw!.projectDir!(cwd));
    mkdirSync(dir, { recursive: true });
    const line = { type: 'user', sessionId: id, cwd, version: '1.0.0', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'hello' } };
    writeFileSync(join(dir, `${id}.jsonl`), JSON.stringify(line) + '\n');
    const found = listSessions({ host: FAKE, env });
    expect(found.map((s) => [s.host, s.id, s.cwd, s.version])).toEqual([['fakeclaw', id, cwd, '1.0.0']]);
    expect(table.fakeclaw!.resume({ id, path: '', cwd }).argv).toEqual(['fakeclaw', '--resume', id]);
  });

  it("is in the web page's preview list, with its SessionStart payload", () => {
    expect(Object.keys(PREVIEW_HOSTS)).toContain('fakeclaw');
    expect(PREVIEW_HOSTS.fakeclaw!.payload('/w')).toEqual({ session_id: 'hive-mind-ui-preview', cwd: '/w', hook_event_name: 'SessionStart', source: 'startup' });
  });

  it('installs into its own folder and runs its hook', async () => {
    const report = await (await loadInstaller('fakeclaw'))!.install({ env, home, command: 'hive-mind' });
    expect(report.files.map((f) => f.path)).toEqual([join(home, 'fc', 'settings.json')]);
    expect(readFileSync(join(home, 'fc', 'settings.json'), 'utf8')).toContain('hive-mind hook fakeclaw SessionStart');
    const out = await runHook(['fakeclaw', 'SessionStart'], {
      env,
      stdin: Readable.from([JSON.stringify({ session_id: 's1', cwd: join(home, 'proj'), hook_event_name: 'SessionStart', source: 'startup' })]),
      write: () => undefined,
    });
    expect(out.error).toBeUndefined();
  });
});
