#!/usr/bin/env node
// Writes every session of bench/sessions/src/*.mjs into bench/sessions/ in its host's format.
//   node bench/sessions/build/build.mjs            # all
//   node bench/sessions/build/build.mjs fr-        # the ones whose file name starts with fr-
// The written files are committed; rebuild only after editing a script (the output is deterministic).
// Each file is read back with the product's reader (needs `npm run build`): the detected format must
// be the script's host, with no tool call repaired and no orphan result; otherwise the exit code is 1.
import { readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import * as hosts from './hosts.mjs';
import { readTranscriptFile } from '../../../packages/transcripts/dist/index.js';

const dir = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv[2] ?? '';
const writers = { 'claude-code': hosts.claudeCode, codex: hosts.codex, openai: hosts.openai, hermes: hosts.hermes, pi: hosts.pi };
for (const f of readdirSync(join(dir, 'src')).filter((x) => x.endsWith('.mjs') && x.startsWith(only)).sort()) {
  const { build } = await import(pathToFileURL(join(dir, 'src', f)).href);
  const { file, host, script, options } = build();
  const text = writers[host](script, options ?? {});
  writeFileSync(join(dir, file), text);
  const t = await readTranscriptFile(join(dir, file));
  const r = t.report;
  const problems = [r.format !== host && `read as ${r.format}`, r.repairedCalls && `${r.repairedCalls} repaired calls`, r.orphanResults && `${r.orphanResults} orphan results`, r.problems.length && `${r.problems.length} problems`].filter(Boolean);
  if (problems.length) process.exitCode = 1;
  const messages = script.turns.reduce((n, t) => n + (t.kind === 'tools' ? 1 + t.calls.length : t.kind === 'raw' ? 0 : 1), 0);
  console.log(`${file.padEnd(48)} ${host.padEnd(12)} ${String(messages).padStart(4)} messages ${String(Math.round(text.length / 1024)).padStart(4)} KB  ${problems.length ? 'PROBLEM: ' + problems.join(', ') : `reads back (${r.compactions} host compaction${r.compactions === 1 ? '' : 's'})`}`);
}
