import type { Command } from 'commander';
import { Notes, adoptHermesNotes, hermesHome, readHermesFiles, readHermesSessionBlocks, type NotesResult, type NotesTarget } from '@hive-mind/mind';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError, printJson } from '../errors.js';

interface NotesCli {
  thread?: string;
  user?: boolean;
  json?: boolean;
  turn?: string;
  expectedVersion?: string;
  autoConsolidate?: boolean;
}

function targetOf(o: NotesCli): NotesTarget {
  if (o.thread !== undefined && !o.thread.trim()) throw new CliError('--thread needs a non-empty thread key (omit --thread for the global MEMORY.md)', 2);
  if (o.user && o.thread) throw new CliError('--user and --thread are exclusive: USER.md is global', 2);
  return o.user ? { file: 'user' } : { file: 'memory', ...(o.thread ? { thread: o.thread } : {}) };
}

/** The first line a person sees for a refused write: what happened and the commands that help. */
function peopleMessage(r: Extract<NotesResult, { ok: false }>): string {
  const kept = 'pendingFrameId' in r && r.pendingFrameId !== undefined ? ` It was kept in the mind as pending frame #${r.pendingFrameId} (hive-mind mind show ${r.pendingFrameId}).` : '';
  if (r.reason === 'over_limit' && r.entryTooLarge)
    return `this entry is ${r.entryTooLarge.chars} characters, more than the whole ${r.entryTooLarge.limit}-character limit, so it can never fit; nothing was written.${kept} Add a shorter version, or raise the limit (HIVE_MIND_MEMORY_CHAR_LIMIT / HIVE_MIND_USER_CHAR_LIMIT).`;
  if (r.reason === 'over_limit')
    return `the notes file would be ${r.overflowBy} characters over its ${r.limit}-character limit; nothing was written.${kept} Make room with \`hive-mind notes remove TEXT\` or \`hive-mind notes replace OLD NEW\` (entries below), or add again with --auto-consolidate (evicted entries go to the archive: \`hive-mind notes archive\`).`;
  if (r.reason === 'failure_cap') return `${r.failures} note writes failed in this turn; nothing more was written.${kept} Check the entries with \`hive-mind notes show\`.`;
  return r.message;
}

function report(r: NotesResult, json: boolean | undefined): void {
  if (json) {
    printJson(r);
  } else if (r.ok) {
    process.stdout.write(`${r.message}${r.warning ? `\nwarning: ${r.warning}` : ''}\n`);
  } else {
    // the result's message is written for an agent (MCP); a person at the CLI gets commands to run
    const lines = [peopleMessage(r)];
    if (r.reason === 'over_limit') {
      lines.push(`usage ${r.usage.chars}/${r.limit} chars (~${r.usage.tokens} tokens, estimate), over by ${r.overflowBy}; entries:`);
      for (const e of r.entries) lines.push(`  [${e.index}] ${e.chars} chars  ${e.preview}`);
    } else if (!('done' in r && r.done) && 'candidates' in r && r.candidates?.length) {
      lines.push(r.reason === 'ambiguous' ? 'candidates:' : 'entries:');
      for (const e of r.candidates) lines.push(`  [${e.index}] ${e.chars} chars  ${e.preview}`);
    }
    if ('pendingFrameId' in r && r.pendingFrameId !== undefined) lines.push(`kept as pending frame #${r.pendingFrameId} in the mind`);
    // first line on stderr as the CLI error line; details on stdout
    process.stdout.write(lines.slice(1).map((l) => l + '\n').join(''));
    process.stderr.write(`hive-mind: ${lines[0]}\n`);
  }
  if (!r.ok) process.exitCode = 1;
}

/**
 * `hive-mind notes add|replace|remove|show|archive|restore [--thread KEY] [--user] [--json]`:
 * curated MEMORY.md / USER.md (Hermes memory model). Limits come from `HIVE_MIND_MEMORY_CHAR_LIMIT`
 * and `HIVE_MIND_USER_CHAR_LIMIT` (defaults 2200 / 1375 characters). A refused write exits 1 and,
 * with --json, prints the typed result (e.g. `{ok:false, reason:"over_limit", ...}`).
 */
