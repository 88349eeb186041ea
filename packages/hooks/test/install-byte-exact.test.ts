/**
 * The byte-exact guarantee of every installer (issue 12, item 5): on a real temp HOME,
 * install then uninstall gives back the user's file byte for byte, whatever its
 * formatting (compact one-line entries, tabs, CRLF, no final newline, comments where the
 * format allows) and whatever hooks of their own it holds; install is idempotent; an
 * edit the user makes between install and uninstall stays.
 *
 * Each case holds the token `USER_EDIT_ME` somewhere in the user's own content: the
 * "edited in between" run replaces it in the installed file, and the uninstalled file
 * must be the original with the same replacement.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadInstaller, type HostId, type InstallOptions } from '../src/index.js';

/** A stand-in CLI path: the installers only write it into the config (no hook runs here). */
const COMMAND = '/usr/bin/node /opt/hive-mind/bin/hive-mind.js';

interface Case {
  name: string;
  text: string;
  /** Codex: the config.toml beside hooks.json. */
  toml?: string;
}

const CLAUDE: Case[] = [
  {
    name: 'compact one-line hook entries next to ours (the reported case)',
    text: `{
  "model": "opus",
  "hooks": {
    "Stop": [{"hooks":[{"type":"command","command":"notify-send USER_EDIT_ME"}]}],
    "PreToolUse": [{"matcher":"Bash","hooks":[{"type":"command","command":"~/bin/guard.sh"}]}]
  }
}
`,
  },
  { name: 'the whole file on one line, no final newline', text: `{"model":"opus","hooks":{"Stop":[{"hooks":[{"type":"command","command":"say USER_EDIT_ME"}]}]}}` },
  {
    name: 'tabs and CRLF',
    text: '{\r\n\t"permissions": {\r\n\t\t"allow": ["Bash(npm test)"]\r\n\t},\r\n\t"hooks": {\r\n\t\t"SessionStart": [\r\n\t\t\t{ "hooks": [ { "type": "command", "command": "echo USER_EDIT_ME" } ] }\r\n\t\t]\r\n\t}\r\n}\r\n',
  },
  {
    name: 'comments and trailing commas (JSONC)',
    text: `// my Claude Code settings
{
  "model": "opus", // USER_EDIT_ME
  /* no hooks yet */
  "theme": "dark",
}
`,
  },
  { name: 'four-space indent, an empty hooks object of the user', text: '{\n    "hooks": {},\n    "env": { "A": "USER_EDIT_ME" }\n}' },
  { name: 'an empty file', text: '' },
  // Windows editors write one; Claude Code 2.1.332 loads such a settings.json (seen with the real binary)
  { name: 'a byte order mark', text: '\uFEFF{\n  "model": "opus",\n  "hooks": {\n    "Stop": [{"hooks":[{"type":"command","command":"say USER_EDIT_ME"}]}]\n  }\n}\n' },
];

const CODEX: Case[] = [
  {
    name: 'compact user hook and a commented config.toml with hooks = false',
    text: '{\n  "hooks": {\n    "Stop": [{"hooks":[{"type":"command","command":"~/.codex/notify.sh USER_EDIT_ME","timeout":5}]}]\n  }\n}\n',
    toml: '# my codex config\nmodel = "gpt-5-codex"   # the default model\n\n[features]\nweb_search = true\nhooks = false # off for now\n',
  },
  { name: 'one-line hooks.json, config.toml without a final newline', text: '{"hooks":{"PreCompact":[{"hooks":[{"type":"command","command":"snap USER_EDIT_ME"}]}]}}', toml: 'model = "o3"' },
  { name: 'CRLF everywhere, [features] without hooks', text: '{\r\n  "hooks": {}\r\n}\r\n', toml: 'approval_policy = "on-request"\r\n\r\n[features]\r\nweb_search = true # USER_EDIT_ME\r\n\r\n[model_providers.local]\r\nname = "local"\r\n' },
  // smol-toml gives [features] keys in file order, sub-tables included: our line goes before the sub-table's data
  { name: '[features] followed by a sub-table of it', text: '{}\n', toml: '[features]\nweb_search = true # USER_EDIT_ME\n\n[features.experimental]\nfast = true\n' },
  { name: 'a byte order mark in both files', text: '\uFEFF{"hooks":{}}\n', toml: '\uFEFF[features]\nweb_search = true # USER_EDIT_ME\n' },
];

