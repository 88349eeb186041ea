/**
 * Fast start of the stdio server. Importing the MCP SDK and zod is most of the server's
 * start-up (bench/mcp.mjs), yet the first messages a host sends, `initialize` and `tools/list`,
 * have answers fixed by this build. `npm run build` records them from the SDK server itself
 * (write-start-manifest.ts: `dist/start-manifest.json`); at start the stdio server answers
 * them, and `ping`, from that record before loading the SDK, then hands the stream over to
 * the real server: it is given the `initialize` request again (so it knows the client's
 * capabilities and name) with its answer dropped, then every later message in order. A record
 * whose fingerprint (the server's compiled files, the SDK and zod versions) or limits differ
 * from this process's is not used: the server then starts the ordinary way.
 * Env `HIVE_MIND_MCP_FAST_START=0` turns the fast start off.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PassThrough, Writable, type Readable } from 'node:stream';
import type { Limits } from './limits.js';

/** The record's file name, beside the compiled server. */
export const START_MANIFEST_FILE = 'start-manifest.json';
/** Bytes of one line the fast reader buffers before handing over (the SDK's stdio limit: the SDK then reports it). */
const MAX_LINE_BYTES = 10 * 1024 * 1024;
const FORMAT = 1;

type JsonRpcId = string | number;

/** What the build recorded (see write-start-manifest.ts). */
export interface StartManifest {
  format: number;
  /** {@link serverFingerprint} of the build that wrote it. */
  fingerprint: string;
  /** The limits the answers were recorded with. */
  limits: Limits;
  /** The SDK's `LATEST_PROTOCOL_VERSION` and `SUPPORTED_PROTOCOL_VERSIONS`: the server answers a requested version it supports with that version, any other with the latest. */
  latestProtocolVersion: string;
  supportedProtocolVersions: string[];
  /** The SDK server's whole JSON-RPC responses to `initialize` (asked with the latest version) and to `tools/list`, as sent. */
  initialize: { result: { protocolVersion: string } & Record<string, unknown> } & Record<string, unknown>;
  toolsList: Record<string, unknown>;
}

const here = dirname(fileURLToPath(import.meta.url));

/** The version in the package.json of the package that `specifier` resolves into. */
function packageVersion(specifier: string): string {
  let dir = dirname(fileURLToPath(import.meta.resolve(specifier)));
  for (;;) {
    const p = join(dir, 'package.json');
    if (existsSync(p)) {
      const pkg = JSON.parse(readFileSync(p, 'utf8')) as { name?: string; version?: string };
      if (pkg.name && pkg.version) return `${pkg.name}@${pkg.version}`;
    }
    const up = dirname(dir);
    if (up === dir) return `${specifier}@unknown`;
    dir = up;
  }
}

/**
 * sha256 over the compiled server modules in this folder (every `.js` file, by name) and the
 * versions of the MCP SDK and zod (which build the tool list's JSON Schemas): what the recorded
 * answers depend on.
 */
export function serverFingerprint(dir = here): string {
  const h = createHash('sha256');
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.js')).sort()) h.update(f).update('\0').update(readFileSync(join(dir, f))).update('\0');
  h.update(packageVersion('@modelcontextprotocol/sdk/server/mcp.js')).update('\0').update(packageVersion('zod'));
  return h.digest('hex');
}

/**
 * The build's record when it is there and matches this build and `limits`; else undefined
 * (the reason goes to `log` when a record exists but does not match).
 */
export function loadStartManifest(limits: Limits, env: NodeJS.ProcessEnv, log: (line: string) => void, dir = here): StartManifest | undefined {
  if (env.HIVE_MIND_MCP_FAST_START === '0') return undefined;
  const file = join(dir, START_MANIFEST_FILE);
  let m: StartManifest;
  try {
    m = JSON.parse(readFileSync(file, 'utf8')) as StartManifest;
  } catch {
    return undefined; // a source run (tests through src/) or a build without the record
  }
  if (m.format !== FORMAT || m.limits?.maxResultChars !== limits.maxResultChars || m.limits?.previewChars !== limits.previewChars) return undefined;
  if (m.fingerprint !== serverFingerprint(dir)) {
    log(`${file} was recorded for another build (the server files or the SDK or zod version differ); starting without the fast start (npm run build records it again)`);
    return undefined;
  }
  return m;
}

type Message = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };

