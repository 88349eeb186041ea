import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  analyzePairing,
  balancedCuts,
  blockText,
  checkInvariants,
  isMessageEvent,
  MemorySessionLog,
  type LogEvent,
  type MessageEvent,
  type SessionEvent,
} from '@hive-mind/session';
import { SqliteSessionLog } from '@hive-mind/session/sqlite';
import {
  BasicCompactionEngine,
  BudgetTooSmallError,
  CompactionConfigError,
  CompactionFailedError,
  CHECKPOINT_OPEN,
  CHECKPOINT_PREAMBLE,
  MASK_MARKER,
  PRUNE_MARKER,
  SummarizerError,
  TokenMeter,
  type Summarizer,
} from '@hive-mind/compaction';
import { bigOutput, codingSession, LogBuilder } from './helpers.js';

const meter = new TokenMeter();
/** An independent recount (fresh meter, no cache shared with the engine). */
const recount = (events: readonly SessionEvent[]) => new TokenMeter().countEvents(events);

function records(log: MemorySessionLog | SqliteSessionLog, from: number) {
  return log.events(from);
}

function surfaceText(log: { surface(): readonly MessageEvent[] }): string {
  return log.surface().map((n) => n.content.map((b) => blockText(b)).join('\n')).join('\n');
}

describe('config validation', () => {
  const bad: Array<[object, string, RegExp]> = [
    [{ budget: 1000, foo: 1 }, 'foo', /unknown compaction config key "foo"/],
    [{ budget: 1000.5 }, 'budget', /budget must be a positive integer/],
    [{ budget: 0 }, 'budget', /budget must be a positive integer/],
    [{ budget: -5 }, 'budget', /budget/],
    [{ contextWindow: 'big' }, 'contextWindow', /contextWindow must be a positive integer/],
    [{ budget: 1000, retainTokens: 1000 }, 'retainTokens', /retainTokens \(1000\) must be below the budget \(1000\)/],
    [{ budget: 1000, retainTokens: 700, summaryMaxTokens: 300 }, 'summaryMaxTokens', /summaryMaxTokens \+ retainTokens/],
    [{ budget: 1000, contextWindow: 2000 }, 'budget', /not both/],
    [{}, 'budget', /one of contextWindow or budget is required/],
    [{ contextWindow: 1000, budgetRatio: 1.5 }, 'budgetRatio', /budgetRatio must be a number in \(0, 1\]/],
    [{ budget: 1000, compactionRetries: -1 }, 'compactionRetries', /compactionRetries must be a non-negative integer/],
    [{ budget: 1000, strategy: 'magic' }, 'strategy', /strategy must be one of/],
    [{ budget: 1000, summarizer: { name: 'x' } }, 'summarizer', /summarize\(input\) method/],
  ];
  for (const [cfg, key, msg] of bad) {
    it(`rejects ${JSON.stringify(cfg)} naming ${key}`, () => {
      let err: unknown;
      try {
        new BasicCompactionEngine(cfg as never);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CompactionConfigError);
      expect((err as CompactionConfigError).option).toBe(key);
      expect((err as Error).message).toMatch(msg);
    });
  }
  it('derives the budget from the window and fills defaults', () => {
    const e = new BasicCompactionEngine({ contextWindow: 200_000 });
    expect(e.config.budget).toBe(160_000);
    expect(e.config.retainTokens).toBe(20_000);
    expect(e.config.summaryMaxTokens).toBe(4096);
    expect(e.config.compactionRetries).toBe(2);
    const small = new BasicCompactionEngine({ budget: 1000 });
    expect(small.config.retainTokens + small.config.summaryMaxTokens).toBeLessThan(1000);
  });
  it('still takes the deprecated threshold and thresholdRatio as budget and budgetRatio, naming them as written, never beside the new names', async () => {
    const byRatio = new BasicCompactionEngine({ contextWindow: 200_000, thresholdRatio: 0.5 });
    expect(byRatio.config.budget).toBe(100_000);
    expect(byRatio.config.budgetRatio).toBe(0.5);
    const old = new BasicCompactionEngine({ threshold: 3000, retainTokens: 500 });
    expect(old.config.budget).toBe(3000);
    const b = new LogBuilder();
    for (let i = 0; i < 30; i++) b.user(`request ${i}: ${'the build log says the linker failed again. '.repeat(20)}`).assistant(`noted ${i}`);
    const r = await old.compactIfNeeded(b.log);
    expect(r.compacted).toBe(true);
    expect(r.budget).toBe(3000);
    expect(r.tokensAfter).toBeLessThanOrEqual(3000);
    const errorOf = (cfg: object) => {
      try {
        new BasicCompactionEngine(cfg as never);
      } catch (e) {
        return e as CompactionConfigError;
      }
      throw new Error('no error');
    };
    const alias = errorOf({ threshold: 1000, retainTokens: 1000 });
    expect(alias.option).toBe('retainTokens');
    expect(alias.message).toBe('retainTokens (1000) must be below the threshold (1000)');
    expect(alias.messageWith((k) => `<${k}>`)).toBe('<retainTokens> (1000) must be below the <budget> (1000)');
    const bad = errorOf({ threshold: 0 });
    expect([bad.option, bad.message]).toEqual(['budget', 'threshold must be a positive integer (tokens/count), got 0']);
    const both = errorOf({ threshold: 1000, budget: 1000 });
    expect([both.option, both.message]).toEqual(['budget', 'give budget or threshold (its deprecated name), not both']);
    expect(errorOf({ contextWindow: 1000, budgetRatio: 0.5, thresholdRatio: 0.5 }).option).toBe('budgetRatio');
  });
});

