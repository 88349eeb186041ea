/**
 * Scripted model servers for end-to-end tests: real `node:http` servers on
 * 127.0.0.1 (an OS-chosen port) that speak three wire formats well enough for
 * the official SDKs and the real agent hosts (Claude Code, Codex) to talk to
 * them:
 *
 * - Anthropic Messages API: `POST /v1/messages` (JSON or SSE when the request
 *   has `stream: true`), `POST /v1/messages/count_tokens`, `GET /v1/models`.
 *   Event sequence and field names follow Anthropic's public "Streaming
 *   Messages" documentation (message_start, content_block_start,
 *   content_block_delta, content_block_stop, message_delta, message_stop).
 * - OpenAI Chat Completions: `POST /v1/chat/completions` (JSON or SSE
 *   `chat.completion.chunk` lines ended by `data: [DONE]`), `GET /v1/models`.
 * - OpenAI Responses API: `POST /v1/responses` (SSE `response.*` events, or a
 *   JSON response object when `stream` is not true), `GET /v1/models`.
 *
 * Every request is recorded (method, path, headers, raw and parsed body) in
 * {@link ScriptedServer.requests}; paths the server does not know are answered
 * 404 and also listed in {@link ScriptedServer.unknownRequests}, so a test can
 * find out what a host calls.
 *
 * Replies come from a script: a queue of replies consumed in order, or a
 * function of the request. Each reply may carry a {@link Fault} (HTTP error
 * status with a dialect-correct error body, a hang, a reset, a garbage body, a
 * truncated or stalled stream, a mid-stream error) and pacing (`delayMs`
 * between SSE events, `headersDelayMs` before the response starts).
 *
 * Lifetime: `close()` destroys every open socket (including ones held by a
 * hanging reply) and clears every timer, so a hang can never keep the test
 * process alive. All timers are `unref()`ed.
 *
 * Token counts: unless a reply scripts `usage`, input tokens are estimated as
 * ceil(characters of the JSON request's prompt fields / 4) and output tokens as
 * ceil(characters of the generated text / 4). These are estimates in tokens,
 * not a real tokenizer.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';

// ---------------------------------------------------------------------------
// Recording

/** One request as the server received it. */
export interface RecordedRequest {
  /** 0-based arrival order on this server. */
  index: number;
  method: string;
  /** Path without the query string, e.g. `/v1/messages`. */
  path: string;
  /** Full request target including query string. */
  url: string;
  query: Record<string, string>;
  /** Lower-cased header names, as Node delivers them. */
  headers: http.IncomingHttpHeaders;
  /** Decoded (content-encoding undone) body text; '' when there was none. */
  rawBody: string;
  /** Parsed JSON body, or undefined when the body was empty or not JSON. */
  body: any;
  /** Set when the body was present but could not be decoded or parsed. */
  bodyError?: string;
  /** Epoch milliseconds at arrival. */
  receivedAt: number;
  /** What the server did with it (filled in as the reply progresses). */
  outcome: RequestOutcome;
}

export interface RequestOutcome {
  /** HTTP status sent, or undefined if none was sent (hang, reset). */
  status?: number;
  /** `ok`, or the fault kind applied, or `unknown-path` / `script-exhausted` / `handler-error`. */
  kind: string;
  /** True when the client closed the connection before the reply finished. */
  clientAborted: boolean;
  /** True when the reply was fully written. */
  finished: boolean;
  /** Number of SSE events written (streaming replies only). */
  eventsSent: number;
}

// ---------------------------------------------------------------------------
// Faults and pacing

/**
 * A fault to inject instead of (or into) a normal reply.
 *
 * - `status`: answer with this HTTP status and the dialect's error JSON
 *   (Anthropic: `{type:'error', error:{type, message}}`; OpenAI:
 *   `{error:{message, type, param, code}}`). `retryAfter` (seconds) sets the
 *   `retry-after` header. Anthropic error types follow the status: 400
 *   invalid_request_error, 401 authentication_error, 403 permission_error, 404
 *   not_found_error, 413 request_too_large, 429 rate_limit_error, 500 api_error,
 *   529 overloaded_error.
 * - `hang`: never send anything; the request stays open until the client
 *   aborts or the server is closed.
 * - `reset`: destroy the socket without a response.
 * - `garbage`: send `body` verbatim with `status` (default 200) and
 *   `contentType` (default `application/json`), e.g. invalid JSON.
 * - `truncate`: stream the first `afterEvents` SSE events, then end the
 *   response (`mode: 'end'`, default) or destroy the socket (`mode: 'destroy'`)
 *   without the terminal events.
 * - `stall`: stream the first `afterEvents` SSE events, then send nothing
 *   more (the connection stays open like `hang`).
 * - `stream-error`: stream `afterEvents` events, then the dialect's in-stream
 *   error (Anthropic `event: error`, Chat `data: {"error":...}`, Responses
 *   `response.failed`) and end.
 */
export type Fault =
  | { kind: 'status'; status: number; message?: string; errorType?: string; code?: string; retryAfter?: number; headers?: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'reset' }
  | { kind: 'garbage'; body: string; status?: number; contentType?: string }
  | { kind: 'truncate'; afterEvents: number; mode?: 'end' | 'destroy' }
  | { kind: 'stall'; afterEvents: number }
  | { kind: 'stream-error'; afterEvents: number; message?: string; errorType?: string };

/** Controls shared by every dialect's reply. */
export interface ReplyControl {
  fault?: Fault;
  /** Milliseconds to wait between SSE events (slow stream). Default 0. */
  delayMs?: number;
  /** Milliseconds to wait before sending the status line. Default 0. */
  headersDelayMs?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Characters per text delta when streaming. Default 12. */
  chunkSize?: number;
}

/** A script: a queue of replies, or a function deciding per request. */
export type Script<R> = R[] | ((req: RecordedRequest, callIndex: number) => R | Promise<R>);

