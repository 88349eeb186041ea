/**
 * The whole flow with the real Claude Code binary (pinned in test-support/hosts.package.json)
 * against the loopback Anthropic server: record a long session with `claude -p`, find it with
 * `hive-mind sessions`, `hive-mind compact --session latest` (refused while it looks written,
 * in place with a backup once it is not), resume it with the command hive-mind printed, and
 * check the request Claude Code sends next: our checkpoint, smaller than an uncompacted
 * resume, every tool result paired with its call. Then `--undo` gives back the bytes.
 * Needs the built CLI (`npx tsc -b packages/cli`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { hostOrSkip, runClaude, expectSuccess, claudeSessionPath, parseClaudeJsonResult } from '../../../test-support/hosts.js';
import { startAnthropicServer, anthropicRequestText, type AnthropicServer } from '../../../test-support/llm-servers.js';
import { CHECKPOINT_PREAMBLE } from '@hive-mind/compaction';
import { age, bigText, runCli } from './helpers.js';

const claude = await hostOrSkip('claude');
const roots: string[] = [];
afterAll(() => {
  for (const r of roots.splice(0)) if (!process.env.HM_KEEP_E2E) rmSync(r, { recursive: true, force: true });
});

type Block = { type: string; id?: string; tool_use_id?: string };
type Msg = { role: string; content: string | Block[] };

/** Tool-pairing problems of an Anthropic request: a result whose call is not in the assistant message just before, a call with no result in the next message. */
export function anthropicPairingProblems(messages: Msg[]): string[] {
  const problems: string[] = [];
  const blocks = (m: Msg | undefined) => (m && Array.isArray(m.content) ? m.content : []);
  const convo = messages.filter((m) => m.role !== 'system');
  convo.forEach((m, i) => {
    if (m.role === 'user') {
      const calls = new Set(blocks(convo[i - 1]).filter((b) => b.type === 'tool_use').map((b) => b.id));
      for (const b of blocks(m)) if (b.type === 'tool_result' && !calls.has(b.tool_use_id)) problems.push(`message ${i}: tool_result ${b.tool_use_id} has no tool_use just before`);
    } else if (m.role === 'assistant' && i + 1 < convo.length) {
      const results = new Set(blocks(convo[i + 1]).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id));
      for (const b of blocks(m)) if (b.type === 'tool_use' && !results.has(b.id)) problems.push(`message ${i}: tool_use ${b.id} has no tool_result after it`);
    }
  });
  return problems;
}

