import type { Command } from 'commander';
import { realpathSync } from 'node:fs';
import { HOST_IDS } from '@hive-mind/hooks/hosts';
import { CliError, printJson } from '../errors.js';

/** This node and the real path of this CLI's bin: what the installed launcher records (it finds the CLI at run time when they are gone). */
function selfCli(): { node: string; cli: string } | undefined {
  const script = process.argv[1];
  if (!script) return undefined;
  try {
    return { node: process.execPath, cli: realpathSync(script) };
  } catch {
    return undefined;
  }
}

async function installerFor(host: string) {
  const hooks = await import('@hive-mind/hooks');
  const inst = await hooks.loadInstaller(host);
  if (!inst) throw new CliError(`unknown host "${host}"; expected one of: ${hooks.installableHosts().join(', ')}`, 2);
  return { hooks, inst };
}

type Opts = { dryRun?: boolean; json?: boolean };

/** Register `install`, `uninstall`, `verify` (hook installers) on the program. `hive-mind hook` itself is handled before commander (bin.ts). */
export function register(program: Command): void {
  for (const action of ['install', 'uninstall'] as const) {
    program
      .command(`${action} <host>`)
      .description(`${action === 'install' ? 'install' : 'remove'} hive-mind's lifecycle hooks ${action === 'install' ? 'into' : 'from'} a host (${HOST_IDS.join(', ')}); keeps the host's other settings and hooks byte for byte`)
      .option('--dry-run', 'print the diff, change nothing')
      .option('--json', 'print the report as JSON')
      .action(async (host: string, opts: Opts) => {
        const { inst } = await installerFor(host);
        const report = await inst[action]({ dryRun: !!opts.dryRun, cli: selfCli() });
        if (opts.json) return printJson(report);
        const out: string[] = [`${host} config folder: ${report.configDir.why}`];
        for (const f of report.files) {
          out.push(`${f.changed ? (report.dryRun ? 'would change' : 'changed') : 'unchanged'}: ${f.path}${f.backup ? ` (backup: ${f.backup})` : ''}`);
          if (report.dryRun && f.diff) out.push(f.diff.trimEnd());
        }
        // a note that is a warning already says so
        for (const n of report.notes) out.push(/^warning: /.test(n) ? n : `note: ${n}`);
        process.stdout.write(out.join('\n') + '\n');
      });
  }
  program
    .command('verify <host>')
    .description(`run each installed hive-mind hook of a host (${HOST_IDS.join(', ')}) with a sample payload (in a throw-away memory) and report its output and time`)
    .option('--json', 'print the report as JSON')
    .action(async (host: string, opts: Opts) => {
      const { inst } = await installerFor(host);
      const report = await inst.verify({});
      if (opts.json) printJson(report);
      if (!report.installed) throw new CliError(`${host}: not installed${report.configDir ? ` in ${report.configDir.why}` : ''} (run hive-mind install ${host})`, 1);
      if (!opts.json) {
        if (report.configDir) process.stdout.write(`${host} config folder: ${report.configDir.why}\n`);
        if (report.plugin) process.stdout.write(`plugin ${report.plugin.id}${report.plugin.version ? ` ${report.plugin.version}` : ''} (${report.plugin.root})\n`);
        for (const h of report.hooks) {
          process.stdout.write(`${h.ok ? 'ok  ' : 'FAIL'} ${h.event.padEnd(18)} ${String(h.ms).padStart(5)} ms  exit ${h.exitCode}  ${h.stdout ? `stdout ${h.stdout.length} chars` : 'no output'}${h.error ? `  (${h.error})` : ''}\n`);
        }
        for (const n of report.notes ?? []) process.stdout.write(`note: ${n}\n`);
      }
      if (!report.ok) throw new CliError(`verify ${host}: some hooks failed`, 1);
    });
}
