/**
 * `hive-mind install claude-code` (through the launcher) in the real Claude Code 2.1.332 after
 * the world moved: the node the install recorded is deleted (a Node upgrade), then the checkout
 * it recorded is moved. The hooks keep carrying a fact across sessions while a node / a
 * `hive-mind` is reachable, and with none the session still runs and each hook logs one line.
 * Needs the built CLI (`npx tsc -b packages/cli`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startAnthropicServer, type AnthropicServer } from '../../../test-support/llm-servers.js';
import { expectSuccess, hostOrSkip, runClaude } from '../../../test-support/hosts.js';
import { loadInstaller } from '../src/index.js';
import { CLI, logLines } from './helpers.js';
import { pathWithout } from './plugin-helpers.js';

const claude = await hostOrSkip('claude');

describe.skipIf(!claude)('hooks installed through the launcher, in the real Claude Code, after a Node upgrade and a moved checkout', { timeout: 300_000 }, () => {
  let server: AnthropicServer;
  const root = mkdtempSync(join(tmpdir(), 'hm-e2e-launcher-'));
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  const hmHome = join(home, '.hive-mind');
  // the node and checkout the install records: links to the real ones, deleted/moved below
  const oldNode = join(root, 'nodes', 'v20.1.0', 'bin', 'node');
  const checkout = join(root, 'src', 'hive-mind');
  const bin = join(checkout, 'packages', 'cli', 'bin', 'hive-mind.js');
  const globalBin = join(root, 'global-bin');
  const noCli = pathWithout('hive-mind');
  const session = (prompt: string, path: string) => runClaude(['-p', prompt, '--output-format', 'json'], { home, cwd, baseUrl: server.url, env: { HOME: home, PATH: path } });

  beforeAll(async () => {
    server = await startAnthropicServer({ fallback: 'Noted.' });
    mkdirSync(join(cwd, '.git'), { recursive: true });
    for (const d of [dirname(oldNode), dirname(bin), globalBin]) mkdirSync(d, { recursive: true });
    symlinkSync(process.execPath, oldNode);
    symlinkSync(CLI, bin);
    symlinkSync(CLI, join(globalBin, 'hive-mind'));
    await (await loadInstaller('claude-code'))!.install({ home, env: { ...process.env, HOME: home, HIVE_MIND_HOME: undefined }, cli: { node: oldNode, cli: bin } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the recorded node is gone: the hooks run the recorded CLI with node from PATH and carry the fact', async () => {
    rmSync(join(root, 'nodes'), { recursive: true });
    const path = `${dirname(process.execPath)}:${noCli}`;
    expectSuccess(await session('remember that the build uses pnpm', path));
    const before = server.messageRequests.length;
    expectSuccess(await session('which package manager does the build use?', path));
    expect(server.messageRequests.slice(before).some((q) => q.rawBody.includes('The build uses pnpm'))).toBe(true);
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
  });

  it('the recorded checkout moved: a hive-mind on PATH takes over; with none the session runs and each hook logs one line', async () => {
    renameSync(checkout, join(root, 'src', 'hive-mind-moved'));
    let before = server.messageRequests.length;
    expectSuccess(await session('which package manager does the build use?', `${globalBin}:${dirname(process.execPath)}:${noCli}`));
    expect(server.messageRequests.slice(before).some((q) => q.rawBody.includes('The build uses pnpm'))).toBe(true);
    expect(logLines(join(hmHome, 'logs', 'hooks.log'))).toEqual([]);
    before = server.messageRequests.length;
    expectSuccess(await session('which package manager does the build use?', `${dirname(process.execPath)}:${noCli}`));
    expect(server.messageRequests.slice(before).some((q) => q.rawBody.includes('The build uses pnpm'))).toBe(false);
    const lines = logLines(join(hmHome, 'logs', 'hooks.log'));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const l of lines) expect(l).toMatch(/Z claude-code (SessionStart|UserPromptSubmit|Stop|SessionEnd): hive-mind: the hive-mind CLI recorded by hive-mind install /);
    expect(lines[0]).toMatch(new RegExp(`Z claude-code SessionStart: hive-mind: the hive-mind CLI recorded by hive-mind install \\(${bin.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\) is gone, and the hive-mind CLI is not on PATH, in ~\/.local\/bin nor in the project's node_modules; .*then run \`hive-mind install claude-code\` again$`));
  });
});
