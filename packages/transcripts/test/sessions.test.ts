import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostVersionProblem, listSessions, resolveSession, scanSessions, sessionActivity, SessionLookupError, sessionRoots } from '@hive-mind/transcripts';
import { age, CC_ID, CODEX_ID, homeWithSessions as makeHome, PI_ID } from './session-homes.js';

const homeWithSessions = () => makeHome(roots);

const roots: string[] = [];
afterAll(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

describe('listSessions: the hosts\' own session folders', () => {
  it('lists the sessions of a folder newest first, with the id, cwd and version each file records', () => {
    const h = homeWithSessions();
    const rows = listSessions({ cwd: h.cwd, env: h.env });
    expect(rows.map((r) => [r.host, r.id, r.path])).toEqual([
      ['claude-code', CC_ID, h.cc],
      ['codex', CODEX_ID, h.codex],
      ['pi', PI_ID, h.pi],
    ]);
    expect(rows.map((r) => r.version)).toEqual(['2.1.14', '0.171.0', '1']);
    expect(rows.every((r) => r.cwd === h.cwd && !r.problem)).toBe(true);
    // Hermes records no folder: listed for every project, or with its host named
    expect(listSessions({ env: h.env }).map((r) => r.host)).toEqual(['claude-code', 'codex', 'pi', 'hermes']);
    expect(listSessions({ cwd: h.cwd, host: 'hermes', env: h.env }).map((r) => r.id)).toEqual(['20260101_120000_abc123']);
    // another folder has none
    expect(listSessions({ cwd: h.root, env: h.env })).toEqual([]);
  });

  it("honours CLAUDE_CONFIG_DIR, CODEX_HOME, PI_CODING_AGENT_DIR (PI_CODING_AGENT_SESSION_DIR) and HERMES_HOME", () => {
    const env = { HOME: '/h', CLAUDE_CONFIG_DIR: '/c', CODEX_HOME: '/x', PI_CODING_AGENT_DIR: '/p', HERMES_HOME: '/e' };
    expect(sessionRoots(env)).toEqual(['/c/projects', '/x/sessions', '/p/sessions', '/e/sessions']);
    expect(sessionRoots({ HOME: '/h' })).toEqual(['/h/.claude/projects', '/h/.codex/sessions', '/h/.pi/agent/sessions', '/h/.hermes/sessions']);
    expect(sessionRoots({ HOME: '/h', PI_CODING_AGENT_DIR: '/p', PI_CODING_AGENT_SESSION_DIR: '/s' })[2]).toBe('/s');
  });

  it('lists an unreadable or half-written file with its problem instead of failing', () => {
    const h = homeWithSessions();
    const dir = join(h.cc, '..');
    const bad = join(dir, '11111111-2222-3333-4444-555555555555.jsonl');
    writeFileSync(bad, 'not json at all\n');
    const rows = listSessions({ cwd: h.cwd, host: 'claude-code', env: h.env });
    expect(rows.find((r) => r.path === bad)).toMatchObject({ id: '11111111-2222-3333-4444-555555555555', problem: expect.stringMatching(/^unreadable: not JSONL/) });
    expect(rows.find((r) => r.path === h.cc)?.problem).toBeUndefined();
  });
});

describe('scanSessions: files in a session folder that are not sessions are reported, not skipped', () => {
  it("names each file the host would not take, with the host's own rule, and lists the sessions as before", () => {
    const h = homeWithSessions();
    const ccDir = join(h.cc, '..');
    // real session bytes under names and places the hosts do not take
    const ccNotes = join(ccDir, 'notes.jsonl');
    copyFileSync(h.cc, ccNotes);
    const ccPrefixed = join(ccDir, `copy-of-${CC_ID}.jsonl`);
    copyFileSync(h.cc, ccPrefixed);
    const ccStray = join(h.home, '.claude', 'projects', 'stray.jsonl');
    copyFileSync(h.cc, ccStray);
    writeFileSync(join(ccDir, `${CC_ID}.jsonl.hive-mind-backup-20261201T000000Z`), readFileSync(h.cc)); // our backup: not named like a session
    const codexNoId = join(h.codex, '..', 'rollout-2026-11-30T06-25-50.jsonl');
    copyFileSync(h.codex, codexNoId);
    const codexFlat = join(h.home, '.codex', 'sessions', `rollout-2026-11-30T06-25-50-${CODEX_ID.replace(/^0/, '1')}.jsonl`);
    copyFileSync(h.codex, codexFlat);
    const piOther = join(h.pi, '..', 'my-renamed-session.jsonl'); // pi takes any name whose first line is its header
    copyFileSync(h.pi, piOther);
    const piNotes = join(h.pi, '..', 'scratch.jsonl');
    writeFileSync(piNotes, '{"type":"message","id":"a1","parentId":null,"message":{"role":"user","content":"hi"}}\n');
    const hermesOther = join(h.hermes, '..', 'notes.json');
    writeFileSync(hermesOther, '{"session_id": "x"}');
    for (const f of [ccNotes, ccPrefixed, ccStray, codexNoId, codexFlat, piOther, piNotes, hermesOther]) age(f, 500);

    const all = scanSessions({ env: h.env });
    expect(all.sessions.map((r) => r.path).sort()).toEqual([h.cc, h.codex, h.pi, piOther, h.hermes].sort());
    expect(all.notSessions).toEqual(
      [
        { host: 'claude-code', path: ccPrefixed, reason: 'not a session file of Claude Code: its name is not <session id>.jsonl with a UUID as the id, and Claude Code resumes only such files (claude --resume takes a UUID or the title of one of them)' },
        { host: 'claude-code', path: ccNotes, reason: expect.stringMatching(/^not a session file of Claude Code: its name is not <session id>\.jsonl/) },
        { host: 'claude-code', path: ccStray, reason: 'not a session file of Claude Code: it is not in a project folder (projects/<folder>/), where Claude Code keeps each session' },
        { host: 'codex', path: codexNoId, reason: 'not a session file of Codex: its name is not rollout-<time>-<UUID>.jsonl, the only name Codex lists and resumes' },
        { host: 'codex', path: codexFlat, reason: 'not a session file of Codex: it is not in a sessions/YYYY/MM/DD/ folder, where Codex looks for its rollouts' },
        { host: 'pi', path: piNotes, reason: 'not a session file of pi: its first line is not a pi session header ({"type":"session","id":...}), so pi neither lists nor opens it' },
        { host: 'hermes', path: hermesOther, reason: 'not a session file of Hermes: its name is not session_<id>.json, the name of the session logs hermes-agent writes' },
      ].sort((a, b) => a.path.localeCompare(b.path)),
    );

    // for one folder: the files of that folder's project folders, and Codex files whose head records it
    const here = scanSessions({ cwd: h.cwd, env: h.env });
    expect(here.sessions.map((r) => r.path)).toEqual([h.cc, h.codex, h.pi, piOther]);
    expect(here.notSessions.map((f) => f.path).sort()).toEqual([ccNotes, ccPrefixed, codexNoId, codexFlat, piNotes].sort());
    expect(scanSessions({ cwd: h.root, env: h.env }).notSessions).toEqual([]);
    expect(listSessions({ cwd: h.cwd, env: h.env })).toEqual(here.sessions);
  });

  it('a lookup that finds nothing says which file named like it is not a session, and why', () => {
    const h = homeWithSessions();
    copyFileSync(h.cc, join(h.cc, '..', 'notes.jsonl'));
    expect(() => resolveSession('notes', { env: h.env })).toThrow(/^no session "notes" of any host \(run hive-mind sessions --all to list them\); .*notes\.jsonl: not a session file of Claude Code: its name is not <session id>\.jsonl/);
    rmSync(h.cc);
    rmSync(h.codex);
    rmSync(h.pi);
    expect(() => resolveSession('latest', { cwd: h.cwd, env: h.env })).toThrow(/; 1 file there named like sessions is not \(.*notes\.jsonl: not a session file of Claude Code/);
  });
});

describe('resolveSession', () => {
  it('latest is the newest session of the folder; an id is found whatever the folder; a unique prefix works', () => {
    const h = homeWithSessions();
    expect(resolveSession('latest', { cwd: h.cwd, env: h.env }).path).toBe(h.cc);
    expect(resolveSession('latest', { cwd: h.cwd, host: 'codex', env: h.env }).path).toBe(h.codex);
    expect(resolveSession(PI_ID, { cwd: h.root, env: h.env }).path).toBe(h.pi);
    expect(resolveSession(CODEX_ID.slice(0, 13), { env: h.env }).path).toBe(h.codex);
  });

  it('no session for this folder: names the folder and where it looked', () => {
    const h = homeWithSessions();
    let err: unknown;
    try {
      resolveSession('latest', { cwd: h.root, env: h.env });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SessionLookupError);
    expect((err as SessionLookupError).code).toBe('no-session');
    expect((err as Error).message).toContain(`no session of any host for ${h.root}; looked in ${join(h.home, '.claude', 'projects')}, ${join(h.home, '.codex', 'sessions')}`);
    expect(() => resolveSession('deadbeef-0000', { env: h.env })).toThrow(/no session "deadbeef-0000" of any host/);
  });

  it('an id that matches sessions of several hosts is refused, listing them and the --host to give', () => {
    const h = homeWithSessions();
    // a Codex session that happens to carry the Claude Code session's id
    const twin = h.codex.replace(CODEX_ID, CC_ID);
    writeFileSync(twin, readFileSync(h.codex, 'utf8').replaceAll(CODEX_ID, CC_ID));
    let err: SessionLookupError | undefined;
    try {
      resolveSession(CC_ID, { env: h.env });
    } catch (e) {
      err = e as SessionLookupError;
    }
    expect(err?.code).toBe('ambiguous');
    expect(err?.message).toMatch(new RegExp(`^session "${CC_ID}" matches sessions of several hosts: Claude Code ${CC_ID} \\(.*\\); Codex ${CC_ID} \\(.*\\); give --host claude-code or --host codex$`));
    expect(err?.candidates.map((c) => c.host)).toEqual(['claude-code', 'codex']);
    expect(resolveSession(CC_ID, { env: h.env, host: 'codex' }).path).toBe(twin);
  });
});

describe('hostVersionProblem', () => {
  it('knows Claude Code 1.x-2.x, Codex 0.x from 0.1, pi formats 1-3; refuses others naming the version', () => {
    expect(hostVersionProblem('claude-code', '2.1.332')).toBeUndefined();
    expect(hostVersionProblem('claude-code', '2.1.14')).toBeUndefined();
    expect(hostVersionProblem('codex', '0.171.0')).toBeUndefined();
    expect(hostVersionProblem('pi', '3')).toBeUndefined();
    expect(hostVersionProblem('hermes', undefined)).toBeUndefined();
    expect(hostVersionProblem('claude-code', '3.0.0')).toBe('Claude Code 3.0.0 wrote this session; hive-mind knows the session format of Claude Code 1.0.0 up to (not including) 3.0.0, so it does not rewrite this file');
    expect(hostVersionProblem('codex', '1.2.0')).toMatch(/^Codex 1\.2\.0 wrote this session/);
    expect(hostVersionProblem('pi', '4')).toMatch(/^pi session format 4 wrote this session/);
    expect(hostVersionProblem('codex', 'nightly')).toBe('Codex nightly is not a version hive-mind can read');
  });
});

describe('sessionActivity: is a host writing the session now?', () => {
  it('a write in the last seconds counts; an older file does not', () => {
    const h = homeWithSessions();
    const [s] = listSessions({ cwd: h.cwd, host: 'pi', env: h.env });
    expect(sessionActivity(s!, { env: h.env })).toEqual({ busy: false });
    utimesSync(h.pi, new Date(), new Date());
    expect(sessionActivity(s!, { env: h.env })).toMatchObject({ busy: true, reason: expect.stringMatching(/^it was written \d+ s ago \(less than 10 s\)$/) });
    expect(sessionActivity(s!, { env: h.env, locksOnly: true })).toEqual({ busy: false });
  });

  it("Claude Code's process registry: a live process naming the session holds it; a dead one does not", () => {
    const h = homeWithSessions();
    const [s] = listSessions({ cwd: h.cwd, host: 'claude-code', env: h.env });
    const reg = join(h.home, '.claude', 'sessions');
    mkdirSync(reg, { recursive: true });
    // a registry entry for this very test process (alive), in Claude Code 2.1.332's shape
    const stat = readFileSync(`/proc/${process.pid}/stat`, 'utf8');
    const procStart = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    writeFileSync(join(reg, `${process.pid}.json`), JSON.stringify({ pid: process.pid, sessionId: CC_ID, cwd: h.cwd, procStart, version: '2.1.332' }));
    expect(sessionActivity(s!, { env: h.env })).toEqual({ busy: true, reason: `Claude Code process ${process.pid} has it open (${join(reg, `${process.pid}.json`)})` });
    // the same pid started at another time (a reused pid) does not hold it
    writeFileSync(join(reg, `${process.pid}.json`), JSON.stringify({ pid: process.pid, sessionId: CC_ID, procStart: '1' }));
    expect(sessionActivity(s!, { env: h.env }).busy).toBe(false);
    // another session's entry does not either
    writeFileSync(join(reg, `${process.pid}.json`), JSON.stringify({ pid: process.pid, sessionId: 'other', procStart }));
    expect(sessionActivity(s!, { env: h.env }).busy).toBe(false);
  });

  it("Codex's thread writer lock: held (flock) means busy; a file left by a killed process is not", async () => {
    const h = homeWithSessions();
    const [s] = listSessions({ cwd: h.cwd, host: 'codex', env: h.env });
    const lock = join(h.home, '.codex', 'thread-writer-locks', `${CODEX_ID}.lock`);
    mkdirSync(join(lock, '..'), { recursive: true });
    writeFileSync(lock, '');
    expect(sessionActivity(s!, { env: h.env }).busy).toBe(false); // present, unlocked: a killed Codex left it
    const holder = spawn('flock', ['-x', lock, '-c', 'echo locked; sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      await new Promise<void>((res) => holder.stdout.once('data', () => res()));
      expect(sessionActivity(s!, { env: h.env })).toEqual({ busy: true, reason: `a Codex process holds its writer lock (${lock})` });
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
