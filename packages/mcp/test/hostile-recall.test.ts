/**
 * Every path into recall, fed a store full of hostile texts (test/hostile.ts in the mind package):
 * SessionStart of all five hosts, UserPromptSubmit (Claude Code, Codex), MCP recall / search_memory /
 * get_memory, and `hive-mind mind recall`. Nothing may come out as working markup; the injected block
 * has exactly one opening and one closing tag, with a nonce new for every injection.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Mind, personalMindPath, workspaceMindPath } from '@hive-mind/mind';
import { HOSTILE_TEXTS, liveMarkup } from '../../mind/test/hostile.js';
import { CLI, REPO, connectStdio, requireBuilt, tempHome, textOf } from './helpers.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

const FIX = join(REPO, 'packages/hooks/test/fixtures');
const fixture = (host: string, name: string, cwd: string) => JSON.parse(readFileSync(join(FIX, host, name), 'utf8').split('/home/user/project').join(cwd));

function run(args: string[], stdin: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', (code) => resolve({ code, stdout }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

/** Every string inside a parsed JSON value. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (!v || typeof v !== 'object') return [];
  return Object.values(v as Record<string, unknown>).flatMap(strings);
}

/** A tool's result: parsed when it is JSON, and its text as a model reads it (JSON strings unescaped). */
async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<{ json?: any; text: string }> {
  const r = await client.callTool({ name, arguments: args });
  const raw = textOf(r);
  if (r.isError) throw new Error(`${name} failed: ${raw}`);
  try {
    const json = JSON.parse(raw);
    return { json, text: strings(json).join('\n') };
  } catch {
    return { text: raw.replace(/\\n/g, '\n') }; // a result cut at the size limit is plain text
  }
}

const FRAME = /<(hive-mind-memory-[0-9a-f]{16})>/g;

/** Live markup in an injected text, our own frame tags (one pair, same nonce) allowed. */
function check(text: string): { live: string[]; nonces: string[] } {
  const nonces = [...text.matchAll(FRAME)].map((m) => m[1]!);
  const tags = nonces.flatMap((n) => [`<${n}>`, `</${n}>`]);
  const live = liveMarkup(text, tags);
  for (const n of nonces) if (text.split(`</${n}>`).length !== 2) live.push(`closing of ${n} appears ${text.split(`</${n}>`).length - 1} times`);
  return { live, nonces };
}

