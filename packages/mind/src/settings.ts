/**
 * The environment overrides hive-mind reads, in one table, and the one reader of each
 * ({@link envNumber}, {@link envFlag}): no package parses a `HIVE_MIND_*` setting on its own.
 * A bad value (`HIVE_MIND_RECALL_TOKENS=abc`, a negative timeout) is never taken silently: the
 * reader falls back to the default or, for a setting whose `onInvalid` is `refused`, throws
 * {@link SettingError}; {@link envProblems} names the variable, its value and what is used
 * instead: the hook runner logs each problem to the hook log on every run, and
 * `hive-mind mind doctor` and `hive-mind status` show them.
 */

/**
 * How a variable's value is checked: integers (`positive-int`, `non-negative-int`, within `min`
 * and `max` when given), numbers (`number` within `min`..`max`; `positive-number`, finite and
 * above 0), `flag` (1/0, true/false, yes/no, on/off) and `switch` (off for empty, `0` or `false`,
 * on for any other value: never invalid).
 */
export type EnvKind = 'positive-int' | 'non-negative-int' | 'number' | 'positive-number' | 'flag' | 'switch';

/** One environment override. */
export interface EnvSetting {
  name: string;
  kind: EnvKind;
  /** Inclusive bounds for integers, when tighter than the kind's. */
  min?: number;
  max?: number;
  /** The value used when the variable is unset (or, for most, invalid). */
  def: number | boolean;
  /** What it sets, with its unit. */
  what: string;
  /** What happens to an invalid value. */
  onInvalid: 'default' | 'refused';
}

/** Every `HIVE_MIND_*` override except `HIVE_MIND_HOME`, `HIVE_MIND_THREAD` and `HIVE_MIND_TEAM_KINDS` (paths and names, taken as given). */
export const ENV_SETTINGS: readonly EnvSetting[] = [
  { name: 'HIVE_MIND_RECALL_TOKENS', kind: 'positive-int', def: 1500, what: 'session-start injection budget, tokens', onInvalid: 'default' },
  { name: 'HIVE_MIND_PROMPT_RECALL_TOKENS', kind: 'non-negative-int', def: 2000, what: 'per-prompt recall: the most a strong match is given, tokens (one at the floor gets 60%; 0 = off)', onInvalid: 'default' },
  { name: 'HIVE_MIND_HOOK_TIMEOUT_MS', kind: 'positive-int', def: 10_000, what: 'hook watchdog, ms', onInvalid: 'default' },
  { name: 'HIVE_MIND_MEMORY_CHAR_LIMIT', kind: 'positive-int', min: 50, max: 1_000_000, def: 2200, what: 'MEMORY.md limit, characters', onInvalid: 'refused' },
  { name: 'HIVE_MIND_USER_CHAR_LIMIT', kind: 'positive-int', min: 50, max: 1_000_000, def: 1375, what: 'USER.md limit, characters', onInvalid: 'refused' },
  { name: 'HIVE_MIND_MIND_SIZE_WARN', kind: 'positive-int', def: 512 * 1024 * 1024, what: 'doctor size warning, bytes', onInvalid: 'default' },
  { name: 'HIVE_MIND_MCP_TURN_GAP_MS', kind: 'non-negative-int', def: 30_000, what: 'MCP turn gap: memory_notes calls of one client session this close count as one turn, ms', onInvalid: 'refused' },
  { name: 'HIVE_MIND_HERMES_COMPACT_WINDOW_MIN', kind: 'positive-number', def: 10, what: 'Hermes compaction window, minutes', onInvalid: 'default' },
  { name: 'HIVE_MIND_OPENCLAW_DEBOUNCE_MS', kind: 'positive-int', def: 1500, what: 'OpenClaw reply debounce, ms', onInvalid: 'default' },
  { name: 'HIVE_MIND_OPENCLAW_TIMEOUT_MS', kind: 'positive-int', def: 8000, what: 'OpenClaw hook timeout, ms', onInvalid: 'default' },
  { name: 'HIVE_MIND_NOTES_AUTO_CONSOLIDATE', kind: 'flag', def: false, what: 'notes auto-consolidation', onInvalid: 'default' },
  { name: 'HIVE_MIND_TEAM_SYNC_AGE_MIN', kind: 'positive-int', def: 15, what: 'team cache age after which SessionStart syncs in the background, minutes', onInvalid: 'default' },
  { name: 'HIVE_MIND_COMPACT_KEEP_BACKUPS', kind: 'positive-int', def: 5, what: 'compaction backups kept per session file (the newest compactions\' backups; compact --undo walks back that far)', onInvalid: 'refused' },
  { name: 'HIVE_MIND_HERMES_COMPACT_ON_STOP', kind: 'switch', def: false, what: 'Hermes compaction from the Stop hook', onInvalid: 'default' },
  // set by the claude-code and codex summarizers on their child host (compaction's NO_HOOKS_ENV, kept equal by hooks/test/runner-process.test.ts)
  { name: 'HIVE_MIND_NO_HOOKS', kind: 'flag', def: false, what: 'every hook answers the host at once and does nothing (no capture, no recall)', onInvalid: 'default' },
  // history.ts DEFAULT_HISTORY_RETENTION is read from these two rows
  { name: 'HIVE_MIND_HISTORY_DAYS', kind: 'positive-int', def: 365, what: 'history retention: turns stated more than this many days ago are deleted by mind cleanup', onInvalid: 'default' },
  { name: 'HIVE_MIND_HISTORY_MAX_TURNS', kind: 'positive-int', def: 100_000, what: 'history retention: turns kept per .mind at most (the oldest go first), by mind cleanup', onInvalid: 'default' },
  { name: 'HIVE_MIND_PROMPT_EMBED_TIMEOUT_MS', kind: 'positive-int', max: 60_000, def: 1500, what: "per-prompt recall: time limit of the prompt's embedding request, ms", onInvalid: 'default' },
  // the default is prompt-floor.ts PROMPT_MIN_COSINE (kept equal by test/prompt-floor.test.ts)
  { name: 'HIVE_MIND_PROMPT_MIN_COSINE', kind: 'number', min: -1, max: 1, def: 0.4, what: 'per-prompt recall: cosine floor of the vector side', onInvalid: 'default' },
];

