import { describe, expect, it } from 'vitest';
import { MemorySessionLog } from '@hive-mind/session';
import {
  checkAnchors,
  extractAnchors,
  ExtractiveSummarizer,
  frameCheckpoint,
  maskToolResult,
  pruneText,
  reinsertAnchors,
  TokenMeter,
  toolInfo,
  unframeCheckpoint,
  PRUNE_MARKER,
} from '@hive-mind/compaction';
import { bigOutput, codingSession, LogBuilder } from './helpers.js';

const meter = new TokenMeter();

describe('toolInfo across hosts', () => {
  it('classifies Claude Code, pi, Codex, Hermes, OpenClaw and Cursor tools through one table', () => {
    expect(toolInfo('Read', { file_path: '/a.ts' })).toMatchObject({ kind: 'read', paths: ['/a.ts'] });
    expect(toolInfo('MultiEdit', { file_path: '/b.ts', edits: [] })).toMatchObject({ kind: 'edit', paths: ['/b.ts'] });
    expect(toolInfo('edit', { path: 'src/c.ts', oldText: 'a', newText: 'b' })).toMatchObject({ kind: 'edit', paths: ['src/c.ts'] });
    expect(toolInfo('shell', { command: ['bash', '-lc', 'cargo build --release'] })).toMatchObject({ kind: 'shell', command: 'cargo build --release', outcome: 'exit-code' });
    // Codex 0.5x-0.6x rollouts call their shell tool shell_command, with a command string
    expect(toolInfo('shell_command', { command: 'cargo test', workdir: '/repo' })).toMatchObject({ kind: 'shell', command: 'cargo test' });
    expect(toolInfo('exec_command', '{"cmd":"ls -la"}')).toMatchObject({ kind: 'shell', command: 'ls -la' });
    expect(toolInfo('local_shell_call', { command: ['bash', '-lc', 'npm test'] })).toMatchObject({ kind: 'shell', command: 'npm test' });
    expect(toolInfo('apply_patch', { input: '*** Begin Patch\n*** Update File: src/x.rs\n@@\n-a\n+b\n*** Add File: src/y.rs\n+c\n*** Delete File: src/old.rs\n*** End Patch' })).toMatchObject({ kind: 'patch', paths: ['src/x.rs', 'src/y.rs', 'src/old.rs'], deleted: ['src/old.rs'] });
    expect(toolInfo('update_plan', { plan: [{ step: 'port lexer', status: 'in_progress' }] }).todos).toEqual([{ text: 'port lexer', status: 'in_progress' }]);
    expect(toolInfo('write_file', { path: 'notes.md', content: 'x' })).toMatchObject({ kind: 'write', paths: ['notes.md'] });
    expect(toolInfo('terminal', { command: 'echo hi > out.txt' })).toMatchObject({ kind: 'shell', paths: ['out.txt'] });
    expect(toolInfo('delegate_task', { goal: 'find the flaky test' })).toMatchObject({ kind: 'task', subject: 'find the flaky test', outcome: 'findings' });
    expect(toolInfo('Task', { description: 'Explore the project', prompt: 'Explore this Python project' })).toMatchObject({ kind: 'task', subject: 'Explore the project' });
    expect(toolInfo('web_extract', { urls: ['https://a.example'] })).toMatchObject({ kind: 'web', subject: 'https://a.example' });
    expect(toolInfo('run_terminal_cmd', { command: 'pytest -q' })).toMatchObject({ kind: 'shell', command: 'pytest -q' });
    expect(toolInfo('delete_file', { target_file: 'src/gone.ts' })).toMatchObject({ kind: 'write', deleted: ['src/gone.ts'] });
    expect(toolInfo('exec', { command: 'git mv a.ts b.ts' })).toMatchObject({ kind: 'shell', renamed: [{ from: 'a.ts', to: 'b.ts' }] });
    expect(toolInfo('TodoWrite', { todos: [{ content: 'port lexer', status: 'in_progress' }, { content: 'docs', status: 'completed' }] }).todos).toEqual([
      { text: 'port lexer', status: 'in_progress' },
      { text: 'docs', status: 'completed' },
    ]);
    expect(toolInfo('mcp__fs__read_file', { path: '/r' })).toMatchObject({ kind: 'read', paths: ['/r'] });
    // unknown tools are still summarized by name, with any path they carry
    expect(toolInfo('frobnicate', { path: 'x/y.ts' })).toMatchObject({ kind: 'other', paths: ['x/y.ts'] });
  });

  it('takes no file names from code inside a shell command (arrow functions, $VAR, assignments)', () => {
    const cmd = `node -e "const f = (x) => ../config); x.map(y => $HOME)" && echo ok > out.log && sed -i 's/a/b/' src/z.ts`;
    expect(toolInfo('bash', { command: cmd }).paths).toEqual(['out.log', 'src/z.ts']);
  });
});

