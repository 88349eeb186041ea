import { Hono } from 'hono';
import { createAdaptorServer } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { MindError } from '@hive-mind/mind';
import { loadAssets } from './assets.js';
import { ApiError } from './api/errors.js';
import { mountFrames } from './api/frames.js';
import { mountNotes } from './api/notes.js';
import { mountNext } from './api/next.js';
import { mountCompaction, type CompactionIO } from './api/compaction.js';
import { Notes } from '@hive-mind/mind';
import { MindRegistry } from './minds.js';
import { SECURITY_HEADERS, guard, newToken } from './security.js';
import { UndoSlot } from './undo.js';

/** The only address the server listens on. */
export const UI_HOST = '127.0.0.1';

/** Options of {@link startUiServer}. */
export interface UiServerOptions {
  /** TCP port on 127.0.0.1; 0 (default) takes a free one. */
  port?: number;
  /** Environment read for `HIVE_MIND_HOME`, the notes limits, the recall budget. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** The per-run token; default a new random one (tests pass none). */
  token?: string;
  /** Folder of the built page; default `dist/web` of this package. */
  assetsDir?: string;
  /** How compacted files are written: the CLI passes its own rule (`hive-mind compact`'s output and backup). */
  compaction: CompactionIO;
  /** The folder whose session's minds the page shows by default (its workspace mind and the personal mind; minds.ts). Default: the working directory. */
  folder?: string;
}

/** A running server. `url` holds the token: it is what a person opens. */
export interface UiServer {
  url: string;
  origin: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** The hono app: security first (security.ts), then the API, then the page's files. */
export function createApp(opts: { token: string; port: () => number; env: NodeJS.ProcessEnv; assetsDir?: string; compaction: CompactionIO; folder?: string }): { app: Hono; minds: MindRegistry } {
  const assets = loadAssets(opts.assetsDir);
  const minds = new MindRegistry(opts.env, opts.folder);
  const undo = new UndoSlot(minds);
  const app = new Hono();
  app.use('*', async (c, next) => {
    await next();
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(k, v);
  });
  app.use('*', guard({ token: opts.token, port: opts.port }));
  app.use('/api/*', async (c, next) => {
    await next();
    c.res.headers.set('Cache-Control', 'no-store');
  });
  mountFrames(app, minds, undo);
  mountNotes(app, (o = {}) => new Notes({ env: opts.env, ...o }));
  mountNext(app, opts.env);
  mountCompaction(app, opts.env, opts.compaction);
  app.all('/api/*', (c) => c.json({ error: `no such API: ${c.req.method} ${c.req.path}` }, 404));
  const index = assets.get('/index.html')!;
  app.get('*', (c) => {
    const a = c.req.path === '/' ? undefined : assets.get(c.req.path);
    if (a) return c.body(new Uint8Array(a.body), 200, { 'Content-Type': a.type, 'Cache-Control': 'no-cache' });
    if (c.req.path !== '/' && c.req.path !== '/index.html') return c.text('not found\n', 404);
    // the page learns the token from this tag (the URL's copy is dropped from the address bar)
    const html = index.body.toString('utf8').replace('%HIVE_MIND_TOKEN%', opts.token);
    return c.html(html, 200, { 'Cache-Control': 'no-store' });
  });
  app.onError((err, c) => {
    if (err instanceof ApiError) return c.json({ ...err.extra, error: err.message }, err.status);
    if (err instanceof MindError) return c.json({ error: err.message, code: err.code }, err.code === 'NOT_FOUND' ? 404 : err.code === 'INVALID' || err.code === 'EMPTY_QUERY' ? 400 : 500);
    return c.json({ error: `${(err as Error).name}: ${(err as Error).message}` }, 500);
  });
  return { app, minds };
}

/**
 * Start the UI server on 127.0.0.1 (never another interface). Resolves once listening.
 * Throws an Error when the page is not built, or the port is taken (`EADDRINUSE`, naming it).
 */
export async function startUiServer(opts: UiServerOptions): Promise<UiServer> {
  const token = opts.token ?? newToken();
  let port = opts.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`port must be an integer 0-65535, got ${opts.port}`);
  const { app, minds } = createApp({ token, port: () => port, env: opts.env ?? process.env, compaction: opts.compaction, ...(opts.assetsDir ? { assetsDir: opts.assetsDir } : {}), ...(opts.folder ? { folder: opts.folder } : {}) });
  const server = createAdaptorServer({ fetch: app.fetch, hostname: UI_HOST }) as Server;
  await new Promise<void>((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => reject(e.code === 'EADDRINUSE' ? new Error(`port ${port} on ${UI_HOST} is already in use; pick another with --port, or 0 for a free one`) : e);
    server.once('error', onError);
    server.listen(port, UI_HOST, () => {
      server.off('error', onError);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://${UI_HOST}:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => {
          minds.close();
          resolve();
        });
      }),
  };
}
