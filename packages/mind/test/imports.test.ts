import { describe, it, expect } from 'vitest';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { PKG_DIR } from './helpers.js';

// Hooks import '@hive-mind/mind' in every hook process: its static import graph must not reach the
// tokenizer, the transcript readers, the compaction package (LLM SDKs) or other heavy modules.
// `@hive-mind/transcripts/host-dirs` is the hosts' folder resolver alone (node:os and node:path), not the readers.
const LIGHT = new Set(['@hive-mind/transcripts/host-dirs']);
const HEAVY = ['gpt-tokenizer', '@hive-mind/compaction', '@hive-mind/transcripts', 'openai', '@anthropic-ai/sdk', 'cli-progress', 'commander'];

function staticImports(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  // `import x from 'y'`, `import {a} from 'y'`, `export ... from 'y'`, `import 'y'`; `import type` / `export type` are erased
  for (const m of src.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  return out;
}

describe('import cost of @hive-mind/mind', () => {
  it('the static import graph from src/index.ts reaches no heavy module', () => {
    const seen = new Set<string>();
    const external = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of staticImports(file)) {
        if (spec.startsWith('.')) {
          const ts = join(file, '..', spec.replace(/\.js$/, '.ts'));
          if (existsSync(ts)) visit(ts);
        } else external.add(spec);
      }
    };
    visit(join(PKG_DIR, 'src', 'index.ts'));
    expect(seen.size).toBeGreaterThan(5);
    for (const h of HEAVY) expect([...external].filter((e) => !LIGHT.has(e) && (e === h || e.startsWith(h + '/'))), h).toEqual([]);
    // the secret rule set is on the hook path on purpose (redaction runs there; bench/redact.mjs measures its cost)
    expect([...external].filter((e) => !e.startsWith('node:')).sort()).toEqual(['@hive-mind/transcripts/host-dirs', '@secretlint/secretlint-rule-preset-recommend', 'better-sqlite3']);
  });
});
