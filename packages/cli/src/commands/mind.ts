import type { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  Mind,
  Notes,
  IMPORTANCES,
  SCOPES,
  SOURCES,
  personalMindPath,
  workspaceMindPath,
  decodeUtf8,
  RECALL_LIST_LIMIT,
  doctor,
  repairMind,
  replaySpool,
  pendingSpooled,
  spoolFrames,
  type SaveResult,
  formatEnvProblem,
  embeddingsConfigFromEnv,
  historyRetention,
  type Frame,
  type FrameInput,
  type Importance,
  type Scope,
  type FrameSource,
} from '@hive-mind/mind';
import { CliError, printJson } from '../errors.js';
import { registerImport } from './mind-import.js';

interface Common {
  mind?: string;
  workspace?: string;
  json?: boolean;
}

function mindPathOf(o: Common): string {
  if (o.mind) return resolve(o.mind);
  if (o.workspace) return workspaceMindPath(o.workspace);
  return personalMindPath();
}

function withMind<T>(o: Common, fn: (m: Mind) => T, readonly = false): T {
  const m = Mind.open(mindPathOf(o), readonly ? { readonly: true } : {});
  try {
    return fn(m);
  } finally {
    m.close();
  }
}

/** Like {@link withMind}, with the embeddings plug-in when the environment configures it (HIVE_MIND_EMBEDDINGS_URL...). */
async function withEmbeddingsMind<T>(o: Common, fn: (m: Mind) => Promise<T>): Promise<T> {
  const embeddings = embeddingsConfigFromEnv();
  const m = Mind.open(mindPathOf(o), embeddings ? { embeddings } : {});
  try {
    return await fn(m);
  } finally {
    m.close();
  }
}

function positiveInt(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isSafeInteger(n) || n < 0) throw new CliError(`${name} must be a non-negative integer, got ${JSON.stringify(v)}`, 2);
    return n;
  };
}

/** A count of at least 1 (`--limit 0` is refused rather than read as "no limit" or "1"). */
function countArg(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!/^\s*\d+\s*$/.test(v) || !Number.isSafeInteger(n) || n < 1) throw new CliError(`${name} must be a positive integer (at least 1), got ${JSON.stringify(v)}`, 2);
    return n;
  };
}

