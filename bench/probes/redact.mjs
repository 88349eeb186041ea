// The redaction probe set (redact.json beside this file): template expansion and scoring, shared by
// bench/redact.mjs (which prints the figures) and packages/mind/test/redact-probes.test.ts (which
// checks every probe).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROBES = join(fileURLToPath(new URL('.', import.meta.url)), 'redact.json');

const ALPHABETS = {
  A: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  w: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-',
  b: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  h: '0123456789abcdef',
  U: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  d: '0123456789',
  l: 'abcdefghijklmnopqrstuvwxyz0123456789',
  L: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  dj: 'abcdefghijklmnopqrstuvwxyz0123456789!@#%^&*(-_=+)',
};

/** A deterministic generator of 32-bit floats in [0, 1) seeded by a string (FNV-1a, then mulberry32). */
function rng(seed) {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193);
  let s = h >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fill(id, name, cls, len) {
  const next = rng(`${id}/${name}`);
  const pick = (alphabet, n) => Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
  if (cls === 'uuid') {
    const hx = ALPHABETS.h;
    return `${pick(hx, 8)}-${pick(hx, 4)}-4${pick(hx, 3)}-${'89ab'[Math.floor(next() * 4)]}${pick(hx, 3)}-${pick(hx, 12)}`;
  }
  const alphabet = ALPHABETS[cls];
  if (!alphabet) throw new Error(`${PROBES}: probe ${id}: unknown template class "${cls}" in slot "${name}"`);
  return pick(alphabet, Number(len));
}

/** Expand `{{name:class:len}}` (define) and `{{name}}` (repeat) in the strings of one probe. */
function expand(id, strings, slots) {
  const one = (s) =>
    s.replace(/\{\{(\w+)(?::(\w+)(?::(\d+))?)?\}\}/g, (_m, name, cls, len) => {
      if (cls) {
        if (!slots.has(name)) slots.set(name, fill(id, name, cls, len));
        return slots.get(name);
      }
      if (!slots.has(name)) throw new Error(`${PROBES}: probe ${id}: slot "${name}" used before it is defined`);
      return slots.get(name);
    });
  return strings.map(one);
}

/**
 * The probes of one set with their templates filled: `main` (written before the redactor was run on
 * them, then used to fix it) or `held-out` (written after the fixes, never used to tune them).
 * Returns `{ secrets: [{id, text, secrets, keep}], nearMisses: [{id, text}] }`.
 */
export function loadRedactProbes(set = 'main') {
  const all = JSON.parse(readFileSync(PROBES, 'utf8'));
  const doc = set === 'held-out' ? all.held_out : all;
  if (!doc) throw new Error(`${PROBES}: no probe set "${set}"`);
  const secrets = doc.secrets.map((p) => {
    const slots = new Map();
    const [text] = expand(p.id, [p.text], slots);
    return { id: p.id, text, secrets: expand(p.id, p.secrets, slots), keep: expand(p.id, p.keep ?? [], slots) };
  });
  const nearMisses = doc.near_misses.map((p) => ({ id: p.id, text: expand(p.id, [p.text], new Map())[0] }));
  return { secrets, nearMisses };
}

/**
 * Score a redaction function `(text) => redactedText` on one probe set (see {@link loadRedactProbes}).
 * A secret probe is caught when none of its secret strings survives; it also lost context when a
 * `keep` string is gone. A near miss is a false positive when its text comes back changed.
 * Precision = caught / (caught + false positives); recall = caught / secret probes.
 */
export function scoreRedaction(redact, set = 'main') {
  const { secrets, nearMisses } = loadRedactProbes(set);
  const missed = [];
  const lostContext = [];
  const falsePositives = [];
  for (const p of secrets) {
    const out = redact(p.text);
    const left = p.secrets.filter((s) => out.includes(s));
    if (left.length) missed.push({ id: p.id, out });
    const lost = p.keep.filter((k) => !out.includes(k));
    if (lost.length) lostContext.push({ id: p.id, lost, out });
  }
  for (const p of nearMisses) {
    const out = redact(p.text);
    if (out !== p.text) falsePositives.push({ id: p.id, out });
  }
  const caught = secrets.length - missed.length;
  return {
    secrets: secrets.length,
    nearMisses: nearMisses.length,
    caught,
    missed,
    lostContext,
    falsePositives,
    precision: caught / Math.max(1, caught + falsePositives.length),
    recall: caught / Math.max(1, secrets.length),
  };
}
