import { MindError } from '../errors.js';
import { IMPORTANCE_RANK, type FrameInput, type Importance, type SaveResult } from '../frame.js';
import type { StoreContext } from './context.js';
import { redactSecrets } from '../safety/redact.js';
import { scanThreats } from '../safety/threats.js';
import { chunkText, cleanText, contentHash, NEAR_DUPLICATE_JACCARD, nearDuplicateOf, wordSet } from '../text.js';
import { validateInput } from './validate.js';
import { indexText } from '../recall/analyze.js';
import { cutTurn, HISTORY_KINDS_SQL, hostTurnOf, isHistoryKind, storedTurnId } from '../history/history.js';
import { correctionOf, replaces, type Correction } from '../harvest/correction.js';

/**
 * The save pipeline, in order: validate -> clean (NUL removed, invalid UTF-16 replaced) -> size
 * check -> redact secrets -> threat scan (flagged content is stored quarantined) -> chunk when longer
 * than `chunkChars` ({@link prepareSave}, outside any transaction); then, inside the caller's
 * `BEGIN IMMEDIATE` transaction, idempotency on (host, sessionId, turnId, kind) -> dedupe by normalized
 * content hash among live frames of the same scope -> insert -> supersede ({@link saveOne}).
 *
 * A history turn (kind `prompt` or `reply`, history.ts) takes its own path: cut to
 * `HISTORY_TURN_MAX_CHARS`, never deduplicated against other frames, and idempotent on the turn
 * itself (its session, kind and content hash, the host's turn ids permitting).
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
  let text = cleaned.text.trim();
  if (!text) throw new MindError(`frame input${i >= 0 ? ` #${i}` : ''}: field \`content\` is empty`, 'INVALID');
  if (isHistoryKind(input.kind)) {
    // a turn keeps its start and its end (history.ts); a pasted megabyte is not history
    const cut = cutTurn(text);
    if (cut.omitted) notices.push(`turn of ${text.length} characters cut to ${cut.text.length}: ${cut.omitted} characters in the middle not kept`);
    text = cut.text;
  }
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

/** Content at most this long (characters) is checked for near-duplicates; longer content by exact hash only. */
const NEAR_DUPLICATE_MAX_CHARS = 2000;

/** Frames counted at most per word when the rarity of a new frame's words is probed (see {@link findDuplicate}). */
const RARITY_PROBE_CAP = 64;
/** Candidates compared with {@link nearDuplicate} at most, newest first. */
const NEAR_DUPLICATE_CANDIDATES = 32;

/**
 * A live frame of the standing memory (no history turn: the fact a turn states is kept beside it) of
 * the same scope, workspace and thread whose content says the same as `content`:
 * the same normalized hash, or (for short single-part content) a near-duplicate by
 * {@link nearDuplicate} among the newest {@link NEAR_DUPLICATE_CANDIDATES} frames holding two of its
 * four rarest words.
 *
 * Rarity is the number of frames holding a word, counted up to {@link RARITY_PROBE_CAP} (a bounded
 * FTS5 scan in rowid order: the probe of a frequent word costs no more than a rare one's). A word no
 * frame holds cannot be shared and is no candidate word; when fewer of the words are held by any
 * frame than a near-duplicate must share (Jaccard ≥ {@link NEAR_DUPLICATE_JACCARD} over n words
 * means at least ceil(0.8 × n) shared), there is none and no candidate is read. The candidates are
 * read newest first and stop at the limit (no BM25 ordering: ranking every frame holding two of the
 * four longest words scored each frequent word's whole posting list, 15 ms a save at 100k frames).
 */
