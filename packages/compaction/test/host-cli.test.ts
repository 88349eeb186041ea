/**
 * The host CLI summarizers (`claude -p`, `codex exec`) as real child processes: small fake
 * executables (test-support/fake-hosts.ts) that answer as the pinned hosts do, or hang, exit
 * non-zero, print nothing or garbage; and no executable at all. Each failure is bounded by the
 * deadline, lands the extractive checkpoint and says why in one line. The happy path with the
 * real binaries is packages/cli/test/summarizer-hosts.e2e.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompactionSummaryData, LogEvent } from '@hive-mind/session';
import {
  BasicCompactionEngine,
  CHECKPOINT_HEADINGS,
  ClaudeCodeSummarizer,
  CodexSummarizer,
  CompactionAbortedError,
  CompactionConfigError,
  CompactionFailedError,
  NO_HOOKS_ENV,
  TokenMeter,
  createSummarizer,
  missingSections,
  summarizerSystemPrompt,
  type HostCliOptions,
} from '@hive-mind/compaction';
import { alive, makeFakeHosts, type FakeRun } from '../../../test-support/fake-hosts.js';
import { codingSession, runCli } from './helpers.js';

const meter = new TokenMeter();
const fakes = makeFakeHosts();
afterAll(() => fakes.cleanup());

/** A reply as a model following the prompt writes it: every heading, in order. */
const GOOD = CHECKPOINT_HEADINGS.map((h) => `## ${h}\n- host model: ${h === 'Goal' ? 'port src/lexer.py to Rust, keep `tokenize_source`' : 'none'}`).join('\n\n');
/** A line of the span that only the transcript holds (the user's correction). */
const SPAN_LINE = "No, don't use unwrap() in library code; return a Result<Token, LexError> instead.";

type Host = 'claude-code' | 'codex';
const HOSTS: Host[] = ['claude-code', 'codex'];
const opts = (host: Host, o: HostCliOptions = {}): HostCliOptions => ({ command: join(fakes.bin, host === 'claude-code' ? 'claude' : 'codex'), env: { ...process.env, CODEX_HOME: join(fakes.bin, 'no-codex-home') }, requestTimeoutMs: 20_000, deadlineMs: 30_000, ...o });
const summarizer = (host: Host, o: HostCliOptions = {}) => (host === 'claude-code' ? new ClaudeCodeSummarizer(opts(host, o)) : new CodexSummarizer(opts(host, o)));
function engine(host: Host, o: HostCliOptions = {}, fallback = true) {
  return new BasicCompactionEngine({ budget: 5000, retainTokens: 1200, summaryMaxTokens: 1500, summarizer: summarizer(host, o), meter, fallback });
}

/** Wait until `pid` is gone (a killed process may take a moment to be reaped); false if it never goes. */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 400 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

