import { closeSync, constants, copyFileSync, existsSync, fchmodSync, fsyncSync, linkSync, lstatSync, openSync, readlinkSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Symlink hops {@link realTarget} follows before giving up (the kernel's own limit, MAXSYMLINKS). */
const MAX_SYMLINK_HOPS = 40;

/**
 * The file a path really names: symlinks are followed (also a dangling link, whose target
 * may not exist yet), up to 40 hops; a path that is not a symlink is returned as given
 * (absolute). Users keep `settings.json`, MEMORY.md & co. as links into a dotfiles
 * repository: writers replace the link's target and keep the link.
 * @throws Error when there are more than 40 levels of links (a loop).
 */
export function realTarget(path: string): string {
  let p = resolve(path);
  for (let hops = 0; hops < MAX_SYMLINK_HOPS; hops++) {
    let st;
    try {
      st = lstatSync(p);
    } catch {
      return p;
    }
    if (!st.isSymbolicLink()) return p;
    p = resolve(dirname(p), readlinkSync(p));
  }
  throw new Error(`${path}: too many levels of symbolic links`);
}

/** fsync a directory so a rename or link in it survives a crash; platforms that cannot (EISDIR/EINVAL/EPERM, e.g. Windows) are skipped. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM' && code !== 'EACCES') throw e;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Permission bits of a new file (default 0o600); an existing file keeps its own. */
  mode?: number;
}

/**
 * Replace the file at `path` with `data`, all or nothing, the one atomic write of the
 * project: the data goes to a temp file beside the real target
 * (`.<name>.tmp-<pid>-<random>`), which is fsynced, renamed over the target, then the
 * directory is fsynced so the rename itself is durable. When `path` is a symlink the link's
 * target is replaced and the link stays. An existing file keeps its permission bits; a new
 * one gets `mode`. No directory is created: a missing folder is an error (callers create
 * their own directories, see `ensureDir`). On failure the temp file is removed and the old
 * file is untouched.
 * Returns the path actually written (the real target).
 * @throws the fs error (ENOENT for a missing folder, EISDIR when the target is a directory,
 *   EACCES...), or Error for a symlink loop.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): string {
  const target = realTarget(path);
  const dir = dirname(target);
  let mode = opts.mode ?? 0o600;
  let existing = false;
  try {
    const st = statSync(target);
    if (st.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${target}'`), { code: 'EISDIR' });
    mode = st.mode & 0o7777;
    existing = true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const tmp = join(dir, `.${basename(target)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  const fd = openSync(tmp, 'wx', mode);
  try {
    try {
      if (existing) fchmodSync(fd, mode); // the umask applied to openSync's mode; an existing file keeps its exact bits
      const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off, buf.length - off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, target);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* already renamed or gone */
    }
    throw e;
  }
  fsyncDir(dir);
  return target;
}

/** `YYYYMMDDTHHMMSSmmmZ`, the time part of backup names. */
export function backupStamp(d = new Date()): string {
  return d.toISOString().replace(/[-:]/g, '').replace('.', '');
}

/**
 * Copy the file at `path` (its real target when `path` is a symlink) to
 * `<target>.hive-mind-backup-<stamp>` beside it and return the backup's path (undefined when
 * `path` does not exist). The copy goes to a temp file first, is fsynced, then gets its name by
 * a hard link, which never replaces a file: a backup under its final name is always complete,
 * and an existing backup is never overwritten (a second one in the same millisecond gets `-1`,
 * `-2`...). Permission bits are copied. Where hard links are not supported the temp file is
 * renamed to a name checked free just before.
 * @throws the fs error of the copy (EACCES, ENOSPC...); the temp file is then removed.
 */
export function backupFile(path: string, now = new Date()): string | undefined {
  const target = realTarget(path);
  try {
    statSync(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const dir = dirname(target);
  const tmp = join(dir, `.${basename(target)}.hive-mind-backup-tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    copyFileSync(target, tmp, constants.COPYFILE_EXCL);
    const fd = openSync(tmp, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    const base = `${target}.hive-mind-backup-${backupStamp(now)}`;
    for (let i = 0; ; i++) {
      const dest = i === 0 ? base : `${base}-${i}`;
      try {
        linkSync(tmp, dest);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EEXIST' && i < 1000) continue;
        if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw e;
        if (existsSync(dest)) continue;
        renameSync(tmp, dest); // no hard links here (some FUSE and FAT file systems)
      }
      fsyncDir(dir);
      return dest;
    }
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      /* linked and removed, or renamed */
    }
  }
}
