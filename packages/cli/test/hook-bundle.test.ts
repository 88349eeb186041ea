/**
 * The hook bundle's loader (src/hook-bundle.ts) on a bundle of its own: the code cache is written,
 * then used; a corrupt, foreign or stale cache is ignored and written anew; a missing bundle, one
 * without our header, or one older than a later `tsc -b` is not run (the launcher then takes the
 * unbundled path). packages/hooks/test/hook-imports.test.ts runs the real bundle.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLE_HEADER_PREFIX, BUNDLE_HEADER_SUFFIX, hookCachePath, runHookBundle } from '../src/hook-bundle.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A bundle whose runHookEntry appends its argv to `ran.txt` beside it; `builds` as the header records them. */
function fakeBundle(builds: Record<string, number> = {}, body = ''): { file: string; env: NodeJS.ProcessEnv; ran: () => string } {
  dir = mkdtempSync(join(tmpdir(), 'hm-hook-bundle-'));
  const file = join(dir, 'hook.cjs');
  const ran = join(dir, 'ran.txt');
  const code = `${body}\nexports.runHookEntry = async (argv) => { require('node:fs').appendFileSync(${JSON.stringify(ran)}, argv.join(' ') + '\\n'); };\n`;
  writeFileSync(file, `${BUNDLE_HEADER_PREFIX}${JSON.stringify({ id: 'test', builds })}${BUNDLE_HEADER_SUFFIX}\n${code}`);
  return { file, env: { HIVE_MIND_HOME: join(dir, 'hm'), HOME: dir }, ran: () => readFileSync(ran, 'utf8') };
}

describe('runHookBundle', () => {
  it('writes the code cache of an event after its first run, then uses it', async () => {
    const b = fakeBundle({}, 'function unused() { return 1; }');
    expect(await runHookBundle(['claude-code', 'Stop'], { file: b.file, env: b.env })).toEqual({ cache: 'written' });
    expect(await runHookBundle(['claude-code', 'Stop'], { file: b.file, env: b.env })).toEqual({ cache: 'used' });
    expect(b.ran()).toBe('claude-code Stop\nclaude-code Stop\n');
    // another event has its own cache; --help runs without one
    expect(await runHookBundle(['claude-code', 'SessionStart'], { file: b.file, env: b.env })).toEqual({ cache: 'written' });
    expect(await runHookBundle(['--help'], { file: b.file, env: b.env })).toEqual({ cache: 'none' });
  });

  it('ignores a corrupt cache, a cache of another bundle or a truncated one, and writes it anew', async () => {
    const b = fakeBundle();
    await runHookBundle(['claude-code', 'Stop'], { file: b.file, env: b.env });
    const path = hookCachePath(b.env, 'claude-code', 'Stop')!;
    const good = readFileSync(path);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 10] ^= 0xff;
    for (const bad of [flipped, good.subarray(0, good.length - 5), Buffer.from(good.toString('latin1').replace(' test ', ' else '), 'latin1'), Buffer.from('garbage')]) {
      writeFileSync(path, bad);
      expect(await runHookBundle(['claude-code', 'Stop'], { file: b.file, env: b.env })).toEqual({ cache: 'written' });
      expect(readFileSync(path).equals(good)).toBe(true);
    }
  });

  it('a cache is not written for a host or event name that is no file name part', async () => {
    const b = fakeBundle();
    expect(await runHookBundle(['../x', 'Stop'], { file: b.file, env: b.env })).toEqual({ cache: 'none' });
    expect(hookCachePath(b.env, 'claude-code', 'a/b')).toBeUndefined();
  });

  it('does not run a missing bundle, one without the header, one that throws when loaded, or one older than a later tsc -b', async () => {
    const b = fakeBundle({ 'info.tsbuildinfo': 1000 });
    writeFileSync(join(dir, 'info.tsbuildinfo'), '');
    utimesSync(join(dir, 'info.tsbuildinfo'), 500, 500); // rebuilt later than the bundle says: stale
    expect(await runHookBundle(['claude-code', 'Stop'], { file: b.file, env: b.env })).toBe(false);
    utimesSync(join(dir, 'info.tsbuildinfo'), 0.5, 0.5);
    expect(await runHookBundle(['claude-code', 'Stop'], { file: b.file, env: b.env })).toEqual({ cache: 'written' });
    expect(await runHookBundle(['claude-code', 'Stop'], { file: join(dir, 'missing.cjs'), env: b.env })).toBe(false);
    writeFileSync(b.file, 'exports.runHookEntry = async () => {};\n');
    expect(await runHookBundle(['claude-code', 'Stop'], { file: b.file, env: b.env })).toBe(false);
    writeFileSync(b.file, `${BUNDLE_HEADER_PREFIX}{"id":"t","builds":{}}${BUNDLE_HEADER_SUFFIX}\nthrow new Error('broken');\n`);
    expect(await runHookBundle(['claude-code', 'Stop'], { file: b.file, env: b.env })).toBe(false);
  });
});
