// Small helpers shared by the benchmarks (not a benchmark itself: run.mjs skips it).
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';

/** Repository root. */
export const root = fileURLToPath(new URL('..', import.meta.url));
/** The hive-mind launcher (needs `npm run build`). */
export const cli = join(root, 'packages/cli/bin/hive-mind.js');

/** Numeric value of command-line flag `name` (e.g. `--runs`), else `def`. */
export function arg(name, def) {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : def;
}

/** The p-th percentile (nearest rank, p in 0..100) of a list of numbers. */
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/**
 * The words of the shared transcripts (../shared/data/transcripts), most frequent first, at most
 * 20,000 (used twice: frequency-ranked vocabulary for synthetic frames); a small built-in
 * engineering vocabulary when the data set is not there. Returns `{words, source}`.
 */
export function loadVocab() {
  const dataDir = join(root, '..', 'shared', 'data', 'transcripts');
  const counts = new Map();
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else for (const w of readFileSync(p, 'utf8').toLowerCase().match(/[a-z][a-z0-9_]{2,20}/g) ?? []) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  };
  if (existsSync(dataDir)) walk(dataDir);
  const ranked = [...counts.entries()].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1]).map(([w]) => w);
  if (ranked.length >= 1000) return { words: ranked.slice(0, 20000), source: `${Math.min(ranked.length, 20000)} words from ../shared/data/transcripts` };
  return {
    words: 'deploy build test server client database index query cache token budget memory frame session hook compaction summary checkpoint tool call result error fix branch merge commit release staging production cluster container image registry config schema migration backup restore latency throughput retry timeout lock queue worker thread process file path parser lexer compiler linter formatter bundle module package version dependency upgrade rollback feature flag metric alert dashboard log trace span user admin role permission secret key vault policy network proxy gateway route handler request response stream socket buffer encoding unicode json yaml toml markdown python rust typescript node sqlite fts5'.split(' '),
    source: 'built-in 120-word vocabulary',
  };
}

/**
 * Import a TypeScript module of this repository that uses only node built-ins (test-support/*.ts)
 * from a benchmark: transpiled with the project's own `typescript` into a temp file.
 */
export async function importTs(path) {
  const ts = createRequire(join(root, 'package.json'))('typescript');
  const out = ts.transpileModule(readFileSync(path, 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const file = join(mkdtempSync(join(tmpdir(), 'hm-bench-ts-')), 'module.mjs');
  writeFileSync(file, out);
  return import(pathToFileURL(file).href);
}

/**
 * A LoCoMo session's `session_N_date_time` ("1:56 pm on 8 May, 2023") as a UTC Date, or undefined
 * when it is not in that form (the dataset's own format; shared by locomo, memory-e2e, history-cost).
 */
export function parseLocomoDate(s) {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})/i.exec(s ?? '');
  if (!m) return undefined;
  let h = Number(m[1]) % 12;
  if (m[3].toLowerCase() === 'pm') h += 12;
  const d = new Date(`${m[5]} ${m[4]}, ${m[6]} ${String(h).padStart(2, '0')}:${m[2]}:00 UTC`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}
