import { describe, expect, it } from 'vitest';
import { appendFileSync, copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastTurnFromTranscript, readTailLines, summarizeExtractive } from '../src/index.js';
import { DATA } from './helpers.js';

describe('summarizeExtractive', () => {
  it('keeps short text whole and bounds long text, preferring signal sentences in order', () => {
    expect(summarizeExtractive('Done.  All   good.')).toBe('Done. All good.');
    const filler = Array.from({ length: 40 }, (_, i) => `Filler sentence number ${i} says little of use here.`).join(' ');
    const text = `I looked at the repository. ${filler} Fixed the off-by-one error in src/parser.ts by checking the bound. ${filler} All 42 tests passed.`;
    const s = summarizeExtractive(text, 300);
    expect(s.length).toBeLessThanOrEqual(300);
    expect(s).toContain('Fixed the off-by-one error in src/parser.ts');
    expect(s.indexOf('I looked')).toBeLessThan(s.indexOf('Fixed'));
  });
});

describe('transcript tail', () => {
  it('reads the last assistant message of the real Claude Code 2.1.332 transcript', () => {
    const t = lastTurnFromTranscript(join(DATA, 'transcripts/claude-code/native-compact-2.1.332.jsonl'));
    expect(t.assistantText).toBe('Hello from fake model.');
    expect(t.userText).toBe('remember that the build uses pnpm');
  });
  it('reads the last assistant message of the real Codex 0.171 rollout', () => {
    const t = lastTurnFromTranscript(join(DATA, 'transcripts/codex/hello-0.171.jsonl'));
    expect(t.assistantText).toBe('Hello from fake codex model.');
    expect(t.userText).toBe('say hi');
  });
  it('reads only a bounded tail of a large file and drops the cut first line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hm-tail-'));
    const f = join(dir, 't.jsonl');
    copyFileSync(join(DATA, 'transcripts/claude-code/python-to-rust-port.jsonl'), f);
    const big = JSON.stringify({ type: 'user', message: { content: 'x'.repeat(2_000_000) } });
    appendFileSync(f, big + '\n');
    appendFileSync(f, JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: 'The port is complete.' }] } }) + '\n');
    const lines = readTailLines(f, 64 * 1024);
    expect(lines).toHaveLength(1);
    expect(lastTurnFromTranscript(f, 64 * 1024).assistantText).toBe('The port is complete.');
    writeFileSync(join(dir, 'junk.jsonl'), 'not json\n{"type":"assistant"\n');
    expect(lastTurnFromTranscript(join(dir, 'junk.jsonl'))).toEqual({});
  });
});
