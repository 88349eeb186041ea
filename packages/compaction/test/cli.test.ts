import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzePairing, type SurfaceNode } from '@hive-mind/session';
import { parseTranscript, readTranscriptFile } from '@hive-mind/transcripts';
import { TokenMeter } from '@hive-mind/compaction';
import { runCli } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../../..');
const bin = join(repo, 'packages/cli/bin/hive-mind.js');
const dataDir = resolve(repo, '../shared/data/transcripts');

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...listFiles(p));
    else out.push(p);
  }
  return out.sort();
}

/** Budgets that force real compaction of the known files (tokens, o200k_base). */
const BUDGETS: Record<string, string[]> = {
  'claude-code/coverage-test-fix.jsonl': ['--budget', '1500'],
  'claude-code/native-compact-2.1.332.jsonl': ['--budget', '300', '--summary-max', '150', '--retain', '80'],
  'claude-code/python-to-rust-port.jsonl': ['--budget', '5000'],
  'codex/hello-0.171.jsonl': ['--budget', '5030', '--summary-max', '100', '--retain', '20'],
  'pi/before-compaction.jsonl': ['--budget', '50000'],
  'pi/large-session.jsonl': ['--budget', '50000'],
};

let work: string;
beforeAll(() => {
  if (!existsSync(bin) || !existsSync(join(repo, 'packages/cli/dist/commands/compact.js'))) throw new Error('build the CLI first: npx tsc -b packages/cli');
  work = mkdtempSync(join(tmpdir(), 'hm-compact-cli-'));
  cpSync(dataDir, join(work, 'data'), { recursive: true });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function balanced(nodes: readonly SurfaceNode[]): boolean {
  return analyzePairing(nodes).unanswered.length === 0;
}

describe('hive-mind compact on every real transcript', () => {
  const files = listFiles(dataDir).map((f) => relative(dataDir, f));
  it('has the sample files', () => expect(files.length).toBeGreaterThanOrEqual(6));
  for (const rel of files) {
    it(`${rel}: tokensAfter <= budget, balanced pairing, output re-readable`, async () => {
      const file = join(work, 'data', rel);
      const inputBefore = readFileSync(file);
      let args = BUDGETS[rel];
      if (!args) {
        // a file added later: half its surface tokens, or the smallest budget the engine names
        const t = await readTranscriptFile(file);
        args = ['--budget', String(Math.max(1, Math.floor(new TokenMeter().countEvents(t.log.surface()) / 2)))];
        const probe = await runCli(['compact', file, ...args, '--dry-run', '--json']);
        const m = /smallest budget that can work is (\d+)/.exec(probe.stderr);
        if (m) args = ['--budget', m[1]!];
      }
      const r = await runCli(['compact', file, ...args, '--json']);
      expect(r.stderr).not.toMatch(/hive-mind:/);
      expect(r.code).toBe(0);
      const j = JSON.parse(r.stdout);
      expect(Object.keys(j)).toEqual(['format', 'strategy', 'summarizer', 'tokensBefore', 'tokensAfter', 'budget', 'shadowedEvents', 'summaryTokens', 'anchors', 'repairedSections', 'toolPairing', 'durationMs', 'dryRun', 'output', 'backup', 'overhead', 'fallback', 'session']);
      expect(j.tokensAfter).toBeLessThanOrEqual(j.budget);
      expect(j.toolPairing).toBe('balanced');
      expect(Object.keys(j.anchors)).toEqual(['total', 'kept', 'reinserted']);
      if (BUDGETS[rel]) {
        // the chosen budgets force a real compaction
        expect(j.tokensBefore).toBeGreaterThan(j.budget);
        expect(j.shadowedEvents).toBeGreaterThan(0);
        expect(j.summaryTokens).toBeGreaterThan(0);
      }
      // the input is untouched; the output sits next to it and reads back with the same surface size
      expect(readFileSync(file).equals(inputBefore)).toBe(true);
      if (j.shadowedEvents > 0) {
        const out = file.replace(/(\.[^.]+)$/, '.compacted$1');
        expect(existsSync(out)).toBe(true);
        const back = await readTranscriptFile(out);
        expect(back.format).toBe(j.format);
        expect(balanced(back.log.surface())).toBe(true);
        expect(new TokenMeter().countEvents(back.log.surface())).toBeLessThanOrEqual(j.budget);
        expect(back.log.surface().some((n) => n.content.some((b) => b.type === 'text' && b.text.includes('<compacted-summary>')))).toBe(true);
      }
      expect(readdirSync(dirname(file)).filter((f) => f.includes('.tmp-'))).toEqual([]);
    });
  }
});

describe('hive-mind compact: modes and bad input', () => {
  const src = () => join(work, 'data', 'claude-code/python-to-rust-port.jsonl');

  it('--to openai writes a message array where every tool call has its result', async () => {
    const out = join(work, 'port.openai.json');
    const r = await runCli(['compact', src(), '--budget', '5000', '--to', 'openai', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/compacted .*python-to-rust-port\.jsonl \(claude-code\): \d+ -> \d+ tokens \(budget 5000\)/);
    expect(r.stdout).toContain(`wrote ${out} (openai)`);
    const msgs = JSON.parse(readFileSync(out, 'utf8')) as Array<{ role: string; content: unknown; tool_calls?: Array<{ id: string }>; tool_call_id?: string }>;
    expect(JSON.stringify(msgs[0])).toContain('<compacted-summary>');
    const calls = msgs.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
    const results = new Set(msgs.filter((m) => m.role === 'tool').map((m) => m.tool_call_id));
    for (const c of calls) expect(results.has(c)).toBe(true);
    const back = parseTranscript(readFileSync(out, 'utf8'));
    expect(back.format).toBe('openai');
  });

  it('--dry-run shows the span and writes nothing: the real figures with the extractive summarizer, an estimate with a model summarizer (never called)', async () => {
    const r = await runCli(['compact', src(), '--budget', '5000', '--dry-run', '--out', join(work, 'dry.jsonl')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/would compact .*: \d+ -> \d+ tokens \(budget 5000\)/);
    expect(r.stdout).toMatch(/would replace \d+ surface events \(log seqs \d+ to \d+, \d+ tokens\) with a \d+-token checkpoint \(extractive\)/);
    expect(r.stdout).toContain(`would write ${join(work, 'dry.jsonl')} (claude-code)`);
    expect(existsSync(join(work, 'dry.jsonl'))).toBe(false);
    // a model summarizer is not called in a dry run (the base URL points at a closed port)
    const llm = await runCli(['compact', src(), '--budget', '5000', '--dry-run', '--summarizer', 'openai', '--model', 'gpt-x', '--base-url', 'http://127.0.0.1:9/v1', '--api-key-env', 'HM_TEST_DRY_KEY', '--out', join(work, 'dry.jsonl')], { env: { ...process.env, HM_TEST_DRY_KEY: 'sk-test' } });
    expect(llm.code, llm.stderr).toBe(0);
    expect(llm.stdout).toMatch(/would compact .*: \d+ -> <= \d+ tokens \(budget 5000\)/);
    // the bound the engine plans with: the default 15% of the budget (750) and the room the tail leaves of retainTokens, at most 4096
    const most = Number(/with a checkpoint of at most (\d+) tokens \(openai/.exec(llm.stdout)?.[1]);
    expect(most).toBeGreaterThanOrEqual(750);
    expect(most).toBeLessThanOrEqual(4096);
    expect(llm.stdout).toContain('(an estimate: the openai summarizer is not called in a dry run)');
    expect(existsSync(join(work, 'dry.jsonl'))).toBe(false);
  });

  it('a session already under budget is a no-op that says so (exit 0, nothing written)', async () => {
    const out = join(work, 'noop.jsonl');
    const r = await runCli(['compact', src(), '--window', '1000000', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/is already under budget: \d+ tokens <= 800000; nothing to do, nothing written/);
    expect(existsSync(out)).toBe(false);
  });

  it('before-compaction compacts at budget 20000: the 27k-token listing in the tail is pruned, not indivisible', async () => {
    const file = join(work, 'data', 'pi/before-compaction.jsonl');
    const r = await runCli(['compact', file, '--budget', '20000', '--json', '--out', join(work, 'b20k.jsonl')]);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.tokensAfter).toBeLessThanOrEqual(20000);
    // the verbatim tail uses about half of the budget (the CLI default), not only the newest message
    expect(j.tokensAfter).toBeGreaterThan(20000 * 0.4);
    const back = await readTranscriptFile(join(work, 'b20k.jsonl'));
    expect(new TokenMeter().countEvents(back.log.surface())).toBe(j.tokensAfter);
  });

  it('a budget below the newest indivisible unit exits 2 naming the smallest budget, which then works', async () => {
    const file = join(work, 'data', 'pi/before-compaction.jsonl');
    const r = await runCli(['compact', file, '--budget', '600', '--json']);
    expect(r.code).toBe(2);
    const m = /^hive-mind: budget 600 is below what the newest indivisible unit needs: .* the smallest budget that can work is (\d+) \(there the checkpoint may take .* tokens\)\n$/.exec(r.stderr);
    expect(m).not.toBeNull();
    expect(r.stdout).toBe('');
    const ok = await runCli(['compact', file, '--budget', m![1]!, '--json', '--out', join(work, 'smallest.jsonl')]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).tokensAfter).toBeLessThanOrEqual(Number(m![1]));
  });

  it('the too-small-budget message adds up, and at the smallest budget the checkpoint keeps the request and the next step', async () => {
    const r = await runCli(['compact', src(), '--budget', '100']);
    expect(r.code).toBe(2);
    const m = /\((\d+) tokens\) must stay verbatim, and the checkpoint beside it needs at least (\d+) tokens \((\d+) of framing \+ (\d+) of summary\); a checkpoint may take at most min\(4096, 15% of the budget\) and what the verbatim part leaves, which is only (\d+) tokens at this budget; the smallest budget that can work is (\d+) \(there the checkpoint may take min\((\d+), (\d+) - (\d+)\) = (\d+) tokens\)\n$/.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    const [unit, minCk, frame, body, room, smallest, capAt, sm2, fixed, ckAt] = m!.slice(1).map(Number) as number[];
    expect(frame! + body!).toBe(minCk);
    expect(room).toBe(Math.min(Math.floor(100 * 0.15), 100 - unit!));
    expect(room!).toBeLessThan(minCk!);
    expect(sm2).toBe(smallest);
    expect(fixed).toBe(unit);
    expect(capAt).toBe(Math.floor(smallest! * 0.15));
    expect(ckAt).toBe(Math.min(capAt!, smallest! - unit!));
    expect(ckAt!).toBeGreaterThanOrEqual(minCk!);
    expect(body!).toBeGreaterThanOrEqual(128);
    const out = join(work, 'smallest-port.md');
    const ok = await runCli(['compact', src(), '--budget', String(smallest), '--to', 'markdown', '--out', out]);
    expect(ok.code, ok.stderr).toBe(0);
    const ck = /<compacted-summary>([\s\S]*?)<\/compacted-summary>/.exec(readFileSync(out, 'utf8'))![1]!;
    expect(ck).toMatch(/## Goal\n- Port this Python project to Rust/);
    expect(ck).toContain('## Next step');
  });

  it('rejects bad flags and unreadable input with exit 2 and one line', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['compact', src(), '--budget', '12.5'], /^hive-mind: --budget must be a positive integer \(tokens\), got "12\.5"\n$/],
      [['compact', src(), '--budget', '100', '--window', '1000'], /give --window or --budget, not both/],
      // config keys are named by their flags, once (the old message said "retainTokens ... (flag for retainTokens)")
      [['compact', src(), '--budget', '1000', '--retain', '1000'], /^hive-mind: --retain \(1000\) must be below the budget \(1000\)\n$/],
      [['compact', src(), '--summarizer', 'bogus'], /^hive-mind: --summarizer must be extractive, openai, anthropic, claude-code or codex, got "bogus"\n$/],
      [['compact', src(), '--summarizer', 'claude-code', '--base-url', 'http://127.0.0.1:9'], /^hive-mind: --base-url applies to the openai and anthropic summarizers; --summarizer claude-code runs the host's own CLI/],
      [['compact', src(), '--timeout', '0'], /^hive-mind: --timeout must be a positive integer \(seconds\), got "0"\n$/],
      [['compact', src(), '--summarizer', 'openai', '--base-url', 'not-a-url'], /^hive-mind: --base-url must be an http\(s\) URL, got "not-a-url"\n$/],
      [['compact', src(), '--budget', '99999999999999999999'], /^hive-mind: --budget 99999999999999999999 is too large/],
      [['compact', src(), '--strategy', 'fold'], /--strategy must be summarize, mask or auto/],
      [['compact', join(work, 'missing.jsonl')], /missing\.jsonl/],
      [['compact', src(), '--summarizer', 'openai', '--api-key-env', 'HM_TEST_NO_SUCH_KEY', '--budget', '5000'], /^hive-mind: the openai summarizer needs an API key: set HM_TEST_NO_SUCH_KEY \(--api-key-env\)\n$/],
    ];
    for (const [args, re] of cases) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(re);
      expect(r.stderr).not.toContain('flag for');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('mask and auto strategies on a message-array output', async () => {
    const out = join(work, 'mask.json');
    const r = await runCli(['compact', join(work, 'data', 'pi/large-session.jsonl'), '--budget', '120000', '--strategy', 'mask', '--to', 'anthropic', '--out', out, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.strategy).toBe('mask');
    expect(j.summarizer).toBeNull();
    expect(j.tokensAfter).toBeLessThanOrEqual(120000);
    expect(readFileSync(out, 'utf8')).toContain('[observation masked by hive-mind:');
    // masking written back in the host's own format reads back masked, paired and within budget
    const same = join(work, 'mask-same.jsonl');
    const m = await runCli(['compact', join(work, 'data', 'pi/large-session.jsonl'), '--budget', '120000', '--strategy', 'mask', '--out', same, '--json']);
    expect(m.code).toBe(0);
    const back = await runCli(['inspect', same, '--json']);
    expect(back.code).toBe(0);
    const ins = JSON.parse(back.stdout);
    expect(ins.format).toBe('pi');
    expect(ins.surfaceTokens).toBeLessThanOrEqual(120000);
    expect(readFileSync(same, 'utf8')).toContain('[observation masked by hive-mind:');
    const auto = await runCli(['compact', join(work, 'data', 'pi/large-session.jsonl'), '--budget', '30000', '--strategy', 'auto', '--json', '--out', join(work, 'auto.jsonl')]);
    expect(auto.code).toBe(0);
    const a = JSON.parse(auto.stdout);
    expect(a.summarizer).toBe('extractive');
    expect(a.tokensAfter).toBeLessThanOrEqual(30000);
    // the human output says which way auto went
    const autoH = await runCli(['compact', join(work, 'data', 'pi/large-session.jsonl'), '--budget', '30000', '--strategy', 'auto', '--out', join(work, 'auto2.jsonl')]);
    expect(autoH.code).toBe(0);
    expect(autoH.stdout).toContain('strategy auto: masking old tool results alone would stay above the budget, so summarized instead');
    const autoM = await runCli(['compact', join(work, 'data', 'pi/large-session.jsonl'), '--budget', '120000', '--strategy', 'auto', '--out', join(work, 'auto3.jsonl')]);
    expect(autoM.code).toBe(0);
    expect(autoM.stdout).toContain('strategy auto: masked only (masking old tool results was enough)');
    // progress words never appear bare: non-TTY stderr carries only prefixed lines (or none)
    for (const run of [autoH, autoM]) for (const l of run.stderr.split('\n').filter(Boolean)) expect(l).toMatch(/^hive-mind: /);
  }, 120_000); // six compactions of the 1.7 MB pi session and an inspect, each a CLI process
});
