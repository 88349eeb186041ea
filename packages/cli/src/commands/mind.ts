import type { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  Mind,
  Notes,
  IMPORTANCES,
  SCOPES,
  SOURCES,
  decodeUtf8,
  RECALL_LIST_LIMIT,
  doctor,
  repairMind,
  repairLocks,
  UNREADABLE_LOCK_STALE_MS,
  type LockState,
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
  type RecallResult,
  mergeRanked,
  mergeRecent,
  ftsQuery,
  type SearchHit,
} from '@hive-mind/mind';
import { CliError, printJson } from '../errors.js';
import { registerImport } from './mind-import.js';
import { describeView, existing, frameRef, mindView, refOf, type FrameRef, type MindView, type ViewMind, type ViewOptions } from './mind-view.js';

interface Common extends ViewOptions {
  json?: boolean;
}

/** The options of the `mind` command merged with a subcommand's (the subcommand's win). */
type CommonOf = (c: Command) => Common;

function withMind<T>(path: string, fn: (m: Mind) => T, readonly = false): T {
  const m = Mind.open(path, readonly ? { readonly: true } : {});
  try {
    return fn(m);
  } finally {
    m.close();
  }
}

/** Like {@link withMind}, with the embeddings plug-in when the environment configures it (HIVE_MIND_EMBEDDINGS_URL...). */
async function withEmbeddingsMind<T>(path: string, fn: (m: Mind) => Promise<T>): Promise<T> {
  const embeddings = embeddingsConfigFromEnv();
  const m = Mind.open(path, embeddings ? { embeddings } : {});
  try {
    return await fn(m);
  } finally {
    m.close();
  }
}

/**
 * The one mind a maintenance command (embed, cleanup, doctor) works on: the one the options name,
 * else the personal mind (as before the minds in view). @throws CliError (exit 2) when two are named.
 */
function oneMind(view: MindView, what: string): ViewMind {
  if (view.default) return view.minds.find((m) => m.key === 'personal')!;
  if (view.minds.length > 1) throw new CliError(`${what} works on one mind at a time: give --workspace or --personal, not both`, 2);
  return view.minds[0]!;
}

/**
 * The mind of a frame reference in `view`: the one it names (`workspace:12`); else, of the minds in
 * view whose file exists, the one holding the id. @throws CliError: exit 1 when no mind in view holds
 * it, exit 2 when several do (the message gives both references) or the named mind is not in view.
 */
function mindOfRef(view: MindView, ref: FrameRef): ViewMind {
  if (ref.mind) {
    const m = view.minds.find((v) => v.key === ref.mind);
    if (!m) throw new CliError(`${ref.mind}:${ref.id} names the ${ref.mind} mind, which is not in view (${describeView(view)})`, 2);
    return m;
  }
  if (view.minds.length === 1) return view.minds[0]!;
  const holding = existing(view).filter((v) => withMind(v.path, (m) => m.get(ref.id) !== undefined, true));
  if (holding.length === 1) return holding[0]!;
  if (!holding.length) throw new CliError(`no frame #${ref.id} in ${describeView(view)}`, 1);
  throw new CliError(`#${ref.id} is a frame of more than one mind in view (${holding.map((v) => v.label).join(', ')}): say which, as ${holding.map((v) => `${v.key}:${ref.id}`).join(' or ')}`, 2);
}

/** The minds in view as JSON output names them. */
const viewJson = (view: MindView) => view.minds.map((m) => ({ mind: m.key, label: m.label, path: m.path, exists: existsSync(m.path), ...(m.workspace ? { workspace: m.workspace } : {}) }));

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

function oneOf<T extends string>(name: string, values: readonly T[], v: string | undefined): T | undefined {
  if (v === undefined) return undefined;
  if (!values.includes(v as T)) throw new CliError(`${name} must be one of ${values.join(', ')}, got ${JSON.stringify(v)}`, 2);
  return v as T;
}