describe('BasicCompactionEngine: summarize', () => {
  it('is a no-op under the budget and appends nothing', async () => {
    const b = codingSession(1);
    const e = new BasicCompactionEngine({ budget: 100_000, meter });
    const last = b.log.lastSeq;
    const r = await e.compactIfNeeded(b.log);
    expect(r.compacted).toBe(false);
    expect(r.noopReason).toBe('under-budget');
    expect(b.log.lastSeq).toBe(last);
  });

  it('lands one checkpoint replace with start/summary/end records and keeps pairing balanced', async () => {
    const b = codingSession(8);
    const e = new BasicCompactionEngine({ budget: 6000, retainTokens: 1500, summaryMaxTokens: 1500, meter });
    const before = e.surfaceTokens(b.log);
    expect(before).toBeGreaterThan(6000);
    const lastBefore = b.log.lastSeq;
    const surfaceBefore = b.log.surface().map((n) => n.seq);
    const r = await e.compactIfNeeded(b.log);
    expect(r.compacted).toBe(true);
    expect(r.tokensBefore).toBe(before);
    expect(r.tokensAfter).toBeLessThanOrEqual(6000);
    expect(r.tokensAfter).toBe(recount(b.log.surface()));
    // records: start, checkpoint, summary, end
    const recs = records(b.log, lastBefore + 1);
    // start, the checkpoint, the oversized tool results of the retained tail (pruned), summary, end
    expect(recs.map((x) => x.type)).toEqual(['compaction/start', 'user/message', ...r.replacementSeqs.map(() => 'tool/result'), 'compaction/summary', 'compaction/end']);
    expect(recs.slice(2, 2 + r.replacementSeqs.length).map((x) => x.seq)).toEqual(r.replacementSeqs);
    const [start, ck] = recs as [LogEvent, MessageEvent];
    const [summary, end] = recs.slice(-2) as [LogEvent, LogEvent];
    expect([r.startSeq, r.checkpointSeq, r.summarySeq, r.endSeq]).toEqual([start.seq, ck.seq, summary.seq, end.seq]);
    expect(ck.kind).toBe('checkpoint');
    expect(ck.surfaceOp).toEqual({ op: 'replace', start: r.shadowedSeqs[0], end: r.shadowedSeqs[r.shadowedSeqs.length - 1] });
    const id = (start.data as { id: string }).id;
    expect((end.data as { id: string; startSeq: number; error?: string })).toEqual({ id, startSeq: start.seq });
    const sd = summary.data as Record<string, unknown>;
    expect(sd).toMatchObject({ id, summarizer: 'extractive', model: null, tokensBefore: before, tokensAfter: r.tokensAfter, shadowedSeqs: r.shadowedSeqs });
    expect(typeof sd.maxTokens).toBe('number');
    // shadowed seqs are the contiguous surface run the checkpoint took over, in surface order
    const i = surfaceBefore.indexOf(r.shadowedSeqs[0]!);
    expect(surfaceBefore.slice(i, i + r.shadowedSeqs.length)).toEqual(r.shadowedSeqs);
    expect(r.shadowedTokens).toBe(recount(r.shadowedSeqs.map((s) => b.log.get(s)!)));
    // the system prompt is never compacted; the checkpoint sits right after it
    expect(b.log.surface()[0]!.type).toBe('system/message');
    expect(b.log.surface()[1]!.seq).toBe(ck.seq);
    // shadowed events stay readable in the log
    for (const s of r.shadowedSeqs) expect(b.log.get(s)).toBeDefined();
    expect(analyzePairing(b.log.surface()).unanswered).toEqual([]);
    const inv = checkInvariants(b.log.events());
    expect(inv.ok).toBe(true);
    expect(inv.orphanedCompactionStarts).toEqual([]);
    // framing
    const t = (r.summary[0] as { text: string }).text;
    expect(t.startsWith(CHECKPOINT_OPEN)).toBe(true);
    expect(t).toContain(CHECKPOINT_PREAMBLE);
    expect(t.trimEnd().endsWith('</compacted-summary>')).toBe(true);
    expect(r.summaryTokens).toBeLessThanOrEqual(1500);
  });

  it('writes the structured sections with the goal and the rules in state form and the modified files', async () => {
    const b = codingSession(8);
    const e = new BasicCompactionEngine({ budget: 9000, retainTokens: 1500, summaryMaxTokens: 3000, meter });
    const r = await e.compactIfNeeded(b.log);
    const t = (r.summary[0] as { text: string }).text;
    for (const h of ['Goal', 'Constraints and preferences', 'Done', 'Decisions', 'Errors and fixes', 'Files', 'Next step']) {
      expect(t).toContain(`## ${h}`);
    }
    // the session's only command is its test run: said once, as the end state, not again under Commands
    expect(t).toContain('- Tests pass now: `cargo test` -> test result: ok. 12 passed.');
    expect(t).not.toContain('## Commands');
    // the goal is what the work is; the rule in the same message is a constraint
    expect(t).toContain('## Goal\n- Port the tokenizer in src/lexer.py to Rust.\n');
    expect(t).toContain('- Always keep the public API named `tokenize_source`.');
    expect(t).toContain("- Don't use unwrap() in library code; return a Result<Token, LexError> instead.");
    expect(t).toContain('- Paths are relative to `/repo`.');
    expect(t).toContain('`rust/src/lexer_1.rs` (modified)');
    expect(t).toContain('`cargo test` failed 2 times (E0425); the last: error[E0425]: cannot find value `lexer_state` in this scope');
    expect(t).toContain('Use a match on TokenKind instead of a lookup table.');
    // "Good. Continue with module 7." is a nudge, not the request
    expect(t).not.toContain('Latest request: Good.');
    expect(r.anchors.total).toBeGreaterThan(5);
    expect(r.anchors.kept + r.anchors.reinserted).toBe(r.anchors.total);
  });

  it('is deterministic', async () => {
    const run = async () => {
      const b = codingSession(6);
      const e = new BasicCompactionEngine({ budget: 5000, retainTokens: 1200, summaryMaxTokens: 1500, meter });
      return (await e.compactIfNeeded(b.log)).summary;
    };
    expect(await run()).toEqual(await run());
  });

  it('merges a prior checkpoint instead of nesting it', async () => {
    const b = codingSession(6);
    const e = new BasicCompactionEngine({ budget: 5000, retainTokens: 1200, summaryMaxTokens: 1800, meter });
    const r1 = await e.compactIfNeeded(b.log);
    expect(r1.compacted).toBe(true);
    for (let t = 0; t < 6; t++) {
      b.user(`Please also port helper ${t}; never touch vendored code.`);
      b.tool('Write', { file_path: `/repo/rust/src/helper_${t}.rs`, content: 'x' }, bigOutput(40, 'w'));
    }
    const r2 = await e.compactIfNeeded(b.log);
    expect(r2.compacted).toBe(true);
    expect(r2.shadowedSeqs).toContain(r1.checkpointSeq);
    const t = (r2.summary[0] as { text: string }).text;
    expect(t.split(CHECKPOINT_OPEN).length).toBe(2); // one frame, not nested
    expect(t).toContain('tokenize_source'); // from the first checkpoint
    expect(t).toContain('- Paths are relative to `/repo`.');
    expect(t).toContain('`rust/src/helper_0.rs` (created)');
    expect(t).toContain('never touch vendored code'); // the user's constraint, from the new span
    expect(t.match(/## Files/g)!.length).toBe(1);
    expect(t.match(/## Goal/g)!.length).toBe(1);
    expect(checkInvariants(b.log.events()).ok).toBe(true);
  });

  it('compacts the early closed steps of a runaway single turn', async () => {
    const b = new LogBuilder();
    b.user('Fix every failing test in the repo. Do not change the public API.');
    for (let i = 0; i < 30; i++) b.tool('bash', { command: `npm test -- shard ${i}` }, bigOutput(30, `shard${i}`));
    const e = new BasicCompactionEngine({ budget: 4000, retainTokens: 1500, summaryMaxTokens: 1500, meter });
    const r = await e.compactIfNeeded(b.log);
    expect(r.compacted).toBe(true);
    expect(r.tokensAfter).toBeLessThanOrEqual(4000);
    const surf = b.log.surface();
    expect(surf[0]!.kind).toBe('checkpoint');
    // the cut falls inside the turn, at a balanced point (after a tool result)
    expect(surf[1]!.type).toBe('assistant/message');
    expect(analyzePairing(surf).unanswered).toEqual([]);
    // the request survives: its goal under Goal, its rule under Constraints (not re-inserted a second time)
    const ck = blockText(surf[0]!.content[0]!);
    expect(ck).toContain('## Goal\n- Fix every failing test in the repo.');
    expect(ck).toContain('- Do not change the public API.');
    expect(ck).not.toContain('Last user request');
  });

  it('rejects a budget below the newest indivisible unit with the smallest budget that works', async () => {
    const b = new LogBuilder();
    b.user('start');
    b.tool('Read', { path: 'a.txt' }, bigOutput(30));
    b.tool('Read', { path: 'b.txt' }, bigOutput(30));
    b.user('now this:\n' + bigOutput(200)); // newest unit: one giant user message, ~4.7k tokens (the user's words are never pruned)
    const e = new BasicCompactionEngine({ budget: 3000, meter });
    const err = await e.compactIfNeeded(b.log).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(BudgetTooSmallError);
    const bt = err as BudgetTooSmallError;
    expect(bt.message).toMatch(/smallest budget that can work is \d+/);
    expect(bt.smallestBudget).toBeGreaterThan(bt.unitTokens);
    // nothing was appended, and the smallest budget really works
    expect(b.log.events().some((x) => x.type.startsWith('compaction/'))).toBe(false);
    const ok = new BasicCompactionEngine({ budget: bt.smallestBudget, meter });
    const r = await ok.compactIfNeeded(b.log);
    expect(r.compacted).toBe(true);
    expect(r.tokensAfter).toBeLessThanOrEqual(bt.smallestBudget);
    // one below it does not
    await expect(new BasicCompactionEngine({ budget: bt.smallestBudget - 1, meter }).compactNow(b.log)).rejects.toBeInstanceOf(BudgetTooSmallError);
  });

  it('works on a real SQLite log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hm-compact-'));
    try {
      const path = join(dir, 's.db');
      const src = codingSession(6).log;
      const log = SqliteSessionLog.open(path, { id: 'sq' });
      for (const ev of src.events()) {
        const { seq: _s, ...rest } = ev as MessageEvent;
        log.append(rest as never);
      }
      const e = new BasicCompactionEngine({ budget: 5000, retainTokens: 1200, summaryMaxTokens: 1500, meter });
      const r = await e.compactIfNeeded(log);
      expect(r.compacted).toBe(true);
      log.close();
      const again = SqliteSessionLog.open(path);
      expect(again.surface().map((n) => n.seq)).toContain(r.checkpointSeq);
      expect(recount(again.surface())).toBe(r.tokensAfter);
      again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('failure taxonomy', () => {
  const failing = (msg: string, retryable = true): Summarizer & { calls: number } => ({
    name: 'failing',
    calls: 0,
    async summarize() {
      this.calls++;
      throw new SummarizerError(msg, retryable);
    },
  });

  it('without fallback, fails closed after compactionRetries extra attempts: end{error}, surface untouched', async () => {
    const b = codingSession(6);
    const s = failing('endpoint said 503');
    const e = new BasicCompactionEngine({ budget: 5000, retainTokens: 1200, summaryMaxTokens: 1500, compactionRetries: 2, summarizer: s, meter, fallback: false });
    const surface = b.log.surface();
    const gen = b.log.generation;
    const err = await e.compactIfNeeded(b.log).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(CompactionFailedError);
    expect((err as Error).message).toMatch(/3 attempt\(s\); the surface is unchanged: attempt 1: endpoint said 503/);
    expect(s.calls).toBe(3);
    expect(b.log.surface()).toEqual(surface);
    expect(b.log.generation).toBe(gen);
    const recs = b.log.events().filter((x) => x.type.startsWith('compaction/')) as LogEvent[];
    expect(recs.map((x) => x.type)).toEqual(['compaction/start', 'compaction/end']);
    expect((recs[1]!.data as { error: string }).error).toMatch(/endpoint said 503/);
    expect(checkInvariants(b.log.events()).orphanedCompactionStarts).toEqual([]);
  });

  it('does not retry a non-retryable summarizer error', async () => {
    const b = codingSession(6);
    const s = failing('401 invalid api key', false);
    const e = new BasicCompactionEngine({ budget: 5000, retainTokens: 1200, summaryMaxTokens: 1500, summarizer: s, meter, fallback: false });
    await expect(e.compactIfNeeded(b.log)).rejects.toThrow(/401 invalid api key/);
    expect(s.calls).toBe(1);
  });

  it('rejects a summary that does not shrink its source', async () => {
    const b = new LogBuilder();
    for (let i = 0; i < 6; i++) {
      b.user(`step ${i}`);
      b.assistant('ok');
    }
    const copy: Summarizer = { name: 'copier', async summarize(inp) { return { text: inp.span.map((n) => blockText(n.content[0]!)).join('\n').repeat(3) }; } };
    const e = new BasicCompactionEngine({ budget: 5000, retainTokens: 100, summaryMaxTokens: 2000, compactionRetries: 1, summarizer: copy, meter, anchors: false });
    const surf = b.log.surface();
    const err = await e.compactRegion(b.log, surf[0]!.seq, surf[5]!.seq).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(CompactionFailedError);
    expect((err as Error).message).toMatch(/attempt 1: the summary \(\d+ tokens\) does not shrink its source \(\d+ tokens\); attempt 2/);
    expect(b.log.surface()).toEqual(surf);
  });

  it('honours AbortSignal during the summarizer await: AbortError, end{error: aborted}, surface untouched', async () => {
    const b = codingSession(6);
    let started!: () => void;
    const began = new Promise<void>((r) => (started = r));
    const hang: Summarizer = {
      name: 'hang',
      summarize: (inp) =>
        new Promise((_, reject) => {
          started();
          inp.signal?.addEventListener('abort', () => reject(new Error('stopped')));
        }),
    };
    const e = new BasicCompactionEngine({ budget: 5000, retainTokens: 1200, summaryMaxTokens: 1500, summarizer: hang, meter });
    const ac = new AbortController();
    const surface = b.log.surface();
    const p = e.compactIfNeeded(b.log, { signal: ac.signal });
    await began;
    ac.abort();
    const err = await p.catch((x: unknown) => x);
    expect((err as Error).name).toBe('AbortError');
    expect(b.log.surface()).toEqual(surface);
    const end = b.log.events().filter((x) => x.type === 'compaction/end').pop() as LogEvent;
    expect((end.data as { error: string }).error).toBe('aborted');
  });

  it('throws AbortError without appending when already aborted', async () => {
    const b = codingSession(4);
    const e = new BasicCompactionEngine({ budget: 3000, meter });
    const ac = new AbortController();
    ac.abort();
    const last = b.log.lastSeq;
    await expect(e.compactIfNeeded(b.log, { signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(b.log.lastSeq).toBe(last);
  });

  it('treats an orphaned start (a crash) as inert', async () => {
    const b = codingSession(6);
    b.log.append({ type: 'compaction/start', data: { id: 'crashed', tokensBefore: 1 } });
    const inv = checkInvariants(b.log.events());
    expect(inv.ok).toBe(true);
    expect(inv.orphanedCompactionStarts.length).toBe(1);
    const e = new BasicCompactionEngine({ budget: 5000, retainTokens: 1200, summaryMaxTokens: 1500, meter });
    const r = await e.compactIfNeeded(b.log);
    expect(r.compacted).toBe(true);
    expect(checkInvariants(b.log.events()).orphanedCompactionStarts.length).toBe(1);
  });
});

describe('pruning, masking, regions, pressure', () => {
  it('prunes oversized old tool results when that is enough, keeping callIds and error lines', async () => {
    const b = new LogBuilder();
    b.user('run the suite');
    const lines = bigOutput(400, 'out').split('\n');
    lines[200] = 'Traceback (most recent call last): ValueError: bad token at 17';
    const id = b.tool('bash', { command: 'pytest -x' }, lines.join('\n'));
    b.user('thanks, now summarize');
    b.assistant('Done.');
    b.user('one more thing');
    b.tool('read', { path: 'x.py' }, 'print(1)');
    const e = new BasicCompactionEngine({ budget: 6000, retainTokens: 500, summaryMaxTokens: 1000, pruneMinTokens: 500, meter });
    expect(e.surfaceTokens(b.log)).toBeGreaterThan(6000);
    const r = await e.compactIfNeeded(b.log);
    expect(r.action).toBe('prune');
    expect(r.tokensAfter).toBeLessThanOrEqual(6000);
    const node = b.log.get(r.replacementSeqs[0]!) as MessageEvent;
    expect(node.surfaceOp).toEqual({ op: 'replace', start: r.shadowedSeqs[0], end: r.shadowedSeqs[0] });
    const res = node.content[0] as { type: string; callId: string };
    expect(res.type).toBe('tool-result');
    expect(res.callId).toBe(id);
    const t = blockText(node.content[0]!);
    expect(t).toContain('Traceback (most recent call last): ValueError: bad token at 17');
    expect(t).toMatch(new RegExp(`\\[… \\d+ lines ${PRUNE_MARKER}`));
    expect(t).toContain('out 0:');
    expect(t).toContain('out 399:');
    expect(analyzePairing(b.log.surface()).unanswered).toEqual([]);
  });

  it('masks old observations, keeping the newest N and every callId', async () => {
    const b = new LogBuilder();
    b.user('explore');
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(b.tool(i % 2 ? 'Read' : 'Bash', i % 2 ? { file_path: `f${i}` } : { command: `ls ${i}` }, bigOutput(40, `o${i}`)));
    const e = new BasicCompactionEngine({ budget: 5000, retainTokens: 1000, summaryMaxTokens: 1000, strategy: 'mask', maskKeepRecent: 3, meter });
    const r = await e.compactIfNeeded(b.log);
    expect(r.action).toBe('mask');
    expect(r.shadowedSeqs.length).toBe(5);
    const results = b.log.surface().flatMap((n) => n.content.filter((c) => c.type === 'tool-result')) as Array<{ callId: string; content: Array<{ text: string }> }>;
    expect(results.map((x) => x.callId)).toEqual(ids);
    for (const x of results.slice(0, 5)) expect(x.content[0]!.text).toMatch(new RegExp(`^\\${MASK_MARKER} (Bash|Read) result, 40 lines, \\d+ chars, ~\\d+ tokens`));
    for (const x of results.slice(5)) expect(x.content[0]!.text.startsWith(MASK_MARKER)).toBe(false);
    // idempotent: compacting again masks nothing new
    const again = await e.compactNow(b.log);
    expect(again.compacted).toBe(false);
  });

  it('mask alone over budget fails closed; auto then summarizes', async () => {
    const mk = () => {
      const b = new LogBuilder();
      for (let i = 0; i < 10; i++) {
        b.user(`Request ${i}: ${'please make the parser handle nested generics correctly. '.repeat(20)}`);
        b.tool('Read', { file_path: `f${i}` }, bigOutput(20));
      }
      return b;
    };
    const b1 = mk();
    const mask = new BasicCompactionEngine({ budget: 3000, retainTokens: 800, summaryMaxTokens: 1000, strategy: 'mask', maskKeepRecent: 1, meter });
    await expect(mask.compactIfNeeded(b1.log)).rejects.toThrow(/observation masking leaves \d+ tokens, above the budget 3000/);
    const b2 = mk();
    const auto = new BasicCompactionEngine({ budget: 3000, retainTokens: 800, summaryMaxTokens: 1000, strategy: 'auto', maskKeepRecent: 1, meter });
    const r = await auto.compactIfNeeded(b2.log);
    expect(r.action).toBe('summarize');
    expect(r.tokensAfter).toBeLessThanOrEqual(3000);
  });

  it('compactRegion summarizes exactly a balanced region and rejects an unbalanced one', async () => {
    const b = codingSession(4);
    const surf = b.log.surface();
    const e = new BasicCompactionEngine({ budget: 100_000, meter });
    // surf[2] is an assistant tool call; cutting after it separates it from its result
    await expect(e.compactRegion(b.log, surf[1]!.seq, surf[2]!.seq)).rejects.toThrow(/separates a tool call from its result/);
    const cut = balancedCuts(surf).find((c) => c > 8)!;
    const r = await e.compactRegion(b.log, surf[1]!.seq, surf[cut - 1]!.seq);
    expect(r.shadowedSeqs).toEqual(surf.slice(1, cut).map((n) => n.seq));
    expect(b.log.surface()[1]!.seq).toBe(r.checkpointSeq);
  });

  it('dry run plans without appending', async () => {
    const b = codingSession(6);
    const e = new BasicCompactionEngine({ budget: 5000, retainTokens: 1200, summaryMaxTokens: 1500, meter });
    const last = b.log.lastSeq;
    const r = await e.compactIfNeeded(b.log, { dryRun: true });
    expect(r.dryRun).toBe(true);
    expect(r.shadowedSeqs.length).toBeGreaterThan(0);
    expect(r.tokensAfter).toBeLessThanOrEqual(5000);
    expect(b.log.lastSeq).toBe(last);
  });

  it('keeps the cached pressure equal to a full recount as events are appended and replaced', async () => {
    const b = codingSession(3);
    const e = new BasicCompactionEngine({ budget: 3000, retainTokens: 800, summaryMaxTokens: 900, meter: new TokenMeter() });
    const fresh = () => new TokenMeter().countEvents(b.log.surface());
    expect(e.surfaceTokens(b.log)).toBe(fresh());
    b.user('more');
    b.tool('Read', { path: 'z' }, bigOutput(10));
    expect(e.surfaceTokens(b.log)).toBe(fresh());
    await e.compactIfNeeded(b.log);
    expect(e.surfaceTokens(b.log)).toBe(fresh());
    b.assistant('after');
    expect(e.surfaceTokens(b.log)).toBe(fresh());
    expect(b.log.surface().filter(isMessageEvent).length).toBeGreaterThan(0);
  });
});

describe('calibration', () => {
  it('compares against the budget in calibrated tokens', async () => {
    const b = codingSession(3);
    const m = new TokenMeter();
    const e = new BasicCompactionEngine({ budget: 10_000, retainTokens: 2000, summaryMaxTokens: 1500, meter: m });
    const raw = e.surfaceTokens(b.log);
    expect(raw).toBeLessThan(10_000);
    expect(raw * 1.5).toBeGreaterThan(10_000);
    expect((await e.compactIfNeeded(b.log)).compacted).toBe(false);
    // the provider reports 1.5x what we count: the same surface is now over the budget
    m.calibrate(1000, 1500);
    expect(e.surfaceBudget()).toBe(Math.floor(10_000 / 1.5));
    const r = await e.compactIfNeeded(b.log);
    expect(r.compacted).toBe(true);
    expect(m.adjusted(r.tokensAfter)).toBeLessThanOrEqual(10_000);
  });
});
