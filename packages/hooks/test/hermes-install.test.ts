/**
 * Hermes installer round trips on a real temp HOME. Config shape from Hermes Agent's
 * hooks documentation, "Shell Hooks" > "Configuration schema"
 * (NousResearch/hermes-agent website/docs/user-guide/features/hooks.md).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { hermesConfigPath, hermesInstaller, hermesSpec } from '../src/hosts/hermes-install.js';
import { installConfig } from '../src/install/core.js';
import { configOf } from './helpers.js';

const hermesConfigWithHooks = (text: string, prefix: string) => installConfig(configOf(hermesSpec, prefix), text).text;

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string) => fs.readFileSync(path.join(here, 'fixtures', 'hermes', name), 'utf8');
// A fake hive-mind: a real node script that answers like our runner would (stdout {"context":…} or {}).
const CMD = (dir: string) => `${process.execPath} ${path.join(dir, 'hive-mind.js')}`;

let home: string;
let bin: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-hermes-'));
  bin = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-bin-'));
  fs.writeFileSync(
    path.join(bin, 'hive-mind.js'),
    `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const p=JSON.parse(s);` +
      `process.stdout.write(p.hook_event_name==='pre_llm_call'?JSON.stringify({context:'recalled'}):'{}')});`,
  );
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(bin, { recursive: true, force: true });
});

const opts = () => ({ home, command: CMD(bin), env: {} });
const cfgFile = () => hermesConfigPath({ home, env: {} });
const ourEvents = (text: string) => {
  const hooks = (parseDocument(text).toJS() as { hooks?: Record<string, unknown> }).hooks ?? {};
  return Object.fromEntries(
    Object.entries(hooks)
      .filter(([, v]) => Array.isArray(v))
      .map(([k, v]) => [k, (v as Array<{ command?: string }>).filter((e) => typeof e.command === 'string' && e.command.includes('hive-mind.js')).length]),
  );
};

describe('hermes installer', () => {
  it('installs into a commented config, keeping every user byte outside our lines', async () => {
    const original = fixture('config.with-comments.yaml');
    fs.mkdirSync(path.dirname(cfgFile()), { recursive: true });
    fs.writeFileSync(cfgFile(), original);
    const r = await hermesInstaller.install(opts());
    expect(r.files[0]!.changed).toBe(true);
    expect(r.files[0]!.backup).toMatch(/config\.yaml\.hive-mind-backup-\d{8}T\d{9}Z/);
    expect(fs.readFileSync(r.files[0]!.backup!, 'utf8')).toBe(original);
    const after = fs.readFileSync(cfgFile(), 'utf8');
    // the user's bytes are untouched: our block is inserted after their last hook, nothing else changes
    const c = CMD(bin);
    const block = ['on_session_start', 'pre_llm_call', 'post_llm_call'].map((e) => `  ${e}:\n    - command: ${c} hook hermes ${e}\n      timeout: 30\n`).join('');
    const at = original.indexOf('\nhooks_auto_accept') ;
    expect(after).toBe(original.slice(0, at) + block + original.slice(at));
    expect(ourEvents(after)).toMatchObject({ pre_tool_call: 0, post_tool_call: 0, on_session_start: 1, pre_llm_call: 1, post_llm_call: 1 });
    expect(r.notes.join(' ')).toMatch(/approve/i);
  });

  it('install twice equals install once', async () => {
    fs.mkdirSync(path.dirname(cfgFile()), { recursive: true });
    fs.writeFileSync(cfgFile(), fixture('config.with-comments.yaml'));
    await hermesInstaller.install(opts());
    const once = fs.readFileSync(cfgFile(), 'utf8');
    const r2 = await hermesInstaller.install(opts());
    expect(r2.files[0]!.changed).toBe(false);
    expect(r2.files[0]!.backup).toBeUndefined();
    expect(fs.readFileSync(cfgFile(), 'utf8')).toBe(once);
  });

  it('dry-run prints a diff and writes nothing', async () => {
    fs.mkdirSync(path.dirname(cfgFile()), { recursive: true });
    fs.writeFileSync(cfgFile(), fixture('config.with-comments.yaml'));
    const r = await hermesInstaller.install({ ...opts(), dryRun: true });
    expect(r.dryRun).toBe(true);
    expect(r.files[0]!.diff).toMatch(/^--- .*config\.yaml\n\+\+\+ .*config\.yaml\n@@ /);
    expect(r.files[0]!.diff).toContain('+  pre_llm_call:');
    expect(r.files[0]!.diff).toContain('hook hermes post_llm_call');
    expect(fs.readFileSync(cfgFile(), 'utf8')).toBe(fixture('config.with-comments.yaml'));
    expect(fs.readdirSync(path.dirname(cfgFile())).filter((f) => f.includes('backup'))).toEqual([]);
  });

  it('uninstall removes only ours and keeps edits the user made after install', async () => {
    const original = fixture('config.with-comments.yaml');
    fs.mkdirSync(path.dirname(cfgFile()), { recursive: true });
    fs.writeFileSync(cfgFile(), original);
    await hermesInstaller.install(opts());
    // the user edits after install: a new top-level key with a comment, and a hook of their own
    let edited = fs.readFileSync(cfgFile(), 'utf8');
    edited = edited.replace('  provider: openrouter\n', '  provider: openrouter\n  # switched for the weekend\n  fallback: local\n');
    edited = edited.replace('      command: ~/.hermes/agent-hooks/auto-format.sh\n', '      command: ~/.hermes/agent-hooks/auto-format.sh\n    - command: ~/.hermes/agent-hooks/lint.sh\n');
    fs.writeFileSync(cfgFile(), edited);
    const r = await hermesInstaller.uninstall(opts());
    expect(r.files[0]!.changed).toBe(true);
    const after = fs.readFileSync(cfgFile(), 'utf8');
    const expected = original
      .replace('  provider: openrouter\n', '  provider: openrouter\n  # switched for the weekend\n  fallback: local\n')
      .replace('      command: ~/.hermes/agent-hooks/auto-format.sh\n', '      command: ~/.hermes/agent-hooks/auto-format.sh\n    - command: ~/.hermes/agent-hooks/lint.sh\n');
    expect(after).toBe(expected);
  });

  it('install then uninstall on a config without hooks returns the exact original bytes', async () => {
    const original = '# minimal\nmodel:\n  default: local/llama   # comment spacing kept\n';
    fs.mkdirSync(path.dirname(cfgFile()), { recursive: true });
    fs.writeFileSync(cfgFile(), original);
    await hermesInstaller.install(opts());
    expect(ourEvents(fs.readFileSync(cfgFile(), 'utf8'))).toEqual({ on_session_start: 1, pre_llm_call: 1, post_llm_call: 1 });
    await hermesInstaller.uninstall(opts());
    expect(fs.readFileSync(cfgFile(), 'utf8')).toBe(original);
  });

  it('creates config.yaml when missing and removes it again on uninstall', async () => {
    const r = await hermesInstaller.install(opts());
    expect(r.files[0]!.backup).toBeUndefined();
    expect(ourEvents(fs.readFileSync(cfgFile(), 'utf8'))).toEqual({ on_session_start: 1, pre_llm_call: 1, post_llm_call: 1 });
    await hermesInstaller.uninstall(opts());
    expect(fs.existsSync(cfgFile())).toBe(false);
  });

  it('updates our command in place when hive-mind moved (no duplicate entry)', () => {
    const v1 = hermesConfigWithHooks(fixture('config.with-comments.yaml'), `${process.execPath} /old/place/hive-mind.js`);
    const v2 = hermesConfigWithHooks(v1, `${process.execPath} /new/place/hive-mind.js`);
    expect(v2).not.toContain('/old/place/');
    expect(ourEvents(v2)).toMatchObject({ on_session_start: 1, pre_llm_call: 1, post_llm_call: 1 });
  });

  it('handles flow-style hooks (hooks: {}) through the Document API fallback', () => {
    const out = hermesConfigWithHooks('# note\nhooks: {}\nother: 1 # keep\n', 'hive-mind');
    const js = parseDocument(out).toJS() as { hooks: Record<string, unknown[]>; other: number };
    expect(Object.keys(js.hooks)).toEqual(['on_session_start', 'pre_llm_call', 'post_llm_call']);
    expect(js.other).toBe(1);
    expect(out).toContain('# note');
    expect(out).toContain('# keep');
  });

  it("keeps the user's own empty list of an event we also use", async () => {
    fs.mkdirSync(path.dirname(cfgFile()), { recursive: true });
    const original = 'hooks:\n  pre_llm_call: []\n  post_tool_call:\n    - command: ~/fmt.sh\n';
    fs.writeFileSync(cfgFile(), original);
    await hermesInstaller.install(opts());
    expect(ourEvents(fs.readFileSync(cfgFile(), 'utf8'))).toMatchObject({ pre_llm_call: 1 });
    await hermesInstaller.uninstall(opts());
    expect(parseDocument(fs.readFileSync(cfgFile(), 'utf8')).toJS()).toEqual({ hooks: { pre_llm_call: [], post_tool_call: [{ command: '~/fmt.sh' }] } });
  });

  it('leaves hooks.outbound webhooks and other non-event keys alone', async () => {
    fs.mkdirSync(path.dirname(cfgFile()), { recursive: true });
    const original = 'hooks:\n  outbound:\n    - url: https://ci.example.com/hermes   # signed\n      events: [on_session_end]\n  some_flag: true\n';
    fs.writeFileSync(cfgFile(), original);
    await hermesInstaller.install(opts());
    expect(ourEvents(fs.readFileSync(cfgFile(), 'utf8'))).toMatchObject({ on_session_start: 1, pre_llm_call: 1, post_llm_call: 1 });
    await hermesInstaller.uninstall(opts());
    expect(fs.readFileSync(cfgFile(), 'utf8')).toBe(original);
  });

  it('rejects a broken YAML file naming file and line, and changes nothing', async () => {
    fs.mkdirSync(path.dirname(cfgFile()), { recursive: true });
    const bad = 'model:\n  default: x\nhooks:\n  pre_llm_call: [\n';
    fs.writeFileSync(cfgFile(), bad);
    await expect(hermesInstaller.install(opts())).rejects.toThrow(/config\.yaml: line \d+, column \d+: /);
    expect(fs.readFileSync(cfgFile(), 'utf8')).toBe(bad);
  });

  it('rejects hooks that is not a mapping, naming the field', async () => {
    fs.mkdirSync(path.dirname(cfgFile()), { recursive: true });
    fs.writeFileSync(cfgFile(), 'hooks:\n  - a\n');
    await expect(hermesInstaller.install(opts())).rejects.toThrow(/config\.yaml: line 2, column 3: field "hooks" must be an object/);
  });

  it('verify runs each installed hook with a documented sample payload', async () => {
    const before = await hermesInstaller.verify(opts());
    expect(before.ok).toBe(false);
    // nothing of ours yet: reported as not installed (no list of per-event failures)
    expect([before.installed, before.hooks]).toEqual([false, []]);
    await hermesInstaller.install(opts());
    const v = await hermesInstaller.verify(opts());
    expect(v.ok).toBe(true);
    expect(v.hooks.map((h) => h.event)).toEqual(['on_session_start', 'pre_llm_call', 'post_llm_call']);
    expect(v.hooks.find((h) => h.event === 'pre_llm_call')!.stdout).toBe('{"context":"recalled"}');
    for (const h of v.hooks) expect(h.exitCode).toBe(0);
  });

  it('verify with compact-on-stop enabled never stamps the real Hermes home', async () => {
    await hermesInstaller.install(opts());
    // the real CLI as the hook, with the gate on in the user's environment
    const cli = path.resolve(here, '../../cli/bin/hive-mind.js');
    await hermesInstaller.install({ ...opts(), command: `${process.execPath} ${cli}` });
    const v = await hermesInstaller.verify({ home, env: { ...process.env, HOME: home, HIVE_MIND_HERMES_COMPACT_ON_STOP: '1' } });
    expect(v.ok).toBe(true);
    expect(fs.existsSync(path.join(home, '.hermes', '.hive-mind-last-compact'))).toBe(false);
  });

  it('honours HERMES_HOME from the given environment', async () => {
    const hh = path.join(home, 'custom-hermes');
    await hermesInstaller.install({ ...opts(), env: { HERMES_HOME: hh } });
    expect(fs.existsSync(path.join(hh, 'config.yaml'))).toBe(true);
    expect(fs.existsSync(path.join(home, '.hermes', 'config.yaml'))).toBe(false);
  });
});
