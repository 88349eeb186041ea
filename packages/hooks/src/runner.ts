/**
 * The hook runner: what `hive-mind hook HOST EVENT` runs inside the host.
 *
 * Contract (issue #6, DESIGN.md "Hooks"):
 * - reads stdin up to 8 MiB and for at most `stdinTimeoutMs` (default 3 s); more bytes
 *   are drained and ignored, and an over-size payload is not parsed;
 * - parses defensively, redacts every string of the payload (`redactJson`: secrets are gone before
 *   any text is extracted, cut or joined) when the event keeps text of it ({@link KEEPS_PAYLOAD_TEXT};
 *   SessionStart and PreCompact store nothing of theirs) and dispatches through the host's adapter;
 * - writes only the host's expected JSON (or nothing) on stdout;
 * - an environment override with a bad value is logged (name, value, what is used instead);
 * - with `HIVE_MIND_NO_HOOKS` on (set on the host a summarizer of hive-mind starts), prints the
 *   host's empty response after reading stdin and does nothing else;
 * - never fails the host: every error is logged as one line to `<home>/logs/hooks.log`
 *   (see log.ts; on stderr when no log place can be written), the output falls back to `adapter.render(event, {})`, and the process
 *   exits 0; a watchdog (default 10 s, `HIVE_MIND_HOOK_TIMEOUT_MS`) ends a stuck run the
 *   same way.
 * Imports only the adapter of the host being run, and the mind only when an event needs it.
 */
import { redactJson } from '@hive-mind/mind/redact';
import { envFlag, envNumber, envProblems, formatEnvProblem, settingDefault } from '@hive-mind/mind/settings';
import { hookLogPath, logHookLine } from './log.js';
import { hostList } from '@hive-mind/transcripts/hosts';
import { HOST_IDS, loadAdapter } from './registry.js';
import { readStdinCapped, STDIN_MAX_BYTES } from './stdin.js';
import type { HookContext, HostAdapter, Lifecycle, LifecycleInput, LifecycleOutput } from './types.js';

export { hookLogPath };

/** Default watchdog of one hook run, in ms. */
export const HOOK_TIMEOUT_MS = settingDefault('HIVE_MIND_HOOK_TIMEOUT_MS');
/** Default time cap on reading stdin, in ms. */
export const STDIN_TIMEOUT_MS = 3_000;

/** Options of {@link runHook}; all default to the real process. */
export interface RunHookOptions {
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean; destroy?: () => void };
  /** Receives the text to print (already newline-terminated) or nothing. */
  write?: (text: string) => void;
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
  /** Watchdog in ms; default `HIVE_MIND_HOOK_TIMEOUT_MS` when a positive integer, else 10,000. */
  timeoutMs?: number;
  stdinTimeoutMs?: number;
  /** argv of the background team sync a SessionStart may start (the CLI passes its own `team sync`). */
  teamSyncCommand?: readonly string[];
  /** Called by the watchdog after printing the fallback output. Default `process.exit(0)`. */
  onTimeout?: () => void;
}

/** Result of {@link runHook} (for tests and the bench). */
export interface RunHookResult {
  /** What was printed ('' when nothing). */
  output: string;
  /** The one-line error logged, when the run failed. */
  error?: string;
  /** The log file written, when a line was logged. */
  logPath?: string;
}

class HookInputError extends Error {}

/**
 * The lifecycles that store text of their payload (a prompt, a reply, a transcript path read at
 * session end), whose payload is redacted before the adapter reads it. SessionStart (Hermes: with a
 * first prompt, used as a query and never stored) and PreCompact keep nothing of theirs, and the
 * hook log redacts its own lines: they skip it, and with it loading the secret rule set.
 */
const KEEPS_PAYLOAD_TEXT: ReadonlySet<Lifecycle> = new Set<Lifecycle>(['user-prompt-submit', 'stop', 'session-end']);

