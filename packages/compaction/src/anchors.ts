import { blockText, type SurfaceNode } from '@hive-mind/session';
import { analyzeSpan } from './analyze.js';
import { fixedLater } from './error-fixes.js';
import { isFilePath, isSubstantiveRequest, lastingInstructions } from './sections.js';
import { latestRules, withoutSpeaker } from './rules.js';
import { distillRequest } from './sentences.js';
import { modifiesFiles } from './toolinfo.js';
import { resolvePaths, SCRATCH_PATH } from './paths.js';
import { PRESERVED_HEADING } from './summarizer.js';
import { parseJson } from './results.js';
import type { TokenMeter } from './tokens.js';

/** Kinds of facts that must survive a compaction, most important first. */
export type AnchorKind = 'last-request' | 'instruction' | 'file' | 'error' | 'identifier';

/** One fact a summary must keep. `text` is matched case- and whitespace-insensitively. */
export interface Anchor {
  kind: AnchorKind;
  text: string;
}

/** Recall of anchors in a checkpoint. `kept`: already in the summary; `reinserted`: added under "Preserved details"; the rest were lost to the budget. */
export interface AnchorReport {
  total: number;
  kept: number;
  reinserted: number;
  /** Anchors neither kept nor reinserted (budget too tight). */
  lost: Anchor[];
}

