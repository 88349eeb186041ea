/**
 * The bytes of a notes file (MEMORY.md, USER.md): entries separated by lines holding only `§`
 * (the Hermes format, README "Curated notes"), read and written back without changing what the
 * user put there. The file's BOM and line endings (LF or CRLF, by its first line break) are kept
 * on every write; an entry that is not clean text (invalid UTF-8, or control characters other than
 * tab and line breaks) is flagged, left out of what is injected, and written back byte for byte.
 */

/** How a notes file is written: with a UTF-8 BOM or not, LF or CRLF line endings. */
export interface NotesFileFormat {
  bom: boolean;
  eol: '\n' | '\r\n';
}

/** An entry that is not clean text: its index among the entries and why (for `notes show` and `doctor`). */
export interface FlaggedEntry {
  index: number;
  reason: string;
}

/** A notes file as parsed from its bytes. */
export interface ParsedNotesFile {
  /** Entries as text (line breaks as `\n`, trimmed, empty ones dropped); invalid UTF-8 shows as U+FFFD. */
  entries: string[];
  flagged: FlaggedEntry[];
  format: NotesFileFormat;
  /** The stored bytes of each flagged entry, by its text: written back unchanged while the entry is kept. */
  raw: Map<string, Buffer[]>;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** C0 controls other than tab, LF and CR; DEL; C1 controls. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;
const strict = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');

const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

function trimBytes(b: Buffer): Buffer {
  let s = 0;
  let e = b.length;
  while (s < e && isSpace(b[s]!)) s++;
  while (e > s && isSpace(b[e - 1]!)) e--;
  return b.subarray(s, e);
}

/** Byte offset of the first invalid UTF-8 sequence of `b` (each sequence checked by the strict decoder), or `b.length` when only the end is cut. */
function firstInvalid(b: Buffer): number {
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    const n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (n === 0 || i + n > b.length) return i;
    try {
      strict.decode(b.subarray(i, i + n));
    } catch {
      return i;
    }
    i += n;
  }
  return b.length;
}

/** Parse the bytes of a notes file. Never throws: whatever the bytes, every entry is kept. */
export function parseNotesFile(bytes: Buffer): ParsedNotesFile {
  const bom = bytes.subarray(0, 3).equals(BOM);
  const body = bom ? bytes.subarray(3) : bytes;
  const lf = body.indexOf(0x0a);
  const format: NotesFileFormat = { bom, eol: lf > 0 && body[lf - 1] === 0x0d ? '\r\n' : '\n' };
  const groups: Buffer[] = [];
  let start = 0; // start of the current entry
  let at = 0;
  while (at <= body.length) {
    let end = body.indexOf(0x0a, at);
    if (end < 0) end = body.length;
    const line = body.subarray(at, end);
    if (trimBytes(line).equals(Buffer.from('§'))) {
      groups.push(body.subarray(start, at));
      start = end + 1;
    }
    at = end + 1;
  }
  groups.push(body.subarray(Math.min(start, body.length)));
  const out: ParsedNotesFile = { entries: [], flagged: [], format, raw: new Map() };
  for (const g of groups) {
    const bytesOf = trimBytes(g);
    if (!bytesOf.length) continue;
    let bad = -1;
    try {
      strict.decode(bytesOf);
    } catch {
      bad = firstInvalid(bytesOf);
    }
    const text = lenient.decode(bytesOf).replace(/\r\n?/g, '\n').trim();
    if (!text) continue;
    const ctl = CONTROL.exec(text);
    const reason =
      bad >= 0
        ? `holds bytes that are not UTF-8 text (from byte ${bad} of the entry; shown as U+FFFD)`
        : ctl
          ? `holds the control character U+${ctl[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
          : undefined;
    if (reason) {
      out.flagged.push({ index: out.entries.length, reason });
      const list = out.raw.get(text) ?? [];
      list.push(Buffer.from(bytesOf));
      out.raw.set(text, list);
    }
    out.entries.push(text);
  }
  return out;
}

/**
 * The bytes of a notes file holding `entries`, in `format` (BOM, line endings), ending with a line
 * break; a flagged entry still present (the same text) is written with its stored bytes.
 */
export function renderNotesFile(entries: readonly string[], format: NotesFileFormat, raw?: ReadonlyMap<string, readonly Buffer[]>): Buffer {
  if (!entries.length) return Buffer.alloc(0);
  const used = new Map<string, number>();
  const parts: Buffer[] = [];
  entries.forEach((e, i) => {
    if (i > 0) parts.push(Buffer.from(`${format.eol}§${format.eol}`));
    const n = used.get(e) ?? 0;
    const stored = raw?.get(e)?.[n];
    used.set(e, n + 1);
    parts.push(stored ?? Buffer.from(format.eol === '\n' ? e : e.replace(/\n/g, '\r\n'), 'utf8'));
  });
  parts.push(Buffer.from(format.eol));
  return Buffer.concat([format.bom ? BOM : Buffer.alloc(0), ...parts]);
}
