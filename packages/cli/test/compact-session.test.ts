/**
 * `hive-mind sessions` and `hive-mind compact --session` on fake homes holding real session
 * files where each host keeps them: the listing, and every bad input of the flow (no session
 * for this folder, an id of several hosts, a file being written, a session under budget, an
 * earlier backup, an unknown host version) plus `--undo`. Needs the built CLI.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { appendFileSync, copyFileSync, existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
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

describe('compaction backups: the retention rule', () => {
  const compactions = async (h: ReturnType<typeof setup>, budgets: number[], extra: string[][] = []) => {
    const out: Array<{ at: string; backup: string; tokensBefore: number; tokensAfter: number; stdout: string; stderr: string }> = [];
    for (const [i, b] of budgets.entries()) {
      const r = await h.cli(['compact', '--session', 'latest', '--budget', String(b), ...(extra[i] ?? [])]);
      expect(r.code, r.stderr).toBe(0);
      const rec = readFileSync(`${h.cc}.hive-mind-compactions`, 'utf8').trim().split('\n').at(-1)!;
      out.push({ ...JSON.parse(rec), stdout: r.stdout, stderr: r.stderr });
    }
    return out;
  };

  it('keeps the backups of the newest N compactions; --undo walks back that far, then says the older one was pruned', async () => {
    const h = setup();
    const pristine = readFileSync(h.cc);
    const [a, b, c] = await compactions(h, [12000, 5000, 2500], [[], [], ['--keep-backups', '2']]);
    expect(a!.stdout).not.toContain('removed');
    expect(c!.stdout).toContain(`  removed 1 older backup (`);
    expect(c!.stdout).toContain(`; the newest 2 compactions keep theirs, --keep-backups or HIVE_MIND_COMPACT_KEEP_BACKUPS to change): ${a!.backup}\n`);
    expect(existsSync(a!.backup)).toBe(false);
    expect(readFileSync(b!.backup)).not.toEqual(pristine);
    expect(existsSync(c!.backup)).toBe(true);
    const records = readFileSync(`${h.cc}.hive-mind-compactions`, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(records.map((r) => [r.backup, typeof r.pruned])).toEqual([
      [a!.backup, 'string'],
      [b!.backup, 'undefined'],
      [c!.backup, 'undefined'],
    ]);
    const afterFirst = readFileSync(b!.backup);
    expect((await h.cli(['compact', '--undo', '--session', CC_ID])).code).toBe(0);
    expect((await h.cli(['compact', '--undo', '--session', CC_ID])).code).toBe(0);
    expect(readFileSync(h.cc)).toEqual(afterFirst);
    const u3 = await h.cli(['compact', '--undo', '--session', CC_ID]);
    expect(u3.code).toBe(2);
    expect(u3.stderr).toMatch(new RegExp(`the compaction made at ${a!.at}.* can no longer be undone: its backup .* was removed at .*, when the retention rule pruned older backups .*; nothing restored\n$`));
    expect(readFileSync(h.cc)).toEqual(afterFirst);
  });

  it('the default keeps 5; HIVE_MIND_COMPACT_KEEP_BACKUPS sets it; bad values are refused before anything is written', async () => {
    const h = setup();
    const bad = await runCli(['compact', '--session', 'latest', '--budget', '3000'], { cwd: h.cwd, env: { HOME: h.home, HIVE_MIND_COMPACT_KEEP_BACKUPS: 'abc' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('hive-mind: HIVE_MIND_COMPACT_KEEP_BACKUPS="abc" must be a positive integer (compaction backups kept per session file (the newest compactions\' backups; compact --undo walks back that far)); it is refused (the command fails until it is fixed)\n');
    expect((await h.cli(['compact', '--session', 'latest', '--budget', '3000', '--keep-backups', '0'])).stderr).toBe('hive-mind: --keep-backups must be a positive integer (the newest compaction\'s backup is always kept), got "0"\n');
    expect((await h.cli(['compact', h.cc, '--budget', '3000', '--out', join(h.root, 'x.jsonl'), '--keep-backups', '2'])).code).toBe(2);
    expect(backupsOf(h.cc)).toEqual([]);
    // five earlier compactions, as their records and backups would be (real files, digests that match)
    const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
    const earlier: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const backup = `${h.cc}.hive-mind-backup-2020010${i}T000000000Z`;
      const bytes = `earlier state ${i}\n`;
      writeFileSync(backup, bytes);
      earlier.push(backup);
      const rec = { at: `2020-01-0${i}T00:00:00.000Z`, backup, before: { sha256: sha(bytes), size: bytes.length }, after: { sha256: sha(`after ${i}`), size: 7 }, tokensBefore: 100, tokensAfter: 50, summarizer: 'extractive' };
      appendFileSync(`${h.cc}.hive-mind-compactions`, JSON.stringify(rec) + '\n');
    }
    const [first] = await compactions(h, [12000]);
    expect(first!.stdout).toContain(`removed 1 older backup (0.0 MB; the newest 5 compactions keep theirs, --keep-backups or HIVE_MIND_COMPACT_KEEP_BACKUPS to change): ${earlier[0]}\n`);
    expect(backupsOf(h.cc)).toHaveLength(5);
    const env1 = await runCli(['compact', '--session', 'latest', '--budget', '5000', '--json'], { cwd: h.cwd, env: { HOME: h.home, HIVE_MIND_COMPACT_KEEP_BACKUPS: '1' } });
    expect(env1.code).toBe(0);
    // --json keeps its keys; the removal is said on stderr
    expect(JSON.parse(env1.stdout).backup).toBe(join(dirname(h.cc), backupsOf(h.cc)[0]!));
    expect(env1.stderr).toMatch(/^hive-mind: removed 5 older backups \(/);
    expect(backupsOf(h.cc)).toHaveLength(1);
  });

  it('sessions --prune-backups applies the rule to every listed session; --dry-run removes nothing; what is not ours is left alone', async () => {
    const h = setup();
    const handMade = `${h.cc}.hive-mind-backup-20200101T000000000Z`;
    writeFileSync(handMade, 'an earlier backup, named in no record');
    const [a, b, c] = await compactions(h, [12000, 5000, 2500]);
    appendFileSync(b!.backup, 'edited by hand'); // no longer the copy its record names
    const dry = await h.cli(['sessions', '--prune-backups', '--keep-backups', '1', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe(
      `would remove ~${a!.backup.slice(h.home.length)} (${readFileSync(a!.backup).length.toLocaleString('en-US')} bytes, the backup of the compaction at ${a!.at})\n` +
        `kept ~${b!.backup.slice(h.home.length)}: it is not the copy its compaction record names (its content changed), so it is left alone\n` +
        `would remove 1 backup (${readFileSync(a!.backup).length.toLocaleString('en-US')} bytes) of 3 sessions; kept 1, the newest 1 compaction of each file (compact --undo walks back that far)\n`,
    );
    expect(existsSync(a!.backup)).toBe(true);
    const real = await h.cli(['sessions', '--prune-backups', '--keep-backups', '1', '--json']);
    expect(JSON.parse(real.stdout).find((r: { file: string }) => r.file === h.cc)).toMatchObject({ keep: 1, kept: [c!.backup], removed: [{ path: a!.backup }], spared: [{ path: b!.backup }] });
    expect(existsSync(a!.backup)).toBe(false);
    expect(existsSync(b!.backup) && existsSync(c!.backup) && existsSync(handMade)).toBe(true);
    // run again: nothing left to do
    expect((await h.cli(['sessions', '--prune-backups', '--keep-backups', '1'])).stdout).toContain('removed 0 backups (0 bytes) of 3 sessions; kept 1,');
    expect((await h.cli(['sessions', '--keep-backups', '1'])).stderr).toBe('hive-mind: --keep-backups applies only with --prune-backups\n');
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
    expect(human.stdout).toMatch(/\ncompact the newest in place: hive-mind compact --session latest\n$/);
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
