import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';

/**
 * Who may talk to the UI server. It listens on 127.0.0.1 only, and every request must pass, in order:
 *
 * 1. **Host**: exactly `127.0.0.1:<port>` or `localhost:<port>`. A page on another name that
 *    resolves to 127.0.0.1 (DNS rebinding) sends its own name and is refused.
 * 2. **Origin**, when the browser sends one: the same two origins. `null` and any other origin
 *    (`http://localhost:9999`, another local app) are refused; Chromium sends Origin on every POST,
 *    so a form posted from another page never reaches a handler.
 * 3. **Sec-Fetch-Site**, when sent: only `same-origin` and `none` (the person typed or pasted the
 *    URL). `same-site` is refused too: another port of localhost is the same *site*.
 * 4. **The token**, random per run (32 bytes, hex): the page is served only to `?token=<t>` or
 *    to the cookie set by that first load (HttpOnly, SameSite=Strict, named after the port);
 *    `/api/*` needs the header `X-Hive-Mind-Token: <t>`, which only the served page knows (a
 *    custom header also forces a CORS preflight, which this server never grants). Compared in
 *    constant time.
 * 5. **Writes** (any method but GET/HEAD) must be `Content-Type: application/json`, which an HTML
 *    form cannot send.
 *
 * A refused request gets 403 (401 for a missing or wrong token) and a one-line reason; no handler
 * runs, so nothing is read or changed.
 */

/** Header that carries the token on API calls. */
export const TOKEN_HEADER = 'x-hive-mind-token';

/** A new per-run token: 32 random bytes as 64 hex digits. */
export function newToken(): string {
  return randomBytes(32).toString('hex');
}

/** The cookie the first load sets; named after the port, since cookies are shared across the ports of a host. */
export function cookieName(port: number): string {
  return `hive_mind_ui_${port}`;
}

function sameToken(given: string | undefined | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(token, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieOf(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/** What {@link guard} checks against. `port()` is read per request (the port is known once listening). */
export interface GuardOptions {
  token: string;
  port: () => number;
}

/** The hono middleware enforcing the rules of this module (see the module comment). */
export function guard(opts: GuardOptions): MiddlewareHandler {
  return async (c, next) => {
    const port = opts.port();
    const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
    const refuse = (status: 401 | 403, why: string) => {
      c.header('Cache-Control', 'no-store');
      return c.text(`refused: ${why}\n`, status);
    };
    const host = c.req.header('host');
    if (!host || !hosts.includes(host.toLowerCase())) return refuse(403, `foreign Host ${JSON.stringify(host ?? '')}; this server answers only ${hosts.join(' and ')}`);
    const origin = c.req.header('origin');
    if (origin !== undefined && !hosts.some((h) => origin.toLowerCase() === `http://${h}`)) return refuse(403, `foreign Origin ${JSON.stringify(origin)}`);
    const site = c.req.header('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return refuse(403, `a ${site} request`);
    const path = c.req.path;
    const cookie = cookieOf(c.req.header('cookie'), cookieName(port));
    if (path.startsWith('/api/')) {
      if (!sameToken(c.req.header(TOKEN_HEADER), opts.token)) return refuse(401, `missing or wrong ${TOKEN_HEADER} header`);
    } else {
      const query = c.req.query('token');
      if (sameToken(query, opts.token)) {
        c.header('Set-Cookie', `${cookieName(port)}=${opts.token}; HttpOnly; SameSite=Strict; Path=/`);
      } else if (!sameToken(cookie, opts.token)) {
        return refuse(401, 'missing or wrong token: open the URL that `hive-mind ui` printed (it holds the token)');
      }
    }
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD') {
      const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') return refuse(403, `a ${method} must be application/json, got ${JSON.stringify(type)}`);
    }
    await next();
  };
}

/** Headers on every answer: no framing, no sniffing, no referrer (the URL holds the token), only our own scripts and styles. */
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};
