import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTranscriptFile } from '@hive-mind/transcripts';
import { runCli } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../../..');
const dataDir = resolve(repo, '../shared/data/transcripts');
const PORT = join(dataDir, 'claude-code/python-to-rust-port.jsonl');
const PI = join(dataDir, 'pi/large-session.jsonl');

let work: string;
let n = 0;
/** A fresh copy of a shared transcript in its own folder. */
function copy(src: string): string {
  const d = join(work, `c${++n}`);
  mkdirSync(d);
  const f = join(d, src.split('/').pop()!);
  copyFileSync(src, f);
  return f;
}
const backups = (f: string) => readdirSync(dirname(f)).filter((x) => x.includes('.hive-mind-backup-'));

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'hm-compact-out-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('compact never writes another format over its input', () => {
  it('--out naming the input (as given, relative, through a symlink, a hard link) with another --to exits 2 and leaves the session byte for byte', async () => {
    const f = copy(PORT);
    const before = readFileSync(f);
    symlinkSync(f, join(dirname(f), 'link.jsonl'));
    linkSync(f, join(dirname(f), 'hard.jsonl'));
    const rel = relative(work, f);
    const cases: Array<[string[], string]> = [
      [['--to', 'markdown', '--out', f], f],
      [['--to', 'openai', '--out', `./${relative(work, dirname(f))}/../${rel}`], ''],
      [['--to', 'anthropic', '--out', join(dirname(f), 'link.jsonl')], join(dirname(f), 'link.jsonl')],
      [['--to', 'markdown', '--out', join(dirname(f), 'hard.jsonl')], join(dirname(f), 'hard.jsonl')],
    ];
    for (const [args, named] of cases) {
      const r = await runCli(['compact', rel, '--budget', '5000', ...args], { cwd: work });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^hive-mind: --out \S+ is the input file; writing (markdown|openai|anthropic) over it would replace the session\. Use --to same to compact it in place \(a backup is kept\), or give another --out\n$/);
      if (named) expect(r.stderr).toContain(named);
      expect(readFileSync(f).equals(before)).toBe(true);
    }
    expect(lstatSync(join(dirname(f), 'link.jsonl')).isSymbolicLink()).toBe(true);
    expect(backups(f)).toEqual([]);
  });

  it('in place with --to same keeps a backup of the original beside it, prints how to restore it, and the restore works', async () => {
    const f = copy(PORT);
    const before = readFileSync(f);
    const r = await runCli(['compact', f, '--budget', '5000', '--out', f]);
    expect(r.code, r.stderr).toBe(0);
    const [b] = backups(f);
    expect(b).toMatch(/^python-to-rust-port\.jsonl\.hive-mind-backup-\d{8}T\d{9}Z$/);
    const backup = join(dirname(f), b!);
    expect(readFileSync(backup).equals(before)).toBe(true);
    expect(r.stdout).toContain(`wrote ${f} (claude-code, in place)`);
    expect(r.stdout).toContain(`backup of the original: ${backup} (to restore: cp ${backup} ${f})`);
    // the session now reads back compacted
    const back = await readTranscriptFile(f);
    expect(back.log.surface().some((x) => x.content.some((c) => c.type === 'text' && c.text.includes('<compacted-summary>')))).toBe(true);
    // a second in-place run keeps the first backup and adds its own
    const r2 = await runCli(['compact', f, '--budget', '1500', '--out', f, '--json']);
    expect(r2.code, r2.stderr).toBe(0);
    const j = JSON.parse(r2.stdout);
    expect(j.output).toEqual({ path: f, format: 'claude-code', written: true, kind: 'compacted' });
    expect(j.backup).toMatch(/\.hive-mind-backup-/);
    expect(backups(f)).toHaveLength(2);
    expect(readFileSync(backup).equals(before)).toBe(true);
    // the printed command restores the original
    const cmd = /\(to restore: (cp .*)\)$/m.exec(r.stdout)![1]!;
    execFileSync('sh', ['-c', cmd]);
    expect(readFileSync(f).equals(before)).toBe(true);
  });

  it('an in-place write through a symlinked session writes the target, keeps the link, and backs up the target', async () => {
    const f = copy(PORT);
    const before = readFileSync(f);
    const link = join(work, `link-${n}.jsonl`);
    symlinkSync(f, link);
    const r = await runCli(['compact', link, '--budget', '5000', '--out', link, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(r.stdout).backup).toBe(join(dirname(f), backups(f)[0]!));
    expect(readFileSync(join(dirname(f), backups(f)[0]!)).equals(before)).toBe(true);
    expect(readFileSync(f).equals(before)).toBe(false);
  });
});

