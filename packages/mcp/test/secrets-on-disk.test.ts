/**
 * Every generated secret (the context rules', one per rule of the maintained preset, an env dump)
 * through every write path, then the raw bytes of every file under the hive-mind home are grepped:
 * .mind files and their WAL/SHM, notes, ARCHIVE.jsonl, PENDING.jsonl, the hook log, spools.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_SECRET_TEXTS } from '../../mind/test/secrets.js';
import { CLI, REPO, connectStdio, callJson, requireBuilt, tempHome } from './helpers.js';

const FIX = join(REPO, 'packages/hooks/test/fixtures');
const fixture = (host: string, name: string, cwd: string) => JSON.parse(readFileSync(join(FIX, host, name), 'utf8').split('/home/user/project').join(cwd));

function run(args: string[], stdin: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

/** Every file under `dir`, recursively, as latin1 text. */
function allFiles(dir: string): Array<{ path: string; bytes: string }> {
  const out: Array<{ path: string; bytes: string }> = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...allFiles(p));
    else out.push({ path: p, bytes: readFileSync(p).toString('latin1') });
  }
  return out;
}

// the texts in groups, so that every path sees every text in a few process runs
const GROUPS: string[] = [];
for (let i = 0; i < ALL_SECRET_TEXTS.length; i += 6) GROUPS.push(ALL_SECRET_TEXTS.slice(i, i + 6).map((c) => c.text).join('\n\n'));
const remember = (text: string) => `Remember: always use these settings from now on.\n${text}`;