/** Run one hook event. `argv` is `[HOST, EVENT]`. Resolves (never rejects) once output is written. */
export async function runHook(argv: string[], opts: RunHookOptions = {}): Promise<RunHookResult> {
  const env = opts.env ?? process.env;
  const write = opts.write ?? ((t: string) => void process.stdout.write(t));
  const [host = '', event = ''] = argv;
  const logPath = hookLogPath(env);
  let adapter: HostAdapter | undefined;
  let finished = false;
  const result: RunHookResult = { output: '' };

  const fallback = (): string => {
    try {
      return adapter ? adapter.render(event, {}) : '';
    } catch {
      return '';
    }
  };
  const emit = (text: string) => {
    if (finished) return;
    finished = true;
    result.output = text;
    if (text) write(text.endsWith('\n') ? text : text + '\n');
  };
  const fail = (msg: string) => {
    result.error = msg;
    result.logPath = logHookLine(logPath, host, event, msg);
    // neither log place took it (a full disk under both): stderr is the last place the failure can be seen
    if (!result.logPath) process.stderr.write(`hive-mind ${host || '-'} ${event || '-'}: ${msg.replace(/\s+/g, ' ').slice(0, 2000)} (the hook log could not be written)\n`);
  };

  const timeoutMs = opts.timeoutMs ?? envNumber(env, 'HIVE_MIND_HOOK_TIMEOUT_MS');
  const watchdog = setTimeout(() => {
    if (finished) return;
    fail(`timed out after ${timeoutMs} ms; printed the empty response`);
    emit(fallback());
    (opts.onTimeout ?? (() => process.exit(0)))();
  }, timeoutMs);
  watchdog.unref?.();

  // a bad override is used as its default (or refused) but never silently: one line per variable, every run
  for (const p of envProblems(env)) logHookLine(logPath, host, event, `setting ${formatEnvProblem(p)}`);

  try {
    adapter = await loadAdapter(host);
    if (!adapter) throw new HookInputError(`unknown host "${host}" (expected ${hostList(HOST_IDS, 'or')})`);
    const lifecycle = adapter.lifecycleOf(event);
    const stdin = await readStdinCapped(opts.stdin ?? process.stdin, { maxBytes: STDIN_MAX_BYTES, timeoutMs: opts.stdinTimeoutMs ?? STDIN_TIMEOUT_MS });
    // a host started by hive-mind itself (the claude-code and codex summarizers): its session is not the user's, nothing is captured or recalled
    if (envFlag(env, 'HIVE_MIND_NO_HOOKS')) {
      emit(fallback());
      return result;
    }
    if (!lifecycle) throw new HookInputError(`event "${event}" is not handled for ${host}`);
    if (stdin.overflow) throw new HookInputError(`stdin is ${stdin.bytes} bytes, over the ${STDIN_MAX_BYTES}-byte cap; payload ignored`);
    if (stdin.timedOut && !stdin.text) throw new HookInputError(`no stdin within ${opts.stdinTimeoutMs ?? STDIN_TIMEOUT_MS} ms`);
    const text = stdin.text.trim();
    if (!text) throw new HookInputError('empty stdin; expected a JSON payload');
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch (e) {
      throw new HookInputError(`stdin is not valid JSON (${(e as Error).message}; ${stdin.bytes} bytes${stdin.timedOut ? ', cut by the time cap' : ''})`);
    }
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw new HookInputError('stdin JSON is not an object');
    const input: LifecycleInput = adapter.normalize(event, KEEPS_PAYLOAD_TEXT.has(lifecycle) ? redactJson(payload).value : payload);
    const { runLifecycle, cleanupMinds } = await import('./lifecycles.js');
    const lopts = { env, now: opts.now, log: (m: string) => void logHookLine(logPath, host, event, m), ...(opts.teamSyncCommand ? { teamSyncCommand: opts.teamSyncCommand } : {}) };
    const ctx: HookContext = {
      env,
      now: opts.now ?? (() => new Date()),
      runLifecycle: (i) => runLifecycle(i, lopts),
      cleanup: async (i) => cleanupMinds(i, env, (opts.now ?? (() => new Date()))(), 1500),
      log: (m) => void logHookLine(logPath, host, event, m),
    };
    const out: LifecycleOutput = adapter.handle ? await adapter.handle(input, ctx) : await runLifecycle(input, lopts);
    emit(adapter.render(event, out));
  } catch (e) {
    const err = e as Error & { code?: string };
    const msg = e instanceof HookInputError ? err.message : `${err?.name ?? 'Error'}${err?.code ? ` ${err.code}` : ''}: ${err?.message ?? String(e)}`;
    fail(msg);
    emit(fallback());
  } finally {
    clearTimeout(watchdog);
  }
  return result;
}