/**
 * A preload (`node --require`) that sends the CLI a real SIGINT at a chosen moment: `listen`, as
 * soon as a SIGINT listener is added (Ctrl-C while the compaction runs); `write`, right after the
 * atomic write's temp file is opened (Ctrl-C in the middle of the write).
 */
function sigintPreload(when: 'listen' | 'write'): string {
  const f = join(work, `sigint-${when}.cjs`);
  writeFileSync(
    f,
    when === 'listen'
      ? `const on = process.on.bind(process), once = process.once.bind(process); let sent = false;
for (const [k, orig] of [['on', on], ['once', once]]) process[k] = (ev, fn) => { const r = orig(ev, fn); if (ev === 'SIGINT' && !sent) { sent = true; process.kill(process.pid, 'SIGINT'); } return r; };`
      : `const fs = require('fs'), { syncBuiltinESMExports } = require('module'); const open = fs.openSync; let sent = false;
fs.openSync = function (p, ...rest) { const fd = open.call(fs, p, ...rest); if (!sent && /\\.tmp-\\d+-/.test(String(p))) { sent = true; process.kill(process.pid, 'SIGINT'); } return fd; };
syncBuiltinESMExports();`,
  );
  return f;
}

describe('compact and Ctrl-C', () => {
  it('a SIGINT while the compaction runs is not lost: exit 130, nothing written, the input and its folder as they were', async () => {
    const f = copy(PORT);
    const before = readFileSync(f);
    const r = await runCli(['compact', f, '--budget', '5000', '--to', 'same', '--out', f], { env: { NODE_OPTIONS: `--require ${sigintPreload('listen')}` } });
    expect(r.code, r.stdout + r.stderr).toBe(130);
    expect(r.stderr).toBe('hive-mind: interrupted; nothing written\n');
    expect(readFileSync(f).equals(before)).toBe(true);
    expect(readdirSync(dirname(f))).toEqual([f.split('/').pop()]);
  });

  it('a SIGINT during the write waits for it: the output is complete, no temp file is left, the backup is reported, exit 130', async () => {
    const f = copy(PORT);
    const before = readFileSync(f);
    const r = await runCli(['compact', f, '--budget', '5000', '--to', 'same', '--out', f], { env: { NODE_OPTIONS: `--require ${sigintPreload('write')}` } });
    expect(r.signal).toBe(null);
    expect(r.code, r.stdout + r.stderr).toBe(130);
    // a run past 2 s prints progress lines (verifying, landing) first; the interruption is said once, last
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(`hive-mind: interrupted during the write, which was completed first: ${f} is written in full`);
    expect(lines.filter((l) => l.includes('interrupted'))).toHaveLength(1);
    expect(readdirSync(dirname(f)).filter((x) => x.includes('.tmp-'))).toEqual([]);
    const [b] = backups(f);
    expect(readFileSync(join(dirname(f), b!)).equals(before)).toBe(true);
    expect(r.stdout).toContain(`(to restore: cp ${join(dirname(f), b!)} ${f})`);
    const back = await readTranscriptFile(f);
    expect(readFileSync(f).subarray(0, before.length).equals(before)).toBe(true);
    expect(back.log.surface().some((x) => x.content.some((c) => c.type === 'text' && c.text.includes('<compacted-summary>')))).toBe(true);
  });
});

