/**
 * `hive-mind mind import [PATH...] [--from HOST]`: harvest transcripts into frames.
 *
 * Inputs: files, directories (every `.jsonl`/`.json` below them) and glob patterns (tinyglobby),
 * or `--from claude-code|codex|pi|hermes`, which finds the host's own session folders under the
 * home directory (`--home DIR` for another one). One explicit file is read strictly (a bad line
 * is an error naming file and line, exit 2, unless `--lenient`); several inputs are read
 * leniently and a file that cannot be read is reported and skipped, the others imported.
 * Extraction: the offline rules (the default), or `--summarizer openai|anthropic|claude-code|codex` with the other
 * summarizer flags of `compact` (mind README "Harvest", LLM extraction), which falls back to the
 * offline rules, and says so on stderr, when the model cannot be used.
 */
import type { Command } from 'commander';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Mind, harvestTranscriptFile, personalMindPath, workspaceMindPath, type FrameInput, type HarvestCounts, type LlmHarvestOptions, type SaveResult } from '@hive-mind/mind';
import { hostDir, type HostDirHost } from '@hive-mind/transcripts/host-dirs';
import { hostRow, SESSION_HOSTS } from '@hive-mind/transcripts/hosts';
import { addSummarizerFlags, checkBaseUrl, checkHostFlags, int, summarizerName } from '../summarizer-flags.js';
import { CliError, printJson } from '../errors.js';
import { workspaceNamed } from './mind-view.js';

/** Frames per transaction of an import: short, so hooks writing the same mind get the lock in between. */
const IMPORT_BATCH = 50;
/** Attempts of one batch when another writer held the lock past the busy timeout (a batch is all or nothing, so a retry is safe). */
const IMPORT_BUSY_ATTEMPTS = 5;

function saveBatch(m: Mind, batch: FrameInput[]): SaveResult[] {
  for (let attempt = 1; ; attempt++) {
    try {
      return m.saveMany(batch);
    } catch (e) {
      if ((e as { code?: string }).code !== 'BUSY' || attempt >= IMPORT_BUSY_ATTEMPTS) throw e;
    }
  }
}

/** The folders under each host's own folder (transcripts' `hostDir`: its variable, else its default) that hold its session transcripts: the host table's `sessions.sub` and `sessions.archives`. */
export const HOST_SESSION_DIRS: Record<string, { host: HostDirHost; subs: string[] }> = Object.fromEntries(
  SESSION_HOSTS.map((host) => {
    const { sub, archives = [] } = hostRow(host)!.sessions!;
    return [host, { host, subs: [sub, ...archives] }];
  }),
);

interface ImportOptions {
  summarizer?: string;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  stream?: boolean;
  timeout?: string;
  deadline?: string;
  summarizerWindow?: string;
  lenient?: boolean;
  personal?: boolean;
  from?: string;
  home?: string;
  json?: boolean;
  mind?: string;
  workspace?: string | true;
}

/** One file's import report. */
interface FileReport {
  file: string;
  format: string;
  sessionId: string;
  events: number;
  harvested: HarvestCounts;
  frames: number;
  inserted: number;
  /** Said the same as a frame already in the mind before this import. */
  duplicate: number;
  /** Repeated within this import (the same text twice in the file or in an earlier file of the run). */
  repeated: number;
  /** Imported before (same host, session and turn). */
  idempotent: number;
  quarantined: number;
  redactions: number;
  /** The session's history turns (prompts and replies): how many, how many new, how many the mind held (the hooks saw them, or an earlier import). */
  turns: { total: number; inserted: number; known: number };
  mind: string;
  workspace?: string;
  cwd?: string;
  /** `offline` (the rules) or `llm`; with `--summarizer`, `offline` means the model could not be used (`fallback` says why). */
  extractor: 'offline' | 'llm';
  fallback?: string;
}

/**
 * The transcript files named by the inputs, sorted, each once, and the folders below them that could
 * not be listed (`unreadable`, reported as skipped like an unreadable file: the glob walk itself
 * skips them silently). Throws a CliError (exit 2) for an input that names nothing.
 */