// ---------------------------------------------------------------------------
// Generic server

export interface ServerOptions {
  /** Port to listen on; 0 (default) lets the OS choose. */
  port?: number;
  /** Log unknown paths to stderr (they are always recorded). Default false. */
  logUnknown?: boolean;
}

type RouteHandler = (ctx: ReplyContext) => Promise<void> | void;

/** What a route handler gets: the request record plus write primitives. */
export class ReplyContext {
  private timers = new Set<NodeJS.Timeout>();
  private sleepers = new Set<(ok: boolean) => void>();
  closed = false;

  constructor(
    readonly req: RecordedRequest,
    readonly httpReq: http.IncomingMessage,
    readonly res: http.ServerResponse,
    private readonly owner: ScriptedServer,
  ) {
    res.on('close', () => {
      if (!res.writableFinished) req.outcome.clientAborted = true;
      this.closed = true;
      for (const t of this.timers) clearTimeout(t);
      this.timers.clear();
      for (const wake of this.sleepers) wake(false);
      this.sleepers.clear();
    });
  }

  /** Resolves `true` after `ms`, or `false` as soon as the connection closes. */
  sleep(ms: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      this.sleepers.add(resolve);
      const t = setTimeout(() => {
        this.timers.delete(t);
        this.sleepers.delete(resolve);
        resolve(!this.closed);
      }, ms);
      t.unref();
      this.timers.add(t);
    });
  }

  json(status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (this.closed) return;
    const text = JSON.stringify(body);
    this.res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    this.req.outcome.status = status;
    this.res.end(text, () => {
      this.req.outcome.finished = true;
    });
  }

  raw(status: number, body: string, contentType: string, headers: Record<string, string> = {}): void {
    if (this.closed) return;
    this.res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...headers });
    this.req.outcome.status = status;
    this.res.end(body, () => {
      this.req.outcome.finished = true;
    });
  }

  /** Start an SSE response. */
  sseStart(headers: Record<string, string> = {}): void {
    if (this.closed) return;
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...headers,
    });
    this.res.flushHeaders();
    this.req.outcome.status = 200;
  }

  /** Write one SSE frame (`event:` line only when `event` is given). */
  sseWrite(data: string, event?: string): boolean {
    if (this.closed) return false;
    const frame = (event ? `event: ${event}\n` : '') + `data: ${data}\n\n`;
    this.res.write(frame);
    this.req.outcome.eventsSent++;
    return true;
  }

  end(): void {
    if (this.closed) return;
    this.res.end(() => {
      this.req.outcome.finished = true;
    });
  }

  /** Destroy the underlying socket. */
  destroy(): void {
    this.httpReq.socket.destroy();
  }

  /** Leave the request open until the client or the server closes it. */
  hang(): void {
    this.owner.noteHang(this);
  }
}

/**
 * A recording HTTP server with a route table. The dialect servers below are
 * instances of it with their routes installed.
 */
export class ScriptedServer {
  readonly requests: RecordedRequest[] = [];
  readonly unknownRequests: RecordedRequest[] = [];
  /** Errors thrown by route handlers or scripts (also answered as HTTP 500). */
  readonly errors: Error[] = [];
  private readonly server: http.Server;
  private readonly sockets = new Set<Socket>();
  private readonly routes = new Map<string, RouteHandler>();
  private readonly waiters: { n: number; filter?: (r: RecordedRequest) => boolean; resolve: () => void }[] = [];
  private readonly hanging = new Set<ReplyContext>();
  private port = 0;
  private closedFlag = false;

  constructor(private readonly options: ServerOptions = {}) {
    this.server = http.createServer((req, res) => {
      void this.handle(req, res);
    });
    this.server.keepAliveTimeout = 5_000;
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  /** `METHOD /path` → handler. */
  route(method: string, path: string, handler: RouteHandler): this {
    this.routes.set(`${method.toUpperCase()} ${path}`, handler);
    return this;
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? 0, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** `http://127.0.0.1:<port>` (no trailing slash). Anthropic SDK / ANTHROPIC_BASE_URL form. */
  get url(): string {
    if (!this.port) throw new Error('ScriptedServer: not listening yet (await listen())');
    return `http://127.0.0.1:${this.port}`;
  }

  /** `http://127.0.0.1:<port>/v1`. OpenAI SDK `baseURL` / Codex provider `base_url` form. */
  get v1Url(): string {
    return `${this.url}/v1`;
  }

  /** Requests to a given path (and optional method). */
  requestsTo(path: string, method = 'POST'): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path && r.method === method);
  }