function findDuplicate(ctx: StoreContext, content: string, hash: string, scope: string, threadKey: string, workspace: string, near: boolean) {
  type Dup = { id: number; importance: Importance; quarantined: number };
  const same = ctx
    .stmt(`SELECT id, importance, quarantined FROM frames WHERE content_hash = ? AND scope = ? AND superseded_by IS NULL AND thread_key = ? AND workspace = ? AND part = 0 AND kind NOT IN (${HISTORY_KINDS_SQL}) LIMIT 1`)
    .get(hash, scope, threadKey, workspace) as Dup | undefined;
  if (same || !near || content.length > NEAR_DUPLICATE_MAX_CHARS) return same;
  const segmented = indexText(content);
  const all = [...wordSet(segmented ?? content)];
  // words FTS5 can look up as typed (a word with an apostrophe is left out, and counted as possibly shared)
  const words = all.filter((w) => /^[\p{L}\p{N}]+$/u.test(w));
  if (words.length < 3) return undefined;
  const probe = ctx.stmt(
    `SELECT j.value AS word, (SELECT count(*) FROM (SELECT 1 FROM frames_fts WHERE frames_fts MATCH '{content tags} : "' || j.value || '"' LIMIT ${RARITY_PROBE_CAP})) AS n FROM json_each(?) j`,
  );
  const held = (probe.all(JSON.stringify(words)) as Array<{ word: string; n: number }>).filter((r) => r.n > 0);
  // a stored frame's words are wordSet(its content): the bound holds for text that is not segmented
  if (segmented === null && held.length + (all.length - words.length) < Math.ceil(NEAR_DUPLICATE_JACCARD * all.length - 1e-9)) return undefined;
  const rarest = held
    .sort((a, b) => a.n - b.n || b.word.length - a.word.length || (a.word < b.word ? -1 : 1))
    .slice(0, 4)
    .map((r) => r.word);
  if (rarest.length < 2) return undefined;
  const pairs: string[] = [];
  for (let i = 0; i < rarest.length; i++) for (let j = i + 1; j < rarest.length; j++) pairs.push(`("${rarest[i]}" AND "${rarest[j]}")`);
  const rows = ctx
    .stmt(
      `SELECT f.id AS id, f.importance AS importance, f.quarantined AS quarantined, f.content AS content FROM frames_fts JOIN frames f ON f.id = frames_fts.rowid
       WHERE frames_fts MATCH ? AND f.scope = ? AND f.superseded_by IS NULL AND f.thread_key = ? AND f.workspace = ? AND f.quarantined = 0 AND f.parts = 1
         AND f.importance NOT IN ('temporary', 'deprecated') AND f.kind NOT IN (${HISTORY_KINDS_SQL})
       ORDER BY frames_fts.rowid DESC LIMIT ${NEAR_DUPLICATE_CANDIDATES}`,
    )
    .all(`{content tags} : (${pairs.join(' OR ')})`, scope, threadKey, workspace) as Array<Dup & { content: string }>;
  const isNear = nearDuplicateOf(content);
  return rows.find((r) => isNear(r.content));
}

/** Live frames read at most when the frames a correction replaces are looked for, newest first. */
const CORRECTION_CANDIDATES = 32;

/**
 * The live standing frames (same scope, workspace and thread; no history turn, no quarantined or
 * deprecated frame) that `content`, a correction (harvest/correction.ts: "… now runs on port 7200,
 * not 7142 any more", "We moved off esbuild; the bundler is now Vite"), replaces: among the newest
 * {@link CORRECTION_CANDIDATES} holding its old value or one of its subject words, those
 * {@link replaces} accepts. Newest first, with their importance.
 */
function correctedFrames(ctx: StoreContext, content: string, c: Correction, scope: string, threadKey: string, workspace: string): Array<{ id: number; importance: Importance }> {
  const words = [...new Set([...c.old, ...c.subject])].filter((w) => /^[\p{L}\p{N}]+$/u.test(w)).slice(0, 12);
  if (!words.length) return [];
  const rows = ctx
    .stmt(
      `SELECT f.id AS id, f.importance AS importance, f.kind AS kind, f.content AS content FROM frames_fts JOIN frames f ON f.id = frames_fts.rowid
       WHERE frames_fts MATCH ? AND f.scope = ? AND f.superseded_by IS NULL AND f.thread_key = ? AND f.workspace = ? AND f.quarantined = 0 AND f.part = 0
         AND f.importance <> 'deprecated' AND f.kind NOT IN (${HISTORY_KINDS_SQL})
       ORDER BY frames_fts.rowid DESC LIMIT ${CORRECTION_CANDIDATES}`,
    )
    .all(`{content tags} : (${words.map((w) => `"${w}"`).join(' OR ')})`, scope, threadKey, workspace) as Array<{ id: number; importance: Importance; kind: string; content: string }>;
  return rows.filter((r) => replaces(c, r.content, r.kind, content)).map((r) => ({ id: r.id, importance: r.importance }));
}

