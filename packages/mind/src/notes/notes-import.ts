/**
 * Adopting the notes a Hermes user already keeps. Hermes (NousResearch hermes-agent,
 * `tools/memory_tool.py`) keeps two bounded files under `<HERMES_HOME or ~/.hermes>/memories/`:
 * `MEMORY.md` (the agent's notes, 2,200 characters by default) and `USER.md` (the user profile,
 * 1,375), entries separated by `\n§\n` — the format and limits these notes share. At session start
 * Hermes renders both into the system prompt as blocks:
 *
 * ```
 * ══════════════════════════════════════════════      (46 × U+2550)
 * MEMORY (your personal notes) [67% — 1,474/2,200 chars]
 * ══════════════════════════════════════════════
 * entry
 * §
 * entry
 * ```
 *
 * (`USER PROFILE (who the user is) [...]` for USER.md), so a session file holds them too.
 * Nothing here writes to Hermes's files: they are only read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { hostDir } from '@hive-mind/transcripts/host-dirs';
import { join, resolve } from 'node:path';
import { MindError } from '../errors.js';
import { Notes, parseEntries, type NotesTarget } from './notes.js';
import { jaccard, nearDuplicate, normalizeForHash, preview, wordSet } from '../text.js';

/** One Hermes store found: where, which of our targets it maps to, its entries and the limit it declares. */
export interface HermesStore {
  /** `memory` (MEMORY.md) or `user` (USER.md). */
  file: 'memory' | 'user';
  /** The file it was read from (for a block in a session: the session file). */
  source: string;
  entries: string[];
  /** The character limit the Hermes block header declares (undefined for a plain file). */
  limit?: number;
}

/** The Hermes home: `dir` when given, else `HERMES_HOME`, else `~/.hermes` (transcripts' `hostDir`). */
export function hermesHome(dir?: string, env: NodeJS.ProcessEnv = process.env): string {
  return dir ? resolve(dir) : hostDir('hermes', env).dir;
}

/** MEMORY.md and USER.md of a Hermes home that exist (read only). */
export function readHermesFiles(home: string): HermesStore[] {
  const out: HermesStore[] = [];
  for (const [file, name] of [['memory', 'MEMORY.md'], ['user', 'USER.md']] as const) {
    const p = join(home, 'memories', name);
    if (!existsSync(p)) continue;
    out.push({ file, source: p, entries: parseEntries(readFileSync(p, 'utf8')) });
  }
  return out;
}

/** A Hermes memory block's header: title, then `[pct% — current/limit chars]` (`_render_block`), between two rules of ═. */
const HEADER = /═{10,}\n(MEMORY \(your personal notes\)|USER PROFILE(?: \(who the user is\))?) \[\d+% — ([\d,]+)\/([\d,]+) chars\]\n═{10,}\n/g;
/** Where a block ends when its declared size does not fit the text (edited by hand, cut): the next rule, or a blank line not followed by §. */
const LOOSE_END = /\n*═{10,}\n|\n\n(?!§)/g;

/**
 * The body of the block whose header ends at `start`. Hermes declares the body's exact size in its
 * header (`current` = `len(content)` in Python: code points, not UTF-16 units), and the body is
 * followed by the end of the text, a newline (parts of a system prompt are joined with a blank line) or
 * the next block's rule; when `current` code points from `start` end like that, they are the body, blank
 * lines and all (a USER.md entry holding paragraphs). Otherwise (the text was edited or cut) the body
 * runs to {@link LOOSE_END}.
 */
function blockBody(text: string, start: number, current: number): string {
  let i = start;
  let n = 0;
  while (n < current && i < text.length) {
    i += text.codePointAt(i)! > 0xffff ? 2 : 1;
    n++;
  }
  const exact = text.slice(start, i);
  const after = text[i] ?? '';
  // a wrong size that reaches into the next block is not the body: no entry holds a rule line of its own
  if (n === current && (after === '' || after === '\n' || after === '═') && !/(^|\n)═{10,}\n/.test(exact)) return exact;
  LOOSE_END.lastIndex = start;
  const end = LOOSE_END.exec(text);
  return text.slice(start, end ? end.index : text.length);
}

/**
 * The memory blocks rendered into a system prompt (any text holding them), each with the entries of
 * its whole body (its declared size, see {@link blockBody}) and the limit its header declares.
 */
