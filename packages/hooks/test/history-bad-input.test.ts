/**
 * The history under bad input (issue 21, "Bad input"), through the REAL built CLI (`hive-mind hook
 * claude-code …` as child processes): a 1 MB prompt, invalid UTF-8 in a reply, a transcript of 100,000
 * turns at SessionEnd. Each run exits 0 within the hook's watchdog, and what is stored is whole turns:
 * a long turn cut with its marker, never half a turn, nothing stored twice. Needs `npx tsc -b packages/cli`.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HISTORY_TURN_MAX_CHARS, Mind, workspaceMindPath } from '@hive-mind/mind';
import { logLines, payload, runCli, sandbox } from './helpers.js';

function turns(path: string) {
  const m = Mind.open(path, { readonly: true });
  try {
    // a long turn is saved in parts: the turn is its first part, `get` gives it whole
    return m
      .list({ history: true, limit: 100_000 })
      .filter((f) => (f.kind === 'prompt' || f.kind === 'reply') && f.part === 0)
      .map((f) => m.get(f.id)!);
  } finally {
    m.close();
  }
}

describe('the history under bad input (real hook processes)', { timeout: 180_000 }, () => {
  it('a 1 MB prompt: exit 0, kept as one turn cut to the history limit with its marker', async () => {
    const s = sandbox();
    const big = Array.from({ length: 20_000 }, (_, i) => `Line ${i} of the pasted build log: step ok.`).join('\n');
    expect(big.length).toBeGreaterThan(800_000);
    const p = { ...payload('claude-code', 'UserPromptSubmit', 2, s.project), prompt: `Why does this build fail?\n${big}` };
    const r = await runCli(['hook', 'claude-code', 'UserPromptSubmit'], JSON.stringify(p), s.env);
    expect(r.killedByTest).toBe(false);
    expect(r.code).toBe(0);
    const t = turns(workspaceMindPath(s.project, s.env));
    expect(t).toHaveLength(1);
    expect(t[0]!.kind).toBe('prompt');
    expect(t[0]!.content.startsWith('Why does this build fail?')).toBe(true);
    expect(t[0]!.content.length).toBeLessThanOrEqual(HISTORY_TURN_MAX_CHARS + 200);
    expect(t[0]!.content).toMatch(/\[… [\d,]+ characters of this turn not kept in the history …\]/);
    expect(t[0]!.content).toContain('Line 19999 of the pasted build log');
  });

  it('invalid UTF-8 in a reply: exit 0, the turn kept with U+FFFD where the bytes were', async () => {
    const s = sandbox();
    const json = JSON.stringify({ ...payload('claude-code', 'Stop', 0, s.project), last_assistant_message: 'The staging API listens on port 8443 XX now.' });
    const at = Buffer.from(json).indexOf(Buffer.from('XX'));
    const bytes = Buffer.from(json);
    bytes[at] = 0xff;
    bytes[at + 1] = 0xfe;
    const r = await runCli(['hook', 'claude-code', 'Stop'], bytes, s.env);
    expect(r.code).toBe(0);
    const t = turns(workspaceMindPath(s.project, s.env));
    expect(t.map((f) => f.kind)).toEqual(['reply']);
    expect(t[0]!.content).toMatch(/^The staging API listens on port 8443 \uFFFD+ now\.$/);
  });

  it('a transcript of 100,000 turns at SessionEnd: exit 0 within the watchdog; its newest turns kept whole, the rest said in the log; again: nothing twice', async () => {
    const s = sandbox();
    const sid = String(payload('claude-code', 'SessionEnd', 0, s.project).session_id);
    const lines: string[] = [];
    const t0 = Date.parse('2026-04-01T08:00:00Z');
    for (let i = 0; i < 50_000; i++) {
      const ts = (k: number) => new Date(t0 + (2 * i + k) * 1000).toISOString();
      lines.push(JSON.stringify({ type: 'user', sessionId: sid, cwd: s.project, promptId: `p${i}`, uuid: `u${i}`, timestamp: ts(0), message: { role: 'user', content: `Question ${i}: is the ledger job ${i} done?` } }));
      lines.push(JSON.stringify({ type: 'assistant', sessionId: sid, cwd: s.project, uuid: `a${i}`, timestamp: ts(1), message: { id: `msg_${i}`, role: 'assistant', content: [{ type: 'text', text: `Ledger job ${i} finished and its report is in reports/${i}.csv.` }] } }));
    }
    const path = join(s.root, 'long.jsonl');
    writeFileSync(path, lines.join('\n') + '\n');
    const p = { ...payload('claude-code', 'SessionEnd', 0, s.project), transcript_path: path };
    const r = await runCli(['hook', 'claude-code', 'SessionEnd'], JSON.stringify(p), s.env);
    expect(r.killedByTest).toBe(false);
    expect(r.code).toBe(0);
    const mind = workspaceMindPath(s.project, s.env);
    const kept = turns(mind);
    // only the transcript's tail is read (8 MiB), so fewer than 100,000, the newest first: at least the
    // newest batch of 50 whatever the machine's load; each one whole, and the last turn is there
    expect(kept.length).toBeGreaterThanOrEqual(50);
    expect(kept.length).toBeLessThan(100_000);
    expect(kept.every((f) => /^(Question \d+: is the ledger job \d+ done\?|Ledger job \d+ finished and its report is in reports\/\d+\.csv\.)$/.test(f.content))).toBe(true);
    expect(kept.some((f) => f.content === 'Ledger job 49999 finished and its report is in reports/49999.csv.')).toBe(true);
    // the time each was said, from the transcript
    expect(kept.find((f) => f.content.startsWith('Question 49999:'))!.createdAt).toBe(new Date(t0 + 99_998_000).toISOString());
    const cut = logLines(join(s.home, 'logs', 'hooks.log')).filter((l) => /transcript backfill kept the newest \d+ of \d+ turns/.test(l));
    // a second SessionEnd stores nothing twice
    const again = await runCli(['hook', 'claude-code', 'SessionEnd'], JSON.stringify(p), s.env);
    expect(again.code).toBe(0);
    const after = turns(mind);
    expect(new Set(after.map((f) => f.content)).size).toBe(after.length);
    expect(after.length).toBeGreaterThanOrEqual(kept.length);
    // when the time cap cut the backfill, the log says how far it got and how to keep the rest
    for (const l of cut) expect(l).toMatch(/hive-mind mind import /);
  });

  it('a folder as transcript_path at SessionEnd: exit 0, and the log line names the path', async () => {
    const s = sandbox();
    const p = { ...payload('claude-code', 'SessionEnd', 0, s.project), transcript_path: s.project };
    const r = await runCli(['hook', 'claude-code', 'SessionEnd'], JSON.stringify(p), s.env);
    expect(r.code).toBe(0);
    const lines = logLines(join(s.home, 'logs', 'hooks.log'));
    expect(lines.some((l) => l.includes('EISDIR') && l.includes(s.project)), lines.join('\n')).toBe(true);
  });

  it('binary bytes on stdin: exit 0, and the log line holds no raw control character', async () => {
    const s = sandbox();
    const bytes = Buffer.from([0x7b, 0x00, 0x01, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0x07, 0xff, 0x7f, 0x0a]);
    const r = await runCli(['hook', 'claude-code', 'UserPromptSubmit'], bytes, s.env);
    expect(r.code).toBe(0);
    const lines = logLines(join(s.home, 'logs', 'hooks.log'));
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});

