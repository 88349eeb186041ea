import { open, stat } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { basename } from 'node:path';
import { MemorySessionLog } from '@hive-mind/session';
import { LogBuilder } from './builder.js';
import { detectFormat } from './detect.js';
import { fileErrorReason, RecordError, TranscriptError } from './errors.js';
import { readAnthropic, readHermes, readOpenAIMessages } from './formats/chat.js';
import { ClaudeCodeReader } from './formats/claude-code.js';
import { CodexReader } from './formats/codex.js';
import { isObj, type Rec } from './formats/common.js';
import { PiReader } from './formats/pi.js';
import type { JsonlReader } from './formats/reader.js';
import { streamLines, textLines, type RawLine } from './lines.js';
import { FORMAT_TABLE, FORMATS, type ImportReport, type ReadOptions, type Transcript, type TranscriptFormat, type TranscriptOrigin } from './types.js';

/** The formats of one record a line (the format table's `jsonl` rows). */
const JSONL_FORMATS: readonly TranscriptFormat[] = FORMAT_TABLE.filter((f) => f.file === 'jsonl').map((f) => f.id);

/** A session id as a host writes it: a non-empty string of at most 512 characters, trimmed. */
const sid = (v: unknown) => (typeof v === 'string' && v.trim() && v.length <= 512 ? v.trim() : undefined);

/**
 * How each format is read: a JSONL format's record reader (formats/), a whole-JSON format's
 * reader of the one value (returns the value's top-level shape), and where its records name the
 * host's session id. One entry per row of the format table (types.ts).
 */
const READERS: { readonly [F in TranscriptFormat]: (Extract<(typeof FORMAT_TABLE)[number], { id: F }>['file'] extends 'jsonl' ? { jsonl: (b: LogBuilder) => JsonlReader } : { whole: (b: LogBuilder, value: unknown) => 'array' | 'object' }) & { sessionId(r: Rec): string | undefined } } = {
  'claude-code': { jsonl: (b) => new ClaudeCodeReader(b), sessionId: (r) => sid(r.sessionId) },
  codex: { jsonl: (b) => new CodexReader(b), sessionId: (r) => (r.type === 'session_meta' && isObj(r.payload) ? (sid(r.payload.id) ?? sid(r.payload.session_id)) : undefined) },
  pi: { jsonl: (b) => new PiReader(b), sessionId: (r) => (r.type === 'session' ? sid(r.id) : undefined) },
  hermes: {
    whole: (b, value) => {
      if (!isObj(value) || !Array.isArray(value.messages)) throw new RecordError('hermes session without a messages array', 'messages');
      readHermes(b, value);
      return 'object';
    },
    sessionId: (r) => sid(r.session_id),
  },
  openai: {
    whole: (b, value) => {
      if (Array.isArray(value)) {
        readOpenAIMessages(b, value, '');
        return 'array';
      }
      if (isObj(value) && Array.isArray(value.messages)) {
        readOpenAIMessages(b, value.messages, 'messages');
        return 'object';
      }
      throw new RecordError('no messages array', 'messages');
    },
    sessionId: () => undefined,
  },
  anthropic: {
    whole: (b, value) => {
      const container = Array.isArray(value) ? 'array' : 'object';
      readAnthropic(b, value);
      return container;
    },
    sessionId: () => undefined,
  },
};
/** Records looked at before giving up on detection. */
const DETECT_WINDOW = 20;
const TRIED = `tried ${FORMATS.join(', ')}`;

function newReport(format: TranscriptFormat, path?: string): ImportReport {
  return { format, ...(path ? { path } : {}), lines: 0, skippedLines: 0, problems: [], repairedCalls: 0, orphanResults: 0, compactions: 0 };
}

/** Drives one JSONL import: line checks, detection on the first records, then the format reader. */
class JsonlImport {
  private pending: Array<{ rec: Rec; line: number; chars: number }> = [];
  private reader: JsonlReader | undefined;
  private builder: LogBuilder | undefined;
  private format: TranscriptFormat | undefined;
  private records = 0;
  lines = 0;
  lastHadNewline = true;
  private readonly problems: Array<{ line: number; reason: string }> = [];
  /** The first line when it was not JSON at all (before any record). */
  private firstText: string | undefined;

  constructor(
    private readonly file: string | undefined,
    private readonly opts: ReadOptions,
  ) {
    if (opts.format && !JSONL_FORMATS.includes(opts.format)) throw new TranscriptError(`format ${opts.format} is a whole-JSON format, not JSONL`, file);
  }

  private bad(line: number, reason: string, field?: string): void {
    if (!this.opts.lenient) throw new TranscriptError(reason, this.file, line, field);
    this.problems.push({ line, reason: field ? `${reason} (field ${field})` : reason });
  }