const CURSOR: Case[] = [
  {
    name: 'one-line entries, comments, user hooks on our events',
    text: `{
  // my Cursor hooks
  "version": 1,
  "hooks": {
    "beforeSubmitPrompt": [{ "command": "./hooks/audit.sh USER_EDIT_ME" }],
    "afterFileEdit": [
      { "command": "./hooks/format.sh" } // prettier
    ]
  }
}
`,
  },
  { name: 'tab-indented, CRLF, no version', text: '{\r\n\t"hooks": {\r\n\t\t"stop": [\r\n\t\t\t{ "command": "./s.sh USER_EDIT_ME" }\r\n\t\t]\r\n\t}\r\n}' },
  { name: 'one line', text: '{"version":1,"hooks":{"sessionStart":[{"command":"./USER_EDIT_ME.sh"}]}}' },
  { name: 'a byte order mark', text: '\uFEFF{\r\n  "version": 1,\r\n  "hooks": { "stop": [{ "command": "./USER_EDIT_ME.sh" }] }\r\n}\r\n' },
  { name: 'only a comment', text: '// hooks go here: USER_EDIT_ME\n' },
];

const OPENCLAW: Case[] = [
  {
    name: 'JSON5 with comments, unquoted keys, single quotes, trailing commas',
    text: `// OpenClaw config
{
  agents: { defaults: { model: 'anthropic/claude-sonnet-4', }, }, // USER_EDIT_ME
  hooks: {
    internal: {
      enabled: false, // off for now
      entries: { 'session-memory': { enabled: true } },
    },
  },
}
`,
  },
  { name: 'no hooks yet, tabs, no final newline', text: "{\n\tgateway: { port: 0x4242 },\n\tname: 'USER_EDIT_ME'\n}" },
  { name: 'one line', text: "{gateway:{bind:'USER_EDIT_ME'}}" },
  { name: 'a byte order mark', text: "\uFEFF{\n  gateway: { bind: 'USER_EDIT_ME' },\n}\n" },
];

const HERMES: Case[] = [
  {
    name: 'comments, quoting, a user hook on an event we use',
    text: `# Hermes config
model:
  default: "anthropic/claude-sonnet-4"   # USER_EDIT_ME
hooks:
  pre_llm_call:
    - command: '~/bin/audit.sh'
      timeout: 5
  post_tool_call:
    - command: ~/fmt.sh
`,
  },
  { name: 'no hooks, four-space indent, no final newline', text: 'model:\n    default: x\nterminal:\n    backend: USER_EDIT_ME' },
  { name: 'CRLF', text: 'model:\r\n  default: USER_EDIT_ME\r\nhooks:\r\n  on_session_start:\r\n    - command: ~/hello.sh\r\n' },
  { name: 'a flow-style list of the user (edited through the Document API)', text: 'hooks:\n  pre_llm_call: [{command: ~/a.sh}]\nmodel: USER_EDIT_ME\n' },
  { name: 'a byte order mark, no hooks yet', text: '\uFEFFmodel:\n  default: USER_EDIT_ME\n' },
];

const HOSTS: Array<{ host: HostId; file: (home: string) => string; cases: Case[] }> = [
  { host: 'claude-code', file: (h) => join(h, '.claude', 'settings.json'), cases: CLAUDE },
  { host: 'codex', file: (h) => join(h, '.codex', 'hooks.json'), cases: CODEX },
  { host: 'cursor', file: (h) => join(h, '.cursor', 'hooks.json'), cases: CURSOR },
  { host: 'openclaw', file: (h) => join(h, '.openclaw', 'openclaw.json'), cases: OPENCLAW },
  { host: 'hermes', file: (h) => join(h, '.hermes', 'config.yaml'), cases: HERMES },
];

function home(c: Case, file: (h: string) => string) {
  const root = mkdtempSync(join(tmpdir(), 'hm-exact-'));
  const h = join(root, 'home');
  const f = file(h);
  mkdirSync(dirname(f), { recursive: true });
  writeFileSync(f, c.text);
  const toml = join(dirname(f), 'config.toml');
  if (c.toml !== undefined) writeFileSync(toml, c.toml);
  const opts: InstallOptions = { home: h, env: { HOME: h, HIVE_MIND_HOME: join(root, 'hm') }, command: COMMAND };
  return { root, f, toml, opts };
}

