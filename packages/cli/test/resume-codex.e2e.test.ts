/**
 * The whole flow with the real Codex CLI (pinned in test-support/hosts.package.json) against
 * the loopback Responses server: record a long session with `codex exec` (three turns, each
 * running a command whose output is large), find it with `hive-mind sessions`, `hive-mind
 * compact --session latest` (refused while it looks written, in place with a backup once it is
 * not), resume it with the id hive-mind printed (`codex exec resume <id> <prompt>`, the
 * non-interactive form of the printed `codex resume <id>`), and check the next Responses
 * request: our checkpoint, smaller than an uncompacted resume, every function_call_output
 * paired with its function_call, Codex's own context (skills, environment) sent once, not
 * twice. `--undo` gives back the bytes. Needs the built CLI (`npx tsc -b packages/cli`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostOrSkip, runCodex, expectSuccess, listCodexSessions } from '../../../test-support/hosts.js';
import { startResponsesServer, type ResponsesServer } from '../../../test-support/llm-servers.js';
import { CHECKPOINT_PREAMBLE } from '@hive-mind/compaction';
import { age, bigText, runCli } from './helpers.js';

const codex = await hostOrSkip('codex');
const roots: string[] = [];
afterAll(() => {
  for (const r of roots.splice(0)) if (!process.env.HM_KEEP_E2E) rmSync(r, { recursive: true, force: true });
});

type Item = { type: string; role?: string; call_id?: string; content?: Array<{ text?: string }> };

/** Pairing problems of a Responses `input`: an output whose call is not earlier, a call never answered. */
export function responsesPairingProblems(input: Item[]): string[] {
  const problems: string[] = [];
  const calls = new Set<string>();
  const answered = new Set<string>();
  input.forEach((it, i) => {
    if (it.type === 'function_call' || it.type === 'custom_tool_call') calls.add(it.call_id!);
    if (it.type === 'function_call_output' || it.type === 'custom_tool_call_output') {
      if (!calls.has(it.call_id!)) problems.push(`input ${i}: ${it.type} ${it.call_id} has no call before it`);
      answered.add(it.call_id!);
    }
  });
  for (const c of calls) if (!answered.has(c)) problems.push(`call ${c} has no output`);
  return problems;
}

const textOf = (it: Item) => (it.content ?? []).map((c) => c.text ?? '').join('\n');