/** One frame on one line; `ref` is how it is named (`#12`, or `workspace:12` when several minds are in view). */
function line(f: Frame, extra = '', ref = `#${f.id}`): string {
  const flags = [f.quarantined ? 'QUARANTINED' : '', f.supersededBy ? `superseded by #${f.supersededBy}` : ''].filter(Boolean).join(', ');
  const text = f.content.replace(/\s+/g, ' ');
  return `${ref} [${f.importance} ${f.kind} · ${f.source}${f.host ? ` · ${f.host}` : ''}${f.scope === 'team' ? ' · team' : ''} · ${f.createdAt.slice(0, 10)}]${extra}${flags ? ` (${flags})` : ''} ${text.length > 160 ? text.slice(0, 159) + '…' : text}`;
}

const fmtBytes = (n: number) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`);

/** A notes lock as doctor prints it: who holds it (or why the file says nothing), since when, stale or not. */
function lockLine(l: LockState): string {
  const age = `${Math.round(l.ageMs / 1000)} s`;
  const who = l.unreadable
    ? `${l.unreadable === 'empty' ? 'empty lock file' : `unreadable lock file (${l.unreadable})`} (no holder recorded), ${age} old`
    : `held by pid ${l.pid}${l.host ? ` on ${l.host}` : ''} since ${l.since ?? '?'} (${age})`;
  return `${who}${l.stale ? ': stale (mind doctor --repair removes it; the next write breaks it)' : l.unreadable ? `: counts as stale after ${UNREADABLE_LOCK_STALE_MS / 1000} s` : ''}`;
}

/**
 * `hive-mind mind ...`: the .mind store from the command line. The read commands (search, list,
 * show, recall, stats) see by default what a session started in the current folder sees: that
 * folder's workspace mind and the personal mind, merged (mind-view.ts); `--workspace [ID|PATH]`,
 * `--personal` (both together: both) and `--mind PATH` narrow it. Writes go to the personal mind
 * unless told (`--workspace`, `--mind`), a frame reference (`workspace:12`) to the mind it names.
 * `--json` everywhere. Bad input exits 2, failed operations 1, with one line on stderr.
 */
export function register(program: Command): void {
  const mind = program
    .command('mind')
    .description(
      "the .mind memory store: save, search, recall, list, show, forget, cleanup, stats, doctor, import. The read commands see what a session in this folder sees: this folder's workspace mind and the personal mind, merged (a frame of either named workspace:ID or personal:ID; \`hive-mind status\` names the two files); writes go to the personal mind unless told",
    )
    .option('--mind <path>', 'only this .mind file')
    .option('--workspace [id|path]', "only the workspace mind of this folder (bare), of the folder PATH (its git root, as the hooks compute it), or of the id `hive-mind status` lists (<home>/workspaces/<id>.mind); put it after the subcommand when bare")
    .option('--personal', 'only the personal mind (<HIVE_MIND_HOME or ~/.hive-mind>/personal.mind); with --workspace, both');
  const common = (c: Command): Common => ({ ...mind.opts<Common>(), ...c.opts<Common>() });

  registerSaveCommand(mind, common);
  registerSearchCommand(mind, common);
  registerEmbedCommand(mind, common);
  registerRecallCommand(mind, common);
  registerListCommand(mind, common);
  registerShowCommand(mind, common);
  registerForgetCommand(mind, common);
  registerCleanupCommand(mind, common);
  registerStatsCommand(mind, common);
  registerDoctorCommand(mind, common);

  registerImport(mind, common);
}

/** `hive-mind mind save`. */
function registerSaveCommand(mind: Command, common: CommonOf): void {
  mind
    .command('save')
    .description('save a frame (TEXT, or - to read stdin) in the personal mind, or the mind --workspace, --mind or --supersedes names; secrets are redacted, suspicious text is quarantined')
    .argument('<text>', 'the content, or - for stdin')
    .option('--importance <level>', `one of ${IMPORTANCES.join(', ')} (default normal; with --supersedes, the importance of the frame it replaces)`)
    .option('--kind <kind>', 'fact, decision, preference, instruction, error, ...', 'fact')
    .option('--scope <scope>', `one of ${SCOPES.join(', ')} (default: workspace in a workspace mind, else personal; workspace needs --workspace [ID|PATH] or --mind PATH; thread needs --thread KEY; team goes to the team connection's mind and its outbox: \`hive-mind team\`)`)
    .option('--thread <key>', 'thread key (conversation or task id) for --scope thread')
    .option('--source <source>', `one of ${SOURCES.join(', ')}`, 'user_stated')
    .option('--tags <list>', 'comma-separated tags')
    .option('--supersedes <id>', 'the frame this one replaces: ID, or workspace:ID / personal:ID as merged listings print it; the new frame goes to that frame\'s mind', frameRef)
    .option('--expires <iso>', 'ISO 8601 expiry time')
    .option('--json', 'print the result as JSON')
    .action(async function (this: Command, text: string, o: { importance?: string; kind: string; scope?: string; source: string; thread?: string; tags?: string; supersedes?: FrameRef; expires?: string }) {
      const c = common(this);
      const view = await mindView(c);
      let target: ViewMind;
      if (o.supersedes && (view.default || o.supersedes.mind)) target = mindOfRef(view, o.supersedes); // where the frame it replaces lives
      else if (view.default) target = view.minds.find((m) => m.key === 'personal')!;
      else if (view.minds.length > 1) throw new CliError('a save goes to one mind: give --workspace or --personal, not both', 2);
      else target = view.minds[0]!;
      const scope = oneOf<Scope>('--scope', SCOPES, o.scope) ?? (target.key === 'workspace' ? 'workspace' : 'personal');
      // no silent fallback to the personal mind, and no guess either: a workspace memory must name its workspace
      if (scope === 'workspace' && target.key === 'personal')
        throw new CliError(`--scope workspace needs --workspace (this folder's workspace, ${view.minds.find((m) => m.key === 'workspace')?.workspace ?? view.folder}), --workspace ID|PATH or --mind PATH: a save goes to the personal mind unless told`, 2);
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
        ...(scope === 'workspace' && target.workspace ? { workspace: target.workspace } : {}),
        ...(scope === 'thread' ? { threadKey: o.thread!.trim() } : {}),
        source: oneOf<FrameSource>('--source', SOURCES, o.source)!,
        host: 'cli',
        ...(o.tags ? { tags: o.tags.split(',').map((s) => s.trim()).filter(Boolean) } : {}),
        ...(o.supersedes ? { supersedes: o.supersedes.id } : {}),
        ...(o.expires ? { expiresAt: o.expires } : {}),
      };
      let r: SaveResult;
      if (scope === 'team') {
        // local first: the team connection's mind and its outbox; `hive-mind team sync` sends it
        const { saveTeamFrame } = await import('@hive-mind/team');
        const t = saveTeamFrame(input, c.workspace !== undefined ? view.minds.find((m) => m.key === 'workspace')?.workspace : undefined);
        if (c.json) return printJson(t);
        const held = t.threats.length ? ` — QUARANTINED (${t.threats.join(', ')}): kept on this machine, never sent` : '';
        return void process.stdout.write(
          `${t.status} #${t.id} in team ${t.team}${t.frameUids.length ? `; ${t.frameUids.length} frame(s) queued for the server (hive-mind team sync)` : '; the team already has it'}${t.redactions.length ? ` — redacted: ${t.redactions.join(', ')}` : ''}${held}\n`,
        );
      }
      let vectorNote = '';
      try {
        r = await withEmbeddingsMind(target.path, async (m) => {
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
        const spool = spoolFrames(target.path, [input]);
        if (c.json) return printJson({ status: 'spooled', spool });
        return void process.stdout.write(`the store stayed busy, so the memory was queued in ${spool}; it is written by the next write or \`hive-mind mind doctor\`\n`);
      }
      if (c.json) return printJson({ ...r, mind: target.key });
      const notes = [...r.notices, vectorNote, r.redactions.length ? `redacted: ${r.redactions.join(', ')}` : '', r.threats.length ? `QUARANTINED (${r.threats.join(', ')}): stored but never recalled automatically` : '']
        .filter(Boolean)
        .join('; ');
      process.stdout.write(`${r.status} ${refOf(target, r.id, view.default && target.key === 'workspace')}${r.ids.length > 1 ? ` (${r.ids.length} parts)` : ''}${notes ? ` — ${notes}` : ''}\n`);
    });
}
/** `hive-mind mind search`. */
function registerSearchCommand(mind: Command, common: CommonOf): void {
  mind
    .command('search')
    .description("full-text search (BM25 blended with importance and recency) of the minds in view (default: this folder's workspace mind and the personal mind, one ranking)")
    .argument('<query>', 'words to search for')
    .option('--limit <n>', 'maximum results (1-1000)', countArg('--limit'), 10)
    .option('--include-temporary', 'include temporary frames (captured prompts)')
    .option('--include-quarantined', 'include quarantined frames')
    .option('--json', 'print {results: [...], minds: [...]}; each result names its mind')
    .action(async function (this: Command, query: string, o: { limit: number; includeTemporary?: boolean; includeQuarantined?: boolean }) {
      const c = common(this);
      ftsQuery(query); // a query with no word is bad input whether or not a mind exists yet (exit 2)
      const view = await mindView(c);
      const minds = existing(view);
      const lists: Array<{ mind: ViewMind['key']; hits: SearchHit[] }> = [];
      const notices = new Set<string>();
      let ranking = 'bm25';
      for (const v of minds) {
        // checked like list and recall: a search that skips a damaged page would print rows as if the file were sound
        const r = await withEmbeddingsMind(v.path, (m) => (m.quickCheck(), m).searchHybrid(query, { limit: o.limit, includeTemporary: !!o.includeTemporary, includeQuarantined: !!o.includeQuarantined }));
        lists.push({ mind: v.key, hits: r.hits });
        if (r.ranking !== 'bm25') ranking = r.ranking;
        if (r.notice) notices.add(r.notice);
      }
      const hits = mergeRanked(lists, o.limit);
      const notice = [...notices].join('; ');
      if (notice) process.stderr.write(`hive-mind: ${notice}\n`);
      if (c.json) return printJson({ results: hits, ranking, minds: viewJson(view), ...(notice ? { notice } : {}) });
      if (!hits.length) return void process.stdout.write(`no results\n`), void process.stderr.write(`searched: ${describeView(view)}\n`);
      const of = new Map(minds.map((v) => [v.key, v]));
      process.stdout.write(hits.map((h) => line(h, ` score ${h.score.toFixed(3)}`, refOf(of.get(h.mind)!, h.id, minds.length > 1))).join('\n') + '\n');
    });
}
/** `hive-mind mind embed`. */
function registerEmbedCommand(mind: Command, common: CommonOf): void {
  mind
    .command('embed')
    .description('compute the vectors of frames that have none (the embeddings plug-in: HIVE_MIND_EMBEDDINGS_URL, _MODEL, _API_KEY_ENV, _DIMENSIONS); the personal mind unless --workspace or --mind')
    .option('--limit <n>', 'at most this many frames', positiveInt('--limit'))
    .option('--json', 'print {embedded, pending, error?}')
    .action(async function (this: Command, o: { limit?: number }) {
      const c = common(this);
      if (!embeddingsConfigFromEnv()) throw new CliError('no embeddings configured: set HIVE_MIND_EMBEDDINGS_URL (e.g. http://127.0.0.1:8080/v1) and HIVE_MIND_EMBEDDINGS_MODEL', 2);
      const target = oneMind(await mindView(c), 'embed');
      const rep = await withEmbeddingsMind(target.path, (m) => m.embedPending(o.limit !== undefined ? { limit: o.limit } : {}));
      if (c.json) printJson(rep);
      else process.stdout.write(`${rep.embedded} frames embedded, ${rep.pending} still without a vector${rep.error ? `; stopped: ${rep.error}` : ''}\n`);
      if (rep.error) process.exitCode = 1;
    });
}
/** `hive-mind mind recall`. */
function registerRecallCommand(mind: Command, common: CommonOf): void {
  mind
    .command('recall')
    .description("the memory a new session in this folder is given (the SessionStart hook's recall of the minds in view, workspace first, without the notes), within a token budget")
    .option('--budget <tokens>', 'token budget', positiveInt('--budget'), 1500)
    .option('--query <text>', 'recall what matches this text first')
    .option('--json', 'print {text, tokens, frames, ...}; each frame names its mind')
    .action(async function (this: Command, o: { budget: number; query?: string }) {
      const c = common(this);
      const view = await mindView(c);
      // the CLI can afford the exact tokenizer (hooks use the estimate)
      const [{ TokenMeter }, { recallBlocks }] = await Promise.all([import('@hive-mind/compaction'), import('@hive-mind/hooks')]);
      const meter = new TokenMeter();
      const keyOf = (v: ViewMind): 'workspace' | 'personal' => (v.key === 'workspace' ? 'workspace' : 'personal');
      const last = new Map<string, RecallResult>();
      // the hooks' own merge of the minds (near-duplicates across them given once, one budget)
      const r = recallBlocks(
        view.minds.map((v) => ({ key: keyOf(v), label: v.label, path: v.path })),
        o.budget,
        { workspace: [], personal: [] },
        (m, budgetTokens, exclude, src) => {
          m.quickCheck(); // a recall that skips a damaged page would otherwise look like "nothing to recall"
          const opts = { budgetTokens, header: false, exclude, mindName: src.key };
          let res: RecallResult;
          try {
            res = m.recall({ ...opts, ...(o.query ? { query: o.query } : {}) });
          } catch (e) {
            // as at session start: a query with no searchable word gets the default recall
            if (!o.query || (e as { code?: string }).code !== 'EMPTY_QUERY') throw e;
            res = m.recall(opts);
          }
          last.set(src.key, res);
          return res;
        },
        (path) => Mind.open(path, { meter }),
        { saySkipped: false },
      );
      // a mind that cannot be read is an error here, as for every other command (the hook goes on without it)
      const bad = r.skipped[0];
      if (bad) throw new CliError(bad.message.split('\n')[0]!, ['EMPTY_QUERY', 'INVALID', 'TOO_LARGE', 'NOT_FOUND'].includes(bad.code) ? 2 : 1);
      const frames: Array<Frame & { mind: string }> = [];
      for (const [key, id] of r.ids) {
        const f = last.get(key)?.frames.find((x) => x.id === id);
        if (f) frames.push({ ...f, mind: key === 'personal' && view.minds.length === 1 && view.minds[0]!.key === 'file' ? 'file' : key });
      }
      const sum = (k: 'omitted' | 'pastListLimit') => [...last.values()].reduce((n, x) => n + x[k], 0);
      const omitted = sum('omitted');
      const pastListLimit = sum('pastListLimit');
      const droppedByScan = [...last.values()].flatMap((x) => x.droppedByScan);
      const text = r.text;
      const tokens = r.tokens;
      if (c.json) return printJson({ text, tokens, budgetTokens: o.budget, frames, omitted, pastListLimit, droppedByScan, minds: viewJson(view) });
      process.stdout.write(text ? `${text}\n` : '(nothing to recall)\n');
      process.stderr.write(
        `${tokens}/${o.budget} tokens, ${frames.length} frames${omitted - pastListLimit ? `, ${omitted - pastListLimit} did not fit` : ''}${pastListLimit ? `, ${pastListLimit} more past the ${RECALL_LIST_LIMIT} frames a recall list holds (mind search finds them)` : ''}${droppedByScan.length ? `, ${droppedByScan.length} dropped by the threat scan` : ''}; from ${describeView(view)}\n`,
      );
    });
}
/** `hive-mind mind list`. */
function registerListCommand(mind: Command, common: CommonOf): void {
  mind
    .command('list')
    .description("frames of the minds in view (default: this folder's workspace mind and the personal mind), most recently updated first (--history: the turns of the history too)")
    .option('--limit <n>', 'maximum frames (at least 1)', countArg('--limit'), 50)
    .option('--kind <kind>', 'only this kind (prompt or reply: the turns of the history)')
    .option('--history', 'include the turns of the history (prompts and replies)')
    .option('--importance <level>', 'only this importance')
    .option('--quarantined', 'only quarantined frames')
    .option('--all', 'include superseded frames')
    .option('--json', 'print {frames: [...], minds: [...]}; each frame names its mind')
    .action(async function (this: Command, o: { limit: number; kind?: string; importance?: string; quarantined?: boolean; all?: boolean; history?: boolean }) {
      const c = common(this);
      const imp = oneOf<Importance>('--importance', IMPORTANCES, o.importance);
      const view = await mindView(c);
      const minds = existing(view);
      const lists = minds.map((v) => ({
        mind: v.key,
        frames: withMind(v.path, (m) => (m.quickCheck(), m).list({ limit: o.limit, ...(o.kind ? { kind: o.kind } : {}), ...(imp ? { importance: imp } : {}), quarantinedOnly: !!o.quarantined, includeRetired: !!o.all, history: !!o.history }), true),
      }));
      const frames = mergeRecent(lists, o.limit);
      if (c.json) return printJson({ frames, minds: viewJson(view) });
      if (!frames.length) return void process.stdout.write('no frames\n'), void process.stderr.write(`listed: ${describeView(view)}\n`);
      const of = new Map(minds.map((v) => [v.key, v]));
      process.stdout.write(frames.map((f) => line(f, '', refOf(of.get(f.mind)!, f.id, minds.length > 1))).join('\n') + '\n');
    });
}
/** `hive-mind mind show`. */
function registerShowCommand(mind: Command, common: CommonOf): void {
  mind
    .command('show')
    .description('one frame with its provenance and history: ID, or workspace:ID / personal:ID as merged listings print it (a bare ID held by both minds in view is refused, naming both)')
    .argument('<id>', 'frame id', frameRef)
    .option('--json', 'print {frame, history, mind}')
    .action(async function (this: Command, ref: FrameRef) {
      const c = common(this);
      const view = await mindView(c);
      const v = mindOfRef(view, ref);
      const id = ref.id;
      const out = existsSync(v.path) ? withMind(v.path, (m) => ({ frame: m.get(id), history: m.history(id) }), true) : { frame: undefined, history: [] };
      if (!out.frame) throw new CliError(`no frame #${id} in ${v.path}`, 1);
      if (c.json) return printJson({ ...out, mind: v.key });
      const f = out.frame;
      const rows = [
        `${refOf(v, f.id, existing(view).length > 1)} ${f.kind} (${f.importance}, ${f.scope})`,
        `  mind       ${v.label} (${v.path})`,
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
}
/** `hive-mind mind forget`. */
function registerForgetCommand(mind: Command, common: CommonOf): void {
  mind
    .command('forget')
    .description('delete a frame and its older versions: ID, or workspace:ID / personal:ID (a bare ID is forgotten only where exactly one mind in view holds it)')
    .argument('<id>', 'frame id', frameRef)
    .option('--json', 'print {id, mind, forgotten}')
    .action(async function (this: Command, ref: FrameRef) {
      const c = common(this);
      const view = await mindView(c);
      const v = mindOfRef(view, ref);
      const id = ref.id;
      const { ok, team } = existsSync(v.path) ? withMind(v.path, (m) => ({ team: m.get(id)?.scope === 'team', ok: m.forget(id) })) : { ok: false, team: false };
      if (c.json) return printJson({ id, mind: v.key, forgotten: ok, ...(team ? { team: true } : {}) });
      if (!ok) throw new CliError(`no frame #${id} in ${v.path}`, 1);
      // a team frame's forget is queued for the server (mind team-local.ts): every member drops it at its next sync
      process.stdout.write(`forgot ${refOf(v, id, existing(view).length > 1)}${team ? '; the team forgets it too at the next `hive-mind team sync`' : ''}\n`);
    });
}
/** `hive-mind mind cleanup`. */
function registerCleanupCommand(mind: Command, common: CommonOf): void {
  mind
    .command('cleanup')
    .description('compact: expire temporary frames, delete old deprecated ones and the history turns past its retention (HIVE_MIND_HISTORY_DAYS, HIVE_MIND_HISTORY_MAX_TURNS), fold superseded chains, re-index; reconcile: indexes only; the personal mind unless --workspace or --mind')
    .option('--mode <mode>', 'compact or reconcile', 'compact')
    .option('--json', 'print the counts as JSON')
    .action(async function (this: Command, o: { mode: string }) {
      const c = common(this);
      const mode = oneOf('--mode', ['compact', 'reconcile'] as const, o.mode)!;
      const target = oneMind(await mindView(c), 'cleanup');
      const r = withMind(target.path, (m) => m.cleanup({ mode, history: historyRetention(process.env) }));
      if (c.json) return printJson(r);
      process.stdout.write(
        `${r.mode}: ${r.expired} expired, ${r.deprecatedDeleted} deprecated deleted, ${r.historyDeleted} history turns past the retention deleted, ${r.folded} superseded versions folded, ${r.reindexed} re-indexed, ${r.orphansRemoved} orphan index rows removed (${r.durationMs} ms)\n`,
      );
    });
}
/** `hive-mind mind stats`. */
function registerStatsCommand(mind: Command, common: CommonOf): void {
  mind
    .command('stats')
    .description("counts and sizes of each mind in view (default: this folder's workspace mind and the personal mind)")
    .option('--json', 'print the stats as JSON: one mind\'s object with --mind, --personal or --workspace, else {minds: [...]}')
    .action(async function (this: Command) {
      const c = common(this);
      const view = await mindView(c);
      // a mind named by an option is opened (and created) as before; the default view reads only what exists
      const minds = view.default ? existing(view) : view.minds;
      const all = minds.map((v) => ({ v, s: withMind(v.path, (m) => m.stats()) }));
      if (c.json) return printJson(view.default ? { minds: all.map(({ v, s }) => ({ mind: v.key, label: v.label, ...s })) } : all.length === 1 ? all[0]!.s : { minds: all.map(({ v, s }) => ({ mind: v.key, label: v.label, ...s })) });
      if (!all.length) return void process.stdout.write(`no mind yet: ${describeView(view)}\n`);
      const blocks = all.map(({ v, s }) => {
        const imp = Object.entries(s.byImportance).map(([k, n]) => `${n} ${k}`).join(', ');
        const kinds = Object.entries(s.byKind).slice(0, 8).map(([k, n]) => `${n} ${k}`).join(', ');
        return [
          all.length > 1 || view.default ? `${v.label}: ${s.path}` : s.path,
          `  schema      v${s.schemaVersion}`,
          `  frames      ${s.frames} (${s.live} live; ${imp})`,
          `  kinds       ${kinds || '-'}`,
          `  quarantined ${s.quarantined}   superseded ${s.superseded}   history ${s.history}   indexed ${s.ftsRows}`,
          `  size        ${fmtBytes(s.fileBytes)} + WAL ${fmtBytes(s.walBytes)}`,
          `  span        ${s.oldest ?? '-'} .. ${s.newest ?? '-'}`,
        ].join('\n');
      });
      process.stdout.write(blocks.join('\n\n') + '\n');
    });
}
/** `hive-mind mind doctor`. */
function registerDoctorCommand(mind: Command, common: CommonOf): void {
  mind
    .command('doctor')
    .description('health: .mind and notes sizes against limits, integrity, locks, quarantined frames, recent hook errors; the personal mind unless --workspace or --mind')
    .option('--repair', 'recover what SQLite can read from a damaged .mind into a NEW file (the original is never modified)')
    .option('--out <path>', 'with --repair: where to write the recovered file')
    .option('--verbose', 'with --repair: print every problem SQLite reported (default: the count and the first 3)')
    .option('--json', 'print the report as JSON')
    .action(async function (this: Command, o: { repair?: boolean; out?: string; verbose?: boolean }) {
      const c = common(this);
      const path = oneMind(await mindView(c), 'doctor').path;
      if (o.repair) {
        // stale notes locks first (a write that died or met a full disk): they block every notes write
        const locks = repairLocks(new Notes());
        const lockLines = locks.removed.map((l) => `removed the stale lock ${l.path} (${lockLine(l)})\n`).join('');
        if (!existsSync(path)) {
          if (c.json) return printJson({ locks, mind: null });
          return void process.stdout.write(`${lockLines}no .mind file to repair at ${path}\n`);
        }
        const r = repairMind(path, o.out ? resolve(o.out) : undefined);
        if (c.json) return printJson({ ...r, locks });
        process.stdout.write(
          lockLines +
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
        if (!m.exists) out.push(`  not created yet${m.spooled ? `; ${m.spooled} hook capture(s) wait in the pending spool, in ${m.spooledIn.join(', ')}, for its first write` : ''}`);
        else {
          out.push(`  size        ${fmtBytes(m.bytes)} + WAL ${fmtBytes(m.walBytes)} of ${fmtBytes(m.sizeLimit)} (${Math.round(((m.bytes + m.walBytes) / m.sizeLimit) * 100)}%)`);
          if (m.error) out.push(`  ERROR       ${m.error}`);
          else out.push(`  schema v${m.schemaVersion}, ${m.frames} frames, integrity ${m.ok ? 'ok' : (m.integrity ?? []).slice(0, 3).join('; ')}`);
          out.push(`  quarantined ${m.quarantined.length}${m.quarantined.length ? ':' : ''}`);
          for (const q of m.quarantined.slice(0, 10)) out.push(`    #${q.id} ${q.createdAt.slice(0, 10)} ${q.threats.join(',')} ${JSON.stringify(q.preview)}`);
          if (replayed) out.push(`  replayed    ${replayed} hook capture(s) that waited in the pending spool`);
          if (m.spooled) out.push(`  spooled     ${m.spooled} hook capture(s) still waiting in the pending spool, in ${m.spooledIn.join(', ')} (the store was busy, damaged or its disk full)`);
          if (m.pendingNotes) out.push(`  pending notes ${m.pendingNotes} (facts that did not fit in MEMORY.md/USER.md; see: hive-mind mind list --kind pending-note)`);
        }
        out.push('notes');
        if (!r.notes.length) out.push('  none yet');
        for (const n of r.notes) {
          out.push(`  ${n.path}  ${n.chars}/${n.limit} chars (${Math.round((n.chars / n.limit) * 100)}%), ${n.entries} entries${n.overLimit ? '  OVER LIMIT' : ''}${n.lock ? `  locked${n.lock.stale ? ' (stale)' : ''}` : ''}`);
          for (const f of n.flagged) out.push(`    entry [${f.index}] ${f.reason}: left out of what sessions are given (the file is unchanged; fix or remove the entry: hive-mind notes show)`);
        }
        out.push('locks');
        out.push(r.locks.length ? r.locks.map((l) => `  ${l.path} ${lockLine(l)}`).join('\n') : '  none held');
        out.push('settings');
        out.push(r.settings.length ? r.settings.map((p) => `  ${formatEnvProblem(p)}`).join('\n') : '  environment overrides ok');
        out.push(`hook log (${r.hookLog}): ${r.hookErrorCount ? `${r.hookErrorCount} failure(s) or notice(s), latest ${r.hookErrors.length}, newest last` : 'nothing logged'}`);
        if (r.hookErrors.length) out.push(r.hookErrors.map((e) => `  ${e}`).join('\n'));
        process.stdout.write(out.join('\n') + '\n');
      }
      if (r.mind.error || (r.mind.exists && !r.mind.ok)) process.exitCode = 1;
    });
}
