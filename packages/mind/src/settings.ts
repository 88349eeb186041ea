/**
 * The environment overrides hive-mind reads, in one table, and their validation for reporting:
 * a bad value (`HIVE_MIND_RECALL_TOKENS=abc`, a negative timeout) is never taken silently. The
 * readers fall back to the default (or refuse, for the notes limits), and {@link envProblems}
 * names the variable, its value and what is used instead: the hook runner logs each problem to
 * the hook log on every run, and `hive-mind mind doctor` shows them.
 */

/** How a variable's value is checked. */
export type EnvKind = 'positive-int' | 'non-negative-int' | 'flag' | 'number';

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
  { name: 'HIVE_MIND_PROMPT_RECALL_TOKENS', kind: 'non-negative-int', def: 1200, what: 'per-prompt recall: the most a strong match is given, tokens (a weak one gets a fifth; 0 = off)', onInvalid: 'default' },
  { name: 'HIVE_MIND_HOOK_TIMEOUT_MS', kind: 'positive-int', def: 10_000, what: 'hook watchdog, ms', onInvalid: 'default' },
  { name: 'HIVE_MIND_MEMORY_CHAR_LIMIT', kind: 'positive-int', min: 50, max: 1_000_000, def: 2200, what: 'MEMORY.md limit, characters', onInvalid: 'refused' },
  { name: 'HIVE_MIND_USER_CHAR_LIMIT', kind: 'positive-int', min: 50, max: 1_000_000, def: 1375, what: 'USER.md limit, characters', onInvalid: 'refused' },
  { name: 'HIVE_MIND_MIND_SIZE_WARN', kind: 'positive-int', def: 512 * 1024 * 1024, what: 'doctor size warning, bytes', onInvalid: 'default' },
  { name: 'HIVE_MIND_MCP_TURN_GAP_MS', kind: 'positive-int', def: 30_000, what: 'MCP turn gap, ms', onInvalid: 'default' },
  { name: 'HIVE_MIND_HERMES_COMPACT_WINDOW_MIN', kind: 'positive-int', def: 10, what: 'Hermes compaction window, minutes', onInvalid: 'default' },
  { name: 'HIVE_MIND_OPENCLAW_DEBOUNCE_MS', kind: 'positive-int', def: 1500, what: 'OpenClaw reply debounce, ms', onInvalid: 'default' },
  { name: 'HIVE_MIND_OPENCLAW_TIMEOUT_MS', kind: 'positive-int', def: 8000, what: 'OpenClaw hook timeout, ms', onInvalid: 'default' },
  { name: 'HIVE_MIND_NOTES_AUTO_CONSOLIDATE', kind: 'flag', def: false, what: 'notes auto-consolidation', onInvalid: 'default' },
  { name: 'HIVE_MIND_TEAM_SYNC_AGE_MIN', kind: 'positive-int', def: 15, what: 'team cache age after which SessionStart syncs in the background, minutes', onInvalid: 'default' },
  { name: 'HIVE_MIND_COMPACT_KEEP_BACKUPS', kind: 'positive-int', def: 5, what: 'compaction backups kept per session file (the newest compactions\' backups; compact --undo walks back that far)', onInvalid: 'refused' },
  { name: 'HIVE_MIND_HERMES_COMPACT_ON_STOP', kind: 'flag', def: false, what: 'Hermes compaction from the Stop hook', onInvalid: 'default' },
  // set by the claude-code and codex summarizers on their child host (compaction's NO_HOOKS_ENV, kept equal by hooks/test/runner-process.test.ts)
  { name: 'HIVE_MIND_NO_HOOKS', kind: 'flag', def: false, what: 'every hook answers the host at once and does nothing (no capture, no recall)', onInvalid: 'default' },
  // the defaults are history.ts DEFAULT_HISTORY_RETENTION (kept equal by test/settings.test.ts)
  { name: 'HIVE_MIND_HISTORY_DAYS', kind: 'positive-int', def: 365, what: 'history retention: turns stated more than this many days ago are deleted by mind cleanup', onInvalid: 'default' },
  { name: 'HIVE_MIND_HISTORY_MAX_TURNS', kind: 'positive-int', def: 100_000, what: 'history retention: turns kept per .mind at most (the oldest go first), by mind cleanup', onInvalid: 'default' },
  { name: 'HIVE_MIND_PROMPT_EMBED_TIMEOUT_MS', kind: 'positive-int', max: 60_000, def: 1500, what: "per-prompt recall: time limit of the prompt's embedding request, ms", onInvalid: 'default' },
  // the default is prompt-floor.ts PROMPT_MIN_COSINE (kept equal by test/settings.test.ts)
  { name: 'HIVE_MIND_PROMPT_MIN_COSINE', kind: 'number', min: -1, max: 1, def: 0.4, what: 'per-prompt recall: cosine floor of the vector side', onInvalid: 'default' },
];

