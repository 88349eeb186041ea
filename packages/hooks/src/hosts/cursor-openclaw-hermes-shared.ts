/**
 * Small helpers shared by the Cursor, OpenClaw and Hermes adapters and installers.
 * File plumbing (atomic writes, backups, diffs, verify runs) comes from `../install/*`.
 */
import { createHash } from 'node:crypto';
import { defaultHookCommand, ourHookEvent } from '../install/command.js';
import type { HostId, InstallOptions, VerifyReport } from '../types.js';

/** The command prefix hosts run: `opts.command`, else `<node> <hive-mind bin>` (install/command.ts). */
export function resolveHookCommand(opts?: InstallOptions): string {
  return opts?.command ?? defaultHookCommand();
}

/** True when `command` is one of our hook commands for `host` (optionally for `event`); see install/command.ts `ourHookEvent`. */
export function isOurHookCommand(command: unknown, host: HostId, event?: string): boolean {
  const ev = ourHookEvent(command, host);
  return ev !== undefined && (event === undefined || ev === event);
}

/**
 * Apply a host-specific stdout check on top of `verifyCommands` (which checks exit code,
 * JSON validity and the hooks log): a hook whose output the host would misread fails.
 */
export function withStdoutCheck(report: VerifyReport, check: (event: string, stdout: string) => string | undefined): VerifyReport {
  for (const h of report.hooks) {
    if (!h.ok) continue;
    const problem = check(h.event, h.stdout);
    if (problem) {
      h.ok = false;
      h.error = problem;
    }
  }
  report.ok = report.hooks.length > 0 && report.hooks.every((h) => h.ok);
  return report;
}

/** Short stable id from parts (sha256, 16 hex chars): idempotency keys for turns a host gives no id for. */
export function stableId(...parts: Array<string | undefined>): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(`${p ?? ''}\u0000`);
  return h.digest('hex').slice(0, 16);
}

/** A non-empty string, else undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}
/** A plain object, else `{}`. */
export function obj(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
/** An array of non-empty strings (other items dropped), else undefined. */
export function strArray(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out = v.filter((x): x is string => typeof x === 'string' && x.length > 0);
  return out.length ? out : undefined;
}
