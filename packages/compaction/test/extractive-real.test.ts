import { describe, expect, it } from 'vitest';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTranscriptFile } from '@hive-mind/transcripts';
import { extractAnchors, extractSections, firstErrorLine, isSubstantiveRequest, renderSections } from '@hive-mind/compaction';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = resolve(here, '../../../../shared/data/transcripts');

async function sections(rel: string) {
  const t = await readTranscriptFile(join(dataDir, rel));
  const surface = t.log.surface();
  const secs = extractSections(surface);
  const get = (h: string) => secs.find((s) => s.heading === h)?.items ?? [];
  return { surface, secs, get, text: renderSections(secs) };
}

describe('extractive checkpoint quality on real transcripts', () => {
  it('requests: slash commands, acknowledgements and hook output are not the request', () => {
    for (const t of ['/mode', 'ok', 'yes', 'continue', 'yo', 'can leave it', 'Stop hook feedback:\n[stop.sh]: uncommitted changes']) expect(isSubstantiveRequest(t), t).toBe(false);
    expect(isSubstantiveRequest('Port this Python project to Rust.')).toBe(true);
  });

  it('python-to-rust-port: the primary request is the port; finished work says so and waits for the user', async () => {
    const { get } = await sections('claude-code/python-to-rust-port.jsonl');
    expect(get('Primary request and intent')[0]).toMatch(/^First request: "Port this Python project to Rust/);
    expect(get('Primary request and intent').join('\n')).not.toContain('Stop hook feedback');
    const next = get('Next step');
    expect(next).toHaveLength(1);
    expect(next[0]).toMatch(/reported complete .*wait for the user's next request/);
    expect(next[0]).not.toContain('Continue the latest');
    // this project itself lives under /tmp: its files are not scratch files
    expect(get('Files modified').join('\n')).toContain('/tmp/tmpqwh7888i/src/lib.rs');
  });

  it('pi/large-session: no slash command as the request, no /tmp scratch files, no call ids in Pending tasks', async () => {
    const { get } = await sections('pi/large-session.jsonl');
    const primary = get('Primary request and intent');
    expect(primary[0]).toMatch(/^First request: "/);
    expect(primary[0]).not.toMatch(/^First request: "\//);
    expect(get('Files modified').length).toBeGreaterThan(0);
    for (const f of get('Files modified')) expect(f).not.toMatch(/^`\/tmp\//);
    const pending = get('Pending tasks').join('\n');
    expect(pending).not.toMatch(/toolu_|call_[A-Za-z0-9]{6}|\(\w{20,}\)/);
    expect(get('Pending tasks').filter((p) => /interrupted without a result/.test(p)).length).toBeLessThanOrEqual(1);
  });

  it('pi/before-compaction: no acknowledgement as a request or next step, short error lines, decisions are not narration', async () => {
    const { get, surface } = await sections('pi/before-compaction.jsonl');
    const primary = get('Primary request and intent').join('\n');
    expect(primary).not.toMatch(/request: "(?:can leave it|ok)"/);
    expect(get('Next step').join('\n')).not.toMatch(/request: "ok"/);
    // Errors: one line each (what, error line, what followed), never a whole minified blob
    for (const e of get('Errors and fixes')) expect(e.length, e.slice(0, 80)).toBeLessThanOrEqual(500);
    for (const d of get('Decisions')) expect(d).not.toMatch(/\blet me\b/i);
    // anchors: the last request is a substantive one
    const last = extractAnchors(surface, []).find((a) => a.kind === 'last-request');
    expect(last && isSubstantiveRequest(last.text)).toBe(true);
  });

  it('firstErrorLine cuts a long minified line to a window around the error word', () => {
    const blob = 'var a=function(){return 1};'.repeat(200) + 'throw new Error("boom");' + 'b();'.repeat(300);
    const l = firstErrorLine(`${blob}\nsome output`)!;
    expect(l.length).toBeLessThanOrEqual(200);
    expect(l).toContain('Error("boom")');
    expect(firstErrorLine(`${blob}\nError: cannot find module foo`)).toBe('Error: cannot find module foo');
  });
});
