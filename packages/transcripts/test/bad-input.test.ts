import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTranscript, readTranscriptFile, toMarkdown, TranscriptError } from '@hive-mind/transcripts';
import { DATA } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'hm-transcripts-bad-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, data: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
}

async function fails(path: string, opts = {}): Promise<TranscriptError> {
  const err = await readTranscriptFile(path, opts).then(
    () => {
      throw new Error('expected a TranscriptError');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TranscriptError);
  const te = err as TranscriptError;
  expect(te.exitCode).toBe(2);
  expect(te.message).not.toContain('\n');
  // a line when one line is to blame, none for the whole file (missing, empty, unknown format...)
  expect(te.message.startsWith(te.line === undefined ? `${path}: ` : `${path}:${te.line}: `)).toBe(true);
  return te;
}

const piHead = readFileSync(DATA + 'pi/large-session.jsonl', 'utf8').split('\n').slice(0, 6);

describe('bad input: one-line TranscriptError naming file, line, reason (and field), exit code 2', () => {
  it('empty file', async () => {
    const p = file('empty.jsonl', '');
    const e = await fails(p);
    expect(e.line).toBeUndefined();
    expect(e.message).toBe(`${p}: empty file: no records`);
    await fails(file('blank.jsonl', '\n  \n\n'));
  });

  it('binary file', async () => {
    const e = await fails(file('bin.jsonl', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00, 0x0a, 0x00])));
    expect(e.reason).toMatch(/binary file/);
  });

  it('invalid UTF-8 on a line (names that line); lenient skips it', async () => {
    const bad = Buffer.concat([Buffer.from(piHead.slice(0, 3).join('\n') + '\n'), Buffer.from('{"type":"message","message":{"role":"user","content":"caf\xc3'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}\n' + piHead.slice(3).join('\n') + '\n')]);
    const p = file('utf8.jsonl', bad);
    const e = await fails(p);
    expect(e.line).toBe(4);
    expect(e.reason).toBe('invalid UTF-8');
    const t = await readTranscriptFile(p, { lenient: true });
    expect(t.report.skippedLines).toBe(1);
    expect(t.report.problems).toEqual([{ line: 4, reason: 'invalid UTF-8' }]);
  });

  it('truncated last line', async () => {
    const p = file('trunc.jsonl', piHead.join('\n') + '\n' + piHead[1]!.slice(0, 40));
    const e = await fails(p);
    expect(e.line).toBe(7);
    expect(e.reason).toMatch(/^truncated last line/);
    const t = await readTranscriptFile(p, { lenient: true });
    expect(t.format).toBe('pi');
    expect(t.report.skippedLines).toBe(1);
    expect(t.report.lines).toBe(7);
  });

  it('invalid JSON in the middle', async () => {
    const lines = [...piHead];
    lines.splice(2, 0, '{"type": "message", oops}');
    const e = await fails(file('mid.jsonl', lines.join('\n') + '\n'));
    expect(e.line).toBe(3);
    expect(e.reason).toMatch(/^invalid JSON/);
  });

  it('valid JSON of the wrong shape names the field', async () => {
    const lines = [...piHead];
    lines.splice(2, 0, '{"type":"message","timestamp":"2025-01-01T00:00:00Z","message":{"role":"wizard","content":[]}}', '{"type":"message","message":"hi"}', '[1,2,3]');
    const p = file('shape.jsonl', lines.join('\n') + '\n');
    const e = await fails(p);
    expect(e.line).toBe(3);
    expect(e.field).toBe('message.role');
    expect(e.message).toBe(`${p}:3: message with unknown role "wizard" (field message.role)`);
    const t = await readTranscriptFile(p, { lenient: true });
    expect(t.report.skippedLines).toBe(3);
    expect(t.report.problems.map((x) => x.line)).toEqual([3, 4, 5]);
    expect(t.report.problems[1]!.reason).toMatch(/field message/);
    expect(t.report.problems[2]!.reason).toMatch(/expected a JSON object, got an array/);
    // the good lines are all there
    expect(t.log.events().filter((x) => x.meta?.line !== undefined)).toHaveLength(piHead.filter((l) => l.trim()).length);
  });

  it('wrong shape in a Claude Code line (tool_use without id)', async () => {
    const rec = { parentUuid: null, isSidechain: false, type: 'assistant', sessionId: 's', uuid: 'u1', message: { role: 'assistant', content: [{ type: 'tool_use', name: 'Read', input: {} }] } };
    const e = await fails(file('cc.jsonl', JSON.stringify(rec) + '\n'));
    expect(e.field).toBe('message.content[0].id');
  });

  it('unknown format lists the formats tried', async () => {
    const e = await fails(file('unknown.jsonl', '{"hello":"world"}\n{"foo":1}\n'));
    expect(e.reason).toBe('unknown transcript format (tried claude-code, codex, pi, hermes, openai, anthropic)');
    const e2 = await fails(file('unknown.json', JSON.stringify({ foo: [1, 2] }, null, 2)));
    expect(e2.reason).toMatch(/unknown transcript format: an object without a messages array \(tried claude-code, codex, pi, hermes, openai, anthropic\)/);
  });

  it('whole-JSON syntax error names the line', async () => {
    const e = await fails(file('broken.json', '[\n  {"role": "user", "content": "hi"},\n  {"role": "assistant", "content": }\n]\n'));
    expect(e.reason).toMatch(/^invalid JSON/);
    expect(e.line).toBe(3);
  });

  it('whole-JSON wrong shape names the field', () => {
    expect(() => parseTranscript(JSON.stringify([{ role: 'user', content: 'x' }, { role: 'tool', content: 'y' }]), { path: 'm.json' })).toThrow('m.json: tool message without tool_call_id (field [1].tool_call_id)');
  });

  it('a missing file, a directory: file-level errors without a line number', async () => {
    const missing = join(dir, 'nope.jsonl');
    const e = await fails(missing);
    expect(e.line).toBeUndefined();
    expect(e.message).toBe(`${missing}: no such file`);
    const under = join(dir, 'empty.jsonl', 'x.jsonl');
    file('empty.jsonl', '');
    expect((await fails(under)).message).toBe(`${under}: no such file (a parent path is not a directory)`);
    expect((await fails(dir)).message).toBe(`${dir}: is a directory, not a transcript file`);
  });

  it('hive-mind Markdown (--to markdown) is refused as Markdown, not as a bad JSON line; other text too', async () => {
    const t = await readTranscriptFile(DATA + 'pi/large-session.jsonl');
    const md = file('session.md', toMarkdown(t.log.surface()));
    const e = await fails(md);
    expect(e.line).toBeUndefined();
    expect(e.reason).toMatch(/^unknown transcript format: this is Markdown as written by hive-mind's --to markdown, which is for reading and cannot be read back/);
    expect(e.message).not.toMatch(/invalid JSON|Unexpected token/);
    // lenient does not turn it into a transcript either
    expect((await fails(md, { lenient: true })).reason).toBe(e.reason);
    const other = await fails(file('notes.md', '# Notes\n\nsome text\n'));
    expect(other.reason).toBe('unknown transcript format: this looks like Markdown, not JSON or JSONL (tried claude-code, codex, pi, hermes, openai, anthropic)');
    const plain = await fails(file('notes.txt', 'hello world\nsecond line\n'));
    expect(plain.reason).toBe('unknown transcript format: not JSON or JSONL (the first line starts "hello world") (tried claude-code, codex, pi, hermes, openai, anthropic)');
    expect(() => parseTranscript('## User (seq 2)\n\nhi\n', { path: 'x.md' })).toThrow(/^x\.md: unknown transcript format: this is Markdown/);
    // a JSONL file whose first line is broken JSON is still a line-level error
    const broken = await fails(file('broken-first.jsonl', '{"type":"session",\n' + piHead.slice(1).join('\n') + '\n'));
    expect(broken.line).toBe(1);
    expect(broken.reason).toMatch(/^invalid JSON/);
  });

  it('format is detected from the content, not the name', async () => {
    const p = file('session.json', readFileSync(DATA + 'codex/hello-0.171.jsonl'));
    expect((await readTranscriptFile(p)).format).toBe('codex');
  });
});

describe('reader options', () => {
  it('onProgress reports bytes read up to the file size', async () => {
    const seen: Array<[number, number]> = [];
    await readTranscriptFile(DATA + 'pi/before-compaction.jsonl', { onProgress: (b, total) => seen.push([b, total]) });
    expect(seen.length).toBeGreaterThan(1);
    const size = readFileSync(DATA + 'pi/before-compaction.jsonl').length;
    expect(seen.at(-1)).toEqual([size, size]);
    for (let i = 1; i < seen.length; i++) expect(seen[i]![0]).toBeGreaterThan(seen[i - 1]![0]);
  });

  it('format forces a reader; content of another format is refused', async () => {
    const e = await fails(DATA + 'codex/hello-0.171.jsonl', { format: 'pi' });
    expect(e.line).toBe(1);
    expect(e.reason).toBe('the content is codex, not pi as requested');
    const ok = await readTranscriptFile(DATA + 'codex/hello-0.171.jsonl', { format: 'codex' });
    expect(ok.format).toBe('codex');
  });
});
