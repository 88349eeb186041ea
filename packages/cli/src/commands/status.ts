import { userHome } from '@hive-mind/transcripts/host-dirs';
import type { Command } from 'commander';
import { HOST_IDS } from '@hive-mind/hooks/hosts';
import { printJson } from '../errors.js';
import { gatherStatus, type StatusReport } from './status-report.js';

/** The short usage `hive-mind` prints above its status when run without arguments. */
export const SHORT_USAGE = [
  'usage: hive-mind COMMAND [options]   (hive-mind --help lists every command, hive-mind COMMAND --help its options)',
  '  compact FILE --budget N        compact an agent session to a token budget (also: inspect FILE, sessions)',
  '  mind save|search|recall ...    the .mind memory store;  notes add|replace|remove|show ...  MEMORY.md / USER.md',
  `  install|verify|uninstall HOST  lifecycle hooks for ${HOST_IDS.join(', ')}`,
  '  mcp                            the MCP server;  status [--json]  this screen',
].join('\n');

const kb = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
const n = (x: number) => x.toLocaleString('en-US');

/** `path` with the user's home shown as `~`. */
function tilde(path: string, env: NodeJS.ProcessEnv): string {
  const home = userHome(env);
  return path === home || path.startsWith(home + '/') ? `~${path.slice(home.length)}` : path;
}