export function parseHermesBlocks(text: string, source: string): HermesStore[] {
  const out: HermesStore[] = [];
  const t = text.replace(/\r\n?/g, '\n');
  for (const m of t.matchAll(HEADER)) {
    const body = blockBody(t, m.index + m[0].length, Number(m[2]!.replace(/,/g, '')));
    const entries = parseEntries(body);
    if (!entries.length) continue;
    out.push({ file: m[1]!.startsWith('USER') ? 'user' : 'memory', source, entries, limit: Number(m[3]!.replace(/,/g, '')) });
  }
  return out;
}

/** The memory blocks in a Hermes session file (JSON or JSONL): every string in it is searched. Throws `INVALID` for a file that is neither. */
export function readHermesSessionBlocks(path: string): HermesStore[] {
  const text = readFileSync(path, 'utf8');
  const strings: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') {
      if (v.includes('═')) strings.push(v);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  try {
    walk(JSON.parse(text));
  } catch {
    let n = 0;
    text.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      try {
        walk(JSON.parse(line));
        n++;
      } catch {
        throw new MindError(`${path}:${i + 1}: not JSON; expected a Hermes session file (JSON or JSONL)`, 'INVALID', path);
      }
    });
    if (!n) throw new MindError(`${path}: empty file; expected a Hermes session file`, 'INVALID', path);
  }
  // the same blocks repeat in every request of a session: keep each distinct block once
  const seen = new Set<string>();
  return strings.flatMap((s) => parseHermesBlocks(s, path)).filter((b) => {
    const k = b.file + '\0' + b.entries.join('\0');
    return seen.has(k) ? false : (seen.add(k), true);
  });
}

/** What adopting did with one entry. */
export interface AdoptedEntry {
  file: 'memory' | 'user';
  source: string;
  entry: string;
  /**
   * `added`; `present` (our notes already say it, word for word or as a near-duplicate);
   * `conflict` (added, but an entry of ours on the same subject says something else: `with`);
   * `refused` (over our limit, or flagged by the threat scan: `reason`; kept as a pending frame).
   */
  status: 'added' | 'present' | 'conflict' | 'refused';
  with?: string;
  reason?: string;
}

/** Result of {@link adoptHermesNotes}. */
export interface AdoptReport {
  entries: AdoptedEntry[];
  /** Hermes limits larger than ours (entries may not all fit): file, theirs, ours. */
  limits: Array<{ file: 'memory' | 'user'; hermes: number; ours: number }>;
}

/** Word-set Jaccard at or above which two entries are on the same subject (below the near-duplicate threshold: they differ). */
const SAME_SUBJECT = 0.5;

/**
 * Add the entries of Hermes stores to our notes, in order, each once: entries our notes already
 * hold are `present`; an entry on the same subject as one of ours but saying something else is
 * added and reported as a `conflict`; entries our limit or threat scan refuses are `refused`
 * (kept as pending frames by {@link Notes}). Writes only our notes files.
 */
export function adoptHermesNotes(notes: Notes, stores: HermesStore[]): AdoptReport {
  const report: AdoptReport = { entries: [], limits: [] };
  for (const store of stores) {
    const target: NotesTarget = { file: store.file };
    const ours = store.file === 'user' ? notes.userCharLimit : notes.memoryCharLimit;
    if (store.limit && store.limit > ours && !report.limits.some((l) => l.file === store.file)) report.limits.push({ file: store.file, hermes: store.limit, ours });
    store.entries.forEach((entry, i) => {
      const existing = notes.read(target).entries;
      if (existing.some((e) => normalizeForHash(e) === normalizeForHash(entry) || nearDuplicate(e, entry))) {
        report.entries.push({ file: store.file, source: store.source, entry, status: 'present' });
        return;
      }
      const words = wordSet(entry);
      const rival = existing.find((e) => jaccard(wordSet(e), words) >= SAME_SUBJECT);
      const r = notes.add(target, entry, { turnId: `hermes-import-${Date.now()}-${store.file}-${i}`, origin: { host: 'hermes', source: 'import' } });
      if (r.ok) report.entries.push({ file: store.file, source: store.source, entry, status: rival ? 'conflict' : 'added', ...(rival ? { with: preview(rival, 120) } : {}) });
      else report.entries.push({ file: store.file, source: store.source, entry, status: 'refused', reason: r.reason });
    });
  }
  return report;
}
