import { describe, expect, it } from 'vitest';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDir } from '../src/mkdir.js';

describe('ensureDir (bounded mkdir -p)', () => {
  it('creates missing levels, accepts an existing directory, refuses a file in the way', () => {
    const root = mkdtempSync(join(tmpdir(), 'hm-mkdir-'));
    const deep = join(root, 'a', 'b', 'c');
    ensureDir(deep, 0o700);
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(statSync(deep).mode & 0o777).toBe(0o700);
    ensureDir(deep);
    writeFileSync(join(root, 'f'), '');
    expect(() => ensureDir(join(root, 'f', 'x'))).toThrow(/ENOTDIR/);
    expect(() => ensureDir(join(root, 'f'))).toThrow(/ENOTDIR/);
  });

  it('throws (does not spin) under /proc, where recursive mkdir never returns', () => {
    expect(() => ensureDir('/proc/forbidden/deeper')).toThrow(/ENOENT/);
  });
});