describe('compact output paths', () => {
  it('a directory, a missing folder or a file used as a folder: one line, exit 2, before any work', async () => {
    const f = copy(PORT);
    writeFileSync(join(work, 'plain'), 'x');
    const cases: Array<[string, RegExp]> = [
      [work, /^hive-mind: --out \S+ is a directory; give a file path, e\.g\. \S+python-to-rust-port\.compacted\.jsonl\n$/],
      [join(work, 'no-such-dir', 'out.jsonl'), /^hive-mind: --out \S+out\.jsonl: folder \S+no-such-dir does not exist; create it first\n$/],
      [join(work, 'plain', 'out.jsonl'), /^hive-mind: --out \S+: \S+plain is not a folder\n$/],
    ];
    for (const [out, re] of cases) {
      const r = await runCli(['compact', f, '--budget', '5000', '--out', out]);
      expect(r.code, out).toBe(2);
      expect(r.stderr).toMatch(re);
      expect(r.stdout).toBe('');
    }
    // the same checks in a dry run
    const d = await runCli(['compact', f, '--budget', '5000', '--dry-run', '--out', join(work, 'no-such-dir', 'o.jsonl')]);
    expect(d.code).toBe(2);
    expect(existsSync(join(work, 'no-such-dir'))).toBe(false);
  });
});

