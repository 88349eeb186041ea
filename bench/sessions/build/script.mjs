// A session as a host-neutral script: who said what, which tool calls ran and what they printed.
// The writers in hosts.mjs turn one script into a host's own file format. Deterministic: ids and
// timestamps derive from the script's seed, so a rebuild gives the same bytes.
import { createHash } from 'node:crypto';

/** Seeded PRNG (mulberry32): the same seed gives the same dumps and ids. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A hex id of `n` characters derived from `parts`. */
export function hexId(n, ...parts) {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, n);
}

/** A UUID-shaped id (v4 layout) derived from `parts`. */
export function uuidOf(...parts) {
  const h = hexId(32, ...parts);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[parseInt(h[16], 16) % 4]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * One session. Turns in order:
 * - `{kind: 'user', text, speaker?, meta?}`: a user message (`meta: 'hook'` for host-injected text that is not the user's)
 * - `{kind: 'assistant', text, reasoning?}`: assistant text
 * - `{kind: 'tools', calls: [{id, name, input, output, error?, interrupted?, extra?}], text?}`: one assistant
 *   message with one or more tool calls (text before them), each followed by its result
 * - `{kind: 'host-summary', host, text}`: the host's own earlier compaction summary (each writer
 *   renders it in its host's form)
 * - `{kind: 'raw', host, value}`: a record only one host writes (a slash command line, an event)
 */
export class Script {
  constructor({ id, seed, cwd, start, model, title }) {
    this.id = id;
    this.seed = seed;
    this.cwd = cwd;
    this.model = model;
    this.title = title;
    this.turns = [];
    this.t = Date.parse(start);
    this.n = 0;
    this.dir = cwd;
  }

  /** The shell's working folder from now on (Claude Code records it on every line). */
  chdir(dir) {
    this.dir = dir;
    return this;
  }

  /** The next timestamp: a few seconds after the previous one (more after a user turn). */
  tick(seconds = 4) {
    this.t += seconds * 1000 + (this.n++ % 7) * 137;
    return new Date(this.t).toISOString();
  }

  user(text, opts = {}) {
    this.turns.push({ kind: 'user', text, ts: this.tick(opts.wait ?? 45), cwd: this.dir, ...opts });
    return this;
  }

  say(text, opts = {}) {
    this.turns.push({ kind: 'assistant', text, ts: this.tick(6), cwd: this.dir, ...opts });
    return this;
  }

  /** One assistant message with tool calls `calls` (each `{name, input, output, error?, interrupted?}`), text first when given. */
  tools(calls, text) {
    const list = (Array.isArray(calls) ? calls : [calls]).map((c, i) => ({ ...c, id: c.id ?? hexId(24, this.id, 'call', String(this.turns.length), String(i)) }));
    const ts = this.tick(5);
    for (const c of list) c.ts = this.tick(c.seconds ?? 3);
    this.turns.push({ kind: 'tools', calls: list, text, ts, cwd: this.dir });
    return this;
  }

  /** Shorthand: one tool call. */
  tool(name, input, output, opts = {}) {
    return this.tools([{ name, input, output, ...opts }], opts.text);
  }

  hostSummary(host, text) {
    this.turns.push({ kind: 'host-summary', host, text, ts: this.tick(30) });
    return this;
  }

  raw(host, value) {
    this.turns.push({ kind: 'raw', host, value, ts: this.tick(1), cwd: this.dir });
    return this;
  }
}

// ---------------------------------------------------------------- dumps

/** `n` file paths under `root` (a checkout with node_modules), one a line: a low-value dump. */
export function pathList(seed, root, n) {
  const r = rng(seed);
  const dirs = ['node_modules/.pnpm', 'node_modules/@types', 'dist', 'coverage/lcov-report', 'src', 'test', 'node_modules/typescript/lib', 'node_modules/vite/dist/node/chunks', '.git/objects'];
  const names = ['index', 'util', 'helpers', 'types', 'config', 'parser', 'render', 'chunk', 'legacy', 'client', 'server', 'worker', 'runtime', 'loader'];
  const exts = ['.js', '.d.ts', '.map', '.ts', '.json', '.mjs', '.cjs'];
  const out = [];
  for (let i = 0; i < n; i++) {
    const d = dirs[Math.floor(r() * dirs.length)];
    const sub = d.startsWith('.git') ? hexId(2, String(seed), String(i)) : names[Math.floor(r() * names.length)];
    out.push(`${root}/${d}/${sub}/${names[Math.floor(r() * names.length)]}-${hexId(6, String(seed), 'p', String(i))}${exts[Math.floor(r() * exts.length)]}`);
  }
  return out.join('\n');
}

/** What `strings` prints for a native binary: symbol names, libc references, random printable runs. */
export function stringsDump(seed, n, extra = []) {
  const r = rng(seed);
  const fixed = ['/lib64/ld-linux-x86-64.so.2', 'libc.so.6', 'GLIBC_2.34', 'GLIBC_2.2.5', '__cxa_finalize', '__libc_start_main', 'pthread_mutex_lock', 'memcpy', 'strlen', '.shstrtab', '.gnu.hash', '.dynsym', '.rela.plt', 'GCC: (Debian 12.2.0-14) 12.2.0'];
  const alpha = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$.@';
  const out = [...fixed];
  for (let i = 0; i < n; i++) {
    const len = 4 + Math.floor(r() * 14);
    let s = '';
    for (let j = 0; j < len; j++) s += alpha[Math.floor(r() * alpha.length)];
    out.push(s);
    if (i % 97 === 50 && extra.length) out.push(extra.shift());
  }
  return out.join('\n');
}

/** `key=value` lines of a tool's full configuration listing: a low-value dump. */
export function configDump(seed, n, prefix, fixed = []) {
  const r = rng(seed);
  const words = ['cache', 'color', 'timeout', 'retries', 'registry', 'proxy', 'strict', 'audit', 'fund', 'progress', 'loglevel', 'prefer', 'offline', 'shell', 'editor', 'umask', 'save', 'exact', 'engine', 'fetch'];
  const out = [...fixed];
  for (let i = 0; i < n; i++) {
    const k = `${words[Math.floor(r() * words.length)]}-${words[Math.floor(r() * words.length)]}${i % 5 === 0 ? '-' + i : ''}`;
    const v = r() < 0.4 ? String(r() < 0.5) : r() < 0.5 ? String(Math.floor(r() * 10000)) : `"${words[Math.floor(r() * words.length)]}"`;
    out.push(`${prefix}${k} = ${v}`);
  }
  return out.join('\n');
}
