import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ServerContext, type ServerOptions } from './context.js';
import { createMcpServer } from './server.js';
import { bearerMatches, checkToken, loadOrCreateToken, normalizeOrigin, ownOrigins } from './http-auth.js';

/** Largest request body accepted, in bytes (4 MiB: room for a `compact_transcript` message array). */
export const MAX_HTTP_BODY_BYTES = 4 * 1024 * 1024;
/** An oversized body is read and dropped up to this many bytes so the client gets its 413; past it the connection is closed. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;
/** The only address the HTTP transport binds to. */
export const HTTP_HOST = '127.0.0.1';
/** Path of the MCP endpoint. */
export const HTTP_PATH = '/mcp';

export interface HttpServerOptions extends ServerOptions {
  /** TCP port on 127.0.0.1; 0 picks a free one (see the returned `url`). */
  port: number;
  /** A session with no request for this long is closed (its client must initialize again). Default 30 minutes. */
  sessionIdleMs?: number;
  /**
   * Bearer token every request must carry (`Authorization: Bearer <token>`), 32-512 characters
   * of A-Z a-z 0-9 _ -. Default: the one stored in `<home>/mcp-http.token` (mode 0600), created
   * on first start.
   */
  token?: string;
  /**
   * Browser origins allowed besides the server's own (`http://127.0.0.1:<port>`,
   * `http://localhost:<port>`), compared exactly (scheme, host and port). A request with any
   * other `Origin` header is refused (403); requests without one (CLI clients) are not affected.
   */
  allowedOrigins?: string[];
}

export interface RunningHttpServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  port: number;
  /** The bearer token clients must send. */
  token: string;
  /** Where the token is stored (undefined when it was given as an option). */
  tokenPath?: string;
  /** Origins a browser request may come from (exact). */
  allowedOrigins: string[];
  /** Number of open MCP sessions. */
  sessions(): number;
  /** Close every session, the listener and the mind. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
}

/**
 * Serve MCP over streamable HTTP on 127.0.0.1 only (never another interface), one MCP
 * session per client (`Mcp-Session-Id`), all sharing one mind. Every request passes, in order:
 * the Host check (`127.0.0.1:<port>` or `localhost:<port>`, else 403: DNS rebinding), the
 * Origin check (absent, or exactly one of {@link RunningHttpServer.allowedOrigins}, else 403),
 * the bearer token (else 401 with `WWW-Authenticate: Bearer`), the path (`/mcp`, else 404)
 * and the body size (over {@link MAX_HTTP_BODY_BYTES}: 413, the connection kept).
 * Throws RangeError for a bad port, token or origin; rejects when the port is taken or the
 * token file cannot be read or written.
 */
