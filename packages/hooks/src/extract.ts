/**
 * Extractive summaries of captured turns: pure functions over text (no model call), for the
 * temporary frame a turn leaves when it states nothing lasting. What becomes standing memory is
 * decided by @hive-mind/mind `promptStanding` / `replyStanding`, on every capture path.
 */

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
