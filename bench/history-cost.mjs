#!/usr/bin/env node
// What the history costs (issue 21, mind README "History"): frames and bytes per 1,000 turns, on the
// product's own paths, printed, never asserted.
//
//   chat:   every LoCoMo conversation of ../shared/data/locomo-dev lived through Claude Code's hook
//           runner in process (bench/memory-e2e/driver.mjs: speaker A's turns as UserPromptSubmit,
//           B's as the Stop reply, SessionEnd with the transcript), one fresh home per run;
//   coding: every shared transcript of ../shared/data/transcripts read by `hive-mind mind import`
//           into one fresh mind (past sessions stored as turns the same way).
//
// For each: the turns kept (kinds prompt/reply), the other frames beside them (standing memory,
// files, fixes), their mean length in characters, and the .mind file's size once every connection
// closed (SQLite checkpoints the WAL into the file on the last close), per 1,000 turns.
//
// Usage: node bench/history-cost.mjs [--part chat,coding]   (needs `npm run build`)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cli, root, parseLocomoDate } from './lib.mjs';
import { freshUser } from './memory-e2e/driver.mjs';
import { replay, turnsPlan } from './memory-e2e/replay.mjs';

const i = process.argv.indexOf('--part');
const parts = new Set((i > 0 ? process.argv[i + 1] : 'chat,coding').split(','));
const { Mind } = await import(join(root, 'packages/mind/dist/index.js'));
const data = join(root, '..', 'shared', 'data');

/** The .mind files under a HIVE_MIND home. */
function mindFiles(home) {
  const out = [];
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.mind')) out.push(p);
    }
  };
  walk(home);
  return out;
}

/** Turns, other frames, their characters, and bytes over the .mind files `paths`. */
function measure(paths) {
  const r = { turns: 0, turnChars: 0, others: 0, byKind: {}, bytes: 0 };
  for (const p of paths) {
    const m = Mind.open(p, { readonly: true });
    try {
      for (const f of m.list({ history: true, limit: 100_000 })) {
        if (f.kind === 'prompt' || f.kind === 'reply') {
          r.turns++;
          r.turnChars += f.content.length;
        } else {
          r.others++;
          r.byKind[f.kind] = (r.byKind[f.kind] ?? 0) + 1;
        }
      }
    } finally {
      m.close();
    }
    for (const s of ['', '-wal']) if (existsSync(p + s)) r.bytes += statSync(p + s).size;
  }
  return r;
}

function report(label, r) {
  const per = 1000 / Math.max(1, r.turns);
  console.log(`${label}: ${r.turns} turns (mean ${Math.round(r.turnChars / Math.max(1, r.turns))} characters), ${r.others} other frames (${Object.entries(r.byKind).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}), ${(r.bytes / 1e6).toFixed(2)} MB`);
  console.log(`  per 1,000 turns: ${Math.round((r.turns + r.others) * per)} frames (1,000 turns + ${Math.round(r.others * per)} beside them), ${((r.bytes * per) / 1e6).toFixed(2)} MB`);
}


if (parts.has('chat')) {
  const dir = join(data, 'locomo-dev');
  const user = freshUser('history-cost');
  let last = new Date('2023-01-01T00:00:00Z');
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
    const conv = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    const c = conv.conversation ?? conv;
    const sessions = Object.keys(c).filter((k) => /^session_\d+$/.test(k) && Array.isArray(c[k])).sort((x, y) => Number(x.split('_')[1]) - Number(y.split('_')[1]));
    for (const s of sessions) {
      const d0 = parseLocomoDate(c[`${s}_date_time`]) ?? new Date(last.getTime() + 86_400_000);
      const turns = [];
      c[s].forEach((t, k) => {
        const time = new Date(d0.getTime() + k * 30_000);
        const said = `${t.text}${t.blip_caption ? ` [image: ${t.blip_caption}]` : ''}`;
        const prev = turns[turns.length - 1];
        if (t.speaker === c.speaker_a) turns.push({ prompt: said, time });
        else if (prev && prev.prompt !== undefined && prev.reply === undefined) prev.reply = said;
        else turns.push({ reply: said, time });
        last = time;
      });
      await replay(user, turnsPlan(turns, { key: `cost:${f}:${s}`, cwd: user.project, start: new Date(d0.getTime() - 60_000), end: new Date(last.getTime() + 60_000) }));
    }
  }
  report(`chat (LoCoMo ${dir}, through the hook runner)`, measure(mindFiles(user.home)));
  user.dispose();
}

if (parts.has('coding')) {
  const user = freshUser('history-cost-import');
  const target = join(user.dir, 'import.mind');
  const r = spawnSync(process.execPath, [cli, 'mind', 'import', '--mind', target, '--json', join(data, 'transcripts')], { env: user.env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0 && !existsSync(target)) throw new Error(`mind import failed (exit ${r.status}): ${r.stderr.slice(0, 400)}`);
  const out = JSON.parse(r.stdout);
  const files = mindFiles(user.dir);
  console.log(`coding: mind import of ${out.total?.files ?? 1} transcripts (${out.total?.skipped ?? 0} skipped) -> ${files.length} mind file(s)`);
  report(`coding (${join(data, 'transcripts')}, through mind import)`, measure(files));
  user.dispose();
}