  /** Resolves once at least `n` requests (matching `filter`, if given) have arrived. */
  waitForRequests(n: number, opts: { filter?: (r: RecordedRequest) => boolean; timeoutMs?: number } = {}): Promise<void> {
    const count = () => (opts.filter ? this.requests.filter(opts.filter).length : this.requests.length);
    if (count() >= n) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timeoutMs = opts.timeoutMs ?? 10_000;
      const t = setTimeout(() => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(new Error(`ScriptedServer: waited ${timeoutMs} ms for ${n} request(s), saw ${count()}`));
      }, timeoutMs);
      t.unref();
      const waiter = {
        n,
        filter: opts.filter,
        resolve: () => {
          clearTimeout(t);
          resolve();
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** Number of currently open TCP connections (for leak checks). */
  get openSockets(): number {
    return this.sockets.size;
  }

  /** Number of requests currently held open by a `hang` or `stall` fault. */
  get hangingRequests(): number {
    return this.hanging.size;
  }

  /** @internal */
  noteHang(ctx: ReplyContext): void {
    this.hanging.add(ctx);
    ctx.res.once('close', () => this.hanging.delete(ctx));
  }

  /** Stop listening, destroy every open socket (hung requests included). Idempotent. */
  async close(): Promise<void> {
    if (this.closedFlag) return;
    this.closedFlag = true;
    const done = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // Every socket still in the set has not emitted 'close' yet; wait for each.
    const socketsClosed = [...this.sockets].map((s) => new Promise<void>((resolve) => s.once('close', () => resolve())));
    for (const s of this.sockets) s.destroy();
    this.server.closeAllConnections();
    await Promise.all([done, ...socketsClosed]);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    try {
      for await (const c of req) chunks.push(c as Buffer);
    } catch {
      return; // client went away while sending
    }
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const record: RecordedRequest = {
      index: this.requests.length,
      method: req.method ?? 'GET',
      path: u.pathname,
      url: req.url ?? '/',
      query: Object.fromEntries(u.searchParams),
      headers: req.headers,
      rawBody: '',
      body: undefined,
      receivedAt: Date.now(),
      outcome: { kind: 'ok', clientAborted: false, finished: false, eventsSent: 0 },
    };
    const buf = Buffer.concat(chunks);
    if (buf.length > 0) {
      try {
        record.rawBody = decodeBody(buf, String(req.headers['content-encoding'] ?? ''));
        try {
          record.body = JSON.parse(record.rawBody);
        } catch (e) {
          if (String(req.headers['content-type'] ?? '').includes('json')) record.bodyError = `invalid JSON: ${(e as Error).message}`;
        }
      } catch (e) {
        record.bodyError = (e as Error).message;
      }
    }
    this.requests.push(record);
    for (const w of [...this.waiters]) {
      const c = w.filter ? this.requests.filter(w.filter).length : this.requests.length;
      if (c >= w.n) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve();
      }
    }
    const ctx = new ReplyContext(record, req, res, this);
    const handler = this.routes.get(`${record.method} ${record.path}`);
    if (!handler) {
      record.outcome.kind = 'unknown-path';
      this.unknownRequests.push(record);
      if (this.options.logUnknown) process.stderr.write(`[llm-server] unknown ${record.method} ${record.url}\n`);
      ctx.json(404, { type: 'error', error: { type: 'not_found_error', message: `no route for ${record.method} ${record.path}` } });
      return;
    }
    try {
      await handler(ctx);
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      this.errors.push(err);
      record.outcome.kind = record.outcome.kind === 'ok' ? 'handler-error' : record.outcome.kind;
      if (!res.headersSent) ctx.json(500, { type: 'error', error: { type: 'api_error', message: `test server: ${err.message}` } });
      else ctx.end();
    }
  }
}

function decodeBody(buf: Buffer, encoding: string): string {
  switch (encoding.trim().toLowerCase()) {
    case '':
    case 'identity':
      return buf.toString('utf8');
    case 'gzip':
      return zlib.gunzipSync(buf).toString('utf8');
    case 'deflate':
      return zlib.inflateSync(buf).toString('utf8');
    case 'br':
      return zlib.brotliDecompressSync(buf).toString('utf8');
    default: {
      const z = (zlib as unknown as Record<string, unknown>)['zstdDecompressSync'];
      if (encoding.trim().toLowerCase() === 'zstd' && typeof z === 'function') {
        return (z as (b: Buffer) => Buffer)(buf).toString('utf8');
      }
      throw new Error(`unsupported content-encoding: ${encoding}`);
    }
  }
}

/** Consumes a script: queue order, or function call. */
class ScriptCursor<R> {
  private queue: R[] = [];
  private fn?: (req: RecordedRequest, callIndex: number) => R | Promise<R>;
  calls = 0;

  constructor(script?: Script<R>) {
    if (script) this.set(script);
  }

  set(script: Script<R>): void {
    if (typeof script === 'function') {
      this.fn = script;
      this.queue = [];
    } else {
      this.fn = undefined;
      this.queue = [...script];
    }
  }

  push(...replies: R[]): void {
    this.fn = undefined;
    this.queue.push(...replies);
  }

  get remaining(): number {
    return this.fn ? Infinity : this.queue.length;
  }

  async next(req: RecordedRequest): Promise<R | undefined> {
    const i = this.calls++;
    if (this.fn) return await this.fn(req, i);
    return this.queue.shift();
  }
}

/** Base class of the dialect servers: a ScriptedServer plus a script cursor. */
export abstract class ModelServer<R> extends ScriptedServer {
  protected readonly cursor: ScriptCursor<R>;
  /** Reply used once the queue is empty; undefined → HTTP 500 "script exhausted". */
  fallback?: R;

  constructor(opts: ServerOptions & { script?: Script<R>; fallback?: R } = {}) {
    super(opts);
    this.cursor = new ScriptCursor(opts.script);
    this.fallback = opts.fallback;
  }

  /** Append replies to the queue (switches a function script back to queue mode). */
  enqueue(...replies: R[]): this {
    this.cursor.push(...replies);
    return this;
  }

  /** Replace the script. */
  setScript(script: Script<R>): this {
    this.cursor.set(script);
    return this;
  }

  /** Replies still queued (Infinity for a function script). */
  get remainingReplies(): number {
    return this.cursor.remaining;
  }

  protected async nextReply(ctx: ReplyContext): Promise<R | undefined> {
    const r = await this.cursor.next(ctx.req);
    return r ?? this.fallback;
  }

