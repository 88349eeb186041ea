#!/usr/bin/env node
// What the host CLI summarizers cost beside the model's own time, against the API summarizers on
// the same loopback servers (test-support/llm-servers.ts: the replies are instant, so the figures
// are the client's and the process's, never the model's):
//   - wall ms of one compaction of claude-code/python-to-rust-port.jsonl at budget 8000 (median of
//     --runs, default 3): `anthropic` (the SDK in process) vs `claude-code` (the pinned `claude -p`),
//     `openai` vs `codex` (the pinned `codex exec`);
//   - tokens the model server received per request (o200k, system and messages as sent) against
//     our own system prompt and span: what the host adds to each request (its identity, tools,
//     base instructions), paid on the user's quota.
// Needs `npm run build` and the pinned hosts in .e2e-hosts/ (see .ci/run).
//   node bench/host-summarizers.mjs [--runs 3]
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { arg, importTs, root } from './lib.mjs';
import { AnthropicSummarizer, BasicCompactionEngine, CHECKPOINT_HEADINGS, ClaudeCodeSummarizer, CodexSummarizer, OpenAISummarizer, TokenMeter } from '@hive-mind/compaction';
import { readTranscriptFile } from '@hive-mind/transcripts';

const runs = Number(arg('runs', '3'));
const FILE = join(root, '../shared/data/transcripts/claude-code/python-to-rust-port.jsonl');
const CLAUDE = join(root, '.e2e-hosts/node_modules/@anthropic-ai/claude-code-linux-x64/claude');
const CODEX = join(root, '.e2e-hosts/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex');
if (!existsSync(CLAUDE) || !existsSync(CODEX)) {
  console.log(`the pinned hosts are not installed in .e2e-hosts/ (see .ci/run): ${existsSync(CLAUDE) ? '' : CLAUDE} ${existsSync(CODEX) ? '' : CODEX}`);
  process.exit(0);
}
const { startAnthropicServer, startOpenAIChatServer, startResponsesServer } = await importTs(join(root, 'test-support/llm-servers.ts'));
const GOOD = CHECKPOINT_HEADINGS.map((h) => `## ${h}\n- ${h === 'Goal' ? 'Port the Python utils to Rust.' : 'none'}`).join('\n\n');
const meter = new TokenMeter();

const anth = await startAnthropicServer({ fallback: GOOD });
const chat = await startOpenAIChatServer({ fallback: GOOD });
const resp = await startResponsesServer({ fallback: GOOD });
const home = mkdtempSync(join(tmpdir(), 'hm-bench-hosts-'));
mkdirSync(join(home, '.claude'), { recursive: true });
mkdirSync(join(home, '.codex'), { recursive: true });
writeFileSync(
  join(home, '.codex', 'config.toml'),
  [
    'model = "gpt-4o-mini"',
    'model_provider = "bench"',
    'check_for_update_on_startup = false',
    '[analytics]\nenabled = false',
    '[feedback]\nenabled = false',
    '[features]\nplugins = false\napps = false',
    `[model_providers.bench]\nname = "bench"\nbase_url = "${resp.url}/v1"\nwire_api = "responses"\nenv_key = "HM_BENCH_KEY"`,
  ].join('\n') + '\n',
);
const hostEnv = {
  PATH: process.env.PATH,
  HOME: home,
  CLAUDE_CONFIG_DIR: join(home, '.claude'),
  CODEX_HOME: join(home, '.codex'),
  ANTHROPIC_BASE_URL: anth.url,
  ANTHROPIC_API_KEY: 'sk-ant-bench',
  HM_BENCH_KEY: 'sk-bench',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
};

const summarizers = {
  anthropic: () => new AnthropicSummarizer({ apiKey: 'sk-ant-bench', baseURL: anth.url, model: 'claude-haiku-4-5' }),
  'claude-code': () => new ClaudeCodeSummarizer({ command: CLAUDE, env: hostEnv, model: 'claude-haiku-4-5' }),
  openai: () => new OpenAISummarizer({ apiKey: 'sk-bench', baseURL: chat.v1Url, model: 'gpt-4o-mini' }),
  codex: () => new CodexSummarizer({ command: CODEX, env: hostEnv, model: 'gpt-4o-mini' }),
};
const requestsOf = { anthropic: () => anth.messageRequests, 'claude-code': () => anth.messageRequests, openai: () => chat.completionRequests, codex: () => resp.responseRequests };

/** Tokens of what a request body carries to the model: system, messages / input, tools (o200k). */
function sentTokens(body) {
  const parts = [body.system, body.messages, body.instructions, body.input, body.tools].filter((p) => p !== undefined);
  return meter.countText(parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join('\n'));
}

const rows = [];
for (const [name, make] of Object.entries(summarizers)) {
  const times = [];
  let sent = 0;
  let requests = 0;
  for (let i = 0; i < runs; i++) {
    const t = await readTranscriptFile(FILE);
    const engine = new BasicCompactionEngine({ budget: 8000, meter, summarizer: make(), fallback: false });
    const before = requestsOf[name]().length;
    const t0 = performance.now();
    const r = await engine.compactIfNeeded(t.log);
    times.push(performance.now() - t0);
    if (!r.compacted || r.summarizer !== name) throw new Error(`${name}: did not compact (${r.noopReason ?? r.fallback?.reason})`);
    const reqs = requestsOf[name]().slice(before);
    requests = reqs.length;
    sent = reqs.reduce((n, q) => n + sentTokens(q.body), 0) / reqs.length;
  }
  times.sort((a, b) => a - b);
  rows.push({ name, ms: times[Math.floor(times.length / 2)], requests, sent: Math.round(sent) });
}
const base = Object.fromEntries(rows.map((r) => [r.name, r]));
console.log(`one compaction of claude-code/python-to-rust-port.jsonl at budget 8000, instant loopback replies, median of ${runs}`);
console.log('summarizer     ms      x API   requests  tokens sent/request  +host tokens/request');
for (const r of rows) {
  const api = r.name === 'claude-code' ? base.anthropic : r.name === 'codex' ? base.openai : undefined;
  const ratio = api ? `${(r.ms / api.ms).toFixed(1)}x ${api.name}` : '-';
  const extra = api ? String(r.sent - api.sent) : '-';
  console.log(`${r.name.padEnd(13)} ${String(Math.round(r.ms)).padStart(6)}  ${ratio.padEnd(15)} ${String(r.requests).padStart(4)}  ${String(r.sent).padStart(12)}  ${extra.padStart(18)}`);
}
await Promise.all([anth.close(), chat.close(), resp.close()]);
rmSync(home, { recursive: true, force: true });
