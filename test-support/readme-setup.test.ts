/**
 * The README's "Set-up" block as a newcomer runs it from a clone with nothing beside it: step 1's
 * main job names only data inside the repository (with its licence) and runs as written; step 2
 * is the command `.ci/run` ends with; and the rule that leaves out the tests reading the shared
 * data beside the checkout in such a clone finds the files that read it and only those.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTranscriptFile } from '@hive-mind/transcripts';
import { REPO_ROOT } from './pack.mjs';
import { testsReadingSharedData } from './shared-data.js';

/** The commands of the README's "## Set-up" sh block, comments and blank lines dropped. */
function setupCommands(): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Set-up\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md: no sh block under "## Set-up"');
  return block.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
}

describe("the README's set-up, in a clone with nothing beside it", () => {
  const [install, tests, ...rest] = setupCommands();

  it('has two commands: install + the main job, then the tests', () => {
    expect(rest).toEqual([]);
    expect(install).toMatch(/^npm ci && npx hive-mind compact /);
    expect(tests).toBe('npm test');
  });

  it('step 1 reads only data inside the repository, which carries its licence', () => {
    const args = install!.replace(/^npm ci && npx hive-mind /, '').split(/\s+/);
    const input = args[1]!;
    expect(input).not.toMatch(/^(\/|\.\.)/);
    expect(existsSync(join(REPO_ROOT, input))).toBe(true);
    const licence = readFileSync(join(REPO_ROOT, input, '..', 'LICENSE'), 'utf8');
    expect(licence).toContain(input.split('/').pop()!);
    expect(licence).toMatch(/MIT License\n\nCopyright \(c\) \d{4} \S/);
  });

  it('step 1 runs as written (its --out moved to a temp folder) and writes a compacted session of the same host under the budget', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'hm-readme-')), 'compacted.jsonl');
    const job = install!.replace(/^npm ci && /, '').replace(/--out \S+/, `--out ${out}`);
    const budget = Number(/--budget (\d+)/.exec(job)?.[1]);
    const r = spawnSync('sh', ['-c', job], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, HIVE_MIND_HOME: join(out, '..', 'home') } });
    expect(r.status, r.stderr).toBe(0);
    const landed = /-> (\d+) tokens \(budget (\d+)\)/.exec(r.stdout);
    expect(landed, r.stdout).not.toBeNull();
    expect(Number(landed![2])).toBe(budget);
    expect(Number(landed![1])).toBeLessThanOrEqual(budget);
    expect(r.stdout).toContain('tool pairing: balanced');
    // the figure the README says step 1 prints is the one it prints (a change to the checkpoint moves it)
    const said = /step 1 prints what it replaced \(`(\d+) -> (\d+) tokens`/.exec(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));
    expect(said, 'README.md: "step 1 prints what it replaced (`A -> B tokens`" not found').not.toBeNull();
    expect(`${said![1]} -> ${said![2]} tokens`, 'README.md states another figure than step 1 prints').toBe(/(\d+ -> \d+ tokens)/.exec(r.stdout)![1]);
    const written = await readTranscriptFile(out);
    expect(written.format).toBe('claude-code');
    expect(written.report.compactions).toBeGreaterThanOrEqual(1);
  });

  it("step 2 is what .ci/run runs last", () => {
    const ci = readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8').trim().split('\n');
    expect(ci.at(-1)).toBe(tests);
  });

  it('the tests left out without the shared data are those that read it, helpers included', () => {
    const left = testsReadingSharedData();
    expect(left).toContain('packages/transcripts/test/real-files.test.ts'); // DATA from ./helpers.js
    expect(left).toContain('packages/cli/test/compact-session.test.ts'); // through ./helpers.js -> session-homes
    expect(left).toContain('packages/ui/test/compaction.e2e.test.ts'); // names the folder itself
    expect(left).not.toContain('packages/session/test/log.test.ts');
    expect(left).not.toContain('test-support/readme-setup.test.ts');
    expect(left.every((f) => existsSync(join(REPO_ROOT, f)))).toBe(true);
  });
});
