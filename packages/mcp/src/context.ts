import { existsSync } from 'node:fs';
import type { EmbeddingsConfig, Mind, Notes } from '@hive-mind/mind';
import { envNumber, SettingError } from '@hive-mind/mind/settings';
import { resolveLimits, type Limits } from './limits.js';

/** Options of the hive-mind MCP server. */
export interface ServerOptions {
  /**
   * The `.mind` file the tools read and write. Default: the personal mind,
   * `<HIVE_MIND_HOME or ~/.hive-mind>/personal.mind` (created on first use).
   */
  mindPath?: string;
  /**
   * The project whose workspace mind (`<home>/workspaces/<id>.mind`, the one the hooks recall
   * from) the tools use beside the personal mind. A directory: its git root is the workspace, as
   * for the hooks. Default: the client's first `file://` root (MCP roots), else the server's
   * working directory unless that is the home directory or `/`. `false`: personal mind only.
   */
  workspace?: string | false;
  /** Environment used to find the home directory (`HIVE_MIND_HOME`). Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Size bounds of results (characters). See {@link Limits}. */
  limits?: Partial<Limits>;
  /** SQLite busy timeout in milliseconds when another process holds the write lock. Default: the mind's own default. */
  busyTimeoutMs?: number;
  /**
   * MCP has no notion of an agent turn; `memory_notes` calls from one client session that follow
   * each other within this many milliseconds count as one turn for the failure cap (unless the
   * client passes `turnId`). Default 30000, or env `HIVE_MIND_MCP_TURN_GAP_MS`.
   */
  notesTurnGapMs?: number;
  /** Options passed to the curated notes (limits, auto-consolidation); home and mind path come from this server. */
  notes?: { memoryCharLimit?: number; userCharLimit?: number; autoConsolidate?: boolean; failureCap?: number };
  /** Where diagnostics go. Default: one line on stderr (stdout carries the protocol in stdio mode). */
  log?: (line: string) => void;
}

/**
 * What every MCP session of one server process shares: the options and the lazily
 * opened mind. Heavy modules (the mind's SQLite binding, compaction, transcripts,
 * the tokenizer) are imported on first use, so `initialize` and `tools/list` answer
 * without loading them.
 */
export class ServerContext {
  readonly env: NodeJS.ProcessEnv;
  readonly limits: Limits;
  readonly log: (line: string) => void;
  private readonly explicitPath: string | undefined;
  /** The SQLite busy timeout of every mind this server opens, ms (undefined: the mind's default). */
  readonly busyTimeoutMs: number | undefined;
  private readonly minds = new Map<string, Promise<Mind>>();
  private readonly openedMinds = new Set<Mind>();
  private resolvedPath: string | undefined;
  /** The `workspace` option as given. */
  readonly workspaceOption: string | false | undefined;
  private closed = false;
  private notesInstance: Notes | undefined;
  readonly notesTurnGapMs: number;
  private readonly notesOpts: ServerOptions['notes'];
  private embeddingsRead: { cfg?: EmbeddingsConfig; problem?: string } | undefined;
  /** Set when the embeddings endpoint last failed: searches use BM25 alone until `until` (epoch ms); see embeddings.ts. */
  embeddingsDown: { until: number; at: number; why: string } | undefined;
  /** Which of a search's minds embeds frames still without a vector with the next query (turn by turn). */
  backfillTurn = 0;

  constructor(opts: ServerOptions = {}) {
    this.env = opts.env ?? process.env;
    this.limits = resolveLimits(opts.limits);
    this.log = opts.log ?? ((line) => process.stderr.write(`hive-mind mcp: ${line}\n`));
    this.explicitPath = opts.mindPath;
    this.busyTimeoutMs = opts.busyTimeoutMs;
    this.notesOpts = opts.notes;
    this.workspaceOption = opts.workspace;
    try {
      this.notesTurnGapMs = envNumber(this.env, 'HIVE_MIND_MCP_TURN_GAP_MS', { value: opts.notesTurnGapMs, option: 'notesTurnGapMs' });
    } catch (e) {
      throw e instanceof SettingError ? new RangeError(e.message) : e;
    }
    if (opts.busyTimeoutMs !== undefined && (!Number.isInteger(opts.busyTimeoutMs) || opts.busyTimeoutMs < 0)) {
      throw new RangeError(`busyTimeoutMs must be a non-negative integer, got ${opts.busyTimeoutMs}`);
    }
  }

