// A host's own compaction summary is recognized by its wording wherever a transcript carries it
// (a user message of an OpenAI array, a system message, an assistant message), merged as a
// prior checkpoint, and its contradictions with the newer state resolved for the later state.
// Bad input: an empty span, a span of only tool results, a span with no user turn: a valid
// checkpoint, never an invented goal.
import { describe, expect, it } from 'vitest';
import { MemorySessionLog } from '@hive-mind/session';
import { parseTranscript } from '@hive-mind/transcripts';
import { BasicCompactionEngine, ExtractiveSummarizer, TokenMeter, analyzeSpan, checkpointBody, parseCheckpoint } from '@hive-mind/compaction';
import { hostSummary } from '../src/host-summary.js';
import { LogBuilder } from './helpers.js';

const meter = new TokenMeter();
const section = (text: string, h: string) => (new RegExp(`## ${h}\\n([\\s\\S]*?)(?:\\n\\n## |$)`).exec(text)?.[1] ?? '').split('\n').filter((l) => l.startsWith('- '));
const summarize = async (log: MemorySessionLog, maxTokens = 3000) => (await new ExtractiveSummarizer().summarize({ span: log.surface().filter((n) => n.type !== 'system/message' || n.seq > 1), tail: [], maxTokens, meter })).text;

/** A continuation summary the way Claude Code writes it into the next session (analysis, then numbered sections indented by three spaces). */
const claudeCodeSummary = [
  'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.',
  '',
  'Analysis:',
  'Let me go through the conversation chronologically. The user first asked for the invoice export...',
  '',
  'Summary:',
  '1. Primary Request and Intent:',
  '   The user is building invoicekit, a Python library that turns time-tracking CSV exports into PDF invoices, and asked to add a monthly summary page to every invoice.',
  '',
  '2. Key Technical Concepts:',
  '   - reportlab for the PDF layout',
  '   - Decimal with ROUND_HALF_UP for every amount',
  '',
  '3. Files and Code Sections:',
  '   - invoicekit/summary.py',
  '      - New module: the monthly summary page',
  '      ```python',
  '      def summary_page(entries): ...',
  '      ```',
  '   - invoicekit/legacy_export.py',
  '      - The old CSV export, kept for the accounting team',
  '',
  '4. Errors and fixes:',
  '   - `pytest -q` failed with `KeyError: \'rate\'`: fixed by reading the rate column by name.',
  '',
  '5. Problem Solving:',
  '   Solved the rounding differences between the CSV totals and the PDF.',
  '',
  '6. All user messages:',
  '   - "add a monthly summary page to every invoice"',
  '   - "never round before the total, only at the end"',
  '   - "why is the total off by a cent?"',
  '   - "keep legacy_export.py working, accounting still uses it"',
  '',
  '7. Pending Tasks:',
  '   - Add the client logo to the summary page',
  '',
  '8. Current Work:',
  '   Writing tests for summary_page.',
  '',
  '9. Optional Next Step:',
  '   Add the client logo to the summary page.',
  '',
  'If you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: /home/dev/.claude/projects/-home-dev-invoicekit/3f1c.jsonl',
  'Please continue the conversation from where we left it off without asking the user any further questions. Continue with the last task that you were asked to work on.',
].join('\n');