  /**
   * The shared start of every model endpoint: answer 400 when the body is not a JSON object,
   * 500 when the script has no reply left (both in the dialect's error shape, via `errorBody`),
   * else return the next scripted reply.
   */
  protected async takeReply(ctx: ReplyContext, errorBody: (f: Extract<Fault, { kind: 'status' }>) => unknown, calls = ''): Promise<R | undefined> {
    const body = ctx.req.body;
    if (ctx.req.bodyError || !body || typeof body !== 'object') {
      ctx.req.outcome.kind = 'bad-request';
      ctx.json(400, errorBody({ kind: 'status', status: 400, message: ctx.req.bodyError ?? 'body must be a JSON object' }));
      return undefined;
    }
    const next = await this.nextReply(ctx);
    if (next === undefined) {
      ctx.req.outcome.kind = 'script-exhausted';
      ctx.json(500, errorBody({ kind: 'status', status: 500, message: `test server: no scripted reply left for request #${ctx.req.index}${calls}` }));
    }
    return next;
  }
}

// Shared fault handling. Returns true when the fault fully handled the request.
async function applyPreFault(ctx: ReplyContext, control: ReplyControl, errorBody: (f: Extract<Fault, { kind: 'status' }>) => unknown): Promise<boolean> {
  if (control.headersDelayMs) {
    if (!(await ctx.sleep(control.headersDelayMs))) return true;
  }
  const f = control.fault;
  if (!f) return false;
  ctx.req.outcome.kind = f.kind;
  switch (f.kind) {
    case 'status': {
      const headers: Record<string, string> = { ...control.headers, ...f.headers };
      if (f.retryAfter !== undefined) headers['retry-after'] = String(f.retryAfter);
      if (f.status === 529 || f.status === 503) headers['x-should-retry'] ??= 'true';
      ctx.json(f.status, errorBody(f), headers);
      return true;
    }
    case 'hang':
      ctx.hang();
      return true;
    case 'reset':
      ctx.destroy();
      return true;
    case 'garbage':
      ctx.raw(f.status ?? 200, f.body, f.contentType ?? 'application/json', control.headers);
      return true;
    default:
      return false; // stream faults are applied by the streaming writer
  }
}

/**
 * Writes SSE events one by one with pacing and stream faults applied.
 * `events` are [eventName | undefined, dataString]. `terminal` is written after
 * all events unless a fault cut the stream. `streamError` produces the
 * dialect's in-stream error frame.
 */
async function writeStream(
  ctx: ReplyContext,
  control: ReplyControl,
  events: [string | undefined, string][],
  streamError: (message: string, errorType?: string) => [string | undefined, string],
): Promise<void> {
  const f = control.fault;
  ctx.sseStart(control.headers);
  for (let i = 0; i < events.length; i++) {
    if (f && (f.kind === 'truncate' || f.kind === 'stall' || f.kind === 'stream-error') && i >= f.afterEvents) {
      if (f.kind === 'truncate') {
        if (f.mode === 'destroy') ctx.destroy();
        else ctx.end();
      } else if (f.kind === 'stall') {
        ctx.hang();
      } else {
        const [ev, data] = streamError(f.message ?? 'Overloaded', f.errorType);
        ctx.sseWrite(data, ev);
        ctx.end();
      }
      return;
    }
    if (i > 0 && control.delayMs) {
      if (!(await ctx.sleep(control.delayMs))) return;
    }
    const [ev, data] = events[i]!;
    if (!ctx.sseWrite(data, ev)) return;
  }
  if (f && (f.kind === 'stall')) {
    ctx.hang();
    return;
  }
  ctx.end();
}

function chunkText(text: string, size: number): string[] {
  if (text.length === 0) return [];
  const out: string[] = [];
  const chars = Array.from(text); // do not split surrogate pairs
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** ceil(chars / 4): the servers' token estimate (tokens, from characters). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function shortId(): string {
  return randomUUID().replace(/-/g, '').slice(0, 24);
}

// ---------------------------------------------------------------------------
// Anthropic Messages API

export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id?: string; name: string; input: Record<string, unknown> };

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

export interface AnthropicReplySpec extends ReplyControl {
  /** Content blocks; a plain string is one text block. */
  content?: string | AnthropicBlock[];
  /** Default: `tool_use` when a tool_use block is present, else `end_turn`. */
  stop_reason?: 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal';
  stop_sequence?: string | null;
  /** Partial usage is merged over the estimate. */
  usage?: Partial<AnthropicUsage>;
  /** Default: the request's `model`. */
  model?: string;
  id?: string;
}

/** A reply: a spec, or a bare string (one text block, end_turn). */
export type AnthropicReply = string | AnthropicReplySpec;

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'api_error',
  529: 'overloaded_error',
};

function anthropicErrorBody(f: Extract<Fault, { kind: 'status' }>): unknown {
  const type = f.errorType ?? ANTHROPIC_ERROR_TYPES[f.status] ?? (f.status >= 500 ? 'api_error' : 'invalid_request_error');
  return { type: 'error', error: { type, message: f.message ?? defaultErrorMessage(f.status) }, request_id: `req_${shortId()}` };
}

function defaultErrorMessage(status: number): string {
  switch (status) {
    case 429:
      return 'Rate limited (test server)';
    case 529:
      return 'Overloaded';
    case 500:
      return 'Internal server error (test server)';
    default:
      return `HTTP ${status} (test server)`;
  }
}

/** Text the Anthropic request asks about (system + messages + tools), for token estimates. */
function anthropicPromptText(body: any): string {
  if (!body || typeof body !== 'object') return '';
  return JSON.stringify([body.system ?? '', body.messages ?? [], body.tools ?? []]);
}

/**
 * Concatenated text of every `text` content in an Anthropic request's
 * messages (and system prompt), for assertions like "the request contains the
 * first turn".
 */
export function anthropicRequestText(body: any): string {
  const parts: string[] = [];
  const walk = (c: any): void => {
    if (typeof c === 'string') parts.push(c);
    else if (Array.isArray(c)) c.forEach(walk);
    else if (c && typeof c === 'object') {
      if (typeof c.text === 'string') parts.push(c.text);
      if (c.content !== undefined) walk(c.content);
    }
  };
  walk(body?.system);
  walk(body?.messages);
  return parts.join('\n');
}

function normalizeAnthropic(reply: AnthropicReply): AnthropicReplySpec {
  return typeof reply === 'string' ? { content: reply } : reply;
}

export interface AnthropicServerOptions extends ServerOptions {
  script?: Script<AnthropicReply>;
  fallback?: AnthropicReply;
  /** Models listed by `GET /v1/models`. Default: claude-sonnet-4-5, claude-haiku-4-5, claude-opus-4-1. */
  models?: string[];
}

