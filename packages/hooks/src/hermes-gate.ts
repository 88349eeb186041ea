/**
 * Hermes compact-on-stop gate (issue #6 part 5).
 *
 * Hermes has no PreCompact hook event, so mind maintenance runs from its Stop
 * path (`post_llm_call`), opt-in and time-gated:
 *
 * - enabled by `HIVE_MIND_HERMES_COMPACT_ON_STOP`: on for any value except unset,
 *   empty, `0` or `false` (any case; surrounding spaces ignored);
 * - window `HIVE_MIND_HERMES_COMPACT_WINDOW_MIN` in minutes (default 10), used only
 *   when it is a positive finite number; `windowMin` in the options overrides it;
 * - state file `<hermes home>/.hive-mind-last-compact` (`$HERMES_HOME`, else
 *   `~/.hermes`), holding the ISO-8601 time of the last successful cleanup; its
 *   directory is created when missing;
 * - the turn is saved first, cleanup second; the stamp is written only after a
 *   successful cleanup, so a failed cleanup is retried on the next turn;
 * - cleanup runs even when the turn had no assistant response (nothing to save);
 * - it never throws: every failure is reported in the result (and to `log`);
 * - the clock is injectable (`now`).
 *
 * `save` and `cleanup` are injected, so the gate is independent of the mind.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { hostDir } from '@hive-mind/transcripts/host-dirs';
import { dirname, join } from 'node:path';
import { envFlag, envNumber, settingDefault } from '@hive-mind/mind/settings';
import { ensureDir } from './mkdir.js';

/** Default window between two cleanups, in minutes. */
const DEFAULT_COMPACT_WINDOW_MIN = settingDefault('HIVE_MIND_HERMES_COMPACT_WINDOW_MIN');
/** Name of the state file inside the Hermes home. */
const COMPACT_STATE_FILE = '.hive-mind-last-compact';

/** `HIVE_MIND_HERMES_COMPACT_ON_STOP` truth (a switch of the mind's settings.ts): false only for unset, empty, `0` or `false` (any case). */
export function compactOnStopEnabled(env: NodeJS.ProcessEnv): boolean {
  return envFlag(env, 'HIVE_MIND_HERMES_COMPACT_ON_STOP');
}

/** The window in minutes: `override` when a positive finite number, else the env value when one, else 10. */
export function compactWindowMin(env: NodeJS.ProcessEnv, override?: number): number {
  if (typeof override === 'number' && Number.isFinite(override) && override > 0) return override;
  return envNumber(env, 'HIVE_MIND_HERMES_COMPACT_WINDOW_MIN');
}

/** `$HERMES_HOME/.hive-mind-last-compact`, else `<HOME or os.homedir()>/.hermes/.hive-mind-last-compact` (transcripts' `hostDir`). */
export function compactStatePath(env: NodeJS.ProcessEnv): string {
  return join(hostDir('hermes', env).dir, COMPACT_STATE_FILE);
}

export interface HermesStopGateOptions {
  /** Saves the turn (the shared `stop` lifecycle). Runs first, always. */
  save: () => unknown;
  /** Mind cleanup. Runs second, only when enabled and outside the window. */
  cleanup: () => unknown;
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
  /** Overrides `HIVE_MIND_HERMES_COMPACT_WINDOW_MIN` (minutes). */
  windowMin?: number;
  /** Overrides {@link compactStatePath}. */
  statePath?: string;
  /** Receives one line per failure (never throws into the gate). */
  log?: (message: string) => void;
}

type CompactDecision = 'disabled' | 'inside-window' | 'ran' | 'failed';

export interface HermesStopGateResult {
  /** The save ran without throwing. */
  saved: boolean;
  saveError?: string;
  /** What happened to cleanup. */
  compact: CompactDecision;
  cleanupError?: string;
  /** Time of the previous successful cleanup read from the state file, when valid. */
  lastCompact?: Date;
  /** The stamp was written (only after a successful cleanup). */
  stampWritten: boolean;
  stampError?: string;
  windowMin: number;
  statePath: string;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function readStamp(path: string): Date | undefined {
  try {
    const d = new Date(readFileSync(path, 'utf8').trim());
    return Number.isNaN(d.getTime()) ? undefined : d;
  } catch {
    return undefined;
  }
}

/**
 * The Stop path for Hermes: save, then (when enabled and due) cleanup, then the stamp.
 * Never rejects.
 */
export async function runHermesStop(opts: HermesStopGateOptions): Promise<HermesStopGateResult> {
  const env = opts.env ?? process.env;
  const log = (m: string) => {
    try {
      opts.log?.(m);
    } catch {
      /* a logger must not break the gate */
    }
  };
  const windowMin = compactWindowMin(env, opts.windowMin);
  const statePath = opts.statePath ?? compactStatePath(env);
  const result: HermesStopGateResult = { saved: false, compact: 'disabled', stampWritten: false, windowMin, statePath };

  try {
    await opts.save();
    result.saved = true;
  } catch (e) {
    result.saveError = message(e);
    log(`hermes stop: save failed: ${result.saveError}`);
  }

  if (!compactOnStopEnabled(env)) return result;

  let now: Date;
  try {
    now = (opts.now ?? (() => new Date()))();
  } catch (e) {
    result.compact = 'failed';
    result.cleanupError = `clock failed: ${message(e)}`;
    return result;
  }
  const last = readStamp(statePath);
  result.lastCompact = last;
  // A stamp in the future (clock moved back) cannot tell us anything: treat it as absent.
  if (last && last.getTime() <= now.getTime() && now.getTime() - last.getTime() < windowMin * 60_000) {
    result.compact = 'inside-window';
    return result;
  }

  try {
    await opts.cleanup();
  } catch (e) {
    result.compact = 'failed';
    result.cleanupError = message(e);
    log(`hermes compact-on-stop: cleanup failed (retried next turn): ${result.cleanupError}`);
    return result;
  }
  result.compact = 'ran';

  try {
    ensureDir(dirname(statePath));
    writeFileSync(statePath, now.toISOString() + '\n');
    result.stampWritten = true;
  } catch (e) {
    result.stampError = message(e);
    log(`hermes compact-on-stop: cannot write ${statePath}: ${result.stampError}`);
  }
  return result;
}
