/**
 * The files hive-mind installs as an OpenClaw hook directory (`~/.openclaw/hooks/hive-mind/`),
 * laid out per OpenClaw's hooks documentation ("Hook Structure"): `HOOK.md` (YAML
 * frontmatter: name, description, `metadata.openclaw.events`) and `handler.ts` (default
 * export called with each event). `handler.ts` only re-exports `handler.mjs`, plain ESM
 * JavaScript that the Gateway (and our tests, on plain Node) can load.
 *
 * What the handler does inside the Gateway, per event (never throws; failures go to
 * `console.error`, and the Gateway carries on):
 * - `agent:bootstrap`: runs `hive-mind hook openclaw agent:bootstrap` (awaited, with a
 *   time cap) and, when it prints `{"context": "…"}`, appends a bootstrap file
 *   `{ name: "MEMORY.md", path: "<workspace>/.hive-mind/recall.md", content, missing: false }`
 *   to `event.context.bootstrapFiles` (documented as mutable by hooks). Remembers the
 *   workspace for the session key.
 * - `message:received`: first flushes the previous turn's pending sends for that session,
 *   then forwards the message (not awaited: the Gateway is not slowed down).
 * - `message:sent`: successful sends are buffered per session and flushed once per turn:
 *   after `HIVE_MIND_OPENCLAW_DEBOUNCE_MS` (default 1500 ms) without another send, or when
 *   the next message arrives, or before compaction.
 * - `session:compact:before`: flushes pending sends, then runs cleanup (awaited, capped).
 * Only documented, primitive context fields are forwarded; `cfg` (which may hold secrets)
 * and `bootstrapFiles` never leave the Gateway.
 */
import { settingDefault } from '@hive-mind/mind/settings';
import { OPENCLAW_INSTALLED_EVENTS } from './openclaw.js';

/** Directory name of our hook under `~/.openclaw/hooks/`. */
export const OPENCLAW_HOOK_NAME = 'hive-mind';
/** Default debounce of `message:sent`, in ms. */
const OPENCLAW_DEBOUNCE_MS = settingDefault('HIVE_MIND_OPENCLAW_DEBOUNCE_MS');

/** HOOK.md text. */
export function openclawHookMd(): string {
  const meta = JSON.stringify({ openclaw: { emoji: '🧠', events: OPENCLAW_INSTALLED_EVENTS, requires: { bins: ['node'] } } });
  return `---
name: ${OPENCLAW_HOOK_NAME}
description: "hive-mind lasting memory: recall at agent bootstrap, capture of messages, cleanup before compaction"
metadata: ${meta}
---

# hive-mind

Installed by \`hive-mind install openclaw\`; removed by \`hive-mind uninstall openclaw\`.

- **agent:bootstrap**: recalls what hive-mind remembers for this workspace and adds it as a bootstrap file.
- **message:received**: saves the inbound message (a prompt) as a temporary memory.
- **message:sent**: saves the reply of each turn once (sends of one turn are debounced, \`HIVE_MIND_OPENCLAW_DEBOUNCE_MS\`, default ${OPENCLAW_DEBOUNCE_MS} ms).
- **session:compact:before**: runs hive-mind's memory cleanup before OpenClaw compacts the session.

Each event runs \`hive-mind hook openclaw <event>\` as a child process; failures are logged to \`~/.hive-mind/logs/hooks.log\` and never stop the Gateway.
`;
}

/** handler.ts text: re-exports handler.mjs (OpenClaw looks for handler.ts). */
export function openclawHandlerTs(): string {
  return `// Installed by hive-mind. The implementation is plain JavaScript in handler.mjs.\nexport { default } from './handler.mjs';\n`;
}

/**
 * handler.mjs text. `prefix` is the shell command prefix that runs hive-mind (e.g.
 * `'/usr/bin/node' '/opt/hive-mind/bin/hive-mind.js'`); it is embedded as a JSON string.
 */