// a backslash before a name is an escape (`\nURL` in printed JSON is a newline and URL), not part of it
const IDENT = /(?<![\w./\\-])(?:[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+|[A-Za-z_$]*[a-z][a-z0-9]*[A-Z][\w$]*|[A-Za-z][a-z0-9]*_[a-z0-9_]+|[A-Z][A-Z0-9]*_[A-Z0-9_]+)(?![\w$])/g;
const STOP_IDENTS = new Set(['e.g', 'i.e', 'etc.', 'node.js']);

/** Normalize for matching: lowercase, quotes/backticks/markdown bullets removed, whitespace collapsed. */
export function normalizeForMatch(s: string): string {
  return s.toLowerCase().replace(/[`"'*_>]/g, '').replace(/\s+/g, ' ').trim();
}

/**
 * What an anchor is matched by in a summary ({@link normalizeForMatch}): a request's, rule's or
 * error's text without its closing sentence mark, since a summary that states it inside a longer
 * item ("... (schema.sql line 31) (the agent was wrong ...)") has no period there.
 */
export function anchorMatchText(a: Anchor): string {
  const k = normalizeForMatch(a.text);
  // a rule said in state form ends its sentences with a period where the user wrote "!"
  return a.kind === 'file' || a.kind === 'identifier' ? k : k.replace(/[!！]/g, '.').replace(/[.?。？]+$/u, '').trim();
}

export interface AnchorOptions {
  /** Cap on identifier anchors. Default 40. */
  maxIdentifiers?: number;
  /** Cap on instruction anchors (newest kept). Default 15. */
  maxInstructions?: number;
  /** Cap on error anchors (newest kept). Default 10. */
  maxErrors?: number;
  /** The session's working folder the log records (paths.ts): a file anchor is its path from there, absolute when known. */
  cwd?: string;
}

/**
 * Extract the anchors of a span: the last user request (its first sentence; none when the tail
 * holds a newer one), the user's
 * lasting instructions (as the Constraints section states them), modified file paths, the
 * errors still open at its end (the error line of each failed call no later run fixed), and
 * identifiers that both the span and the retained `tail` mention (most mentioned in the tail
 * first). Deduplicated, deterministic.
 */
export function extractAnchors(span: readonly SurfaceNode[], tail: readonly SurfaceNode[], opts: AnchorOptions = {}): Anchor[] {
  const f = analyzeSpan(span);
  const { root } = resolvePaths(f, opts.cwd);
  const full = (p: string) => (root && !p.startsWith('/') && !/^[~$]/.test(p) ? (p === '.' ? root : `${root}/${p}`) : p);
  const out: Anchor[] = [];
  const seen = new Set<string>();
  const push = (kind: AnchorKind, text: string) => {
    const t = text.trim();
    const k = normalizeForMatch(t);
    if (!k || seen.has(k)) return;
    seen.add(k);
    out.push({ kind, text: t });
  };
  const users = f.userTexts.map((u) => ({ seq: u.seq, text: withoutSpeaker(u.text) }));
  // the latest substantive request ("ok", "/mode" and other nudges are not the request)
  const lastReq = [...users].reverse().find((u) => isSubstantiveRequest(u.text)) ?? users[users.length - 1];
  // its first sentence (more when that is a few words, "/compact" before its arguments): the checkpoint states the rest as rules, the goal or the next step
  // a newer request in the tail kept verbatim is the request now (the next step points there):
  // the span's last one is no anchor to re-insert
  const newerInTail = tail.length > 0 && analyzeSpan(tail).userTexts.some((u) => isSubstantiveRequest(withoutSpeaker(u.text)));
  if (lastReq && !newerInTail) {
    const lead = distillRequest(lastReq.text, 1);
    push('last-request', lead.length < 40 ? distillRequest(lastReq.text, 120) : lead);
  }
  // the user's lasting instructions, as the checkpoint's Constraints section states them
  // the rules as they stand, in the form the Constraints section states them (a later rule replaces the earlier one)
  const instr = latestRules(users.filter((u) => isSubstantiveRequest(u.text)).flatMap((u) => lastingInstructions(u.text)).map((text, seq) => ({ text, seq }))).map((r) => r.text);
  for (const t of instr.slice(-(opts.maxInstructions ?? 15))) push('instruction', t);
  for (const c of f.calls) {
    if (modifiesFiles(c.info) && !c.failed) for (const p of c.info.paths.map(full)) if (isFilePath(p) && !SCRATCH_PATH.test(p)) push('file', p);
  }
  // the errors still open at the end of the span: one a later run of the same command (or tool on the same path) fixed is history
  const errs = f.calls.filter((c, i) => c.failed && c.errorLine && !fixedLater(c, f.calls.slice(i + 1))).map((c) => c.errorLine!);
  for (const e of errs.slice(-(opts.maxErrors ?? 10))) push('error', e);
  const maxIds = opts.maxIdentifiers ?? 40;
  if (maxIds > 0 && tail.length) {
    const tailText = tail.map(idText).join('\n');
    const counts = new Map<string, number>();
    for (const m of tailText.matchAll(IDENT)) {
      const id = m[0].replace(/\.$/, '');
      if (id.length < 4 || STOP_IDENTS.has(id.toLowerCase())) continue;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    if (counts.size) {
      const spanText = span.map(idText).join('\n');
      const spanIds = new Set<string>();
      for (const m of spanText.matchAll(IDENT)) spanIds.add(m[0].replace(/\.$/, ''));
      const ranked = [...counts].filter(([id]) => spanIds.has(id)).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      for (const [id] of ranked.slice(0, maxIds)) push('identifier', id);
    }
  }
  return out;
}

/** Fields whose value is a word from the tool's own schema (`status: "in_progress"`), not the work's vocabulary. */
const ENUM_FIELDS = new Set(['status', 'state', 'type', 'kind', 'role', 'priority', 'activeform']);

function values(v: unknown, out: string[], key = ''): void {
  if (typeof v === 'string') {
    if (!(ENUM_FIELDS.has(key.toLowerCase()) && /^[\w-]+$/.test(v))) out.push(v);
  } else if (Array.isArray(v)) for (const x of v) values(x, out, key);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) values(x, out, k);
}


/**
 * Text of a node for identifier matching: tool-call inputs and JSON tool results (Codex's
 * `apply_patch` output `{output, metadata: {exit_code, duration_seconds}}`, Hermes' `{output,
 * exit_code, error}`) contribute their values, not their keys, and no schema enum values.
 */
function idText(n: SurfaceNode): string {
  const out: string[] = [];
  for (const b of n.content) {
    if (b.type === 'tool-call') values(b.input, out);
    else if (b.type === 'tool-result') {
      const text = blockText(b);
      const json = parseJson(text);
      if (json !== undefined) values(json, out);
      else out.push(text);
    } else out.push(blockText(b));
  }
  // an e-mail address (a commit's Co-Authored-By trailer, a git author) holds a domain, not the work's vocabulary
  return out.join('\n').replace(EMAIL, ' ');
}

/** An e-mail address, `name <user@host.tld>` or bare. */
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;

/** Split anchors into those the summary contains and those it lost. */
export function checkAnchors(summary: string, anchors: readonly Anchor[]): { kept: Anchor[]; missing: Anchor[] } {
  // the summary's items read as one text: an anchor of two sentences may be said as two items
  const hay = normalizeForMatch(summary.replace(/^\s*[-*]\s+/gm, '').replace(/[!！]/g, '.'));
  // a checkpoint may state paths relative to its project root ("Paths are relative to `/repo`.")
  const root = /Paths are relative to `([^`]+)`/.exec(summary)?.[1];
  const kept: Anchor[] = [];
  const missing: Anchor[] = [];
  // paths the summary names (backticked), for a file said from another folder than the anchor's
  const named = [...summary.matchAll(/`([^`\s]+\/[^`\s]+)`/g)].map((m) => m[1]!.replace(/^\.\//, ''));
  for (const a of anchors) {
    const rel = a.kind === 'file' && root && a.text.startsWith(root + '/') ? a.text.slice(root.length + 1) : undefined;
    const k = anchorMatchText(a);
    // a request of several sentences is said when each of them is, wherever the summary put it
    const pieces = a.kind === 'file' || a.kind === 'identifier' ? [] : k.split(/(?<=[.。])\s+/).map((p) => p.replace(/[.。]+$/, '').trim()).filter(Boolean);
    const said = hay.includes(k) || (pieces.length > 1 && pieces.every((p) => hay.includes(p))) || (rel !== undefined && hay.includes(normalizeForMatch(rel)));
    const elsewhere = a.kind === 'file' && named.some((p) => a.text.endsWith('/' + p) || p.endsWith('/' + (rel ?? a.text)));
    (said || elsewhere ? kept : missing).push(a);
  }
  return { kept, missing };
}

/**
 * `body` with the missing anchors put back: a modified file into the Files section as
 * "`path` (modified)" (said relative to the root the section names; a Files section is added
 * before In progress / Next step when the body has none), so no second list repeats Files; the
 * others under `## Preserved details`.
 */
function withPreserved(body: string, anchors: readonly Anchor[]): string {
  const lines = [`## ${PRESERVED_HEADING}`];
  const ids: string[] = [];
  const files = anchors.filter((a) => a.kind === 'file');
  let out = body.trim();
  if (files.length) {
    const root = /Paths are relative to `([^`]+)`/.exec(out)?.[1];
    const rel = (p: string) => (root && p.startsWith(root + '/') ? p.slice(root.length + 1) : p);
    const items = files.map((a) => `- \`${rel(a.text)}\` (modified)`).join('\n');
    const filesAt = /^## Files\n/m.exec(out);
    if (filesAt) {
      const end = out.indexOf('\n## ', filesAt.index + 1);
      const at = end < 0 ? out.length : end;
      out = `${out.slice(0, at).replace(/\s+$/, '')}\n${items}${end < 0 ? '' : '\n'}${out.slice(at)}`;
    } else {
      const next = /^## (?:In progress|Next step)\n/m.exec(out);
      out = next ? `${out.slice(0, next.index)}## Files\n${items}\n\n${out.slice(next.index)}` : `${out}\n\n## Files\n${items}`;
    }
  }
  for (const a of anchors) {
    if (a.kind === 'identifier') ids.push('`' + a.text + '`');
    else if (a.kind === 'last-request') lines.push(`- Last user request: "${a.text}"`);
    else if (a.kind === 'instruction') lines.push(`- User said: "${a.text}"`);
    else if (a.kind !== 'file') lines.push(`- Error seen: ${a.text}`);
  }
  if (ids.length) lines.push(`- Identifiers still in use: ${ids.slice(0, MAX_REINSERTED_IDENTIFIERS).join(', ')}`);
  return lines.length > 1 ? `${out}\n\n${lines.join('\n')}` : out;
}

/** Identifiers re-inserted at most (the most mentioned in the retained tail first): a longer list crowds out the summary. */
export const MAX_REINSERTED_IDENTIFIERS = 12;

const PRIORITY: AnchorKind[] = ['last-request', 'instruction', 'file', 'error', 'identifier'];

/**
 * Put the missing anchors back (modified files into Files, the rest under `## Preserved
 * details`), dropping the least
 * important ones (identifiers, then errors, files, instructions) until the body
 * fits `maxTokens`. Returns the new body and what was reinserted or lost.
 */
export function reinsertAnchors(body: string, missing: readonly Anchor[], maxTokens: number, meter: TokenMeter): { body: string; reinserted: Anchor[]; lost: Anchor[] } {
  if (!missing.length) return { body, reinserted: [], lost: [] };
  let idents = 0;
  const sorted = [...missing].sort((a, b) => PRIORITY.indexOf(a.kind) - PRIORITY.indexOf(b.kind)).filter((a) => a.kind !== 'identifier' || ++idents <= MAX_REINSERTED_IDENTIFIERS);
  const capped = missing.filter((a) => !sorted.includes(a));
  let keep = sorted.length;
  for (;;) {
    const chosen = sorted.slice(0, keep);
    const text = keep ? withPreserved(body, chosen) : body;
    if (meter.countText(text) <= maxTokens || keep === 0) return { body: text, reinserted: chosen, lost: [...sorted.slice(keep), ...capped] };
    keep--;
  }
}