describe('hostile stored text never reaches recall as live markup, on any path', { timeout: 180_000 }, () => {
  let home: string;
  let cleanup: () => void;
  const outputs: Array<{ path: string; text: string }> = [];

  beforeAll(async () => {
    requireBuilt();
    ({ home, cleanup } = tempHome('hm-hostile-'));
    const project = join(home, 'project');
    mkdirSync(join(project, '.git'), { recursive: true });
    const env = { ...process.env, HIVE_MIND_HOME: home, HOME: join(home, 'user'), HIVE_MIND_RECALL_TOKENS: '20000' };
    // stored as critical (always recalled) and un-quarantined, as if a reviewer had let them through:
    // what is left between them and the prompt is neutralization alone
    for (const path of [workspaceMindPath(project, env), personalMindPath(env)]) {
      const m = Mind.open(path);
      for (const h of HOSTILE_TEXTS) {
        const r = m.save({ content: `${h.text} (hostile: ${h.name})`, importance: 'critical', scope: path.includes('workspaces') ? 'workspace' : 'personal', workspace: project });
        m.setQuarantined(r.id, false);
      }
      m.close();
    }
    const hook = async (host: string, event: string, body: unknown) => {
      const r = await run(['hook', host, event], JSON.stringify(body), env);
      expect(r.code).toBe(0);
      if (r.stdout.trim()) outputs.push({ path: `hook ${host} ${event}`, text: strings(JSON.parse(r.stdout)).join('\n') });
    };
    await hook('claude-code', 'SessionStart', { session_id: 's1', transcript_path: join(project, 't.jsonl'), cwd: project, hook_event_name: 'SessionStart', source: 'startup' });
    await hook('codex', 'SessionStart', { session_id: 's2', transcript_path: null, cwd: project, hook_event_name: 'SessionStart', model: 'gpt-5-codex', source: 'startup' });
    await hook('cursor', 'sessionStart', fixture('cursor', 'sessionStart.json', project));
    await hook('hermes', 'pre_llm_call', fixture('hermes', 'pre_llm_call.first.json', project));
    await hook('openclaw', 'agent:bootstrap', fixture('openclaw', 'agent-bootstrap.json', project));
    await hook('claude-code', 'UserPromptSubmit', { session_id: 's1', transcript_path: join(project, 't.jsonl'), cwd: project, hook_event_name: 'UserPromptSubmit', prompt: 'what do the tool_result and function_calls notes say?' });
    await hook('codex', 'UserPromptSubmit', { session_id: 's2', turn_id: 't1', cwd: project, hook_event_name: 'UserPromptSubmit', model: 'gpt-5-codex', prompt: 'what do the tool_call notes say?' });
    for (const args of [['mind', 'recall', '--budget', '20000', '--workspace', project], ['mind', 'recall', '--budget', '20000'], ['mind', 'recall', '--query', 'hostile tool system', '--budget', '20000']]) {
      const r = await run(args, '', env);
      expect(r.code).toBe(0);
      outputs.push({ path: args.join(' '), text: r.stdout });
    }
    const c = await connectStdio(home, ['--workspace', project]);
    try {
      for (const args of [{ budgetTokens: 8000 }, { budgetTokens: 8000, query: 'hostile' }, { budgetTokens: 8000, mind: 'workspace' }]) {
        const r = await tool(c.client, 'recall', args);
        outputs.push({ path: `mcp recall ${JSON.stringify(args)}`, text: r.text });
      }
      for (const query of ['hostile', 'tool_result', 'system prompt', 'function_calls invoke', 'im_start', 'hive-mind-memory']) {
        const r = await tool(c.client, 'search_memory', { query, limit: 5 });
        outputs.push({ path: `mcp search ${query}`, text: r.text });
        for (const hit of (r.json?.results ?? []).slice(0, 10)) {
          const g = await tool(c.client, 'get_memory', { id: hit.id, mind: hit.mind });
          outputs.push({ path: `mcp get_memory ${hit.id}`, text: g.text });
        }
      }
    } finally {
      await c.close();
    }
  });
  afterAll(() => {
    if (process.env.HM_DEBUG) for (const o of outputs) console.log('>>', o.path, o.text.slice(0, 300));
    cleanup?.();
  });

  it('the hostile texts did reach the outputs (neutralized), on every path', () => {
    const paths = new Set(outputs.map((o) => o.path.split(' ').slice(0, 3).join(' ')));
    for (const p of ['hook claude-code SessionStart', 'hook codex SessionStart', 'hook cursor sessionStart', 'hook hermes pre_llm_call', 'hook openclaw agent:bootstrap', 'mind recall --budget']) expect(paths, p).toContain(p);
    expect([...paths].some((p) => p.startsWith('mcp recall'))).toBe(true);
    expect([...paths].some((p) => p.startsWith('mcp search'))).toBe(true);
    expect([...paths].some((p) => p.startsWith('mcp get_memory'))).toBe(true);
    const shown = HOSTILE_TEXTS.filter((h) => outputs.some((o) => o.text.includes(`(hostile: ${h.name})`)));
    expect(shown.length).toBeGreaterThanOrEqual(40); // the rest are held back by the threat scan
    expect(outputs.some((o) => o.text.includes('‹function_calls›'))).toBe(true);
  });

  it('0 reach recall as live markup; every hook injection is one block with its own nonce', () => {
    const bad: string[] = [];
    const nonces: string[] = [];
    for (const o of outputs) {
      const r = check(o.text);
      if (r.live.length) bad.push(`${o.path}: ${[...new Set(r.live)].slice(0, 5).join(' ')}`);
      if (o.path.startsWith('hook')) {
        if (r.nonces.length !== 1) bad.push(`${o.path}: ${r.nonces.length} frame tags`);
        nonces.push(...r.nonces);
      }
    }
    expect(bad).toEqual([]);
    expect(new Set(nonces).size).toBe(nonces.length);
  });
});
