/**
 * install / verify / uninstall through the REAL built CLI (needs `npx tsc -b packages/cli`).
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, sandbox } from './helpers.js';

const HOSTS = ['claude-code', 'codex', 'cursor', 'openclaw', 'hermes'];

describe('hive-mind verify/install through the CLI', { timeout: 60_000 }, () => {
  for (const host of HOSTS) {
    it(`verify ${host} before install says plainly "not installed", exit 1`, async () => {
      const s = sandbox();
      const r = await runCli(['verify', host], '', s.env);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`hive-mind: ${host}: not installed (run hive-mind install ${host})\n`);
    });
  }

  it('install prints a warning once, without a "note: " prefix', async () => {
    const s = sandbox();
    mkdirSync(join(s.env.HOME!, '.claude'), { recursive: true });
    writeFileSync(join(s.env.HOME!, '.claude', 'settings.json'), '// mine\n{}\n');
    const r = await runCli(['install', 'claude-code'], '', s.env);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/note: warning/);
    expect(r.stdout).toMatch(/^warning: .*settings\.json: line 1/m);
    expect(r.stdout).toMatch(/^note: Claude Code loads hooks at session start/m);
  });
});