describe.each(HOSTS)('%s summarizer, a run that works', (host) => {
  it('sends the span on stdin only, our system prompt, the flags that keep the host from running tools or writing sessions, and lands the reply', async () => {
    fakes.script([{ reply: `<think>hidden reasoning</think>\n${GOOD}` }]);
    const b = codingSession(6);
    const r = await engine(host, {}, false).compactIfNeeded(b.log);
    expect(r.compacted).toBe(true);
    expect(r.summarizer).toBe(host);
    expect(r.fallback).toBeUndefined();
    const text = (r.summary[0] as { text: string }).text;
    expect(text).toContain('- host model: port src/lexer.py to Rust');
    expect(text).not.toContain('hidden reasoning');
    const runs = fakes.runs();
    expect(runs).toHaveLength(1);
    const run = runs[0]!;
    expect(run.stdin).toContain(SPAN_LINE);
    expect(run.stdin).toMatch(/^<conversation>\n### user\nPlease port the tokenizer/);
    expect(run.argv.join('\n')).not.toContain('unwrap()');
    expect(run.env[NO_HOOKS_ENV]).toBe('1');
    expect(run.cwd).toMatch(/hive-mind-summarize-[^/]+\/work$/);
    // the system prompt of the API summarizers, whole: in a file for Claude Code, a config value (a TOML string) for Codex
    const system = host === 'claude-code' ? run.systemPrompt! : (JSON.parse(run.argv.find((x) => x.startsWith('developer_instructions='))!.slice('developer_instructions='.length)) as string);
    expect(system).toBe(summarizerSystemPrompt(Number(/in at most (\d+) tokens\.$/.exec(system)![1])));
    if (host === 'claude-code') {
      expect(run.argv).toEqual(['-p', '--output-format', 'json', '--no-session-persistence', '--tools', '', '--max-turns', '1', '--permission-mode', 'dontAsk', '--safe-mode', '--strict-mcp-config', '--disable-slash-commands', '--system-prompt-file', expect.stringMatching(/system-prompt\.md$/)]);
      expect(Number(run.env.CLAUDE_CODE_MAX_OUTPUT_TOKENS)).toBeGreaterThan(1000);
      expect(r.model).toBe('claude-fake-1');
    } else {
      expect(run.argv.slice(0, 7)).toEqual(['exec', '--json', '--output-last-message', expect.stringMatching(/last-message\.md$/), '--ephemeral', '--skip-git-repo-check', '--sandbox']);
      for (const f of ['hooks', 'shell_tool', 'multi_agent', 'apps', 'plugins']) expect(run.argv.join(' ')).toContain(`--disable ${f}`);
      expect(run.argv).toContain('approval_policy="never"');
      expect(run.argv.at(-1)).toBe('-');
    }
    // the temp folder (system prompt, last message) is gone
    expect(() => readFileSync(run.argv.find((a) => /system-prompt\.md$|last-message\.md$/.test(a))!)).toThrow();
  });

  it('passes --model, and a reply missing sections is repaired by one more run of the host', async () => {
    const partial = GOOD.replace(/## Findings\n[^\n]*\n\n/, '').replace(/## Files\n[^\n]*\n\n/, '');
    fakes.script([{ reply: partial }, { reply: '## Findings\n- follow-up: lexer.py defines tokenize_source\n## Files\n- `/repo/rust/src/module_0.rs` (modified)' }]);
    const r = await engine(host, { model: 'small-model' }, false).compactIfNeeded(codingSession(6).log);
    expect(r.repairedSections).toEqual([
      { section: 'Findings', by: 'follow-up' },
      { section: 'Files', by: 'follow-up' },
    ]);
    const runs = fakes.runs();
    expect(runs).toHaveLength(2);
    expect(runs[1]!.stdin).toContain('lacks these sections: "## Findings", "## Files"');
    expect(runs[1]!.stdin.startsWith(runs[0]!.stdin)).toBe(true);
    for (const run of runs) expect(run.argv.slice(-3).join(' ')).toMatch(/--model small-model/);
    expect(missingSections((r.summary[0] as { text: string }).text)).toEqual([]);
  });

  it('a span above the window is sent in chunks; a "prompt is too long" answer is re-planned smaller, never sent again', async () => {
    // the host refuses any stdin above its limit (Claude Code says by how much, Codex does not)
    const limit = host === 'claude-code' ? 9000 : 30_000;
    fakes.script([{ tooLongAbove: limit, reply: GOOD }]);
    const s = summarizer(host, { window: 32_000 });
    const out = await s.summarize({ span: codingSession(24).log.surface(), tail: [], maxTokens: 1500, meter });
    expect(missingSections(out.text)).toEqual([]);
    const runs = fakes.runs();
    const refused = runs.filter((r) => r.stdin.length > limit);
    expect(refused.length).toBeGreaterThan(0);
    // after a refusal no request of that size again, and the last ones fit
    const firstOk = runs.findIndex((r) => r.stdin.length <= limit);
    expect(runs.slice(firstOk).every((r) => r.stdin.length <= limit)).toBe(true);
    expect(new Set(runs.map((r) => r.stdin)).size).toBe(runs.length);
  });
});

describe.each(HOSTS)('%s summarizer, bad input: the extractive checkpoint lands and one line says why', (host) => {
  const cases: Array<[string, Parameters<typeof fakes.script>[0], RegExp, HostCliOptions?]> = [
    ['exits non-zero', [{ exit: 3, stderr: 'WARNING: proceeding, even though we could not create PATH aliases\nError: Invalid API key · Please run /login\n' }], /exited 3: Error: Invalid API key · Please run \/login$/],
    ['prints nothing', [{ raw: '' }], /returned an empty summary$/],
    [
      'prints garbage',
      [host === 'claude-code' ? { raw: 'Sure! I would be glad to help.\n' } : { reply: 'Sure! I would be glad to help.' }],
      host === 'claude-code' ? /printed no result JSON \(it printed "Sure! I would be glad to help\."\)$/ : /the reply holds none of the checkpoint sections \(11 asked for; it starts "Sure! I would be glad to help\."\)$/,
    ],
  ];
  for (const [what, script, reason] of cases) {
    it(`${what}: one run, the reason in result.fallback and the record`, async () => {
      fakes.script(script);
      const b = codingSession(6);
      const r = await engine(host).compactIfNeeded(b.log);
      expect(r.compacted).toBe(true);
      expect(r.summarizer).toBe('extractive');
      expect(r.fallback?.from).toBe(host);
      expect(r.fallback!.reason).toMatch(new RegExp(`^${host} failed after 1 attempt\\(s\\): attempt 1: `));
      expect(r.fallback!.reason).toMatch(reason);
      expect(r.fallback!.reason).not.toContain('\n');
      // a failed host is not started again for the same compaction
      expect(fakes.runs()).toHaveLength(1);
      const sum = b.log.events().find((e) => e.type === 'compaction/summary') as LogEvent;
      expect((sum.data as CompactionSummaryData).fallback?.from).toBe(host);
    });
  }

  it('hangs: killed at its timeout with the process it started, the extractive checkpoint lands', async () => {
    fakes.script([{ hang: true }]);
    const r = await engine(host, { requestTimeoutMs: 1500, deadlineMs: 3000 }).compactIfNeeded(codingSession(6).log);
    expect(r.summarizer).toBe('extractive');
    expect(r.fallback!.reason).toMatch(new RegExp(`attempt 1: ${host}: \`(claude -p|codex exec)\` did not answer within 1500 ms; its process group was killed$`));
    const [run] = fakes.runs() as [FakeRun];
    expect(await gone(run.pid)).toBe(true);
    expect(await gone(run.grandchild!)).toBe(true);
  });

  it('is not installed: the reason names the command and PATH', async () => {
    const r = await engine(host, { command: host === 'claude-code' ? 'claude-not-here-hm' : 'codex-not-here-hm' }).compactIfNeeded(codingSession(6).log);
    expect(r.summarizer).toBe('extractive');
    expect(r.fallback!.reason).toMatch(/: `(claude|codex)-not-here-hm` is not installed \(not found on PATH\); install it and log in, or use another summarizer$/);
  });

  it('fails closed with fallback off: CompactionFailedError, the surface unchanged', async () => {
    fakes.script([{ exit: 2, stderr: 'boom' }]);
    const b = codingSession(6);
    const surface = b.log.surface();
    const err = await engine(host, {}, false).compactIfNeeded(b.log).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CompactionFailedError);
    expect((err as Error).message).toMatch(/exited 2: boom$/);
    expect(b.log.surface()).toEqual(surface);
  });

  it("an abort (the caller's signal) kills the host's process group", async () => {
    fakes.script([{ hang: true }]);
    const ac = new AbortController();
    const p = engine(host).compactIfNeeded(codingSession(6).log, { signal: ac.signal });
    for (let i = 0; i < 1200 && !fakes.runs()[0]?.grandchild; i++) await new Promise((r) => setTimeout(r, 25));
    ac.abort();
    await expect(p).rejects.toBeInstanceOf(CompactionAbortedError);
    const [run] = fakes.runs() as [FakeRun];
    expect(await gone(run.pid)).toBe(true);
    expect(await gone(run.grandchild!)).toBe(true);
  });
});

describe('host summarizer options', () => {
  it('refuses the API-only options and a window too small for the host', () => {
    expect(() => createSummarizer('claude-code', { baseURL: 'http://127.0.0.1:1' })).toThrow(CompactionConfigError);
    expect(() => createSummarizer('codex', { apiKeyEnv: 'X' })).toThrow(/apiKeyEnv applies to the openai and anthropic summarizers, not to a host CLI/);
    expect(() => createSummarizer('claude-code', { window: 3000 })).toThrow(/window must be an integer above 5024 tokens/);
    expect(() => createSummarizer('openai', { apiKey: 'k', command: 'claude' })).toThrow(/command applies to the claude-code and codex summarizers only/);
  });

  it("codex reads the user's config.toml: its model's window, and each MCP server turned off for the run", async () => {
    const home = mkdtempSync(join(tmpdir(), 'hm-codex-home-'));
    try {
      writeFileSync(join(home, 'config.toml'), 'model = "gpt-4o"\nmodel_provider = "x"\n\n[mcp_servers.hive-mind]\ncommand = "hive-mind"\n\n[mcp_servers."odd name".env]\nA = "1"\n');
      const s = new CodexSummarizer(opts('codex', { env: { ...process.env, CODEX_HOME: home } }));
      expect(s.window).toBe(128_000 - 12_000);
      fakes.script([{ reply: GOOD }]);
      await s.summarize({ span: codingSession(2).log.surface(), tail: [], maxTokens: 800, meter });
      const argv = fakes.runs()[0]!.argv;
      expect(argv).toContain('mcp_servers.hive-mind.enabled=false');
      expect(argv).toContain('mcp_servers."odd name".enabled=false');
      expect(argv).not.toContain('--model');
      writeFileSync(join(home, 'config.toml'), 'model_context_window = 60_000\n');
      expect(new CodexSummarizer(opts('codex', { env: { CODEX_HOME: home } })).window).toBe(48_000);
      expect(new CodexSummarizer(opts('codex', { env: { CODEX_HOME: join(home, 'none') } })).window).toBe(272_000 - 12_000);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('hive-mind compact --summarizer claude-code|codex (real CLI process, fake hosts on PATH)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hm-host-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 's.json');

  it('not installed: exit 0, the extractive checkpoint written, one line says why; --no-fallback exits 1 with that line', async () => {
    const { toOpenAIMessages } = await import('@hive-mind/transcripts');
    writeFileSync(file, JSON.stringify(toOpenAIMessages(codingSession(6).log.surface())));
    const env = { PATH: '/nonexistent-hm-bin', CODEX_HOME: join(dir, 'codex-home') };
    for (const host of HOSTS) {
      const r = await runCli(['compact', file, '--budget', '5000', '--summarizer', host, '--out', join(dir, `${host}.json`)], { env });
      expect(r.code, r.stderr).toBe(0);
      const why = r.stdout.split('\n').filter((l) => /summarizer failed/.test(l));
      expect(why).toEqual([
        `  the ${host} summarizer failed, so the checkpoint is extractive (--no-fallback fails instead): ${host} failed after 1 attempt(s): attempt 1: ${host}: \`${host === 'claude-code' ? 'claude' : 'codex'}\` is not installed (not found on PATH); install it and log in, or use another summarizer`,
      ]);
      expect(r.stdout).toMatch(/a \d+-token checkpoint \(extractive\)/);
      expect(readFileSync(join(dir, `${host}.json`), 'utf8')).toContain('<compacted-summary>');
      const closed = await runCli(['compact', file, '--budget', '5000', '--summarizer', host, '--no-fallback', '--out', join(dir, 'closed.json')], { env });
      expect(closed.code).toBe(1);
      expect(closed.stderr).toMatch(new RegExp(`(^|\\n)hive-mind: compaction failed after 1 attempt\\(s\\); the surface is unchanged: attempt 1: ${host}: \`(claude|codex)\` is not installed [^\\n]*\\n$`));
    }
  });

  it('a hanging host: bounded by --timeout, the extractive checkpoint lands, --json says why in fallback', async () => {
    fakes.script([{ hang: true }]);
    const r = await runCli(['compact', file, '--budget', '5000', '--summarizer', 'claude-code', '--timeout', '2', '--deadline', '4', '--out', join(dir, 'hang.json'), '--json'], { env: { PATH: fakes.path() } });
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.summarizer).toBe('extractive');
    expect(j.fallback).toEqual({ from: 'claude-code', reason: 'claude-code failed after 1 attempt(s): attempt 1: claude-code: `claude -p` did not answer within 2000 ms; its process group was killed' });
    const [run] = fakes.runs() as [FakeRun];
    expect(await gone(run.pid)).toBe(true);
    expect(await gone(run.grandchild!)).toBe(true);
  });

  it('a working host: its checkpoint lands and the output names it', async () => {
    fakes.script([{ reply: GOOD, model: 'claude-fake-2' }]);
    const r = await runCli(['compact', file, '--budget', '5000', '--summarizer', 'claude-code', '--model', 'haiku', '--out', join(dir, 'ok.json')], { env: { PATH: fakes.path() } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/-token checkpoint \(claude-code, claude-fake-2\)/);
    expect(readFileSync(join(dir, 'ok.json'), 'utf8')).toContain('host model: port src/lexer.py to Rust');
    expect(fakes.runs()[0]!.argv.slice(-2)).toEqual(['--model', 'haiku']);
  });
});
