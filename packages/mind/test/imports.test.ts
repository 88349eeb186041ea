import { describe, it, expect } from 'vitest';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { PKG_DIR } from './helpers.js';

// Hooks import '@hive-mind/mind' in every hook process: its static import graph must not reach the
// tokenizer, the transcript readers, the compaction package (LLM SDKs) or other heavy modules.
// `@hive-mind/transcripts/host-dirs` is the hosts' folder resolver alone (node:os and node:path), not the readers; `/user-home` the home folder alone (node:os).
// `@hive-mind/session` is the event log's types and pure helpers (a message's text blocks); its main entry
// imports no package at all (checked below), only its `./sqlite` subpath needs better-sqlite3.
const LIGHT = new Set(['@hive-mind/transcripts/host-dirs', '@hive-mind/transcripts/user-home', '@hive-mind/session']);
const HEAVY = ['gpt-tokenizer', '@hive-mind/compaction', '@hive-mind/transcripts', 'openai', '@anthropic-ai/sdk', 'cli-progress', 'commander'];

function staticImports(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  // `import x from 'y'`, `import {a} from 'y'`, `export ... from 'y'`, `import 'y'`; `import type` / `export type` are erased
  for (const m of src.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  return out;
}

/** The files reached from `entry` by static relative imports, and the package specifiers they name. */
function importGraph(entry: string): { files: Set<string>; external: Set<string> } {
  const files = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) {
        const ts = join(file, '..', spec.replace(/\.js$/, '.ts'));
        if (existsSync(ts)) visit(ts);
      } else external.add(spec);
    }
  };
  visit(entry);
  return { files, external };
}

describe('import cost of @hive-mind/mind', () => {
  it('the static import graph from src/index.ts reaches no heavy module', () => {
    const { files, external } = importGraph(join(PKG_DIR, 'src', 'index.ts'));
    expect(files.size).toBeGreaterThan(5);
    for (const h of HEAVY) expect([...external].filter((e) => !LIGHT.has(e) && (e === h || e.startsWith(h + '/'))), h).toEqual([]);
    // the secret rule set is loaded on the first text redacted (safety/secret-preset.ts), never by an import:
    // a hook that only reads does not load it (packages/hooks/test/hook-imports.test.ts pins each event's modules)
    expect([...external].filter((e) => !e.startsWith('node:')).sort()).toEqual(['@hive-mind/session', '@hive-mind/transcripts/host-dirs', '@hive-mind/transcripts/user-home', 'better-sqlite3']);
  });

  it("@hive-mind/session's main entry, on the hook path through the harvest, imports no package", () => {
    const { files, external } = importGraph(join(PKG_DIR, '..', 'session', 'src', 'index.ts'));
    expect(files.size).toBeGreaterThan(3);
    expect([...external].filter((e) => !e.startsWith('node:'))).toEqual([]);
  });
});
