import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DATA } from './helpers.js';

// The built CLI (needs `npx tsc -b packages/cli` first).
const BIN = fileURLToPath(new URL('../../cli/bin/hive-mind.js', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
const dir = mkdtempSync(join(tmpdir(), 'hm-inspect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hive-mind inspect (built binary)', () => {
  it('--json on pi/before-compaction.jsonl prints exactly the documented fields', () => {
    const r = run('inspect', DATA + 'pi/before-compaction.jsonl', '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['format', 'events', 'messages', 'toolCalls', 'toolResults', 'repairedCalls', 'compactions', 'surfaceTokens', 'logTokens', 'largest']);
    expect(out).toMatchObject({ format: 'pi', toolCalls: 454, repairedCalls: 6, compactions: 2, messages: { user: 58, assistant: 484, tool: 448, other: 6 } });
    expect(Object.keys(out.messages)).toEqual(['user', 'assistant', 'tool', 'other']);
    expect(out.surfaceTokens).toBeGreaterThan(0);
    expect(out.logTokens).toBeGreaterThan(out.surfaceTokens);
    expect(out.largest).toHaveLength(5);
    for (const l of out.largest) expect(Object.keys(l)).toEqual(['seq', 'type', 'tokens']);
  });

  it('--json on every other real file', () => {
    const expected: Record<string, object> = {
      'pi/large-session.jsonl': { format: 'pi', toolCalls: 391, repairedCalls: 18, compactions: 0 },
      'claude-code/python-to-rust-port.jsonl': { format: 'claude-code', toolCalls: 39, toolResults: 39, repairedCalls: 0, compactions: 0, messages: { user: 2, assistant: 55, tool: 39, other: 0 } },
      'claude-code/coverage-test-fix.jsonl': { format: 'claude-code', toolCalls: 13, toolResults: 13, messages: { user: 3, assistant: 21, tool: 13, other: 0 } },
      'claude-code/native-compact-2.1.332.jsonl': { format: 'claude-code', toolCalls: 0, compactions: 1, messages: { user: 4, assistant: 1, tool: 0, other: 1 } },
      'codex/hello-0.171.jsonl': { format: 'codex', toolCalls: 0, compactions: 0, messages: { user: 2, assistant: 1, tool: 0, other: 3 } },
    };
    for (const [f, want] of Object.entries(expected)) {
      const r = run('inspect', DATA + f, '--json');
      expect(r.status, f).toBe(0);
      expect(JSON.parse(r.stdout), f).toMatchObject(want);
    }
  });

  it('human output by default', () => {
    const r = run('inspect', DATA + 'pi/before-compaction.jsonl');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/format\s+pi/);
    expect(r.stdout).toMatch(/tool calls\s+454 \(448 results recorded, 6 repaired as unanswered/);
    expect(r.stdout).toMatch(/compactions\s+2/);
  });

  it('bad input exits 2 with one line naming file and line; --lenient skips and counts', () => {
    const p = join(dir, 'bad.jsonl');
    writeFileSync(p, '{"type":"session","id":"x","timestamp":"2025-01-01T00:00:00Z"}\n{"type":"message","message":{"role":"user","content":"hi"}}\nnot json\n');
    const r = run('inspect', p, '--json');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.startsWith(`hive-mind: ${p}:3: invalid JSON (`)).toBe(true);
    const l = run('inspect', p, '--lenient');
    expect(l.status).toBe(0);
    expect(l.stdout).toMatch(/1 bad lines skipped/);
    expect(l.stdout).toMatch(/skipped line 3: invalid JSON/);
    const e = join(dir, 'empty.json');
    writeFileSync(e, '');
    const r2 = run('inspect', e);
    expect(r2.status).toBe(2);
    expect(r2.stderr).toBe(`hive-mind: ${e}: empty file: no records\n`);
  });

  it('file-level errors name the file without a line: missing, a directory, hive-mind Markdown', () => {
    const missing = join(dir, 'missing.jsonl');
    const r = run('inspect', missing);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`hive-mind: ${missing}: no such file\n`);
    const d = run('inspect', dir, '--json');
    expect(d.status).toBe(2);
    expect(d.stderr).toBe(`hive-mind: ${dir}: is a directory, not a transcript file\n`);
    // Markdown written by compact --to markdown is for reading only
    const md = join(dir, 'session.md');
    const c = run('compact', DATA + 'pi/large-session.jsonl', '--budget', '120000', '--strategy', 'mask', '--to', 'markdown', '--out', md);
    expect(c.status).toBe(0);
    const m = run('inspect', md);
    expect(m.status).toBe(2);
    expect(m.stderr).toMatch(/^hive-mind: .*session\.md: unknown transcript format: this is Markdown as written by hive-mind's --to markdown, which is for reading and cannot be read back; use the original transcript/);
    expect(m.stderr).not.toMatch(/invalid JSON|:1:/);
    expect(m.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
