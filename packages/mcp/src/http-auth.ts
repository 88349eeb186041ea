import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** File under the hive-mind home holding the HTTP server's bearer token (mode 0600). */
export const HTTP_BEARER_FILE = 'mcp-http.token';
/** Environment variable the printed Codex config reads the token from (`bearer_token_env_var`). */
export const TOKEN_ENV = 'HIVE_MIND_MCP_TOKEN';
/** Shape of a token we accept from the file or the `token` option: 32+ URL-safe characters. */
const BEARER_SHAPE = /^[A-Za-z0-9_-]{32,512}$/;

/**
 * The bearer token of the HTTP server: the one stored in `<home>/mcp-http.token`, or a new
 * one (32 random bytes, base64url) written there with mode 0600 (home created 0700). A stored
 * file readable by group or others is narrowed to 0600 (and `log` says so); a file that does
 * not hold a token is an error, never silently replaced (a client may still be configured with it).
 * @throws Error naming the file when it cannot be read or written, or holds no valid token.
 */
export async function loadOrCreateToken(home: string, log: (line: string) => void): Promise<{ token: string; path: string; created: boolean }> {
  const path = join(home, HTTP_BEARER_FILE);
  let text: string | undefined;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${path}: cannot read the MCP HTTP token: ${(e as Error).message}`);
  }
  if (text !== undefined) {
    const token = text.trim();
    if (!BEARER_SHAPE.test(token)) throw new Error(`${path}: not an MCP HTTP token (expected 32+ characters of A-Z a-z 0-9 _ -); delete the file to make a new one`);
    if ((statSync(path).mode & 0o077) !== 0) {
      chmodSync(path, 0o600);
      log(`${path} was readable by other users; its mode is now 0600`);
    }
    return { token, path, created: false };
  }
  const { ensureDir } = await import('@hive-mind/mind/dirs');
  const { writeFileAtomic } = await import('@hive-mind/mind/atomic');
  const token = randomBytes(32).toString('base64url');
  try {
    ensureDir(home, 0o700);
    writeFileAtomic(path, token + '\n', { mode: 0o600 });
  } catch (e) {
    throw new Error(`${path}: cannot store the MCP HTTP token: ${(e as Error).message}`);
  }
  return { token, path, created: true };
}

/** Check a token given as an option. @throws RangeError when it has not the accepted shape. */
export function checkToken(value: string): string {
  if (!BEARER_SHAPE.test(value)) throw new RangeError('token must be 32-512 characters of A-Z a-z 0-9 _ -');
  return value;
}

/** True when the `Authorization` header is `Bearer <token>` (case-insensitive scheme, constant-time compare). */
export function bearerMatches(header: string | undefined, expected: string): boolean {
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1]!);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Normalize an allowed origin (`scheme://host[:port]`, as browsers send it): lower-case, no
 * path, default ports dropped. @throws RangeError for anything that is not an http(s) origin.
 */
export function normalizeOrigin(origin: string): string {
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    throw new RangeError(`not an origin: ${JSON.stringify(origin)} (expected scheme://host[:port])`);
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash) {
    throw new RangeError(`not an origin: ${JSON.stringify(origin)} (expected http(s)://host[:port], nothing after it)`);
  }
  return u.origin;
}

/** The origins allowed by default: the server's own (`http://127.0.0.1:<port>`, `http://localhost:<port>`). */
export function ownOrigins(host: string, port: number): string[] {
  return [`http://${host}:${port}`, `http://localhost:${port}`];
}

/**
 * Ready-to-paste client configurations for the HTTP server at `url` with `token`:
 * - Claude Code: `claude mcp add --transport http <name> <url> --header "Authorization: Bearer <token>"`
 *   (Claude Code MCP docs, HTTP servers with headers);
 * - Codex (`~/.codex/config.toml`): `[mcp_servers.<name>]` with `url` and
 *   `bearer_token_env_var` (Codex MCP docs: streamable HTTP servers read the token from an
 *   environment variable; an inline token is not accepted);
 * - Cursor (`~/.cursor/mcp.json` or `.cursor/mcp.json`): `{"mcpServers": {<name>: {url, headers}}}`.
 */
export function clientConfigSnippets(url: string, token: string, tokenPath: string, name = 'hive-mind'): string {
  const cursor = JSON.stringify({ mcpServers: { [name]: { url, headers: { Authorization: `Bearer ${token}` } } } }, null, 2);
  return [
    `Claude Code:`,
    `  claude mcp add --transport http ${name} ${url} --header "Authorization: Bearer ${token}"`,
    `Codex (~/.codex/config.toml; export ${TOKEN_ENV}="$(cat ${tokenPath})" where Codex starts):`,
    `  [mcp_servers.${name}]`,
    `  url = "${url}"`,
    `  bearer_token_env_var = "${TOKEN_ENV}"`,
    `Cursor (~/.cursor/mcp.json):`,
    ...cursor.split('\n').map((l) => `  ${l}`),
  ].join('\n');
}
