import type { Command } from 'commander';
import { spawn } from 'node:child_process';
import { CliError } from '../errors.js';
import { cliRetainDefault } from './compact.js';
import { HOST_TABLE } from '@hive-mind/transcripts';
import { planOutput, undoShell, writeCompaction } from './compact-output.js';
import { keepBackups } from './compact-backups.js';
import { sessionOfFile, sessionRefusal } from './compact-session.js';

function portArg(v: string): number {
  const n = Number(v);
  if (!/^\s*\d+\s*$/.test(v) || !Number.isSafeInteger(n) || n > 65535) throw new CliError(`--port must be an integer from 0 to 65535 (0 picks a free port), got ${JSON.stringify(v)}`, 2);
  return n;
}

/**
 * The command that opens `url` in the person's browser, or undefined when there is none to open
 * (no display on Linux, an SSH session without one): then the URL printed is the way in.
 */
function browserCommand(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): { cmd: string; args: string[] } | undefined {
  if (env.BROWSER?.trim()) return { cmd: env.BROWSER.trim(), args: [] };
  if (platform === 'darwin') return { cmd: 'open', args: [] };
  if (platform === 'win32') return { cmd: 'cmd', args: ['/c', 'start', '""'] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return { cmd: 'xdg-open', args: [] };
}

/**
 * `hive-mind ui [--port N] [--no-open]`: the local web app (packages/ui) on 127.0.0.1 only. It prints
 * the URL with this run's token (a request without it, or from another Host or Origin, is refused)
 * and opens the browser when there is one. Runs until SIGINT/SIGTERM.
 */
export function register(program: Command): void {
  program
    .command('ui')
    .description("open the local web app: browse, search and tend the mind and the notes (by default this folder's workspace mind and the personal mind, merged), preview the next session and compactions (127.0.0.1 only, per-run token)")
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', portArg, 0)
    .option('--no-open', 'print the URL without opening a browser')
    .action(async (o: { port: number; open: boolean }) => {
      const { startUiServer } = await import('@hive-mind/ui');
      let server: Awaited<ReturnType<typeof startUiServer>>;
      try {
        server = await startUiServer({
          port: o.port,
          // the page opens on what a session started here sees: this folder's workspace mind and the personal mind
          folder: process.cwd(),
          // the page compacts by `hive-mind compact`'s own code: output path, backup, the record
          // `compact --undo` reads, the retention rule, the check of a session a host is writing
          compaction: {
            retainDefault: (surfaceBudget) => cliRetainDefault(surfaceBudget, undefined),
            planOutput: (file, out) => planOutput(file, out, 'same'),
            session: (file, force) => {
              const s = sessionOfFile(file);
              if (!s) return undefined;
              const refusal = sessionRefusal(s, { force });
              return { host: s.host, id: s.id, resume: HOST_TABLE[s.host].resume(s).shell, ...(refusal ? { refusal } : {}) };
            },
            // the retention setting is read at each write (a bad value refuses it before anything is written)
            writeOutput: (plan, file, text, facts) => writeCompaction({ ...plan, explicit: plan.inPlace }, file, text, facts, plan.inPlace ? keepBackups(undefined) : 0),
            undoCommand: undoShell,
          },
        });
      } catch (err) {
        throw new CliError((err as Error).message, 1);
      }
      process.stdout.write(`hive-mind ui: ${server.url}\n`);
      process.stderr.write('hive-mind ui: listening on 127.0.0.1 only; the URL holds this run\'s token (keep it private). Ctrl+C stops it.\n');
      const browser = o.open ? browserCommand() : undefined;
      if (browser) {
        try {
          const child = spawn(browser.cmd, [...browser.args, server.url], { stdio: 'ignore', detached: true });
          child.on('error', () => process.stderr.write(`hive-mind ui: could not start ${browser.cmd}; open the URL above yourself\n`));
          child.unref();
        } catch {
          process.stderr.write(`hive-mind ui: could not start ${browser.cmd}; open the URL above yourself\n`);
        }
      }
      await new Promise<void>((done) => {
        const stop = () => void server.close().then(done, done);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