/** Anthropic Messages API server. */
export class AnthropicServer extends ModelServer<AnthropicReply> {
  readonly models: string[];

  constructor(opts: AnthropicServerOptions = {}) {
    super(opts);
    this.models = opts.models ?? ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1'];
    this.route('POST', '/v1/messages', (ctx) => this.messages(ctx));
    this.route('POST', '/v1/messages/count_tokens', (ctx) => {
      ctx.json(200, { input_tokens: estimateTokens(anthropicPromptText(ctx.req.body)) });
    });
    // Claude Code 2.1.332 sends `HEAD /api/hello` at startup (connectivity
    // probe) unless CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1.
    this.route('HEAD', '/api/hello', (ctx) => ctx.raw(200, '', 'text/plain'));
    this.route('GET', '/api/hello', (ctx) => ctx.json(200, { message: 'hello' }));
    this.route('GET', '/v1/models', (ctx) => {
      const data = this.models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }));
      ctx.json(200, { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null });
    });
  }

  /** Requests to `POST /v1/messages`. */
  get messageRequests(): RecordedRequest[] {
    return this.requestsTo('/v1/messages');
  }

  private async messages(ctx: ReplyContext): Promise<void> {
    const next = await this.takeReply(ctx, anthropicErrorBody, ` (${this.cursor.calls} message calls so far)`);
    if (next === undefined) return;
    const body = ctx.req.body;
    const spec = normalizeAnthropic(next);
    if (await applyPreFault(ctx, spec, anthropicErrorBody)) return;

    const blocks: AnthropicBlock[] = typeof spec.content === 'string' ? [{ type: 'text', text: spec.content }] : (spec.content ?? []);
    const full = blocks.map((b) => (b.type === 'tool_use' ? { ...b, id: b.id ?? `toolu_${shortId()}` } : b.type === 'thinking' ? { ...b, signature: b.signature ?? `sig_${shortId()}` } : b));
    const outText = full.map((b) => (b.type === 'text' ? b.text : b.type === 'thinking' ? b.thinking : b.type === 'tool_use' ? JSON.stringify(b.input) : '')).join('');
    const usage: AnthropicUsage = {
      input_tokens: estimateTokens(anthropicPromptText(body)),
      output_tokens: Math.max(1, estimateTokens(outText)),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      ...spec.usage,
    };
    const stop_reason = spec.stop_reason ?? (full.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
    const model = spec.model ?? (typeof body.model === 'string' ? body.model : 'claude-test');
    const id = spec.id ?? `msg_${shortId()}`;
    const headers = { 'request-id': `req_${shortId()}`, ...spec.headers };

    if (body.stream !== true) {
      ctx.json(200, { id, type: 'message', role: 'assistant', model, content: full, stop_reason, stop_sequence: spec.stop_sequence ?? null, usage }, headers);
      return;
    }

    const size = spec.chunkSize ?? 12;
    const ev: [string, string][] = [];
    const push = (type: string, data: Record<string, unknown>) => ev.push([type, JSON.stringify({ type, ...data })]);
    push('message_start', {
      message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
    });
    full.forEach((b, index) => {
      if (b.type === 'text') {
        push('content_block_start', { index, content_block: { type: 'text', text: '' } });
        for (const t of chunkText(b.text, size)) push('content_block_delta', { index, delta: { type: 'text_delta', text: t } });
      } else if (b.type === 'thinking') {
        push('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
        for (const t of chunkText(b.thinking, size)) push('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: t } });
        push('content_block_delta', { index, delta: { type: 'signature_delta', signature: b.signature } });
      } else if (b.type === 'redacted_thinking') {
        push('content_block_start', { index, content_block: { type: 'redacted_thinking', data: b.data } });
      } else {
        push('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
        for (const t of chunkText(JSON.stringify(b.input), size)) push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: t } });
      }
      push('content_block_stop', { index });
    });
    push('message_delta', { delta: { stop_reason, stop_sequence: spec.stop_sequence ?? null }, usage: { output_tokens: usage.output_tokens } });
    push('message_stop', {});
    await writeStream(ctx, { ...spec, headers }, ev, (message, errorType) => ['error', JSON.stringify({ type: 'error', error: { type: errorType ?? 'overloaded_error', message } })]);
  }
}

export async function startAnthropicServer(opts: AnthropicServerOptions = {}): Promise<AnthropicServer> {
  return new AnthropicServer(opts).listen();
}

// ---------------------------------------------------------------------------
// OpenAI shared

function openaiErrorBody(f: Extract<Fault, { kind: 'status' }>): unknown {
  const type = f.errorType ?? (f.status === 429 ? 'rate_limit_exceeded' : f.status >= 500 ? 'server_error' : 'invalid_request_error');
  const code = f.code ?? (f.status === 429 ? 'rate_limit_exceeded' : null);
  return { error: { message: f.message ?? defaultErrorMessage(f.status), type, param: null, code } };
}

function openaiModels(models: string[]): unknown {
  return { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'test-server' })) };
}

// ---------------------------------------------------------------------------
// OpenAI Chat Completions

export interface ChatToolCallSpec {
  id?: string;
  name: string;
  /** JSON text, or an object that is serialized. */
  arguments: string | Record<string, unknown>;
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatReplySpec extends ReplyControl {
  content?: string | null;
  /** Emitted as `reasoning_content` (the DeepSeek/vLLM convention) when set. */
  reasoning?: string;
  tool_calls?: ChatToolCallSpec[];
  /** Default: `tool_calls` when tool calls are present, else `stop`. */
  finish_reason?: 'stop' | 'length' | 'tool_calls' | 'content_filter';
  usage?: Partial<ChatUsage>;
  model?: string;
  id?: string;
}

export type ChatReply = string | ChatReplySpec;

export interface ChatServerOptions extends ServerOptions {
  script?: Script<ChatReply>;
  fallback?: ChatReply;
  /** Models listed by `GET /v1/models`. Default: ['gpt-test']. */
  models?: string[];
}

/** Concatenated text of the chat messages' contents (string or text parts). */
export function chatRequestText(body: any): string {
  const parts: string[] = [];
  for (const m of body?.messages ?? []) {
    if (typeof m?.content === 'string') parts.push(m.content);
    else if (Array.isArray(m?.content)) for (const p of m.content) if (typeof p?.text === 'string') parts.push(p.text);
  }
  return parts.join('\n');
}

/** OpenAI Chat Completions server. */
export class OpenAIChatServer extends ModelServer<ChatReply> {
  readonly models: string[];

