// The product's path for bench/memory-e2e.mjs: Claude Code's hook runner fed the stdin JSON a real
// Claude Code 2.1.332 sends (shared/data/host-payloads/claude-code/*.jsonl), in a fresh HIVE_MIND home
// with a fresh project folder (a git repository: the workspace is the git root) as the payload's cwd.
//
// Two ways to run a hook:
// - in process (default): `runHook(['claude-code', EVENT], {stdin, write, env, now})` of
//   @hive-mind/hooks/run, the function `hive-mind hook claude-code EVENT` runs;
// - `processes: true`: `node packages/cli/bin/hive-mind.js hook claude-code EVENT` as a child process
//   with the payload on stdin (the real command a host runs; slower).
//
// The clock: in process, `setClock(date)` shifts this process's `Date` (every `new Date()` and
// `Date.now()`, the product's included, reads the shifted time), and the runner's `now` option gets the
// same clock; so a session replayed with its own date is stored and recalled as of that date. A child
// process cannot be given a clock: with `processes` every event runs at the wall clock.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { cli, root } from '../lib.mjs';

const RealDate = Date;
let offsetMs = 0;
class BenchDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + offsetMs);
    else super(...args);
  }
  static now() {
    return RealDate.now() + offsetMs;
  }
  // dates Node makes internally (fs.Stats times) are of the original class
  static [Symbol.hasInstance](x) {
    return x instanceof RealDate;
  }
}
globalThis.Date = BenchDate;

/** Set the clock of this process (and of the in-process hooks) to `date`; `undefined` is the wall clock. */
export function setClock(date) {
  offsetMs = date ? date.getTime() - RealDate.now() : 0;
}

const { runHook } = await import(join(root, 'packages/hooks/dist/run.js'));

/** A uuid-shaped id derived from `key` (stable across runs). */
export function uuidOf(key) {
  const h = createHash('sha1').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * A fresh user: a temporary HIVE_MIND home, HOME, and a project folder that is a git repository.
 * Returns `{dir, home, project, env, transcripts}`; `dispose()` removes it all.
 */
export function freshUser(label) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `hm-e2e-${label.replace(/[^a-z0-9]+/gi, '-')}-`)));
  const home = join(dir, 'hive-mind');
  const project = join(dir, 'project');
  const transcripts = join(dir, 'claude', 'projects', 'project');
  for (const d of [home, project, transcripts]) mkdirSync(d, { recursive: true });
  const git = spawnSync('git', ['init', '-q', project], { encoding: 'utf8' });
  if (git.status !== 0) throw new Error(`git init ${project} failed: ${git.stderr}`);
  const env = {};
  // the hooks see no HIVE_MIND_* setting of whoever runs the bench: defaults only
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('HIVE_MIND_')) env[k] = v;
  env.HIVE_MIND_HOME = home;
  env.HOME = dir;
  return { dir, home, project, transcripts, env, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Copy the user's HIVE_MIND home aside (`snapshot`) and put it back (`restore`): each question starts from the same memory. */
export function snapshots(user) {
  const snap = join(user.dir, 'home-snapshot');
  return {
    snapshot() {
      rmSync(snap, { recursive: true, force: true });
      cpSync(user.home, snap, { recursive: true });
    },
    restore() {
      rmSync(user.home, { recursive: true, force: true });
      cpSync(snap, user.home, { recursive: true });
    },
  };
}

/** Counters of hook runs: events, failures (the runner's logged error), time in the hooks (ms). */
export const hookStats = { events: 0, errors: 0, timeouts: 0, ms: 0, firstErrors: [] };

/**
 * Run Claude Code's hook `event` with `payload` for `user`; resolves to the `additionalContext`
 * printed ('' when the hook printed nothing). A failure the runner logged is counted in `hookStats`.
 */
export async function hook(user, event, payload, { processes = false } = {}) {
  const json = JSON.stringify({ ...payload, hook_event_name: event });
  const t0 = performance.now();
  let out = '';
  let error;
  if (processes) {
    const r = spawnSync(process.execPath, [cli, 'hook', 'claude-code', event], { input: json, env: user.env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    out = r.stdout ?? '';
    if (r.status !== 0) error = `exit ${r.status}: ${(r.stderr ?? '').slice(0, 200)}`;
  } else {
    const r = await runHook(['claude-code', event], {
      stdin: Readable.from([Buffer.from(json)]),
      write: (t) => {
        out += t;
      },
      env: user.env,
      now: () => new Date(),
      onTimeout: () => {
        hookStats.timeouts++;
      },
    });
    error = r.error;
  }
  hookStats.ms += performance.now() - t0;
  hookStats.events++;
  if (error) {
    hookStats.errors++;
    if (hookStats.firstErrors.length < 5) hookStats.firstErrors.push(`${event}: ${error}`);
  }
  if (!out.trim()) return '';
  try {
    return JSON.parse(out).hookSpecificOutput?.additionalContext ?? '';
  } catch {
    return '';
  }
}

/** The failure lines of the user's hook log (`<home>/logs/hooks.log`), if any. */
function hookLogLines(user) {
  const p = join(user.home, 'logs', 'hooks.log');
  return existsSync(p) ? readFileSync(p, 'utf8').split('\n').filter(Boolean) : [];
}