describe('host summaries recognized by content', () => {
  it("Claude Code's continuation summary as the first user message of an OpenAI array: merged, never the goal's wording or the latest request", async () => {
    const messages = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: claudeCodeSummary },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: 'pytest -q tests/test_summary.py' }) } }] },
      { role: 'tool', tool_call_id: 'c1', content: '3 passed in 0.20s' },
      { role: 'user', content: 'good. now remove legacy_export.py, accounting moved to the new export' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: 'git rm invoicekit/legacy_export.py && git commit -m "Remove legacy_export.py"' }) } }] },
      { role: 'tool', tool_call_id: 'c2', content: "rm 'invoicekit/legacy_export.py'\n[main 9a1b2c3] Remove legacy_export.py" },
      { role: 'assistant', content: 'Removed legacy_export.py and committed.' },
    ];
    const t = parseTranscript(JSON.stringify({ model: 'gpt-4o', messages }), { format: 'openai' });
    const f = analyzeSpan(t.log.surface());
    expect(f.priorBodies).toHaveLength(1);
    expect(f.userTexts.map((u) => u.text)).not.toContainEqual(expect.stringContaining('This session is being continued'));
    const text = await summarize(t.log);
    expect(text).not.toMatch(/This session is being continued|Please continue the conversation|Analysis:|chronologically/);
    expect(section(text, 'Goal')[0]).toMatch(/invoicekit, a Python library that turns time-tracking CSV exports into PDF invoices/);
    // the user's lines as rules in state form: the question is no rule, the rule the later state contradicts is gone
    const rules = section(text, 'Constraints and preferences').join('\n');
    expect(rules).toContain('Never round before the total, only at the end.');
    expect(rules).not.toMatch(/why is the total off|keep legacy_export/i);
    // the file notes without their code; the kept-for-accounting note gave way to the removal
    expect(text).not.toContain('def summary_page');
    expect(text).toContain('invoicekit/summary.py');
    expect(text).not.toMatch(/kept for the accounting team/);
    expect(section(text, 'Done').join('\n')).toContain('Remove legacy_export.py');
    // the host's next step is superseded by the span's state
    expect(section(text, 'Next step').join('\n')).not.toContain('client logo');
    expect(text).toContain('Full transcript before that compaction: `/home/dev/.claude/projects/-home-dev-invoicekit/3f1c.jsonl`');
  });

  it("Codex's, pi's and Hermes' summary openings, in a user, system or assistant message, are read as prior checkpoints", () => {
    const bodies = [
      ['user/message', 'Another language model started to solve this problem and produced a summary of its thinking process. You also have access to the state of the tools that were used by that language model. Use this to build on the work that has already been done and avoid duplicating work. Here is the summary produced by the other language model, use the information in this summary to assist with your own analysis:\n- Project: billing-sync, a Go service that mirrors Stripe invoices into Postgres.\n- Next: backfill March.'],
      ['user/message', 'The conversation history before this point was compacted into the following summary:\n\n<summary>\n## Goal\nMirror Stripe invoices into Postgres.\n</summary>'],
      ['system/message', '[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted into the summary below. This is a handoff from a previous context window — treat it as background reference, NOT as active instructions. The current session state (files, config, etc.) may reflect work described here — avoid repeating it:\n## Historical Task Snapshot\nUser asked: "backfill March"\n\n## Goal\nMirror Stripe invoices into Postgres.\n--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---'],
      ['assistant/message', '[CONTEXT SUMMARY]: ## Goal\nMirror Stripe invoices into Postgres.'],
    ] as const;
    for (const [type, text] of bodies) {
      const log = new MemorySessionLog();
      log.append({ type: 'user/message', surfaceOp: 'append', content: [{ type: 'text', text: 'hello' }] });
      log.append({ type, surfaceOp: 'append', content: [{ type: 'text', text }] });
      const node = log.surface()[1]!;
      const body = checkpointBody(node);
      expect(body, text.slice(0, 40)).not.toBeNull();
      expect(body).not.toMatch(/Another language model|compacted into the following summary|CONTEXT COMPACTION|CONTEXT SUMMARY|END OF CONTEXT SUMMARY|<\/?summary>/);
      const goal = parseCheckpoint(body!).get('Goal')?.[0]?.text ?? '';
      expect(goal, text.slice(0, 40)).toMatch(/Stripe invoices into Postgres/);
    }
    // a message that only mentions such wording further in is the user's own
    expect(hostSummary('Why does my log say "This session is being continued from a previous conversation"?')).toBeUndefined();
  });

  it('a summary numbered by section, in any language: a numbered label with its text opens the next section; a title line says nothing', () => {
    const body = [
      'Résumé de la conversation précédente :',
      '',
      '1. Demande : empêcher les doubles réservations (~/dev/asso-salles).',
      '2. Décisions :',
      "   - La base garantit l'absence de chevauchement : ExclusionConstraint.",
      '   1. Pas de Celery : une commande lancée par cron.',
      "3. Constats de l'exploration : aucune contrainte existante ; test xfail dans tests/test_conflits.py:48.",
      '4. Règles du projet (CLAUDE.md) : messages de commit en français ; tests avec pytest -q.',
      '5. Dernier état : migration appliquée ; pytest : 2 échecs, 31 réussis.',
      '6. Suite : supprimer Celery, commiter.',
      // a number out of sequence is an item of the section it is in
      '9. Note : rien.',
    ].join('\n');
    const p = parseCheckpoint(body);
    const texts = (h: string) => (p.get(h) ?? []).map((i) => i.text);
    expect(texts('Goal')).toEqual(['empêcher les doubles réservations (~/dev/asso-salles).']);
    expect(texts('Decisions')).toEqual(["La base garantit l'absence de chevauchement : ExclusionConstraint.", 'Pas de Celery : une commande lancée par cron.']);
    expect(texts('Findings')).toEqual(['aucune contrainte existante ; test xfail dans tests/test_conflits.py:48.']);
    expect(texts('Constraints and preferences')).toEqual(['messages de commit en français ; tests avec pytest -q.']);
    expect(texts('In progress')).toEqual(['migration appliquée ; pytest : 2 échecs, 31 réussis.']);
    expect(texts('Next step')).toEqual(['supprimer Celery, commiter.', 'Note : rien.']);
    expect(p.has('Earlier context')).toBe(false);
  });

  it('a later state wins over a merged summary: a removed file is no longer kept, a later decision on one rule stands alone', async () => {
    const b = new LogBuilder();
    b.log.append({ type: 'user/message', kind: 'checkpoint', surfaceOp: 'append', content: [{ type: 'text', text: ['## Goal', 'Refactor the coding agent so all run modes share one AgentSession.', '', '## Constraints and preferences', '- Keep old code working alongside new code', '', '## Decisions', '- Use single quotes for strings in the new modules.', '', '## Files', '- `src/tui/tui-renderer.ts` stays in place (old implementation, for reference)'].join('\n') }] });
    b.user('now remove the old files, tui-renderer.ts and main.ts, we are done with them');
    b.tool('bash', { command: 'git rm src/tui/tui-renderer.ts src/main.ts && git commit -m "Remove old implementation files (main.ts, tui-renderer.ts)"' }, "rm 'src/tui/tui-renderer.ts'\nrm 'src/main.ts'\n[refactor 1a2b3c4] Remove old implementation files (main.ts, tui-renderer.ts)");
    b.assistant('Removed the old files. I switched to double quotes for strings in the new modules instead of single quotes, to match biome.');
    const text = await summarize(b.log);
    expect(text).not.toMatch(/Keep old code working|stays in place/);
    const decisions = section(text, 'Decisions');
    expect(decisions.join('\n')).toContain('double quotes');
    expect(decisions.join('\n')).not.toContain('Use single quotes for strings');
    expect(section(text, 'Done').join('\n')).toContain('Remove old implementation files');
  });
});

describe('no user turn, no goal', () => {
  it('an empty span, a span of only tool results and a span of only agent text give a valid checkpoint and no goal', async () => {
    const onlyTools = new LogBuilder();
    onlyTools.tool('bash', { command: 'ls' }, 'a.txt\nb.txt');
    onlyTools.tool('read', { path: 'a.txt' }, 'hello');
    const onlyAgent = new LogBuilder();
    onlyAgent.assistant('I looked at the repository: it holds a.txt and b.txt.');
    for (const b of [new LogBuilder(), onlyTools, onlyAgent]) {
      const text = await summarize(b.log, 500);
      expect(text).not.toContain('## Goal');
      expect(text).toContain('## Next step');
    }
    // and through the engine: a log of tool results alone compacts without inventing one
    const big = new LogBuilder();
    for (let i = 0; i < 12; i++) big.tool('bash', { command: `cat part${i}.txt` }, `line ${i} `.repeat(300));
    const r = await new BasicCompactionEngine({ budget: 3000, meter }).compactNow(big.log);
    expect(r.compacted).toBe(true);
    expect((r.summary[0] as { text: string }).text).not.toContain('## Goal');
  });
});
