/**
 * `compact_transcript` with `summarizer: "codex"` and `"claude-code"`: the real MCP server starts
 * the pinned real `codex exec` / `claude -p` (test-support/hosts.ts), found on PATH, against the
 * loopback model servers, through the real MCP client. The host's checkpoint lands and the nested
 * run leaves no session of the host's. Needs the built CLI (`npx tsc -b packages/cli`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHECKPOINT_HEADINGS } from '@hive-mind/compaction';
import { claudeEnv, codexEnv, hostOrSkip, listClaudeSessions, listCodexSessions, writeCodexConfig } from '../../../test-support/hosts.js';
import { startAnthropicServer, startResponsesServer } from '../../../test-support/llm-servers.js';
import { callJson, connectStdio, REPO, requireBuilt } from './helpers.js';

const claude = await hostOrSkip('claude');
const codex = await hostOrSkip('codex');
const PORT = join(REPO, '../shared/data/transcripts/claude-code/python-to-rust-port.jsonl');
const GOOD = CHECKPOINT_HEADINGS.map((h) => `## ${h}\n- ${h === 'Goal' ? 'HOST-MODEL-CHECKPOINT via MCP' : 'none'}`).join('\n\n');

const roots: string[] = [];
afterAll(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});
function setup(name: string, target: string): { root: string; home: string; path: string } {
  const root = mkdtempSync(join(tmpdir(), `hm-mcp-${name}-`));
  roots.push(root);
  mkdirSync(join(root, 'bin'));
  symlinkSync(target, join(root, 'bin', name));
  return { root, home: join(root, 'home'), path: `${join(root, 'bin')}:${process.env.PATH}` };
}

describe.skipIf(!codex)('compact_transcript, summarizer codex (the real Codex CLI)', { timeout: 180_000 }, () => {
  it("the host's checkpoint comes back; our system prompt and the span reached the model; no rollout written", async () => {
    requireBuilt();
    const server = await startResponsesServer({ fallback: GOOD });
    const { root, home, path } = setup('codex', codex!);
    writeCodexConfig(home, server.url);
    const c = await connectStdio(join(root, 'hm'), [], 'hm-e2e', { ...codexEnv({ home }), PATH: path });
    try {
      const page = await callJson(c.client, 'compact_transcript', { path: PORT, budget: 8000, summarizer: 'codex', output: 'markdown' });
      expect(page.report.summarizer).toBe('codex');
      expect(page.report.fallback).toBeUndefined();
      expect(page.compacted).toContain('HOST-MODEL-CHECKPOINT via MCP');
      const sent = JSON.stringify(server.responseRequests.map((q) => q.body.input));
      expect(sent).toContain('You write a checkpoint');
      expect(sent).toContain('Port this Python project to Rust');
      expect(listCodexSessions(home)).toEqual([]);
    } finally {
      await c.close();
      await server.close();
    }
  });
});

describe.skipIf(!claude)('compact_transcript, summarizer claude-code (the real Claude Code)', { timeout: 180_000 }, () => {
  it("the host's checkpoint comes back, with the model it used; no session written", async () => {
    requireBuilt();
    const server = await startAnthropicServer({ fallback: GOOD });
    const { root, home, path } = setup('claude', claude!);
    mkdirSync(join(home, '.claude'), { recursive: true });
    const c = await connectStdio(join(root, 'hm'), [], 'hm-e2e', { ...claudeEnv({ home, baseUrl: server.url }), PATH: path });
    try {
      const page = await callJson(c.client, 'compact_transcript', { path: PORT, budget: 8000, summarizer: 'claude-code', model: 'claude-haiku-4-5', output: 'markdown' });
      expect(page.report.summarizer).toBe('claude-code');
      expect(page.compacted).toContain('HOST-MODEL-CHECKPOINT via MCP');
      expect(server.messageRequests.map((q) => q.body.model)).toEqual(['claude-haiku-4-5']);
      expect(JSON.stringify(server.messageRequests[0]!.body.system)).toContain('You write a checkpoint');
      expect(listClaudeSessions(home)).toEqual([]);
    } finally {
      await c.close();
      await server.close();
    }
  });
});
