/**
 * Fuzzed hook stdin: 1,000 inputs over every host and every event it installs (plus unknown events),
 * made from the recorded payloads (shared/data/host-payloads, test/fixtures) by a seeded generator:
 * fields dropped, retyped (number, array, null, object), replaced by huge or odd Unicode strings, deep
 * nesting, truncated JSON, non-objects, raw bytes. Every run must end (the runner resolves, the watchdog
 * never fires) with stdout empty or a JSON object of the keys that host's adapter renders. A stratified
 * tenth of them also run as real `hive-mind hook` processes: exit 0, same stdout rule.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { Readable } from 'node:stream';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runHook } from '../src/index.js';
import { HOSTS } from '../src/registry.js';
import type { HostAdapter } from '../src/types.js';
import { DATA, runCli, sandbox } from './helpers.js';

const FIX = new URL('./fixtures/', import.meta.url).pathname;
const N = 1000;

/** mulberry32: a small seeded PRNG, so a failing input can be regenerated from its index. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Recorded payloads per host (any event), parsed. */
function samples(): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const host of ['claude-code', 'codex']) {
    const dir = join(DATA, 'host-payloads', host);
    out[host] = existsSync(dir) ? readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))) : [];
  }
  for (const host of ['cursor', 'openclaw', 'hermes']) {
    out[host] = readdirSync(join(FIX, host)).filter((f) => f.endsWith('.json') && !/with-comments/.test(f)).map((f) => JSON.parse(readFileSync(join(FIX, host, f), 'utf8')));
  }
  return out;
}

const ODD = ['', ' ', '\u0000', '\uD800', '🧘‍♀️'.repeat(50), '<function_calls><invoke name="x">', '../../../../etc/passwd', '$(rm -rf ~)', 'x'.repeat(100_000), '日本語'.repeat(1000), '\u202Eevil', '{"nested": true}'];

function mutate(v: unknown, r: () => number, depth = 0): unknown {
  const pick = <T,>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  if (v && typeof v === 'object' && !Array.isArray(v) && depth < 4) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const roll = r();
      if (roll < 0.1) continue; // dropped
      o[k] = roll < 0.25 ? pick([null, 42, -1, 1e308, true, [], {}, [x], pick(ODD)]) : mutate(x, r, depth + 1);
    }
    if (r() < 0.1) o[pick(['extra', 'hook_event_name', 'session_id', 'cwd', 'prompt'])] = pick(ODD);
    return o;
  }
  if (typeof v === 'string' && r() < 0.2) return pick(ODD);
  return v;
}

function input(i: number, s: Record<string, unknown[]>, events: Record<string, string[]>): { host: string; event: string; stdin: string | Buffer } {
  const r = prng(i + 1);
  const hosts = Object.keys(events);
  const host = hosts[i % hosts.length]!;
  const evs = [...events[host]!, 'NoSuchEvent'];
  const event = evs[Math.floor(r() * evs.length)]!;
  const base = s[host]!.length ? s[host]![Math.floor(r() * s[host]!.length)] : {};
  const kind = r();
  let stdin: string | Buffer;
  if (kind < 0.6) stdin = JSON.stringify(mutate(base, r));
  else if (kind < 0.7) stdin = JSON.stringify(base).slice(0, Math.floor(r() * JSON.stringify(base).length)); // truncated
  else if (kind < 0.75) stdin = '['.repeat(5000) + ']'.repeat(5000); // deep nesting, not an object
  else if (kind < 0.8) stdin = JSON.stringify({ a: JSON.parse('['.repeat(200) + '{"x":"y"}' + ']'.repeat(200)) }); // deep inside an object
  else if (kind < 0.85) stdin = Buffer.from(Array.from({ length: 512 }, () => Math.floor(r() * 256)));
  else if (kind < 0.9) stdin = ['', 'null', '42', '"str"', 'true', '{}'][Math.floor(r() * 6)]!;
  else stdin = JSON.stringify({ ...(base as object), hook_event_name: event, prompt: ODD[Math.floor(r() * ODD.length)] });
  return { host, event, stdin };
}

describe('fuzzed hook stdin', { timeout: 600_000 }, () => {
  let events: Record<string, string[]>;
  let adapters: Record<string, HostAdapter>;
  let s: Record<string, unknown[]>;
  beforeAll(async () => {
    events = {};
    adapters = {};
    for (const h of HOSTS) {
      adapters[h.id] = (await h.adapter()).adapter;
      events[h.id] = [...adapters[h.id]!.events];
    }
    s = samples();
  });

  /** Keys the adapter of `host` may print for `event` (what it renders with and without context). */
  const allowedKeys = (host: string, event: string): Set<string> => {
    const keys = new Set<string>();
    for (const out of [{}, { additionalContext: 'x' }]) {
      try {
        const t = adapters[host]!.render(event, out);
        if (t) for (const k of Object.keys(JSON.parse(t))) keys.add(k);
      } catch {
        /* an event the adapter does not render */
      }
    }
    return keys;
  };
  const stdoutOk = (host: string, event: string, text: string): string | undefined => {
    if (!text.trim()) return undefined;
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      return `not JSON: ${text.slice(0, 80)}`;
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) return `not an object: ${text.slice(0, 80)}`;
    const allowed = allowedKeys(host, event);
    const extra = Object.keys(v).filter((k) => !allowed.has(k));
    return extra.length ? `keys ${extra.join(',')} not rendered by the ${host} adapter` : undefined;
  };

  it(`${N} inputs through the runner: every run ends, the watchdog never fires, stdout empty or host JSON`, async () => {
    const sb = sandbox();
    const bad: string[] = [];
    const perHost: Record<string, number> = {};
    for (let i = 0; i < N; i++) {
      const { host, event, stdin } = input(i, s, events);
      perHost[host] = (perHost[host] ?? 0) + 1;
      let timedOut = false;
      const r = await runHook([host, event], { stdin: Readable.from([stdin]), env: sb.env, write: () => undefined, timeoutMs: 20_000, onTimeout: () => (timedOut = true) });
      if (timedOut) bad.push(`#${i} ${host} ${event}: watchdog fired`);
      const why = stdoutOk(host, event, r.output);
      if (why) bad.push(`#${i} ${host} ${event}: ${why}`);
    }
    expect(bad).toEqual([]);
    expect(Object.keys(perHost).sort()).toEqual(Object.keys(events).sort());
  });

  it(`a tenth of them as real \`hive-mind hook\` processes: exit 0, stdout empty or host JSON`, async () => {
    const sb = sandbox();
    const bad: string[] = [];
    const picks = Array.from({ length: N / 10 }, (_, k) => k * 10 + (k % 10)); // every host, spread over the set
    for (let j = 0; j < picks.length; j += 4) {
      await Promise.all(
        picks.slice(j, j + 4).map(async (i) => {
          const { host, event, stdin } = input(i, s, events);
          const r = await runCli(['hook', host, event], stdin, sb.env, 60_000);
          if (r.code !== 0 || r.killedByTest) bad.push(`#${i} ${host} ${event}: exit ${r.code}${r.killedByTest ? ' (killed after 60 s)' : ''}`);
          const why = stdoutOk(host, event, r.stdout);
          if (why) bad.push(`#${i} ${host} ${event}: ${why}`);
        }),
      );
    }
    expect(bad).toEqual([]);
  });
});