export function openclawHandlerMjs(prefix: string): string {
  return `// Installed by hive-mind (hive-mind install openclaw). Do not edit: reinstall instead.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const PREFIX = ${JSON.stringify(prefix)};
// the rule of hive-mind's settings table (positive integers, else the default), inlined: this file runs inside OpenClaw
const positive = (v, d) => (Number.isInteger(Number(v)) && Number(v) > 0 ? Number(v) : d);
const DEBOUNCE_MS = positive(process.env.HIVE_MIND_OPENCLAW_DEBOUNCE_MS, ${OPENCLAW_DEBOUNCE_MS});
const TIMEOUT_MS = positive(process.env.HIVE_MIND_OPENCLAW_TIMEOUT_MS, ${settingDefault('HIVE_MIND_OPENCLAW_TIMEOUT_MS')});

const workspaces = new Map(); // session key -> workspace dir seen at agent:bootstrap
const lastInbound = new Map(); // session key -> message id of the last inbound message
const pending = new Map(); // session key -> { parts, ids, to, channelId, conversationId, timer }

function pick(ctx, keys) {
  const out = {};
  for (const k of keys) {
    const v = ctx && ctx[k];
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
  }
  return out;
}

function run(event, payload) {
  return new Promise((resolve) => {
    let out = '';
    let done = false;
    const finish = () => {
      if (!done) {
        done = true;
        clearTimeout(timer);
        resolve(out);
      }
    };
    let child;
    try {
      child = spawn(PREFIX + ' hook openclaw ' + event, { shell: true, stdio: ['pipe', 'pipe', 'ignore'] });
    } catch (e) {
      console.error('[hive-mind] cannot start hook:', e && e.message);
      resolve('');
      return;
    }
    const timer = setTimeout(() => {
      try { child.kill('SIGKILL'); } catch {}
      finish();
    }, TIMEOUT_MS);
    if (timer.unref) timer.unref();
    child.stdout.on('data', (d) => { out += d; });
    child.on('error', (e) => { console.error('[hive-mind] hook failed:', e && e.message); finish(); });
    child.on('close', finish);
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

function keyOf(event) {
  const c = event.context || {};
  return event.sessionKey || c.sessionKey || c.conversationId || c.channelId || 'default';
}

function envelope(event, context, extra) {
  const key = keyOf(event);
  const ts = event.timestamp instanceof Date ? event.timestamp.toISOString() : event.timestamp;
  const hiveMind = Object.assign({}, workspaces.has(key) ? { workspaceDir: workspaces.get(key) } : {}, extra || {});
  return { type: event.type, action: event.action, sessionKey: event.sessionKey, timestamp: ts, context, hiveMind };
}

function flush(key) {
  const p = pending.get(key);
  if (!p) return Promise.resolve('');
  pending.delete(key);
  clearTimeout(p.timer);
  const context = { content: p.parts.join('\\n\\n'), success: true };
  for (const k of ['to', 'channelId', 'accountId', 'conversationId']) if (p[k] !== undefined) context[k] = p[k];
  if (p.ids.length) context.messageId = p.ids[p.ids.length - 1];
  const turn = { messageIds: p.ids, count: p.parts.length };
  if (p.inReplyTo) turn.inReplyTo = p.inReplyTo;
  return run('message:sent', envelope(p.event, context, { turn }));
}

const handler = async (event) => {
  try {
    if (!event || typeof event !== 'object') return;
    const name = event.type + ':' + event.action;
    const ctx = event.context || {};
    const key = keyOf(event);
    if (name === 'agent:bootstrap') {
      if (typeof ctx.workspaceDir === 'string' && ctx.workspaceDir) workspaces.set(key, ctx.workspaceDir);
      const out = await run(name, envelope(event, pick(ctx, ['workspaceDir', 'sessionKey', 'sessionId', 'agentId'])));
      let parsed;
      try { parsed = JSON.parse(out); } catch { parsed = undefined; }
      if (parsed && typeof parsed.context === 'string' && parsed.context && Array.isArray(ctx.bootstrapFiles)) {
        ctx.bootstrapFiles.push({
          name: 'MEMORY.md',
          path: join(typeof ctx.workspaceDir === 'string' ? ctx.workspaceDir : '.', '.hive-mind', 'recall.md'),
          content: parsed.context,
          missing: false,
        });
      }
    } else if (name === 'message:received') {
      void flush(key);
      if (typeof ctx.messageId === 'string' && ctx.messageId) lastInbound.set(key, ctx.messageId);
      void run(name, envelope(event, pick(ctx, ['from', 'content', 'timestamp', 'channelId', 'accountId', 'conversationId', 'messageId'])));
    } else if (name === 'message:sent') {
      if (ctx.success === false || typeof ctx.content !== 'string' || !ctx.content) return;
      let p = pending.get(key);
      if (!p) {
        p = { event, parts: [], ids: [], inReplyTo: lastInbound.get(key), timer: undefined };
        pending.set(key, p);
      }
      p.event = event;
      p.parts.push(ctx.content);
      if (typeof ctx.messageId === 'string' && ctx.messageId) p.ids.push(ctx.messageId);
      for (const k of ['to', 'channelId', 'accountId', 'conversationId']) if (typeof ctx[k] === 'string') p[k] = ctx[k];
      clearTimeout(p.timer);
      p.timer = setTimeout(() => { void flush(key); }, DEBOUNCE_MS);
      if (p.timer.unref) p.timer.unref();
    } else if (name === 'session:compact:before') {
      await flush(key);
      await run(name, envelope(event, pick(ctx, ['sessionId', 'messageCount', 'tokenCount', 'messageCountOriginal', 'tokenCountOriginal'])));
    }
  } catch (e) {
    console.error('[hive-mind] hook error:', e && e.message);
  }
};

/** For tests and shutdown: send every pending turn now. */
export async function flushAll() {
  await Promise.all([...pending.keys()].map((k) => flush(k)));
}

export default handler;
`;
}
