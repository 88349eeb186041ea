import type { Hono } from 'hono';
import { Readable } from 'node:stream';
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { Mind, Notes, estimateTokens, neutralize, parseEntries, recallBlockLabels, redactSecrets, scanThreats, workspaceMindPath, personalMindPath, type Frame, type NotesTarget } from '@hive-mind/mind';
import { runHook, recallBudget, workspaceOf } from '@hive-mind/hooks';
import { HOOK_HOSTS, hostRow } from '@hive-mind/transcripts/hosts';
import { ApiError } from './errors.js';

/**
 * What the next session sees: the text SessionStart would inject now for a host and a
 * workspace, produced by the hook runner itself (`runHook`, the code `hive-mind hook HOST EVENT`
 * runs) fed the host's own SessionStart payload, so the preview is the hook's stdout byte for
 * byte (its `<hive-mind-memory-NONCE>` tag aside: the nonce is new for every injection by design).
 * Beside it, why each item is in or out: each notes entry and each frame recall considers, read
 * against the injected text, with the budget (`HIVE_MIND_RECALL_TOKENS`) and the token count
 * the hooks use (the mind's estimate).
 */

/** The session id the preview's payload carries (hosts with a Claude-style schema require one). */
export const PREVIEW_SESSION = 'hive-mind-ui-preview';

/**
 * Each hook host's SessionStart event and payload for a workspace, in the host table's order
 * (`@hive-mind/transcripts/hosts`: the row's `hooks.sessionStart`, fields as each adapter documents them).
 */
export const PREVIEW_HOSTS: Record<string, { event: string; payload: (cwd: string) => Record<string, unknown>; note?: string }> = Object.fromEntries(
  HOOK_HOSTS.map((id) => {
    const start = hostRow(id)!.hooks!.sessionStart;
    return [id, { event: start.event, payload: (cwd: string) => start.payload(cwd, PREVIEW_SESSION), ...(start.note ? { note: start.note } : {}) }];
  }),
);

/** Why a notes entry or a frame is in the injection or not. */
export interface ItemVerdict {
  in: boolean;
  why: string;
  text: string;
  tokens: number;
  id?: number;
  importance?: string;
  kind?: string;
}

/** The preview: the hook's exact stdout, the injected text, its tokens against the budget, and the verdicts. */
export interface NextSession {
  host: string;
  event: string;
  workspace: string | null;
  payload: Record<string, unknown>;
  stdout: string;
  injected: string;
  tokens: number;
  budget: number;
  error?: string;
  note?: string;
  notes: Array<{ file: string; path: string; items: ItemVerdict[] }>;
  minds: Array<{ label: string; path: string; exists: boolean; items: ItemVerdict[]; left: Record<string, number> }>;
}

/** Run the real hook for `host` with `cwd` and explain its output. Throws {@link ApiError} 400 for an unknown host or a relative path. */
export async function nextSession(host: string, cwd: string, env: NodeJS.ProcessEnv): Promise<NextSession> {
  const spec = PREVIEW_HOSTS[host];
  if (!spec) throw new ApiError(400, `host must be one of ${Object.keys(PREVIEW_HOSTS).join(', ')}, got ${JSON.stringify(host)}`);
  if (!isAbsolute(cwd)) throw new ApiError(400, `workspace must be an absolute path, got ${JSON.stringify(cwd)}`);
  const payload = spec.payload(cwd);
  let stdout = '';
  const run = await runHook([host, spec.event], {
    stdin: Readable.from([JSON.stringify(payload)]),
    write: (t) => void (stdout += t),
    env,
    onTimeout: () => undefined, // the watchdog must not end the server
  });
  const injected = findInjection(stdout);
  const budget = recallBudget(env);
  const notes = explainNotes(env, injected);
  const ws = workspaceOf(cwd);
  const sources = [...(ws ? [{ label: `workspace ${ws}`, path: workspaceMindPath(ws, env) }] : []), { label: 'personal', path: personalMindPath(env) }];
  return {
    host,
    event: spec.event,
    workspace: ws ?? null,
    payload,
    stdout,
    injected,
    tokens: injected ? estimateTokens(injected) : 0,
    budget,
    ...(run.error ? { error: run.error } : {}),
    ...(spec.note ? { note: spec.note } : {}),
    notes,
    minds: sources.map((s) => explainMind(s.label, s.path, injected)),
  };
}