describe('pruneText', () => {
  const lines = bigOutput(300).split('\n');
  lines[120] = 'FAILED tests/test_lexer.py::test_nested - AssertionError: expected 3 got 2';
  const text = lines.join('\n');
  const opts = { headLines: 10, tailLines: 10 };
  it('keeps head, tail and error lines and counts the elided lines', () => {
    const p = pruneText(text, opts);
    expect(p.split('\n').slice(0, 10)).toEqual(lines.slice(0, 10));
    expect(p.split('\n').slice(-10)).toEqual(lines.slice(-10));
    expect(p).toContain(lines[120]);
    expect(p).toContain(`[… 110 lines ${PRUNE_MARKER}`);
    expect(p).toContain(`[… 169 lines ${PRUNE_MARKER}`);
    expect(p.length).toBeLessThan(text.length / 5);
  });
  it('is idempotent', () => {
    const p = pruneText(text, opts);
    expect(pruneText(p, opts)).toBe(p);
    expect(pruneText(p, { headLines: 2, tailLines: 2 })).toBe(p);
  });
  it('leaves short text alone and clips a giant single line', () => {
    expect(pruneText('a\nb', opts)).toBe('a\nb');
    const long = 'x'.repeat(10_000);
    const p = pruneText(long, opts);
    expect(p.length).toBeLessThan(500);
    expect(p).toContain('chars elided by hive-mind');
  });
  it('masks a result into one line that keeps the call id', () => {
    const m = maskToolResult({ type: 'tool-result', callId: 'c1', content: [{ type: 'text', text }], isError: true }, 'Bash', 1234);
    expect(m.callId).toBe('c1');
    expect(m.content).toHaveLength(1);
    expect((m.content[0] as { text: string }).text).toMatch(/^\[observation masked by hive-mind: Bash result, 300 lines, \d+ chars, ~1234 tokens, was an error; re-run the tool if you need it\]$/);
    expect(maskToolResult(m, 'Bash', 10)).toBe(m);
  });
});

