import { describe, expect, it } from 'vitest';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTranscriptFile } from '@hive-mind/transcripts';
import { extractSections, toolInfo } from '@hive-mind/compaction';
import { LogBuilder } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const files = (secs: ReturnType<typeof extractSections>) => (secs.find((s) => s.heading === 'Files')?.items ?? []).map((i) => i.text);

/** Codex 0.171 unified-exec output around a command's output (codex-rs unified_exec). */
const execOut = (code: number, out: string) => `Chunk ID: 1a2b3c\nWall time: 0.0100 seconds\nProcess exited with code ${code}\nOriginal token count: 40\nOutput:\n${out}`;

describe('Codex reads and writes through its shell tools', () => {
  it('the real rollout: the three files cat read through exec_command are listed as read', async () => {
    const t = await readTranscriptFile(join(here, 'fixtures/codex-0.171-three-reads.jsonl'));
    const f = files(extractSections(t.log.surface()));
    for (const m of ['module_0.py', 'module_1.py', 'module_2.py']) expect(f).toContain(`\`${m}\` (read)`);
  });

  it('cat, sed -n, nl -ba, head, rg with file operands are reads; patterns, option values, globs and directories are not', () => {
    const reads = (cmd: string) => toolInfo('exec_command', { cmd, workdir: '/w' }).reads ?? [];
    expect(reads("sed -n '1,200p' src/lib.rs")).toEqual(['src/lib.rs']);
    expect(reads("nl -ba codex-rs/core/src/tools/mod.rs | sed -n '40,90p'")).toEqual(['codex-rs/core/src/tools/mod.rs']);
    expect(reads('head -n 40 Cargo.toml')).toEqual(['Cargo.toml']);
    expect(reads('rg -n "fn main" src/main.rs src/cli.rs')).toEqual(['src/main.rs', 'src/cli.rs']);
    expect(reads('grep -n console packages/a/src/theme.ts')).toEqual(['packages/a/src/theme.ts']);
    expect(reads('cd packages/core && cat README.md')).toEqual(['packages/core/README.md']);
    expect(reads("rg -n -g '*.ts' needle src")).toEqual([]);
    expect(reads('wc -l src/*.py')).toEqual([]);
    expect(reads("cat <<'EOF' > notes.md\nsee src/a.ts\nEOF")).toEqual([]);
    // the argv form of the `shell` tool reads the same way
    expect(toolInfo('shell', { command: ['bash', '-lc', "sed -n '1,80p' src/app.py"] }).reads).toEqual(['src/app.py']);
  });

  it('apply_patch given to a shell tool (argv or heredoc) is a patch: created, modified and deleted files', () => {
    const argv = toolInfo('shell', { command: ['apply_patch', '*** Begin Patch\n*** Add File: src/new.rs\n+pub fn a() {}\n*** Update File: src/lib.rs\n@@\n-mod x;\n+mod new;\n*** End Patch\n'] });
    expect(argv.paths).toEqual(['src/new.rs', 'src/lib.rs']);
    expect(argv.created).toEqual(['src/new.rs']);
    const heredoc = toolInfo('exec_command', { cmd: "apply_patch <<'PATCH'\n*** Begin Patch\n*** Delete File: old.py\n*** End Patch\nPATCH" });
    expect(heredoc.deleted).toEqual(['old.py']);
  });

  it('a Codex session reading with sed/nl and patching through exec_command lists each file in its end state', () => {
    const b = new LogBuilder().user('Fix the off-by-one in the pager; keep the public API as is.');
    b.tool('exec_command', { cmd: 'rg -n "page_size" src/pager.rs', workdir: '/w' }, execOut(0, '12:    let page_size = 10;\n48:    for i in 0..=page_size {'));
    b.tool('exec_command', { cmd: "nl -ba src/pager.rs | sed -n '40,60p'", workdir: '/w' }, execOut(0, '    48\t    for i in 0..=page_size {'));
    b.tool('exec_command', { cmd: "apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: src/pager.rs\n@@\n-    for i in 0..=page_size {\n+    for i in 0..page_size {\n*** Add File: tests/pager.rs\n+#[test] fn pages() {}\n*** End Patch\nPATCH", workdir: '/w' }, execOut(0, 'Success. Updated the following files:\nM src/pager.rs\nA tests/pager.rs'));
    b.tool('exec_command', { cmd: 'cat README.md', workdir: '/w' }, execOut(0, '# pager'));
    const f = files(extractSections(b.log.surface()));
    expect(f).toContain('`src/pager.rs` (modified)');
    expect(f).toContain('`tests/pager.rs` (created)');
    expect(f).toContain('`README.md` (read)');
    expect(f.join('\n')).not.toMatch(/pager\.rs` \(read\)/);
  });
});
