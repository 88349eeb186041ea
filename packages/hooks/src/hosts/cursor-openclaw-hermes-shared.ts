/**
 * Small payload helpers shared by the Cursor, OpenClaw and Hermes adapters.
 */
import { createHash } from 'node:crypto';

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