export async function serveHttp(opts: HttpServerOptions): Promise<RunningHttpServer> {
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) throw new RangeError(`port must be an integer 0-65535, got ${opts.port}`);
  const idleMs = opts.sessionIdleMs ?? 30 * 60_000;
  if (!Number.isInteger(idleMs) || idleMs < 1_000) throw new RangeError(`sessionIdleMs must be an integer >= 1000, got ${opts.sessionIdleMs}`);
  // loaded here, not at module load: a stdio server never pays for the HTTP stack
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const extraOrigins = (opts.allowedOrigins ?? []).map(normalizeOrigin);
  const fromOption = opts.token !== undefined ? { token: checkToken(opts.token) } : undefined;
  const ctx = new ServerContext(opts);
  let auth: { token: string; path?: string };
  try {
    auth = fromOption ?? (await loadOrCreateToken((await import('@hive-mind/mind')).mindHome(ctx.env), ctx.log));
  } catch (err) {
    ctx.close();
    throw err;
  }
  const sessions = new Map<string, Session>();
  let port = opts.port;
  let origins = new Set<string>();

  const jsonError = (res: ServerResponse, status: number, code: number, message: string) => {
    if (res.headersSent) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // DNS-rebinding protection before anything else (the SDK transport checks again per session).
    const host = req.headers.host ?? '';
    if (host !== `${HTTP_HOST}:${port}` && host !== `localhost:${port}`) return jsonError(res, 403, -32000, `forbidden Host header ${JSON.stringify(host)}`);
    // A browser page always sends Origin on cross-site requests; only the allowed origins, exactly, may talk
    // to us (MCP Streamable HTTP transport, security warning: validate Origin). A page on another localhost
    // port is another program, not us.
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase())) return jsonError(res, 403, -32000, `forbidden Origin header ${JSON.stringify(origin)}; allowed: ${[...origins].join(', ')} (--allow-origin adds one)`);
    if (!bearerMatches(req.headers.authorization, auth.token)) {
      if (res.headersSent) return;
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="hive-mind"' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: `the bearer token is missing or wrong; send "Authorization: Bearer <token>" (the token is in ${auth.path ?? 'the server options'})` }, id: null }));
      return;
    }
    const url = new URL(req.url ?? '/', `http://${HTTP_HOST}`);
    if (url.pathname !== HTTP_PATH) return jsonError(res, 404, -32601, `not found: the MCP endpoint is ${HTTP_PATH}`);
    const sid = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sid) ? sid[0] : sid;
    if (req.method === 'POST') {
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req));
      } catch (err) {
        if (err instanceof BodyTooLarge && err.close) {
          // the rest of the body is not read: answer, then close the connection once the answer is out
          res.setHeader('connection', 'close');
          res.on('finish', () => req.socket.destroy());
        }
        return jsonError(res, err instanceof BodyTooLarge ? 413 : 400, -32700, err instanceof Error ? err.message : 'parse error');
      }
      if (sessionId) {
        const s = sessions.get(sessionId);
        if (!s) return jsonError(res, 404, -32001, `unknown session ${sessionId}; initialize a new one`);
        s.lastSeen = Date.now();
        return s.transport.handleRequest(req, res, body);
      }
      if (!isInitializeRequest(body)) return jsonError(res, 400, -32000, 'no Mcp-Session-Id header: the first request must be initialize');
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableDnsRebindingProtection: true,
        allowedHosts: [`${HTTP_HOST}:${port}`, `localhost:${port}`],
        onsessioninitialized: (id) => {
          sessions.set(id, { transport, server, lastSeen: Date.now() });
        },
      });
      const server = createMcpServer(ctx, `http-${randomUUID()}`);
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      return transport.handleRequest(req, res, body);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      const s = sessionId ? sessions.get(sessionId) : undefined;
      if (!s) return jsonError(res, sessionId ? 404 : 400, -32000, sessionId ? `unknown session ${sessionId}` : 'missing Mcp-Session-Id header');
      s.lastSeen = Date.now();
      return s.transport.handleRequest(req, res);
    }
    res.setHeader('allow', 'GET, POST, DELETE');
    return jsonError(res, 405, -32000, `method ${req.method} not allowed`);
  };

  const http: Server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      ctx.log(`http request failed: ${err instanceof Error ? err.message : String(err)}`);
      jsonError(res, 500, -32603, 'internal error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port, HTTP_HOST, () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  origins = new Set([...ownOrigins(HTTP_HOST, port), ...extraOrigins]);
  http.on('error', (err) => ctx.log(`http server error: ${err.message}`));
  // `Expect: 100-continue` (curl sends it for large bodies): a declared body over the limit is
  // answered 413 before the client sends it, never with a reset connection.
  http.on('checkContinue', (req, res) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_HTTP_BODY_BYTES) {
      res.setHeader('connection', 'close');
      res.on('finish', () => req.socket.destroy());
      return jsonError(res, 413, -32700, `request body of ${declared} bytes is over the limit of ${MAX_HTTP_BODY_BYTES} bytes`);
    }
    res.writeContinue();
    http.emit('request', req, res);
  });
  // sessions a client abandoned without DELETE are closed after idleMs
  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const [id, s] of sessions) {
        if (now - s.lastSeen <= idleMs) continue;
        sessions.delete(id);
        void s.transport.close().catch(() => undefined);
        void s.server.close().catch(() => undefined);
      }
    },
    Math.min(idleMs, 60_000),
  );
  sweeper.unref();

  return {
    url: `http://${HTTP_HOST}:${port}${HTTP_PATH}`,
    port,
    token: auth.token,
    ...(auth.path ? { tokenPath: auth.path } : {}),
    allowedOrigins: [...origins],
    sessions: () => sessions.size,
    close: async () => {
      clearInterval(sweeper);
      for (const s of [...sessions.values()]) {
        await s.transport.close().catch(() => undefined);
        await s.server.close().catch(() => undefined);
      }
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
      ctx.close();
    },
  };
}

class BodyTooLarge extends Error {
  /** True when the rest of the body was not read: the connection is closed after the 413. */
  constructor(
    message: string,
    readonly close = false,
  ) {
    super(message);
  }
}

/**
 * The request body as text. Over {@link MAX_HTTP_BODY_BYTES} it rejects with BodyTooLarge once
 * the client has sent everything (the rest is read and dropped, so the client gets a 413
 * response rather than a reset connection); past {@link MAX_DRAIN_BYTES} the connection is closed.
 */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_DRAIN_BYTES) {
      req.pause();
      reject(new BodyTooLarge(`request body of ${declared} bytes is over the limit of ${MAX_HTTP_BODY_BYTES} bytes`, true));
      return;
    }
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_DRAIN_BYTES) {
        req.pause();
        reject(new BodyTooLarge(`request body over ${MAX_HTTP_BODY_BYTES} bytes`, true));
        return;
      }
      if (size <= MAX_HTTP_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => {
      if (size > MAX_HTTP_BODY_BYTES) reject(new BodyTooLarge(`request body of ${size} bytes is over the limit of ${MAX_HTTP_BODY_BYTES} bytes`));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}