describe('extractive summarizer', () => {
  it('stays within maxTokens for every budget', async () => {
    const b = codingSession(10);
    const span = b.log.surface().slice(1, -3);
    const s = new ExtractiveSummarizer();
    for (const max of [40, 120, 400, 1500, 5000]) {
      const out = await s.summarize({ span, tail: [], maxTokens: max, meter });
      expect(meter.countText(out.text)).toBeLessThanOrEqual(max);
      expect(out.text.length).toBeGreaterThan(0);
    }
  });
  it('lists pending todo items and merges a host checkpoint', async () => {
    const log = new MemorySessionLog();
    log.append({ type: 'user/message', kind: 'checkpoint', surfaceOp: 'append', content: [{ type: 'text', text: '## Goal\nShip v2 of the lexer\n\n## Key Decisions Made\n- Use nom for parsing' }] });
    log.append({ type: 'user/message', surfaceOp: 'append', content: [{ type: 'text', text: '<system-reminder>noise</system-reminder>Keep going with the plan.' }] });
    log.append({ type: 'assistant/message', surfaceOp: 'append', content: [{ type: 'tool-call', id: 't1', name: 'TodoWrite', input: { todos: [{ content: 'write benches', status: 'pending' }, { content: 'port lexer', status: 'completed' }] } }] });
    log.append({ type: 'tool/result', surfaceOp: 'append', content: [{ type: 'tool-result', callId: 't1', content: [{ type: 'text', text: 'ok' }], isError: false }] });
    const out = await new ExtractiveSummarizer().summarize({ span: log.surface(), tail: [], maxTokens: 2000, meter });
    expect(out.text).toMatch(/## Goal\n- Ship v2 of the lexer/);
    expect(out.text).toMatch(/## Decisions\n- Use nom for parsing/);
    expect(out.text).toContain('write benches (todo pending)');
    expect(out.text).toContain('port lexer (todo completed)');
    expect(out.text).not.toContain('noise');
    expect(out.text.match(/^## Goal$/gm)).toHaveLength(1);
  });
});

describe('extractive budget sharing', () => {
  it('does not let one flooded section crowd out the others; grep exit 1 is not an error', async () => {
    const b = new LogBuilder();
    for (let i = 0; i < 150; i++) b.user(`Please make the border color ${i} a bit brighter than it is now, it is hard to see on my screen.`);
    b.tool('bash', { command: 'npm test' }, 'FAIL src/theme.test.ts\nError: expected #fff\nCommand exited with code 1', true);
    b.tool('bash', { command: 'grep -n "console" src/theme.ts' }, '\n\nCommand exited with code 1', true);
    b.tool('edit', { path: 'src/theme.ts', oldText: 'a', newText: 'b' }, 'ok');
    b.assistant('The border is brighter now. Next I will update the light theme.');
    const out = await new ExtractiveSummarizer().summarize({ span: b.log.surface(), tail: [], maxTokens: 1200, meter });
    expect(meter.countText(out.text)).toBeLessThanOrEqual(1200);
    // the failed run is said once, under Errors and fixes, not again under Commands
    expect(out.text).not.toContain('`npm test` -> failed');
    expect(out.text).toContain('`npm test` failed: FAIL src/theme.test.ts -> followed by changes to `src/theme.ts`');
    // grep's exit 1 is "no match": neither an error nor a command that matters, a finding
    expect(out.text).toContain('## Findings\n- `grep -n "console" src/theme.ts` found no match.');
    expect(out.text.split('## Findings')[0]).not.toContain('grep');
    expect(out.text).toContain('- `src/theme.ts` (modified)');
    expect(out.text).toContain('## Next step\n- Next I will update the light theme.');
    // the newest instructions survive, the oldest go first
    expect(out.text).toContain('Latest request: Please make the border color 149 ');
    expect(out.text).toContain('## Goal\n- Please make the border color 0 ');
  });
});

describe('anchors', () => {
  it('extracts instructions, files, errors, the last request and tail identifiers', () => {
    const b = codingSession(6);
    const surf = b.log.surface();
    const span = surf.slice(1, -3);
    const tail = surf.slice(-3);
    const anchors = extractAnchors(span, tail);
    const kinds = new Set(anchors.map((a) => a.kind));
    expect([...kinds].sort()).toEqual(['error', 'file', 'identifier', 'instruction', 'last-request']);
    expect(anchors).toContainEqual({ kind: 'instruction', text: "No, don't use unwrap() in library code; return a Result<Token, LexError> instead." });
    expect(anchors).toContainEqual({ kind: 'file', text: '/repo/rust/src/lexer_1.rs' });
    expect(anchors).toContainEqual({ kind: 'error', text: 'error[E0425]: cannot find value `lexer_state` in this scope' });
    expect(anchors).toContainEqual({ kind: 'identifier', text: 'lexer_state' });
    // identifiers come from values, not tool-input keys
    expect(anchors.find((a) => a.text === 'file_path')).toBeUndefined();
  });
  it('checks a summary and re-inserts what is missing, dropping identifiers first under pressure', () => {
    const anchors = [
      { kind: 'last-request' as const, text: 'wire it into main.rs' },
      { kind: 'file' as const, text: '/repo/a.rs' },
      { kind: 'identifier' as const, text: 'LexerConfig' },
    ];
    const { kept, missing } = checkAnchors('We edited `/REPO/a.rs`.', anchors);
    expect(kept.map((a) => a.text)).toEqual(['/repo/a.rs']);
    const r = reinsertAnchors('## Current work\n- x', missing, 1000, meter);
    expect(r.body).toContain('## Preserved details\n- Last user request: "wire it into main.rs"\n- Identifiers still in use: `LexerConfig`');
    expect(checkAnchors(r.body, missing).missing).toEqual([]);
    const tight = reinsertAnchors('## Current work\n- x', missing, meter.countText('## Current work\n- x\n\n## Preserved details\n- Last user request: "wire it into main.rs"') + 1, meter);
    expect(tight.reinserted.map((a) => a.kind)).toEqual(['last-request']);
    expect(tight.lost.map((a) => a.kind)).toEqual(['identifier']);
  });
  it('frames and unframes a checkpoint', () => {
    const f = frameCheckpoint('## Next step\n- go');
    expect(unframeCheckpoint(f)).toBe('## Next step\n- go');
    expect(unframeCheckpoint('plain')).toBeNull();
  });
});
