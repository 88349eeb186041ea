/**
 * Hermes compact-on-stop gate (issue #6 part 5): one test per listed case.
 * save/cleanup are injected; the state file is a real file in a temp HOME.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compactOnStopEnabled, compactStatePath, compactWindowMin, runHermesStop, type HermesStopGateOptions } from '../src/hermes-gate.js';

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-gate-'));
});
afterEach(() => {
  try {
    fs.chmodSync(path.join(home, '.hermes'), 0o755);
  } catch {
    /* not created */
  }
  fs.rmSync(home, { recursive: true, force: true });
});

const T0 = new Date('2026-11-30T12:00:00.000Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

function harness(env: NodeJS.ProcessEnv, extra: Partial<HermesStopGateOptions> = {}) {
  const calls: string[] = [];
  const opts: HermesStopGateOptions = {
    env: { HOME: home, ...env },
    now: () => T0,
    save: () => void calls.push('save'),
    cleanup: () => void calls.push('cleanup'),
    ...extra,
  };
  return { calls, opts, state: compactStatePath({ HOME: home }) };
}

describe('hermes compact-on-stop gate', () => {
  it('flag off: no cleanup, no state file', async () => {
    const { calls, opts, state } = harness({});
    const r = await runHermesStop(opts);
    expect(calls).toEqual(['save']);
    expect(r.compact).toBe('disabled');
    expect(fs.existsSync(state)).toBe(false);
    expect(fs.existsSync(path.dirname(state))).toBe(false);
  });

  it('no prior stamp: cleanup runs and the stamp is written (directory created)', async () => {
    const { calls, opts, state } = harness({ HIVE_MIND_HERMES_COMPACT_ON_STOP: '1' });
    expect(state).toBe(path.join(home, '.hermes', '.hive-mind-last-compact'));
    const r = await runHermesStop(opts);
    expect(calls).toEqual(['save', 'cleanup']);
    expect(r.compact).toBe('ran');
    expect(r.stampWritten).toBe(true);
    expect(fs.readFileSync(state, 'utf8').trim()).toBe(T0.toISOString());
  });

  it('inside the window: no cleanup, stamp untouched', async () => {
    const { calls, opts, state } = harness({ HIVE_MIND_HERMES_COMPACT_ON_STOP: 'true' }, { now: () => minutes(9.9) });
    fs.mkdirSync(path.dirname(state), { recursive: true });
    fs.writeFileSync(state, T0.toISOString() + '\n');
    const r = await runHermesStop(opts);
    expect(calls).toEqual(['save']);
    expect(r.compact).toBe('inside-window');
    expect(r.lastCompact?.toISOString()).toBe(T0.toISOString());
    expect(fs.readFileSync(state, 'utf8').trim()).toBe(T0.toISOString());
  });

  it('past the window: cleanup runs and the stamp moves to now', async () => {
    const { calls, opts, state } = harness({ HIVE_MIND_HERMES_COMPACT_ON_STOP: 'yes' }, { now: () => minutes(10) });
    fs.mkdirSync(path.dirname(state), { recursive: true });
    fs.writeFileSync(state, T0.toISOString() + '\n');
    const r = await runHermesStop(opts);
    expect(calls).toEqual(['save', 'cleanup']);
    expect(r.compact).toBe('ran');
    expect(fs.readFileSync(state, 'utf8').trim()).toBe(minutes(10).toISOString());
  });

  it('cleanup rejects: no stamp written, result reports it, nothing thrown', async () => {
    const logs: string[] = [];
    const { calls, opts, state } = harness(
      { HIVE_MIND_HERMES_COMPACT_ON_STOP: '1' },
      {
        cleanup: async () => {
          calls.push('cleanup');
          throw new Error('database is locked');
        },
        log: (m) => logs.push(m),
      },
    );
    const r = await runHermesStop(opts);
    expect(calls).toEqual(['save', 'cleanup']);
    expect(r.compact).toBe('failed');
    expect(r.cleanupError).toBe('database is locked');
    expect(r.stampWritten).toBe(false);
    expect(fs.existsSync(state)).toBe(false);
    expect(logs).toEqual([expect.stringContaining('database is locked')]);
    // the failure is retried on the next turn
    const again = await runHermesStop({ ...opts, cleanup: () => void calls.push('cleanup') });
    expect(again.compact).toBe('ran');
    expect(fs.existsSync(state)).toBe(true);
  });

  it('state path unwritable: cleanup is still attempted and nothing throws', async () => {
    fs.writeFileSync(path.join(home, '.hermes'), 'not a directory');
    const { calls, opts } = harness({ HIVE_MIND_HERMES_COMPACT_ON_STOP: '1' });
    const r = await runHermesStop(opts);
    expect(calls).toEqual(['save', 'cleanup']);
    expect(r.stampWritten).toBe(false);
    expect(r.stampError).toBeDefined();
  });

  it.skipIf(process.getuid?.() === 0)('state directory without write permission (non-root only): cleanup still attempted', async () => {
    const hermesDir = path.join(home, '.hermes');
    fs.mkdirSync(hermesDir);
    fs.chmodSync(hermesDir, 0o500);
    const { calls, opts } = harness({ HIVE_MIND_HERMES_COMPACT_ON_STOP: '1' });
    const r = await runHermesStop(opts);
    expect(calls).toEqual(['save', 'cleanup']);
    expect(r.compact).toBe('ran');
    expect(r.stampWritten).toBe(false);
    expect(r.stampError).toMatch(/EACCES|EPERM/);
  });

  it('env window honoured, and overridden by the windowMin option', async () => {
    const env = { HIVE_MIND_HERMES_COMPACT_ON_STOP: '1', HIVE_MIND_HERMES_COMPACT_WINDOW_MIN: '60' };
    const { calls, opts, state } = harness(env, { now: () => minutes(30) });
    fs.mkdirSync(path.dirname(state), { recursive: true });
    fs.writeFileSync(state, T0.toISOString());
    // 30 min after the stamp: inside a 60-minute env window (would run with the default 10)
    expect((await runHermesStop(opts)).compact).toBe('inside-window');
    expect(calls).toEqual(['save']);
    // the option wins over the env: 20-minute window, 30 minutes elapsed -> runs
    const r = await runHermesStop({ ...opts, windowMin: 20 });
    expect(r.windowMin).toBe(20);
    expect(r.compact).toBe('ran');
    expect(calls).toEqual(['save', 'save', 'cleanup']);
    // window parsing: only positive finite numbers count
    expect(compactWindowMin({ HIVE_MIND_HERMES_COMPACT_WINDOW_MIN: '2.5' })).toBe(2.5);
    for (const bad of ['', ' ', '0', '-5', 'abc', 'Infinity', 'NaN']) expect(compactWindowMin({ HIVE_MIND_HERMES_COMPACT_WINDOW_MIN: bad })).toBe(10);
    expect(compactWindowMin({}, 0)).toBe(10);
    expect(compactWindowMin({ HIVE_MIND_HERMES_COMPACT_WINDOW_MIN: '60' }, Number.NaN)).toBe(60);
  });

  it('truth table of HIVE_MIND_HERMES_COMPACT_ON_STOP', () => {
    const off: Array<string | undefined> = [undefined, '', '  ', '0', 'false', 'FALSE', 'False', ' false '];
    const on = ['1', 'true', 'TRUE', 'yes', 'on', '2', 'no', 'enabled'];
    for (const v of off) expect(compactOnStopEnabled(v === undefined ? {} : { HIVE_MIND_HERMES_COMPACT_ON_STOP: v })).toBe(false);
    for (const v of on) expect(compactOnStopEnabled({ HIVE_MIND_HERMES_COMPACT_ON_STOP: v })).toBe(true);
  });

  it('default-off leaves Stop behaviour unchanged: only the save runs, every turn', async () => {
    const { calls, opts, state } = harness({ HIVE_MIND_HERMES_COMPACT_WINDOW_MIN: '1' });
    for (let i = 0; i < 3; i++) {
      const r = await runHermesStop({ ...opts, now: () => minutes(i * 100) });
      expect(r).toMatchObject({ saved: true, compact: 'disabled', stampWritten: false });
    }
    expect(calls).toEqual(['save', 'save', 'save']);
    expect(fs.existsSync(state)).toBe(false);
  });

  it('save happens before cleanup, and cleanup waits for an async save', async () => {
    const order: string[] = [];
    const { opts } = harness(
      { HIVE_MIND_HERMES_COMPACT_ON_STOP: '1' },
      {
        save: async () => {
          await new Promise((r) => setTimeout(r, 20));
          order.push('save done');
        },
        cleanup: () => void order.push('cleanup'),
      },
    );
    await runHermesStop(opts);
    expect(order).toEqual(['save done', 'cleanup']);
  });

  it('a failing save is reported, and cleanup still runs after it', async () => {
    const { calls, opts } = harness(
      { HIVE_MIND_HERMES_COMPACT_ON_STOP: '1' },
      {
        save: () => {
          calls.push('save');
          throw new Error('disk full');
        },
      },
    );
    const r = await runHermesStop(opts);
    expect(r.saved).toBe(false);
    expect(r.saveError).toBe('disk full');
    expect(calls).toEqual(['save', 'cleanup']);
  });

  it('a turn with no assistant response is still eligible for cleanup', async () => {
    // the save finds nothing to store (no assistant text): it resolves without saving
    let stored = 0;
    const { calls, opts } = harness(
      { HIVE_MIND_HERMES_COMPACT_ON_STOP: '1' },
      {
        save: () => {
          calls.push('save');
          const assistantText = '';
          if (assistantText) stored++;
        },
      },
    );
    const r = await runHermesStop(opts);
    expect(stored).toBe(0);
    expect(calls).toEqual(['save', 'cleanup']);
    expect(r.compact).toBe('ran');
  });

  it('a corrupt or future stamp is treated as absent', async () => {
    const { calls, opts, state } = harness({ HIVE_MIND_HERMES_COMPACT_ON_STOP: '1' });
    fs.mkdirSync(path.dirname(state), { recursive: true });
    fs.writeFileSync(state, 'garbage');
    expect((await runHermesStop(opts)).compact).toBe('ran');
    fs.writeFileSync(state, minutes(60 * 24).toISOString());
    expect((await runHermesStop(opts)).compact).toBe('ran');
    expect(calls).toEqual(['save', 'cleanup', 'save', 'cleanup']);
  });

  it('never throws, even when the clock and logger throw', async () => {
    const { opts } = harness(
      { HIVE_MIND_HERMES_COMPACT_ON_STOP: '1' },
      {
        now: () => {
          throw new Error('clock broke');
        },
        log: () => {
          throw new Error('log broke');
        },
        save: () => {
          throw new Error('save broke');
        },
      },
    );
    const r = await runHermesStop(opts);
    expect(r.saved).toBe(false);
    expect(r.compact).toBe('failed');
  });

  it('uses $HERMES_HOME for the state file when set', () => {
    expect(compactStatePath({ HERMES_HOME: '/srv/hermes', HOME: home })).toBe(path.join('/srv/hermes', '.hive-mind-last-compact'));
  });
});