describe.skipIf(!codex)('Codex: sessions, compact --session latest, resume by the printed id, --undo', () => {
  let server: ResponsesServer;
  afterAll(async () => server?.close());

  it('compacts the latest session in place and Codex resumes it with our checkpoint', async () => {
    server = await startResponsesServer({ fallback: 'Noted.' });
    const root = mkdtempSync(join(tmpdir(), 'hm-codex-session-'));
    roots.push(root);
    const home = join(root, 'home');
    const cwd = join(root, 'project');
    mkdirSync(cwd, { recursive: true });
    const opts = { home, cwd, baseUrl: server.url, timeoutMs: 120_000 };
    const cli = (args: string[]) => runCli(args, { cwd, env: { HOME: home, CODEX_HOME: join(home, '.codex'), CLAUDE_CONFIG_DIR: undefined, PI_CODING_AGENT_DIR: undefined, PI_CODING_AGENT_SESSION_DIR: undefined, HERMES_HOME: undefined } });
    const exec = (args: string[]) => runCodex(['exec', ...args], opts);

    // A long real session: three turns, each running a command with a large output.
    for (let i = 0; i < 3; i++) writeFileSync(join(cwd, `module_${i}.py`), bigText(300, `def handler_${i}`) + '\n');
    const turn = (i: number) =>
      server.enqueue(
        { output: [{ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: `cat module_${i}.py`, workdir: cwd }), call_id: `call_read_${i}` }] },
        i === 0 ? 'module_0.py defines handler_0; I will port it to Rust next as handler_zero.' : `module_${i}.py read; its handler is next.`,
      );
    turn(0);
    expectSuccess(await exec(['--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', 'Read module_0.py and port it to Rust. Never use unwrap() in library code.']));
    const [rollout] = listCodexSessions(home);
    const id = /([0-9a-f-]{36})\.jsonl$/.exec(rollout!)![1]!;
    for (let i = 1; i < 3; i++) {
      turn(i);
      expectSuccess(await exec(['resume', id, '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', `Now read module_${i}.py.`]));
    }
    expect(listCodexSessions(home)).toEqual([rollout]);

    // `hive-mind sessions` finds it.
    const listed = await cli(['sessions', '--json']);
    expect(listed.stderr).toBe('');
    const rows = JSON.parse(listed.stdout);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ host: 'codex', id, path: rollout, cwd, version: '0.171.0', compactions: { ours: 0, host: 0 }, problem: null });
    expect(rows[0].resume).toEqual({ argv: ['codex', 'resume', id], shell: `codex resume ${id}` });
    expect(rows[0].surfaceTokens).toBeGreaterThan(8000);

    const pristine = join(root, 'pristine.jsonl');
    copyFileSync(rollout!, pristine);
    server.enqueue('Continuing (uncompacted).');
    let n = server.responseRequests.length;
    expectSuccess(await exec(['resume', id, '--skip-git-repo-check', 'continue']));
    const baseline = server.responseRequests[n]!;
    copyFileSync(pristine, rollout!);

    // just written: refused
    const busy = await cli(['compact', '--session', 'latest', '--budget', '8000']);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(new RegExp(`Codex session ${id} is being written right now: it was written \\d+ s ago`));
    expect(readFileSync(rollout!)).toEqual(readFileSync(pristine));

    // the budget: Codex's base instructions (kept verbatim) plus room for a checkpoint and a short tail
    age(rollout!);
    const probe = JSON.parse((await cli(['compact', '--session', 'latest', '--budget', String(rows[0].surfaceTokens), '--json'])).stdout);
    const budget = probe.overhead.systemPrompt + 1500;
    const c = await cli(['compact', '--session', 'latest', '--budget', String(budget), '--json']);
    expect(c.stderr).toBe('');
    expect(c.code).toBe(0);
    const report = JSON.parse(c.stdout);
    expect(report).toMatchObject({ format: 'codex', toolPairing: 'balanced', output: { path: rollout, written: true }, session: { host: 'codex', id, resume: rows[0].resume } });
    expect(readFileSync(report.backup)).toEqual(readFileSync(pristine));

    // --undo, byte for byte; then compact again and resume
    const undo = await cli(['compact', '--undo', '--session', id]);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toContain(`(${report.tokensBefore} -> ${report.tokensAfter} tokens, summarize with extractive)`);
    expect(readFileSync(rollout!)).toEqual(readFileSync(pristine));
    age(rollout!);
    const again = await cli(['compact', '--session', 'latest', '--budget', String(budget)]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`resume it: codex resume ${id}`);

    server.enqueue('Continuing (compacted).');
    n = server.responseRequests.length;
    const [, , printedId] = report.session.resume.argv as string[];
    const resumed = await exec(['resume', printedId!, '--skip-git-repo-check', 'continue']);
    expect(resumed.exitCode, resumed.stderr.slice(-2000)).toBe(0);
    expect(resumed.stdout).toContain('Continuing (compacted).');
    const compacted = server.responseRequests[n]!;
    const input = compacted.body.input as Item[];
    const text = JSON.stringify(input);
    expect(text).toContain('<compacted-summary>');
    expect(text).toContain(CHECKPOINT_PREAMBLE);
    expect(text).toContain('Never use unwrap() in library code.');
    expect(JSON.stringify(baseline.body.input)).toContain('def handler_0 0:');
    expect(text).not.toContain('def handler_0 0:');
    expect(responsesPairingProblems(input)).toEqual([]);
    expect(responsesPairingProblems(baseline.body.input as Item[])).toEqual([]);
    // Codex builds its context again after a compacted item: it must not be sent twice
    const count = (items: Item[], prefix: string) => items.filter((it) => it.type === 'message' && textOf(it).trimStart().startsWith(prefix)).length;
    expect(count(input, '<skills_instructions>')).toBe(count(baseline.body.input as Item[], '<skills_instructions>'));
    expect(count(input, '<skills_instructions>')).toBe(1);
    expect(input.at(-1)).toMatchObject({ role: 'user', content: [{ text: 'continue' }] });
    const size = (items: unknown) => JSON.stringify(items).length;
    expect(size(input)).toBeLessThan(size(baseline.body.input));

    // Codex appended the new turn after our compacted item; it still counts, and the listing says so
    age(rollout!);
    const after = JSON.parse((await cli(['sessions', '--json'])).stdout);
    expect(after[0].compactions).toEqual({ ours: 1, host: 0 });
    expect(after[0].surfaceTokens).toBeLessThan(rows[0].surfaceTokens / 2);
    process.stdout.write(`[codex session resume] request input: uncompacted ${size(baseline.body.input)} chars, compacted ${size(input)} chars; session tokens ${report.tokensBefore} -> ${report.tokensAfter} (budget ${budget})\n`);
  }, 600_000);
});