export function register(program: Command): void {
  const notes = program
    .command('notes')
    .description('curated notes: MEMORY.md (per thread, global fallback) and USER.md, entries separated by §, hard character limits');
  const withTarget = (c: Command) =>
    c
      .option('--thread <key>', "the thread's MEMORY.md (<home>/memories/threads/<key>/MEMORY.md)")
      .option('--user', 'USER.md instead of MEMORY.md')
      .option('--json', 'print the result as JSON');
  const writeOpts = (c: Command) =>
    c
      .option('--turn <id>', 'turn id: after 3 failed writes in one turn the answer is {done: true}')
      .option('--expected-version <v>', 'refuse the write if the file changed since this version (from `notes show --json`)')
      .option('--auto-consolidate', 'merge duplicates and evict the oldest unpinned entries (archived) when over the limit');
  const mk = (o: NotesCli) => new Notes(o.autoConsolidate ? { autoConsolidate: true } : {});
  const wo = (o: NotesCli) => ({ origin: { host: 'cli', source: 'user_stated' as const }, ...(o.turn ? { turnId: o.turn } : {}), ...(o.expectedVersion ? { expectedVersion: o.expectedVersion } : {}) });

  writeOpts(withTarget(notes.command('add').description('add an entry').argument('<text>', 'the entry'))).action((text: string, o: NotesCli) =>
    report(mk(o).add(targetOf(o), text, wo(o)), o.json),
  );
  writeOpts(
    withTarget(notes.command('replace').description('replace the entry matching OLD (exact match wins; a unique substring works)').argument('<old>', 'text of the entry to replace').argument('<new>', 'the new entry')),
  ).action((old: string, text: string, o: NotesCli) => report(mk(o).replace(targetOf(o), old, text, wo(o)), o.json));
  writeOpts(withTarget(notes.command('remove').description('remove the entry matching OLD').argument('<old>', 'text of the entry to remove'))).action((old: string, o: NotesCli) =>
    report(mk(o).remove(targetOf(o), old, wo(o)), o.json),
  );
  withTarget(notes.command('show').description('print the entries with their sizes and the usage against the limit')).action((o: NotesCli) => {
    const st = new Notes().read(targetOf(o));
    if (o.json) return printJson(st);
    const out = [`${st.path}  ${st.usage.chars}/${st.limit} chars (${st.usage.percent}%), ~${st.usage.tokens} tokens (estimate), ${st.usage.entries} entries${st.exists ? '' : ' (no file yet)'}`];
    if (st.warning) for (const w of st.warning.split('\n')) out.push(`warning: ${w}`);
    const flagged = new Map((st.flagged ?? []).map((f) => [f.index, f.reason]));
    // a flagged entry is shown with its control characters as \u escapes, never sent raw to the terminal
    const shown = (e: string) => e.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    st.entries.forEach((e, i) => out.push(`[${i}] (${e.length} chars${flagged.has(i) ? `, FLAGGED: ${flagged.get(i)}; not injected` : ''}) ${shown(e).replace(/\n/g, '\n    ')}`));
    process.stdout.write(out.join('\n') + '\n');
  });
  withTarget(notes.command('archive').description('entries removed by consolidation (restorable)')).action((o: NotesCli) => {
    const recs = new Notes().archive(targetOf(o));
    if (o.json) return printJson({ archive: recs });
    process.stdout.write(recs.length ? recs.map((r) => `${r.id} ${r.ts.slice(0, 19)} ${r.reason}  ${r.entry.replace(/\s+/g, ' ').slice(0, 100)}`).join('\n') + '\n' : 'archive is empty\n');
  });
  writeOpts(withTarget(notes.command('restore').description('put an archived entry back').argument('<id>', 'archive id (see notes archive)'))).action((id: string, o: NotesCli) =>
    report(mk(o).restore(targetOf(o), id, wo(o)), o.json),
  );

  notes
    .command('import')
    .description("adopt the notes another agent keeps: Hermes's MEMORY.md and USER.md (same § format and limits), and the memory blocks in a Hermes session's system prompt; Hermes's files are only read")
    .requiredOption('--from <agent>', 'hermes')
    .option('--home <dir>', 'the Hermes home (a profile) whose MEMORY.md and USER.md to read: default HERMES_HOME, else ~/.hermes; with --session, read only when given')
    .option('--session <file...>', "Hermes session files whose system prompt holds the memory blocks")
    .option('--json', 'print the report as JSON')
    .action((o: { from: string; home?: string; session?: string[]; json?: boolean }) => {
      if (o.from !== 'hermes') throw new CliError(`--from must be hermes, got ${JSON.stringify(o.from)}`, 2);
      // the sessions named are what to import; the profile's files too only when --home says so (or with no session)
      const home = o.home || !o.session?.length ? hermesHome(o.home) : undefined;
      const stores = home ? readHermesFiles(home) : [];
      const sessions = (o.session ?? []).map((f) => resolve(f));
      for (const f of sessions) {
        if (!existsSync(f)) throw new CliError(`${f}: no such session file`, 2);
        stores.push(...readHermesSessionBlocks(f));
      }
      if (!stores.length) {
        const where = [home ? `${home}/memories holds no MEMORY.md or USER.md` : '', sessions.length ? `${sessions.join(', ')} hold${sessions.length === 1 ? 's' : ''} no memory block` : ''].filter(Boolean).join(', and ');
        throw new CliError(`no Hermes notes found: ${where}`, 2);
      }
      const r = adoptHermesNotes(new Notes(), stores);
      if (o.json) return printJson(r);
      const n = (s: string, source?: string) => r.entries.filter((e) => e.status === s && (source === undefined || e.source === source)).length;
      // one line per file read, in the order read: each names its own source and counts what it gave
      const sources = [...new Set(r.entries.map((e) => e.source))];
      const out = sources.map((src) => {
        const files = [...new Set(r.entries.filter((e) => e.source === src).map((e) => (e.file === 'user' ? 'USER.md' : 'MEMORY.md')))];
        const kind = sessions.includes(src) ? ` (its ${files.join(' and ')} block${files.length > 1 ? 's' : ''})` : '';
        return `from ${src}${kind}: ${n('added', src)} added, ${n('present', src)} already in your notes, ${n('conflict', src)} added beside an entry that says otherwise, ${n('refused', src)} refused`;
      });
      for (const e of r.entries.filter((x) => x.status === 'conflict')) out.push(`  conflict (${e.file === 'user' ? 'USER.md' : 'MEMORY.md'}): "${e.entry.replace(/\s+/g, ' ').slice(0, 100)}" vs yours "${e.with}"`);
      for (const e of r.entries.filter((x) => x.status === 'refused')) out.push(`  refused (${e.reason}): "${e.entry.replace(/\s+/g, ' ').slice(0, 100)}" (kept as a pending frame in the mind)`);
      for (const l of r.limits) out.push(`  note: Hermes allows ${l.hermes} characters in ${l.file === 'user' ? 'USER.md' : 'MEMORY.md'}, yours ${l.ours}; raise HIVE_MIND_${l.file === 'user' ? 'USER' : 'MEMORY'}_CHAR_LIMIT to keep them all`);
      process.stdout.write(out.join('\n') + '\n');
      if (n('refused')) process.exitCode = 1;
    });
}
