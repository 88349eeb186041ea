import { existsSync, readFileSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { backupFile, realTarget, writeFileAtomic } from '@hive-mind/mind/atomic';
import { ensureDir } from '../mkdir.js';
import { HostConfigError } from './errors.js';

/** The file's text, or undefined when it does not exist. Throws HostConfigError naming the file when it cannot be read (a directory, no permission). */
export function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw HostConfigError.io(path, 'read', e);
  }
}

/**
 * Write `text` to `path` atomically through any symlink (the link's target is replaced, the
 * link stays; an existing file keeps its permission bits, new files get 0600), creating the
 * target's directory (bounded, see `ensureDir`): the project's one atomic write,
 * `writeFileAtomic` of @hive-mind/mind (temp file, fsync, rename, directory fsync).
 */
export function writeAtomic(linkPath: string, text: string): void {
  ensureDir(dirname(realTarget(linkPath)));
  writeFileAtomic(linkPath, text);
}

/**
 * The ancestor directories of `file` (after following a symlinked `file`) that do not exist
 * yet, deepest first: what writing `file` creates. Installers record them so uninstall can
 * remove them again ({@link removeEmptyDirs}).
 */
export function missingDirs(file: string): string[] {
  const out: string[] = [];
  let d = dirname(realTarget(file));
  while (!existsSync(d)) {
    out.push(d);
    const up = dirname(d);
    if (up === d) break;
    d = up;
  }
  return out;
}

/** Remove each directory that is empty, deepest first; a non-empty or missing one is left as it is. */
export function removeEmptyDirs(dirs: string[]): void {
  for (const d of [...new Set(dirs)].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(d);
    } catch {
      // not empty, gone, or not ours to remove
    }
  }
}

/** Backups beside the real target (`<file>.hive-mind-backup-<stamp>`, never overwriting one), see @hive-mind/mind. */
export { backupFile };

/**
 * Commit one config edit: back `file` up (timestamped, next to its real target) and write
 * `after` atomically through any symlink; or, when `after` is undefined, delete the file
 * without a backup (it held only what our install created): the link's target, so a
 * symlinked config stays a link, as it was before install. Returns the backup path.
 */
export function commitFile(file: string, after: string | undefined): string | undefined {
  if (after === undefined) {
    unlinkSync(realTarget(file));
    return undefined;
  }
  const backup = backupFile(file);
  try {
    writeAtomic(file, after);
  } catch (e) {
    // the file is as it was: no backup of it is left behind
    if (backup) rmSync(backup, { force: true });
    throw e;
  }
  return backup;
}

/**
 * A unified diff (`--- a/…`, `+++ b/…`, `@@` hunks with 3 lines of context) of two
 * texts, line by line (LCS). '' when equal. The equal leading and trailing lines are
 * matched first, so the LCS (O(k²) memory) only covers the changed middle, k lines: an
 * install into a config of thousands of lines stays fast.
 */
export function unifiedDiff(path: string, before: string, after: string): string {
  if (before === after) return '';
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === '' ? [] : after.replace(/\n$/, '').split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const n = a.length - tail;
  const m = b.length - tail;
  const lcs: Uint32Array[] = Array.from({ length: n - head + 1 }, () => new Uint32Array(m - head + 1));
  const L = (i: number, j: number) => lcs[i - head]![j - head]!;
  for (let i = n - 1; i >= head; i--) for (let j = m - 1; j >= head; j--) lcs[i - head]![j - head] = a[i] === b[j] ? L(i + 1, j + 1) + 1 : Math.max(L(i + 1, j), L(i, j + 1));
  type Op = { t: ' ' | '-' | '+'; s: string; ai: number; bi: number };
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < head) ops.push({ t: ' ', s: a[i]!, ai: i++, bi: j++ });
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ t: ' ', s: a[i]!, ai: i++, bi: j++ });
    else if (i < n && (j === m || L(i + 1, j) >= L(i, j + 1))) ops.push({ t: '-', s: a[i]!, ai: i++, bi: j });
    else ops.push({ t: '+', s: b[j]!, ai: i, bi: j++ });
  }
  while (i < a.length) ops.push({ t: ' ', s: a[i]!, ai: i++, bi: j++ });
  const out = [`--- ${path}`, `+++ ${path}`];
  const C = 3;
  let k = 0;
  while (k < ops.length) {
    if (ops[k]!.t === ' ') {
      k++;
      continue;
    }
    let start = Math.max(0, k - C);
    let end = k;
    // extend the hunk while changes are within 2*C lines of each other
    let last = k;
    while (end < ops.length) {
      if (ops[end]!.t !== ' ') last = end;
      else if (end - last > 2 * C) break;
      end++;
    }
    end = Math.min(ops.length, last + C + 1);
    const hunk = ops.slice(start, end);
    const aStart = hunk[0]!.ai;
    const bStart = hunk[0]!.bi;
    const aLen = hunk.filter((o) => o.t !== '+').length;
    const bLen = hunk.filter((o) => o.t !== '-').length;
    out.push(`@@ -${aLen ? aStart + 1 : aStart},${aLen} +${bLen ? bStart + 1 : bStart},${bLen} @@`);
    for (const o of hunk) out.push(o.t + o.s);
    k = end;
    start = end;
  }
  return out.join('\n') + '\n';
}
