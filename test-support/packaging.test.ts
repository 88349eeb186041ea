/**
 * The packages as a user gets them: every workspace package packed with `npm pack`, checked
 * with publint and @arethetypeswrong/cli, installed from the tarballs into an empty folder
 * (no workspace links, nothing of the repository's node_modules above it), and run from there:
 * `hive-mind --version`, the README's main compact job, `mind save`/`search`, a hook. Then
 * `@hive-mind/compaction` alone: no native module, no SDK, and a clear error naming the SDK
 * when a summarizer needs it. Plus knip: each package declares what it imports, and only that.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { REPO_ROOT, installTarballs, internalClosure, packWorkspaces, workspacePackages } from './pack.mjs';

const execFileP = promisify(execFile);
const DATA = join(REPO_ROOT, '../shared/data');
const BIN = join(REPO_ROOT, 'node_modules/.bin');
/** npm install of every tarball builds better-sqlite3 from source here (about a minute). */
const INSTALL_TIMEOUT_MS = 900_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number }): Promise<Run> {
  const p = execFileP(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, timeout: opts.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' });
  if (opts.input !== undefined) {
    p.child.stdin!.end(opts.input);
  }
  try {
    const { stdout, stderr } = await p;
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: unknown; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? String(err) };
  }
}

const packages = workspacePackages();
let work: string;
let tarballs: Record<string, string>;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'hive-mind-pack-'));
  tarballs = packWorkspaces(join(work, 'tarballs'), packages);
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('every workspace package packs for publishing', () => {
  it('packs each package the root package.json lists, without build caches, with the sources its maps point to', () => {
    expect(Object.keys(tarballs).sort()).toEqual(packages.map((p) => p.name).sort());
    for (const p of packages) {
      const files = listTarball(tarballs[p.name]!);
      expect(files, p.name).toContain('package/LICENSE');
      expect(files, p.name).toContain('package/README.md');
      expect(files.filter((f) => f.endsWith('.tsbuildinfo')), p.name).toEqual([]);
      // every declaration map's sources are in the tarball (a map left in dist/ by a build of a
      // source since deleted is skipped: a clean build, as in CI, has none)
      for (const map of files.filter((f) => f.endsWith('.d.ts.map'))) {
        const { sources } = JSON.parse(tarFile(tarballs[p.name]!, map)) as { sources: string[] };
        for (const s of sources) {
          const inTarball = join(map, '..', s);
          if (!existsSync(join(REPO_ROOT, p.dir, inTarball.replace(/^package\//, '')))) continue;
          expect(files, `${p.name} ${map}`).toContain(inTarball);
        }
      }
    }
  });

  it('declares a license, its repository folder, engines and internal dependencies as ranges', () => {
    for (const p of packages) {
      const m = p.manifest as Record<string, any>;
      expect(m.license, p.name).toBe('MIT');
      expect(m.repository?.directory, p.name).toBe(p.dir);
      expect(m.engines?.node, p.name).toMatch(/^>=\d+/);
      for (const section of ['dependencies', 'peerDependencies', 'devDependencies']) {
        for (const [dep, range] of Object.entries((m[section] ?? {}) as Record<string, string>)) {
          if (dep.startsWith('@hive-mind/') || dep === 'hive-mind') expect(range, `${p.name} ${section} ${dep}`).toMatch(/^\^\d/);
        }
      }
    }
  });

  it('passes publint (suggestions included) on each tarball', async () => {
    const found: string[] = [];
    for (const p of packages) {
      const bytes = readFileSync(tarballs[p.name]!);
      const { messages, pkg } = await publint({ pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer }, level: 'suggestion', strict: true });
      for (const m of messages) found.push(`${p.name}: ${m.type} ${m.code}: ${formatMessage(m, pkg, { color: false })}`);
    }
    expect(found).toEqual([]);
  });

  it('passes @arethetypeswrong/cli (ESM-only profile) on each tarball', async () => {
    const results = await Promise.all(
      packages.map(async (p) => ({ p, r: await run(join(BIN, 'attw'), ['--profile', 'esm-only', '--format', 'ascii', '--no-emoji', '--no-color', tarballs[p.name]!], { cwd: work, timeoutMs: 300_000 }) })),
    );
    for (const { p, r } of results) expect(r.code, `${p.name}\n${r.stdout}${r.stderr}`).toBe(0);
  }, 300_000);
});

describe('installed from the tarballs into an empty folder', () => {
  let app: string;
  let home: string;
  let hiveMind: string;
  const env = () => ({ HIVE_MIND_HOME: home, NO_COLOR: '1' });

  beforeAll(() => {
    app = join(work, 'app');
    home = join(work, 'home');
    installTarballs(app, tarballs, { timeoutMs: INSTALL_TIMEOUT_MS });
    hiveMind = join(app, 'node_modules/.bin/hive-mind');
  }, INSTALL_TIMEOUT_MS);

  it('links no workspace package: every @hive-mind package is a real folder from its tarball', async () => {
    for (const p of packages) {
      const dir = join(app, 'node_modules', p.name);
      expect(lstatSync(dir).isSymbolicLink(), p.name).toBe(false);
      expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version).toBe(p.version);
    }
  });

  it('runs hive-mind --version', async () => {
    const r = await run(hiveMind, ['--version'], { cwd: app, env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(packages.find((p) => p.name === 'hive-mind')!.version);
  });

  it("runs the README's main job: compacts the repository's real Claude Code session to an 8,000-token budget", async () => {
    const out = join(work, 'compacted.jsonl');
    const r = await run(hiveMind, ['compact', join(REPO_ROOT, 'examples/sessions/claude-code-python-to-rust-port.jsonl'), '--budget', '8000', '--out', out], { cwd: app, env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/-> \d+ tokens \(budget 8000\)/);
    expect(r.stdout).toContain('tool pairing: balanced');
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { isCompactSummary?: boolean });
    expect(lines.some((l) => l.isCompactSummary === true)).toBe(true);
  });

  it('saves a fact with mind save, finds it with mind search, and a SessionStart hook recalls it', async () => {
    const fact = 'The staging database is reached through bastion host jump-7 on port 2222';
    const saved = await run(hiveMind, ['mind', 'save', fact, '--importance', 'important', '--json'], { cwd: app, env: env() });
    expect(saved.code, saved.stderr).toBe(0);
    const found = await run(hiveMind, ['mind', 'search', 'staging bastion', '--json'], { cwd: app, env: env() });
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toContain('jump-7');

    const payload = JSON.parse(readFileSync(join(DATA, 'host-payloads/claude-code/SessionStart.jsonl'), 'utf8').split('\n')[0]!) as Record<string, unknown>;
    const hook = await run(hiveMind, ['hook', 'claude-code', 'SessionStart'], { cwd: app, env: env(), input: JSON.stringify({ ...payload, cwd: app }) });
    expect(hook.code, hook.stderr).toBe(0);
    const answer = JSON.parse(hook.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(answer.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(answer.hookSpecificOutput.additionalContext).toContain('bastion host jump-7 on port 2222');
    expect(existsSync(join(home, 'logs/hooks.log')) ? readFileSync(join(home, 'logs/hooks.log'), 'utf8') : '').toBe('');
  });

  it('serves MCP: initialize and tools/list from the installed server (its build record matches the installed SDK)', async () => {
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pack-test', version: '0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    const r = await run(hiveMind, ['mcp'], { cwd: app, env: env(), input: lines.map((l) => JSON.stringify(l) + '\n').join('') });
    expect(r.code, r.stderr).toBe(0);
    const answers = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: number; result: { serverInfo?: { name: string }; tools?: unknown[] } });
    expect(answers[0]!.result.serverInfo?.name).toBe('hive-mind');
    expect(answers[1]!.result.tools?.length).toBeGreaterThanOrEqual(9);
    expect(r.stderr).not.toContain('another build');
  });

  it('prints hive-mind status --json', async () => {
    const r = await run(hiveMind, ['status', '--json'], { cwd: app, env: env() });
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as { home: { path: string }; minds: Array<{ name: string; stats?: { frames: number } }> };
    expect(s.home.path).toBe(home);
    expect(s.minds.find((m) => m.name === 'personal')?.stats?.frames).toBeGreaterThanOrEqual(1);
  });
});

describe('@hive-mind/compaction installed alone', () => {
  let app: string;

  beforeAll(() => {
    app = join(work, 'compaction-alone');
    const need = internalClosure(['@hive-mind/compaction'], packages);
    installTarballs(app, Object.fromEntries(need.map((p) => [p.name, tarballs[p.name]!])), { timeoutMs: INSTALL_TIMEOUT_MS });
  }, INSTALL_TIMEOUT_MS);

  it('brings no native module, no LLM SDK and no transcripts package', () => {
    for (const absent of ['better-sqlite3', 'openai', '@anthropic-ai/sdk', '@hive-mind/transcripts']) {
      expect(existsSync(join(app, 'node_modules', absent)), absent).toBe(false);
    }
  });

  it('compacts a session log in memory with the extractive summarizer', async () => {
    const script = `
      import { MemorySessionLog } from '@hive-mind/session';
      import { BasicCompactionEngine } from '@hive-mind/compaction';
      const log = new MemorySessionLog('s');
      for (let i = 0; i < 40; i++) {
        log.append([{ type: 'user/message', surfaceOp: 'append', content: [{ type: 'text', text: 'Please update src/module' + i + '.ts so the parser accepts trailing commas. ' + 'detail '.repeat(60) }] }]);
        log.append([{ type: 'assistant/message', surfaceOp: 'append', content: [{ type: 'text', text: 'Updated src/module' + i + '.ts. ' + 'note '.repeat(60) }] }]);
      }
      const engine = new BasicCompactionEngine({ budget: 4000, retainTokens: 1000 });
      const r = await engine.compactIfNeeded(log);
      console.log(JSON.stringify({ compacted: r.compacted, before: r.tokensBefore, after: r.tokensAfter }));
    `;
    const r = await runScript(app, 'extractive.mjs', script);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { compacted: boolean; before: number; after: number };
    expect(out.compacted).toBe(true);
    expect(out.after).toBeLessThanOrEqual(4000);
  });

  it('names the missing SDK and how to install it when the openai or anthropic summarizer is used', async () => {
    const script = `
      import { MemorySessionLog } from '@hive-mind/session';
      import { OpenAISummarizer, AnthropicSummarizer, TokenMeter } from '@hive-mind/compaction';
      const log = new MemorySessionLog('s');
      log.append([{ type: 'user/message', surfaceOp: 'append', content: [{ type: 'text', text: 'hello' }] }]);
      const out = [];
      for (const s of [new OpenAISummarizer({ apiKey: 'k', baseURL: 'http://127.0.0.1:9' }), new AnthropicSummarizer({ apiKey: 'k', baseURL: 'http://127.0.0.1:9' })]) {
        try {
          await s.summarize({ span: log.surface(), tail: [], maxTokens: 500, meter: new TokenMeter() });
          out.push({ ok: true });
        } catch (e) {
          out.push({ name: e.name, code: e.code, packageName: e.packageName, message: e.message });
        }
      }
      console.log(JSON.stringify(out));
    `;
    const r = await runScript(app, 'missing-sdk.mjs', script);
    expect(r.code, r.stderr).toBe(0);
    const [openai, anthropic] = JSON.parse(r.stdout) as Array<{ name: string; code: string; packageName: string; message: string }>;
    const ranges = (packages.find((p) => p.name === '@hive-mind/compaction')!.manifest as { peerDependencies: Record<string, string> }).peerDependencies;
    expect(openai).toMatchObject({ name: 'MissingPackageError', code: 'MISSING_PACKAGE', packageName: 'openai' });
    expect(openai!.message).toContain(`npm install openai@${ranges.openai}`);
    expect(anthropic).toMatchObject({ name: 'MissingPackageError', code: 'MISSING_PACKAGE', packageName: '@anthropic-ai/sdk' });
    expect(anthropic!.message).toContain(`npm install @anthropic-ai/sdk@${ranges['@anthropic-ai/sdk']}`);
  });

  it('loads @hive-mind/session without better-sqlite3; only the sqlite subpath needs it', async () => {
    const r = await runScript(app, 'sqlite.mjs', `
      await import('@hive-mind/session');
      try { await import('@hive-mind/session/sqlite'); console.log('loaded'); } catch (e) { console.log(e.message); }
    `);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("Cannot find package 'better-sqlite3'");
  });
});

describe('dependencies', () => {
  it('knip: every package declares what its sources and tests import, and nothing else (and its sources need no devDependency); no file and no export goes unused', async () => {
    // the production pass checks the dependencies only: an export the tests alone use is fine there
    for (const mode of [[], ['--production', '--exclude', 'files,exports,types']]) {
      const r = await run(join(BIN, 'knip'), ['--no-progress', '--no-config-hints', ...mode], { cwd: REPO_ROOT, timeoutMs: 300_000 });
      expect(r.code, `knip ${mode.join(' ')}\n${r.stdout}${r.stderr}`).toBe(0);
    }
  }, 300_000);
});

function runScript(dir: string, name: string, source: string): Promise<Run> {
  const file = join(dir, name);
  writeFileSync(file, source);
  return run(process.execPath, [file], { cwd: dir });
}

function listTarball(file: string): string[] {
  return execFileSyncText('tar', ['-tzf', file]).split('\n').filter(Boolean);
}

function tarFile(file: string, member: string): string {
  return execFileSyncText('tar', ['-xzOf', file, member]);
}

function execFileSyncText(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}