async function expandInputs(inputs: string[], o: ImportOptions): Promise<{ files: string[]; explicit: boolean; unreadable: Array<{ file: string; error: string }> }> {
  const files = new Set<string>();
  const unreadable: Array<{ file: string; error: string }> = [];
  let explicit = inputs.length === 1 && !o.from;
  const isTranscript = (p: string) => /\.jsonl?$/i.test(p);
  const { globSync } = await import('tinyglobby');
  // tinyglobby's walk (fdir) drops a folder it cannot list without a word: its fs adapter records it
  const readdir = ((path: string, opts: unknown) => {
    try {
      return readdirSync(path, opts as { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      unreadable.push({ file: resolve(String(path)), error: `folder not read: ${code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (err as Error).message.split('\n')[0]}` });
      throw err;
    }
  }) as unknown as typeof readdirSync;
  const walk = (dir: string) => {
    for (const f of globSync(['**/*.jsonl', '**/*.json'], { cwd: dir, absolute: true, dot: false, followSymbolicLinks: false, fs: { readdirSync: readdir } })) files.add(f);
  };
  for (const input of inputs) {
    const p = resolve(input);
    if (existsSync(p)) {
      if (statSync(p).isDirectory()) {
        explicit = false;
        walk(p);
      } else files.add(p);
      continue;
    }
    if (/[*?[\]{}]/.test(input)) {
      explicit = false;
      const hits = globSync([input], { absolute: true, dot: false, fs: { readdirSync: readdir } }).filter(isTranscript);
      if (!hits.length) throw new CliError(`${input}: the pattern matches no .jsonl or .json file`, 2);
      for (const h of hits) files.add(h);
      continue;
    }
    throw new CliError(`${input}: no such file or directory`, 2);
  }
  if (o.from) {
    const spec = HOST_SESSION_DIRS[o.from];
    if (!spec) throw new CliError(`--from must be one of ${Object.keys(HOST_SESSION_DIRS).join(', ')}, got ${JSON.stringify(o.from)}`, 2);
    // --home: that home's default folders; else the host's variable when set
    const dir = hostDir(spec.host, o.home ? { HOME: resolve(o.home) } : process.env).dir;
    const dirs = spec.subs.map((d) => join(dir, d));
    const found = dirs.filter((d) => existsSync(d));
    if (!found.length) throw new CliError(`--from ${o.from}: no session folder found (looked in ${dirs.join(', ')})`, 2);
    for (const d of found) walk(d);
  }
  return { files: [...files].sort(), explicit, unreadable };
}

/** Register `mind import` on the `mind` command. `common` merges the parent's `--mind/--workspace/--json`. */
export function registerImport(mind: Command, common: (c: Command) => { mind?: string; workspace?: string | true; json?: boolean }): void {
  addSummarizerFlags(
    mind
    .command('import')
    .description('import past sessions (Claude Code, Codex, pi, Hermes, OpenAI, Anthropic): their turns into the history, and what lasts in them as frames (standing instructions and preferences, decisions, what the agent established, environment facts, fixes, files touched)')
    .argument('[paths...]', 'transcript files, directories or glob patterns')
    .option('--from <host>', `find the host's own session folders: ${Object.keys(HOST_SESSION_DIRS).join(', ')}`)
    .option('--home <dir>', 'home directory to look in with --from (default: yours)')
    .option('--lenient', 'skip bad lines (counted) instead of failing (always on for several files)')
    .option('--personal', 'import into the personal memory even when the transcript records a working directory (--workspace [ID|PATH]: into that workspace mind)'),
    { summarizer: "extract the facts with extractive (the offline rules) | openai | anthropic | claude-code | codex (the host's own CLI with your login); a model that fails falls back to the offline rules and says so", use: 'extraction', parts: 'sessions' },
  )
    .option('--json', 'print the import report as JSON')
    .action(async function (this: Command, paths: string[], opts: ImportOptions) {
      const o = { ...opts, ...common(this) };
      const llm = llmSettings(o);
      if (o.personal && (o.workspace || o.mind)) throw new CliError('--personal cannot be combined with --workspace or --mind', 2);
      if (!paths.length && !o.from) throw new CliError('give transcript files, directories or patterns, or --from claude-code|codex|pi|hermes', 2);
      const { files, explicit, unreadable } = await expandInputs(paths, o);
      if (!files.length) throw new CliError(`no transcript files found${unreadable.length ? ` (not read: ${unreadable.map((u) => `${u.file}: ${u.error}`).join('; ')})` : ''}`, 2);
      const { SingleBar, Presets } = (await import('cli-progress')).default;
      const bar = new SingleBar({ stream: process.stderr, format: '{phase} [{bar}] {percentage}% {value}/{total}', hideCursor: true, clearOnComplete: false }, Presets.shades_classic);
      const reports: FileReport[] = [];
      const skipped: Array<{ file: string; error: string }> = [...unreadable];
      const firstIdOf = new Map<string, number>(); // mind path -> first id of this run
      let barStarted = false;
      try {
        for (let i = 0; i < files.length; i++) {
          const file = files[i]!;
          const phase = files.length > 1 ? `${i + 1}/${files.length} reading` : 'reading';
          let h;
          try {
            h = await harvestTranscriptFile(file, {
              ...(o.lenient || !explicit ? { lenient: true } : {}),
              ...(llm ? { llm } : {}),
              onProgress: (bytes, total) => {
                if (!barStarted) {
                  bar.start(total, 0, { phase });
                  barStarted = true;
                } else bar.setTotal(total);
                bar.update(bytes, { phase });
              },
            });
          } catch (err) {
            const e = err as { name?: string; message?: string; code?: string };
            const msg = String(e?.message ?? err);
            if (explicit) {
              if (barStarted) bar.stop();
              if (e?.name === 'TranscriptError') throw new CliError(msg, 2);
              throw err;
            }
            skipped.push({ file, error: msg.split('\n')[0]! });
            continue;
          }
          // Where the frames go: --mind PATH / --workspace [ID|PATH] / --personal when given; else the
          // workspace mind of the session's own directory (as the session-start hooks of that
          // project recall it); else the personal mind.
          const named = o.workspace !== undefined ? await workspaceNamed(o.workspace, process.cwd(), process.env) : undefined;
          let target = o.mind ? resolve(o.mind) : named ? named.path : personalMindPath();
          let workspaceId = named?.workspace;
          if (!o.mind && o.workspace === undefined && !o.personal && h.cwd) {
            const { workspaceOf } = await import('@hive-mind/hooks');
            workspaceId = workspaceOf(h.cwd) ?? h.cwd;
            target = workspaceMindPath(workspaceId);
          }
          const inWorkspace = (f: FrameInput): FrameInput => (workspaceId ? { ...f, workspace: workspaceId, scope: 'workspace' as const } : f);
          const frames = h.frames.map(inWorkspace);
          const turns = h.turns.map(inWorkspace);
          const turnCounts = { total: turns.length, inserted: 0, known: 0 };
          // secrets are redacted by the harvest, before extraction (the save finds none left)
          const counts = { inserted: 0, duplicate: 0, repeated: 0, idempotent: 0, quarantined: 0, redactions: h.redactions };
          const m = Mind.open(target);
          try {
            if (!firstIdOf.has(target)) firstIdOf.set(target, ((m.database.prepare('SELECT max(id) AS n FROM frames').get() as { n: number | null }).n ?? 0) + 1);
            const firstOfRun = firstIdOf.get(target)!;
            if (!barStarted) {
              bar.start(frames.length || 1, 0, { phase: 'saving' });
              barStarted = true;
            }
            bar.setTotal(turns.length + frames.length || 1);
            bar.update(0, { phase: files.length > 1 ? `${i + 1}/${files.length} saving` : 'saving' });
            // the history first: a turn the hooks kept live is the same turn (history.ts), not a new one
            for (let j = 0; j < turns.length; j += IMPORT_BATCH) {
              for (const r of saveBatch(m, turns.slice(j, j + IMPORT_BATCH))) {
                if (r.status === 'idempotent') turnCounts.known++;
                else turnCounts.inserted++;
              }
              bar.update(Math.min(turns.length, j + IMPORT_BATCH));
            }
            for (let j = 0; j < frames.length; j += IMPORT_BATCH) {
              for (const r of saveBatch(m, frames.slice(j, j + IMPORT_BATCH))) {
                if (r.status === 'duplicate' && r.id >= firstOfRun) counts.repeated++;
                else counts[r.status]++;
                counts.redactions += r.redactions.length;
              }
              bar.update(turns.length + Math.min(frames.length, j + IMPORT_BATCH));
            }
          } finally {
            m.close();
          }
          if (h.fallback) process.stderr.write(`hive-mind: ${file}: the ${llm!.summarizer} extraction failed (${h.fallback}); the offline rules' facts were imported\n`);
          reports.push({
            file,
            format: h.format,
            sessionId: h.sessionId,
            events: h.events,
            harvested: h.counts,
            frames: frames.length,
            ...counts,
            turns: turnCounts,
            mind: target,
            ...(workspaceId ? { workspace: workspaceId } : {}),
            ...(h.cwd ? { cwd: h.cwd } : {}),
            extractor: h.extractor,
            ...(h.fallback ? { fallback: h.fallback } : {}),
          });
        }
      } finally {
        if (barStarted) bar.stop();
      }
      if (o.json) {
        if (explicit && reports.length === 1) return printJson(reports[0]);
        const total = { files: reports.length, skipped: skipped.length, frames: 0, inserted: 0, duplicate: 0, repeated: 0, idempotent: 0, quarantined: 0, redactions: 0, turns: { total: 0, inserted: 0, known: 0 } };
        for (const r of reports) {
          for (const k of ['frames', 'inserted', 'duplicate', 'repeated', 'idempotent', 'quarantined', 'redactions'] as const) total[k] += r[k];
          for (const k of ['total', 'inserted', 'known'] as const) total.turns[k] += r.turns[k];
        }
        return printJson({ files: reports, skipped, total });
      }
      for (const r of reports) process.stdout.write(describe(r) + '\n');
      for (const s of skipped) process.stdout.write(`skipped ${s.file}: ${s.error}\n`);
      if (reports.length > 1) {
        const n = (k: 'inserted' | 'idempotent') => reports.reduce((a, r) => a + r[k], 0);
        const turnsNew = reports.reduce((a, r) => a + r.turns.inserted, 0);
        process.stdout.write(`${reports.length} files imported (${skipped.length} skipped): ${turnsNew} new turns of history, ${n('inserted')} new frames, ${n('idempotent')} already imported before\n`);
      }
      if (skipped.length) process.exitCode = 1;
    });
}

/** The LLM extraction settings of `--summarizer openai|anthropic|claude-code|codex` (the flags of `compact`), or undefined for the offline rules. Throws a CliError (exit 2) for a bad flag. */
function llmSettings(o: ImportOptions): LlmHarvestOptions | undefined {
  const name = summarizerName(o.summarizer);
  if (name === 'extractive') return undefined;
  checkBaseUrl(o.baseUrl);
  checkHostFlags(name, o);
  const window = int(o.summarizerWindow, '--summarizer-window');
  return {
    summarizer: name,
    ...(o.model ? { model: o.model } : {}),
    ...(o.baseUrl ? { baseURL: o.baseUrl } : {}),
    ...(o.apiKeyEnv ? { apiKeyEnv: o.apiKeyEnv } : {}),
    ...(o.stream ? { stream: true } : {}),
    requestTimeoutMs: int(o.timeout ?? '120', '--timeout', 'seconds')! * 1000,
    deadlineMs: int(o.deadline ?? '300', '--deadline', 'seconds')! * 1000,
    ...(window !== undefined ? { window } : {}),
  };
}

/** One line per file, saying plainly what was new and what the mind already knew. */
function describe(r: FileReport): string {
  const hc = r.harvested;
  const what = `${r.frames} facts harvested (${hc.instruction} instructions, ${hc.preference} preferences, ${hc.decision} decisions, ${hc.fact} facts, ${hc.environment} environment facts, ${hc.fix} fixes, ${hc.file} file lists)`;
  const known: string[] = [];
  if (r.idempotent) known.push(`${r.idempotent} imported before`);
  if (r.duplicate) known.push(`${r.duplicate} already known to the mind`);
  if (r.repeated) known.push(`${r.repeated} repeated within this import`);
  if (r.quarantined) known.push(`${r.quarantined} quarantined`);
  if (r.redactions) known.push(`${r.redactions} secrets redacted`);
  const fresh = r.inserted === 0 && r.idempotent > 0 ? 'nothing new: this session was imported before' : `${r.inserted} new`;
  const by = r.extractor === 'llm' ? ' by the model' : '';
  const t = r.turns;
  const history = `${t.total} turns of history (${t.inserted} new${t.known ? `, ${t.known} already kept` : ''})`;
  return `${r.file} (${r.format}, ${r.events} events): ${history}; ${what}${by}; ${fresh}${known.length ? `, ${known.join(', ')}` : ''} -> ${r.mind}`;
}