/** The report as one screen of text (plain, no colour), lines of at most about 120 characters except quoted paths and log lines. */
function renderStatus(r: StatusReport, env: NodeJS.ProcessEnv = process.env): string {
  const t = (p: string) => tilde(p, env);
  const out: string[] = [];
  out.push(`hive-mind ${r.version}  home ${t(r.home.path)} (${r.home.from === 'HIVE_MIND_HOME' ? 'from HIVE_MIND_HOME' : 'default; set HIVE_MIND_HOME to move it'})${r.home.exists ? '' : ', not created yet'}`);

  out.push('', 'hosts');
  for (const h of r.hosts) {
    const parts: string[] = [];
    for (const p of h.plugins) parts.push(`plugin ${p.id}${p.version ? ` ${p.version}` : ''} in ${t(p.root)}`);
    if (h.hooks.length) parts.push(`hooks (${h.hooks.length} events) in ${[...new Set(h.hooks.map((x) => t(x.file)))].join(', ')}`);
    const verdict = !h.via.length ? 'not installed' : h.problems.length ? 'BROKEN' : h.notes.length ? 'ok (through a fallback)' : 'ok';
    out.push(`  ${h.host.padEnd(12)} ${verdict}${parts.length ? `: ${parts.join('; ')}` : ''}`);
    for (const p of h.problems) out.push(`    problem: ${p}`);
    for (const p of h.notes) out.push(`    note: ${p}`);
  }
  if (r.hosts.some((h) => h.via.includes('hooks'))) out.push('  (hive-mind verify HOST runs each installed hook with a sample payload)');

  out.push('', 'minds');
  if (!r.minds.length) out.push('  none yet (the first hook run or `hive-mind mind save` creates personal.mind)');
  for (const m of r.minds) {
    const head = `  ${m.name.padEnd(28)} ${kb(m.bytes + m.walBytes).padStart(8)}`;
    if (m.error) out.push(`${head}  cannot open: ${m.error} (hive-mind mind doctor)`);
    else if (m.stats) {
      const imp = Object.entries(m.stats.byImportance)
        .filter(([, c]) => c > 0)
        .map(([k, c]) => `${n(c)} ${k}`)
        .join(', ');
      const extra = [m.stats.quarantined ? `${n(m.stats.quarantined)} quarantined` : '', m.stats.superseded ? `${n(m.stats.superseded)} superseded` : ''].filter(Boolean).join(', ');
      out.push(`${head}  ${n(m.stats.frames)} ${m.stats.frames === 1 ? 'frame' : 'frames'}, ${n(m.stats.live)} live${imp ? ` (${imp})` : ''}${extra ? `; ${extra}` : ''}${m.stats.newest ? `; newest ${m.stats.newest.slice(0, 10)}` : ''}`);
    }
    if (m.workspace) out.push(`  ${''.padEnd(28)} ${''.padStart(8)}  folder ${t(m.workspace)}${m.inView ? ' (in view here)' : ''}`);
  }
  // what a session started here recalls, and what the mind commands read by default
  out.push(`  in view here (${t(r.view.folder)}): ${r.view.minds.map((m) => `${m.mind === 'workspace' ? `workspace ${t(m.label.slice('workspace '.length))}` : m.label}${m.exists ? '' : ' (no file yet)'}`).join(', ')}; \`hive-mind mind search|list|show|recall\` read these, --personal or --workspace [ID|PATH] narrows`);

  out.push('', 'notes');
  if (!r.notes.length) out.push('  none yet (hive-mind notes add TEXT)');
  for (const x of r.notes) {
    const name = x.target.file === 'user' ? 'USER.md' : x.target.thread ? `MEMORY.md (thread ${x.target.thread})` : 'MEMORY.md';
    const pct = Math.round((100 * x.chars) / x.limit);
    out.push(`  ${name.padEnd(28)} ${n(x.chars)} / ${n(x.limit)} chars (${pct}%), ${x.entries} ${x.entries === 1 ? 'entry' : 'entries'}${x.overLimit ? '  OVER THE LIMIT' : pct >= 90 ? '  nearly full' : ''}`);
  }

  out.push('', 'settings');
  if (!r.settings.length) out.push('  none set: every HIVE_MIND_* setting has its default (README of the mind, "Settings")');
  for (const x of r.settings) out.push(`  ${x.name}=${JSON.stringify(x.value)}  ${x.problem ? `PROBLEM: ${x.problem}` : x.what}`);

  out.push('', `hook failures (${t(r.hookLog.path)})`);
  if (!r.hookLog.entries) out.push('  none logged');
  else {
    out.push(`  ${n(r.hookLog.entries)} in the log's last 256 KiB; the latest:`);
    for (const l of r.hookLog.latest) out.push(`  ${l}`);
  }

  out.push('', 'recent sessions (last compaction)');
  if (!r.sessions.length) out.push('  none found in the hosts\' session folders');
  for (const s of r.sessions) {
    const c = s.lastCompaction;
    const what = c
      ? `${c.at ? c.at.slice(0, 16).replace('T', ' ') : 'at an unknown time'} by ${c.by}${c.tokensBefore !== undefined ? (c.tokensAfter !== undefined ? `, ${n(c.tokensBefore)} -> ${n(c.tokensAfter)} tokens` : `, from ${n(c.tokensBefore)} tokens`) : ''} (${s.compactions.ours} by hive-mind, ${s.compactions.host} by the host)`
      : 'never compacted';
    out.push(`  ${s.host.padEnd(12)} ${s.id.slice(0, 36).padEnd(36)} ${s.modified.slice(0, 16).replace('T', ' ')}  ${what}${s.note ? `; ${s.note}` : ''}`);
  }
  return out.join('\n') + '\n';
}

/** Print the status screen (or the report as JSON). */
export async function printStatus(version: string, opts: { json?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<void> {
  const env = opts.env ?? process.env;
  const report = await gatherStatus(env, version);
  if (opts.json) printJson(report);
  else process.stdout.write(renderStatus(report, env));
}

/** Register `status` on the program. */
export function register(program: Command, version: string): void {
  program
    .command('status')
    .description('one screen: the home in use, each host\'s install (plugin or hooks) and whether its commands resolve, each mind\'s size and frames, notes usage, the latest hook failures, the last compaction of recent sessions')
    .option('--json', 'print the report as JSON')
    .action(async (opts: { json?: boolean }) => printStatus(version, opts));
}
