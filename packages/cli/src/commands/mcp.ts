import { Command } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError, runProgram } from '../errors.js';
import { DEFAULT_MAX_RESULT_CHARS, serveStdioUntilClosed } from '../mcp-stdio.js';

function intOption(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new CliError(`${name} must be an integer from ${min} to ${max}, got "${value}"`, 2);
    }
    return n;
  };
}

/**
 * The project folder `--workspace` names: a folder path, or the id `hive-mind status` lists for a
 * workspace mind (`<home>/workspaces/<id>.mind`), read as the folder its frames record.
 * @throws CliError (exit 2) for a value that is neither.
 */
async function workspaceDir(value: string): Promise<string> {
  const dir = resolve(value);
  if (existsSync(dir)) return dir;
  const stem = value.trim().replace(/\.mind$/, '');
  if (!/[\\/]/.test(stem)) {
    // only on this path is the mind's SQLite binding loaded before the server starts
    const { Mind, workspaceMindPath } = await import('@hive-mind/mind');
    const path = workspaceMindPath(stem);
    if (existsSync(path)) {
      const m = Mind.open(path, { readonly: true });
      try {
        const row = m.database.prepare("SELECT workspace FROM frames WHERE workspace <> '' ORDER BY id DESC LIMIT 1").get() as { workspace: string } | undefined;
        if (row) return row.workspace;
      } finally {
        m.close();
      }
      throw new CliError(`--workspace ${value}: ${path} records no folder; start the server in the project folder or give its path`, 2);
    }
  }
  throw new CliError(`--workspace ${value}: no such folder (${dir}) and no workspace mind of that id; give a project folder or an id from \`hive-mind status\``, 2);
}

/**
 * `hive-mind mcp`: the MCP server over stdio (default) or streamable HTTP on 127.0.0.1.
 * The server package is imported only when the command runs, so other commands never pay for it.
 */
export function register(program: Command): void {
  program
    .command('mcp')
    .description('Run the MCP server (memory and compaction tools) over stdio, or over streamable HTTP on 127.0.0.1 with --http PORT.')
    .option('--http <port>', 'serve streamable HTTP on http://127.0.0.1:PORT/mcp instead of stdio (0 picks a free port)', intOption('--http', 0, 65535))
    .option('--mind <path>', 'the .mind file to use (default: <HIVE_MIND_HOME or ~/.hive-mind>/personal.mind)')
    .option('--workspace <dir|id>', "the project whose workspace mind (<home>/workspaces/<id>.mind) the tools use beside the personal one: its folder, or the id `hive-mind status` lists (default: the client's first root, else the working directory)")
    .option('--no-workspace', 'use the personal mind only')
    .option('--allow-origin <origin>', 'with --http: also accept browser requests from this exact origin (scheme://host:port; repeatable); the server\'s own origin is always allowed', (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option('--max-result-chars <n>', 'upper bound of one tool result in characters', intOption('--max-result-chars', 2000, 1_000_000), DEFAULT_MAX_RESULT_CHARS)
    .addHelpText(
      'after',
      '\nstdout carries only the MCP protocol; diagnostics go to stderr.\nAdd to Claude Code: claude mcp add hive-mind -- hive-mind mcp\nWith --http every request needs the bearer token stored in <home>/mcp-http.token; the server prints ready configs for Claude Code, Codex and Cursor on start.',
    )
    .action(async (opts: { http?: number; mind?: string; workspace?: string | boolean; maxResultChars: number; allowOrigin: string[] }) => {
      const base = {
        ...(opts.mind ? { mindPath: resolve(opts.mind) } : {}),
        ...(opts.workspace === false ? { workspace: false as const } : typeof opts.workspace === 'string' ? { workspace: await workspaceDir(opts.workspace) } : {}),
        limits: { maxResultChars: opts.maxResultChars },
      };
      if (opts.http === undefined) return serveStdioUntilClosed(base);
      const mcp = await import('@hive-mind/mcp');
      let running: Awaited<ReturnType<typeof mcp.serveHttp>>;
      try {
        running = await mcp.serveHttp({ ...base, port: opts.http, allowedOrigins: opts.allowOrigin });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE') throw new CliError(`port ${opts.http} on 127.0.0.1 is already in use`, 1);
        if (err instanceof RangeError) throw new CliError(err.message, 2);
        throw err;
      }
      process.stderr.write(
        `hive-mind mcp: listening on ${running.url}\n` +
          `hive-mind mcp: every request needs "Authorization: Bearer <token>"; the token is stored in ${running.tokenPath} (mode 0600, kept across restarts; delete it for a new one). Client configurations:\n` +
          mcp.clientConfigSnippets(running.url, running.token, running.tokenPath!) +
          '\n',
      );
      await new Promise<void>((done) => {
        const stop = () => {
          running.close().then(done, done);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}

/**
 * Lean process entry for `hive-mind mcp ...` (called by bin.ts): a program holding only this
 * command, so the server does not import every other command's packages before answering
 * `tools/list` (hosts spawn it on every session start). Errors are reported as main.ts does:
 * one line `hive-mind: <message>` on stderr, exit code 2 for usage errors.
 */
export async function runMcpEntry(argv: string[]): Promise<void> {
  const program = new Command();
  program.name('hive-mind').option('--debug', 'print stack traces on errors').exitOverride();
  register(program);
  await runProgram(program, argv);
}