  /** Start reading as `format`; `first` are the records seen so far (they name the host's session id). */
  private start(format: TranscriptFormat, first: readonly Rec[]): void {
    this.format = format;
    this.builder = new LogBuilder(new MemorySessionLog(hostSessionId(format, first) ?? fileLogId(this.file)), newReport(format, this.file));
    const r = READERS[format];
    if (!('jsonl' in r)) throw new TypeError(`${format} is not a JSONL format`);
    this.reader = r.jsonl(this.builder);
  }

  push(raw: RawLine): void {
    this.lines = raw.line;
    this.lastHadNewline = !raw.last;
    if (raw.nulAt !== undefined && this.records === 0) throw new TranscriptError(`binary file (NUL byte at byte ${raw.nulAt} of the line), not a transcript`, this.file, raw.line);
    if (raw.text === null) return this.bad(raw.line, 'invalid UTF-8');
    if (raw.nulAt !== undefined) return this.bad(raw.line, 'binary data (NUL byte) in line');
    const text = raw.text;
    if (text.trim() === '') return;
    let rec: unknown;
    try {
      rec = JSON.parse(text);
    } catch (err) {
      const msg = (err as Error).message;
      // The first line is not even meant to be JSON (Markdown, plain text): a file of some
      // other kind, not a JSONL file with a bad line.
      if (this.records === 0 && this.problems.length === 0 && !/^\s*[{[]/.test(text)) {
        this.firstText = text;
        if (!this.opts.lenient) throw new TranscriptError(notJsonReason(text), this.file);
      }
      return this.bad(raw.line, raw.last ? `truncated last line, not complete JSON (${msg})` : `invalid JSON (${msg})`);
    }
    if (!isObj(rec)) return this.bad(raw.line, `expected a JSON object, got ${Array.isArray(rec) ? 'an array' : typeof rec === 'object' ? 'null' : typeof rec}`);
    this.records++;
    if (this.records === 1 && this.opts.format) {
      const seen = detectFormat([rec]);
      if (seen && seen !== this.opts.format) throw new TranscriptError(`the content is ${seen}, not ${this.opts.format} as requested`, this.file, raw.line);
    }
    if (!this.reader && this.opts.format) this.start(this.opts.format, [rec]);
    if (!this.reader) {
      this.pending.push({ rec, line: raw.line, chars: text.length });
      const f = detectFormat(this.pending.map((p) => p.rec));
      if (f && JSONL_FORMATS.includes(f)) {
        this.start(
          f,
          this.pending.map((p) => p.rec),
        );
        const pending = this.pending;
        this.pending = [];
        for (const p of pending) this.feed(p.rec, p.line, p.chars);
      } else if (this.pending.length >= DETECT_WINDOW) {
        throw new TranscriptError(`unknown transcript format: the first ${DETECT_WINDOW} records match none of the formats (${TRIED})`, this.file);
      }
      return;
    }
    this.feed(rec, raw.line, text.length);
  }

  private feed(rec: Rec, line: number, chars: number): void {
    try {
      this.reader!.record(rec, line, chars);
    } catch (err) {
      if (err instanceof RecordError) return this.bad(line, err.message, err.field);
      throw err;
    }
  }

  end(origin: TranscriptOrigin): Transcript {
    if (!this.reader) {
      if (this.records === 0 && this.problems.length === 0) throw new TranscriptError('empty file: no records', this.file);
      if (this.records === 0 && this.firstText !== undefined) throw new TranscriptError(notJsonReason(this.firstText), this.file);
      if (this.records === 0) throw new TranscriptError(`no readable record (${this.problems.length} bad lines skipped)`, this.file, this.problems[0]!.line);
      throw new TranscriptError(`unknown transcript format (${TRIED})`, this.file);
    }
    try {
      this.reader.finish();
    } catch (err) {
      if (err instanceof RecordError) throw new TranscriptError(err.message, this.file, this.lines, err.field);
      throw err;
    }
    const b = this.builder!;
    b.finish();
    const report = b.report;
    report.lines = this.lines;
    report.problems = this.problems;
    report.skippedLines = this.problems.length;
    return {
      format: this.format!,
      log: b.log,
      report,
      importedLastSeq: b.log.lastSeq,
      source: { origin, state: this.reader.state(), ...(this.lastHadNewline ? {} : { missingFinalNewline: true }) },
    };
  }
}

/**
 * Why a file whose first line is not JSON at all is not a transcript. hive-mind's own
 * Markdown (`toMarkdown`, `--to markdown`: `## User (seq 2)` sections) is named as such: it
 * is for reading and cannot be imported again.
 */
function notJsonReason(firstLine: string): string {
  const t = firstLine.trim();
  if (/^## (User|Assistant|Tool|System) \(seq \d+\)/.test(t)) {
    return `unknown transcript format: this is Markdown as written by hive-mind's --to markdown, which is for reading and cannot be read back; use the original transcript (or write one with --to same, openai or anthropic)`;
  }
  if (/^(#{1,6}\s|[-*+]\s|>\s|```|---\s*$|\|)/.test(t)) return `unknown transcript format: this looks like Markdown, not JSON or JSONL (${TRIED})`;
  return `unknown transcript format: not JSON or JSONL (the first line starts ${JSON.stringify(t.slice(0, 24))}) (${TRIED})`;
}

/**
 * True when the text should be read as one JSON value rather than JSONL, judged from its
 * whole first line (`firstLine`, without its newline; `more` = a newline follows it). A
 * first line that is complete JSON is a whole-JSON transcript when it holds a messages
 * array (a one-line request body `{system, messages}`, `{model, messages}`, a Hermes
 * session), whatever its size.
 */
function looksWholeJson(firstLine: string, more: boolean): boolean {
  const t = firstLine.trimStart();
  if (t.startsWith('[')) return true;
  if (!t.startsWith('{')) return false;
  try {
    const v = JSON.parse(t);
    return isObj(v) && Array.isArray(v.messages);
  } catch {
    // A first line that is not complete JSON: a pretty-printed object (or a broken JSONL line,
    // which the whole-JSON parse reports just as well).
    const f = t.trim();
    return f === '{' || (!f.endsWith('}') && /^\{\s*"(messages|system_prompt|session_id|model|system|tools)"\s*:/.test(f) && more);
  }
}

/** The first line of a file (without its newline), read in 1 MiB chunks until a newline or the end: linear in its length. */
async function readFirstLine(path: string, size: number): Promise<{ line: Buffer; more: boolean }> {
  const fh = await open(path, 'r');
  try {
    const parts: Buffer[] = [];
    for (let pos = 0; pos < size; ) {
      const buf = Buffer.alloc(Math.min(pos === 0 ? 65536 : 1 << 20, size - pos));
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      const chunk = buf.subarray(0, bytesRead);
      const nl = chunk.indexOf(0x0a);
      if (nl >= 0) {
        parts.push(chunk.subarray(0, nl));
        return { line: Buffer.concat(parts), more: true };
      }
      parts.push(chunk);
      if (chunk.indexOf(0) >= 0) break; // binary: the caller reports the NUL byte
      pos += bytesRead;
    }
    return { line: Buffer.concat(parts), more: false };
  } finally {
    await fh.close();
  }
}

/** The log id of a transcript whose records name no session: the file's name, else `transcript`. */
function fileLogId(file: string | undefined): string {
  return file ? basename(file) : 'transcript';
}

/**
 * The host's own id of the session, from its first records: Claude Code's per-record `sessionId`,
 * Codex's `session_meta` payload `id`, pi's `session` header `id`, a Hermes session's `session_id`
 * (the fields each host writes; see formats/). Undefined when none is there (the log is then named
 * after the file).
 */
export function hostSessionId(format: TranscriptFormat, records: readonly unknown[]): string | undefined {
  for (const r of records) {
    if (!isObj(r)) continue;
    const id = READERS[format].sessionId(r);
    if (id) return id;
  }
  return undefined;
}

/**
 * Line of the first syntax error (V8's JSON.parse messages carry no position in Node 20):
 * jsonc-parser's scanner reports the offset. Comments and trailing commas, which jsonc
 * tolerates, are not JSON: then the line is that of the first such token, else 1.
 */
function jsonErrorLine(text: string): number {
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { allowTrailingComma: false, disallowComments: true });
  const off = errors[0]?.offset;
  if (off === undefined) return 1;
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < off; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Read a whole-JSON transcript (Hermes session, OpenAI or Anthropic messages). */
function readWhole(text: string, file: string | undefined, opts: ReadOptions, origin: TranscriptOrigin): Transcript {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    throw new TranscriptError(`invalid JSON (${(err as Error).message})`, file, jsonErrorLine(text));
  }
  const format = opts.format ?? detectFormat([value]);
  if (!format) {
    const shape = Array.isArray(value) ? 'an array that is not a messages array' : isObj(value) ? 'an object without a messages array' : `a JSON ${value === null ? 'null' : typeof value}`;
    throw new TranscriptError(`unknown transcript format: ${shape} (${TRIED})`, file);
  }
  const r = READERS[format];
  if (!('whole' in r)) throw new TranscriptError(`a single JSON value cannot be a ${format} transcript (JSONL expected)`, file);
  const log = new MemorySessionLog(hostSessionId(format, [value]) ?? fileLogId(file));
  const b = new LogBuilder(log, newReport(format, file));
  let container: 'array' | 'object';
  try {
    container = r.whole(b, value);
  } catch (err) {
    if (err instanceof RecordError) throw new TranscriptError(err.message, file, undefined, err.field);
    throw err;
  }
  b.finish();
  b.report.lines = 1;
  const state: Record<string, unknown> = {};
  if (isObj(value)) {
    const { messages: _m, ...rest } = value;
    state.envelope = rest;
  }
  return { format, log, report: b.report, importedLastSeq: log.lastSeq, source: { origin, container, state } };
}

/**
 * Read a transcript held in memory. Same rules as {@link readTranscriptFile}; `path` only
 * names the input in errors and the report.
 * @throws TranscriptError (one line, `exitCode` 2)
 */
export function parseTranscript(text: string, opts: ReadOptions & { path?: string } = {}): Transcript {
  const file = opts.path;
  if (text.trim() === '') throw new TranscriptError('empty file: no records', file);
  const firstNl = text.indexOf('\n');
  const first = firstNl < 0 ? text : text.slice(0, firstNl);
  const nul = first.indexOf('\u0000');
  if (nul >= 0) throw new TranscriptError(`binary file (NUL byte at offset ${nul}), not a transcript`, file);
  const origin: TranscriptOrigin = { kind: 'text', text };
  const whole = opts.format ? !JSONL_FORMATS.includes(opts.format) : looksWholeJson(first, firstNl >= 0);
  if (whole) return readWhole(text, file, opts, origin);
  const imp = new JsonlImport(file, opts);
  for (const raw of textLines(text)) imp.push(raw);
  return imp.end(origin);
}

/**
 * Read a transcript file, detecting its format from the content. JSONL formats are
 * streamed (1 MiB chunks; memory holds the log being built, not the file); whole-JSON
 * formats are read at once. `onProgress(bytesRead, totalBytes)` is called per chunk.
 * @throws TranscriptError (one line naming file, line, reason and field; `exitCode` 2) for
 *   an empty, binary or non-UTF-8 file, a bad or truncated line, a record of the wrong
 *   shape, or an unknown format. With `lenient`, bad lines are skipped and listed in
 *   `report.problems` instead.
 */
export async function readTranscriptFile(path: string, opts: ReadOptions & { onProgress?: (bytes: number, total: number) => void } = {}): Promise<Transcript> {
  let st;
  try {
    st = await stat(path);
  } catch (err) {
    throw new TranscriptError(fileErrorReason(err), path);
  }
  if (st.isDirectory()) throw new TranscriptError('is a directory, not a transcript file', path);
  if (!st.isFile()) throw new TranscriptError('is not a regular file (a device, FIFO or socket), not a transcript file', path);
  if (st.size === 0) throw new TranscriptError('empty file: no records', path);
  let first: { line: Buffer; more: boolean };
  try {
    first = await readFirstLine(path, st.size);
  } catch (err) {
    throw new TranscriptError(fileErrorReason(err), path);
  }
  const nul = first.line.indexOf(0);
  if (nul >= 0) throw new TranscriptError(`binary file (NUL byte at offset ${nul}), not a transcript`, path);
  const origin: TranscriptOrigin = { kind: 'file', path, size: st.size, mtimeMs: st.mtimeMs };
  const whole = opts.format ? !JSONL_FORMATS.includes(opts.format) : looksWholeJson(first.line.toString('utf8'), first.more);
  if (whole) {
    const buf = readFileSync(path);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
    } catch {
      let line = 1;
      for (const raw of streamLinesSync(buf)) if (raw === null) break; else line++;
      throw new TranscriptError('invalid UTF-8', path, line);
    }
    if (text.trim() === '') throw new TranscriptError('empty file: no records', path);
    opts.onProgress?.(st.size, st.size);
    return readWhole(text, path, opts, origin);
  }
  const imp = new JsonlImport(path, opts);
  for await (const raw of streamLines(path, opts.onProgress ? (n) => opts.onProgress!(n, st.size) : undefined)) imp.push(raw);
  return imp.end(origin);
}

/** Lines of a buffer decoded strictly; yields null at the first invalid line and stops. */
function* streamLinesSync(buf: Buffer): Generator<string | null> {
  const dec = new TextDecoder('utf-8', { fatal: true });
  let from = 0;
  while (from <= buf.length) {
    const nl = buf.indexOf(0x0a, from);
    const end = nl < 0 ? buf.length : nl;
    try {
      yield dec.decode(buf.subarray(from, end));
    } catch {
      yield null;
      return;
    }
    if (nl < 0) return;
    from = nl + 1;
  }
}