function frameId(v: string): number {
  const n = Number(String(v).replace(/^#/, ''));
  if (!Number.isSafeInteger(n) || n <= 0) throw new CliError(`frame id must be a positive integer up to ${Number.MAX_SAFE_INTEGER}, got ${JSON.stringify(v)}`, 2);
  return n;
}

function oneOf<T extends string>(name: string, values: readonly T[], v: string | undefined): T | undefined {
  if (v === undefined) return undefined;
  if (!values.includes(v as T)) throw new CliError(`${name} must be one of ${values.join(', ')}, got ${JSON.stringify(v)}`, 2);
  return v as T;
}

function line(f: Frame, extra = ''): string {
  const flags = [f.quarantined ? 'QUARANTINED' : '', f.supersededBy ? `superseded by #${f.supersededBy}` : ''].filter(Boolean).join(', ');
  const text = f.content.replace(/\s+/g, ' ');
  return `#${f.id} [${f.importance} ${f.kind} · ${f.source}${f.host ? ` · ${f.host}` : ''}${f.scope === 'team' ? ' · team' : ''} · ${f.createdAt.slice(0, 10)}]${extra}${flags ? ` (${flags})` : ''} ${text.length > 160 ? text.slice(0, 159) + '…' : text}`;
}

const fmtBytes = (n: number) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`);

/**
 * `hive-mind mind ...`: the .mind store from the command line. Every subcommand takes
 * `--mind PATH` (default `<HIVE_MIND_HOME or ~/.hive-mind>/personal.mind`) or `--workspace ID`,
 * and `--json`. Bad input exits 2, failed operations 1, with one line on stderr.
 */
export function register(program: Command): void {
  const mind = program
    .command('mind')
    .description('the .mind memory store: save, search, recall, list, show, forget, cleanup, stats, doctor, import')
    .option('--mind <path>', 'the .mind file (default: <HIVE_MIND_HOME or ~/.hive-mind>/personal.mind)')
    .option('--workspace <id>', 'use the workspace mind <home>/workspaces/<id>.mind');
  const common = (c: Command): Common => ({ ...mind.opts<Common>(), ...c.opts<Common>() });

  mind
    .command('save')
    .description('save a frame (TEXT, or - to read stdin); secrets are redacted, suspicious text is quarantined')
    .argument('<text>', 'the content, or - for stdin')
    .option('--importance <level>', `one of ${IMPORTANCES.join(', ')} (default normal; with --supersedes, the importance of the frame it replaces)`)
    .option('--kind <kind>', 'fact, decision, preference, instruction, error, ...', 'fact')
    .option('--scope <scope>', `one of ${SCOPES.join(', ')} (workspace needs --workspace ID or --mind PATH; thread needs --thread KEY; team goes to the team connection's mind and its outbox: \`hive-mind team\`)`, 'personal')
    .option('--thread <key>', 'thread key (conversation or task id) for --scope thread')
    .option('--source <source>', `one of ${SOURCES.join(', ')}`, 'user_stated')
    .option('--tags <list>', 'comma-separated tags')
    .option('--supersedes <id>', 'id of the frame this one replaces', frameId)
    .option('--expires <iso>', 'ISO 8601 expiry time')
    .option('--json', 'print the result as JSON')
    .action(async function (this: Command, text: string, o: { importance?: string; kind: string; scope: string; source: string; thread?: string; tags?: string; supersedes?: number; expires?: string }) {
      const c = common(this);
      const scope = oneOf<Scope>('--scope', SCOPES, o.scope)!;
      // no silent fallback to the personal mind: a workspace memory must name its workspace
      if (scope === 'workspace' && !c.workspace && !c.mind) throw new CliError('--scope workspace needs --workspace ID (or --mind PATH): the workspace is not guessed from the current directory', 2);
      if (scope === 'thread' && !o.thread?.trim()) throw new CliError('--scope thread needs --thread KEY (a non-empty thread key)', 2);
      if (o.thread !== undefined && scope !== 'thread') throw new CliError('--thread applies only to --scope thread', 2);
      if (scope === 'team' && c.mind) throw new CliError("--scope team saves into the team connection's mind (hive-mind team status names it): drop --mind", 2);
      let content = text;
      if (text === '-') {
        const d = decodeUtf8(readFileSync(0));
        content = d.text;
      }
      const input: FrameInput = {
        content,
        kind: o.kind,
        // unspecified: the library's default (normal, or what a superseded frame had)
        ...(o.importance !== undefined ? { importance: oneOf<Importance>('--importance', IMPORTANCES, o.importance)! } : {}),
        scope,
        ...(scope === 'workspace' && c.workspace ? { workspace: c.workspace } : {}),
        ...(scope === 'thread' ? { threadKey: o.thread!.trim() } : {}),
        source: oneOf<FrameSource>('--source', SOURCES, o.source)!,
        host: 'cli',
        ...(o.tags ? { tags: o.tags.split(',').map((s) => s.trim()).filter(Boolean) } : {}),
        ...(o.supersedes ? { supersedes: o.supersedes } : {}),
        ...(o.expires ? { expiresAt: o.expires } : {}),
      };
      let r: SaveResult;
      if (scope === 'team') {
        // local first: the team connection's mind and its outbox; `hive-mind team sync` sends it
        const { saveTeamFrame } = await import('@hive-mind/team');
        const t = saveTeamFrame(input, c.workspace);
        if (c.json) return printJson(t);
        const held = t.threats.length ? ` — QUARANTINED (${t.threats.join(', ')}): kept on this machine, never sent` : '';
        return void process.stdout.write(
          `${t.status} #${t.id} in team ${t.team}${t.frameUids.length ? `; ${t.frameUids.length} frame(s) queued for the server (hive-mind team sync)` : '; the team already has it'}${t.redactions.length ? ` — redacted: ${t.redactions.join(', ')}` : ''}${held}\n`,
        );
      }
      let vectorNote = '';
      try {
        r = await withEmbeddingsMind(c, async (m) => {
          const saved = m.save(input);
          // the plug-in computes the new frame's vector now; when the endpoint fails the frame is kept and embedded later
          if (m.embeddingsConfigured && saved.status !== 'quarantined') {
            const rep = await m.embedPending({ ids: saved.ids });
            if (rep.error) vectorNote = `vector not computed (${rep.error}); \`hive-mind mind embed\` or the next search computes it`;
          }
          return saved;
        });
      } catch (e) {
        // another writer held the store past the busy timeout: queue it rather than lose it
        if ((e as { code?: string }).code !== 'BUSY') throw e;
        const spool = spoolFrames(mindPathOf(c), [input]);
        if (c.json) return printJson({ status: 'spooled', spool });
        return void process.stdout.write(`the store stayed busy, so the memory was queued in ${spool}; it is written by the next write or \`hive-mind mind doctor\`\n`);
      }
      if (c.json) return printJson(r);
      const notes = [...r.notices, vectorNote, r.redactions.length ? `redacted: ${r.redactions.join(', ')}` : '', r.threats.length ? `QUARANTINED (${r.threats.join(', ')}): stored but never recalled automatically` : '']
        .filter(Boolean)
        .join('; ');
      process.stdout.write(`${r.status} #${r.id}${r.ids.length > 1 ? ` (${r.ids.length} parts)` : ''}${notes ? ` — ${notes}` : ''}\n`);
    });

  mind
    .command('search')
    .description('full-text search (BM25 blended with importance and recency)')
    .argument('<query>', 'words to search for')
    .option('--limit <n>', 'maximum results (1-1000)', countArg('--limit'), 10)
    .option('--include-temporary', 'include temporary frames (captured prompts)')
    .option('--include-quarantined', 'include quarantined frames')
    .option('--json', 'print {results: [...]}')
    .action(async function (this: Command, query: string, o: { limit: number; includeTemporary?: boolean; includeQuarantined?: boolean }) {
      const c = common(this);
      // checked like list and recall: a search that skips a damaged page would print rows as if the file were sound
      const { hits, ranking, notice } = await withEmbeddingsMind(c, (m) => (m.quickCheck(), m).searchHybrid(query, { limit: o.limit, includeTemporary: !!o.includeTemporary, includeQuarantined: !!o.includeQuarantined }));
      if (notice) process.stderr.write(`hive-mind: ${notice}\n`);
      if (c.json) return printJson({ results: hits, ranking, ...(notice ? { notice } : {}) });
      if (!hits.length) return void process.stdout.write('no results\n');
      process.stdout.write(hits.map((h) => line(h, ` score ${h.score.toFixed(3)}`)).join('\n') + '\n');
    });

  mind
    .command('embed')
    .description('compute the vectors of frames that have none (the embeddings plug-in: HIVE_MIND_EMBEDDINGS_URL, _MODEL, _API_KEY_ENV, _DIMENSIONS)')
    .option('--limit <n>', 'at most this many frames', positiveInt('--limit'))
    .option('--json', 'print {embedded, pending, error?}')
    .action(async function (this: Command, o: { limit?: number }) {
      const c = common(this);
      if (!embeddingsConfigFromEnv()) throw new CliError('no embeddings configured: set HIVE_MIND_EMBEDDINGS_URL (e.g. http://127.0.0.1:8080/v1) and HIVE_MIND_EMBEDDINGS_MODEL', 2);
      const rep = await withEmbeddingsMind(c, (m) => m.embedPending(o.limit !== undefined ? { limit: o.limit } : {}));
      if (c.json) printJson(rep);
      else process.stdout.write(`${rep.embedded} frames embedded, ${rep.pending} still without a vector${rep.error ? `; stopped: ${rep.error}` : ''}\n`);
      if (rep.error) process.exitCode = 1;
    });

  mind
    .command('recall')
    .description('the block injected into a new session, within a token budget')
    .option('--budget <tokens>', 'token budget', positiveInt('--budget'), 1500)
    .option('--query <text>', 'recall what matches this text first')
    .option('--json', 'print {text, tokens, frames, ...}')
    .action(async function (this: Command, o: { budget: number; query?: string }) {
      const c = common(this);
      // the CLI can afford the exact tokenizer (hooks use the estimate)
      const { TokenMeter } = await import('@hive-mind/compaction');
      const m = Mind.open(mindPathOf(c), { meter: new TokenMeter() });
      try {
        m.quickCheck(); // a recall that skips a damaged page would otherwise look like "nothing to recall"
        const r = m.recall({ budgetTokens: o.budget, ...(o.query ? { query: o.query } : {}) });
        if (c.json) return printJson(r);
        process.stdout.write(r.text ? `${r.text}\n` : '(nothing to recall)\n');
        process.stderr.write(`${r.tokens}/${o.budget} tokens, ${r.frames.length} frames${r.omitted - r.pastListLimit ? `, ${r.omitted - r.pastListLimit} did not fit` : ''}${r.pastListLimit ? `, ${r.pastListLimit} more past the ${RECALL_LIST_LIMIT} frames a recall list holds (mind search finds them)` : ''}${r.droppedByScan.length ? `, ${r.droppedByScan.length} dropped by the threat scan` : ''}\n`);
      } finally {
        m.close();
      }
    });

  mind
    .command('list')
    .description('frames of the standing memory, most recently updated first (--history: the turns of the history too)')
    .option('--limit <n>', 'maximum frames (at least 1)', countArg('--limit'), 50)
    .option('--kind <kind>', 'only this kind (prompt or reply: the turns of the history)')
    .option('--history', 'include the turns of the history (prompts and replies)')
    .option('--importance <level>', 'only this importance')
    .option('--quarantined', 'only quarantined frames')
    .option('--all', 'include superseded frames')
    .option('--json', 'print {frames: [...]}')
    .action(function (this: Command, o: { limit: number; kind?: string; importance?: string; quarantined?: boolean; all?: boolean; history?: boolean }) {
      const c = common(this);
      const imp = oneOf<Importance>('--importance', IMPORTANCES, o.importance);
      const frames = withMind(c, (m) =>
        (m.quickCheck(), m).list({ limit: o.limit, ...(o.kind ? { kind: o.kind } : {}), ...(imp ? { importance: imp } : {}), quarantinedOnly: !!o.quarantined, includeRetired: !!o.all, history: !!o.history }),
      );
      if (c.json) return printJson({ frames });
      process.stdout.write(frames.length ? frames.map((f) => line(f)).join('\n') + '\n' : 'no frames\n');
    });

  mind
    .command('show')
    .description('one frame with its provenance and history')
    .argument('<id>', 'frame id', frameId)
    .option('--json', 'print {frame, history}')
    .action(function (this: Command, id: number) {
      const c = common(this);
      const out = withMind(c, (m) => ({ frame: m.get(id), history: m.history(id) }));
      if (!out.frame) throw new CliError(`no frame #${id} in ${mindPathOf(c)}`, 1);
      if (c.json) return printJson(out);
      const f = out.frame;
      const rows = [
        `#${f.id} ${f.kind} (${f.importance}, ${f.scope})`,
        `  source     ${f.source}${f.host ? ` on ${f.host}` : ''}${f.sessionId ? `, session ${f.sessionId}` : ''}${f.turnId ? `, turn ${f.turnId}` : ''}`,
        `  created    ${f.createdAt}   updated ${f.updatedAt}${f.expiresAt ? `   expires ${f.expiresAt}` : ''}`,
        f.tags.length ? `  tags       ${f.tags.join(', ')}` : '',
        f.redactions.length ? `  redacted   ${f.redactions.join(', ')}` : '',
        f.quarantined ? `  QUARANTINED: ${f.threats.join(', ')}` : '',
        f.supersedes ? `  supersedes #${f.supersedes}` : '',
        f.supersededBy ? `  superseded by #${f.supersededBy}` : '',
        f.parts > 1 ? `  part       ${f.part + 1} of ${f.parts}${f.partOf ? ` (first part #${f.partOf})` : ''}` : '',
        '\u0000',
        f.content,
        ...(out.history.length ? ['\u0000', `history (${out.history.length} older version${out.history.length > 1 ? 's' : ''}):`, ...out.history.map((h) => `  #${h.id} ${h.createdAt.slice(0, 10)} ${h.content.replace(/\s+/g, ' ').slice(0, 160)}`)] : []),
      ]
        .filter((l) => l !== '')
        .map((l) => (l === '\u0000' ? '' : l));
      process.stdout.write(rows.join('\n') + '\n');
    });

  mind
    .command('forget')
    .description('delete a frame and its older versions')
    .argument('<id>', 'frame id', frameId)
    .option('--json', 'print {forgotten: boolean}')
    .action(function (this: Command, id: number) {
      const c = common(this);
      const { ok, team } = withMind(c, (m) => ({ team: m.get(id)?.scope === 'team', ok: m.forget(id) }));
      if (c.json) return printJson({ id, forgotten: ok, ...(team ? { team: true } : {}) });
      if (!ok) throw new CliError(`no frame #${id} in ${mindPathOf(c)}`, 1);
      // a team frame's forget is queued for the server (mind team-local.ts): every member drops it at its next sync
      process.stdout.write(`forgot #${id}${team ? '; the team forgets it too at the next `hive-mind team sync`' : ''}\n`);
    });

  mind
    .command('cleanup')
    .description('compact: expire temporary frames, delete old deprecated ones and the history turns past its retention (HIVE_MIND_HISTORY_DAYS, HIVE_MIND_HISTORY_MAX_TURNS), fold superseded chains, re-index; reconcile: indexes only')
    .option('--mode <mode>', 'compact or reconcile', 'compact')
    .option('--json', 'print the counts as JSON')
    .action(function (this: Command, o: { mode: string }) {
      const c = common(this);
      const mode = oneOf('--mode', ['compact', 'reconcile'] as const, o.mode)!;
      const r = withMind(c, (m) => m.cleanup({ mode, history: historyRetention(process.env) }));
      if (c.json) return printJson(r);
      process.stdout.write(
        `${r.mode}: ${r.expired} expired, ${r.deprecatedDeleted} deprecated deleted, ${r.historyDeleted} history turns past the retention deleted, ${r.folded} superseded versions folded, ${r.reindexed} re-indexed, ${r.orphansRemoved} orphan index rows removed (${r.durationMs} ms)\n`,
      );
    });

  mind
    .command('stats')
    .description('counts and sizes')
    .option('--json', 'print the stats as JSON')
    .action(function (this: Command) {
      const c = common(this);
      const s = withMind(c, (m) => m.stats());
      if (c.json) return printJson(s);
      const imp = Object.entries(s.byImportance).map(([k, v]) => `${v} ${k}`).join(', ');
      const kinds = Object.entries(s.byKind).slice(0, 8).map(([k, v]) => `${v} ${k}`).join(', ');
      process.stdout.write(
        [
          s.path,
          `  schema      v${s.schemaVersion}`,
          `  frames      ${s.frames} (${s.live} live; ${imp})`,
          `  kinds       ${kinds || '-'}`,
          `  quarantined ${s.quarantined}   superseded ${s.superseded}   history ${s.history}   indexed ${s.ftsRows}`,
          `  size        ${fmtBytes(s.fileBytes)} + WAL ${fmtBytes(s.walBytes)}`,
          `  span        ${s.oldest ?? '-'} .. ${s.newest ?? '-'}`,
        ].join('\n') + '\n',
      );
    });

  mind
    .command('doctor')
    .description('health: .mind and notes sizes against limits, integrity, locks, quarantined frames, recent hook errors')
    .option('--repair', 'recover what SQLite can read from a damaged .mind into a NEW file (the original is never modified)')
    .option('--out <path>', 'with --repair: where to write the recovered file')
    .option('--verbose', 'with --repair: print every problem SQLite reported (default: the count and the first 3)')
    .option('--json', 'print the report as JSON')
    .action(function (this: Command, o: { repair?: boolean; out?: string; verbose?: boolean }) {
      const c = common(this);
      const path = mindPathOf(c);
      if (o.repair) {
        const r = repairMind(path, o.out ? resolve(o.out) : undefined);
        if (c.json) return printJson(r);
        process.stdout.write(
          `recovered ${r.recovered} frame(s) from ${r.source} into ${r.dest} (${r.method}${r.fromIndex ? `, ${r.fromIndex} from the search index only` : ''}${r.unreadable ? `, ${r.unreadable} unreadable rows` : ''})\n` +
            (r.problems.length ? `${r.problems.length} problem(s) reported by SQLite${o.verbose || r.problems.length <= 3 ? '' : ', first 3 (all with --verbose or --json)'}:\n` : '') +
            (o.verbose ? r.problems : r.problems.slice(0, 3)).map((p) => `  ${p}\n`).join('') +
            `the original was not modified; check the new file with: hive-mind mind stats --mind ${r.dest}\n`,
        );
        if (r.recovered === 0) process.exitCode = 1;
        return;
      }
      // hook captures spooled while the store was busy are written now (the spool's other replayer is the next hook)
      let replayed = 0;
      if (existsSync(path) && pendingSpooled(path).files.length) {
        try {
          const w = Mind.open(path);
          try {
            replayed = replaySpool(path, (i) => w.saveMany(i)).replayed;
          } finally {
            w.close();
          }
        } catch {
          /* a damaged or busy file: the report below says so, the spool stays */
        }
      }
      const r = doctor({ mindPath: path, notes: new Notes() });
      if (c.json) {
        printJson(r);
      } else {
        const m = r.mind;
        const out: string[] = [];
        out.push(`mind   ${m.path}`);
        if (!m.exists) out.push('  not created yet');
        else {
          out.push(`  size        ${fmtBytes(m.bytes)} + WAL ${fmtBytes(m.walBytes)} of ${fmtBytes(m.sizeLimit)} (${Math.round(((m.bytes + m.walBytes) / m.sizeLimit) * 100)}%)`);
          if (m.error) out.push(`  ERROR       ${m.error}`);
          else out.push(`  schema v${m.schemaVersion}, ${m.frames} frames, integrity ${m.ok ? 'ok' : (m.integrity ?? []).slice(0, 3).join('; ')}`);
          out.push(`  quarantined ${m.quarantined.length}${m.quarantined.length ? ':' : ''}`);
          for (const q of m.quarantined.slice(0, 10)) out.push(`    #${q.id} ${q.createdAt.slice(0, 10)} ${q.threats.join(',')} ${JSON.stringify(q.preview)}`);
          if (replayed) out.push(`  replayed    ${replayed} hook capture(s) that waited in the pending spool`);
          if (m.spooled) out.push(`  spooled     ${m.spooled} hook capture(s) still waiting in ${m.path}.pending-*.jsonl (the store was busy or damaged)`);
          if (m.pendingNotes) out.push(`  pending notes ${m.pendingNotes} (facts that did not fit in MEMORY.md/USER.md; see: hive-mind mind list --kind pending-note)`);
        }
        out.push('notes');
        if (!r.notes.length) out.push('  none yet');
        for (const n of r.notes) {
          out.push(`  ${n.path}  ${n.chars}/${n.limit} chars (${Math.round((n.chars / n.limit) * 100)}%), ${n.entries} entries${n.overLimit ? '  OVER LIMIT' : ''}${n.lock ? `  locked by pid ${n.lock.pid}${n.lock.stale ? ' (stale)' : ''}` : ''}`);
          for (const f of n.flagged) out.push(`    entry [${f.index}] ${f.reason}: left out of what sessions are given (the file is unchanged; fix or remove the entry: hive-mind notes show)`);
        }
        out.push('locks');
        out.push(r.locks.length ? r.locks.map((l) => `  ${l.path} pid ${l.pid} since ${l.since}${l.stale ? ' (stale: will be broken by the next writer)' : ''}`).join('\n') : '  none held');
        out.push('settings');
        out.push(r.settings.length ? r.settings.map((p) => `  ${formatEnvProblem(p)}`).join('\n') : '  environment overrides ok');
        out.push(`hook log (${r.hookLog}): ${r.hookErrorCount ? `${r.hookErrorCount} failure(s) or notice(s), latest ${r.hookErrors.length}, newest last` : 'nothing logged'}`);
        if (r.hookErrors.length) out.push(r.hookErrors.map((e) => `  ${e}`).join('\n'));
        process.stdout.write(out.join('\n') + '\n');
      }
      if (r.mind.error || (r.mind.exists && !r.mind.ok)) process.exitCode = 1;
    });

  registerImport(mind, common);
}
