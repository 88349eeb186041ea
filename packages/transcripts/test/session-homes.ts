/** Fake homes holding real session files (shared/data/transcripts) where each host keeps them. */
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA } from './helpers.js';

export const CC_ID = 'c7d3d95c-57f0-4359-8f4b-926a9bef5a3f';
export const CODEX_ID = '01a22b21-91e8-79f2-ab97-1db6238ee3b0';
export const PI_ID = 'ffae836b-9420-4060-ac13-7745215f90ff';

/** Set a file's times `seconds` into the past (a session no host has written since). */
export function age(file: string, seconds = 120): void {
  const t = new Date(Date.now() - seconds * 1000);
  utimesSync(file, t, t);
}

/** A home holding one real session of each host, all started in `cwd` (the recorded folder rewritten), Claude Code the newest. */
export function homeWithSessions(roots: string[]) {
  const root = mkdtempSync(join(tmpdir(), 'hm-sessions-'));
  roots.push(root);
  const home = join(root, 'home');
  const cwd = join(root, 'my project');
  mkdirSync(cwd, { recursive: true });
  const env = { HOME: home };
  const cc = join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), `${CC_ID}.jsonl`);
  mkdirSync(join(cc, '..'), { recursive: true });
  writeFileSync(cc, readFileSync(DATA + 'claude-code/python-to-rust-port.jsonl', 'utf8').replaceAll('"/tmp/tmpqwh7888i', JSON.stringify(cwd).slice(0, -1)));
  const codex = join(home, '.codex', 'sessions', '2026', '11', '30', `rollout-2026-11-30T06-25-50-${CODEX_ID}.jsonl`);
  mkdirSync(join(codex, '..'), { recursive: true });
  writeFileSync(codex, readFileSync(DATA + 'codex/hello-0.171.jsonl', 'utf8').replaceAll('"/home/user/project"', JSON.stringify(cwd)));
  const pi = join(home, '.pi', 'agent', 'sessions', `--${cwd.slice(1).replace(/[/\\:]/g, '-')}--`, `2025-12-09T00-53-29-825Z_${PI_ID}.jsonl`);
  mkdirSync(join(pi, '..'), { recursive: true });
  writeFileSync(pi, readFileSync(DATA + 'pi/before-compaction.jsonl', 'utf8').replace('"cwd":"/home/user/workspaces/pi-mono"', `"cwd":${JSON.stringify(cwd)}`));
  const hermes = join(home, '.hermes', 'sessions', 'session_20260101_120000_abc123.json');
  mkdirSync(join(hermes, '..'), { recursive: true });
  writeFileSync(hermes, JSON.stringify({ session_id: '20260101_120000_abc123', model: 'm', messages: [{ role: 'user', content: 'hi' }] }, null, 2));
  age(hermes, 400);
  age(pi, 300);
  age(codex, 200);
  age(cc, 100);
  return { root, home, cwd, env, cc, codex, pi, hermes };
}