  /** The mind module, imported on first use. */
  async mindModule(): Promise<typeof import('@hive-mind/mind')> {
    return import('@hive-mind/mind');
  }

  /**
   * The embeddings plug-in of this server, from the environment (`HIVE_MIND_EMBEDDINGS_URL`,
   * `_MODEL`, `_API_KEY_ENV`, `_DIMENSIONS`, `_TIMEOUT_MS`; mind README "Embeddings (optional)"), read once:
   * `cfg` when configured, `problem` (logged once) when the variables are set but invalid, neither
   * when unset (the offline default).
   */
  async embeddingsConfig(): Promise<{ cfg?: EmbeddingsConfig; problem?: string }> {
    if (!this.embeddingsRead) {
      const { embeddingsConfigFromEnv } = await this.mindModule();
      try {
        const cfg = embeddingsConfigFromEnv(this.env);
        this.embeddingsRead = cfg ? { cfg } : {};
      } catch (e) {
        this.embeddingsRead = { problem: (e as Error).message };
        this.log(`embeddings plug-in off: ${(e as Error).message}`);
      }
    }
    return this.embeddingsRead;
  }

  /** Absolute path of the `.mind` file this server uses. */
  async mindPath(): Promise<string> {
    if (!this.resolvedPath) {
      const { personalMindPath } = await this.mindModule();
      this.resolvedPath = this.explicitPath ?? personalMindPath(this.env);
    }
    return this.resolvedPath;
  }

  /** The personal mind (opened once, on the first call; a failed open is retried on the next call). */
  async mind(): Promise<Mind> {
    return this.openMind(await this.mindPath());
  }

  /** The mind in the file `path`, opened once and shared by every session; a failed open is retried next time. */
  async openMind(path: string): Promise<Mind> {
    if (this.closed) throw new Error('the server is shutting down');
    let p = this.minds.get(path);
    if (!p) {
      p = (async () => {
        const { Mind } = await this.mindModule();
        // recall budgets are counted with the real tokenizer (loaded on the first recall, not at start-up)
        const { TokenMeter } = await import('@hive-mind/compaction/tokens');
        const meter = new TokenMeter();
        const { cfg: embeddings } = await this.embeddingsConfig();
        const m = Mind.open(path, { meter, ...(this.busyTimeoutMs !== undefined ? { busyTimeoutMs: this.busyTimeoutMs } : {}), ...(embeddings ? { embeddings } : {}) });
        // once per file and server: a damaged page that a query skips would make recall/search answer silently with less
        try {
          m.quickCheck();
        } catch (err) {
          m.close();
          throw err;
        }
        this.openedMinds.add(m);
        return m;
      })();
      this.minds.set(path, p);
      p.catch(() => this.minds.delete(path));
    }
    return p;
  }

  /**
   * The workspace mind of the project directory `dir` (its git root, as the hooks compute it):
   * `{id, path, mind}`; `mind` is undefined when the file does not exist yet and `create` is false
   * (reads never create a file).
   */
  async workspaceMind(dir: string, create: boolean): Promise<{ id: string; path: string; mind?: Mind }> {
    const [{ workspaceMindPath }, { workspaceOf }] = await Promise.all([this.mindModule(), import('@hive-mind/hooks')]);
    const id = workspaceOf(dir) ?? dir;
    const path = workspaceMindPath(id, this.env);
    if (!create && !existsSync(path)) return { id, path };
    return { id, path, mind: await this.openMind(path) };
  }

  /**
   * The curated notes (`<home>/memories`), created on first use. Facts that cannot be written
   * are kept as pending frames in this server's `.mind`.
   */
  async notes(): Promise<Notes> {
    if (!this.notesInstance) {
      const { Notes, mindHome } = await this.mindModule();
      this.notesInstance = new Notes({ ...(this.notesOpts ?? {}), env: this.env, home: mindHome(this.env), mindPath: await this.mindPath() });
    }
    return this.notesInstance;
  }

  /** Close every mind that was opened. Idempotent. */
  close(): void {
    this.closed = true;
    for (const m of this.openedMinds) {
      try {
        m.close();
      } catch (err) {
        this.log(`closing a mind failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.openedMinds.clear();
    this.minds.clear();
  }
}