/** The row of {@link ENV_SETTINGS} named `name`. Throws `Error` for a name not in the table. */
export function setting(name: string): EnvSetting {
  const s = ENV_SETTINGS.find((x) => x.name === name);
  if (!s) throw new Error(`${name} is not a setting of ENV_SETTINGS`);
  return s;
}

/** The default of the numeric setting `name` (the value used when its variable is unset). */
export function settingDefault(name: string): number {
  const s = setting(name);
  if (typeof s.def !== 'number') throw new Error(`${name} is a flag, not a numeric setting of ENV_SETTINGS`);
  return s.def;
}

/**
 * A refused setting's invalid value (or an option standing for it). `setting` is the variable's
 * name (or the option's, when `option` was given), `value` the value as given, `message`
 * `NAME="value" must be …; it is refused …`.
 */
export class SettingError extends Error {
  constructor(
    readonly setting: string,
    readonly value: string,
    message: string,
  ) {
    super(message);
    this.name = 'SettingError';
  }
}

/**
 * The value of a numeric override of {@link ENV_SETTINGS} in `env`: `given` when not undefined (an
 * option that takes precedence over the variable, checked by the same rule), else the variable's
 * value when usable, else the setting's default. An unusable value falls back to the default,
 * except for a setting whose `onInvalid` is `refused`, which throws {@link SettingError} naming
 * the variable (or `option`, the option's name, for a bad `given`). Throws `Error` for a name not
 * in the table or a flag.
 */
export function envNumber(env: NodeJS.ProcessEnv, name: string, given?: { value: number | undefined; option: string }): number {
  const s = setting(name);
  if (typeof s.def !== 'number') throw new Error(`${name} is a flag, not a numeric setting of ENV_SETTINGS`);
  if (given?.value !== undefined) {
    const why = valueProblem(s, given.value);
    if (why) throw new SettingError(given.option, String(given.value), `${given.option} (env ${name}) ${why}, got ${JSON.stringify(given.value)}`);
    return given.value;
  }
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return s.def as number;
  const p = envProblem(s, raw);
  if (!p) return Number(raw);
  if (s.onInvalid === 'refused') throw new SettingError(name, raw, formatEnvProblem(p));
  return s.def as number;
}

