/**
 * Project rule files a tool printed in the span (AGENTS.md, CLAUDE.md, GEMINI.md, .cursorrules,
 * CONVENTIONS.md ..., or any prose file whose lines are mostly imperative rules): their rules are
 * standing constraints of the project, carried under Constraints attributed to the file
 * ("AGENTS.md: NEVER commit unless user asks."), not findings. A rule said before the file was
 * read that the file contradicts (the same subject, one of them ruling it out) gives way to the
 * file; a user's rule said after it is the later word and stands.
 */
import type { CallFact, SpanFacts } from './analyze.js';
import { resultLines, ruleLines } from './gists.js';
import { RULES_OUT } from './rules.js';
import { contentTokens } from './subject.js';

/** A file that holds the project's rules for agents, by its name. */
export const RULES_FILE = /(?:^|\/)(?:AGENTS|CLAUDE|GEMINI|CONTRIBUTING|CONVENTIONS)(?:\.\w+)?\.md$|(?:^|\/)\.(?:cursorrules|clinerules|windsurfrules)$/i;
/** A prose file (rules by content are looked for in these only). */
const PROSE = /\.(?:md|mdc|mdx|txt|rst)$|(?:^|\/)\.\w+rules$/i;
/** Rules of one file carried under Constraints, at most. */
const RULES_PER_FILE = 4;
/** A prose file is a rules file by content when this many of its lines are rules, and this share of its prose lines. */
const CONTENT_RULES = 4;
const CONTENT_SHARE = 0.3;

/** The key of a project rule's Constraints item. */
const PROJECT_RULE_KEY = 'project-rule:';

/** The file a call printed whole or in part: the path it read (one file only), else undefined. */
function readSubject(c: CallFact): string | undefined {
  return c.info.kind === 'read' ? c.info.paths[0] : c.info.reads?.length === 1 ? c.info.reads[0] : undefined;
}

/** The rule lines of a call that printed a project rule file (by name, or a prose file mostly made of rules), else undefined. */
export function projectRulesOf(c: CallFact): { path: string; rules: string[] } | undefined {
  if (c.failed || c.resultText === undefined) return undefined;
  const path = readSubject(c);
  if (!path) return undefined;
  const byName = RULES_FILE.test(path);
  if (!byName && !PROSE.test(path)) return undefined;
  const { lines } = resultLines(c.resultText);
  const rules = ruleLines(lines, RULES_PER_FILE);
  if (!rules.length) return undefined;
  if (!byName) {
    const prose = lines.filter((l) => l.trim().length >= 16 && !/^\s*(?:#|```|\|)/.test(l)).length;
    if (rules.length < CONTENT_RULES || rules.length < CONTENT_SHARE * prose) return undefined;
  }
  return { path, rules: rules.slice(0, RULES_PER_FILE) };
}

/** The project rules the span's tools printed, with the seq of the call: one entry per file and rule, the newest read winning. */
export function projectRules(f: SpanFacts): Array<{ seq: number; text: string; key: string }> {
  const out = new Map<string, { seq: number; text: string; key: string }>();
  for (const c of f.calls) {
    const found = projectRulesOf(c);
    if (!found) continue;
    const name = found.path.split('/').pop()!;
    for (const r of found.rules) {
      const key = `${PROJECT_RULE_KEY}${found.path}:${r}`;
      out.delete(key);
      out.set(key, { seq: c.seq, text: `${name}: ${r.replace(/[.:;,]$/, '')}.`, key });
    }
  }
  return [...out.values()];
}

/**
 * Drop, from Constraints `items` (oldest first), the rules said before a project rule that the
 * project rule contradicts: they share a content word of four letters or more and exactly one of
 * the two rules something out ("Git commits after major changes" before "AGENTS.md: NEVER commit
 * unless user asks"). Project rules and corrections are never dropped.
 */
export function yieldToProjectRules<T extends { text: string; key?: string }>(items: readonly T[]): T[] {
  const dropped = new Set<number>();
  items.forEach((p, j) => {
    if (!p.key?.startsWith(PROJECT_RULE_KEY)) return;
    const rule = p.text.slice(p.text.indexOf(': ') + 2);
    const words = [...contentTokens(rule)].filter((w) => w.length >= 4);
    for (let i = 0; i < j; i++) {
      const it = items[i]!;
      if (it.key?.startsWith(PROJECT_RULE_KEY) || it.key?.startsWith('correction:')) continue;
      const theirs = contentTokens(it.text);
      if (words.some((w) => theirs.has(w)) && RULES_OUT.test(rule) !== RULES_OUT.test(it.text)) dropped.add(i);
    }
  });
  return items.filter((_, i) => !dropped.has(i));
}
