import type { Command } from 'commander';
import { TokenMeter } from '@hive-mind/compaction';
import { readTranscriptFile, transcriptStats, TranscriptError, type TranscriptStats } from '@hive-mind/transcripts';
import { CliError, printJson } from '../errors.js';

/**
 * `hive-mind inspect FILE [--json] [--lenient]`: read a transcript (format detected from the
 * content) and print its counts. `--json` prints exactly the fields of `TranscriptStats`
 * (see @hive-mind/transcripts for what each count means); tokens are o200k_base counts
 * from `TokenMeter`. Bad input exits 2 with one line.
 */
export function register(program: Command): void {
  program
    .command('inspect')
    .description('read an agent transcript (Claude Code, Codex, pi, Hermes, OpenAI or Anthropic messages) and print its counts')
    .argument('<file>', 'transcript file')
    .option('--json', 'print one JSON object')
    .option('--lenient', 'skip bad lines (counted) instead of failing')
    .action(async (file: string, opts: { json?: boolean; lenient?: boolean }) => {
      let t;
      try {
        t = await readTranscriptFile(file, { lenient: opts.lenient });
      } catch (err) {
        if (err instanceof TranscriptError) throw new CliError(err.message, 2);
        throw err;
      }
      const meter = new TokenMeter();
      const stats = transcriptStats(t, (e) => meter.countEvent(e));
      if (opts.json) {
        const out: TranscriptStats = {
          format: stats.format,
          events: stats.events,
          messages: stats.messages,
          toolCalls: stats.toolCalls,
          toolResults: stats.toolResults,
          repairedCalls: stats.repairedCalls,
          compactions: stats.compactions,
          surfaceTokens: stats.surfaceTokens,
          logTokens: stats.logTokens,
          largest: stats.largest,
        };
        printJson(out);
        return;
      }
      const r = t.report;
      const m = stats.messages;
      const lines = [
        `${file}`,
        `  format          ${stats.format}`,
        `  lines           ${r.lines}${r.skippedLines ? ` (${r.skippedLines} bad lines skipped)` : ''}`,
        `  events          ${stats.events} (${t.log.surface().length} on the surface)`,
        `  messages        ${m.user} user, ${m.assistant} assistant, ${m.tool} tool, ${m.other} other`,
        `  tool calls      ${stats.toolCalls} (${stats.toolResults} results recorded, ${stats.repairedCalls} repaired as unanswered, ${r.orphanResults} orphan results kept as notes)`,
        `  compactions     ${stats.compactions}`,
        `  tokens          ${stats.surfaceTokens} on the surface, ${stats.logTokens} in the whole log (${meter.encoding})`,
        `  largest events  ${stats.largest.map((l) => `#${l.seq} ${l.type} ${l.tokens}`).join(', ')}`,
      ];
      for (const p of r.problems.slice(0, 10)) lines.push(`  skipped line ${p.line}: ${p.reason}`);
      if (r.problems.length > 10) lines.push(`  ... ${r.problems.length - 10} more skipped lines`);
      process.stdout.write(lines.join('\n') + '\n');
    });
}