  constructor(opts: ChatServerOptions = {}) {
    super(opts);
    this.models = opts.models ?? ['gpt-test'];
    this.route('POST', '/v1/chat/completions', (ctx) => this.completions(ctx));
    this.route('GET', '/v1/models', (ctx) => ctx.json(200, openaiModels(this.models)));
  }

  get completionRequests(): RecordedRequest[] {
    return this.requestsTo('/v1/chat/completions');
  }

  private async completions(ctx: ReplyContext): Promise<void> {
    const next = await this.takeReply(ctx, openaiErrorBody);
    if (next === undefined) return;
    const body = ctx.req.body;
    const spec: ChatReplySpec = typeof next === 'string' ? { content: next } : next;
    if (await applyPreFault(ctx, spec, openaiErrorBody)) return;

    const toolCalls = (spec.tool_calls ?? []).map((t) => ({
      id: t.id ?? `call_${shortId()}`,
      type: 'function' as const,
      function: { name: t.name, arguments: typeof t.arguments === 'string' ? t.arguments : JSON.stringify(t.arguments) },
    }));
    const content = spec.content === undefined ? (toolCalls.length ? null : '') : spec.content;
    const finish_reason = spec.finish_reason ?? (toolCalls.length ? 'tool_calls' : 'stop');
    const prompt_tokens = estimateTokens(JSON.stringify([body.messages ?? [], body.tools ?? []]));
    const completion_tokens = Math.max(1, estimateTokens((content ?? '') + (spec.reasoning ?? '') + toolCalls.map((t) => t.function.arguments).join('')));
    const usage: ChatUsage = { prompt_tokens, completion_tokens, total_tokens: 0, ...spec.usage };
    if (spec.usage?.total_tokens === undefined) usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const model = spec.model ?? (typeof body.model === 'string' ? body.model : 'gpt-test');
    const id = spec.id ?? `chatcmpl-${shortId()}`;
    const created = Math.floor(Date.now() / 1000);

    if (body.stream !== true) {
      const message: Record<string, unknown> = { role: 'assistant', content, refusal: null };
      if (spec.reasoning !== undefined) message.reasoning_content = spec.reasoning;
      if (toolCalls.length) message.tool_calls = toolCalls;
      ctx.json(200, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message, logprobs: null, finish_reason }], usage }, spec.headers);
      return;
    }

    const size = spec.chunkSize ?? 12;
    const ev: [undefined, string][] = [];
    const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
      ev.push([undefined, JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra })]);
    chunk({ role: 'assistant', content: '', refusal: null }, null);
    for (const t of chunkText(spec.reasoning ?? '', size)) chunk({ reasoning_content: t }, null);
    for (const t of chunkText(content ?? '', size)) chunk({ content: t }, null);
    toolCalls.forEach((t, index) => {
      chunk({ tool_calls: [{ index, id: t.id, type: 'function', function: { name: t.function.name, arguments: '' } }] }, null);
      for (const a of chunkText(t.function.arguments, size)) chunk({ tool_calls: [{ index, function: { arguments: a } }] }, null);
    });
    chunk({}, finish_reason);
    if (body.stream_options?.include_usage === true) {
      ev.push([undefined, JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })]);
    }
    ev.push([undefined, '[DONE]']);
    await writeStream(ctx, spec, ev, (message, errorType) => [undefined, JSON.stringify({ error: { message, type: errorType ?? 'server_error', param: null, code: null } })]);
  }
}

export async function startOpenAIChatServer(opts: ChatServerOptions = {}): Promise<OpenAIChatServer> {
  return new OpenAIChatServer(opts).listen();
}

// ---------------------------------------------------------------------------
// OpenAI Responses API

export type ResponsesItemSpec =
  | { type: 'message'; text: string; id?: string }
  | { type: 'function_call'; name: string; arguments: string | Record<string, unknown>; call_id?: string; id?: string }
  | { type: 'reasoning'; summary?: string; encrypted_content?: string; id?: string };

export interface ResponsesUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens_details: { reasoning_tokens: number };
}

export interface ResponsesReplySpec extends ReplyControl {
  /** Output items; a plain string is one assistant message. */
  output?: string | ResponsesItemSpec[];
  /** `incomplete` ends with `response.incomplete` and `incomplete_details.reason`. Default `completed`. */
  status?: 'completed' | 'incomplete';
  incompleteReason?: 'max_output_tokens' | 'content_filter';
  usage?: Partial<Pick<ResponsesUsage, 'input_tokens' | 'output_tokens' | 'total_tokens'>> & { cached_tokens?: number; reasoning_tokens?: number };
  model?: string;
  id?: string;
}

export type ResponsesReply = string | ResponsesReplySpec;

export interface ResponsesServerOptions extends ServerOptions {
  script?: Script<ResponsesReply>;
  fallback?: ResponsesReply;
  models?: string[];
}

/** Concatenated text of a Responses request's `instructions` and input items. */
export function responsesRequestText(body: any): string {
  const parts: string[] = [];
  if (typeof body?.instructions === 'string') parts.push(body.instructions);
  const input = body?.input;
  if (typeof input === 'string') parts.push(input);
  else if (Array.isArray(input)) {
    for (const item of input) {
      if (typeof item?.content === 'string') parts.push(item.content);
      else if (Array.isArray(item?.content)) for (const p of item.content) if (typeof p?.text === 'string') parts.push(p.text);
      if (typeof item?.output === 'string') parts.push(item.output);
    }
  }
  return parts.join('\n');
}

