/**
 * `hive-mind sessions` and `hive-mind compact --session` on fake homes holding real session
 * files where each host keeps them: the listing, and every bad input of the flow (no session
 * for this folder, an id of several hosts, a file being written, a session under budget, an
 * earlier backup, an unknown host version) plus `--undo`. Needs the built CLI.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { appendFileSync, copyFileSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { age, CC_ID, CODEX_ID, homeWithSessions } from '../../transcripts/test/session-homes.js';
import { runCli } from './helpers.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function setup() {
  const h = homeWithSessions(roots);
  const env = { HOME: h.home, CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined, PI_CODING_AGENT_DIR: undefined, PI_CODING_AGENT_SESSION_DIR: undefined, HERMES_HOME: undefined };
  const cli = (args: string[], cwd = h.cwd) => runCli(args, { cwd, env });
  return { ...h, cli };
}

const backupsOf = (file: string) => readdirSync(dirname(file)).filter((n) => n.startsWith(`${file.slice(file.lastIndexOf('/') + 1)}.hive-mind-backup-`)).sort();

describe('hive-mind sessions', () => {
  it("lists this folder's sessions newest first with tokens, window, compactions; a half-written file is marked, not fatal", async () => {
    const h = setup();
    const half = join(dirname(h.cc), '11111111-2222-3333-4444-555555555555.jsonl');
    copyFileSync(h.cc, half);
    appendFileSync(half, '{"type":"user","message":{"role":"user","content":"cut of');
    age(half, 150); // between the Claude Code and Codex sessions
    const r = await h.cli(['sessions', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows.map((x: { host: string; id: string }) => `${x.host} ${x.id}`)).toEqual([`claude-code ${CC_ID}`, 'claude-code 11111111-2222-3333-4444-555555555555', `codex ${CODEX_ID}`, expect.stringMatching(/^pi /)]);
    expect(rows[0]).toMatchObject({ path: h.cc, cwd: h.cwd, version: '2.1.14', compactions: { ours: 0, host: 0 }, busy: null, problem: null, window: 200000 });
    expect(rows[0].model).toMatch(/^claude-/);
    expect(rows[0].surfaceTokens).toBeGreaterThan(1000);
    expect(rows[1].problem).toMatch(/^half written: line \d+ is cut off$/);
    expect(rows[2]).toMatchObject({ host: 'codex', resume: { argv: ['codex', 'resume', CODEX_ID], shell: `codex resume ${CODEX_ID}` } });
    expect(rows[3].resume.argv).toEqual(['pi', '--session', h.pi]);
    const human = await h.cli(['sessions', '--host', 'codex']);
    expect(human.stdout).toMatch(new RegExp(`^Codex +${CODEX_ID}  .* ago  [\\d,]+ / [\\d,]+ tokens \\(\\d+% of gpt-5-codex\\)  compactions: 0 hive-mind, 0 Codex\n`));
    expect(human.stdout).toContain('compact the newest in place: hive-mind compact --session latest --host codex');
    // another folder: none, and exit 0
    const none = await h.cli(['sessions'], h.root);
    expect(none).toMatchObject({ code: 0, stdout: `no Claude Code, Codex, pi or Hermes session for ${h.root} (--all lists every project)\n` });
    expect((await h.cli(['sessions', '--host', 'cursor'])).stderr).toContain('--host must be one of claude-code, codex, pi, hermes; got "cursor"');
  });
});

describe('hive-mind sessions: files that are not sessions', () => {
  it('lists each under "not listed" with the reason; with --json they go to stderr and stdout stays the array', async () => {
    const h = setup();
    const notes = join(dirname(h.cc), 'notes.jsonl');
    copyFileSync(h.cc, notes);
    age(notes, 500);
    const human = await h.cli(['sessions']);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(
      `not listed (1):\n  ~${notes.slice(h.home.length)}: not a session file of Claude Code: its name is not <session id>.jsonl with a UUID as the id, and Claude Code resumes only such files (claude --resume takes a UUID or the title of one of them)\n`,
    );
    expect(human.stdout).toMatch(new RegExp(`^Claude Code +${CC_ID} `));
    const json = await h.cli(['sessions', '--json']);
    expect(JSON.parse(json.stdout).map((r: { path: string }) => r.path)).not.toContain(notes);
    expect(json.stderr).toBe(`~${notes.slice(h.home.length)}: not a session file of Claude Code: its name is not <session id>.jsonl with a UUID as the id, and Claude Code resumes only such files (claude --resume takes a UUID or the title of one of them)\n`);
    // a folder whose only file is not a session says both
    rmSync(h.cc);
    const only = await h.cli(['sessions', '--host', 'claude-code']);
    expect(only.stdout).toMatch(new RegExp(`^no Claude Code session for ${h.cwd} \\(--all lists every project\\)\nnot listed \\(1\\):\n  ~.*notes\\.jsonl: not a session file of Claude Code: `));
  });
});

describe('hive-mind compact --session: bad input', () => {
  it('no session for this folder: exit 2 naming the folder, nothing written', async () => {
    const h = setup();
    const r = await h.cli(['compact', '--session', 'latest'], h.root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^hive-mind: no session of any host for ${h.root}; looked in `));
  });

  it('an id that matches several hosts: exit 2 listing them; --host picks one', async () => {
    const h = setup();
    const twin = h.codex.replace(CODEX_ID, CC_ID);
    writeFileSync(twin, readFileSync(h.codex, 'utf8').replaceAll(CODEX_ID, CC_ID));
    age(twin);
    const r = await h.cli(['compact', '--session', CC_ID, '--budget', '3000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`matches sessions of several hosts: Claude Code ${CC_ID} (${h.cc}); Codex ${CC_ID} (${twin}); give --host claude-code or --host codex`);
    const ok = await h.cli(['compact', '--session', CC_ID, '--host', 'codex', '--budget', '100000', '--json']);
    expect(ok.stderr).toBe('');
    expect(JSON.parse(ok.stdout).session).toMatchObject({ host: 'codex', path: twin });
  });

  it('a session being written (a write seconds ago) is refused; --force compacts it', async () => {
    const h = setup();
    utimesSync(h.cc, new Date(), new Date());
    const before = readFileSync(h.cc);
    const r = await h.cli(['compact', '--session', 'latest', '--budget', '3000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^hive-mind: Claude Code session ${CC_ID} is being written right now: it was written \\d+ s ago \\(less than 10 s\\); quit Claude Code \\(or let its turn finish\\) and run this again, or give --force`));
    expect(readFileSync(h.cc)).toEqual(before);
    expect(backupsOf(h.cc)).toEqual([]);
    const f = await h.cli(['compact', '--session', 'latest', '--budget', '3000', '--force']);
    expect(f.code).toBe(0);
    expect(f.stdout).toContain(`compacted ${h.cc} (claude-code)`);
  });

  it('a session already under budget: exit 0, nothing written, no backup, the resume command printed', async () => {
    const h = setup();
    const before = readFileSync(h.cc);
    const r = await h.cli(['compact', '--session', 'latest', '--budget', '500000']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/is already under budget: \d+ tokens <= \d+; nothing to do, nothing written/);
    expect(r.stdout).toContain(`resume it: cd '${h.cwd}' && claude --resume ${CC_ID}`);
    expect(r.stdout).not.toContain('undo it');
    expect(readFileSync(h.cc)).toEqual(before);
    expect(backupsOf(h.cc)).toEqual([]);
  });

  it('a backup from an earlier run is kept, never overwritten; each compaction keeps its own', async () => {
    const h = setup();
    const pristine = readFileSync(h.cc);
    const old = `${h.cc}.hive-mind-backup-20200101T000000000Z`;
    writeFileSync(old, 'an earlier backup');
    const a = await h.cli(['compact', '--session', 'latest', '--budget', '6000', '--json']);
    expect(a.code).toBe(0);
    const first = JSON.parse(a.stdout).backup as string;
    expect(first).not.toBe(old);
    expect(readFileSync(first)).toEqual(pristine);
    age(h.cc);
    const b = await h.cli(['compact', '--session', 'latest', '--budget', '3000', '--json']);
    expect(b.code).toBe(0);
    const second = JSON.parse(b.stdout).backup as string;
    expect(new Set([old, first, second]).size).toBe(3);
    expect(readFileSync(old, 'utf8')).toBe('an earlier backup');
    expect(readFileSync(first)).toEqual(pristine);
    expect(backupsOf(h.cc)).toHaveLength(3);
  });

  it('a host version whose format we do not know is refused, naming the version', async () => {
    const h = setup();
    // a newer Claude Code resumed the session: its last lines carry the version it has
    appendFileSync(h.cc, JSON.stringify({ parentUuid: null, type: 'system', subtype: 'informational', content: 'resumed', uuid: 'ffffffff-0000-0000-0000-000000000001', timestamp: '2026-12-01T09:00:00.000Z', sessionId: CC_ID, cwd: h.cwd, version: '3.0.1' }) + '\n');
    age(h.cc);
    const r = await h.cli(['compact', '--session', 'latest', '--budget', '3000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`hive-mind: ${h.cc}: Claude Code 3.0.1 wrote this session; hive-mind knows the session format of Claude Code 1.0.0 up to (not including) 3.0.0, so it does not rewrite this file\n`);
    expect(backupsOf(h.cc)).toEqual([]);
  });

  it('flags that make no sense together are refused', async () => {
    const h = setup();
    expect((await h.cli(['compact', h.cc, '--session', 'latest'])).stderr).toContain('give a transcript FILE or --session, not both');
    expect((await h.cli(['compact'])).stderr).toContain('give a transcript FILE, or --session latest');
    expect((await h.cli(['compact', h.cc, '--host', 'codex'])).stderr).toContain('--host applies only with --session');
    expect((await h.cli(['compact', '--session', CC_ID, '--cwd', h.root])).stderr).toContain('--cwd applies only with --session latest');
  });
});

describe('hive-mind compact --undo', () => {
  it('restores byte for byte, newest compaction first, says which; then there is nothing left', async () => {
    const h = setup();
    const pristine = readFileSync(h.cc);
    const a = JSON.parse((await h.cli(['compact', '--session', 'latest', '--budget', '8000', '--json'])).stdout);
    const afterFirst = readFileSync(h.cc);
    // just written, but by our own compaction (the record says so): not a host at work
    const listed = JSON.parse((await h.cli(['sessions', '--json', '--host', 'claude-code'])).stdout);
    expect(listed[0]).toMatchObject({ path: h.cc, busy: null, compactions: { ours: 1, host: 0 } });
    const b = JSON.parse((await h.cli(['compact', '--session', 'latest', '--budget', '3000', '--json'])).stdout);
    expect(b.tokensBefore).toBe(a.tokensAfter);

    const u1 = await h.cli(['compact', '--undo', '--session', CC_ID]);
    expect(u1.code).toBe(0);
    expect(u1.stdout).toContain(`undid the compaction of ${h.cc} made at `);
    expect(u1.stdout).toContain(`(${b.tokensBefore} -> ${b.tokensAfter} tokens, summarize with extractive): the file is back to its ${afterFirst.length} bytes from before it (from ${b.backup})`);
    expect(u1.stdout).toContain(`resume it: cd '${h.cwd}' && claude --resume ${CC_ID}`);
    expect(readFileSync(h.cc)).toEqual(afterFirst);

    const u2 = await h.cli(['compact', '--undo', '--session', CC_ID, '--json']);
    expect(u2.code).toBe(0);
    expect(JSON.parse(u2.stdout)).toMatchObject({ undone: { tokensBefore: a.tokensBefore, tokensAfter: a.tokensAfter, backup: a.backup }, forced: false });
    expect(readFileSync(h.cc)).toEqual(pristine);

    const u3 = await h.cli(['compact', '--undo', '--session', CC_ID]);
    expect(u3.code).toBe(0);
    expect(u3.stdout).toMatch(/^nothing to undo: .* is already as it was before hive-mind's compaction at /);
    expect(readFileSync(h.cc)).toEqual(pristine);
    // every backup is still there (the undos kept a copy of each compacted file too)
    expect(backupsOf(h.cc)).toHaveLength(4);
  });

  it('a file the host wrote to after the compaction is not restored without --force; nothing to undo is exit 2', async () => {
    const h = setup();
    const pristine = readFileSync(h.cc);
    expect((await h.cli(['compact', '--session', 'latest', '--budget', '3000'])).code).toBe(0);
    appendFileSync(h.cc, '{"type":"last-prompt","lastPrompt":"one more turn"}\n');
    age(h.cc);
    const r = await h.cli(['compact', '--undo', '--session', 'latest']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/changed since hive-mind compacted it at .* give --force to restore .* anyway \(the current file is backed up first\)/);
    const f = await h.cli(['compact', '--undo', '--session', 'latest', '--force']);
    expect(f.code).toBe(0);
    expect(f.stdout).toContain('--force: the file had changed since that compaction');
    expect(readFileSync(h.cc)).toEqual(pristine);
    const none = await h.cli(['compact', '--undo', '--session', CODEX_ID]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`${h.codex}: no compaction by hive-mind to undo`);
  });
});
