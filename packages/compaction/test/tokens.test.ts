import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { MAX_ENCODED_RUN, TokenMeter, countLinear } from '../src/tokens.js';
import { MemorySessionLog, type SessionEvent } from '@hive-mind/session';

const require_ = createRequire(import.meta.url);
const enc = require_('gpt-tokenizer/encoding/o200k_base') as { countTokens: (t: string, o?: unknown) => number };
const exact = (t: string) => enc.countTokens(t, { disallowedSpecial: new Set(), allowedSpecial: new Set() });
const meter = new TokenMeter();

describe('token counting on pathological input', () => {
  it('counts a long run of one character exactly, in slices', () => {
    // 8 letters per o200k token: 200k characters are 25,000 tokens (the unsliced encoder needs minutes for this)
    expect(meter.countText('a'.repeat(200_000))).toBe(25_000);
    expect(exact('a'.repeat(4096))).toBe(512);
  });

  it('is exact on ordinary text and within one token per slice on long runs of mixed characters', () => {
    const prose = 'The build failed with `TS2345: Argument of type string` in src/engine.ts; rerun npm test after the fix.\n'.repeat(300);
    expect(meter.countText(prose)).toBe(exact(prose));
    const minified = 'function(a,b){return a.map(x=>x*2).filter(Boolean)};var q=document.getElementById("app");'.repeat(60);
    const base64 = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) % 256)).toString('base64');
    const spaces = ' '.repeat(3000);
    for (const t of [minified, base64, spaces, `intro ${base64} outro`, `${prose}${minified}${spaces}${prose}`]) {
      const slices = Math.ceil(t.length / ((MAX_ENCODED_RUN * 3) / 4));
      const got = meter.countText(t);
      expect(Math.abs(got - exact(t)), `${t.slice(0, 20)}… (${t.length} chars)`).toBeLessThanOrEqual(slices);
    }
  });

  it('hands text without a long run to the encoder whole', () => {
    const seen: string[] = [];
    countLinear('short text with words', (t) => (seen.push(t), 1));
    expect(seen).toEqual(['short text with words']);
    seen.length = 0;
    countLinear(`x ${'b'.repeat(600)} y`, (t) => (seen.push(t), 1));
    expect(seen.map((s) => s.length)).toEqual([2, 256, 256, 88, 2]);
  });
});

describe('per-event count cache', () => {
  it('gives each log its own counts when one meter measures two logs (same seqs, different content)', () => {
    // The CLI and a bench measure several transcripts with one meter; both logs start at seq 1.
    const short = new MemorySessionLog('short');
    short.append([
      { type: 'user/message', content: [{ type: 'text', text: 'hi' }] },
      { type: 'assistant/message', content: [{ type: 'text', text: 'hello' }] },
    ]);
    const long = new MemorySessionLog('long');
    const report = 'npm test: 214 passed, 3 failed in packages/compaction (engine.test.ts, plan.test.ts)\n'.repeat(50);
    long.append([
      { type: 'user/message', content: [{ type: 'text', text: 'run the tests and paste the report' }] },
      { type: 'assistant/message', content: [{ type: 'text', text: report }] },
    ]);
    const shared = new TokenMeter();
    const a = shared.countEvents(short.surface());
    const b = shared.countEvents(long.surface());
    expect(a).toBe(new TokenMeter().countEvents(short.surface()));
    expect(b).toBe(new TokenMeter().countEvents(long.surface()));
    expect(b).toBeGreaterThan(a * 20);
    // plain arrays of events built by hand (seq 1 each time) are counted by their content too
    const ev = (text: string) => ({ seq: 1, ts: '2026-01-01T00:00:00Z', type: 'user/message', content: [{ type: 'text', text }] }) as SessionEvent;
    expect(shared.countEvent(ev('x'))).toBeLessThan(shared.countEvent(ev(report)));
  });
});