describe.skipIf(!claude)('Claude Code: sessions, compact --session latest, the printed resume command, --undo', () => {
  let server: AnthropicServer;
  afterAll(async () => server?.close());

  it('compacts the latest session in place and Claude Code resumes it with our checkpoint', async () => {
    server = await startAnthropicServer({ logUnknown: false });
    const root = mkdtempSync(join(tmpdir(), 'hm-cc-session-'));
    roots.push(root);
    const home = join(root, 'home');
    const cwd = join(root, 'project');
    mkdirSync(home, { recursive: true });
    mkdirSync(cwd, { recursive: true });
    const opts = { home, cwd, baseUrl: server.url, timeoutMs: 120_000 };
    // the CLI sees the same folders Claude Code used
    const cli = (args: string[]) => runCli(args, { cwd, env: { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude'), CODEX_HOME: undefined, PI_CODING_AGENT_DIR: undefined, PI_CODING_AGENT_SESSION_DIR: undefined, HERMES_HOME: undefined } });

    // A long real session: three turns, each reading a large file through the Read tool.
    for (let i = 0; i < 3; i++) writeFileSync(join(cwd, `module_${i}.py`), bigText(400, `def handler_${i}`) + '\n');
    server.enqueue(
      { content: [{ type: 'text', text: 'Reading module_0.py.' }, { type: 'tool_use', id: 'toolu_r0', name: 'Read', input: { file_path: join(cwd, 'module_0.py') } }] },
      'module_0.py defines handler_0; I will port it to Rust next as handler_zero.',
    );
    const id = parseClaudeJsonResult(expectSuccess(await runClaude(['-p', 'Read module_0.py and port it to Rust. Never use unwrap() in library code.', '--output-format', 'json'], opts)).stdout).session_id;
    for (let i = 1; i < 3; i++) {
      server.enqueue(
        { content: [{ type: 'text', text: `Reading module_${i}.py.` }, { type: 'tool_use', id: `toolu_r${i}`, name: 'Read', input: { file_path: join(cwd, `module_${i}.py`) } }] },
        `module_${i}.py read; its handler is next.`,
      );
      expectSuccess(await runClaude(['-p', '--resume', id, `Now read module_${i}.py.`, '--output-format', 'json'], opts));
    }
    const jsonl = claudeSessionPath(home, cwd, id);

    // `hive-mind sessions` finds it, with what it weighs.
    const listed = await cli(['sessions', '--json']);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ host: 'claude-code', id, path: jsonl, cwd, version: '2.1.332', compactions: { ours: 0, host: 0 }, problem: null });
    expect(rows[0].surfaceTokens).toBeGreaterThan(5000);
    expect(rows[0].resume).toEqual({ cwd, argv: ['claude', '--resume', id], shell: `cd ${cwd} && claude --resume ${id}` });
    const human = await cli(['sessions']);
    expect(human.stdout).toContain(id);
    expect(human.stdout).toContain('compactions: 0 hive-mind, 0 Claude Code');

    const pristine = join(root, 'pristine.jsonl');
    copyFileSync(jsonl, pristine);
    // Baseline: resume the uncompacted session.
    server.enqueue('Continuing (uncompacted).');
    const before = server.messageRequests.length;
    expectSuccess(await runClaude(['-p', '--resume', id, 'continue', '--output-format', 'json'], opts));
    const baseline = server.messageRequests[before]!;
    copyFileSync(pristine, jsonl);

    // Just written (as by a host mid-turn): refused, nothing written.
    const budget = Math.max(1200, Math.floor(rows[0].surfaceTokens / 30));
    const busy = await cli(['compact', '--session', 'latest', '--budget', String(budget)]);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(new RegExp(`Claude Code session ${id} is being written right now: it was written \\d+ s ago.*--force`));
    expect(readFileSync(jsonl)).toEqual(readFileSync(pristine));

    // Left a while ago: compacted in place, with a backup and the resume command.
    age(jsonl);
    const c = await cli(['compact', '--session', 'latest', '--budget', String(budget), '--json']);
    expect(c.stderr).toBe('');
    expect(c.code).toBe(0);
    const report = JSON.parse(c.stdout);
    expect(report).toMatchObject({ format: 'claude-code', toolPairing: 'balanced', output: { path: jsonl, written: true, kind: 'compacted' } });
    expect(report.session).toEqual({ host: 'claude-code', id, path: jsonl, resume: rows[0].resume });
    expect(report.tokensAfter).toBeLessThanOrEqual(budget);
    expect(readFileSync(report.backup)).toEqual(readFileSync(pristine));
    const written = readFileSync(jsonl, 'utf8');
    expect(written.startsWith(readFileSync(pristine, 'utf8'))).toBe(true); // original lines untouched
    expect(written).toContain('"compact_boundary"');
    expect(written).toContain('"isCompactSummary":true');

    // --undo puts the bytes back and names the compaction it undoes.
    const undo = await cli(['compact', '--undo', '--session', id]);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toContain(`undid the compaction of ${jsonl} made at `);
    expect(undo.stdout).toContain(`(${report.tokensBefore} -> ${report.tokensAfter} tokens, summarize with extractive)`);
    expect(readFileSync(jsonl)).toEqual(readFileSync(pristine));

    // Compact again (the first backup stays), then resume with the printed command.
    age(jsonl);
    const again = await cli(['compact', '--session', 'latest', '--budget', String(budget)]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`resume it: cd ${cwd} && claude --resume ${id}`);
    expect(again.stdout).toContain(`undo it: hive-mind compact --undo --session ${id} --host claude-code`);
    const backups = readdirSync(dirname(jsonl)).filter((n) => n.includes('.hive-mind-backup-'));
    expect(backups.length).toBe(3); // first compaction, the undo's copy of the compacted file, second compaction
    expect(existsSync(report.backup)).toBe(true);
    expect(readFileSync(report.backup)).toEqual(readFileSync(pristine));

    server.enqueue('Continuing (compacted).');
    const n = server.messageRequests.length;
    const resume = report.session.resume as { cwd: string; argv: string[] };
    const resumed = await runClaude([...resume.argv.slice(1), '-p', 'continue', '--output-format', 'json'], { ...opts, cwd: resume.cwd });
    expect(resumed.exitCode, resumed.stderr.slice(-2000)).toBe(0);
    expect(parseClaudeJsonResult(resumed.stdout).result).toBe('Continuing (compacted).');
    const compacted = server.messageRequests[n]!;
    const text = anthropicRequestText({ messages: compacted.body.messages });
    expect(text).toContain('<compacted-summary>');
    expect(text).toContain(CHECKPOINT_PREAMBLE);
    expect(text).toContain('Never use unwrap() in library code.');
    expect(anthropicRequestText({ messages: baseline.body.messages })).toContain('def handler_0 0:');
    expect(text).not.toContain('def handler_0 0:');
    expect(anthropicPairingProblems(compacted.body.messages)).toEqual([]);
    expect(anthropicPairingProblems(baseline.body.messages)).toEqual([]);
    const size = (r: typeof baseline) => JSON.stringify(r.body.messages).length;
    expect(size(compacted)).toBeLessThan(size(baseline));

    // Claude Code wrote the new turn to the file: undoing now would lose it, so it is refused.
    age(jsonl);
    const late = await cli(['compact', '--undo', '--session', id]);
    expect(late.code).toBe(2);
    expect(late.stderr).toMatch(/changed since hive-mind compacted it at .*give --force/);
    const after = JSON.parse((await cli(['sessions', '--json'])).stdout);
    // the listing counts our compaction, and Claude Code chained its new turn onto the compacted branch
    const now = after.find((r: { id: string }) => r.id === id);
    expect(now.compactions).toEqual({ ours: 1, host: 0 });
    expect(now.surfaceTokens).toBeLessThan(rows[0].surfaceTokens / 2);
    process.stdout.write(`[claude-code session resume] request messages: uncompacted ${size(baseline)} chars, compacted ${size(compacted)} chars; session tokens ${report.tokensBefore} -> ${report.tokensAfter} (budget ${budget})\n`);
  }, 600_000);
});
