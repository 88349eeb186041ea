/**
 * Captures made while the disk is full, through the REAL built CLI (`node packages/cli/bin/hive-mind.js
 * hook ...`) on a real full file system: a 1 MiB tmpfs mounted for the test (needs root; elsewhere the
 * tests are skipped and say so) holding the hive-mind home, filled to its last byte. The hook exits 0,
 * says on stderr what happened, keeps the captures in a fallback spool folder off the full disk, and the
 * first write after space is freed replays them. Needs `npx tsc -b packages/cli` first.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Mind, workspaceMindPath } from '@hive-mind/mind';
import { CLI, logLines, payload, runCli, sandbox } from './helpers.js';

const canMount = process.platform === 'linux' && process.getuid?.() === 0;
const uid = process.getuid?.() ?? 0;

/** Write until the file system refuses (ENOSPC), to its last byte; returns the filler's path. */
function fill(dir: string): string {
  const p = join(dir, 'filler.bin');
  const fd = openSync(p, 'w');
  try {
    for (const size of [65536, 4096, 1]) {
      const chunk = Buffer.alloc(size, 0x61);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return p;
}

let s: ReturnType<typeof sandbox>;
let disk: string;
beforeEach(() => {
  s = sandbox();
  disk = join(s.root, 'disk');
  mkdirSync(disk);
  if (canMount) expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0700', 'tmpfs', disk]).status, 'mount -t tmpfs').toBe(0);
});
afterEach(() => {
  if (canMount) spawnSync('umount', ['-l', disk]);
  rmSync(s.root, { recursive: true, force: true });
});

let turn = 0;
// each prompt its own turn (the recorded payload's prompt_id would make them one frame)
const prompt = (text: string) => JSON.stringify({ ...payload('claude-code', 'UserPromptSubmit', 2, s.project), prompt: text, prompt_id: `turn-${++turn}` });
const spoolIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((n) => n.includes('.pending-')) : []);

describe.skipIf(!canMount)('hook captures on a full disk (a real 1 MiB tmpfs; needs root to mount)', { timeout: 90_000 }, () => {
  it('kept in a spool folder off the full disk, said on stderr, replayed once space is freed', async () => {
    const tmp = join(s.root, 'tmp');
    mkdirSync(tmp);
    const env = { ...s.env, HIVE_MIND_HOME: join(disk, 'hm'), TMPDIR: tmp, XDG_RUNTIME_DIR: undefined };
    const first = await runCli(['hook', 'claude-code', 'UserPromptSubmit'], prompt('run the linter before committing'), env);
    expect([first.code, first.stderr]).toEqual([0, '']);
    const mindPath = workspaceMindPath(s.project, env);
    expect(existsSync(mindPath)).toBe(true);
    const filler = fill(disk);

    const full = await runCli(['hook', 'claude-code', 'UserPromptSubmit'], prompt('The staging database is db-7.internal, always use it for migrations'), env);
    expect(full.killedByTest).toBe(false);
    expect(full.code).toBe(0);
    if (full.stdout.trim()) JSON.parse(full.stdout);
    const spoolDir = join(tmp, `hive-mind-spool-${uid}`);
    // one line on stderr: what could not be written, how many captures, and where they are
    const said = full.stderr.trim().split('\n');
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(new RegExp(`^hive-mind claude-code UserPromptSubmit: cannot write ${mindPath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: .*(SQLITE_FULL|SQLITE_IOERR|ENOSPC).*; \\d+ captures? spooled to ${spoolDir}/[\\w.-]+-[0-9a-f]{12}\\.pending-[\\w-]+\\.jsonl \\(replayed by the next write that succeeds or \`hive-mind mind doctor\`\\); the \\.mind's folder refused the spool too \\(.*ENOSPC`));
    const files = spoolIn(spoolDir);
    expect(files).toHaveLength(1);
    expect(readFileSync(join(spoolDir, files[0]!), 'utf8')).toContain('The staging database is db-7.internal');
    // the home's hooks.log is on the full disk: the line is in the fallback log beside the spool
    expect(logLines(join(s.root, 'disk', 'hm', 'logs', 'hooks.log'))).toEqual([]);
    expect(logLines(join(tmp, `hive-mind-hooks-${uid}.log`)).some((l) => l.includes('spooled to') && l.includes(spoolDir))).toBe(true);
    // nothing half-written is left on the full disk
    expect(readdirSync(join(disk, 'hm', 'workspaces')).filter((n) => n.includes('.pending-'))).toEqual([]);

    // doctor, still on the full disk, counts them and says where they are
    const doc = await runCli(['mind', 'doctor', '--workspace', s.project], '', env);
    expect(doc.stdout).toMatch(new RegExp(`spooled +\\d+ hook capture\\(s\\) still waiting in the pending spool, in ${spoolDir}`));

    rmSync(filler);
    const next = await runCli(['hook', 'claude-code', 'UserPromptSubmit'], prompt('now add the changelog entry'), env);
    expect([next.code, next.stderr]).toEqual([0, '']);
    expect(spoolIn(spoolDir)).toEqual([]);
    const m = Mind.open(mindPath, { readonly: true });
    const contents = m.list({ limit: 100, includeRetired: true, history: true }).map((f) => f.content);
    m.close();
    expect(contents).toContain('The staging database is db-7.internal, always use it for migrations');
    expect(contents).toContain('now add the changelog entry');
  });

  it('the temp folder on the full disk too: the log cannot be written anywhere, stderr says so, the spool goes to XDG_RUNTIME_DIR', async () => {
    const tmp = join(disk, 'tmp');
    mkdirSync(tmp);
    const run = join(s.root, 'run');
    mkdirSync(run, { mode: 0o700 });
    const env = { ...s.env, HIVE_MIND_HOME: join(disk, 'hm'), TMPDIR: tmp, XDG_RUNTIME_DIR: run };
    expect((await runCli(['hook', 'claude-code', 'UserPromptSubmit'], prompt('run the linter before committing'), env)).code).toBe(0);
    const filler = fill(disk);
    const full = await runCli(['hook', 'claude-code', 'UserPromptSubmit'], prompt('Never push to main directly, open a pull request'), env);
    expect(full.code).toBe(0);
    const spoolDir = join(run, `hive-mind-spool-${uid}`);
    expect(full.stderr).toMatch(new RegExp(`captures? spooled to ${spoolDir}/.*\\(the hook log could not be written either\\)\\n$`));
    expect(spoolIn(spoolDir)).toHaveLength(1);
    expect(logLines(join(tmp, `hive-mind-hooks-${uid}.log`))).toEqual([]);
    rmSync(filler);
    expect((await runCli(['hook', 'claude-code', 'UserPromptSubmit'], prompt('ok, thanks'), env)).code).toBe(0);
    expect(spoolIn(spoolDir)).toEqual([]);
    const m = Mind.open(workspaceMindPath(s.project, env), { readonly: true });
    expect(m.list({ limit: 100, includeRetired: true, history: true }).map((f) => f.content)).toContain('Never push to main directly, open a pull request');
    m.close();
  });
});

it('the CLI the tests spawn is built', () => expect(existsSync(CLI)).toBe(true));
