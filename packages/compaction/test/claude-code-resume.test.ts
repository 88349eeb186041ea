/**
 * End to end with the real Claude Code binary (pinned in test-support/hosts.package.json):
 * make a real session with `claude -p` against the loopback Anthropic server, compact its
 * JSONL in place with `hive-mind compact --to same`, resume it with `claude -p --resume ID`,
 * and check what Claude Code sends: our checkpoint, and a smaller request than an
 * uncompacted resume of the same session. Skips outside CI when the host cannot be installed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostOrSkip, runClaude, expectSuccess, claudeSessionPath, parseClaudeJsonResult } from '../../../test-support/hosts.js';
import { startAnthropicServer, anthropicRequestText, type AnthropicServer } from '../../../test-support/llm-servers.js';
import { CHECKPOINT_PREAMBLE } from '@hive-mind/compaction';
import { bigOutput, runCli } from './helpers.js';

const claude = await hostOrSkip('claude');
const roots: string[] = [];
afterAll(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

describe.skipIf(!claude)('Claude Code resumes a session compacted by hive-mind', () => {
  let server: AnthropicServer;
  afterAll(async () => server?.close());

  it('sends our checkpoint on --resume, in a smaller request than an uncompacted resume', async () => {
    server = await startAnthropicServer({ logUnknown: false });
    const root = mkdtempSync(join(tmpdir(), 'hm-cc-resume-'));
    roots.push(root);
    const home = join(root, 'home');
    const cwd = join(root, 'project');
    mkdirSync(home, { recursive: true });
    mkdirSync(cwd, { recursive: true });
    const opts = { home, cwd, baseUrl: server.url, timeoutMs: 120_000 };

    // A real session: three turns, each reading a large file through the Read tool.
    for (let i = 0; i < 3; i++) writeFileSync(join(cwd, `module_${i}.py`), bigOutput(400, `def handler_${i}`) + '\n');
    server.enqueue(
      { content: [{ type: 'text', text: 'Reading module_0.py.' }, { type: 'tool_use', id: 'toolu_r0', name: 'Read', input: { file_path: join(cwd, 'module_0.py') } }] },
      'module_0.py defines handler_0; I will port it to Rust next as handler_zero.',
    );
    const first = parseClaudeJsonResult(expectSuccess(await runClaude(['-p', 'Read module_0.py and port it to Rust. Never use unwrap() in library code.', '--output-format', 'json'], opts)).stdout);
    const id = first.session_id;
    for (let i = 1; i < 3; i++) {
      server.enqueue(
        { content: [{ type: 'text', text: `Reading module_${i}.py.` }, { type: 'tool_use', id: `toolu_r${i}`, name: 'Read', input: { file_path: join(cwd, `module_${i}.py`) } }] },
        `module_${i}.py read; its handler is next.`,
      );
      expectSuccess(await runClaude(['-p', '--resume', id, `Now read module_${i}.py.`, '--output-format', 'json'], opts));
    }
    const jsonl = claudeSessionPath(home, cwd, id);
    const pristine = join(root, 'pristine.jsonl');
    copyFileSync(jsonl, pristine);

    // Baseline: resume the uncompacted session.
    server.enqueue('Continuing (uncompacted).');
    const before = server.messageRequests.length;
    expectSuccess(await runClaude(['-p', '--resume', id, 'continue', '--output-format', 'json'], opts));
    const baseline = server.messageRequests[before]!;

    // Restore the same session, compact it in place, resume again.
    copyFileSync(pristine, jsonl);
    const dry = await runCli(['compact', jsonl, '--budget', '1000000', '--json']);
    expect(dry.code).toBe(0);
    const tokensBefore = JSON.parse(dry.stdout).tokensBefore as number;
    // Small enough that pruning the three big Read results (head and tail lines kept) is not
    // enough on its own, so a checkpoint must land.
    const budget = Math.max(1200, Math.floor(tokensBefore / 30));
    const c = await runCli(['compact', jsonl, '--budget', String(budget), '--to', 'same', '--out', jsonl, '--json']);
    expect(c.stderr).not.toMatch(/hive-mind:/);
    expect(c.code).toBe(0);
    const report = JSON.parse(c.stdout);
    expect(report.format).toBe('claude-code');
    expect(report.tokensAfter).toBeLessThanOrEqual(budget);
    expect(report.toolPairing).toBe('balanced');
    const written = readFileSync(jsonl, 'utf8');
    expect(written.startsWith(readFileSync(pristine, 'utf8'))).toBe(true); // original lines untouched
    expect(written).toContain('"compact_boundary"');
    expect(written).toContain('"isCompactSummary":true');

    server.enqueue('Continuing (compacted).');
    const n = server.messageRequests.length;
    const resumed = await runClaude(['-p', '--resume', id, 'continue', '--output-format', 'json'], opts);
    if (resumed.exitCode !== 0) {
      throw new Error(`claude rejected the compacted session (exit ${resumed.exitCode})\nstdout: ${resumed.stdout.slice(-3000)}\nstderr: ${resumed.stderr.slice(-3000)}\nlast lines:\n${written.split('\n').slice(-6).join('\n').slice(0, 6000)}`);
    }
    expect(parseClaudeJsonResult(resumed.stdout).result).toBe('Continuing (compacted).');
    const compacted = server.messageRequests[n]!;
    const text = anthropicRequestText({ messages: compacted.body.messages });
    expect(text).toContain('<compacted-summary>');
    expect(text).toContain(CHECKPOINT_PREAMBLE);
    expect(text).toContain('Never use unwrap() in library code.');
    expect(text).toContain('continue');
    // the shadowed big tool results are gone from what the model sees
    expect(anthropicRequestText({ messages: baseline.body.messages })).toContain('def handler_0 0:');
    expect(text).not.toContain('def handler_0 0:');
    const size = (r: typeof baseline) => JSON.stringify(r.body.messages).length;
    expect(size(compacted)).toBeLessThan(size(baseline));
    // printed for the report, not asserted
    process.stdout.write(`[claude-code resume] request messages: uncompacted ${size(baseline)} chars, compacted ${size(compacted)} chars; session tokens ${report.tokensBefore} -> ${report.tokensAfter} (budget ${budget})\n`);
  }, 600_000);
});
