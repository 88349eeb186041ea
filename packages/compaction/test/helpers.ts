import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemorySessionLog, type NewEvent } from '@hive-mind/session';

/** The built CLI entry (build first: npx tsc -b packages/cli). */
const cliBin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'packages/cli/bin/hive-mind.js');


/** Builds realistic coding-agent logs by hand (user turns, tool calls with results). */
export class LogBuilder {
  readonly log: MemorySessionLog;
  private n = 0;
  constructor(id = 'test') {
    this.log = new MemorySessionLog(id);
  }
  system(text: string): this {
    this.log.append({ type: 'system/message', surfaceOp: 'append', content: [{ type: 'text', text }] });
    return this;
  }
  user(text: string): this {
    this.log.append({ type: 'user/message', surfaceOp: 'append', content: [{ type: 'text', text }] });
    return this;
  }
  assistant(text: string): this {
    this.log.append({ type: 'assistant/message', surfaceOp: 'append', content: [{ type: 'text', text }] });
    return this;
  }
  /** One assistant message with a tool call, then its result. Returns the call id. */
  tool(name: string, input: unknown, result: string, isError = false, say?: string): string {
    const id = `call_${++this.n}`;
    const events: NewEvent[] = [
      {
        type: 'assistant/message',
        surfaceOp: 'append',
        content: [...(say ? [{ type: 'text' as const, text: say }] : []), { type: 'tool-call', id, name, input }],
      },
      { type: 'tool/result', surfaceOp: 'append', content: [{ type: 'tool-result', callId: id, content: [{ type: 'text', text: result }], isError }] },
    ];
    this.log.append(events);
    return id;
  }
}

/** Deterministic filler text of about `lines` lines. */
export function bigOutput(lines: number, tag = 'line'): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`${tag} ${i}: ${'abcdefghij '.repeat(6)}value=${(i * 7919) % 1000}`);
  return out.join('\n');
}

/** A multi-turn coding session: reads, edits, a failing then passing test run, corrections. */
export function codingSession(turns = 8): LogBuilder {
  const b = new LogBuilder();
  b.system('You are a coding agent.');
  b.user('Please port the tokenizer in src/lexer.py to Rust. Always keep the public API named `tokenize_source`.');
  for (let t = 0; t < turns; t++) {
    b.tool('Read', { file_path: `/repo/src/module_${t}.py` }, bigOutput(60, `src${t}`));
    b.tool('Edit', { file_path: `/repo/rust/src/module_${t}.rs`, old_string: 'a', new_string: 'b' }, 'The file has been updated.');
    if (t % 3 === 1) {
      b.tool('Bash', { command: 'cargo test' }, `running 12 tests\n${bigOutput(80, 'test')}\nerror[E0425]: cannot find value \`lexer_state\` in this scope\ntest result: FAILED. exit code 101`, true);
      b.tool('Edit', { file_path: `/repo/rust/src/lexer_${t}.rs`, old_string: 'x', new_string: 'y' }, 'ok');
      b.tool('Bash', { command: 'cargo test' }, 'running 12 tests\ntest result: ok. 12 passed');
    }
    b.assistant(`Module ${t} is ported. I decided to use a match on TokenKind instead of a lookup table. Next I will port module ${t + 1}.`);
    if (t === 3) b.user("No, don't use unwrap() in library code; return a Result<Token, LexError> instead.");
    if (t < turns - 1) b.user(`Good. Continue with module ${t + 1}.`);
  }
  b.user('Now wire `tokenize_source` into main.rs and run the benchmarks with LexerConfig::default().');
  b.tool('Read', { file_path: '/repo/rust/src/main.rs' }, 'fn main() {\n    let cfg = LexerConfig::default();\n}\n');
  b.assistant('I will call tokenize_source from main with LexerConfig::default() and lexer_state reset.');
  return b;
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Spawn the built CLI. */
export function runCli(args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; onSpawn?: (p: ReturnType<typeof spawn>) => void } = {}): Promise<Run> {
  return new Promise((res, rej) => {
    const p = spawn(process.execPath, [cliBin, ...args], { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('error', rej);
    p.on('close', (code, signal) => res({ code, signal, stdout, stderr }));
    opts.onSpawn?.(p);
  });
}