/**
 * The stored turn that `kind` text with `hash` of this host session is, if any: same session, kind
 * and content hash, and the host's turn ids (when both are known) equal. Its part ids, in order.
 */
function sameTurn(ctx: StoreContext, host: string, sessionId: string, kind: string, hash: string, hostTurnId: string): { id: number; ids: number[] } | undefined {
  // with a session: the partial index frames_turn_hash; a turn without one (rare: every hook and
  // import names its session) is looked up by its hash alone
  const rows = (
    sessionId
      ? ctx.stmt(`SELECT id, turn_id FROM frames WHERE session_id = ? AND content_hash = ? AND kind IN (${HISTORY_KINDS_SQL}) AND session_id <> '' AND kind = ? AND host = ? AND part = 0 ORDER BY id`).all(sessionId, hash, kind, host)
      : ctx.stmt(`SELECT id, turn_id FROM frames WHERE content_hash = ? AND session_id = '' AND kind = ? AND host = ? AND part = 0 ORDER BY id`).all(hash, kind, host)
  ) as Array<{ id: number; turn_id: string }>;
  const hit = rows.find((r) => {
    const theirs = hostTurnOf(r.turn_id);
    return !theirs || !hostTurnId || theirs === hostTurnId;
  });
  if (!hit) return undefined;
  const ids = (ctx.stmt('SELECT id FROM frames WHERE id = ? OR part_of = ? ORDER BY part').all(hit.id, hit.id) as Array<{ id: number }>).map((r) => r.id);
  return { id: hit.id, ids };
}

/**
 * Store one prepared save (inside the caller's transaction). A superseding save without an
 * importance inherits the importance of the frame it supersedes. A standing frame that states a
 * correction (harvest/correction.ts) supersedes the live frames whose value it replaces
 * ({@link correctedFrames}), at least at their importance. Throws `NOT_FOUND` when
 * `supersedes` names a missing frame.
 */
