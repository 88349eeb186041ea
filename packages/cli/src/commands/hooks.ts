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

type Opts = { dryRun?: boolean; json?: boolean; plugin?: boolean };

/** The lines `install`/`uninstall` print for the files a report changed (or would). */
function fileLines(report: { dryRun: boolean; files: Array<{ path: string; changed: boolean; backup?: string; diff: string }> }): string[] {
  const out: string[] = [];
  for (const f of report.files) {
    out.push(`${f.changed ? (report.dryRun ? 'would change' : 'changed') : 'unchanged'}: ${f.path}${f.backup ? ` (backup: ${f.backup})` : ''}`);
    if (report.dryRun && f.diff) out.push(f.diff.trimEnd());
  }
  return out;
}

/** Register `install`, `uninstall`, `verify` (hook installers) on the program. `hive-mind hook` itself is handled before commander (bin.ts). */
export function register(program: Command): void {
  for (const action of ['install', 'uninstall'] as const) {
    const command = program
      .command(`${action} <host>`)
      .description(`${action === 'install' ? 'install' : 'remove'} hive-mind's lifecycle hooks ${action === 'install' ? 'into' : 'from'} a host (${HOST_IDS.join(', ')}); keeps the host's other settings and hooks byte for byte`)
      .option('--dry-run', 'print the diff, change nothing')
      .option('--json', 'print the report as JSON');
    if (action === 'uninstall') command.option('--plugin', "also remove the hive-mind plugin (claude-code, codex) with its marketplace entry and cached copy, which the host's own plugin uninstall leaves");
    command.action(async (host: string, opts: Opts) => {
      const { inst } = await installerFor(host);
      if (opts.plugin && !inst.removePlugin) throw new CliError(`--plugin: ${host} has no hive-mind plugin (only claude-code and codex do)`, 2);
      const report = await inst[action]({ dryRun: !!opts.dryRun, cli: selfCli() });
      const plugin = opts.plugin ? inst.removePlugin!({ dryRun: !!opts.dryRun }) : undefined;
      if (opts.json) return printJson(plugin ? { ...report, plugin } : report);
      const out: string[] = [`${host} config folder: ${report.configDir.why}`, ...fileLines(report)];
      if (plugin) {
        out.push(...fileLines(plugin));
        for (const d of plugin.removed) out.push(`${plugin.dryRun ? 'would remove' : 'removed'}: ${d}`);
      }
      // a note that is a warning already says so; the plugin note is answered by --plugin
      for (const n of report.notes) if (!(plugin && /plugin \(hive-mind@hive-mind\) is still installed/.test(n))) out.push(/^warning: /.test(n) ? n : `note: ${n}`);
      if (plugin) out.push(plugin.files.some((f) => f.changed) || plugin.removed.length ? `note: the hive-mind plugin, its marketplace entry and cached copy ${plugin.dryRun ? 'would be' : 'are'} removed from ${host}; restart running sessions` : `note: no hive-mind plugin or marketplace entry was left in ${host}.`);
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