/**
 * The value of a numeric override of {@link ENV_SETTINGS} in `env`: the variable's value when
 * usable, else the setting's default. Throws `Error` for a name not in the table or a flag.
 */
export function envNumber(env: NodeJS.ProcessEnv, name: string): number {
  const setting = ENV_SETTINGS.find((s) => s.name === name);
  if (!setting || setting.kind === 'flag') throw new Error(`${name} is not a numeric setting of ENV_SETTINGS`);
  const raw = env[name];
  if (raw === undefined || raw.trim() === '' || envProblem(setting, raw)) return setting.def as number;
  return Number(raw);
}

/**
 * The value of a flag of {@link ENV_SETTINGS} in `env`: on for `1`, `true`, `yes`, `on`, off for
 * `0`, `false`, `no`, `off` (any case, spaces ignored); unset or any other value gives the default.
 * Throws `Error` for a name that is not a flag of the table.
 */
export function envFlag(env: NodeJS.ProcessEnv, name: string): boolean {
  const setting = ENV_SETTINGS.find((s) => s.name === name);
  if (!setting || setting.kind !== 'flag') throw new Error(`${name} is not a flag of ENV_SETTINGS`);
  const raw = (env[name] ?? '').trim();
  if (/^(?:1|true|yes|on)$/i.test(raw)) return true;
  if (/^(?:0|false|no|off)$/i.test(raw)) return false;
  return setting.def as boolean;
}

/** A variable set to a value its reader cannot use. */
export interface EnvProblem {
  name: string;
  value: string;
  /** One line: what is wrong and what is used instead, e.g. `must be a positive integer; the default 1500 is used`. */
  problem: string;
}

const FLAG = /^(?:1|true|yes|on|0|false|no|off)$/i;

/** The problem with `setting`'s raw value, or undefined when it is unset or valid. */
export function envProblem(setting: EnvSetting, raw: string | undefined): EnvProblem | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const then = setting.onInvalid === 'refused' ? 'it is refused (the command fails until it is fixed)' : `the default ${setting.def} is used`;
  if (setting.kind === 'flag') return FLAG.test(raw.trim()) ? undefined : { name: setting.name, value: raw, problem: `must be 1/0, true/false, yes/no or on/off; ${then}` };
  const v = Number(raw);
  const lo = setting.min ?? (setting.kind === 'positive-int' ? 1 : 0);
  const hi = setting.max ?? Number.MAX_SAFE_INTEGER;
  if (setting.kind === 'number') return Number.isFinite(v) && v >= lo && v <= hi ? undefined : { name: setting.name, value: raw, problem: `must be a number from ${lo} to ${hi} (${setting.what}); ${then}` };
  if (Number.isInteger(v) && v >= lo && v <= hi) return undefined;
  const want = setting.min !== undefined || setting.max !== undefined ? `an integer from ${lo} to ${hi}` : setting.kind === 'positive-int' ? 'a positive integer' : 'a non-negative integer';
  return { name: setting.name, value: raw, problem: `must be ${want} (${setting.what}); ${then}` };
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
