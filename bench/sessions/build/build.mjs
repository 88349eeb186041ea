#!/usr/bin/env node
// Writes every session of bench/sessions/src/*.mjs into bench/sessions/ in its host's format.
//   node bench/sessions/build/build.mjs            # all
//   node bench/sessions/build/build.mjs fr-        # the ones whose file name starts with fr-
// The written files are committed; rebuild only after editing a script (the output is deterministic).
import { readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import * as hosts from './hosts.mjs';

const dir = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv[2] ?? '';
const writers = { 'claude-code': hosts.claudeCode, codex: hosts.codex, openai: hosts.openai, hermes: hosts.hermes, pi: hosts.pi };
for (const f of readdirSync(join(dir, 'src')).filter((x) => x.endsWith('.mjs') && x.startsWith(only)).sort()) {
  const { build } = await import(pathToFileURL(join(dir, 'src', f)).href);
  const { file, host, script, options } = build();
  const text = writers[host](script, options ?? {});
  writeFileSync(join(dir, file), text);
  const messages = script.turns.reduce((n, t) => n + (t.kind === 'tools' ? 1 + t.calls.length : t.kind === 'raw' ? 0 : 1), 0);
  console.log(`${file.padEnd(48)} ${host.padEnd(12)} ${String(messages).padStart(4)} messages ${String(Math.round(text.length / 1024)).padStart(4)} KB`);
}
