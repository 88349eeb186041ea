import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Notes, writeFileAtomic, realTarget, backupFile } from '@hive-mind/mind';
import { tmp } from './helpers.js';

let t: ReturnType<typeof tmp>;
beforeEach(() => {
  t = tmp('hm-atomic-');
});
afterEach(() => t.cleanup());

describe('writeFileAtomic', () => {
  it('writes through a symlink: the target gets the bytes, the link stays a link', () => {
    const real = join(t.dir, 'dotfiles', 'notes.md');
    mkdirSync(join(t.dir, 'dotfiles'));
    writeFileSync(real, 'old\n');
    const link = join(t.dir, 'notes.md');
    symlinkSync('dotfiles/notes.md', link);
    expect(writeFileAtomic(link, 'new\n')).toBe(real);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('dotfiles/notes.md');
    expect(readFileSync(real, 'utf8')).toBe('new\n');
    expect(readdirSync(join(t.dir, 'dotfiles'))).toEqual(['notes.md']); // no temp file left
  });

  it('a dangling link creates its target', () => {
    mkdirSync(join(t.dir, 'd'));
    symlinkSync(join(t.dir, 'd', 'x.md'), join(t.dir, 'x.md'));
    writeFileAtomic(join(t.dir, 'x.md'), 'a');
    expect(readFileSync(join(t.dir, 'd', 'x.md'), 'utf8')).toBe('a');
    expect(lstatSync(join(t.dir, 'x.md')).isSymbolicLink()).toBe(true);
  });

  it('keeps the permission bits of an existing file; new files get the given mode (default 0600)', () => {
    const p = join(t.dir, 'f');
    writeFileSync(p, 'x');
    chmodSync(p, 0o664);
    writeFileAtomic(p, 'y');
    expect(statSync(p).mode & 0o777).toBe(0o664);
    writeFileAtomic(join(t.dir, 'g'), 'y');
    expect(statSync(join(t.dir, 'g')).mode & 0o777).toBe(0o600);
    writeFileAtomic(join(t.dir, 'h'), 'y', { mode: 0o640 });
    expect(statSync(join(t.dir, 'h')).mode & 0o777).toBe(0o640);
  });

  it('creates no directory: a missing folder is ENOENT and nothing is left behind', () => {
    expect(() => writeFileAtomic(join(t.dir, 'no', 'such', 'f'), 'x')).toThrow(/ENOENT/);
    expect(existsSync(join(t.dir, 'no'))).toBe(false);
  });

  it('refuses a directory target (EISDIR) and leaves no temp file', () => {
    mkdirSync(join(t.dir, 'dir'));
    expect(() => writeFileAtomic(join(t.dir, 'dir'), 'x')).toThrow(/EISDIR/);
    expect(readdirSync(t.dir)).toEqual(['dir']);
  });

  it('a symlink loop is an error, not a hang', () => {
    symlinkSync(join(t.dir, 'b'), join(t.dir, 'a'));
    symlinkSync(join(t.dir, 'a'), join(t.dir, 'b'));
    expect(() => realTarget(join(t.dir, 'a'))).toThrow(/too many levels of symbolic links/);
  });
});

describe('backupFile', () => {
  it('never overwrites a backup: two in the same millisecond are both kept, complete, and no temp file stays', () => {
    const p = join(t.dir, 'session.jsonl');
    writeFileSync(p, 'v1\n');
    const now = new Date('2026-12-01T08:00:00.123Z');
    const a = backupFile(p, now)!;
    writeFileSync(p, 'v2\n');
    const b = backupFile(p, now)!;
    expect(a).toBe(`${p}.hive-mind-backup-20261201T080000123Z`);
    expect(b).toBe(`${a}-1`);
    expect(readFileSync(a, 'utf8')).toBe('v1\n');
    expect(readFileSync(b, 'utf8')).toBe('v2\n');
    expect(readdirSync(t.dir).sort()).toEqual(['session.jsonl', 'session.jsonl.hive-mind-backup-20261201T080000123Z', 'session.jsonl.hive-mind-backup-20261201T080000123Z-1']);
    expect(backupFile(join(t.dir, 'missing'))).toBeUndefined();
  });

  it('backs up a symlinked file as its target, beside the target', () => {
    mkdirSync(join(t.dir, 'real'));
    writeFileSync(join(t.dir, 'real', 's.json'), '[]');
    symlinkSync(join(t.dir, 'real', 's.json'), join(t.dir, 's.json'));
    const b = backupFile(join(t.dir, 's.json'))!;
    expect(b.startsWith(join(t.dir, 'real', 's.json.hive-mind-backup-'))).toBe(true);
    expect(readFileSync(b, 'utf8')).toBe('[]');
  });
});

describe('notes through a symlinked MEMORY.md', () => {
  it('a MEMORY.md kept as a link into a dotfiles folder stays a link after add/replace/remove', () => {
    const home = join(t.dir, 'home');
    mkdirSync(join(home, 'memories'), { recursive: true });
    mkdirSync(join(t.dir, 'dotfiles'));
    const real = join(t.dir, 'dotfiles', 'MEMORY.md');
    writeFileSync(real, 'kept entry\n');
    const link = join(home, 'memories', 'MEMORY.md');
    symlinkSync(real, link);
    const notes = new Notes({ home });
    expect(notes.add({ file: 'memory' }, 'second entry').ok).toBe(true);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toContain('second entry');
    expect(readFileSync(real, 'utf8')).toContain('kept entry');
    expect(notes.replace({ file: 'memory' }, 'second entry', 'third entry').ok).toBe(true);
    expect(notes.remove({ file: 'memory' }, 'kept entry').ok).toBe(true);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toBe('third entry\n');
  });
});