describe.each(HOSTS)('$host: install then uninstall gives back the bytes', ({ host, file, cases }) => {
  it.each(cases)('$name', async (c) => {
    const inst = (await loadInstaller(host))!;
    const { root, f, toml, opts } = home(c, file);
    try {
      const r1 = await inst.install(opts);
      expect(readFileSync(f, 'utf8')).not.toBe(c.text);
      expect(r1.files.find((x) => x.path === f)?.changed).toBe(true);
      // idempotent: a second install changes nothing and makes no new backup
      const backups = readdirSync(dirname(f)).filter((n) => n.includes('hive-mind-backup')).length;
      const r2 = await inst.install(opts);
      expect(r2.files.every((x) => !x.changed)).toBe(true);
      expect(readdirSync(dirname(f)).filter((n) => n.includes('hive-mind-backup')).length).toBe(backups);
      await inst.uninstall(opts);
      expect(readFileSync(f, 'utf8')).toBe(c.text);
      if (c.toml !== undefined) expect(readFileSync(toml, 'utf8')).toBe(c.toml);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it.each(cases.filter((c) => c.text.includes('USER_EDIT_ME')))('an edit made between install and uninstall stays: $name', async (c) => {
    const inst = (await loadInstaller(host))!;
    const { root, f, opts } = home(c, file);
    try {
      await inst.install(opts);
      writeFileSync(f, readFileSync(f, 'utf8').replace('USER_EDIT_ME', 'USER_EDITED'));
      await inst.uninstall(opts);
      expect(readFileSync(f, 'utf8')).toBe(c.text.replace('USER_EDIT_ME', 'USER_EDITED'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a moved CLI: reinstall updates our command in place, uninstall still gives back the bytes', () => {
  it.each(HOSTS)('$host', async ({ host, file, cases }) => {
    const inst = (await loadInstaller(host))!;
    const c = cases[0]!;
    const { root, f, toml, opts } = home(c, file);
    try {
      await inst.install({ ...opts, command: '/old/node /old/lib/hive-mind/bin/hive-mind.js' });
      await inst.install(opts);
      const all = [f, ...(host === 'openclaw' ? [join(dirname(f), 'hooks', 'hive-mind', 'handler.mjs')] : [])].map((p) => readFileSync(p, 'utf8')).join('\n');
      expect(all).not.toContain('/old/');
      expect(all).toContain(COMMAND);
      await inst.uninstall(opts);
      expect(readFileSync(f, 'utf8')).toBe(c.text);
      if (c.toml !== undefined) expect(readFileSync(toml, 'utf8')).toBe(c.toml);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a hook the user adds next to ours between install and uninstall stays', () => {
  it('claude-code: a compact one-line hook added to an event array our install created', async () => {
    const inst = (await loadInstaller('claude-code'))!;
    const c = { name: '', text: '{\n  "model": "opus"\n}\n' };
    const { root, f, opts } = home(c, (h) => join(h, '.claude', 'settings.json'));
    try {
      await inst.install(opts);
      const t = readFileSync(f, 'utf8').replace('"SessionStart": [\n', '"SessionStart": [\n      {"hooks":[{"type":"command","command":"echo mine"}]},\n');
      writeFileSync(f, t);
      await inst.uninstall(opts);
      expect(readFileSync(f, 'utf8')).toBe('{\n  "model": "opus",\n  "hooks": {\n    "SessionStart": [\n      {"hooks":[{"type":"command","command":"echo mine"}]}\n    ]\n  }\n}\n');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('hermes: a hook added under our entry in the same list', async () => {
    const inst = (await loadInstaller('hermes'))!;
    const c = { name: '', text: 'model:\n  default: x\n' };
    const { root, f, opts } = home(c, (h) => join(h, '.hermes', 'config.yaml'));
    try {
      await inst.install(opts);
      const t = readFileSync(f, 'utf8').replace(/(  post_llm_call:\n(?:    .*\n)+)/, '$1    - command: ~/after.sh\n');
      writeFileSync(f, t);
      await inst.uninstall(opts);
      expect(readFileSync(f, 'utf8')).toBe('model:\n  default: x\nhooks:\n  post_llm_call:\n    - command: ~/after.sh\n');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('no install record (e.g. deleted): uninstall still removes only ours', () => {
  it.each(HOSTS.filter((h) => h.host !== 'openclaw'))('$host', async ({ host, file, cases }) => {
    const inst = (await loadInstaller(host))!;
    const c = cases[0]!;
    const { root, f, opts } = home(c, file);
    try {
      await inst.install(opts);
      rmSync(join(root, 'hm'), { recursive: true, force: true });
      await inst.uninstall(opts);
      const after = readFileSync(f, 'utf8');
      expect(after).not.toContain('hive-mind.js');
      expect(existsSync(f)).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the install record keeps no copy of the user config', () => {
  it.each(HOSTS)('$host: a secret on the line next to our entries never reaches <hive-mind home>/installs', async ({ host, file }) => {
    const inst = (await loadInstaller(host))!;
    const secret = 'sk-ant-api03-' + 'Q'.repeat(40);
    const text: Record<HostId, string> = {
      'claude-code': `{"env":{"ANTHROPIC_API_KEY":"${secret}"}}`,
      codex: `{\n  "hooks": {\n    "Stop": [{"hooks":[{"type":"command","command":"KEY=${secret} notify"}]}]\n  }\n}\n`,
      cursor: `{"version":1,"hooks":{"stop":[{"command":"KEY=${secret} ./s.sh"}]}}`,
      openclaw: `{ env: { KEY: '${secret}' } }`,
      hermes: `env:\n  KEY: ${secret}`,
    };
    const { root, f, opts } = home({ name: '', text: text[host] }, file);
    try {
      await inst.install(opts);
      const record = readFileSync(join(root, 'hm', 'installs', `${host}.json`), 'utf8');
      expect(record).not.toContain('QQQQQQQQ');
      await inst.uninstall(opts);
      expect(readFileSync(f, 'utf8')).toBe(text[host]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
