import { readLength } from './cues.js';

/**
 * Whole-sentence text helpers of the extractive checkpoint: an item is made of whole
 * sentences (or whole lines of a block), never a string cut at a character count.
 * Lengths are characters.
 */

/** Abbreviations whose period does not end a sentence. */
const ABBREV = /(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|no|fig|mr|mrs|dr|st)|\.\.)$/i;

/**
 * Split prose into sentences: at `.`, `!`, `?` followed by a space and (not a lowercase
 * continuation of an abbreviation), at the Japanese and Chinese full stops `。！？` (no space
 * follows them), and at line breaks. Code spans and paths keep their dots (`a.ts`, `v0.1.0`)
 * because a sentence end needs whitespace after the mark.
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    const l = line.trim();
    if (!l) continue;
    let start = 0;
    const re = /[.!?]+(?=\s+|$)|[。！？]+/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(l))) {
      const end = m.index + m[0].length;
      const piece = l.slice(start, end).trim();
      if (m[0] === '.' && ABBREV.test(l.slice(start, m.index))) continue;
      if (piece) out.push(piece);
      start = end;
    }
    const rest = l.slice(start).trim();
    if (rest) out.push(rest);
  }
  return out;
}

/** Markdown list markers and heading marks removed from the start of a sentence. */
export function stripMarker(s: string): string {
  return s.replace(/^(?:[-*+]\s+|\d+[.)]\s+|#+\s+|>\s+)/, '').trim();
}

/**
 * The leading whole sentences of `text` that fit in `max` characters (a Japanese or Korean
 * character counts as three, see `readLength`; at least the first sentence, whatever its length,
 * so nothing is cut mid-sentence). Whitespace collapsed.
 */
export function leadSentences(text: string, max: number): string {
  const ss = splitSentences(text).map(stripMarker).filter(Boolean);
  let out = '';
  for (const s of ss) {
    const next = out ? `${out} ${s}` : s;
    if (out && readLength(next) > max) break;
    out = next;
  }
  return out.replace(/\s+/g, ' ').trim();
}

/**
 * `text` shortened to at most `max` characters at a sentence boundary, else at a clause
 * boundary (`, ; :` or a dash), else at a word boundary with ` …` (the only cut, for a single
 * run-on sentence longer than `max`). Never mid-word.
 */
export function shortenWhole(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const lead = leadSentences(t, max);
  if (lead.length <= max) return lead;
  const clause = t.slice(0, max + 1);
  const at = Math.max(clause.lastIndexOf(', '), clause.lastIndexOf('; '), clause.lastIndexOf(': '), clause.lastIndexOf(' - '), clause.lastIndexOf(' — '));
  if (at > max / 2) return t.slice(0, at).trim() + ' …';
  const sp = clause.lastIndexOf(' ', max - 2);
  return t.slice(0, sp > 0 ? sp : max - 2).trim() + ' …';
}

/** Normalized form for comparing items: lowercase, quotes/backticks/markdown removed, whitespace collapsed. */
export function itemKey(s: string): string {
  const hit = KEY_CACHE.get(s);
  if (hit !== undefined) return hit;
  if (KEY_CACHE.size >= KEY_CACHE_SIZE) KEY_CACHE.clear();
  const k = s
    .toLowerCase()
    .replace(/[`"'*_>“”‘’]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/[.!?,;:]+$/, '')
    .trim();
  KEY_CACHE.set(s, k);
  return k;
}

/** Keys computed at most (a checkpoint compares each new item with every item kept so far). */
const KEY_CACHE_SIZE = 8192;
const KEY_CACHE = new Map<string, string>();

/** True when `a` repeats `b`: equal, or one contains the other and the shorter has at least 24 characters. */
export function repeats(a: string, b: string): boolean {
  const x = itemKey(a);
  const y = itemKey(b);
  if (x === y) return true;
  const [s, l] = x.length <= y.length ? [x, y] : [y, x];
  return s.length >= 24 && l.includes(s);
}

/** Lines that look like a pasted log: stack frames, `Error:` lines, timestamps, file:line:col. */
const LOG_LINE = /^\s*(?:at\s+\S.*(?::\d+(?::\d+)?\)?|<anonymous>\)?)$|(?:\w+)?(?:Error|Exception|Traceback)\b.*[:(]|File ".+", line \d+|\[\d{4}-\d\d-\d\d|\d\d:\d\d:\d\d|[\w./-]+:\d+:\d+)/;

/** The first error line of a pasted log, or undefined when `text` does not look like one (at least 3 log lines, half the lines). */
export function pastedError(text: string): string | undefined {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const logLines = lines.filter((l) => LOG_LINE.test(l));
  if (logLines.length < 3 || logLines.length < lines.length / 2) return undefined;
  const err = lines.find((l) => /(?:Error|Exception|error|panic|fatal)\b[^:]*:/.test(l) && !/^\s*at\s/.test(l)) ?? logLines[0]!;
  return shortenWhole(err, 240);
}

/** `text` without the lines of a pasted log or stack trace (what the user wrote around it). */
export function withoutLogLines(text: string): string {
  return text.split('\n').filter((l) => !LOG_LINE.test(l.trim())).join('\n').trim();
}

/** A line copied from a terminal, a diff or a file view: a diff or prompt marker, a box-drawing border, or the padding a terminal copy keeps. */
const COPIED_LINE = /^\s*(?:[+-]\s*\d+\s|[+-]{1,3}\s|[➜❯$#>]\s|[│┃|]\s|\d+\s*[│|]|@@ )|\S\s{6,}$/;

/** Shortest JSON object taken for pasted data (characters). */
const JSON_PASTE_CHARS = 40;

/**
 * `text` without the JSON objects pasted into it (an API error body, a log record): from a `{"`
 * to its balanced `}`, strings read as strings, when at least JSON_PASTE_CHARS long. What they
 * hold (an error's "must have a corresponding `tool_result` block") is data, never the user's words.
 */
function withoutJson(text: string): string {
  let out = '';
  let i = 0;
  for (let at = text.indexOf('{"'); at >= 0; at = text.indexOf('{"', i)) {
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let j = at; j < text.length; j++) {
      const ch = text[j]!;
      if (inString) {
        if (ch === '\\') j++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) {
        end = j + 1;
        break;
      }
    }
    if (end < 0) break;
    if (end - at >= JSON_PASTE_CHARS) {
      out += text.slice(i, at) + ' ';
      i = end;
    } else {
      out += text.slice(i, at + 1);
      i = at + 1;
    }
  }
  return i ? out + text.slice(i) : text;
}

/**
 * `text` without what the user pasted into it: the JSON objects in it (see withoutJson), and a
 * run of at least three lines copied from a terminal, a diff or a file view (see
 * {@link COPIED_LINE}), with the wrapped lines inside it.
 * What the user wrote around the paste stays.
 */
export function withoutPaste(text: string): string {
  const said = withoutJson(text);
  const lines = said.split('\n');
  const copied = lines.map((l) => COPIED_LINE.test(l));
  if (copied.filter(Boolean).length < 3) return said;
  const first = copied.indexOf(true);
  const last = copied.lastIndexOf(true);
  return [...lines.slice(0, first), ...lines.slice(last + 1)].join('\n').trim();
}

/**
 * A user request said briefly: its leading sentences (up to `max` characters); a pasted log or
 * stack trace becomes `pasted an error: <the error line>` followed by what the user wrote around it.
 */
export function distillRequest(text: string, max = 400): string {
  const err = pastedError(text);
  if (err) {
    const prose = text
      .split('\n')
      .filter((l) => !LOG_LINE.test(l.trim()) && /[a-z]{3,}\s+[a-z]{2,}/i.test(l))
      .join(' ')
      .trim();
    const said = prose ? leadSentences(prose, Math.max(80, max - err.length - 30)) : '';
    return `pasted an error: ${err}${said ? ` (and said: ${said})` : ''}`;
  }
  return leadSentences(text, max);
}
