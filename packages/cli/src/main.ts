import { Command } from 'commander';
import { createRequire } from 'node:module';
import { HOST_IDS } from '@hive-mind/hooks/hosts';
import { runProgram } from './errors.js';
import { register as registerInspect } from './commands/inspect.js';
import { register as registerCompact } from './commands/compact.js';
import { register as registerSessions } from './commands/sessions.js';
import { register as registerMind } from './commands/mind.js';
import { register as registerNotes } from './commands/notes.js';
import { register as registerHooks } from './commands/hooks.js';
import { register as registerMcp } from './commands/mcp.js';
import { register as registerStatus, printStatus, SHORT_USAGE } from './commands/status.js';
import { register as registerUi } from './commands/ui.js';
import { register as registerTeam } from './commands/team.js';

const pkg = createRequire(import.meta.url)('../package.json') as { version: string };

/** Build the `hive-mind` command tree (every subcommand registers itself). */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name('hive-mind')
    .description('Compaction of agent sessions, a lasting memory, hooks and an MCP server for LLM agents.')
    .version(pkg.version, '-V, --version')
    .option('--debug', 'print stack traces on errors')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerInspect(program);
  registerSessions(program);
  registerCompact(program);
  registerMind(program);
  registerNotes(program);
  registerHooks(program);
  registerMcp(program);
  registerStatus(program, pkg.version);
  registerUi(program);
  registerTeam(program);
  // `hook` is routed by bin.ts before this program is built (a lean path with no CLI
  // framework); it is declared here for --help and for callers of buildProgram().
  program
    .command('hook')
    .argument('<host>', HOST_IDS.join(' | '))
    .argument('<event>', "the host's own event name, e.g. SessionStart, Stop")
    .description("run a lifecycle hook as a host does (payload JSON on stdin); always exits 0")
    .action(async (host: string, event: string) => {
      const { runHookEntry } = await import('./hook-entry.js');
      await runHookEntry([host, event]);
    });
  return program;
}

/**
 * Run the CLI with `argv` (without `node` and the script). Errors print one line on
 * stderr (with the stack only under `--debug`) and set `process.exitCode`.
 */
export async function main(argv: string[]): Promise<void> {
  if (argv.length === 0) {
    // no command: a short usage, then what is installed and how it is doing
    process.stdout.write(`${SHORT_USAGE}\n\n`);
    await printStatus(pkg.version);
    return;
  }
  const program = buildProgram();
  await runProgram(program, argv);
}
