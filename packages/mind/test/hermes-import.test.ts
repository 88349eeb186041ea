import { describe, it, expect, beforeAll, beforeEach, afterEach } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHermesBlocks } from '@hive-mind/mind';
import { tmp, ensureBuilt, runNode, CLI_BIN, type RunResult } from './helpers.js';

/**
 * A Hermes memory block exactly as hermes-agent renders it (tools/memory_tool.py `_render_block`):
 * the entries joined by `\n§\n`, a header declaring `len(content)` (Python: code points) against the
 * limit with thousands separators, between two rules of 46 × U+2550.
 */
function hermesBlock(target: 'memory' | 'user', entries: string[], limit: number): string {
  const content = entries.join('\n§\n');
  const current = [...content].length;
  const pct = Math.min(100, Math.floor((current / limit) * 100));
  const title = target === 'user' ? 'USER PROFILE (who the user is)' : 'MEMORY (your personal notes)';
  const sep = '═'.repeat(46);
  return `${sep}\n${title} [${pct}% — ${current.toLocaleString('en-US')}/${limit.toLocaleString('en-US')} chars]\n${sep}\n${content}`;
}

// USER.md as a person writes it: a title, then paragraphs (blank lines inside one entry), non-ASCII and an emoji
const USER_PROFILE = [
  '# User profile\n\nName: Ana Souza\nTimezone: America/Sao_Paulo (UTC−3)\nLanguages: Portuguese (native), English, some 日本語\n\nPreferences:\n- answers in English, code comments in Portuguese\n- pnpm over npm; no emoji in commit messages 🙂',
  'Works mostly at night; prefers short replies',
];
const MEMORY = ['Deploys go through ArgoCD from the main branch', 'Staging database: db-7.internal\n\nMigrations run with `make migrate`, never by hand'];

let t: ReturnType<typeof tmp>;
beforeAll(() => ensureBuilt('cli'), 300_000);
beforeEach(() => (t = tmp('hm-hermes-')));
afterEach(() => t.cleanup());

function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  return runNode([CLI_BIN, ...args], { env: { HIVE_MIND_HOME: t.dir, HERMES_HOME: join(t.dir, 'hermes'), ...env }, cwd: t.dir });
}

/** A session file as Hermes saves it, its system prompt built as `_build_system_prompt` joins its parts (blank lines). */
function writeSession(): string {
  const system = ['You are Hermes Agent, an intelligent AI assistant created by Nous Research.', hermesBlock('memory', MEMORY, 2200), hermesBlock('user', USER_PROFILE, 1375), 'Conversation started: Tuesday, December 01, 2026 11:02 PM'].join('\n\n');
  const path = join(t.dir, 'session_20261201_230200_ab12cd.json');
  writeFileSync(path, JSON.stringify({ session_id: '20261201_230200_ab12cd', model: 'hermes-4', messages: [{ role: 'system', content: system }, { role: 'user', content: 'hi' }, { role: 'assistant', content: 'Olá Ana!' }] }));
  return path;
}

describe('Hermes memory blocks: the whole body, by the size the header declares', () => {
  it('keeps entries with blank lines, non-BMP characters and a block that ends the text', () => {
    const text = `intro\n\n${hermesBlock('memory', MEMORY, 2200)}\n\n${hermesBlock('user', USER_PROFILE, 1375)}`;
    expect(parseHermesBlocks(text, 's.json')).toEqual([
      { file: 'memory', source: 's.json', entries: MEMORY, limit: 2200 },
      { file: 'user', source: 's.json', entries: USER_PROFILE, limit: 1375 },
    ]);
    // the two blocks glued without a blank line (format_for_system_prompt("memory") + …("user"))
    expect(parseHermesBlocks(hermesBlock('memory', MEMORY, 2200) + hermesBlock('user', USER_PROFILE, 1375), 's.json').map((b) => b.entries)).toEqual([MEMORY, USER_PROFILE]);
  });

  it('a header whose size does not fit (edited, cut) falls back to the next rule or blank line, never into the next block', () => {
    const sep = '═'.repeat(46);
    const wrong = `${sep}\nMEMORY (your personal notes) [20% — 452/2,200 chars]\n${sep}\nThe CI runs on GitHub Actions\n§\nDocker is installed\n\n${sep}\nUSER PROFILE (who the user is) [10% — 140/1,375 chars]\n${sep}\nPrefers British spelling\n\nConversation started.`;
    expect(parseHermesBlocks(wrong, 's').map((b) => b.entries)).toEqual([['The CI runs on GitHub Actions', 'Docker is installed'], ['Prefers British spelling']]);
  });
});

describe('hive-mind notes import --from hermes --session FILE (built binary)', () => {
  it("adopts all of the session's USER.md and MEMORY.md, counts what it wrote, and names the session file as the source", async () => {
    // a Hermes profile with other notes: not what was asked for, so not read without --home
    mkdirSync(join(t.dir, 'hermes', 'memories'), { recursive: true });
    writeFileSync(join(t.dir, 'hermes', 'memories', 'MEMORY.md'), 'An entry of the profile, not of the session\n');
    const session = writeSession();
    const r = await cli(['notes', 'import', '--from', 'hermes', '--session', session]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`from ${session} (its MEMORY.md and USER.md blocks): 4 added, 0 already in your notes, 0 added beside an entry that says otherwise, 0 refused\n`);
    expect(r.stdout).not.toContain(join(t.dir, 'hermes'));
    expect(readFileSync(join(t.dir, 'memories', 'USER.md'), 'utf8')).toBe(USER_PROFILE.join('\n§\n') + '\n');
    expect(readFileSync(join(t.dir, 'memories', 'MEMORY.md'), 'utf8')).toBe(MEMORY.join('\n§\n') + '\n');
    // what a new session is given (the SessionStart hook): the profile whole, name, timezone, languages and preferences
    const start = await runNode([CLI_BIN, 'hook', 'claude-code', 'SessionStart'], {
      env: { HIVE_MIND_HOME: t.dir, HOME: t.dir },
      cwd: t.dir,
      input: JSON.stringify({ session_id: 's-new', cwd: t.dir, hook_event_name: 'SessionStart', source: 'startup' }),
    });
    const given = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    for (const part of ['Name: Ana Souza', 'Timezone: America/Sao_Paulo (UTC−3)', 'Languages: Portuguese (native), English, some 日本語', '- pnpm over npm; no emoji in commit messages 🙂', 'Works mostly at night', 'Migrations run with `make migrate`']) expect(given).toContain(part);

    // with --home as well, the profile's files are read too, each line naming its own source
    const both = await cli(['notes', 'import', '--from', 'hermes', '--home', join(t.dir, 'hermes'), '--session', session]);
    expect(both.code).toBe(0);
    expect(both.stdout.split('\n').slice(0, 2)).toEqual([
      `from ${join(t.dir, 'hermes', 'memories', 'MEMORY.md')}: 1 added, 0 already in your notes, 0 added beside an entry that says otherwise, 0 refused`,
      `from ${session} (its MEMORY.md and USER.md blocks): 0 added, 4 already in your notes, 0 added beside an entry that says otherwise, 0 refused`,
    ]);
  });

  it('a session without memory blocks: exit 2 naming the session, not the Hermes home', async () => {
    const session = join(t.dir, 'empty-session.json');
    writeFileSync(session, JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }));
    const r = await cli(['notes', 'import', '--from', 'hermes', '--session', session]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no Hermes notes found: ${session} holds no memory block`);
  });
});
