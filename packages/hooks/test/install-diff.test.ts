/**
 * The unified diff `install --dry-run` prints (files.ts `unifiedDiff`): hunks with 3 lines
 * of context, also for a config of thousands of lines (a Claude Code settings.json whose
 * `permissions.allow` grew with every "always allow"), where only the changed middle is
 * aligned line by line.
 */
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../src/index.js';

describe('unifiedDiff', () => {
  it('an insertion in the middle: one hunk with 3 lines of context each side', () => {
    expect(unifiedDiff('f', 'a\nb\nc\nd\ne\nf\ng\nh\n', 'a\nb\nc\nX\nd\ne\nf\ng\nh\n')).toBe('--- f\n+++ f\n@@ -1,6 +1,7 @@\n a\n b\n c\n+X\n d\n e\n f\n');
  });
  it('a created, a deleted and an emptied file', () => {
    expect(unifiedDiff('f', '', 'x\n')).toBe('--- f\n+++ f\n@@ -0,0 +1,1 @@\n+x\n');
    expect(unifiedDiff('f', 'x\n', '')).toBe('--- f\n+++ f\n@@ -1,1 +0,0 @@\n-x\n');
    expect(unifiedDiff('f', 'same\n', 'same\n')).toBe('');
  });
  it('repeated lines next to the change', () => {
    expect(unifiedDiff('f', 'a\na\na\n', 'a\na\n')).toBe('--- f\n+++ f\n@@ -1,3 +1,2 @@\n a\n a\n-a\n');
    expect(unifiedDiff('f', 'a\nb', 'a\nc')).toBe('--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n');
  });
  it('a 50,000-line config: the hunk is where the change is, with its line numbers', () => {
    const allow = Array.from({ length: 50_000 }, (_, i) => `      "Bash(npm run task-${i})",`);
    const before = ['{', '  "permissions": {', '    "allow": [', ...allow, '    ]', '  }', '}', ''].join('\n');
    const after = before.replace('  }\n}', '  },\n  "hooks": {}\n}');
    const n = allow.length + 3;
    expect(unifiedDiff('s.json', before, after)).toBe(
      `--- s.json\n+++ s.json\n@@ -${n - 1},5 +${n - 1},6 @@\n ${allow[allow.length - 2]}\n ${allow[allow.length - 1]}\n     ]\n-  }\n+  },\n+  "hooks": {}\n }\n`,
    );
  });
});
