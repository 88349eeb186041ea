/**
 * Extractive summaries and importance classification for captured turns. Pure
 * functions over text (no model call): the hook path must stay cheap.
 */

/** Importance levels of the mind (see @hive-mind/mind `Importance`). */
export type ImportanceLevel = 'critical' | 'important' | 'normal' | 'temporary';

/** What a durable statement in a prompt is about (mind frame `kind`). */
export type StatementKind = 'preference' | 'instruction' | 'decision' | 'fact';

const CRITICAL = /\b(never|must not|must|always|do not ever|security|secret|credential|data loss|irreversible|production|breaking change)\b/i;
const IMPORTANT =
  /\b(remember|decid(?:e|ed|ing)|decision|prefer|preference|important|note that|from now on|error|fail(?:s|ed|ure)?|bug|fix(?:ed)?|root cause|workaround|convention|requires?|deprecated|migrat(?:e|ed|ion))\b/i;
const TRIVIAL = /^(hi|hello|hey|thanks?|thank you|ok(ay)?|yes|no|sure|done|great|cool|bye)\b[\s\S]{0,40}$/i;

/**
 * Classify how much a text matters to future sessions. Rules, in order:
 * - `critical`: hard constraints (never/must/always, security, secrets, production, data loss);
 * - `important`: explicit memory requests, decisions, preferences, errors and fixes;
 * - `temporary`: greetings and acknowledgements, or fewer than 12 non-space characters;
 * - `normal` otherwise.
 */
export function classifyImportance(text: string): ImportanceLevel {
  const t = text.trim();
  if (t.replace(/\s+/g, '').length < 12 || TRIVIAL.test(t)) return 'temporary';
  if (CRITICAL.test(t)) return 'critical';
  if (IMPORTANT.test(t)) return 'important';
  return 'normal';
}

const MEMORY_CUES: Array<{ re: RegExp; kind: StatementKind }> = [
  { re: /\b(?:please\s+)?remember(?:\s+that)?\s+(.+)/i, kind: 'fact' },
  { re: /\b(?:note|keep in mind)\s+that\s+(.+)/i, kind: 'fact' },
  { re: /\b(?:from now on|going forward)[,:]?\s+(.+)/i, kind: 'instruction' },
  { re: /\b(i (?:prefer|like|want|dislike|hate)\s+.+)/i, kind: 'preference' },
  { re: /\b((?:always|never)\s+.+)/i, kind: 'instruction' },
  { re: /\b(?:we|i)\s+(?:decided|agreed|chose)\s+(?:to|that|on)?\s*(.+)/i, kind: 'decision' },
];

/**
 * Find durable statements the user made in a prompt ("remember that the build uses
 * pnpm", "from now on use tabs", "I prefer ...", "we decided to ..."); questions are
 * skipped. Returns each
 * statement (one sentence, at most 500 characters) with its kind and importance;
 * an empty array when the prompt states nothing to keep.
 */
export function durableStatements(prompt: string): Array<{ content: string; kind: StatementKind; importance: ImportanceLevel }> {
  const out: Array<{ content: string; kind: StatementKind; importance: ImportanceLevel }> = [];
  const seen = new Set<string>();
  for (const sentence of splitSentences(prompt)) {
    // questions ("do you remember ...?", "why does it always fail?") state nothing
    if (/\?\s*$/.test(sentence)) continue;
    for (const cue of MEMORY_CUES) {
      const m = cue.re.exec(sentence);
      if (!m) continue;
      const body = (m[1] ?? '').trim().replace(/[.!]+$/, '');
      if (body.length < 3) continue;
      const content = capitalize(body).slice(0, 500);
      const key = content.toLowerCase();
      if (seen.has(key)) break;
      seen.add(key);
      const imp = classifyImportance(content);
      out.push({ content, kind: cue.kind, importance: imp === 'critical' ? 'critical' : 'important' });
      break;
    }
  }
  return out;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Split text into sentences/lines: on line breaks, and after `.`, `!`, `?` followed by space. Code fences are dropped. */
export function splitSentences(text: string): string[] {
  const noCode = text.replace(/```[\s\S]*?```/g, ' ');
  const out: string[] = [];
  for (const line of noCode.split(/\n+/)) {
    const l = line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').trim();
    if (!l) continue;
    for (const s of l.split(/(?<=[.!?])\s+(?=[A-Z0-9`"'(])/)) {
      const t = s.trim();
      if (t) out.push(t);
    }
  }
  return out;
}

const SIGNAL = /\b(decid|because|fixed|fix|error|fail|root cause|created|added|removed|renamed|updated|changed|implemented|found|result|conclusion|summary|todo|next step|remember|prefer|must|never|always|works|passed|done)\w*/i;
const PATHLIKE = /(?:^|\s)(?:[\w.-]+\/)+[\w.-]+|\b\w+\.(?:ts|js|py|rs|go|md|json|toml|yaml|yml)\b/;

/**
 * Extractive summary of an assistant message: scores each sentence (signal words such
 * as decided/fixed/error, file paths, numbers, position: first and last sentences
 * weigh more), keeps the best ones in their original order within `maxChars`
 * characters (default 600). Text shorter than `maxChars` is returned whole (whitespace
 * collapsed). Never returns more than `maxChars` characters.
 */
export function summarizeExtractive(text: string, maxChars = 600): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= maxChars) return flat;
  const sentences = splitSentences(text);
  if (sentences.length === 0) return flat.slice(0, maxChars);
  const scored = sentences.map((s, i) => {
    let score = 0;
    if (SIGNAL.test(s)) score += 3;
    if (PATHLIKE.test(s)) score += 2;
    if (/\d/.test(s)) score += 1;
    if (i === 0) score += 2;
    if (i === sentences.length - 1) score += 1.5;
    if (s.length < 20) score -= 1;
    if (s.length > 300) score -= 1;
    return { s: s.length > 300 ? s.slice(0, 297) + '...' : s, i, score };
  });
  const chosen = new Set<number>();
  let used = 0;
  for (const c of [...scored].sort((a, b) => b.score - a.score || a.i - b.i)) {
    const cost = c.s.length + (chosen.size ? 1 : 0);
    if (used + cost > maxChars) continue;
    chosen.add(c.i);
    used += cost;
  }
  if (chosen.size === 0) return flat.slice(0, maxChars - 3) + '...';
  return scored
    .filter((c) => chosen.has(c.i))
    .map((c) => c.s)
    .join(' ');
}
