import type { ContentBlock, ToolResultBlock } from '@hive-mind/session';

/** Lines that carry failure signals and survive pruning. */
export const ERROR_LINE = /\b(error|errors|fail(?:ed|ure|s)?|exception|traceback|panic(?:ked)?|fatal|denied|refused|not found|cannot|can't|undefined is not|segmentation fault|abort(?:ed)?|assert(?:ion)?|ENOENT|EACCES|ECONNREFUSED|TS\d{4}|E\d{4}|no such file or directory|command not found|permission denied)\b|✗|✘|\bFAIL\b|^\s*at .+:\d+:\d+\)?$|^\s*File ".+", line \d+/i;

/**
 * An exception class named in CamelCase (`ModuleNotFoundError`, `KeyError`, `NullPointerException`):
 * {@link ERROR_LINE} needs a word boundary before "error", so on its own it misses Python's and
 * Java's exception lines ("KeyError: 'sku'").
 */
const EXCEPTION_NAME = /\b[A-Z][A-Za-z0-9]*(?:Error|Exception)\b/;

/** True for a line that carries a failure signal ({@link ERROR_LINE} or an exception class name). */
export function isErrorLine(line: string): boolean {
  return ERROR_LINE.test(line) || EXCEPTION_NAME.test(line);
}

/** Marker text that makes pruning idempotent (a pruned text is never pruned again). */
export const PRUNE_MARKER = 'elided by hive-mind';

export interface PruneOptions {
  headLines: number;
  tailLines: number;
  /** Longest kept line (characters); longer lines keep their start and end. Default 400. */
  maxLineChars?: number;
  /** Cap on error lines kept from the middle. Default 40. */
  maxErrorLines?: number;
}

function clipLine(line: string, max: number): string {
  if (line.length <= max) return line;
  const half = Math.floor((max - 40) / 2);
  return `${line.slice(0, half)} [… ${line.length - 2 * half} chars ${PRUNE_MARKER} …] ${line.slice(-half)}`;
}

/**
 * Content-aware pruning of one tool output (characters in, characters out): keeps
 * the first `headLines` and last `tailLines` lines and every middle line that looks
 * like an error/failure/traceback (up to `maxErrorLines`), replacing each elided run
 * with `[… N lines elided by hive-mind …]`. Over-long kept lines are clipped in the
 * middle. Idempotent: text that already carries the marker is returned unchanged.
 */
export function pruneText(text: string, opts: PruneOptions): string {
  if (text.includes(PRUNE_MARKER)) return text;
  return pruneLines(text, opts);
}

/** {@link pruneText} without the idempotence check (the text may hold markers already). */
function pruneLines(text: string, opts: PruneOptions): string {
  const maxLine = opts.maxLineChars ?? 400;
  const maxErr = opts.maxErrorLines ?? 40;
  const lines = text.split('\n');
  const keep = new Array<boolean>(lines.length).fill(false);
  for (let i = 0; i < Math.min(opts.headLines, lines.length); i++) keep[i] = true;
  for (let i = Math.max(0, lines.length - opts.tailLines); i < lines.length; i++) keep[i] = true;
  let errs = 0;
  for (let i = 0; i < lines.length && errs < maxErr; i++) {
    if (!keep[i] && isErrorLine(lines[i]!)) {
      keep[i] = true;
      errs++;
    }
  }
  const out: string[] = [];
  let gap = 0;
  let total = 0;
  const flush = () => {
    if (gap) out.push(`[… ${gap} line${gap === 1 ? '' : 's'} ${PRUNE_MARKER} (head, tail and error lines kept) …]`);
    total += gap;
    gap = 0;
  };
  let clipped = false;
  for (let i = 0; i < lines.length; i++) {
    if (keep[i]) {
      flush();
      const c = clipLine(lines[i]!, maxLine);
      if (c !== lines[i]) clipped = true;
      out.push(c);
    } else gap++;
  }
  flush();
  if (!total && !clipped) return text;
  return out.join('\n');
}

/**
 * A report (a sub-agent's or research tool's result) pruned by what it is made of: its code
 * blocks go first, each replaced by one marker line, so its prose (what it found) stays whole;
 * what is still over `opts` is pruned like any output (head, tail and error lines).
 */
export function pruneReport(text: string, opts: PruneOptions): string {
  if (text.includes(PRUNE_MARKER)) return text;
  const lines = text.split('\n');
  const out: string[] = [];
  let block: string[] | undefined;
  for (const l of lines) {
    if (/^\s*```/.test(l)) {
      if (block) {
        out.push(`[… ${block.length + 2}-line code block ${PRUNE_MARKER} (the report's prose kept) …]`);
        block = undefined;
      } else block = [];
      continue;
    }
    if (block) block.push(l);
    else out.push(l);
  }
  if (block) out.push('```', ...block); // an unclosed fence: kept as it was
  const prose = out.join('\n');
  // the prose itself is pruned only when it is still long
  return prose.split('\n').length > opts.headLines + opts.tailLines + 40 ? pruneLines(prose, opts) : prose;
}

/** Prune the text parts of a tool result block (images are kept); `report` for a sub-agent's or research result ({@link pruneReport}). Returns the same block when nothing changed. */
export function pruneToolResult(block: ToolResultBlock, opts: PruneOptions, report = false): ToolResultBlock {
  let changed = false;
  const content = block.content.map((c) => {
    if (c.type !== 'text') return c;
    const t = report ? pruneReport(c.text, opts) : pruneText(c.text, opts);
    if (t !== c.text) changed = true;
    return t === c.text ? c : { ...c, text: t };
  });
  return changed ? { ...block, content } : block;
}

/** Marker prefix of a masked observation (makes masking idempotent). */
export const MASK_MARKER = '[observation masked by hive-mind:';

/**
 * The one-line placeholder that replaces a masked tool result: tool name, size in
 * characters and lines, and whether it was an error. The block keeps its `callId`.
 */
export function maskToolResult(block: ToolResultBlock, toolName: string | undefined, sizeTokens: number): ToolResultBlock {
  const texts = block.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text);
  if (texts.length === 1 && texts[0]!.startsWith(MASK_MARKER)) return block;
  const chars = texts.reduce((n, t) => n + t.length, 0);
  const lines = texts.reduce((n, t) => n + (t ? t.split('\n').length : 0), 0);
  const images = block.content.length - texts.length;
  const name = toolName ?? block.toolName ?? 'tool';
  const line = `${MASK_MARKER} ${name} result, ${lines} line${lines === 1 ? '' : 's'}, ${chars} chars, ~${sizeTokens} tokens${images ? `, ${images} image${images === 1 ? '' : 's'}` : ''}${block.isError ? ', was an error' : ''}; re-run the tool if you need it]`;
  return { ...block, content: [{ type: 'text', text: line }] };
}

/** True when any block is a tool result. */
export function hasToolResult(blocks: readonly ContentBlock[]): boolean {
  return blocks.some((b) => b.type === 'tool-result');
}