const isId = (v: unknown): v is JsonRpcId => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The recorded answer to `msg` with its id, or undefined when the real server must answer (anything not exactly an initialize, a first-page tools/list or a ping). */
function recordedAnswer(m: StartManifest, msg: Message): Record<string, unknown> | undefined {
  if (msg.jsonrpc !== '2.0' || !isId(msg.id)) return undefined;
  const p = msg.params;
  if (msg.method === 'initialize') {
    if (!isObject(p) || typeof p.protocolVersion !== 'string' || !isObject(p.capabilities) || !isObject(p.clientInfo)) return undefined;
    if (typeof p.clientInfo.name !== 'string' || typeof p.clientInfo.version !== 'string') return undefined;
    const protocolVersion = m.supportedProtocolVersions.includes(p.protocolVersion) ? p.protocolVersion : m.latestProtocolVersion;
    return { ...m.initialize, result: { ...m.initialize.result, protocolVersion }, id: msg.id };
  }
  // a params object with anything but `_meta` (a cursor, say) goes to the real server
  const plain = p === undefined || (isObject(p) && Object.keys(p).every((k) => k === '_meta'));
  if (msg.method === 'tools/list' && plain) return { ...m.toolsList, id: msg.id };
  if (msg.method === 'ping' && plain) return { result: {}, jsonrpc: '2.0', id: msg.id };
  return undefined;
}

/** How the fast start reaches the real server. */
export interface FastStartHooks {
  /** Load the SDK server and connect it to these streams (the SDK's stdio transport over them). */
  connect(input: Readable, output: Writable): Promise<void>;
  /** Called when connecting failed (the server cannot run). */
  onFailure(err: unknown): void;
}

/**
 * Serve `stdin`/`stdout` from the record until a message needs the real server, then connect it
 * (see the module comment). Returns `stop`, which stops reading (for shutdown before the hand-over).
 */
export function startFast(m: StartManifest, hooks: FastStartHooks, stdin: Readable = process.stdin, stdout: Writable = process.stdout): { stop: () => void } {
  let buffered: Buffer = Buffer.alloc(0);
  /** Lines the real server gets first: the initialize request and the initialized notification. */
  const replay: Buffer[] = [];
  /** Lines that came once loading began, in order. */
  const queued: Buffer[] = [];
  let initializeId: JsonRpcId | undefined;
  let loading = false;
  let input: PassThrough | undefined;

  const write = (obj: unknown) => stdout.write(JSON.stringify(obj) + '\n');

  const load = () => {
    if (loading) return;
    loading = true;
    const pass = new PassThrough();
    // the real server's answer to the replayed initialize was given already: drop it, pass the rest
    let dropPending = initializeId !== undefined;
    const output = new Writable({
      write(chunk: Buffer, _enc, done) {
        if (dropPending) {
          try {
            const out = JSON.parse(chunk.toString('utf8')) as Message;
            if (out.id === initializeId && out.method === undefined && ('result' in out || 'error' in out)) {
              dropPending = false;
              return done();
            }
          } catch {
            // not one whole message: pass it on
          }
        }
        if (stdout.write(chunk)) done();
        else stdout.once('drain', () => done());
      },
    });
    hooks.connect(pass, output).then(
      () => {
        input = pass;
        for (const l of [...replay, ...queued]) pass.write(l);
        if (buffered.length) pass.write(buffered);
        replay.length = queued.length = 0;
        buffered = Buffer.alloc(0);
      },
      (err) => hooks.onFailure(err),
    );
  };

  const line = (raw: Buffer) => {
    if (loading) return void queued.push(raw);
    let msg: Message | undefined;
    try {
      const parsed = JSON.parse(raw.toString('utf8')) as unknown;
      msg = isObject(parsed) ? (parsed as Message) : undefined;
    } catch {
      msg = undefined;
    }
    const answer = msg && recordedAnswer(m, msg);
    if (msg && answer) {
      write(answer);
      if (msg.method === 'initialize') {
        replay.push(raw);
        initializeId = msg.id as JsonRpcId;
      }
      // the handshake is over: load the real server while the host is busy with the tool list
      if (msg.method === 'tools/list') setImmediate(load);
      return;
    }
    if (msg && msg.method === 'notifications/initialized' && msg.id === undefined) return void replay.push(raw);
    queued.push(raw);
    load();
  };

  const onData = (chunk: Buffer) => {
    if (input) return void input.write(chunk);
    if (loading) {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      return;
    }
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
    let nl: number;
    while (!loading && (nl = buffered.indexOf(10)) !== -1) {
      const raw = buffered.subarray(0, nl + 1);
      buffered = buffered.subarray(nl + 1);
      line(raw);
    }
    if (!loading && buffered.length > MAX_LINE_BYTES) load();
  };
  const onEnd = () => input?.end();
  stdin.on('data', onData);
  stdin.on('end', onEnd);
  return {
    stop: () => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
    },
  };
}
