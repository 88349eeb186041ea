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
  const get = (h: string) => (secs.find((s) => s.heading === h)?.items ?? []).map((i) => i.text);
  return { surface, secs, get, text: renderSections(secs) };
}

describe('extractive checkpoint on real transcripts', () => {
  it('requests: slash commands, acknowledgements, nudges and hook output are not the request', () => {
    for (const t of ['/mode', 'ok', 'yes', 'continue', 'yo', 'can leave it', 'Good. Continue with module 7.', 'ok, continue', 'Stop hook feedback:\n[stop.sh]: uncommitted changes']) expect(isSubstantiveRequest(t), t).toBe(false);
    expect(isSubstantiveRequest('Port this Python project to Rust.')).toBe(true);
  });

  it('python-to-rust-port: the goal is the port, the sub-agent is summarized by its findings, finished work waits for the user', async () => {
    const { get } = await sections('claude-code/python-to-rust-port.jsonl');
    expect(get('Goal')[0]).toMatch(/^Port this Python project to Rust/);
    expect(get('Goal').join('\n')).not.toContain('Stop hook feedback');
    expect(get('Findings').some((d) => /^Sub-agent "Explore Python project structure" \(Task, ok\) found: /.test(d))).toBe(true);
    expect(get('Done').some((d) => d.startsWith('Committed "Port Python utility library to Rust"'))).toBe(true);
    // the deleted Python sources are said to be deleted; the project itself lives under /tmp, so its files are not scratch files
    expect(get('Files').join('\n')).toMatch(/`src\/math_utils\.py` \(deleted\)/);
    expect(get('Files').join('\n')).toMatch(/`src\/string_utils\.rs` \(created\)/);
    expect(get('Commands').join('\n')).not.toContain('rm -r');
    const next = get('Next step');
    expect(next).toHaveLength(1);
    expect(next[0]).toMatch(/wait for the user's next request/);
  });

  it('pi/large-session: no slash command as the goal, no globs or import specifiers as files, the undone change is rejected once', async () => {
    const { get, text } = await sections('pi/large-session.jsonl');
    // the first request (port user-message-selector.ts) was reported done and the session moved on to the theme work
    expect(get('Goal')[0]).toMatch(/^The work on the theme, which \d+ of the \d+ later requests name \(the files it changed most: `dark\.json`, `theme\.ts`/);
    expect(get('Goal').join('\n')).not.toContain('user-message-selector');
    for (const f of get('Files')) {
      expect(f).not.toMatch(/^`\/tmp\/[^/]+`/);
      expect(f).not.toMatch(/[*?]/);
      expect(f).not.toMatch(/^`\.\.?\/[^`.]+`/);
    }
    const rejected = get('Rejected or reverted').filter((r) => r.includes('user-message-selector.ts'));
    expect(rejected).toHaveLength(1);
    // its cut-off edits (pi's `stopReason: "error"`) were edited past: no open work, never "re-run"
    expect(get('In progress').filter((p) => /without a result|re-run/.test(p))).toHaveLength(0);
    expect(text).not.toMatch(/toolu_|call_[A-Za-z0-9]{6}/);
  });

  it('pi/before-compaction: the pasted log is said as an error, no acknowledgement as a request, errors paired with their fix, decisions are not narration or code', async () => {
    const { get, surface } = await sections('pi/before-compaction.jsonl');
    expect(get('In progress').join('\n')).not.toMatch(/Latest request: (?:can leave it|ok)\b/);
    expect(get('Next step').join('\n')).not.toMatch(/"ok"/);
    for (const e of get('Errors and fixes')) expect(e).toMatch(/ -> (?:fixed by|it passed|`[^`]+` then passed|followed by|unresolved)/);
    // `npm run check 2>&1 | head` exits 0 through the pipe, but its output reported the error, and the next check passed
    // ... said once for all its runs, with the error kind and the final status
    expect(get('Errors and fixes').join('\n')).toMatch(/`npm run check` failed 3 times \(TS2307\); the last: .* -> (?:fixed by changing .*; )?`npm run check` then passed\./);
    for (const d of get('Decisions')) {
      expect(d).not.toMatch(/\blet me\b/i);
      expect(d).not.toMatch(/this\.\w+\(|:$/);
    }
    // anchors: the last request is a substantive one
    const last = extractAnchors(surface, []).find((a) => a.kind === 'last-request');
    expect(last && isSubstantiveRequest(last.text)).toBe(true);
  });

  it('firstErrorLine takes the error message, not a source excerpt, and an excerpt of a long minified line', () => {
    const blob = 'var a=function(){return 1};'.repeat(200) + 'throw new Error("boom");' + 'b();'.repeat(300);
    const l = firstErrorLine(`${blob}\nsome output`)!;
    expect(l.length).toBeLessThanOrEqual(240);
    expect(l).toContain('Error("boom")');
    expect(l).toMatch(/\[excerpt of a \d+-char line\]$/);
    expect(firstErrorLine(`${blob}\nError: cannot find module foo`)).toBe('Error: cannot find module foo');
    expect(firstErrorLine('216 │ * @throws Error if no model selected\n× Some errors were emitted while applying fixes.')).toBe('× Some errors were emitted while applying fixes.');
  });
});