/** The `<hive-mind-memory-…>` block inside a host's stdout JSON ('' when nothing is injected). */
export function findInjection(stdout: string): string {
  if (!stdout.trim()) return '';
  let found = '';
  const walk = (v: unknown) => {
    if (found) return;
    if (typeof v === 'string' && v.startsWith('<hive-mind-memory-')) found = v;
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  try {
    walk(JSON.parse(stdout));
  } catch {
    /* not JSON: nothing injected */
  }
  return found;
}

function explainNotes(env: NodeJS.ProcessEnv, injected: string): NextSession['notes'] {
  const notes = new Notes({ env });
  const thread = env.HIVE_MIND_THREAD?.trim() || undefined;
  const out: NextSession['notes'] = [];
  const targets: NotesTarget[] = [{ file: 'user' }, thread ? { file: 'memory', thread } : { file: 'memory' }];
  for (const t of targets) {
    let state = notes.read(t);
    if (t.file === 'memory' && t.thread && !state.exists) state = notes.read({ file: 'memory' }); // the fallback render() takes
    const items = parseEntries(state.entries.join('\n§\n')).map((e): ItemVerdict => {
      const shown = neutralize(redactSecrets(e).text);
      const tokens = estimateTokens(e);
      if (injected.includes(shown)) return { in: true, why: 'in the notes block', text: e, tokens };
      if (scanThreats(redactSecrets(e).text).length) return { in: false, why: 'left out: the threat scan flags it', text: e, tokens };
      return { in: false, why: 'left out: does not fit the notes share (60% of the budget) after the entries before it', text: e, tokens };
    });
    out.push({ file: t.file === 'user' ? 'USER.md' : 'MEMORY.md', path: state.path, items });
  }
  return out;
}

const RECALLED_KINDS = new Set(['fact', 'decision', 'preference', 'instruction']);
/** Candidates shown per mind (recall considers at most 120 per importance level). */
const SHOWN = 60;

function explainMind(label: string, path: string, injected: string): NextSession['minds'][number] {
  if (!existsSync(path)) return { label, path, exists: false, items: [], left: {} };
  // the ids of this mind's section of the injection
  const sections = injected.split(/\n(?=## hive-mind )/);
  // its heading says `and team` (or `team`) when team frames came out of it (recallBlockLabel)
  const section = recallBlockLabels(label).map((l) => sections.find((s) => s.startsWith(`## hive-mind memory (${neutralize(l)})\n`) || s.startsWith(`## hive-mind memory (${neutralize(l)}):`))).find((s) => s !== undefined) ?? '';
  const given = new Set([...section.matchAll(/^- \[#(\d+) /gm)].map((m) => Number(m[1])));
  const m = Mind.open(path, { readonly: true });
  try {
    const now = new Date().toISOString();
    const live = (f: Frame) => !f.quarantined && f.supersededBy === null && f.part === 0 && !(f.expiresAt && f.expiresAt <= now);
    const candidates = [
      ...m.list({ importance: 'critical', limit: SHOWN }),
      ...m.list({ importance: 'important', limit: SHOWN }),
      ...m.list({ importance: 'normal', limit: SHOWN * 3 }).filter((f) => RECALLED_KINDS.has(f.kind) || f.kind === 'pending-note'),
    ]
      .filter(live)
      .slice(0, SHOWN);
    let pending = 0;
    const items = candidates.map((f): ItemVerdict => {
      const base = { text: f.content, tokens: estimateTokens(f.content), id: f.id, importance: f.importance, kind: f.kind };
      if (given.has(f.id)) return { ...base, in: true, why: f.importance === 'normal' ? `recalled: a recent ${f.kind}` : `recalled: ${f.importance}` };
      if (f.kind === 'pending-note' && ++pending > 2) return { ...base, in: false, why: 'left out: at most 2 pending notes are recalled' };
      if (scanThreats(redactSecrets(f.content).text).length) return { ...base, in: false, why: 'left out: the recall-time threat scan flags it' };
      return { ...base, in: false, why: 'left out: does not fit the budget left' };
    });
    for (const id of given) if (!candidates.some((f) => f.id === id)) {
      const f = m.get(id);
      if (f) items.push({ text: f.content, tokens: estimateTokens(f.content), id, importance: f.importance, kind: f.kind, in: true, why: 'recalled' });
    }
    const left = {
      'temporary (never recalled at session start)': m.count({ importance: 'temporary' }),
      'deprecated': m.count({ importance: 'deprecated' }),
      'quarantined': m.count({ quarantinedOnly: true }),
      'superseded': m.count({ supersededOnly: true }),
      'expired': m.count({ expiredOnly: true }),
      'normal frames of other kinds (outcome, prompt, …; found by search, not recalled)':
        m.count({ importance: 'normal' }) - [...RECALLED_KINDS, 'pending-note'].reduce((n, kind) => n + m.count({ importance: 'normal', kind }), 0),
    };
    return { label, path, exists: true, items, left };
  } finally {
    m.close();
  }
}

/** Mount `GET /api/next?host=&workspace=` and `GET /api/next/hosts`. */
export function mountNext(app: Hono, env: NodeJS.ProcessEnv): void {
  app.get('/api/next/hosts', (c) => c.json({ hosts: Object.keys(PREVIEW_HOSTS), budget: recallBudget(env) }));
  app.get('/api/next', async (c) => {
    const host = c.req.query('host') ?? 'claude-code';
    const ws = c.req.query('workspace');
    if (!ws) throw new ApiError(400, 'workspace is required: the absolute path of the project the session starts in');
    return c.json(await nextSession(host, ws, env));
  });
}
