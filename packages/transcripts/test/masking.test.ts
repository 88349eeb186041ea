import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkInvariants } from '@hive-mind/session';
import { parseTranscript, readTranscriptFile, writeTranscript } from '@hive-mind/transcripts';
import { DATA, compactHalf, maskOldResults, surfaceShape } from './helpers.js';

// Masking (issue #3 part 4) lands single-node replaces, not a checkpoint: write-back must
// carry the new content too.
describe('write same after masking', () => {
  for (const f of ['claude-code/python-to-rust-port.jsonl', 'claude-code/coverage-test-fix.jsonl', 'pi/large-session.jsonl', 'pi/before-compaction.jsonl']) {
    it(`${f}: masked only`, async () => {
      const t = await readTranscriptFile(DATA + f);
      expect(maskOldResults(t)).toBeGreaterThan(3);
      const out = writeTranscript(t, 'same');
      expect(out.startsWith(readFileSync(DATA + f, 'utf8'))).toBe(true);
      const t2 = parseTranscript(out);
      const got = surfaceShape(t2);
      const want = surfaceShape(t);
      if (t.format === 'pi' && t.log.surface()[0]!.kind !== 'checkpoint') {
        // pi has no way to change a kept entry: a compaction entry with a short note, then the tail again
        expect(t2.log.surface()[0]!.kind).toBe('checkpoint');
        expect(got.slice(1)).toEqual(want.filter((n) => n.type !== 'system/message'));
      } else expect(got).toEqual(want);
      expect(JSON.stringify(got)).toContain('[masked ');
      expect(checkInvariants(t2.log.events()).violations).toEqual([]);
    });
    it(`${f}: masked, then summarized`, async () => {
      const t = await readTranscriptFile(DATA + f);
      maskOldResults(t, 6);
      compactHalf(t);
      const t2 = parseTranscript(writeTranscript(t, 'same'));
      expect(surfaceShape(t2)).toEqual(surfaceShape(t));
      expect(checkInvariants(t2.log.events()).violations).toEqual([]);
    });
  }

  it('Claude Code: a masked tool_result line keeps its record, drops toolUseResult, gets the new content', async () => {
    const f = 'claude-code/python-to-rust-port.jsonl';
    const t = await readTranscriptFile(DATA + f);
    maskOldResults(t);
    const original = readFileSync(DATA + f, 'utf8');
    const added = writeTranscript(t, 'same').slice(original.length).trim().split('\n').map((l) => JSON.parse(l));
    expect(added[0].subtype).toBe('compact_boundary');
    expect(added[1].isCompactSummary).toBeUndefined();
    const masked = added.find((r) => JSON.stringify(r.message?.content ?? '').includes('[masked '));
    expect(masked.type).toBe('user');
    expect(masked.toolUseResult).toBeUndefined();
    expect(masked.message.content[0]).toMatchObject({ type: 'tool_result', content: [{ type: 'text', text: '[masked tool output]' }] });
  });

  it('Codex: a compacted item with an empty message and the masked history', async () => {
    const text = [
      { timestamp: 't0', type: 'session_meta', payload: { id: 's', base_instructions: { text: 'sys' } } },
      { timestamp: 't1', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] } },
      ...[1, 2, 3].flatMap((i) => [
        { timestamp: 't', type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{}', call_id: `c${i}` } },
        { timestamp: 't', type: 'response_item', payload: { type: 'function_call_output', call_id: `c${i}`, output: `output ${i} `.repeat(20) } },
      ]),
    ]
      .map((r) => JSON.stringify(r))
      .join('\n');
    const t = parseTranscript(text);
    maskOldResults(t, 1);
    const out = writeTranscript(t, 'same');
    const last = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(last.type).toBe('compacted');
    expect(last.payload.message).toBe('');
    expect(last.payload.replacement_history.filter((h: { type: string }) => h.type === 'function_call_output').map((h: { output: string }) => h.output.startsWith('[masked'))).toEqual([true, true, false]);
    const t2 = parseTranscript(out);
    expect(surfaceShape(t2)).toEqual(surfaceShape(t));
  });
});
