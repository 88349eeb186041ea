import { MindError } from './errors.js';
import { IMPORTANCE_RANK, type FrameInput, type Importance, type SaveResult } from './frame.js';
import type { StoreContext } from './context.js';
import { redactSecrets } from './redact.js';
import { scanThreats } from './threats.js';
import { chunkText, cleanText, contentHash } from './text.js';
import { validateInput } from './validate.js';

/**
 * The save pipeline, in order: validate -> clean (NUL removed, invalid UTF-16 replaced) -> size
 * check -> redact secrets -> threat scan (flagged content is stored quarantined) -> chunk when longer
 * than `chunkChars` ({@link prepareSave}, outside any transaction); then, inside the caller's
 * `BEGIN IMMEDIATE` transaction, idempotency on (host, sessionId, turnId, kind) -> dedupe by normalized
 * content hash among live frames of the same scope -> insert -> supersede ({@link saveOne}).
 */

/** A validated, cleaned, redacted, scanned and chunked input, ready for {@link saveOne}. */
export interface PreparedSave {
  input: FrameInput;
  chunks: string[];
  redactions: string[];
  threats: string[];
  notices: string[];
}

export function prepareSave(ctx: StoreContext, input: FrameInput, i: number): PreparedSave {
  validateInput(input, i);
  const notices: string[] = [];
  const cleaned = cleanText(input.content);
  if (cleaned.nulRemoved) notices.push(`removed ${cleaned.nulRemoved} NUL character(s)`);
  if (cleaned.invalidReplaced) notices.push(`replaced ${cleaned.invalidReplaced} invalid character(s) with U+FFFD`);
  const text = cleaned.text.trim();
  if (!text) throw new MindError(`frame input${i >= 0 ? ` #${i}` : ''}: field \`content\` is empty`, 'INVALID');
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > ctx.config.maxContentBytes) {
    throw new MindError(
      `frame input${i >= 0 ? ` #${i}` : ''}: content is ${bytes} bytes, over the ${ctx.config.maxContentBytes}-byte limit (maxContentBytes); nothing was saved. Split it, or harvest a transcript with \`hive-mind mind import\``,
      'TOO_LARGE',
    );
  }
  const red = redactSecrets(text);
  const threats = scanThreats(red.text);
  const chunks = chunkText(red.text, ctx.config.chunkChars);
  if (chunks.length > 1) notices.push(`content of ${red.text.length} characters split into ${chunks.length} parts of at most ${ctx.config.chunkChars} characters`);
  return { input, chunks, redactions: red.redactions, threats, notices };
}

export function saveOne(ctx: StoreContext, p: PreparedSave): SaveResult {
  const { input, chunks, redactions, threats, notices } = p;
  const nowIso = ctx.now().toISOString();
  const kind = input.kind ?? 'fact';
  const importance = input.importance ?? 'normal';
  const scope = input.scope ?? 'personal';
  const host = input.host ?? '';
  const sessionId = input.sessionId ?? '';
  const turnId = input.turnId ?? '';
  const quarantined = threats.length > 0;
  if (input.supersedes != null) {
    const old = ctx.stmt('SELECT id FROM frames WHERE id = ?').get(input.supersedes);
    if (!old) throw new MindError(`frame input: field \`supersedes\`: no frame with id ${input.supersedes} in ${ctx.path}`, 'NOT_FOUND', ctx.path);
  }
  // idempotency: the same (host, session, turn, kind) returns what was saved first
  if (turnId) {
    const rows = ctx.stmt('SELECT id, part FROM frames WHERE host = ? AND session_id = ? AND turn_id = ? AND kind = ? ORDER BY part').all(host, sessionId, turnId, kind) as Array<{ id: number }>;
    if (rows.length > 0) return { id: rows[0]!.id, ids: rows.map((r) => r.id), status: 'idempotent', redactions, threats, notices };
  }
  const ids: number[] = [];
  let status: SaveResult['status'] = quarantined ? 'quarantined' : 'inserted';
  let dupCount = 0;
  for (let part = 0; part < chunks.length; part++) {
    const content = chunks.length > 1 ? chunks[part]! : chunks[0]!;
    const hash = contentHash(content);
    const dup = ctx.stmt(
      'SELECT id, importance, quarantined FROM frames WHERE content_hash = ? AND scope = ? AND superseded_by IS NULL AND thread_key = ? AND workspace = ? LIMIT 1',
    ).get(hash, scope, input.threadKey ?? '', input.workspace ?? '') as { id: number; importance: Importance; quarantined: number } | undefined;
    if (dup && input.supersedes == null) {
      if (IMPORTANCE_RANK[importance] > IMPORTANCE_RANK[dup.importance]) {
        ctx.stmt('UPDATE frames SET importance = ?, updated_at = ?, expires_at = CASE WHEN ? = \'temporary\' THEN expires_at ELSE NULL END WHERE id = ?').run(importance, nowIso, importance, dup.id);
      } else {
        ctx.stmt('UPDATE frames SET updated_at = ? WHERE id = ?').run(nowIso, dup.id);
      }
      ids.push(dup.id);
      dupCount++;
      continue;
    }
    const info = ctx.stmt(
      `INSERT INTO frames (content, kind, importance, scope, source, host, session_id, turn_id, thread_key, workspace, tags, content_hash,
         created_at, updated_at, expires_at, supersedes, quarantined, threats, redactions, part, parts, part_of)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      content,
      kind,
      importance,
      scope,
      input.source ?? 'agent_inferred',
      host,
      sessionId,
      turnId,
      input.threadKey ?? '',
      input.workspace ?? '',
      JSON.stringify(input.tags ?? []),
      hash,
      input.createdAt ? new Date(input.createdAt).toISOString() : nowIso,
      nowIso,
      input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
      part === 0 ? (input.supersedes ?? null) : null,
      quarantined ? 1 : 0,
      JSON.stringify(threats),
      JSON.stringify(redactions),
      part,
      chunks.length,
      part === 0 || ids.length === 0 ? null : ids[0]!,
    );
    ids.push(Number(info.lastInsertRowid));
  }
  if (dupCount === chunks.length) status = 'duplicate';
  let outNotices = notices;
  if (chunks.length > 1 && dupCount > 0 && dupCount < chunks.length) {
    // parts are deduplicated like any frame (against stored frames and against earlier parts of this save)
    outNotices = [...notices, `${dupCount} of ${chunks.length} parts were identical to text already stored (or to an earlier part) and were not stored again; ids lists the existing frames for them`];
  }
  if (input.supersedes != null && ids[0] !== input.supersedes) {
    ctx.stmt('UPDATE frames SET superseded_by = ?, updated_at = ? WHERE id = ?').run(ids[0]!, nowIso, input.supersedes);
  }
  return { id: ids[0]!, ids, status, redactions, threats, notices: outNotices };
}
