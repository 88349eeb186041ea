/**
 * `hive-mind compact` says why a compaction landed well under its budget (below the engine's
 * headroom target, 0.8 of it): the verbatim tail `--retain` keeps (by default half the budget)
 * and nothing older left to compact. Run on the repository's own session (examples/sessions),
 * with the real CLI; the figures in the line are the surface's, counted again here.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TokenMeter } from '@hive-mind/compaction';
import { readTranscriptFile } from '@hive-mind/transcripts';

const PKG = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(PKG, 'bin/hive-mind.js');
const SESSION = join(PKG, '..', '..', 'examples', 'sessions', 'claude-code-python-to-rust-port.jsonl');

function compact(...args: string[]) {
  const out = join(mkdtempSync(join(tmpdir(), 'hm-landing-')), 'out.jsonl');
  const r = spawnSync(process.execPath, [CLI, 'compact', SESSION, '--out', out, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { ...r, out };
}

describe('compact: why a compaction landed far under its budget', () => {
  it('the default --retain (half the budget): the line names the verbatim tail, the retain value and that nothing older is left', async () => {
    const r = compact('--budget', '8000');
    expect(r.status, r.stderr).toBe(0);
    const landed = Number(/-> (\d+) tokens \(budget 8000\)/.exec(r.stdout)![1]);
    expect(landed).toBeLessThan(0.8 * 8000);
    const why = r.stdout.split('\n').find((l) => l.startsWith('  why '));
    expect(why).toMatch(new RegExp(`^  why ${landed} of 8000: the newest (\\d+) tokens are kept verbatim \\(the default --retain of 4000, half the budget less any overhead, to the nearest cut that splits no tool call\\) and everything older is in the checkpoint; nothing older is left to compact; --retain N keeps more of the conversation verbatim$`));
    // the tail it names is what follows the checkpoint in the written session
    const tail = Number(/the newest (\d+) tokens/.exec(why!)![1]);
    const written = await readTranscriptFile(r.out);
    const surface = written.log.surface();
    const at = surface.findIndex((n) => n.kind === 'checkpoint');
    expect(at).toBeGreaterThanOrEqual(0);
    const meter = new TokenMeter();
    expect(meter.countEvents(surface.slice(at + 1))).toBe(tail);
  });

  it('an explicit --retain is named as given', () => {
    const r = compact('--budget', '8000', '--retain', '3000');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\n {2}why \d+ of 8000: the newest \d+ tokens are kept verbatim \(--retain 3000, to the nearest cut/);
  });

  it('a compaction that lands near its budget gets no such line', () => {
    const r = compact('--budget', '8000', '--retain', '6700');
    expect(r.status, r.stderr).toBe(0);
    const landed = Number(/-> (\d+) tokens \(budget 8000\)/.exec(r.stdout)![1]);
    expect(landed).toBeGreaterThanOrEqual(0.8 * 8000);
    expect(r.stdout).not.toContain('  why ');
  });
});