describe('secrets never reach disk, on any write path', { timeout: 240_000 }, () => {
  let home: string;
  let cleanup: () => void;
  let files: Array<{ path: string; bytes: string }>;
  const results: string[] = [];

  beforeAll(async () => {
    requireBuilt();
    ({ home, cleanup } = tempHome('hm-secrets-'));
    const project = join(home, 'project');
    mkdirSync(join(project, '.git'), { recursive: true });
    // small notes limits so that writes overflow into pending notes and the archive
    const env = { ...process.env, HIVE_MIND_HOME: home, HOME: join(home, 'user'), HIVE_MIND_MEMORY_CHAR_LIMIT: '600', HIVE_MIND_USER_CHAR_LIMIT: '400' };
    const hookRuns: Array<[string[], unknown]> = [];
    GROUPS.forEach((text, g) => {
      hookRuns.push([['hook', 'claude-code', 'UserPromptSubmit'], { session_id: `cc-${g}`, transcript_path: join(project, 'none.jsonl'), cwd: project, hook_event_name: 'UserPromptSubmit', prompt: remember(text) }]);
      hookRuns.push([['hook', 'codex', 'UserPromptSubmit'], { session_id: `cx-${g}`, turn_id: `t-${g}`, cwd: project, hook_event_name: 'UserPromptSubmit', model: 'gpt-5-codex', prompt: remember(text) }]);
      hookRuns.push([['hook', 'codex', 'Stop'], { session_id: `cx-${g}`, turn_id: `t-${g}`, cwd: project, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: `Decided to use these from now on:\n${text}` }]);
      hookRuns.push([['hook', 'cursor', 'beforeSubmitPrompt'], { ...fixture('cursor', 'beforeSubmitPrompt.json', project), conversation_id: `cu-${g}`, prompt: remember(text) }]);
      hookRuns.push([['hook', 'cursor', 'afterAgentResponse'], { ...fixture('cursor', 'afterAgentResponse.json', project), conversation_id: `cu-${g}`, text: `I'll use these from now on:\n${text}` }]);
      const hp = fixture('hermes', 'post_llm_call.json', project);
      hookRuns.push([['hook', 'hermes', 'post_llm_call'], { ...hp, session_id: `he-${g}`, extra: { ...hp.extra, user_message: remember(text), assistant_response: `Noted:\n${text}`, conversation_history: [] } }]);
      const om = fixture('openclaw', 'message-received.json', project);
      hookRuns.push([['hook', 'openclaw', 'message:received'], { ...om, context: { ...om.context, content: remember(text), messageId: `m-${g}` } }]);
    });
    // a transcript to import: the texts as user instructions and as a failed tool's output
    const transcript = join(project, 'session.jsonl');
    const lines: string[] = [];
    GROUPS.forEach((text, g) => {
      const base = { cwd: project, sessionId: 'imp-1', version: '2.1.14', userType: 'external', isSidechain: false, timestamp: `2026-11-30T10:0${g % 10}:00.000Z` };
      lines.push(JSON.stringify({ ...base, type: 'user', uuid: `u${g}`, parentUuid: g ? `a${g - 1}` : null, message: { role: 'user', content: remember(text) } }));
      lines.push(JSON.stringify({ ...base, type: 'assistant', uuid: `a${g}`, parentUuid: `u${g}`, message: { role: 'assistant', model: 'claude', content: [{ type: 'text', text: `We decided to use these:\n${text}` }, { type: 'tool_use', id: `tu${g}`, name: 'Bash', input: { command: `env | grep KEY # ${text.slice(0, 200)}` } }] } }));
      lines.push(JSON.stringify({ ...base, type: 'user', uuid: `r${g}`, parentUuid: `a${g}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tu${g}`, is_error: true, content: `Error: ${text}` }] } }));
    });
    writeFileSync(transcript, lines.join('\n') + '\n');

    const log = (what: string, r: { code: number | null; stderr: string }) => results.push(`${what}: exit ${r.code}${r.code ? ` ${r.stderr.trim().split('\n')[0]}` : ''}`);
    for (const [args, body] of hookRuns) log(args.join(' '), await run(args, JSON.stringify(body), env));
    for (const [g, text] of GROUPS.entries()) {
      log(`mind save ${g}`, await run(['mind', 'save', '-', '--workspace', project], text, env));
      log(`notes add ${g}`, await run(['notes', 'add', text.slice(0, 1500), '--thread', 'secrets', '--auto-consolidate'], '', env));
      log(`notes add --user ${g}`, await run(['notes', 'add', text.slice(0, 1500), '--user', '--auto-consolidate'], '', env));
    }
    log('mind import', await run(['mind', 'import', transcript, '--personal'], '', env));
    const c = await connectStdio(home, ['--workspace', project]);
    try {
      for (const text of GROUPS) {
        await callJson(c.client, 'save_memory', { content: text, scope: 'workspace' });
        // over the limit this is refused with a typed result (and the fact kept as a pending note): still a write path
        await c.client.callTool({ name: 'memory_notes', arguments: { action: 'add', target: 'memory', thread: 'mcp', content: text.slice(0, 1500) } });
      }
    } finally {
      await c.close();
    }
    files = allFiles(home).filter((f) => !f.path.startsWith(project + '/')); // the project holds the inputs
    // about 70 CLI and hook processes in a row: past vitest's 60 s hook default on a loaded machine
  }, 240_000);
  afterAll(() => (process.env.KEEP_HOME ? console.log('home kept', home) : cleanup?.()));

  it('every path ran', () => {
    expect(results.filter((r) => r.startsWith('hook ') && !r.endsWith('exit 0'))).toEqual([]);
    expect(results.filter((r) => /^(mind save|mind import)/.test(r) && !r.endsWith('exit 0'))).toEqual([]);
    const names = files.map((f) => f.path.slice(home.length));
    expect(names.some((n) => n.endsWith('.mind-wal') || n.endsWith('.mind'))).toBe(true);
    expect(names.some((n) => n.endsWith('ARCHIVE.jsonl'))).toBe(true);
    expect(names.some((n) => n.endsWith('MEMORY.md'))).toBe(true);
    expect(names.some((n) => n.endsWith('USER.md'))).toBe(true);
  });

  it('0 bytes of any secret in any file under the home', () => {
    const found: string[] = [];
    for (const c of ALL_SECRET_TEXTS) for (const s of c.secrets) for (const f of files) if (f.bytes.includes(s)) found.push(`${c.name} in ${f.path.slice(home.length)}`);
    expect(found).toEqual([]);
    // and the redaction left its marks (the values were stored, as placeholders)
    expect(files.some((f) => f.bytes.includes('[REDACTED:high-entropy]'))).toBe(true);
  });
});