/**
 * The value of a flag or switch of {@link ENV_SETTINGS} in `env`: `given` when not undefined, else,
 * for a flag, on for `1`, `true`, `yes`, `on`, off for `0`, `false`, `no`, `off` (any case, spaces
 * ignored), the default when unset or any other value; for a switch, off when unset, empty, `0` or
 * `false` (any case, spaces ignored), else on. Throws `Error` for a name that is not a flag or
 * switch of the table.
 */
export function envFlag(env: NodeJS.ProcessEnv, name: string, given?: boolean): boolean {
  const s = setting(name);
  if (s.kind !== 'flag' && s.kind !== 'switch') throw new Error(`${name} is not a flag of ENV_SETTINGS`);
  if (given !== undefined) return given;
  const raw = (env[name] ?? '').trim();
  if (s.kind === 'switch') return !(raw === '' || /^(?:0|false)$/i.test(raw));
  if (/^(?:1|true|yes|on)$/i.test(raw)) return true;
  if (/^(?:0|false|no|off)$/i.test(raw)) return false;
  return s.def as boolean;
}

/** A variable set to a value its reader cannot use. */
export interface EnvProblem {
  name: string;
  value: string;
  /** One line: what is wrong and what is used instead, e.g. `must be a positive integer; the default 1500 is used`. */
  problem: string;
}

const FLAG = /^(?:1|true|yes|on|0|false|no|off)$/i;

/** Why the number `v` is not a usable value of numeric `s` (`must be a positive integer (…)`), or undefined when it is. */
function valueProblem(s: EnvSetting, v: number): string | undefined {
  const lo = s.min ?? (s.kind === 'positive-int' ? 1 : 0);
  const hi = s.max ?? Number.MAX_SAFE_INTEGER;
  if (s.kind === 'number') return Number.isFinite(v) && v >= lo && v <= hi ? undefined : `must be a number from ${lo} to ${hi} (${s.what})`;
  if (s.kind === 'positive-number') return Number.isFinite(v) && v > 0 ? undefined : `must be a positive number (${s.what})`;
  if (Number.isInteger(v) && v >= lo && v <= hi) return undefined;
  const want = s.min !== undefined || s.max !== undefined ? `an integer from ${lo} to ${hi}` : s.kind === 'positive-int' ? 'a positive integer' : 'a non-negative integer';
  return `must be ${want} (${s.what})`;
}

/** The problem with `setting`'s raw value, or undefined when it is unset or valid. */
export function envProblem(setting: EnvSetting, raw: string | undefined): EnvProblem | undefined {
  if (raw === undefined || raw.trim() === '' || setting.kind === 'switch') return undefined;
  const then = setting.onInvalid === 'refused' ? 'it is refused (the command fails until it is fixed)' : `the default ${setting.def} is used`;
  if (setting.kind === 'flag') return FLAG.test(raw.trim()) ? undefined : { name: setting.name, value: raw, problem: `must be 1/0, true/false, yes/no or on/off; ${then}` };
  const why = valueProblem(setting, Number(raw));
  return why ? { name: setting.name, value: raw, problem: `${why}; ${then}` } : undefined;
}

/** Every known override in `env` whose value is not usable, in table order. */
export function envProblems(env: NodeJS.ProcessEnv): EnvProblem[] {
  const out: EnvProblem[] = [];
  for (const s of ENV_SETTINGS) {
    const p = envProblem(s, env[s.name]);
    if (p) out.push(p);
  }
  return out;
}

/** `NAME="value" must be …; the default … is used` (for logs and doctor). */
export function formatEnvProblem(p: EnvProblem): string {
  return `${p.name}=${JSON.stringify(p.value)} ${p.problem}`;
}