describe('compact output path through a symlink loop', () => {
  it('is one line naming the path, exit 2, nothing written', async () => {
    const f = copy(PORT);
    const d = dirname(f);
    symlinkSync(join(d, 'loop2'), join(d, 'loop1'));
    symlinkSync(join(d, 'loop1'), join(d, 'loop2'));
    const r = await runCli(['compact', f, '--budget', '5000', '--to', 'openai', '--out', join(d, 'loop1')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`hive-mind: --out ${join(d, 'loop1')}: ${join(d, 'loop1')}: too many levels of symbolic links\n`);
    expect(readdirSync(d).sort()).toEqual(['loop1', 'loop2', 'python-to-rust-port.jsonl']);
  });
});

describe('compact --dry-run predicts the real run', () => {
  it('--strategy mask that cannot reach the budget fails in the dry run exactly as in the real run', async () => {
    const f = copy(PI);
    const dry = await runCli(['compact', f, '--budget', '30000', '--strategy', 'mask', '--dry-run']);
    const real = await runCli(['compact', f, '--budget', '30000', '--strategy', 'mask']);
    expect(real.code).toBe(1);
    expect(dry.code).toBe(1);
    expect(dry.stdout).not.toContain('would compact');
    // the error is the last line; a run past 2 s prints progress lines before it (one run may, the other not)
    const errorLine = (s: string) => s.trim().split('\n').pop();
    expect(errorLine(dry.stderr)).toBe(errorLine(real.stderr));
    expect(errorLine(dry.stderr)).toMatch(/observation masking leaves \d+ tokens, above the budget 30000/);
  });

  it('a dry run that succeeds gives the figures of the real run and writes nothing', async () => {
    const f = copy(PI);
    const out = join(dirname(f), 'masked.jsonl');
    const dry = JSON.parse((await runCli(['compact', f, '--budget', '120000', '--strategy', 'mask', '--dry-run', '--json', '--out', out])).stdout);
    expect(existsSync(out)).toBe(false);
    expect(dry.output).toEqual({ path: out, format: 'pi', written: false, kind: 'compacted' });
    expect(dry.dryRun).toBe(true);
    const real = JSON.parse((await runCli(['compact', f, '--budget', '120000', '--strategy', 'mask', '--json', '--out', out])).stdout);
    expect(real.output.written).toBe(true);
    for (const k of ['tokensBefore', 'tokensAfter', 'shadowedEvents', 'toolPairing']) expect(dry[k], k).toEqual(real[k]);
    // in place, the dry run names the backup it would keep and keeps none
    const ip = await runCli(['compact', f, '--budget', '120000', '--strategy', 'mask', '--dry-run', '--out', f]);
    expect(ip.code).toBe(0);
    expect(ip.stdout).toMatch(/would keep a backup of the original: \S+large-session\.jsonl\.hive-mind-backup-\d{8}T\d{9}Z\n/);
    expect(backups(f)).toEqual([]);
  });
});

describe('compact under budget still converts (an export)', () => {
  for (const to of ['markdown', 'openai', 'anthropic'] as const) {
    it(`--to ${to} under budget writes the whole session and --json says where`, async () => {
      const f = copy(PORT);
      const out = join(dirname(f), `export.${to === 'markdown' ? 'md' : 'json'}`);
      const r = await runCli(['compact', f, '--to', to, '--out', out, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout);
      expect(j.shadowedEvents).toBe(0);
      expect(j.output).toEqual({ path: out, format: to, written: true, kind: 'export' });
      expect(j.backup).toBeNull();
      const text = readFileSync(out, 'utf8');
      expect(text).toContain('Port this Python project to Rust');
      if (to !== 'markdown') expect(() => JSON.parse(text)).not.toThrow();
      const h = await runCli(['compact', f, '--to', to, '--out', out]);
      expect(h.stdout).toMatch(new RegExp(`is already under budget: \\d+ tokens <= 160000; nothing to compact, wrote the whole session to ${out.replace(/[.]/g, '\\.')} \\(${to}\\)\\n$`));
    });
  }

  it('--to same under budget writes nothing and says so (output null)', async () => {
    const f = copy(PORT);
    const out = join(dirname(f), 'same.jsonl');
    const j = JSON.parse((await runCli(['compact', f, '--out', out, '--json'])).stdout);
    expect(j.output).toBeNull();
    expect(existsSync(out)).toBe(false);
  });
});

describe('compact --to same on a Hermes session keeps what Hermes stored', () => {
  it('in place with masking: reasoning, codex_reasoning_items, finish_reason, call_id/response_item_id and "" content survive; a backup is kept', async () => {
    const messages: Array<Record<string, unknown>> = [{ role: 'user', content: 'Which services log errors?' }];
    for (let n = 1; n <= 8; n++) {
      messages.push({
        role: 'assistant',
        content: '',
        reasoning: `Look at service ${n}.`,
        codex_reasoning_items: [{ type: 'reasoning', id: `rs_${n}`, summary: [], encrypted_content: `gAAAAB${'q'.repeat(40)}${n}` }],
        finish_reason: 'tool_calls',
        tool_calls: [{ id: `call_${n}`, call_id: `call_${n}`, response_item_id: `fc_${n}`, type: 'function', function: { name: 'terminal', arguments: JSON.stringify({ command: `journalctl -u svc${n}` }) } }],
      });
      messages.push({ role: 'tool', tool_call_id: `call_${n}`, content: Array.from({ length: 120 }, (_, i) => `svc${n} line ${i}: request served in ${i % 17} ms`).join('\n') });
    }
    messages.push({ role: 'assistant', content: 'Services 3 and 7 log errors.', reasoning: 'Scanned all logs.', finish_reason: 'stop' });
    const session = { session_id: '20261201_090000_abc', model: 'gpt-5.5', platform: 'cli', session_start: '2026-12-01T09:00:00.000001', last_updated: '2026-12-01T09:05:00.000001', system_prompt: 'You are Hermes.', message_count: messages.length, messages };
    const d = join(work, `hermes-${++n}`);
    mkdirSync(d);
    const f = join(d, 'session_20261201_090000_abc.json');
    const input = JSON.stringify(session, null, 2);
    writeFileSync(f, input);
    const r = await runCli(['compact', f, '--budget', '9000', '--strategy', 'mask', '--out', f, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.shadowedEvents).toBeGreaterThan(0);
    expect(readFileSync(j.backup, 'utf8')).toBe(input);
    const out = JSON.parse(readFileSync(f, 'utf8'));
    const assistants = out.messages.filter((m: any) => m.role === 'assistant');
    expect(assistants).toEqual(messages.filter((m) => m.role === 'assistant'));
    const tools = out.messages.filter((m: any) => m.role === 'tool');
    expect(tools.map((m: any) => m.tool_call_id)).toEqual(messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id));
    expect(tools.some((m: any) => String(m.content).includes('[observation masked by hive-mind:'))).toBe(true);
    expect(out.message_count).toBe(out.messages.length);
  });
});