/** OpenAI Responses API server (what Codex speaks). */
export class ResponsesServer extends ModelServer<ResponsesReply> {
  readonly models: string[];

  constructor(opts: ResponsesServerOptions = {}) {
    super(opts);
    this.models = opts.models ?? ['gpt-test'];
    this.route('POST', '/v1/responses', (ctx) => this.responses(ctx));
    this.route('GET', '/v1/models', (ctx) => ctx.json(200, openaiModels(this.models)));
  }

  get responseRequests(): RecordedRequest[] {
    return this.requestsTo('/v1/responses');
  }

  private async responses(ctx: ReplyContext): Promise<void> {
    const next = await this.takeReply(ctx, openaiErrorBody);
    if (next === undefined) return;
    const body = ctx.req.body;
    const spec: ResponsesReplySpec = typeof next === 'string' ? { output: next } : next;
    if (await applyPreFault(ctx, spec, openaiErrorBody)) return;

    const specs: ResponsesItemSpec[] = typeof spec.output === 'string' ? [{ type: 'message', text: spec.output }] : (spec.output ?? []);
    const items = specs.map((s) => {
      if (s.type === 'message') {
        return { id: s.id ?? `msg_${shortId()}`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: s.text, annotations: [], logprobs: [] }] };
      }
      if (s.type === 'function_call') {
        return {
          id: s.id ?? `fc_${shortId()}`,
          type: 'function_call',
          status: 'completed',
          call_id: s.call_id ?? `call_${shortId()}`,
          name: s.name,
          arguments: typeof s.arguments === 'string' ? s.arguments : JSON.stringify(s.arguments),
        };
      }
      const r: Record<string, unknown> = { id: s.id ?? `rs_${shortId()}`, type: 'reasoning', summary: s.summary ? [{ type: 'summary_text', text: s.summary }] : [] };
      if (s.encrypted_content !== undefined) r.encrypted_content = s.encrypted_content;
      return r;
    }) as Record<string, any>[];

    const outText = items
      .map((i) => (i.type === 'message' ? i.content[0].text : i.type === 'function_call' ? i.arguments : (i.summary?.[0]?.text ?? '')))
      .join('');
    const reasoningText = items.filter((i) => i.type === 'reasoning').map((i) => i.summary?.[0]?.text ?? '').join('');
    const input_tokens = spec.usage?.input_tokens ?? estimateTokens(JSON.stringify([body.instructions ?? '', body.input ?? [], body.tools ?? []]));
    const output_tokens = spec.usage?.output_tokens ?? Math.max(1, estimateTokens(outText));
    const usage: ResponsesUsage = {
      input_tokens,
      input_tokens_details: { cached_tokens: spec.usage?.cached_tokens ?? 0 },
      output_tokens,
      output_tokens_details: { reasoning_tokens: spec.usage?.reasoning_tokens ?? estimateTokens(reasoningText) },
      total_tokens: spec.usage?.total_tokens ?? input_tokens + output_tokens,
    };
    const model = spec.model ?? (typeof body.model === 'string' ? body.model : 'gpt-test');
    const id = spec.id ?? `resp_${shortId()}`;
    const created_at = Math.floor(Date.now() / 1000);
    const status = spec.status ?? 'completed';
    const base = {
      id,
      object: 'response',
      created_at,
      model,
      output: [] as unknown[],
      parallel_tool_calls: body.parallel_tool_calls ?? true,
      previous_response_id: body.previous_response_id ?? null,
      tool_choice: body.tool_choice ?? 'auto',
      tools: body.tools ?? [],
      error: null,
      incomplete_details: null as null | { reason: string },
      instructions: body.instructions ?? null,
      metadata: {},
      temperature: null,
      top_p: null,
      usage: null as ResponsesUsage | null,
    };
    const finalResponse = {
      ...base,
      status,
      output: items,
      usage,
      incomplete_details: status === 'incomplete' ? { reason: spec.incompleteReason ?? 'max_output_tokens' } : null,
    };

    if (body.stream !== true) {
      ctx.json(200, finalResponse, spec.headers);
      return;
    }

    const size = spec.chunkSize ?? 12;
    const ev: [string, string][] = [];
    let seq = 0;
    const push = (type: string, data: Record<string, unknown>) => ev.push([type, JSON.stringify({ type, sequence_number: seq++, ...data })]);
    push('response.created', { response: { ...base, status: 'in_progress' } });
    push('response.in_progress', { response: { ...base, status: 'in_progress' } });
    items.forEach((item, output_index) => {
      if (item.type === 'message') {
        const text: string = item.content[0].text;
        push('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
        const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
        push('response.content_part.added', { item_id: item.id, output_index, content_index: 0, part });
        for (const d of chunkText(text, size)) push('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta: d, logprobs: [] });
        push('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text, logprobs: [] });
        push('response.content_part.done', { item_id: item.id, output_index, content_index: 0, part: { ...part, text } });
      } else if (item.type === 'function_call') {
        push('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
        for (const d of chunkText(item.arguments, size)) push('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: d });
        push('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments });
      } else {
        push('response.output_item.added', { output_index, item: { ...item, summary: [] } });
        const text: string | undefined = item.summary?.[0]?.text;
        if (text !== undefined) {
          push('response.reasoning_summary_part.added', { item_id: item.id, output_index, summary_index: 0, part: { type: 'summary_text', text: '' } });
          for (const d of chunkText(text, size)) push('response.reasoning_summary_text.delta', { item_id: item.id, output_index, summary_index: 0, delta: d });
          push('response.reasoning_summary_text.done', { item_id: item.id, output_index, summary_index: 0, text });
          push('response.reasoning_summary_part.done', { item_id: item.id, output_index, summary_index: 0, part: { type: 'summary_text', text } });
        }
      }
      push('response.output_item.done', { output_index, item });
    });
    push(status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: finalResponse });
    await writeStream(ctx, spec, ev, (message, errorType) => [
      'response.failed',
      JSON.stringify({ type: 'response.failed', sequence_number: seq++, response: { ...base, status: 'failed', error: { code: errorType ?? 'server_error', message } } }),
    ]);
  }
}

export async function startResponsesServer(opts: ResponsesServerOptions = {}): Promise<ResponsesServer> {
  return new ResponsesServer(opts).listen();
}

// ---------------------------------------------------------------------------
// OpenAI Embeddings API

/**
 * One reply of the embeddings server. Without `vectors` the server computes them
 * ({@link hashedEmbedding} of each input); `vectors` replaces them (a wrong count or
 * length is how a test sends a bad response). Faults as for every dialect.
 */
export interface EmbeddingsReplySpec extends ReplyControl {
  vectors?: number[][];
  model?: string;
}
export type EmbeddingsReply = EmbeddingsReplySpec;

export interface EmbeddingsServerOptions extends ServerOptions {
  /** Replies consumed in order; once empty, `fallback` (default `{}`: computed vectors). */
  script?: Script<EmbeddingsReply>;
  fallback?: EmbeddingsReply;
  /** Vector length when the request has no `dimensions`. Default 64. */
  dimensions?: number;
  /** Models listed by `GET /v1/models`. Default: ['embed-test']. */
  models?: string[];
  /** How a vector is computed when the reply scripts none. Default {@link hashedEmbedding}. */
  embed?: (text: string, dimensions: number) => number[];
}

/**
 * A deterministic embedding of `text`: a hashed bag of words (lower-cased letter/digit runs,
 * each word's FNV-1a hash picks a coordinate and a sign), L2-normalized; texts sharing words
 * have a positive cosine. Not a model: a stand-in with the wire shape of one.
 */
export function hashedEmbedding(text: string, dimensions: number): number[] {
  const v = new Array<number>(dimensions).fill(0);
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let h = 0x811c9dc5;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193) >>> 0;
    v[h % dimensions] = v[h % dimensions]! + (h & 0x80000000 ? -1 : 1);
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

/**
 * A stand-in for a multilingual model: each word found in `glossary` (lower case) is replaced by its
 * entry (English words, or '' to drop it), and the words of `drop` (stop words: a model's vector is
 * carried by content words) are left out, before {@link hashedEmbedding}; so a text and its
 * translation get close vectors as far as the glossary reaches. Not a model either: what it aligns
 * is what the glossary says.
 */
export function glossaryEmbedding(glossary: Readonly<Record<string, string>>, drop: ReadonlySet<string> = new Set()): (text: string, dimensions: number) => number[] {
  const word = (w: string) => (drop.has(w) ? '' : w);
  return (text, dimensions) =>
    hashedEmbedding(
      text
        .toLowerCase()
        .replace(/[\p{L}\p{N}]+/gu, (w) => (drop.has(w) ? '' : (glossary[w] ?? w)))
        .replace(/[\p{L}\p{N}]+/gu, word),
      dimensions,
    );
}

/**
 * OpenAI `POST /v1/embeddings`: `{model, input: string | string[], dimensions?, encoding_format?}`
 * answered `{object: 'list', data: [{object: 'embedding', index, embedding}], model, usage}`
 * (`encoding_format: 'base64'` sends little-endian float32 as base64, as the API does).
 * Field names follow OpenAI's API reference, "Embeddings".
 */
export class OpenAIEmbeddingsServer extends ModelServer<EmbeddingsReply> {
  readonly models: string[];
  readonly dimensions: number;
  private readonly embed: (text: string, dimensions: number) => number[];

  constructor(opts: EmbeddingsServerOptions = {}) {
    super({ ...opts, fallback: opts.fallback ?? {} });
    this.models = opts.models ?? ['embed-test'];
    this.dimensions = opts.dimensions ?? 64;
    this.embed = opts.embed ?? hashedEmbedding;
    this.route('POST', '/v1/embeddings', (ctx) => this.embeddings(ctx));
    this.route('GET', '/v1/models', (ctx) => ctx.json(200, openaiModels(this.models)));
  }

  get embeddingRequests(): RecordedRequest[] {
    return this.requestsTo('/v1/embeddings');
  }

  private async embeddings(ctx: ReplyContext): Promise<void> {
    const next = await this.takeReply(ctx, openaiErrorBody);
    if (next === undefined) return;
    if (await applyPreFault(ctx, next, openaiErrorBody)) return;
    const body = ctx.req.body;
    const inputs: unknown[] = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? body.input : [];
    if (!inputs.length || inputs.some((x) => typeof x !== 'string')) {
      ctx.req.outcome.kind = 'bad-request';
      ctx.json(400, openaiErrorBody({ kind: 'status', status: 400, message: "'input' must be a string or a non-empty array of strings" }));
      return;
    }
    const dims = Number.isInteger(body.dimensions) && body.dimensions > 0 ? body.dimensions : this.dimensions;
    const vectors = next.vectors ?? inputs.map((t) => this.embed(t as string, dims));
    const encode = (v: number[]) => (body.encoding_format === 'base64' ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v);
    const tokens = inputs.reduce<number>((n, t) => n + estimateTokens(t as string), 0);
    ctx.json(
      200,
      {
        object: 'list',
        data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: encode(v) })),
        model: next.model ?? (typeof body.model === 'string' ? body.model : this.models[0]),
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      },
      next.headers,
    );
  }
}

export async function startEmbeddingsServer(opts: EmbeddingsServerOptions = {}): Promise<OpenAIEmbeddingsServer> {
  return new OpenAIEmbeddingsServer(opts).listen();
}
