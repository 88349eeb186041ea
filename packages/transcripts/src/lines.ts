import { createReadStream } from 'node:fs';

/** One physical line of a JSONL file. `text` is null when the bytes are not valid UTF-8. */
export interface RawLine {
  /** 1-based line number. */
  line: number;
  text: string | null;
  /** True for the last line when the file does not end with a newline. */
  last: boolean;
  /** Byte offset of the first NUL byte when the line holds one (binary data). */
  nulAt?: number;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function decode(buf: Buffer): string | null {
  try {
    return decoder.decode(buf);
  } catch {
    return null;
  }
}

function toLine(buf: Buffer, line: number, last: boolean): RawLine {
  let end = buf.length;
  if (end && buf[end - 1] === 0x0d) end--;
  let start = 0;
  if (line === 1 && end >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) start = 3;
  const slice = buf.subarray(start, end);
  const nul = slice.indexOf(0);
  const r: RawLine = { line, text: decode(slice), last };
  if (nul >= 0) r.nulAt = nul;
  return r;
}

/**
 * Stream a file's lines with bounded memory: only the current chunk (1 MiB) and the
 * current partial line are held. Each line is decoded on its own with a fatal UTF-8
 * decoder so invalid bytes are reported with their line number (Node's `readline`
 * would silently replace them with U+FFFD). `onBytes` is called after each chunk.
 */
export async function* streamLines(path: string, onBytes?: (bytes: number) => void): AsyncGenerator<RawLine> {
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  let carry: Buffer[] = [];
  let carryLen = 0;
  let line = 0;
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, from);
      if (nl < 0) break;
      let buf = chunk.subarray(from, nl);
      if (carryLen) {
        buf = Buffer.concat([...carry, buf], carryLen + buf.length);
        carry = [];
        carryLen = 0;
      }
      yield toLine(buf, ++line, false);
      from = nl + 1;
    }
    if (from < chunk.length) {
      // copy: the chunk's memory is released once we move on
      const rest = Buffer.from(chunk.subarray(from));
      carry.push(rest);
      carryLen += rest.length;
    }
    onBytes?.(bytes);
  }
  if (carryLen) yield toLine(Buffer.concat(carry, carryLen), ++line, true);
}

/** Split in-memory text into lines like {@link streamLines} (text is already decoded). */
export function* textLines(text: string): Generator<RawLine> {
  let from = 0;
  let line = 0;
  if (text.charCodeAt(0) === 0xfeff) from = 1;
  while (from < text.length) {
    const nl = text.indexOf('\n', from);
    const end = nl < 0 ? text.length : nl;
    let s = text.slice(from, end);
    if (s.endsWith('\r')) s = s.slice(0, -1);
    const nul = s.indexOf('\u0000');
    const r: RawLine = { line: ++line, text: s, last: nl < 0 };
    if (nul >= 0) r.nulAt = nul;
    yield r;
    if (nl < 0) break;
    from = nl + 1;
  }
}