export function saveOne(ctx: StoreContext, p: PreparedSave): SaveResult {
  const { input, chunks, redactions, threats, notices } = p;
  const nowIso = ctx.now().toISOString();
  const kind = input.kind ?? 'fact';
  let importance: Importance = input.importance ?? 'normal';
  const scope = input.scope ?? 'personal';
  const host = input.host ?? '';
  const sessionId = input.sessionId ?? '';
  const turnId = input.turnId ?? '';
  const quarantined = threats.length > 0;
  if (input.supersedes != null) {
    const old = ctx.stmt('SELECT id, importance FROM frames WHERE id = ?').get(input.supersedes) as { id: number; importance: Importance } | undefined;
    if (!old) throw new MindError(`frame input: field \`supersedes\`: no frame with id ${input.supersedes} in ${ctx.path}`, 'NOT_FOUND', ctx.path);
    if (input.importance === undefined && old.importance !== 'deprecated') importance = old.importance;
  }
  const ids: number[] = [];
  const status: SaveResult['status'] = quarantined ? 'quarantined' : 'inserted';
  // dedupe applies to the memory as a whole: part 0 of a long save carries the hash of the whole
  // content, and the parts themselves are never compared with each other or with other frames
  const whole = chunks.length > 1 ? chunks.join('') : chunks[0]!;
  const wholeHash = contentHash(whole);
  const turn = isHistoryKind(kind);
  if (turn) {
    const same = sameTurn(ctx, host, sessionId, kind, wholeHash, turnId);
    if (same) return { id: same.id, ids: same.ids, status: 'idempotent', redactions, threats, notices };
  }
  // idempotency: the same (host, session, turn, kind) returns what was saved first
  if (turnId && !turn) {
    const rows = ctx.stmt('SELECT id, part FROM frames WHERE host = ? AND session_id = ? AND turn_id = ? AND kind = ? ORDER BY part').all(host, sessionId, turnId, kind) as Array<{ id: number }>;
    if (rows.length > 0) return { id: rows[0]!.id, ids: rows.map((r) => r.id), status: 'idempotent', redactions, threats, notices };
  }
  // a turn is never merged into another session's or turn's frame that says the same
  const dup =
    input.supersedes == null && !turn ? findDuplicate(ctx, whole, wholeHash, scope, input.threadKey ?? '', input.workspace ?? '', chunks.length === 1 && !quarantined) : undefined;
  if (dup) {
    if (IMPORTANCE_RANK[importance] > IMPORTANCE_RANK[dup.importance]) {
      ctx.stmt('UPDATE frames SET importance = ?, updated_at = ?, expires_at = CASE WHEN ? = \'temporary\' THEN expires_at ELSE NULL END WHERE id = ? OR part_of = ?').run(importance, nowIso, importance, dup.id, dup.id);
    } else {
      ctx.stmt('UPDATE frames SET updated_at = ? WHERE id = ?').run(nowIso, dup.id);
    }
    const dupIds = (ctx.stmt('SELECT id FROM frames WHERE id = ? OR part_of = ? ORDER BY part').all(dup.id, dup.id) as Array<{ id: number }>).map((r) => r.id);
    return { id: dup.id, ids: dupIds, status: 'duplicate', redactions, threats, notices };
  }
  // a correction supersedes the live frames stating the value it replaces, and keeps at least their importance
  const correction = input.supersedes == null && !turn && !quarantined && importance !== 'temporary' && chunks.length === 1 ? correctionOf(whole) : undefined;
  const corrected = correction ? correctedFrames(ctx, whole, correction, scope, input.threadKey ?? '', input.workspace ?? '') : [];
  for (const old of corrected) if (IMPORTANCE_RANK[old.importance] > IMPORTANCE_RANK[importance]) importance = old.importance;
  const supersedes = input.supersedes ?? corrected[0]?.id ?? null;
  for (let part = 0; part < chunks.length; part++) {
    const content = chunks[part]!;
    const hash = part === 0 ? wholeHash : contentHash(content);
    const info = ctx.stmt(
      `INSERT INTO frames (content, kind, importance, scope, source, host, session_id, turn_id, thread_key, workspace, cwd, tags, content_hash,
         created_at, updated_at, expires_at, supersedes, quarantined, threats, redactions, part, parts, part_of, search_text)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      content,
      kind,
      importance,
      scope,
      input.source ?? 'agent_inferred',
      host,
      sessionId,
      turn ? storedTurnId(turnId, wholeHash) : turnId,
      input.threadKey ?? '',
      input.workspace ?? '',
      input.cwd ?? '',
      JSON.stringify(input.tags ?? []),
      hash,
      input.createdAt ? new Date(input.createdAt).toISOString() : nowIso,
      nowIso,
      input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
      part === 0 ? supersedes : null,
      quarantined ? 1 : 0,
      JSON.stringify(threats),
      JSON.stringify(redactions),
      part,
      chunks.length,
      part === 0 || ids.length === 0 ? null : ids[0]!,
      indexText(content),
    );
    ids.push(Number(info.lastInsertRowid));
  }
  if (input.supersedes != null && ids[0] !== input.supersedes) {
    ctx.stmt('UPDATE frames SET superseded_by = ?, updated_at = ? WHERE id = ?').run(ids[0]!, nowIso, input.supersedes);
  }
  for (const old of corrected) ctx.stmt('UPDATE frames SET superseded_by = ?, updated_at = ? WHERE id = ? OR part_of = ?').run(ids[0]!, nowIso, old.id, old.id);
  return { id: ids[0]!, ids, status, redactions, threats, notices };
}
